// The JSON Schema and the key reference (docs/scenario-keys.md) are generated from the scenario
// spec and committed; these tests fail when the committed copies drift from the code
// (DCSIM_UPDATE_GOLDEN=1 regenerates them). Also: every example scenario loads, and every unit
// the schema's patterns accept parses.

#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace fs = std::filesystem;
using namespace dcsim;
using namespace dcsim::tools::scenario;
using namespace dcsim::tools::scenario::testing;
using nlohmann::json;

namespace {

constexpr std::string_view kBegin = "<!-- BEGIN GENERATED: scenario keys (tools/scenario) -->\n";
constexpr std::string_view kEnd = "<!-- END GENERATED: scenario keys -->";

std::vector<fs::path> json_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".json" && e.path().filename() != "schema.json") {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

const sim::QuantityKind kAllKinds[] = {
    sim::QuantityKind::kDuration,    sim::QuantityKind::kDataSize,
    sim::QuantityKind::kDataRate,    sim::QuantityKind::kPower,
    sim::QuantityKind::kEnergy,      sim::QuantityKind::kTemperature,
    sim::QuantityKind::kMoney,       sim::QuantityKind::kEnergyPrice,
    sim::QuantityKind::kDataPrice,   sim::QuantityKind::kLength};

}  // namespace

TEST_CASE("scenarios/schema.json is what scenario_schema() generates", "[tools][scenario][schema]") {
  const auto registries = make_registries();
  const fs::path path = source_dir() / "scenarios/schema.json";
  const json schema = scenario_schema(registries);
  if (update_golden()) write_text(path, schema.dump(2) + "\n");
  REQUIRE(fs::exists(path));
  const std::string committed = read_text(path);
  CHECK(json::parse(committed) == schema);
  CHECK(committed == schema.dump(2) + "\n");
}

TEST_CASE("docs/scenario-keys.md's key table is what the spec generates", "[tools][scenario][schema]") {
  check_generated_section(source_dir() / "docs/scenario-keys.md", kBegin, kEnd,
                          scenario_reference_markdown(make_registries()));
}

TEST_CASE("every scenario in scenarios/ and the test fixtures loads", "[tools][scenario][schema]") {
  const auto registries = make_registries();
  auto files = json_files(source_dir() / "scenarios");
  const auto fixtures = json_files(source_dir() / "tests/data/scenarios");
  files.insert(files.end(), fixtures.begin(), fixtures.end());
  REQUIRE(files.size() >= 2);
  for (const auto& f : files) {
    INFO(f.string());
    try {
      const Scenario s = load_scenario_file(f.string(), {}, std::nullopt, registries);
      CHECK_FALSE(s.name.empty());
    } catch (const sim::InputErrors& e) {
      for (const auto& m : e.messages()) UNSCOPED_INFO(m);
      FAIL("does not load");
    }
  }
}

TEST_CASE("the schema's top level is draft 2020-12 and closed", "[tools][scenario][schema]") {
  const json schema = scenario_schema(make_registries());
  CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  CHECK(schema["type"] == "object");
  CHECK(schema["additionalProperties"] == false);
  CHECK(schema["required"] == json::array({"name"}));  // /cluster or /fabric: checked by the loader
  CHECK(schema["properties"]["cluster"]["properties"]["nodes"]["minimum"] == 1);
  CHECK(schema["properties"]["cluster"]["properties"]["nodes_per_rack"]["default"] == 4);
  CHECK(schema["properties"]["policies"]["properties"]["scheduler"]["enum"] ==
        make_registries().schedulers.names());
}

TEST_CASE("every unit in the schema's patterns parses, and the patterns accept them",
          "[tools][scenario][schema]") {
  for (const auto kind : kAllKinds) {
    const std::regex pattern(quantity_pattern(kind));
    for (const auto& unit : quantity_units(kind)) {
      for (const std::string& text : {"2 " + unit, "2" + unit, " 1.5e1 " + unit + " "}) {
        INFO(sim::quantity_kind_name(kind) << ": \"" << text << "\"");
        CHECK_NOTHROW(sim::parse_quantity(kind, text));
        CHECK(std::regex_search(text, pattern));
      }
    }
    // ...and reject what the parser rejects.
    for (const char* text : {"2", "two W", "2 parsecs", "", "1e W"}) {
      INFO(sim::quantity_kind_name(kind) << ": \"" << text << "\"");
      CHECK_THROWS_AS(sim::parse_quantity(kind, text), sim::ParseError);
      CHECK_FALSE(std::regex_search(text, pattern));
    }
  }
  const std::regex money(quantity_pattern(sim::QuantityKind::kMoney));
  CHECK(std::regex_search("$1200", money));
  CHECK(std::regex_search("-$5", money));
  const std::regex price(quantity_pattern(sim::QuantityKind::kEnergyPrice));
  CHECK(std::regex_search("$0.08/kWh", price));
  CHECK_NOTHROW(sim::parse_energy_price_usd_per_j("$0.08/kWh"));
  CHECK_FALSE(std::regex_search("$0.08/parsec", price));
  const std::regex duration(quantity_pattern(sim::QuantityKind::kDuration));
  CHECK(std::regex_search("0", duration));
  CHECK(std::regex_search("2 h 30 min", duration));
  CHECK_FALSE(std::regex_search("-5 s", duration));
}
