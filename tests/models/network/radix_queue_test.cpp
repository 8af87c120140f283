#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "models/network/radix_queue.hpp"
#include "sim/error.hpp"
#include "sim/random.hpp"

namespace {
struct Entry {
  std::int64_t t;
  std::uint32_t id;
  std::uint32_t payload;
};
using Queue = dcsim::models::network::RadixQueue<Entry>;
}  // namespace

TEST_CASE("radix queue pops batches in (time, id) order", "[models][network][radix_queue]") {
  Queue q;
  q.set({50, 7, 0});
  q.set({20, 9, 0});
  q.set({20, 3, 0});
  q.set({1'000'000, 1, 0});
  REQUIRE(q.min_time() == 20);
  std::vector<Entry> out;
  q.pop_min_batch(out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].id == 3);  // equal times: by id, as a heap on (t, id) would give them
  CHECK(out[1].id == 9);
  CHECK(q.floor() == 20);
  // Moving an entry: 7 goes from 50 to 30, then 1 from 1e6 to 25.
  q.set({30, 7, 0});
  q.set({25, 1, 0});
  CHECK(q.size() == 2);
  out.clear();
  q.pop_min_batch(out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == 1);
  q.erase(7);
  CHECK(q.empty());
}

TEST_CASE("radix queue refuses an entry before its floor", "[models][network][radix_queue]") {
  Queue q;
  q.set({100, 0, 0});
  std::vector<Entry> out;
  q.pop_min_batch(out);
  CHECK_THROWS_AS(q.set({99, 1, 0}), dcsim::sim::InternalError);
  q.set({100, 1, 0});  // at the floor: fine
  CHECK(q.min_time() == 100);
}

TEST_CASE("radix queue matches an ordered set under random sets, moves, erases and pops",
          "[models][network][radix_queue]") {
  // Differential: a std::set of (t, id) is the reference. Times are drawn near the floor, far
  // from it and equal to others, so entries meet in every bucket and in bucket 0.
  dcsim::sim::RandomStream rng(GENERATE(1u, 2u, 3u));
  Queue q;
  std::set<std::pair<std::int64_t, std::uint32_t>> ref;
  std::map<std::uint32_t, std::int64_t> time_of;
  std::int64_t floor = 0;
  std::vector<Entry> out;
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t op = rng.uniform_int(10);
    const auto id = static_cast<std::uint32_t>(rng.uniform_int(300));
    if (op < 6) {
      const std::uint64_t spread = rng.uniform_int(4);
      const std::int64_t t = floor + static_cast<std::int64_t>(
                                         spread == 0 ? 0 : rng.uniform_int(spread == 1 ? 8 : spread == 2 ? 1000 : 1u << 30));
      if (time_of.count(id)) ref.erase({time_of[id], id});
      q.set({t, id, 0});
      ref.insert({t, id});
      time_of[id] = t;
    } else if (op < 8) {
      q.erase(id);
      if (time_of.count(id)) {
        ref.erase({time_of[id], id});
        time_of.erase(id);
      }
    } else if (!ref.empty()) {
      REQUIRE(q.min_time() == ref.begin()->first);
      out.clear();
      q.pop_min_batch(out);
      floor = ref.begin()->first;
      REQUIRE(!out.empty());
      for (const Entry& e : out) {
        REQUIRE(!ref.empty());
        REQUIRE(e.t == ref.begin()->first);
        REQUIRE(e.id == ref.begin()->second);
        ref.erase(ref.begin());
        time_of.erase(e.id);
      }
      REQUIRE((ref.empty() || ref.begin()->first > floor));
    }
    REQUIRE(q.size() == ref.size());
    for (std::uint32_t probe : {id, id / 2}) CHECK(q.contains(probe) == (time_of.count(probe) == 1));
  }
}
