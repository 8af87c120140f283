#pragma once
// How a stage's DP gradient (or parameter) buckets coalesce into the collectives of a flow-mode
// step graph (step_graph.hpp): at most max_dp_chunks per stage and step, so that a 405B job's
// hundreds of buckets do not each become a collective's flows. Two layouts; build_step_graph
// picks the one whose critical path is closest to bucket by bucket.

#include <vector>

namespace dcsim::models::workload {

// One DP chunk: its bytes, the parameter fraction it covers and its buckets' sizes.
struct DpChunk {
  double bytes = 0.0;
  double fraction = 0.0;
  std::vector<double> buckets;
};

// Buckets of `bucket` bytes (the last one what is left) coalesced, in order, into at most
// max_chunks chunks, fine (one bucket each) at the tail and coarse at the head; `symmetric`
// (ZeRO 3, which gathers parameters for the backward too) makes the head fine as well.
std::vector<DpChunk> growing_chunks(double total, double bucket, int max_chunks, bool symmetric);
// The same buckets fine at both ends and even in the middle.
std::vector<DpChunk> even_chunks(double total, double bucket, int max_chunks);

}  // namespace dcsim::models::workload
