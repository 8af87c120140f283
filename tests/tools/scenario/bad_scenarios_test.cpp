// The corpus of bad scenarios: each tests/data/bad_scenarios/NAME.json has NAME.expected beside
// it, holding the exact messages the loader must report, one per line, in order. Registry name
// lists in messages are written {node_presets} and {schedulers}, so registering a new model does
// not rewrite the corpus.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <vector>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace fs = std::filesystem;
using namespace dcsim::tools::scenario;
using namespace dcsim::tools::scenario::testing;

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (std::size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

// What the loader reports for one file, as the lines of a .expected file.
std::string messages_for(const fs::path& file, const dcsim::models::ModelRegistries& registries) {
  const std::string source = file.filename().string();
  try {
    load_scenario_json(parse_json_text(read_text(file), source), source, {}, std::nullopt,
                       registries);
  } catch (const dcsim::sim::InputErrors& e) {
    std::string out;
    for (const auto& m : e.messages()) out += m + "\n";
    return out;
  } catch (const dcsim::sim::InputError& e) {
    return std::string(e.what()) + "\n";
  }
  return "(loaded without error)\n";
}

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(source_dir() / "tests/data/bad_scenarios")) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every bad scenario reports exactly its expected messages", "[tools][scenario][corpus]") {
  const auto registries = make_registries();
  const std::string presets = registries.node_presets.names_joined();
  const std::string schedulers = registries.schedulers.names_joined();
  const auto files = corpus();
  REQUIRE(files.size() >= 15);
  for (const auto& file : files) {
    const fs::path expected_file = fs::path(file).replace_extension(".expected");
    const std::string actual = messages_for(file, registries);
    if (update_golden()) {
      write_text(expected_file, replace_all(replace_all(actual, schedulers, "{schedulers}"),
                                            presets, "{node_presets}"));
      continue;
    }
    INFO("bad scenario " << file.filename().string());
    REQUIRE(fs::exists(expected_file));
    const std::string expected = replace_all(
        replace_all(read_text(expected_file), "{schedulers}", schedulers), "{node_presets}",
        presets);
    CHECK(actual == expected);
  }
}

TEST_CASE("no bad scenario loads, and each reports where the problem is", "[tools][scenario][corpus]") {
  const auto registries = make_registries();
  for (const auto& file : corpus()) {
    INFO("bad scenario " << file.filename().string());
    const std::string actual = messages_for(file, registries);
    CHECK(actual != "(loaded without error)\n");
    // Every line starts with the source, so an editor can jump to it.
    std::size_t start = 0;
    while (start < actual.size()) {
      const std::size_t end = actual.find('\n', start);
      CHECK(actual.compare(start, file.filename().string().size(), file.filename().string()) == 0);
      start = end + 1;
    }
  }
}
