#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "models/facility/min_tree.hpp"

using dcsim::models::facility::MinTree;

TEST_CASE("min tree: the minimum equals a scan of the values after every update", "[models][facility]") {
  // Sizes around powers of two (the tree pads to one) and a single leaf (the root is the leaf).
  for (std::size_t size : {1u, 2u, 3u, 5u, 8u, 13u, 64u, 100u}) {
    MinTree tree(size);
    std::vector<double> values(size, MinTree::kNone);
    std::mt19937_64 rng(size);
    std::uniform_real_distribution<double> value(-5.0, 5.0);
    for (int step = 0; step < 400; ++step) {
      const std::size_t leaf = rng() % size;
      // Every fourth update clears a leaf: the minimum must move up to the next one.
      const double v = step % 4 == 3 ? MinTree::kNone : value(rng);
      tree.set(leaf, v);
      values[leaf] = v;
      INFO("size " << size << ", step " << step);
      REQUIRE(tree.min() == *std::min_element(values.begin(), values.end()));
      REQUIRE(tree.value(leaf) == v);
    }
  }
}

TEST_CASE("min tree: leaves written lazily count once rebuilt", "[models][facility]") {
  MinTree tree(6);
  CHECK(tree.min() == MinTree::kNone);  // empty: no value yet
  for (std::size_t i = 0; i < 6; ++i) tree.set_lazily(i, 10.0 - static_cast<double>(i));
  tree.rebuild();
  CHECK(tree.min() == 5.0);  // leaf 5: 10 - 5
  tree.set(5, 20.0);         // the old minimum leaves: leaf 4 (6.0) is next
  CHECK(tree.min() == 6.0);
  tree.set(0, -1.0);
  CHECK(tree.min() == -1.0);
}
