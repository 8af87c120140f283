// Determinism of every shipped scenario: its run fingerprint (the hash of every executed event's
// time, priority and kind, in order) and its timing fingerprint (the same without the kind) are
// golden values, and two runs of the same scenario and
// seed emit identical traces and byte-identical summary.json.
//
// A change that alters a scenario's event sequence on purpose updates the golden file:
//   DCSIM_UPDATE_GOLDEN=1 build/tests/test_tools_run "[golden][fingerprint]"
// and says in its commit why the sequence changed. Otherwise a changed fingerprint is a side
// effect to find. A refactor that moves or renames code which schedules events (a namespace, a
// lambda moved into a collaborator) changes `fingerprint` (the kind is the callable's type name)
// but never `timing` nor `events`: such a commit updates the golden file and says so.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/trace_sink.hpp"
#include "tools/run/run_scenario.hpp"

namespace fs = std::filesystem;
using dcsim::sim::MemoryTraceSink;
using dcsim::tools::run::run_to_directory;
using dcsim::tools::run::simulate;
using dcsim::tools::scenario::load_scenario_file;

namespace {

const fs::path kSource = DCSIM_SOURCE_DIR;
const fs::path kGolden = kSource / "tests/data/golden/fingerprints.json";

dcsim::models::ModelRegistries builtin() {
  dcsim::models::ModelRegistries r;
  dcsim::models::register_builtin_models(r);
  return r;
}

std::vector<fs::path> shipped_scenarios() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kSource / "scenarios")) {
    if (e.path().extension() == ".json" && e.path().filename() != "schema.json") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fingerprint(const MemoryTraceSink& sink) {
  return std::get<std::string>(sink.summary("engine/fingerprint").value);
}

// NaN marks "no value" in series and table cells (LAYOUT.md): equal to itself here.
bool same(double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; }
bool same(const dcsim::sim::Cell& x, const dcsim::sim::Cell& y) {
  if (x.index() != y.index()) return false;
  if (const double* dx = std::get_if<double>(&x)) return same(*dx, std::get<double>(y));
  return x == y;
}
template <class T>
bool same_all(const std::vector<T>& x, const std::vector<T>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!same(x[i], y[i])) return false;
  }
  return true;
}

// Everything a model emitted, compared element by element: series points, table rows, summary.
void check_identical(const MemoryTraceSink& a, const MemoryTraceSink& b) {
  REQUIRE(a.series().size() == b.series().size());
  for (std::size_t i = 0; i < a.series().size(); ++i) {
    INFO("series " << a.series()[i].path);
    CHECK(a.series()[i].path == b.series()[i].path);
    CHECK(a.series()[i].time_ns == b.series()[i].time_ns);
    CHECK(same_all(a.series()[i].value, b.series()[i].value));
  }
  REQUIRE(a.tables().size() == b.tables().size());
  for (std::size_t i = 0; i < a.tables().size(); ++i) {
    INFO("table " << a.tables()[i].path);
    REQUIRE(a.tables()[i].rows.size() == b.tables()[i].rows.size());
    for (std::size_t r = 0; r < a.tables()[i].rows.size(); ++r) CHECK(same_all(a.tables()[i].rows[r], b.tables()[i].rows[r]));
  }
  REQUIRE(a.summary().size() == b.summary().size());
  for (const auto& [path, value] : a.summary()) {
    INFO("summary " << path);
    CHECK(value.value == b.summary(path).value);
  }
}

}  // namespace

TEST_CASE("every shipped scenario's fingerprint is its golden value", "[golden][fingerprint]") {
  const auto registries = builtin();
  nlohmann::json golden = nlohmann::json::object();
  if (fs::exists(kGolden)) golden = nlohmann::json::parse(read_file(kGolden));
  const char* update_env = std::getenv("DCSIM_UPDATE_GOLDEN");
  const bool update = update_env != nullptr && std::string(update_env) == "1";
  nlohmann::json now = nlohmann::json::object();
  for (const fs::path& file : shipped_scenarios()) {
    const std::string name = file.filename().string();
    INFO(name);
    const auto scenario = load_scenario_file(file.string(), {}, {}, registries);
    MemoryTraceSink first, second;
    simulate(scenario, registries, first);
    simulate(scenario, registries, second);
    // Same scenario, same seed, same process: the same events and the same outputs.
    check_identical(first, second);
    now[name] = {{"events", std::get<std::int64_t>(first.summary("engine/events").value)},
                 {"fingerprint", fingerprint(first)},
                 {"timing", std::get<std::string>(first.summary("engine/timing_fingerprint").value)}};
    if (!update) {
      REQUIRE(golden.contains(name));  // a new scenario needs its golden value
      // The timing first: when it holds and only the fingerprint moved, the events are the same and
      // only the code that schedules them was moved or renamed.
      CHECK(now[name]["events"] == golden[name]["events"]);
      CHECK(now[name]["timing"] == golden[name]["timing"]);
      CHECK(now[name]["fingerprint"] == golden[name]["fingerprint"]);
    }
  }
  if (update) std::ofstream(kGolden) << now.dump(2) << '\n';
}

TEST_CASE("two runs of every shipped scenario write byte-identical summary.json", "[golden][determinism]") {
  const auto registries = builtin();
  const fs::path base = fs::temp_directory_path() / ("dcsim-golden-" + std::to_string(::getpid()));
  for (const fs::path& file : shipped_scenarios()) {
    INFO(file.filename().string());
    const auto scenario = load_scenario_file(file.string(), {}, {}, registries);
    const auto a = run_to_directory(scenario, registries, base / "a");
    const auto b = run_to_directory(scenario, registries, base / "b");
    CHECK(read_file(a.summary_file) == read_file(b.summary_file));
  }
  fs::remove_all(base);
}
