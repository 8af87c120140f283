#pragma once
// RadixQueue: a monotone priority queue of entries keyed by (t, id), at most one entry per id,
// whose entries can be moved or erased in place. The fabric keeps one event per subflow in it.
//
// Why not a binary heap: the fabric's events are pushed and popped by the million (a ring
// all-reduce on 1,024 hosts: 4.2 M), and a binary heap of n entries pays about log2 n levels of
// moves and comparisons on every pop (n ~ 2,000: ~500 instructions an event, a quarter of the
// whole run). Simulated time only moves forward, so a radix heap (Ahuja, Mehlhorn, Orlin and
// Tarjan 1990; the "monotone priority queue" of Dijkstra codes) fits: bucket b holds the entries
// whose time differs from floor() first in bit b - 1 (bucket 0: time == floor()). A push is an
// append; finding the minimum scans the first non-empty bucket and spreads it over lower ones,
// so an entry moves down at most 63 times over its life and usually a few: entries that share a
// time (a ring step's completions) meet in bucket 0 after one pass.
//
// The engine's EventQueue (sim/event_queue.hpp) is the same idea for general events (callbacks,
// priorities, lazy cancel); here an entry is plain data, one per id, and a rescheduled id moves
// its entry in place: the engine's lazy reschedule would leave a stale entry per rate change.
//
// Contract. Times are int64 >= 0. An entry may be set only at t >= floor(), where floor() is the
// time of the last batch popped (0 at first): the fabric never schedules before the last time it
// advanced to. min_time() does not move floor() (the driver may still start flows between now
// and that time). pop_min_batch() hands over every entry at the minimum time, sorted by id: the
// same total order (time, then id) as a heap on (t, id), so results do not depend on the queue.
//
// Complexity: set/erase O(1); min_time() O(size of the first non-empty bucket) when bucket 0 is
// empty, cached until a change that can raise it (the minimum entry moved later or erased: a
// burst of flow starts keeps the cache); pop_min_batch O(k log k) for k entries popped plus the
// amortised moves above. Memory: one entry per id in the queue plus 8 bytes per id ever used.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/error.hpp"

namespace dcsim::models::network {

// Entry: any struct with `std::int64_t t` and `std::uint32_t id` (the rest is carried along).
template <typename Entry>
class RadixQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  bool contains(std::uint32_t id) const { return id < where_.size() && where_[id].bucket != kNone; }
  std::int64_t floor() const { return static_cast<std::int64_t>(floor_); }

  // Inserts the entry for e.id, or moves it there if the id already has one.
  void set(const Entry& e) {
    if (e.t < 0 || static_cast<std::uint64_t>(e.t) < floor_) {
      throw sim::InternalError("RadixQueue: an entry before the queue's floor (this is a bug)");
    }
    bool moved_min = false;
    if (contains(e.id)) {
      moved_min = at(where_[e.id]).t == min_cache_;
      remove_at(where_[e.id]);
    } else {
      if (where_.size() <= e.id) where_.resize(static_cast<std::size_t>(e.id) + 1, Where{});
      ++size_;
    }
    append(bucket_of(static_cast<std::uint64_t>(e.t)), e);
    // Keep the cached minimum where one change cannot have raised it: a burst of flow starts
    // then costs O(1) each instead of a scan of the first bucket per query.
    if (min_valid_) {
      if (e.t <= min_cache_) {
        min_cache_ = e.t;
      } else if (moved_min) {
        min_valid_ = false;
      }
    }
  }

  void erase(std::uint32_t id) {
    if (!contains(id)) return;
    if (at(where_[id]).t == min_cache_) min_valid_ = false;
    remove_at(where_[id]);
    where_[id].bucket = kNone;
    --size_;
  }

  // The earliest time in the queue; the queue must not be empty.
  std::int64_t min_time() const {
    if (!buckets_[0].empty()) return static_cast<std::int64_t>(floor_);
    if (!min_valid_) {
      const auto& b = buckets_[static_cast<std::size_t>(std::countr_zero(nonempty_))];
      std::int64_t m = b.front().t;
      for (const Entry& e : b) m = std::min(m, e.t);
      min_cache_ = m;
      min_valid_ = true;
    }
    return min_cache_;
  }

  // Moves every entry at min_time() into `out` (appended, sorted by id); floor() becomes that
  // time. The queue must not be empty.
  void pop_min_batch(std::vector<Entry>& out) {
    if (buckets_[0].empty()) spread_first_bucket();
    auto& b0 = buckets_[0];
    const std::size_t first = out.size();
    for (const Entry& e : b0) {
      where_[e.id].bucket = kNone;
      out.push_back(e);
    }
    size_ -= b0.size();
    b0.clear();
    nonempty_ &= ~std::uint64_t{1};
    min_valid_ = false;
    // Usually in id order already (a burst of starts pushes ids in order): check before sorting.
    const auto by_id = [](const Entry& a, const Entry& b) { return a.id < b.id; };
    const auto begin = out.begin() + static_cast<std::ptrdiff_t>(first);
    if (!std::is_sorted(begin, out.end(), by_id)) std::sort(begin, out.end(), by_id);
  }

  // Room for `ids` ids and entries, taken now (when the fabric is built).
  void reserve(std::size_t ids) {
    where_.reserve(ids);
    buckets_[0].reserve(ids);
  }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  struct Where {
    std::uint32_t bucket = kNone;
    std::uint32_t index = 0;
  };

  std::uint32_t bucket_of(std::uint64_t t) const { return static_cast<std::uint32_t>(std::bit_width(t ^ floor_)); }

  void append(std::uint32_t bucket, const Entry& e) {
    auto& b = buckets_[bucket];
    where_[e.id] = Where{bucket, static_cast<std::uint32_t>(b.size())};
    b.push_back(e);
    nonempty_ |= std::uint64_t{1} << bucket;
  }

  const Entry& at(Where w) const { return buckets_[w.bucket][w.index]; }

  void remove_at(Where w) {
    auto& b = buckets_[w.bucket];
    if (w.index + 1 != b.size()) {
      b[w.index] = b.back();
      where_[b[w.index].id].index = w.index;
    }
    b.pop_back();
    if (b.empty()) nonempty_ &= ~(std::uint64_t{1} << w.bucket);
  }

  // Bucket 0 is empty: the first non-empty bucket holds the minimum; it becomes the floor and
  // the bucket's entries spread over lower buckets (the minimum's into bucket 0).
  void spread_first_bucket() {
    const auto i = static_cast<std::size_t>(std::countr_zero(nonempty_));
    floor_ = static_cast<std::uint64_t>(min_time());
    spill_.swap(buckets_[i]);
    nonempty_ &= ~(std::uint64_t{1} << i);
    for (const Entry& e : spill_) append(bucket_of(static_cast<std::uint64_t>(e.t)), e);
    spill_.clear();
  }

  std::array<std::vector<Entry>, 64> buckets_;  // t < 2^63: bit_width(t ^ floor) <= 63
  std::vector<Entry> spill_;
  std::vector<Where> where_;
  std::uint64_t nonempty_ = 0;  // bit b: buckets_[b] is not empty
  std::uint64_t floor_ = 0;
  std::size_t size_ = 0;
  mutable std::int64_t min_cache_ = 0;
  mutable bool min_valid_ = false;
};

}  // namespace dcsim::models::network
