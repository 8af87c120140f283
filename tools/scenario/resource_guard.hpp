#pragma once
// Resource guards: a scenario whose run cannot fit in this machine's memory, or cannot finish,
// is refused before anything is allocated, with the estimate and the limit in the message
// (exit 2 like any bad input), instead of exhausting the machine or running for ever.
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

#include "models/datacenter/cluster_config.hpp"
#include "models/network/topology_size.hpp"
#include "models/network/traffic.hpp"
#include "sim/time.hpp"

namespace dcsim::tools::scenario {

struct ResourceLimits {
  // Refuse a run whose estimate is above this. Default: 3/4 of this machine's physical memory.
  double max_memory_bytes = 0;
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

MemoryEstimate fabric_memory(const models::network::TopologySize& size);
// Flows that a traffic config generates, from its pattern and the host count (no generation).
double traffic_flow_count(const models::network::TrafficConfig& config, double hosts);
MemoryEstimate traffic_memory(double flows);
MemoryEstimate cluster_memory(const models::datacenter::ClusterConfig& cluster);

// Throws sim::InputError "<source>:<pointer>: needs about X (...), above the memory limit of Y
// (...)" when the estimate is above the limit.
void check_memory(const MemoryEstimate& estimate, const ResourceLimits& limits, const std::string& source,
                  const std::string& pointer);
// Throws sim::InputError when `horizon / period` is above the limit, naming both. A horizon of
// Time::max() (open-ended runs) is not checked here: the run ends with its work.
void check_periodic_steps(sim::Time horizon, sim::Time period, const ResourceLimits& limits,
                          const std::string& source, const std::string& pointer);

// "1.5 GB", "812 MB": decimal units, as people read memory sizes in messages.
std::string format_bytes(double bytes);

}  // namespace dcsim::tools::scenario
