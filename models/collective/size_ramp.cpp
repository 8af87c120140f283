#include "models/collective/size_ramp.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::collective {

double channel_fraction(double bytes, int ranks, Protocol p, const CollectiveTuning& t,
                        bool ring) {
  if (!t.size_ramp) return 1.0;
  const int pi = static_cast<int>(p);
  const double channels = std::max(1, t.ring_channels);
  const double threads = std::max(1, t.max_threads[pi]);
  double threshold = t.thread_threshold_bytes[pi];
  // enqueue.cc/tuning.cc: the ring LL threshold scales with the ranks (each step moves 1/n).
  if (ring && p == Protocol::kLL) threshold *= ranks;
  const double full = channels * threads * threshold;
  const double floor = (1.0 / channels) * std::min(1.0, t.min_threads / threads);
  if (!(full > 0.0)) return 1.0;
  return std::clamp(bytes / full, floor, 1.0);
}

double nvls_chunk_bytes(double bytes, int heads, const CollectiveTuning& t) {
  const double concurrent = static_cast<double>(std::max(1, t.nvls_channels)) * std::max(1, heads);
  double chunk = t.nvls_max_chunk_bytes;
  // calcCollChunking's three halvings, each tested with the chunk the previous one left.
  if (bytes < 64.0 * concurrent * chunk && chunk > 65536.0) chunk = 65536.0;
  if (bytes < 8.0 * concurrent * chunk && chunk > 32768.0) chunk = 32768.0;
  if (bytes < 2.0 * concurrent * chunk && chunk > 16384.0) chunk = 16384.0;
  return chunk;
}

double nvls_fill_bytes(double bytes, int heads, const CollectiveTuning& t) {
  if (!t.size_ramp || t.nvls_pipeline_stages <= 1) return 0.0;
  const double loop = static_cast<double>(std::max(1, t.nvls_channels)) * std::max(1, heads) *
                      nvls_chunk_bytes(bytes, heads, t);
  return (t.nvls_pipeline_stages - 1) * std::min(bytes, loop);
}

double tree_correction(Protocol p, double bytes, const CollectiveTuning& t) {
  if (!t.size_ramp || bytes < 64.0) return 1.0;
  const int log_size = static_cast<int>(std::floor(std::log2(bytes / 64.0)));
  if (log_size < 0 || log_size >= 23) return 1.0;
  return t.tree_correction[static_cast<int>(p)][log_size];
}

}  // namespace dcsim::models::collective
