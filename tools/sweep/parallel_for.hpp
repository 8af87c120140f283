#pragma once
// Runs fn(i) for i in [0, n) on `threads` threads, each taking the next index as it finishes one
// (variants take very different times; a static split would leave cores idle at the end).
// The first exception stops the handing out of indices and is rethrown once all threads are
// joined; fn must catch what it wants to survive (a failed variant).

#include <cstddef>
#include <functional>

namespace dcsim::tools::sweep {

void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& fn);

// std::thread::hardware_concurrency(), at least 1.
std::size_t core_count();

}  // namespace dcsim::tools::sweep
