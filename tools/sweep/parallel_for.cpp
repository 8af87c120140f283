#include "tools/sweep/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace dcsim::tools::sweep {

void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& fn) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr first;
  std::mutex first_mutex;
  const auto work = [&] {
    while (!stop.load(std::memory_order_relaxed)) {
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= n) return;
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard lock(first_mutex);
        if (!first) first = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
      }
    }
  };
  const std::size_t count = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(n, 1));
  if (count == 1) {
    work();  // on the caller's thread: no thread at all for --jobs 1
  } else {
    std::vector<std::thread> pool;
    pool.reserve(count);
    for (std::size_t t = 0; t < count; ++t) pool.emplace_back(work);
    for (auto& t : pool) t.join();
  }
  if (first) std::rethrow_exception(first);
}

std::size_t core_count() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace dcsim::tools::sweep
