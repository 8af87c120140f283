#pragma once
// The smallest of N values under point updates: a tournament (segment) tree whose leaves are the
// values and whose inner entries are the smaller of their two children. The facility keeps each
// node's earliest thermal-threshold crossing here, so one node's change costs O(log nodes) rather
// than a rescan of the site (gpu_throttling.cpp).
//
// The minimum is exact (min neither rounds nor depends on order), so it equals a linear scan of
// the same values bit for bit. Values must not be NaN.
//
// Cost: set O(log N), min O(1), rebuild O(N); memory 2 x the next power of two >= N doubles.

#include <cstddef>
#include <limits>
#include <vector>

namespace dcsim::models::facility {

class MinTree {
 public:
  static constexpr double kNone = std::numeric_limits<double>::infinity();

  explicit MinTree(std::size_t leaves = 0) { resize(leaves); }

  // `leaves` values, all kNone.
  void resize(std::size_t leaves) {
    width_ = 1;
    while (width_ < leaves) width_ *= 2;
    size_ = leaves;
    tree_.assign(2 * width_, kNone);
  }
  std::size_t size() const { return size_; }

  void set(std::size_t leaf, double value) {
    std::size_t i = width_ + leaf;
    tree_[i] = value;
    for (i /= 2; i >= 1; i /= 2) {
      const double smaller = tree_[2 * i] < tree_[2 * i + 1] ? tree_[2 * i] : tree_[2 * i + 1];
      if (tree_[i] == smaller) break;  // nothing above changes either
      tree_[i] = smaller;
    }
  }
  // Writes a leaf without updating the entries above it; rebuild() before the next min().
  void set_lazily(std::size_t leaf, double value) { tree_[width_ + leaf] = value; }
  void rebuild() {
    for (std::size_t i = width_ - 1; i >= 1; --i) {
      tree_[i] = tree_[2 * i] < tree_[2 * i + 1] ? tree_[2 * i] : tree_[2 * i + 1];
    }
  }

  // Every value kNone again: O(N), a fill rather than N updates.
  void clear() { tree_.assign(tree_.size(), kNone); }

  double value(std::size_t leaf) const { return tree_[width_ + leaf]; }
  double min() const { return tree_[1]; }

 private:
  std::size_t width_ = 1;  // leaves rounded up to a power of two
  std::size_t size_ = 0;
  std::vector<double> tree_;  // tree_[1] is the root; leaves at [width_, 2 width_)
};

}  // namespace dcsim::models::facility
