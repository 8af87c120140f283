#pragma once
// reserve_touched(v, n): v.reserve(n), and the new memory written once, so the page faults of
// its first use happen now (when a fabric is built) rather than inside the first timed events.

#include <cstddef>
#include <vector>

namespace dcsim::models::network {

template <typename T>
void reserve_touched(std::vector<T>& v, std::size_t n) {
  if (v.size() >= n) return;
  const std::size_t size = v.size();
  v.resize(n);
  v.resize(size);
}

}  // namespace dcsim::models::network
