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
// A rack: the cluster's and the facility's per-rack state (its series are counted apart, as
// output series): 0.62 kB per node measured with a facility at five nodes a rack (1e4 and 4e4
// nodes), nodes included. It was 36-42 kB while every rack series held its HDF5 objects open.
constexpr double kBytesPerRack = 2000;
// A series of the trace writer while the run holds it: its names and buffer (its HDF5 objects
// exist only while it is written): 0.5 kB measured (25,000 -> 100,000 rack series).
constexpr double kBytesPerSeries = 1000;
// Writing a series: its group, two datasets and four attributes created, its points written,
// closed: 0.17-0.24 ms measured, growing with the file (25,000 -> 250,000 series). A point: 16
// bytes buffered and compressed in chunks, with the sampling that makes it, 0.11 us measured.
constexpr double kSecondsPerSeries = 3e-4;
constexpr double kSecondsPerPoint = 1.5e-7;
// Reopening a series' datasets to append a round of buffered points (many series sharing the
// buffer): 0.15 ms measured (20,000 rack series sampled every 10 s for a day: 171 s).
constexpr double kSecondsPerSeriesFlush = 2e-4;
// The writer's buffer (Hdf5Options::max_buffered_bytes), a point's bytes and a chunk's points.
constexpr double kBufferedBytes = 64.0 * (1 << 20);
constexpr double kBytesPerPoint = 16;
constexpr double kChunkPoints = 16384;
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

using Parts = std::vector<std::pair<std::string, double>>;

double sum(const Parts& parts) {
  double total = 0;
  for (const auto& [what, amount] : parts) total += amount;
  return total;
}

// "<total> (<what>: <amount>; ...)" with the parts of at least `smallest`: only what matters.
std::string describe_parts(const Parts& parts, double smallest, std::string (*format)(double)) {
  std::string out = format(sum(parts)) + " (";
  bool first = true;
  for (const auto& [what, amount] : parts) {
    if (amount < smallest) continue;
    out += (first ? "" : "; ") + what + ": " + format(amount);
    first = false;
  }
  if (first) out += "no large part";
  return out + ")";
}

}  // namespace

double TimeEstimate::total_s() const { return sum(parts); }

std::string TimeEstimate::describe() const { return describe_parts(parts, 1, format_wall_time); }

double MemoryEstimate::total_bytes() const { return sum(parts); }

void MemoryEstimate::add(const MemoryEstimate& other) {
  parts.insert(parts.end(), other.parts.begin(), other.parts.end());
}

std::string MemoryEstimate::describe() const { return describe_parts(parts, 1e6, format_bytes); }

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

std::string format_wall_time(double s) {
  if (!(s < 3.15e9)) return fmt::format("{:.3g} years", s / 3.156e7);
  if (s >= 2 * 365.25 * 86400) return fmt::format("{:.3g} years", s / 3.156e7);
  if (s >= 2 * 86400) return fmt::format("{:.3g} days", s / 86400);
  if (s >= 3600) return fmt::format("{:.3g} h", s / 3600);
  if (s >= 120) return fmt::format("{:.0f} min", s / 60);
  return fmt::format("{:.3g} s", s);
}

void check_time(const TimeEstimate& estimate, const ResourceLimits& limits, const std::string& source,
                const std::string& pointer) {
  if (!(estimate.total_s() > limits.max_wall_s)) return;
  throw sim::InputError(fmt::format(
      "{}:{}: this run would take about {} of wall time, above the limit of {} (--max-time sets it, 1 h by "
      "default); make it smaller, or give a larger --max-time to run it anyway",
      source, pointer, estimate.describe(), format_wall_time(limits.max_wall_s)));
}

MemoryEstimate output_memory(double series, const std::string& what) {
  MemoryEstimate e;
  e.add(fmt::format("{} {}", count(series), what), kBytesPerSeries * series);
  return e;
}

double output_write_s(double series, double points) {
  // Points beyond what the writer buffers are written in rounds of every series at once: with
  // more series than fill its buffer with one chunk each, a round costs a reopen per series.
  // Each round writes the whole chunks buffered, about 60% of the buffer (measured).
  const double rounds = std::floor(points * kBytesPerPoint / (0.6 * kBufferedBytes));
  const double reopen_s = series > kBufferedBytes / (kBytesPerPoint * kChunkPoints) ? rounds * series * kSecondsPerSeriesFlush : 0.0;
  return series * kSecondsPerSeries + points * kSecondsPerPoint + reopen_s;
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

MemoryEstimate cluster_memory(const models::cluster::ClusterConfig& cluster) {
  MemoryEstimate e;
  const double nodes = cluster.nodes;
  const double racks = std::ceil(nodes / std::max(1, cluster.nodes_per_rack));
  double jobs = static_cast<double>(cluster.jobs.size() + cluster.training_jobs.size());
  for (const auto& g : cluster.generators) jobs += g.count;
  e.add(fmt::format("{} nodes", count(nodes)), kBytesPerNode * nodes);
  e.add(fmt::format("{} racks", count(racks)), kBytesPerRack * racks);
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
      "{}:{}: this run needs about {}, above the memory limit of {} (--max-memory sets it, 3/4 of this "
      "machine's {} by default); make it smaller or run it on a larger machine",
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
