// The expectations format's JSON Schema and docs/cli.md's key table are generated from its one
// declaration (expectations_format.hpp) and committed; these tests fail when the committed copies
// drift from the code (DCSIM_UPDATE_GOLDEN=1 regenerates them). And the parser takes every form
// the declaration lists, with the keys it lists.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/check/expectations.hpp"
#include "tools/check/expectations_format.hpp"
#include "../scenario/scenario_test_support.hpp"

namespace fs = std::filesystem;
using namespace dcsim::tools::check;
using dcsim::tools::scenario::testing::check_generated_section;
using dcsim::tools::scenario::testing::read_text;
using dcsim::tools::scenario::testing::update_golden;
using dcsim::tools::scenario::testing::write_text;
using nlohmann::json;

namespace {

const fs::path kSource = DCSIM_SOURCE_DIR;
constexpr std::string_view kBegin = "<!-- BEGIN GENERATED: expectations keys (tools/check) -->\n";
constexpr std::string_view kEnd = "<!-- END GENERATED: expectations keys -->";

// A value of the declared type, as a user would write it.
json sample(KeyType type) {
  switch (type) {
    case KeyType::kString: return "x";
    case KeyType::kNumber: return 1.5;
    case KeyType::kTolerance: return 0.05;
    case KeyType::kAllowance: return "2%";
    case KeyType::kTrue: return true;
    case KeyType::kScalar: return 20;
    default: return nullptr;
  }
}

}  // namespace

TEST_CASE("scenarios/ci/expectations.schema.json is what expectations_schema() generates", "[tools][check][schema]") {
  const fs::path path = kSource / "scenarios/ci/expectations.schema.json";
  const json schema = expectations_schema();
  if (update_golden()) write_text(path, schema.dump(2) + "\n");
  REQUIRE(fs::exists(path));
  CHECK(read_text(path) == schema.dump(2) + "\n");
}

TEST_CASE("docs/cli.md's expectations key table is what the declaration generates", "[tools][check][schema]") {
  check_generated_section(kSource / "docs/cli.md", kBegin, kEnd, expectations_reference_markdown());
}

TEST_CASE("the parser takes each declared form of a check with each of its keys", "[tools][check][schema]") {
  const fs::path dir = fs::temp_directory_path() / ("dcsim-forms-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write_text(dir / "x", R"({ "x": 2 })");  // the baseline "x" (a kString sample) with its value at path "x"
  for (const auto& form : check_forms()) {
    // Its required keys with each of its any_of keys alone, then with all of them.
    std::vector<std::vector<std::string>> choices;
    for (const auto& k : form.any_of) choices.push_back({k});
    if (form.any_of.size() != 1) choices.push_back(form.any_of);
    for (const auto& chosen : choices) {
      json check = json::object();
      for (const auto& k : form.required) check[k] = nullptr;
      for (const auto& k : chosen) check[k] = nullptr;
      for (const auto& k : check_keys()) {
        if (check.contains(k.key)) check[k.key] = sample(k.type);
      }
      if (check.contains("min") && check.contains("max")) check["max"] = 2;
      INFO(form.name << ": " << check.dump());
      const json doc = {{"name", "t"}, {"runs", {{{"name", "r"}, {"scenario", "s.json"}, {"checks", {check}}}}}};
      CHECK_NOTHROW(parse_expectations(doc, "<test>", dir.string()));
    }
  }
  fs::remove_all(dir);
}
