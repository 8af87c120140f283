// Callback: in-place storage, move semantics for trivial and non-trivial captures.

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <utility>

#include "sim/callback.hpp"

using dcsim::sim::Callback;

TEST_CASE("a trivially copyable capture survives moves", "[sim][callback]") {
  int hits = 0;
  const std::int64_t a = 40;
  const std::int64_t b = 2;
  Callback first([&hits, a, b] { hits += static_cast<int>(a + b); });
  Callback second(std::move(first));
  CHECK_FALSE(first);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  Callback third;
  third = std::move(second);
  REQUIRE(third);
  third();
  CHECK(hits == 42);
}

TEST_CASE("a capture with a destructor is moved and destroyed exactly once", "[sim][callback]") {
  auto token = std::make_shared<std::string>("payload");
  std::string seen;
  {
    Callback cb([token, &seen] { seen = *token; });
    CHECK(token.use_count() == 2);
    Callback moved(std::move(cb));
    CHECK(token.use_count() == 2);  // moved, not copied
    moved();
    CHECK(seen == "payload");
    moved.reset();
    CHECK(token.use_count() == 1);
    CHECK_FALSE(moved);
  }
  CHECK(token.use_count() == 1);
}

TEST_CASE("move-assigning over a live callback destroys the old capture", "[sim][callback]") {
  auto old_token = std::make_shared<int>(1);
  Callback target([old_token] {});
  int runs = 0;
  target = Callback([&runs] { ++runs; });
  CHECK(old_token.use_count() == 1);
  target();
  CHECK(runs == 1);
}
