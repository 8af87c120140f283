#include "sim/event_queue.hpp"

#include "sim/error.hpp"

namespace dcsim::sim {

EventQueue::EventQueue() : buckets_(std::make_unique<Bucket[]>(kLevels * kDigits)) {}

EventQueue::~EventQueue() = default;

void EventQueue::Bucket::grow() {
  const std::uint32_t capacity = capacity_ == 0 ? 16 : capacity_ * 2;
  if (capacity <= capacity_) throw InternalError("event bucket overflow (this is a bug)");
  auto data = std::make_unique_for_overwrite<Entry[]>(capacity);
  std::copy(begin(), end(), data.get());
  data_ = std::move(data);
  capacity_ = capacity;
}

bool EventQueue::advance() {
  // The next exact time within the current 256 ns window.
  if (const int digit = masks_[0].first(); digit >= 0) {
    masks_[0].reset(digit);
    base_ = static_cast<std::int64_t>((static_cast<std::uint64_t>(base_) & ~std::uint64_t{0xFF}) |
                                      static_cast<std::uint64_t>(digit));
    Bucket& cur = current();
    if (cur.size() > 1) std::make_heap(cur.begin(), cur.end(), ByOrder{});
    return true;
  }
  for (int level = 1; level < kLevels; ++level) {
    const int digit = masks_[level].first();
    if (digit < 0) continue;
    masks_[level].reset(digit);
    // The new base is the bucket's minimum: no entry lies before it, every entry of the bucket
    // agrees with it above byte `level` (so each moves to a lower level), and every other bucket
    // keeps its level and digit. The minimum itself lands in the current bucket at once.
    Bucket& source = bucket(level, digit);
    std::int64_t min_time = source.front().time_ns;
    for (const Entry& e : source) min_time = std::min(min_time, e.time_ns);
    base_ = min_time;
    const bool prefetch_level1 = source.size() <= kPrefetchBatch;
    for (const Entry& e : source) place(e, prefetch_level1);
    source.clear();  // keeps its capacity: no allocation in steady state
    Bucket& cur = current();
    if (cur.size() > 1) std::make_heap(cur.begin(), cur.end(), ByOrder{});
    return true;
  }
  return false;
}

std::uint32_t EventQueue::grow() {
  const std::size_t slot = meta_.size();
  if (slot >= kNoSlot) throw InternalError("more than 4e9 pending events (this is a bug)");
  if ((slot & kChunkMask) == 0) chunks_.push_back(std::make_unique<Cell[]>(kChunkMask + 1));
  meta_.push_back(SlotMeta{});
  return static_cast<std::uint32_t>(slot);
}

bool EventQueue::cancel(EventHandle h) {
  if (!is_pending(h)) return false;
  ++meta_[h.slot].generation;  // even: not pending
  --live_;
  ++stale_;
  // release() destroys the callback before the slot goes on the free list: a capture's
  // destructor may schedule events, and must not be handed the cell it is being destroyed in.
  release(h.slot);
  maybe_compact();
  return true;
}

bool EventQueue::reschedule(EventHandle& h, Time t) {
  if (!is_pending(h)) return false;
  SlotMeta& m = meta_[h.slot];
  m.generation += 2;  // still odd: pending; the old entry no longer matches
  h.generation = m.generation;
  insert(Entry{t.ns(), make_order(static_cast<Priority>(m.link)), h.slot, m.generation});
  ++stale_;
  maybe_compact();
  return true;
}

void EventQueue::compact() {
  auto stale = [this](const Entry& e) { return !is_live(e); };
  for (int level = 0; level < kLevels; ++level) {
    for (int digit = 0; digit < kDigits; ++digit) {
      Bucket& b = bucket(level, digit);
      if (b.empty()) continue;
      b.truncate(static_cast<std::size_t>(std::remove_if(b.begin(), b.end(), stale) - b.begin()));
      if (b.empty()) masks_[level].reset(digit);
    }
  }
  Bucket& cur = current();
  std::make_heap(cur.begin(), cur.end(), ByOrder{});
  std::erase_if(early_, stale);
  std::make_heap(early_.begin(), early_.end(), ByTimeOrder{});
  stale_ = 0;
}

}  // namespace dcsim::sim
