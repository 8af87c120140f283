#pragma once
// EventQueue: the pending-event set behind Simulator (private to sim/; tests use it directly).
//
// Order: (time, priority, sequence). The sequence is a per-queue counter taken at push (and at
// reschedule), so two entries never compare equal and ties never depend on the structure.
//
// Structure: a radix heap on time with one byte per level (a 256-ary radix heap, after Ahuja,
// Mehlhorn, Orlin & Tarjan 1990), which suits a discrete-event simulator because the front
// time never goes backwards. `base_` is a lower bound of every bucketed time, at or before the
// front. An entry with time t >= base_ lives at
//     level L = index of the highest byte in which t and base_ differ (0..7),
//     digit d = byte L of t (> byte L of base_),
// so bucket (L, d) precedes (L, d') for d < d' and every bucket of level L precedes every
// bucket of level L+1. Level 0 buckets hold one exact time each; the one whose digit equals
// base_'s low byte is the *current* bucket (time == base_), kept as a binary heap on
// (priority, sequence): that is where the tie order lives. When it runs dry, base_ moves to the
// next non-empty level-0 bucket, or else to the minimum of the first non-empty bucket (L, d) of
// the lowest non-empty level, whose entries are then redistributed into levels below L.
// Non-empty buckets are found through one 256-bit mask per level.
//
// An entry with t < base_ goes to a small binary heap `early_`, all of whose entries precede
// every bucketed one, so any time is accepted and the order holds. The simulator never needs it
// (pop(limit) moves base_ no further than limit, and the clock is then at least limit) unless
// next_event_time() looked ahead and a model then scheduled something before that event.
//
// Memory traffic is what costs at 1e5..1e6 pending, so: entries are 24 bytes (time,
// priority|sequence, slot, generation) and move between buckets by sequential copies; callbacks
// stay in a slab of 64-byte cells (one cache line each, stable addresses, 2 MiB blocks), reused
// LIFO through a free list so that a freed cell is cache-hot when the next event takes it; a
// dense 8-byte-per-slot array holds the generations that make stale handles and entries
// harmless. A cell is touched at random when its event runs, so when a bucket of up to
// kPrefetchBatch entries is redistributed towards the front, the slots of its entries and of the
// next bucket of the same level are prefetched: the cache misses of the next few hundred events
// overlap instead of queueing up (this alone is worth 1.6x in the hold benchmark).
//
// Complexity, n pending, k of them at the front instant, C the span of pending times in ns:
//   push            O(1)  (O(log k) at the front instant)
//   pop             amortised O(log_256 C + log k): an entry moves down at most 7 levels (2 or 3
//                   for spans from milliseconds to hours), plus scans of 256-bit masks
//   cancel          O(1): the callback is destroyed and the slot freed now; the entry stays and
//                   is dropped when it reaches the front (lazy). When stale entries outnumber
//                   live ones, all buckets are compacted (amortised O(1) per cancel)
//   reschedule      O(1): a new entry; the old one becomes stale
//   is_pending, size O(1)
// Memory: buckets keep their capacity, so once they and the slab have grown to a run's peak,
// nothing allocates. Sequences are 56 bits (7e16 events per queue); generations are 32 bits,
// so a stale handle could only be mistaken for a live one after 2^31 reuses of its slot.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/callback.hpp"
#include "sim/simulator.hpp"
#include "sim/time.hpp"

namespace dcsim::sim {

class EventQueue {
 public:
  // The front event, taken out of the queue by pop(); run it with invoke().
  struct Popped {
    Time time;
    Priority priority = Priority::kNormal;
    std::uint64_t sequence = 0;
    std::uint32_t slot = 0;
  };

  EventQueue();
  ~EventQueue();
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  std::size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }
  // Entries kept for cancelled or rescheduled events, not yet dropped (for tests and tuning).
  std::size_t stale_entries() const { return stale_; }
  // Entries in the overflow heap for times before the radix base (for tests and tuning).
  std::size_t early_entries() const { return early_.size(); }

  EventHandle push(Time t, Priority priority, Callback cb) {
    const std::uint32_t slot = free_head_ != kNoSlot ? free_head_ : grow();
    SlotMeta& m = meta(slot);
    free_head_ = m.link;
    callback_at(slot) = std::move(cb);
    ++m.generation;  // odd: pending
    m.link = static_cast<std::uint32_t>(priority);
    insert(Entry{t.ns(), make_order(priority), slot, m.generation});
    ++live_;
    return EventHandle{slot, m.generation};
  }

  bool is_pending(EventHandle h) const {
    return h.slot < slots_ && meta(h.slot).generation == h.generation && (h.generation & 1) != 0;
  }

  // False (and nothing happens) for a stale handle.
  bool cancel(EventHandle h);
  // Moves a pending event to time t with a fresh sequence, keeping its callback and priority.
  // `h` is updated to the new generation (copies of the old handle become stale: they refer to
  // the event as it was scheduled). False (nothing happens) for a stale handle.
  bool reschedule(EventHandle& h, Time t);

  // Time of the front event; Time::max() when empty.
  Time peek_time() {
    const Entry* e = front(Time::max().ns());
    return e == nullptr ? Time::max() : Time::from_ns(e->time_ns);
  }

  // Takes the front event out when its time is <= limit. The event is no longer pending (its
  // handle is stale) but its slot stays reserved until invoke() or discard().
  bool pop(Time limit, Popped& out) {
    const Entry* e = front(limit.ns());
    if (e == nullptr || e->time_ns > limit.ns()) return false;
    out.time = Time::from_ns(e->time_ns);
    out.priority = static_cast<Priority>(e->order >> kSequenceBits);
    out.sequence = e->order & kSequenceMask;
    out.slot = e->slot;
    ++meta(e->slot).generation;  // even: running, then free
    --live_;
    if (!early_.empty()) {
      pop_early();
    } else {
      pop_current();
    }
    return true;
  }

  // Runs a popped event's callback, then frees its slot (also when the callback throws). The
  // callback may push, cancel and reschedule: its cell has a stable address.
  void invoke(std::uint32_t slot) {
    struct Release {
      EventQueue* queue;
      std::uint32_t slot;
      ~Release() { queue->release(slot); }
    } release{this, slot};
    callback_at(slot)();
  }

  // The kind of a popped event's callback (Callback::kind), for the run fingerprint.
  std::uint64_t kind(std::uint32_t slot) { return callback_at(slot).kind(); }
  // Its kind with the callable's type name (Callback::kind_info); null for an empty callback.
  const Callback::Kind* kind_info(std::uint32_t slot) { return callback_at(slot).kind_info(); }

  // Frees a popped event's slot without running it.
  void discard(std::uint32_t slot) { release(slot); }

 private:
  static constexpr int kSequenceBits = 56;
  static constexpr std::uint64_t kSequenceMask = (std::uint64_t{1} << kSequenceBits) - 1;
  static constexpr std::uint32_t kNoSlot = UINT32_MAX;
  // Slots live in 2 MiB blocks, allocated as the slab grows and aligned so that a kernel with
  // transparent huge pages can back each with one page. (Asking for them with madvise made no
  // measurable difference once the slots are prefetched: prefetches walk the page tables too.)
  static constexpr std::size_t kBlockBytes = std::size_t{1} << 21;
  static constexpr int kCellBits = 15;  // 32768 cells of 64 bytes per block
  static constexpr std::uint32_t kCellMask = (1u << kCellBits) - 1;
  static constexpr int kMetaBits = 18;  // 262144 SlotMeta of 8 bytes per block
  static constexpr std::uint32_t kMetaMask = (1u << kMetaBits) - 1;
  static constexpr int kLevels = 8;  // bytes of a non-negative int64 time
  static constexpr int kDigits = 256;
  static constexpr std::size_t kCompactAtLeast = 4096;
  // A level-1 bucket at most this big has its slots prefetched when redistributed: its entries
  // run within the next 65 us of simulated time, typically within the next few hundred events.
  static constexpr std::size_t kPrefetchBatch = 256;

  struct Entry {
    std::int64_t time_ns;
    std::uint64_t order;  // priority << 56 | sequence
    std::uint32_t slot;
    std::uint32_t generation;  // the slot's generation when scheduled: stale when it differs
  };
  static_assert(sizeof(Entry) == 24);

  // A hint to load the cache line at p; p need not point into an object (no access is made).
  static void prefetch(const void* p) {
#if defined(__GNUC__) && defined(__x86_64__)
    // Not __builtin_prefetch: GCC 12 at -O2 deletes it here (its mod/ref analysis finds the
    // enclosing helper free of side effects and drops the call), which silently cost 30%.
    asm volatile("prefetcht0 (%0)" : : "r"(p));
#else
    __builtin_prefetch(p);
#endif
  }

  // A growable array of entries whose append inlines to a store and an increment (std::vector's
  // push_back did not inline in the redistribution loop, and showed up at 10% of a profile).
  class Bucket {
   public:
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    Entry* begin() { return data_.get(); }
    Entry* end() { return data_.get() + size_; }
    const Entry& front() const { return data_[0]; }
    void push_back(const Entry& e) {
      if (size_ == capacity_) [[unlikely]]
        grow();
      data_[size_++] = e;
    }
    // Appends and prefetches the line after the new end: a far-future bucket is appended to
    // once every few events and its memory is cold, so this turns a store miss per 2.7
    // appends into a hit.
    void push_back_ahead(const Entry& e) {
      push_back(e);
      prefetch(reinterpret_cast<const char*>(data_.get()) + (size_ * sizeof(Entry)) + 64);
    }
    void pop_back() { --size_; }
    void clear() { size_ = 0; }
    void truncate(std::size_t n) { size_ = static_cast<std::uint32_t>(n); }

   private:
    void grow();
    std::unique_ptr<Entry[]> data_;
    std::uint32_t size_ = 0;
    std::uint32_t capacity_ = 0;
  };

  // One cache line per callback (Callback is 56 bytes used, 64 with its alignment).
  struct alignas(64) Cell {
    Callback callback;
  };

  // 8 bytes per slot, apart from the callbacks, so that the stale check at the front touches a
  // small array (800 KB for 1e5 pending: it stays in L2) and not a callback's cache line.
  struct SlotMeta {
    // Odd while an event is pending in the slot; bumped when it runs or is cancelled (even),
    // and again when the slot is reused or the event rescheduled (by 2), so old handles and
    // old entries stop matching.
    std::uint32_t generation = 0;
    std::uint32_t link = kNoSlot;  // next free slot while free; the priority while pending
  };

  struct ByOrder {  // std heaps are max-heaps: "less" means "runs later"
    bool operator()(const Entry& a, const Entry& b) const { return a.order > b.order; }
  };
  struct ByTimeOrder {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.time_ns != b.time_ns ? a.time_ns > b.time_ns : a.order > b.order;
    }
  };

  // 256-bit set of non-empty digits of one level.
  struct DigitMask {
    std::array<std::uint64_t, 4> words{};
    void set(int d) { words[d >> 6] |= std::uint64_t{1} << (d & 63); }
    void reset(int d) { words[d >> 6] &= ~(std::uint64_t{1} << (d & 63)); }
    // Lowest set digit, or -1.
    int first() const {
      for (int w = 0; w < 4; ++w) {
        if (words[w] != 0) return w * 64 + std::countr_zero(words[w]);
      }
      return -1;
    }
  };

  std::uint64_t make_order(Priority priority) {
    return (static_cast<std::uint64_t>(priority) << kSequenceBits) | (next_sequence_++);
  }

  Callback& callback_at(std::uint32_t slot) { return cell(slot).callback; }
  Cell& cell(std::uint32_t slot) const {
    return static_cast<Cell*>(cell_blocks_[slot >> kCellBits].get())[slot & kCellMask];
  }
  SlotMeta& meta(std::uint32_t slot) const {
    return static_cast<SlotMeta*>(meta_blocks_[slot >> kMetaBits].get())[slot & kMetaMask];
  }

  void prefetch_slot(std::uint32_t slot) const {
    prefetch(&meta(slot));
    prefetch(&cell(slot));
  }

  bool is_live(const Entry& e) const { return meta(e.slot).generation == e.generation; }

  Bucket& bucket(int level, int digit) { return buckets_[level * kDigits + digit]; }
  Bucket& current() { return bucket(0, static_cast<int>(base_ & 0xFF)); }

  // Files e (time >= base_) under its level and digit during a redistribution, prefetching its
  // slot when it lands in level 0 (or level 1, when `prefetch_level1`): it runs soon.
  void place(const Entry& e, bool prefetch_level1) {
    const auto x = static_cast<std::uint64_t>(e.time_ns) ^ static_cast<std::uint64_t>(base_);
    if (x == 0) {
      current().push_back(e);  // caller restores the heap order
      prefetch_slot(e.slot);
      return;
    }
    const int level = (63 - std::countl_zero(x)) >> 3;
    const int digit =
        static_cast<int>((static_cast<std::uint64_t>(e.time_ns) >> (level * 8)) & 0xFF);
    bucket(level, digit).push_back(e);
    masks_[level].set(digit);
    levels_ |= 1u << level;
    if (level == 0 || (level == 1 && prefetch_level1)) prefetch_slot(e.slot);
  }

  void insert(const Entry& e) {
    if (e.time_ns < base_) [[unlikely]] {
      early_.push_back(e);
      std::push_heap(early_.begin(), early_.end(), ByTimeOrder{});
      return;
    }
    const auto x = static_cast<std::uint64_t>(e.time_ns) ^ static_cast<std::uint64_t>(base_);
    if (x == 0) {
      Bucket& cur = current();
      cur.push_back(e);
      std::push_heap(cur.begin(), cur.end(), ByOrder{});
      return;
    }
    const int level = (63 - std::countl_zero(x)) >> 3;
    const int digit =
        static_cast<int>((static_cast<std::uint64_t>(e.time_ns) >> (level * 8)) & 0xFF);
    bucket(level, digit).push_back_ahead(e);
    masks_[level].set(digit);
    levels_ |= 1u << level;
  }

  // The earliest live entry (dropping stale ones on the way); nullptr when empty, and possibly
  // when nothing is due by `limit` (then the structure is left ready for times >= limit).
  const Entry* front(std::int64_t limit) {
    for (;;) {
      if (!early_.empty()) [[unlikely]] {
        if (is_live(early_.front())) return &early_.front();
        pop_early();
        --stale_;
        continue;
      }
      Bucket& cur = current();
      if (cur.empty()) {
        if (!advance(limit)) return nullptr;
        continue;
      }
      if (is_live(cur.front())) return &cur.front();
      pop_current();
      --stale_;
    }
  }

  void pop_early() {
    std::pop_heap(early_.begin(), early_.end(), ByTimeOrder{});
    early_.pop_back();
  }

  void pop_current() {
    Bucket& cur = current();
    if (cur.size() > 1) std::pop_heap(cur.begin(), cur.end(), ByOrder{});
    cur.pop_back();
  }

  void release(std::uint32_t slot) {
    callback_at(slot).reset();
    meta(slot).link = free_head_;
    free_head_ = slot;
  }

  // With the current bucket empty: moves base_ to the next non-empty bucket, redistributing it
  // if it is above level 0. False when nothing is bucketed, or when that bucket starts after
  // `limit`: then base_ moves only up to limit, so that run_until(limit) followed by events
  // scheduled between limit and the next event keeps them in the buckets (not in early_).
  bool advance(std::int64_t limit);
  std::uint32_t grow();
  void maybe_compact() {
    if (stale_ > live_ && stale_ >= kCompactAtLeast) compact();
  }
  void compact();

  std::unique_ptr<Bucket[]> buckets_;       // kLevels * kDigits
  std::array<DigitMask, kLevels> masks_{};  // non-empty buckets, the current one excluded
  std::uint32_t levels_ = 0;  // bit L set when masks_[L] may be non-zero (cleared lazily)
  std::int64_t base_ = 0;
  std::vector<Entry> early_;
  struct FreeBlock {
    void operator()(void* p) const;
  };
  using Block = std::unique_ptr<void, FreeBlock>;
  static Block allocate_block();
  std::vector<Block> cell_blocks_;  // Cell objects constructed for slots [0, slots_)
  std::vector<Block> meta_blocks_;
  std::uint32_t slots_ = 0;
  std::uint32_t free_head_ = kNoSlot;
  std::uint64_t next_sequence_ = 1;
  std::size_t live_ = 0;
  std::size_t stale_ = 0;
};

}  // namespace dcsim::sim
