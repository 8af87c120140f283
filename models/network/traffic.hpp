#pragma once
// Traffic workloads as flow records (source host, destination host, bytes, start time), and the
// checks a replayed trace must pass. Reading a trace file belongs to tools/; models take the
// records as a vector.
//
// Patterns (hosts 0 .. H-1):
//  - permutation: every host sends to a distinct other host (a random derangement), at `start`;
//  - all_to_all: every ordered pair (H (H-1) flows), at `start`;
//  - incast: `incast_senders` hosts (the lowest ids other than the target) send to `incast_target`;
//  - ring: host i sends to host (i + 1) mod H;
//  - random_pairs: `flows` flows between uniform random pairs (src != dst); Poisson arrivals at
//    `arrival_rate_per_s` (exponential gaps from `start`), or all at `start` when the rate is 0.
// Sizes: fixed, lognormal (median and sigma of the underlying normal) or uniform picks from a
// list. Draws come from RandomStream(seed, "network/traffic", purpose): same seed, same flows.

#include <cstdint>
#include <vector>

#include "models/network/topology.hpp"
#include "sim/time.hpp"

namespace dcsim::models::network {

struct FlowRecord {
  NodeId src = 0;
  NodeId dst = 0;
  double bytes = 0.0;
  sim::Time start;
};

struct SizeDistribution {
  enum class Kind { kFixed, kLognormal, kList };
  Kind kind = Kind::kFixed;
  double bytes = 1e6;        // kFixed: the size; kLognormal: the median
  double sigma = 1.0;        // kLognormal
  std::vector<double> list;  // kList
};

enum class TrafficPattern { kPermutation, kAllToAll, kIncast, kRing, kRandomPairs };

struct TrafficConfig {
  TrafficPattern pattern = TrafficPattern::kPermutation;
  std::uint64_t seed = 1;
  SizeDistribution size;
  sim::Time start;
  int incast_senders = 8;
  NodeId incast_target = 0;
  std::int64_t flows = 1000;        // random_pairs
  double arrival_rate_per_s = 0.0;  // random_pairs; 0: all at start
};

// Throws ConfigError naming the field for impossible configs (fewer than 2 hosts, negative
// sizes, senders >= hosts, ...). Records come sorted by start time.
std::vector<FlowRecord> generate_traffic(const TrafficConfig& config, std::size_t hosts);

// A replayed trace: hosts in range, bytes >= 0, start >= 0, else ConfigError("trace[i].field").
void validate_trace(const std::vector<FlowRecord>& records, std::size_t hosts);

}  // namespace dcsim::models::network
