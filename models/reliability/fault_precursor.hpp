#pragma once
// A failure predictor: a precursor signal (a rising GPU temperature trend, a climbing rate of
// correctable ECC errors) that raises an alarm for a node `lead_time` before some of its faults,
// with a given recall and precision. Public predictors report lead times of 2-4 min at recall
// 73-85% (Desh, HPDC'18; Doomsday, SC'18) and precision up to 0.994 (HiPC'19) on HPC logs
// (../shared/reference/public-figures.md, "failure prediction").
//
// Mechanism, per fault class listed in `classes` (those whose physics has a precursor: GPU,
// HBM and SRAM wear, thermal interface):
//   true alarms   every fault of such a class is announced by the fault process `lead_time`
//                 before it happens (FaultProcess::set_lookahead); an alarm fires for it with
//                 probability `recall`, drawn from the stream (seed,
//                 "reliability/precursor/<class>"). Its node is the fault's; the alarm's signal
//                 lasts until the fault.
//   false alarms  a Poisson process on uniformly drawn nodes of the inventory, from the stream
//                 (seed, "reliability/precursor/false_alarms"), at the rate that makes precision
//                 hold in expectation: precision = true / (true + false), so
//                   false rate = true rate x (1 - precision) / precision,
//                   true rate  = recall x sum over the classes of rate x scale x instances
//                 (the nominal rate: instances under repair are not thinned out, a slight
//                 overestimate). A false alarm's node passes diagnostics after `drain_time`.
// Faults of other classes, and the (1 - recall) share of the listed ones, come unannounced.
// The alarm says what an operator would act on: the node, the signal's cause and how long to
// keep the node out of service (drain_until: the fault's time for a true alarm, whose signal
// persists until the part fails; now + drain_time for a false one). Same seed, same alarms.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/reliability/fault_process.hpp"
#include "models/reliability/precursor_config.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::reliability {

struct Alarm {
  int node = -1;
  bool false_alarm = false;
  std::string cause;      // "predicted:<class>" or "false_alarm"
  sim::Time drain_until;  // keep the node out of service until then
};

class FaultPrecursor {
 public:
  using Handler = std::function<void(const Alarm&)>;

  // Validates `config` against the fault model: sim::ConfigError naming the field
  // ("precision", "recall", "lead_time", "drain_time", "precursor_classes") for precision outside
  // (0, 1], recall outside [0, 1], a negative time or a class the fault model does not have.
  // Registers with `faults` (before its start()); alarms come until `horizon`.
  FaultPrecursor(PrecursorConfig config, FaultProcess& faults, std::uint64_t seed,
                 sim::Simulator& simulator, Handler on_alarm, sim::Time horizon = sim::Time::max());
  FaultPrecursor(const FaultPrecursor&) = delete;
  FaultPrecursor& operator=(const FaultPrecursor&) = delete;

  // Schedules the first false alarm. Once, with the fault process's start().
  void start();

  std::uint64_t true_alarms() const { return true_alarms_; }
  std::uint64_t false_alarms() const { return false_alarms_; }
  // Announced faults of the listed classes that drew no alarm (recall).
  std::uint64_t missed() const { return missed_; }
  // Alarms per hour the false-alarm process runs at.
  double false_alarm_rate_per_hour() const { return false_rate_per_s_ * 3600.0; }

 private:
  void on_upcoming(const Fault& f);
  void schedule_false_alarm();

  PrecursorConfig config_;
  const FaultProcess& faults_;
  sim::Simulator& sim_;
  Handler on_alarm_;
  sim::Time horizon_;
  std::vector<std::unique_ptr<sim::RandomStream>> class_rng_;  // per fault class; null if unlisted
  sim::RandomStream false_rng_;
  double false_rate_per_s_ = 0.0;
  std::int64_t nodes_ = 0;
  bool started_ = false;
  std::uint64_t true_alarms_ = 0;
  std::uint64_t false_alarms_ = 0;
  std::uint64_t missed_ = 0;
};

}  // namespace dcsim::models::reliability
