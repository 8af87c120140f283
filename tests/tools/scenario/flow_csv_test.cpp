// The flow CSV readers on streams (what the fuzz target drives) and their path versions.

#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "sim/error.hpp"
#include "tools/scenario/flow_csv.hpp"

namespace sc = dcsim::tools::scenario;

TEST_CASE("flow traces read from a stream: hosts, bytes, start; comments and blanks skipped",
          "[tools][scenario][csv]") {
  std::istringstream in("# trace\nsrc,dst,bytes,start_s\r\n\nh0,3,1e6,0.5\n h3 , h1 , 0 , 0 \n");
  const auto flows = sc::read_flow_csv(in, "t.csv", 4);
  REQUIRE(flows.size() == 2);
  CHECK(flows[0].src == 0);
  CHECK(flows[0].dst == 3);
  CHECK(flows[0].bytes == 1e6);
  CHECK(flows[0].start.ns() == 500'000'000);  // 0.5 s exactly
  CHECK(flows[1].src == 3);
  CHECK(flows[1].bytes == 0);
}

TEST_CASE("flow trace errors from a stream name the display name and line", "[tools][scenario][csv]") {
  std::istringstream in("src,dst,bytes,start_s\nh0,h4,1,0\n");
  CHECK_THROWS_WITH(sc::read_flow_csv(in, "t.csv", 4),
                    "t.csv:2: unknown host 'h4' (the fabric has hosts h0 .. h3)");
  std::istringstream empty("");
  CHECK_THROWS_AS(sc::read_flow_csv(empty, "t.csv", 4), dcsim::sim::InputError);
}

TEST_CASE("size lists read from a stream: optional header, at least one size",
          "[tools][scenario][csv]") {
  std::istringstream in("bytes\n100\n2e6\n");
  CHECK(sc::read_size_csv(in, "s.csv") == std::vector<double>{100, 2e6});
  std::istringstream header_only("bytes\n");
  CHECK_THROWS_WITH(sc::read_size_csv(header_only, "s.csv"), "s.csv: expected at least one flow size, found none");
}

TEST_CASE("the path versions of the CSV readers say when a file cannot be opened", "[tools][scenario][csv]") {
  CHECK_THROWS_WITH(sc::read_size_csv("/nonexistent/s.csv", "s.csv"), "s.csv: cannot open file");
  CHECK_THROWS_WITH(sc::read_flow_csv("/nonexistent/f.csv", "f.csv", 2), "f.csv: cannot open file");
}
