#pragma once
// Random faults of every class in a FaultModelConfig, scheduled on a simulator: each fault calls
// on_fault at its time and, once its repair time has passed, on_repair. What a fault does to jobs
// and the fabric is up to whoever listens (the datacenter assembly, a failover policy).
//
// Streams: class c draws everything (fault times, instances, repair times) from its own
// sim::RandomStream(seed, "reliability/<c.name>"), so adding, removing or reordering classes
// never changes another class's draws.
//
// Exponential classes (weibull_shape == 1), by superposition: n instances failing independently
// at rate r each are one Poisson process of rate n r whose faults fall on a uniformly chosen
// instance. One pending event and O(1) memory per class, O(1) work per fault, whatever n is.
// Instances under repair cannot fail. Superposition handles that by thinning: a candidate fault
// that lands on an instance already down (from any class failing the same component kind) is
// dropped. This is exact, not an approximation: the exponential lifetime is memoryless, so
// thinning the rate-n r process with acceptance probability (n - d)/n, where d instances are
// down, leaves each up instance failing at exactly rate r and each down one at 0 (Lewis & Shedler
// 1979, thinning of Poisson processes). Dropped candidates are counted (skipped()).
//
// Weibull classes (shape != 1) are renewal processes per instance: every instance starts new at
// start() (a freshly commissioned cluster: age 0), fails after a Weibull lifetime with mean
// 1 / rate, and restarts at age 0 when repaired, so its long-run fault rate is
// 1 / (MTTF + mean repair). Per-instance next fault times are kept in a binary min-heap (16 bytes
// an instance), one simulator event per class for the heap's top: O(log n) per fault. An
// instance found down (from another class) when its time comes does not fail; it draws a new
// lifetime from the end of that repair.
//
// Time: faults happen at now() (when start() is called) or later and strictly before the
// horizon; repairs finishing at or after the horizon are not scheduled (the instance stays down
// in is_down()). Faults and repairs run at Priority::kFirst.
//
// Lookahead (set_lookahead): every class knows its next fault, time and instance, when it
// schedules it (an exponential class draws the instance right after the gap, a Weibull class
// keeps every instance's next time in its heap), so a listener can hear of a fault `lead`
// before it happens (a precursor signal, fault_precursor.hpp). Drawing the instance with the
// time instead of at the fault keeps each class's sequence of draws (gap, instance, repair,
// gap, ...) exactly as it was, so the faults are the same with or without a listener. The
// announcement comes at max(now, fault - lead) (a gap shorter than the lead gives a shorter
// warning), at Priority::kFirst before the fault, and only for an instance that is up then
// (one already down cannot warn); an instance that goes down in between (another class) skips
// its fault, so its announcement was for nothing.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/reliability/fault_class.hpp"
#include "sim/random.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::reliability {

struct Fault {
  sim::Time at;
  std::size_t class_index = 0;  // into FaultModelConfig::classes
  std::size_t instance = 0;     // of the class's component kind (Inventory)
  int node = -1;                // owning node, -1 for links, switches, zones
  sim::Time repair_done;        // when on_repair is called (unless beyond the horizon)
};

class FaultProcess {
 public:
  using Handler = std::function<void(const Fault&)>;

  // Validates the config (sim::ConfigError naming the field, fault_class.hpp).
  FaultProcess(FaultModelConfig config, std::uint64_t seed, sim::Simulator& simulator, Handler on_fault,
               Handler on_repair, sim::Time horizon = sim::Time::max());
  ~FaultProcess();
  FaultProcess(const FaultProcess&) = delete;
  FaultProcess& operator=(const FaultProcess&) = delete;

  // Schedules every class's first fault from the simulator's current time. Once.
  void start();
  // Before start(): `on_upcoming` hears of each fault of the classes marked in `classes` (one
  // flag per class) `lead` before it (see the header). Its Fault::at is the fault's time.
  void set_lookahead(sim::Time lead, std::vector<bool> classes, Handler on_upcoming);

  const FaultModelConfig& config() const { return config_; }
  const FaultClass& fault_class(const Fault& f) const { return config_.classes[f.class_index]; }
  // "node/12/gpu/3", "fabric/link/881", ...
  std::string path(const Fault& f) const;

  std::uint64_t faults(std::size_t class_index) const;
  std::uint64_t faults_total() const;
  // Candidate faults dropped because their instance was under repair.
  std::uint64_t skipped(std::size_t class_index) const;
  bool is_down(ComponentKind kind, std::size_t instance) const;
  // Faults per hour of a class if no instance were ever down: rate x scale x instances.
  double nominal_rate_per_hour(std::size_t class_index) const;

 private:
  struct ClassState;

  void schedule_next(std::size_t c);
  void on_class_event(std::size_t c);
  // Fails `instance` now unless it is down; returns whether it did.
  bool fire(std::size_t c, std::size_t instance);
  // Lookahead: tells the listener of the fault of class c on `instance` at `at`, lead before it.
  void announce(std::size_t c, std::size_t instance, sim::Time at);

  FaultModelConfig config_;
  sim::Simulator& sim_;
  Handler on_fault_, on_repair_;
  sim::Time horizon_;
  bool started_ = false;
  std::vector<std::unique_ptr<ClassState>> classes_;
  // Instances under repair, per component kind: instance -> repair end. Only looked up, never
  // iterated, so its order cannot reach the schedule.
  std::array<std::unordered_map<std::size_t, sim::Time>, kComponentKindCount> down_;
  sim::Time lead_;
  std::vector<bool> lookahead_classes_;
  Handler on_upcoming_;
};

}  // namespace dcsim::models::reliability
