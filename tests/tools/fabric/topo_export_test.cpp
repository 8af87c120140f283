// `dcsim topo`'s exports: what the k=4 fat-tree builder makes (Al-Fares: k pods of k/2 edge and
// k/2 aggregation switches, (k/2)^2 cores, k^3/4 hosts) must come out whole in each format.

#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "fabric_test_support.hpp"
#include "tools/scenario/fabric_mapping.hpp"
#include "tools/topo/topology_export.hpp"

using namespace dcsim::tools;
using namespace dcsim::tools::fabric_testing;

namespace {

// k=4: 16 hosts, 8 edge + 8 aggregation + 4 core = 20 switches; cables: 16 host-edge, 16 edge-agg
// (each edge to both aggs of its pod), 16 agg-core (each agg to 2 cores) = 48, i.e. 96 links.
constexpr int kHosts = 16, kSwitches = 20, kCables = 48;

dcsim::models::network::Topology fat_tree_k4() {
  const auto s = load(R"({"name": "t", "fabric": {"topology": "fat_tree", "k": 4}})");
  return scenario::build_topology(*s.fabric, registries(), s.source);
}

std::size_t count(const std::string& text, const std::regex& re) {
  return static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

}  // namespace

TEST_CASE("dot export: one vertex per host and switch, one edge per cable", "[tools][fabric][topo]") {
  std::ostringstream out;
  topo::write_dot(fat_tree_k4(), out);
  const std::string dot = out.str();
  CHECK(dot.rfind("graph G {", 0) == 0);
  CHECK(count(dot, std::regex(R"(\n"?h\d+"?\[label=)")) == kHosts);
  CHECK(count(dot, std::regex(R"(\n"s\d\.\d+"\[label=)")) == kSwitches);
  CHECK(count(dot, std::regex("--")) == kCables);
  CHECK(dot.find("\"s3.16\"") != std::string::npos);  // the first core: 8 edge + 8 agg before it
}

TEST_CASE("graphml export parses to the same counts", "[tools][fabric][topo]") {
  std::ostringstream out;
  topo::write_graphml(fat_tree_k4(), out);
  const std::string xml = out.str();
  CHECK(count(xml, std::regex("<node id=")) == kHosts + kSwitches);
  CHECK(count(xml, std::regex("<edge id=")) == kCables);
  CHECK(xml.find("attr.name=\"bandwidth_bps\"") != std::string::npos);
}

TEST_CASE("link table: every directed link with its reverse", "[tools][fabric][topo]") {
  const auto t = fat_tree_k4();
  std::ostringstream out;
  topo::write_link_table(t, out);
  std::istringstream in(out.str());
  std::string line;
  std::getline(in, line);
  CHECK(line == "link,src,dst,bandwidth_bps,latency_ns,tier,cables,reverse");
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    const auto id = std::stoul(line.substr(0, line.find(',')));
    CHECK(id == rows);
    ++rows;
  }
  CHECK(rows == 2 * kCables);
  // Link 0 leaves host h0 for its edge switch at the default 100 Gb/s, and its reverse comes back.
  CHECK(out.str().find("\n0,h0,s1.0,100000000000,") != std::string::npos);
}
