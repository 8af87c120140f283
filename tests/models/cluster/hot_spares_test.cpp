// Hot spares alone (models/cluster/hot_spares.hpp): the list the failover policy reads and the
// count that decides whether a repaired node becomes a spare.

#include <catch2/catch.hpp>

#include <vector>

#include "models/cluster/hot_spares.hpp"

using dcsim::models::cluster::HotSpares;

TEST_CASE("a used spare leaves the pool for good, and a repaired node refills it", "[models][cluster][hot_spares]") {
  HotSpares spares(6, 2);  // nodes 6 and 7 of 8
  CHECK(spares.target() == 2);
  CHECK(spares.ready() == std::vector<int>{6, 7});
  spares.set_ready(6, false);  // down (or drained): not ready, still a spare
  CHECK(spares.ready() == std::vector<int>{7});
  CHECK_FALSE(spares.refill());  // both still count: nothing to refill
  spares.use(7);                 // it replaced a failed node of a job
  CHECK(spares.ready().empty());
  CHECK_FALSE(spares.is_ready(7));
  CHECK(spares.refill());  // the failed node, repaired, takes its place
  CHECK_FALSE(spares.refill());
  spares.set_ready(2, true);
  spares.set_ready(6, true);
  CHECK(spares.ready() == std::vector<int>{2, 6});
  CHECK(spares.is_ready(2));
}
