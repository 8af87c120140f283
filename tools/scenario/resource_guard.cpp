#include "tools/scenario/resource_guard.hpp"

#include <unistd.h>

#include <cmath>

#include <fmt/format.h>

#include "sim/error.hpp"

namespace dcsim::tools::scenario {

namespace {

// Bytes per element, measured as peak RSS of `dcsim run` and `dcsim validate` over cases that
// grow one element (docs/resource-guards.md has the cases and figures), rounded up by 15-30%.
// Fabric: 1.6-1.75 kB per cable (fat-trees k=32..80, tori 100^2..300^2, leaf-spines): links
// both ways, adjacency, the router's compact arrays, the solver's per-link state.
constexpr double kFabricBytesPerCable = 2000;
// Router distance tables: one uint16 per forwarding node per destination anchor (routing.hpp).
constexpr double kBytesPerDistanceEntry = 2;
// A concurrent flow in the run: 610 B measured (k=16 fat-tree, 1e5 -> 4e5 random pairs).
constexpr double kBytesPerFlow = 800;
// A rack: its power series (and the facility's per-rack state) in the HDF5 writer, 36-42 kB
// measured (1e5 and 1e6 nodes four to a rack; 1e4 and 4e4 nodes with a facility).
constexpr double kBytesPerRack = 48000;
constexpr double kBytesPerNode = 200;
// A job (named or generated): 305 B measured (4e5 generated jobs).
constexpr double kBytesPerJob = 400;
// A job from a trace: 478 B measured (1e5 -> 4e5 CSV trace jobs), as the scenario keeps its spec
// (ClusterConfig::trace_jobs) besides the model's job.
constexpr double kBytesPerTraceJob = 600;
// The process before any model: code, libraries, HDF5, the parsed scenario (13-17 MB measured).
constexpr double kBaseBytes = 32e6;

std::string count(double n) {
  if (n >= 1e12) return fmt::format("{:.3g}", n);
  if (n >= 1e9) return fmt::format("{:.3g} G", n / 1e9);
  if (n >= 1e6) return fmt::format("{:.3g} M", n / 1e6);
  if (n >= 1e4) return fmt::format("{:.0f} k", n / 1e3);
  return fmt::format("{:.0f}", n);
}

}  // namespace

ResourceLimits ResourceLimits::for_this_machine() {
  ResourceLimits limits;
  limits.max_memory_bytes = 0.75 * physical_memory_bytes();
  return limits;
}

double physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  // Unknown (no /proc): assume a small machine rather than none.
  if (pages <= 0 || page <= 0) return 4e9;
  return static_cast<double>(pages) * static_cast<double>(page);
}

double MemoryEstimate::total_bytes() const {
  double total = 0;
  for (const auto& [what, bytes] : parts) total += bytes;
  return total;
}

void MemoryEstimate::add(const MemoryEstimate& other) {
  parts.insert(parts.end(), other.parts.begin(), other.parts.end());
}

std::string MemoryEstimate::describe() const {
  std::string out = format_bytes(total_bytes()) + " (";
  bool first = true;
  for (const auto& [what, bytes] : parts) {
    if (bytes < 1e6) continue;  // only what matters
    out += (first ? "" : "; ") + what + ": " + format_bytes(bytes);
    first = false;
  }
  if (first) out += "no large part";
  return out + ")";
}

std::string format_bytes(double bytes) {
  if (bytes >= 1e15) return fmt::format("{:.3g} bytes", bytes);
  if (bytes >= 1e12) return fmt::format("{:.3g} TB", bytes / 1e12);
  if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3g} MB", bytes / 1e6);
  return fmt::format("{:.3g} kB", bytes / 1e3);
}

MemoryEstimate fabric_memory(const models::network::TopologySize& size) {
  MemoryEstimate e;
  e.add(fmt::format("fabric of {} hosts, {} switches, {} cables", count(size.hosts), count(size.switches),
                    count(size.cables)),
        kFabricBytesPerCable * size.cables);
  e.add(fmt::format("routing tables, {} anchors x {} forwarding nodes", count(size.anchors), count(size.forwarders)),
        kBytesPerDistanceEntry * size.anchors * size.forwarders);
  return e;
}

double traffic_flow_count(const models::network::TrafficConfig& config, double hosts) {
  using models::network::TrafficPattern;
  switch (config.pattern) {
    case TrafficPattern::kPermutation:
    case TrafficPattern::kRing: return hosts;
    case TrafficPattern::kAllToAll: return hosts * (hosts - 1);
    case TrafficPattern::kIncast: return config.incast_senders;
    case TrafficPattern::kRandomPairs: return static_cast<double>(config.flows);
  }
  return hosts;
}

MemoryEstimate traffic_memory(double flows) {
  MemoryEstimate e;
  e.add(fmt::format("{} flows", count(flows)), kBytesPerFlow * flows);
  return e;
}

MemoryEstimate cluster_memory(const models::datacenter::ClusterConfig& cluster) {
  MemoryEstimate e;
  const double nodes = cluster.nodes;
  const double racks = std::ceil(nodes / std::max(1, cluster.nodes_per_rack));
  double jobs = static_cast<double>(cluster.jobs.size() + cluster.training_jobs.size());
  for (const auto& g : cluster.generators) jobs += g.count;
  e.add(fmt::format("{} nodes", count(nodes)), kBytesPerNode * nodes);
  e.add(fmt::format("{} racks' series", count(racks)), kBytesPerRack * racks);
  e.add(fmt::format("{} jobs", count(jobs)), kBytesPerJob * jobs);
  if (!cluster.trace_jobs.empty()) {
    const double traced = static_cast<double>(cluster.trace_jobs.size());
    e.add(fmt::format("{} trace jobs", count(traced)), kBytesPerTraceJob * traced);
  }
  return e;
}

void check_memory(const MemoryEstimate& estimate, const ResourceLimits& limits, const std::string& source,
                  const std::string& pointer) {
  MemoryEstimate with_base = estimate;
  with_base.add("the program itself", kBaseBytes);
  const double total = with_base.total_bytes();
  if (!(total > limits.max_memory_bytes)) return;
  throw sim::InputError(fmt::format(
      "{}:{}: this run needs about {}, above the memory limit of {} (3/4 of this machine's {} unless "
      "--max-memory says otherwise); make it smaller or run it on a larger machine",
      source, pointer, with_base.describe(), format_bytes(limits.max_memory_bytes),
      format_bytes(physical_memory_bytes())));
}

void check_periodic_steps(sim::Time horizon, sim::Time period, const ResourceLimits& limits,
                          const std::string& source, const std::string& pointer) {
  if (horizon.is_max() || period <= sim::Time::zero()) return;
  const double steps = static_cast<double>(horizon.ns()) / static_cast<double>(period.ns());
  if (steps <= limits.max_periodic_steps) return;
  throw sim::InputError(fmt::format(
      "{}:{}: {} over {} is {:.3g} steps, more than the {:.3g} a run can finish (at about 1e7 steps a "
      "second that is over {:.0f} hours); use a longer period or a shorter /duration",
      source, pointer, sim::format_duration(period), sim::format_duration(horizon), steps,
      limits.max_periodic_steps, limits.max_periodic_steps / 1e7 / 3600));
}

}  // namespace dcsim::tools::scenario
