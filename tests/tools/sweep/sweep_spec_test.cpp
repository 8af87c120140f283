// The sweep file: how lists, ranges, grid, zip, random sampling and replications expand into
// variants (counts worked out by hand), and the sweep file's own JSON pointer in every error.
#include <catch2/catch.hpp>

#include <set>

#include "sim/error.hpp"
#include "tools/sweep/sweep_spec.hpp"

namespace {

using dcsim::tools::sweep::Combine;
using dcsim::tools::sweep::parse_sweep;
using dcsim::tools::sweep::Sweep;
using nlohmann::json;
namespace sw = dcsim::tools::sweep;

Sweep parse(const std::string& text) { return parse_sweep(json::parse(text), "s.json", "/base"); }

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const dcsim::sim::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<json> values_of(const Sweep& s, std::size_t parameter) {
  std::vector<json> out;
  for (std::size_t i = 0; i < sw::variant_count(s); ++i) out.push_back(sw::variant_at(s, i, 1).values[parameter]);
  return out;
}

}  // namespace

TEST_CASE("sweep: a grid is the product of the value counts, times the replications", "[sweep]") {
  // 3 listed values x 4 range values (0.05, 0.10, 0.15, 0.20) x 2 replications = 24.
  const Sweep s = parse(R"({"name": "g", "scenario": "base.json", "replications": 2, "parameters": [
      {"path": "fabric.oversubscription", "values": [1, 2, 4]},
      {"path": "economics.electricity.price_per_kwh", "range": {"start": 0.05, "stop": 0.2, "step": 0.05}}]})");
  CHECK(s.scenario == "/base/base.json");
  CHECK(sw::point_count(s) == 12);
  CHECK(sw::variant_count(s) == 24);
  // Row-major, replications innermost: v0 and v1 are the same point, v2 moves the last parameter.
  const auto v0 = sw::variant_at(s, 0, 7), v1 = sw::variant_at(s, 1, 7), v2 = sw::variant_at(s, 2, 7);
  CHECK(v0.values == std::vector<json>{1, 0.05});
  CHECK(v1.values == v0.values);
  CHECK(v2.values == std::vector<json>{1, 0.1});
  const auto last = sw::variant_at(s, 23, 7);
  CHECK(last.values == std::vector<json>{4, 0.2});
  CHECK(last.name == "v0023");
  // 0.15 printed as written, not 0.15000000000000002 (rounded to 12 significant digits).
  CHECK(sw::variant_at(s, 4, 7).overrides ==
        std::vector<std::string>{"fabric.oversubscription=1", "economics.electricity.price_per_kwh=0.15", "seed=7"});
}

TEST_CASE("sweep: zip runs the parameters side by side", "[sweep]") {
  const Sweep s = parse(R"({"name": "z", "scenario": "b.json", "combine": "zip", "parameters": [
      {"path": "a", "values": [1, 2, 3]}, {"path": "b", "values": ["x", "y", "z"]}]})");
  CHECK(s.combine == Combine::kZip);
  CHECK(sw::variant_count(s) == 3);  // not 9
  CHECK(sw::variant_at(s, 2, 1).values == std::vector<json>{3, "z"});
  // A string value is passed as JSON, so "8" would stay a string.
  CHECK(sw::variant_at(s, 1, 1).overrides[1] == "b=\"y\"");
  CHECK_THAT(error_of(R"({"name": "z", "scenario": "b.json", "combine": "zip", "parameters": [
      {"path": "a", "values": [1, 2, 3]}, {"path": "b", "values": [1, 2]}]})"),
             Catch::Contains("s.json:/parameters/1: \"zip\" runs the parameters side by side: expected 3 values"));
}

TEST_CASE("sweep: linear and log ranges include stop - integers stay integers - a unit makes quantities", "[sweep]") {
  const Sweep s = parse(R"({"name": "r", "scenario": "b.json", "combine": "zip", "parameters": [
      {"path": "a", "range": {"start": 1, "stop": 1000, "step": 10, "scale": "log"}},
      {"path": "b", "range": {"start": 100, "stop": 400, "step": 100, "unit": "Gbps"}},
      {"path": "c", "range": {"start": 0.5, "stop": 2, "step": 0.5}},
      {"path": "d", "range": {"start": 10, "stop": 7, "step": -1}}]})");
  CHECK(values_of(s, 0) == std::vector<json>{1, 10, 100, 1000});
  CHECK(values_of(s, 1) == std::vector<json>{"100 Gbps", "200 Gbps", "300 Gbps", "400 Gbps"});
  CHECK(values_of(s, 2) == std::vector<json>{0.5, 1.0, 1.5, 2.0});
  CHECK(values_of(s, 3) == std::vector<json>{10, 9, 8, 7});
}

TEST_CASE("sweep: random sampling is seeded, within its range, and picks listed values", "[sweep]") {
  const std::string text = R"({"name": "rnd", "scenario": "b.json", "combine": "random", "samples": 50,
      "sample_seed": 3, "parameters": [
      {"path": "u", "range": {"start": 0.2, "stop": 0.9}},
      {"path": "p", "range": {"start": 0.01, "stop": 1, "scale": "log"}},
      {"path": "k", "values": [4, 8]}]})";
  const Sweep s = parse(text);
  CHECK(sw::variant_count(s) == 50);
  std::set<json> ks;
  for (std::size_t i = 0; i < 50; ++i) {
    const auto v = sw::variant_at(s, i, 1);
    CHECK(v.values[0].get<double>() >= 0.2);
    CHECK(v.values[0].get<double>() <= 0.9);
    CHECK(v.values[1].get<double>() >= 0.01);
    CHECK(v.values[1].get<double>() <= 1.0);
    ks.insert(v.values[2]);
  }
  CHECK(ks == std::set<json>{4, 8});  // 50 draws of two values: both appear (1 - 2^-49)
  // The same file gives the same samples; another sample_seed other ones.
  CHECK(values_of(parse(text), 0) == values_of(s, 0));
  json other = json::parse(text);
  other["sample_seed"] = 4;
  CHECK(values_of(parse_sweep(other, "s.json", ""), 0) != values_of(s, 0));
}

TEST_CASE("sweep: replication seeds differ, replication 0 keeps the base seed, every point shares them", "[sweep]") {
  const Sweep s = parse(R"({"name": "rep", "scenario": "b.json", "replications": 5, "parameters": [
      {"path": "a", "values": [1, 2]}]})");
  std::set<std::uint64_t> seeds;
  for (std::size_t r = 0; r < 5; ++r) {
    const auto v = sw::variant_at(s, r, 42);
    CHECK(v.replication == r);
    seeds.insert(v.seed);
    // Point 2 (a=2) runs on the same seeds: common random numbers across points.
    CHECK(sw::variant_at(s, 5 + r, 42).seed == v.seed);
    CHECK(v.overrides.back() == "seed=" + std::to_string(v.seed));
  }
  CHECK(seeds.size() == 5);
  CHECK(sw::variant_at(s, 0, 42).seed == 42);
  // The sweep's own "seed" replaces the scenario's.
  const Sweep seeded = parse(R"({"name": "rep", "scenario": "b.json", "seed": 9, "parameters": []})");
  CHECK(sw::variant_count(seeded) == 1);
  CHECK(sw::variant_at(seeded, 0, 42).seed == 9);
}

TEST_CASE("sweep: variant names are zero-padded to the sweep's size", "[sweep]") {
  CHECK(sw::variant_name(7, 100) == "v0007");
  CHECK(sw::variant_name(7, 10000) == "v0007");
  CHECK(sw::variant_name(7, 10001) == "v00007");
}

TEST_CASE("sweep: bad sweep files name the sweep file's JSON pointer", "[sweep]") {
  const std::string head = R"({"name": "b", "scenario": "b.json", "parameters": [)";
  CHECK_THAT(error_of(head + R"({"path": "a", "values": []}]})"),
             Catch::Contains("s.json:/parameters/0/values: expected a non-empty array of values"));
  CHECK_THAT(error_of(head + R"({"path": "a", "range": {"start": 1, "stop": 2, "step": 0}}]})"),
             Catch::Contains("s.json:/parameters/0/range/step: expected a non-zero step, got 0"));
  CHECK_THAT(error_of(head + R"({"path": "a", "range": {"start": 1, "stop": 2, "step": -1}}]})"),
             Catch::Contains("s.json:/parameters/0/range/step: step -1 never gets from start 1 to stop 2"));
  CHECK_THAT(error_of(head + R"({"path": "a", "range": {"start": 0, "stop": 2, "step": 2, "scale": "log"}}]})"),
             Catch::Contains("s.json:/parameters/0/range/start: a log range needs start > 0"));
  CHECK_THAT(error_of(head + R"({"path": "a", "range": {"start": 1, "stop": 2}}]})"),
             Catch::Contains("s.json:/parameters/0/range/step: missing required key"));
  CHECK_THAT(error_of(head + R"({"path": "a", "values": [1]}, {"path": "a", "values": [2]}]})"),
             Catch::Contains("s.json:/parameters/1/path: 'a' is swept twice"));
  CHECK_THAT(error_of(head + R"({"path": "a", "valuez": [1]}]})"),
             Catch::Contains("s.json:/parameters/0/valuez: unknown key"));
  CHECK_THAT(error_of(head + R"({"path": "seed", "values": [1, 2]}]})"),
             Catch::Contains("s.json:/parameters/0/path: the seed is not swept"));
  CHECK_THAT(error_of(head + R"(], "replications": 0})"),
             Catch::Contains("s.json:/replications: expected an integer >= 1, got 0"));
  CHECK_THAT(error_of(head + R"(], "combine": "cartesian"})"), Catch::Contains("s.json:/combine: expected \"grid\""));
  // Every problem at once.
  const std::string both = error_of(head + R"({"path": "a", "values": []}, {"path": "b", "range": {"start": 1, "stop": 2, "step": 0}}]})");
  CHECK_THAT(both, Catch::Contains("/parameters/0/values") && Catch::Contains("/parameters/1/range/step"));
  CHECK_THAT(error_of(head + R"({"path": "a", "range": {"start": 0, "stop": 1, "step": 1e-9}}]})"),
             Catch::Contains("s.json:/parameters/0/range/step: the range has 1000000001 values"));
}
