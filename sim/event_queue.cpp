#include "sim/event_queue.hpp"

#include <cstdlib>
#include <new>

#include "sim/error.hpp"

namespace dcsim::sim {

EventQueue::EventQueue() : buckets_(std::make_unique<Bucket[]>(std::size_t{kLevels} * kDigits)) {}

EventQueue::~EventQueue() {
  for (std::uint32_t slot = 0; slot < slots_; ++slot) cell(slot).~Cell();
}

void EventQueue::FreeBlock::operator()(void* p) const { std::free(p); }

EventQueue::Block EventQueue::allocate_block() {
  void* p = std::aligned_alloc(kBlockBytes, kBlockBytes);
  if (p == nullptr) throw std::bad_alloc();
  return Block(p);
}

void EventQueue::Bucket::grow() {
  const std::uint32_t capacity = capacity_ == 0 ? 16 : capacity_ * 2;
  if (capacity <= capacity_) throw InternalError("event bucket overflow (this is a bug)");
  auto data = std::make_unique_for_overwrite<Entry[]>(capacity);
  std::copy(begin(), end(), data.get());
  data_ = std::move(data);
  capacity_ = capacity;
}

bool EventQueue::advance(std::int64_t limit) {
  while (levels_ != 0) {
    const int level = std::countr_zero(levels_);
    const int digit = masks_[level].first();
    if (digit < 0) {
      levels_ &= levels_ - 1;
      continue;
    }
    // The earliest time bucket (level, digit) can hold: base_'s bytes above `level`, `digit`,
    // then zeros.
    const int shift = level * 8;
    const std::uint64_t keep_high = shift + 8 >= 64 ? 0 : ~((std::uint64_t{1} << (shift + 8)) - 1);
    const auto start = static_cast<std::int64_t>((static_cast<std::uint64_t>(base_) & keep_high) |
                                                 (static_cast<std::uint64_t>(digit) << shift));
    if (start > limit) {
      // Nothing is due by limit. Any base between the old one and `start` leaves every entry's
      // level and digit unchanged (all lower levels and digits are empty), so the base may
      // follow the caller's clock to limit at no cost.
      if (limit > base_) base_ = limit;
      return false;
    }
    masks_[level].reset(digit);
    if (level == 0) {
      base_ = start;  // the next exact time within the current 256 ns window
    } else {
      // The new base is the bucket's minimum (or limit, if that is earlier): no entry lies
      // before it, every entry of the bucket agrees with it above byte `level` (so each moves
      // to a lower level), and every other bucket keeps its level and digit.
      Bucket& source = bucket(level, digit);
      std::int64_t min_time = source.front().time_ns;
      for (const Entry& e : source) min_time = std::min(min_time, e.time_ns);
      base_ = std::min(min_time, limit);
      const bool small = source.size() <= kPrefetchBatch;
      for (const Entry& e : source) place(e, small);
      source.clear();  // keeps its capacity: no allocation in steady state
      // The next bucket of this level runs right after the ones just filled: start loading its
      // callbacks now, so that the first events after this batch do not wait either.
      if (const int next = masks_[level].first(); next >= 0) {
        Bucket& after = bucket(level, next);
        if (after.size() <= kPrefetchBatch) {
          for (const Entry& e : after) prefetch_slot(e.slot);
        }
      }
    }
    Bucket& cur = current();
    if (cur.size() > 1) std::make_heap(cur.begin(), cur.end(), ByOrder{});
    return true;
  }
  return false;
}

std::uint32_t EventQueue::grow() {
  const std::uint32_t slot = slots_;
  if (slot == kNoSlot - 1) throw InternalError("more than 4e9 pending events (this is a bug)");
  if ((slot & kCellMask) == 0) cell_blocks_.push_back(allocate_block());
  if ((slot & kMetaMask) == 0) meta_blocks_.push_back(allocate_block());
  // Constructed as they are first needed: a small simulation touches little of its blocks.
  ::new (static_cast<void*>(&cell(slot))) Cell();
  ::new (static_cast<void*>(&meta(slot))) SlotMeta();
  ++slots_;
  return slot;
}

bool EventQueue::cancel(EventHandle h) {
  if (!is_pending(h)) return false;
  ++meta(h.slot).generation;  // even: not pending
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
  SlotMeta& m = meta(h.slot);
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
      if (b.empty()) masks_[level].reset(digit);  // levels_ is cleared lazily by advance()
    }
  }
  Bucket& cur = current();
  std::make_heap(cur.begin(), cur.end(), ByOrder{});
  std::erase_if(early_, stale);
  std::make_heap(early_.begin(), early_.end(), ByTimeOrder{});
  stale_ = 0;
}

}  // namespace dcsim::sim
