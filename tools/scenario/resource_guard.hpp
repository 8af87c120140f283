#pragma once
// Resource guards: a scenario whose run cannot fit in this machine's memory, or cannot finish,
// is refused before anything is allocated, with the estimate and the limit in the message
// (exit 2 like any bad input), instead of exhausting the machine or running for ever.
//
// Wall time is estimated the same way, from what the scenario says it will do (periodic ticks
// and the series they sample, series and points written to the trace, random faults, inference
// requests, object-store placement) times seconds per element measured on this code: a run
// estimated above the time limit (1 hour unless --max-time says otherwise) is refused, so a run
// that long is one somebody asked for.
//
// Memory is estimated from counts the configs give without building anything (topology sizes
// from each registered builder's formula, cluster nodes and racks, jobs, flows, series) times
// bytes per element measured on this code (docs/resource-guards.md has the measurements and
// how they were taken). The estimate is meant to be high, not exact: a run the guard passes
// must not be killed for memory; one it refuses would have needed at least most of the estimate.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/cluster/cluster_config.hpp"
#include "models/network/topology_size.hpp"
#include "models/network/traffic.hpp"
#include "sim/time.hpp"

namespace dcsim::tools::scenario {

struct ResourceLimits {
  // Refuse a run whose estimate is above this. Default: 3/4 of this machine's physical memory.
  double max_memory_bytes = 0;
  // Refuse a run whose wall-time estimate is above this, in seconds (--max-time overrides it).
  double max_wall_s = 3600;
  // Refuse a run with more periodic steps than this (facility ticks, telemetry samples): at
  // about 1e7 steps per second, 1e10 is already hours of wall time.
  double max_periodic_steps = 1e10;
  // A limit with max_memory_bytes filled from this machine (--max-memory overrides it).
  static ResourceLimits for_this_machine();
};

double physical_memory_bytes();

// A memory estimate in named parts, so that the message says what is large.
struct MemoryEstimate {
  std::vector<std::pair<std::string, double>> parts;  // (what, bytes)
  double total_bytes() const;
  void add(std::string what, double bytes) { parts.emplace_back(std::move(what), bytes); }
  void add(const MemoryEstimate& other);
  // "12.1 GB (fabric: 432,000 hosts, 18,000 switches, 2.6 M cables: 11.2 GB; ...)"
  std::string describe() const;
};

// A wall-time estimate in named parts, like MemoryEstimate.
struct TimeEstimate {
  std::vector<std::pair<std::string, double>> parts;  // (what, seconds)
  double total_s() const;
  void add(std::string what, double seconds) { parts.emplace_back(std::move(what), seconds); }
  // "2.1 h (250 k rack series written: 1.9 h; ...)": the parts of a second or more.
  std::string describe() const;
};

MemoryEstimate fabric_memory(const models::network::TopologySize& size);
// Flows that a traffic config generates, from its pattern and the host count (no generation).
double traffic_flow_count(const models::network::TrafficConfig& config, double hosts);
MemoryEstimate traffic_memory(double flows);
MemoryEstimate cluster_memory(const models::cluster::ClusterConfig& cluster);

// Throws sim::InputError "<source>:<pointer>: needs about X (...), above the memory limit of Y
// (...)" when the estimate is above the limit.
void check_memory(const MemoryEstimate& estimate, const ResourceLimits& limits, const std::string& source,
                  const std::string& pointer);
// Throws sim::InputError "<source>:<pointer>: this run would take about X of wall time (...),
// above the limit of Y ..." when the estimate is above limits.max_wall_s.
void check_time(const TimeEstimate& estimate, const ResourceLimits& limits, const std::string& source,
                const std::string& pointer);

// What writing `series` series with `points` points in all to the trace costs (HDF5 writer,
// tools/output/hdf5_trace_writer.hpp): memory while the run holds them, time to write them.
MemoryEstimate output_memory(double series, const std::string& what);
double output_write_s(double series, double points);

// Seconds per element, measured (docs/resource-guards.md), for the parts the loader adds up.
// A rack's power summed at a telemetry tick.
inline constexpr double kSecondsPerRackSum = 2e-9;
// A GPU's thermal state at a facility tick: 44 ns measured (1e4 nodes, 1,380 ticks).
inline constexpr double kSecondsPerGpuStep = 6e-8;
// A fault draw of a class, fired or skipped (its component already down): 0.11-0.19 us measured
// (failover-policies.json at 1e6 and 1e7 times its rates).
inline constexpr double kSecondsPerFault = 3e-7;
// An inference request from arrival to answer, and what is kept of it for the statistics:
// 0.45-1 us and 234 B measured (inference-llama70b-8xh100.json at 1e3 -> 3e4 requests/s).
inline constexpr double kSecondsPerRequest = 2e-6;
inline constexpr double kBytesPerRequest = 300;
// A fluid service (models/inference/fluid_steps.cpp): a step's own work (its strata, the
// autoscaler's syncs and the samples within it), one replica's share of a step, and one engine
// iteration of its start-up curves. Measured (inference-autoscaling-diurnal.json fluid, 1 -> 30
// days: 17 us per step at 1-4 replicas; at 128 nodes, 1 -> 11 days: 52 us at 44 replicas).
inline constexpr double kSecondsPerFluidStep = 1.5e-5;
inline constexpr double kSecondsPerFluidReplicaStep = 1e-6;
inline constexpr double kSecondsPerCurveIteration = 3e-7;
// One OSD weighed for one placement group: 2.1 ns measured (12 hosts x 1,000 drives).
inline constexpr double kSecondsPerPlacementStep = 2.5e-9;
inline constexpr double kBytesPerOsdHost = 256;        // an OSD host of the store: its id, state, load
inline constexpr double kBytesPerOsd = 64;             // one drive's OSD state

// Throws sim::InputError when `horizon / period` is above the limit, naming both. A horizon of
// Time::max() (open-ended runs) is not checked here: the run ends with its work.
void check_periodic_steps(sim::Time horizon, sim::Time period, const ResourceLimits& limits,
                          const std::string& source, const std::string& pointer);

// "1.5 GB", "812 MB": decimal units, as people read memory sizes in messages.
std::string format_bytes(double bytes);
// "45 s", "12 min", "2.1 h", "3.5 days", "285 years".
std::string format_wall_time(double seconds);

}  // namespace dcsim::tools::scenario
