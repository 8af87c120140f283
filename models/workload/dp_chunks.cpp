#include "models/workload/dp_chunks.hpp"

#include <cmath>
#include <utility>

namespace dcsim::models::workload {

namespace {

// Buckets of `bucket` bytes (the last one what is left) cut, in order, into chunks.
class ChunkCutter {
 public:
  ChunkCutter(double total, double bucket) : total_(total) {
    const double full = std::floor(total / bucket);
    for (double i = 0; i < full; ++i) buckets_.push_back(bucket);
    const double rest = total - full * bucket;
    if (rest > 0.0) buckets_.push_back(rest);
  }
  int buckets() const { return static_cast<int>(buckets_.size()); }
  // The next `count` buckets as one chunk.
  void take(int count) {
    DpChunk c;
    for (int b = 0; b < count; ++b, ++next_) {
      c.bytes += buckets_[next_];
      c.buckets.push_back(buckets_[next_]);
    }
    c.fraction = c.bytes / total_;
    chunks.push_back(std::move(c));
  }
  std::vector<DpChunk> chunks;

 private:
  double total_;
  std::vector<double> buckets_;
  std::size_t next_ = 0;
};

}  // namespace

// Parameter all_gather chunks, gating the forward (in layer order) or ZeRO 3's backward.
std::vector<DpChunk> growing_chunks(double total, double bucket, int max_chunks, bool symmetric) {
  ChunkCutter cut(total, bucket);
  const int nb = cut.buckets();
  if (nb <= max_chunks) {
    for (int b = 0; b < nb; ++b) cut.take(1);
    return std::move(cut.chunks);
  }
  // Fine at the tail, coarse at the head: from the last bucket back, chunks of 1, 1, 2, 4, ...
  // buckets, the first chunk taking what is left. A chunk's collective then overlaps the
  // backward of the chunks after it, which hold as many buckets (when a bucket's collective is
  // shorter than its backward, it hides as it would bucket by bucket), and what is left after
  // the last backward piece is one bucket's collective, as in the step model's overlap rule.
  // ZeRO 3 gathers parameters for the backward too, in backward order: then the head is fine
  // as well (1, 2, 4, ... from the first bucket, alternating with the tail).
  std::vector<int> tail, head;
  int left = nb, tail_size = 1, head_size = 1;
  while (static_cast<int>(tail.size() + head.size()) < max_chunks - 1) {
    const bool at_head = symmetric && head.size() < tail.size();
    int& size = at_head ? head_size : tail_size;
    if (left <= size) break;
    (at_head ? head : tail).push_back(size);
    left -= size;
    if (at_head || tail.size() >= 2) size *= 2;
  }
  for (int h : head) {
    cut.take(h);
  }
  cut.take(left);
  for (auto it = tail.rbegin(); it != tail.rend(); ++it) {
    cut.take(*it);
  }
  return std::move(cut.chunks);
}

// Gradient chunks, produced by the last backward (in gradient order).
std::vector<DpChunk> even_chunks(double total, double bucket, int max_chunks) {
  ChunkCutter cut(total, bucket);
  const int nb = cut.buckets();
  if (nb <= max_chunks) {
    for (int b = 0; b < nb; ++b) cut.take(1);
    return std::move(cut.chunks);
  }
  // Fine at the tail, even in the middle. A coalesced chunk's collective starts when its whole
  // backward piece is done, up to one chunk's piece later than bucket by bucket would; even
  // chunks bound that delay by 1/(chunks) of the last backward instead of letting one head chunk
  // hold most of the gradients (which delayed the start of the DP stream by most of the last
  // backward: +4.4% step time for llama3-8b TP 2 x DP 64 against bucket-by-bucket). From the last
  // bucket back, a quarter of the chunks take 1, 1, 2, 4, ... buckets, so that what is left after
  // the last backward piece is one bucket's collective, as in the step model's overlap rule.
  // The head is fine as well (1, 1, 2, ... from the first bucket), so that the DP stream starts
  // early in the last backward.
  const int fine = max_chunks >= 3 ? std::max(1, std::min(max_chunks / 4, (max_chunks - 1) / 2)) : 0;
  auto geometric = [](int count, int& left) {
    std::vector<int> sizes;
    for (int i = 0, size = 1; i < count && left > size; ++i) {
      sizes.push_back(size);
      left -= size;
      if (i >= 1) size *= 2;
    }
    return sizes;
  };
  int left = nb;
  const std::vector<int> tail = geometric(fine, left);
  const std::vector<int> head = geometric(fine, left);
  const int middle = std::max(1, std::min(left, max_chunks - static_cast<int>(tail.size() + head.size())));
  for (int h : head) {
    cut.take(h);
  }
  for (int k = 0; k < middle; ++k) {
    const int size = left / middle + (k < left % middle ? 1 : 0);
    cut.take(size);
  }
  for (auto it = tail.rbegin(); it != tail.rend(); ++it) {
    cut.take(*it);
  }
  return std::move(cut.chunks);
}

}  // namespace dcsim::models::workload
