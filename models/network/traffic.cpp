#include "models/network/traffic.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "sim/error.hpp"
#include "sim/random.hpp"

namespace dcsim::models::network {

namespace {

double sample_size(const SizeDistribution& d, sim::RandomStream& rng) {
  switch (d.kind) {
    case SizeDistribution::Kind::kFixed: return d.bytes;
    case SizeDistribution::Kind::kLognormal: return std::round(rng.lognormal(std::log(d.bytes), d.sigma));
    case SizeDistribution::Kind::kList: return d.list[rng.uniform_int(d.list.size())];
  }
  return d.bytes;
}

void check_sizes(const SizeDistribution& d) {
  if (d.kind == SizeDistribution::Kind::kList) {
    if (d.list.empty()) throw sim::ConfigError("size.list", "must not be empty");
    for (std::size_t i = 0; i < d.list.size(); ++i)
      if (!(d.list[i] >= 0)) throw sim::ConfigError("size.list[" + std::to_string(i) + "]", "must not be negative");
  } else if (!(d.bytes >= 0)) {
    throw sim::ConfigError("size.bytes", "must not be negative, got " + std::to_string(d.bytes));
  }
  if (d.kind == SizeDistribution::Kind::kLognormal && !(d.sigma >= 0)) {
    throw sim::ConfigError("size.sigma", "must not be negative");
  }
}

}  // namespace

std::vector<FlowRecord> generate_traffic(const TrafficConfig& c, std::size_t hosts) {
  if (hosts < 2) throw sim::ConfigError("hosts", "traffic needs at least 2 hosts");
  check_sizes(c.size);
  sim::RandomStream sizes(c.seed, "network/traffic", "sizes");
  sim::RandomStream pick(c.seed, "network/traffic", "pairs");
  std::vector<FlowRecord> out;
  auto add = [&](std::size_t s, std::size_t d, sim::Time t) {
    out.push_back(FlowRecord{static_cast<NodeId>(s), static_cast<NodeId>(d), sample_size(c.size, sizes), t});
  };
  switch (c.pattern) {
    case TrafficPattern::kPermutation: {
      // Sattolo's algorithm: a uniform random cyclic permutation, so no host sends to itself.
      std::vector<std::size_t> p(hosts);
      std::iota(p.begin(), p.end(), 0);
      for (std::size_t i = hosts - 1; i > 0; --i) std::swap(p[i], p[pick.uniform_int(i)]);
      for (std::size_t i = 0; i < hosts; ++i) add(i, p[i], c.start);
      break;
    }
    case TrafficPattern::kAllToAll:
      for (std::size_t s = 0; s < hosts; ++s)
        for (std::size_t d = 0; d < hosts; ++d)
          if (s != d) add(s, d, c.start);
      break;
    case TrafficPattern::kIncast: {
      if (c.incast_target >= hosts) throw sim::ConfigError("incast_target", "unknown host " + std::to_string(c.incast_target));
      if (c.incast_senders < 1 || static_cast<std::size_t>(c.incast_senders) >= hosts) {
        throw sim::ConfigError("incast_senders", "must be in [1, hosts - 1], got " + std::to_string(c.incast_senders));
      }
      int n = 0;
      for (std::size_t s = 0; s < hosts && n < c.incast_senders; ++s) {
        if (s == c.incast_target) continue;
        add(s, c.incast_target, c.start);
        ++n;
      }
      break;
    }
    case TrafficPattern::kRing:
      for (std::size_t s = 0; s < hosts; ++s) add(s, (s + 1) % hosts, c.start);
      break;
    case TrafficPattern::kRandomPairs: {
      if (c.flows < 0) throw sim::ConfigError("flows", "must not be negative");
      if (c.arrival_rate_per_s < 0) throw sim::ConfigError("arrival_rate_per_s", "must not be negative");
      sim::RandomStream arrivals(c.seed, "network/traffic", "arrivals");
      double t_s = c.start.seconds();
      for (std::int64_t i = 0; i < c.flows; ++i) {
        if (c.arrival_rate_per_s > 0) t_s += arrivals.exponential(1.0 / c.arrival_rate_per_s);
        const std::size_t s = pick.uniform_int(hosts);
        std::size_t d = pick.uniform_int(hosts - 1);
        if (d >= s) ++d;
        add(s, d, c.arrival_rate_per_s > 0 ? sim::Time::from_seconds(t_s) : c.start);
      }
      break;
    }
  }
  return out;
}

void validate_trace(const std::vector<FlowRecord>& records, std::size_t hosts) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const FlowRecord& r = records[i];
    const std::string at = "trace[" + std::to_string(i) + "]";
    if (r.src >= hosts) throw sim::ConfigError(at + ".src", "unknown host " + std::to_string(r.src));
    if (r.dst >= hosts) throw sim::ConfigError(at + ".dst", "unknown host " + std::to_string(r.dst));
    if (!(r.bytes >= 0)) throw sim::ConfigError(at + ".bytes", "must not be negative, got " + std::to_string(r.bytes));
    if (r.start < sim::Time::zero()) throw sim::ConfigError(at + ".start", "must not be negative");
  }
}

}  // namespace dcsim::models::network
