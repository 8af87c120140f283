#pragma once
// Callback: a move-only `void()` callable stored in place (no heap allocation), so that
// scheduling an event never allocates. Captures up to kCallbackCapacity bytes (six pointers);
// a larger capture is a compile error that says so — capture a pointer to a struct instead.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace dcsim::sim {

inline constexpr std::size_t kCallbackCapacity = 48;

class Callback {
 public:
  Callback() = default;

  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Callback>>>
  Callback(F&& f) {  // NOLINT(google-explicit-constructor): lambdas convert implicitly
    using Fn = std::decay_t<F>;
    static_assert(sizeof(Fn) <= kCallbackCapacity,
                  "event callback captures too much: capture a pointer to your state instead");
    static_assert(alignof(Fn) <= alignof(std::max_align_t), "over-aligned event callback");
    static_assert(std::is_nothrow_move_constructible_v<Fn>, "callback must be nothrow-movable");
    if constexpr (kTrivial<Fn> && sizeof(Fn) < kCallbackCapacity) {
      // The fixed-size memcpy that moves it copies the unused tail too: give it a value.
      std::memset(storage_ + sizeof(Fn), 0, kCallbackCapacity - sizeof(Fn));
    }
    ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
    ops_ = &kOps<Fn>;
  }

  Callback(Callback&& o) noexcept { move_from(o); }
  Callback& operator=(Callback&& o) noexcept {
    if (this != &o) {
      reset();
      move_from(o);
    }
    return *this;
  }
  Callback(const Callback&) = delete;
  Callback& operator=(const Callback&) = delete;
  ~Callback() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  void operator()() { ops_->invoke(storage_); }
  // What kind of event this is: a hash of the callable's type name (a lambda's mangled name
  // says where in the source it was written), the same in every run of any build of the same
  // source with the Itanium ABI. The run fingerprint hashes it, so two events at one instant
  // that swap places change the fingerprint. 0 for an empty callback.
  std::uint64_t kind() const { return ops_ == nullptr ? 0 : ops_->kind->hash; }

  // The kind's hash and the callable's type name as the compiler gives it (mangled): the type of
  // a lambda names the function it was written in, so an error inside an event can say which
  // code scheduled it (Simulator adds it to an internal error). Null for an empty callback.
  struct Kind {
    std::uint64_t hash;
    const char* type_name;
  };
  const Kind* kind_info() const { return ops_ == nullptr ? nullptr : ops_->kind; }

  void reset() {
    if (ops_ != nullptr) {
      if (ops_->destroy != nullptr) ops_->destroy(storage_);
      ops_ = nullptr;
    }
  }

 private:
  // move and destroy are null for trivially copyable captures (pointers, ids, times: nearly
  // every event), which then move by a fixed-size memcpy and need no destruction: two indirect
  // calls fewer per scheduled event.
  struct Ops {
    void (*invoke)(void*);
    void (*move)(void* dst, void* src);  // move-constructs into dst and destroys src
    void (*destroy)(void*);
    const Kind* kind;
  };
  // FNV-1a of the type's mangled name, computed once per callable type at start-up.
  static std::uint64_t kind_of(const char* type_name) {
    std::uint64_t h = 0xCBF29CE484222325ULL;
    for (const char* c = type_name; *c != '\0'; ++c) {
      h = (h ^ static_cast<unsigned char>(*c)) * 0x100000001B3ULL;
    }
    return h;
  }
  template <class Fn>
  static inline const Kind kKind{kind_of(typeid(Fn).name()), typeid(Fn).name()};
  template <class Fn>
  static constexpr bool kTrivial =
      std::conjunction_v<std::is_trivially_copyable<Fn>, std::is_trivially_destructible<Fn>>;
  template <class Fn>
  static constexpr Ops kOps{
      [](void* p) { (*static_cast<Fn*>(p))(); },
      kTrivial<Fn> ? nullptr
                   : +[](void* dst, void* src) {
                       ::new (dst) Fn(std::move(*static_cast<Fn*>(src)));
                       static_cast<Fn*>(src)->~Fn();
                     },
      kTrivial<Fn> ? nullptr : +[](void* p) { static_cast<Fn*>(p)->~Fn(); },
      &kKind<Fn>};

  void move_from(Callback& o) noexcept {
    if (o.ops_ != nullptr) {
      if (o.ops_->move == nullptr) {
        std::memcpy(storage_, o.storage_, kCallbackCapacity);
      } else {
        o.ops_->move(storage_, o.storage_);
      }
      ops_ = o.ops_;
      o.ops_ = nullptr;
    }
  }

  alignas(std::max_align_t) unsigned char storage_[kCallbackCapacity];
  const Ops* ops_ = nullptr;
};

}  // namespace dcsim::sim
