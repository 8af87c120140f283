#pragma once
// The cluster's telemetry series, declared apart from the mechanisms they watch: power/cluster_w,
// power/rack/<r>_w (or power/rack_group/<g>_w, or neither: racks_per_series), jobs/running,
// jobs/waiting and nodes/busy, as step functions. The power series read the PowerMeter, the job
// series the NodePool; the cluster says when something changed (mark_dirty) and whether work is
// left (Source).
//
// When they are sampled: the changes of one instant are settled once, by a flush at the end of
// it (Priority::kTelemetry), so several changes at one time give one point and zero-length
// intermediate states never count as a peak. Without a telemetry interval the flush appends a
// point (a rack series only when its value changed); with one, a tick appends every series every
// interval, until the run's duration or, open-ended, until the cluster has no work left.
// A settle that changes the cluster's power announces it (ItPowerChange), from 0 W at the first.
//
// Cost: mark_dirty O(1) (at most one flush queued per instant); a flush is the meter's settle plus
// O(k log k) for the k racks it summed again (only their groups can have changed); a tick appends
// every rack (group) series, O(racks).

#include <vector>

#include "models/cluster/node_pool.hpp"
#include "models/cluster/power_meter.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

class ClusterTelemetry {
 public:
  class Source {
   public:
    // An open-ended run's ticks stop once this is false (they must not keep it alive).
    virtual bool has_work_left() const = 0;

   protected:
    ~Source() = default;
  };
  struct Config {
    sim::Time interval;              // zero: a point per change instead of per tick
    sim::Time duration;              // Time::max(): open-ended
    int racks_per_power_series = 1;  // 0: no rack series
  };

  // Declares the series (in this order: cluster power, rack series, running, waiting, busy).
  // `meter`, `nodes` and `source` outlive it.
  ClusterTelemetry(const Config& config, PowerMeter& meter, const NodePool& nodes, const Source& source,
                   sim::Simulator& sim, sim::TraceSink& sink);
  // Where a changed cluster power is announced; null: nowhere.
  void set_it_power_signal(const sim::Signal<const seams::ItPowerChange&>* signal) { it_power_ = signal; }
  // The first flush (the idle power) and the first tick, now.
  void start();
  // Something the series show changed at this instant: settle and sample at its end.
  void mark_dirty();

 private:
  void record_series();
  void settle();
  void append_samples(bool changed_racks_only);
  void on_tick();

  Config config_;
  PowerMeter& meter_;
  const NodePool& nodes_;
  const Source& source_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  const sim::Signal<const seams::ItPowerChange&>* it_power_ = nullptr;
  bool flush_pending_ = false;
  sim::SeriesId power_series_ = 0;
  std::vector<sim::SeriesId> rack_series_;
  std::vector<double> rack_recorded_w_;  // last value appended to each rack (group) series
  std::vector<std::size_t> changed_groups_;  // scratch of append_samples (no allocation per flush)
  sim::SeriesId running_series_ = 0;
  sim::SeriesId waiting_series_ = 0;
  sim::SeriesId busy_series_ = 0;
};

}  // namespace dcsim::models::cluster
