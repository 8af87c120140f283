// `dcsim run ... --timeline FILE.json` as a user runs it: the file appears complete (no temporary
// left), and a path that cannot be a file is exit 2 before the run, with nothing written.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;
using dcsim::cli_testing::run_dcsim;
using dcsim::cli_testing::source_dir;
using dcsim::cli_testing::temp_path;

TEST_CASE("run --timeline writes a trace-event JSON beside the run's outputs", "[cli][timeline]") {
  const fs::path dir = temp_path("timeline");
  fs::create_directories(dir);
  const auto r = run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " + (dir / "out").string() +
                           " --timeline " + (dir / "quickstart.json").string());
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(dir / "out" / "summary.json"));
  std::ifstream in(dir / "quickstart.json");
  const auto doc = nlohmann::json::parse(in);
  CHECK(doc.at("otherData").at("scenario") == "quickstart: 8 HGX H100 nodes, a day of mixed jobs");
  CHECK(doc.at("traceEvents").size() > 100);
  // Only the output folder and the timeline: no temporary left.
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);
  fs::remove_all(dir);
}

TEST_CASE("run --timeline naming a directory or a missing folder is exit 2 before the run, nothing written",
          "[cli][timeline]") {
  const fs::path dir = temp_path("timeline-bad");
  fs::create_directories(dir);
  auto r = run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " + (dir / "out").string() +
                     " --timeline " + dir.string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("--timeline '" + dir.string() + "' is a directory"));
  r = run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " + (dir / "out").string() +
                " --timeline " + (dir / "missing" / "t.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains("does not exist"));
  r = run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " + (dir / "out").string() +
                " --timeline " + (dir / "t.json").string() + " --timeline-max-steps 0");
  CHECK(r.exit_code == 2);
  CHECK(fs::is_empty(dir));  // no output folder, no timeline, no temporary
  fs::remove_all(dir);
}

TEST_CASE("run --timeline into the folder that -o is about to create", "[cli][timeline]") {
  const fs::path dir = temp_path("timeline-into-out");
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The same folder written two ways: "new" and "new/" (and "./" inside).
  const auto r = run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " + (dir / "new").string() +
                           "/ --timeline " + (dir / "." / "new" / "t.json").string());
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(dir / "new" / "summary.json"));
  CHECK(fs::exists(dir / "new" / "t.json"));
  // A folder above -o is made with it.
  const auto above = run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " +
                               (dir / "up" / "run").string() + " --timeline " + (dir / "up" / "t.json").string());
  CHECK(above.exit_code == 0);
  CHECK(fs::exists(dir / "up" / "t.json"));
  // Only into -o's own folder: a folder below it is not made up.
  const auto deeper = run_dcsim("run " + source_dir() + "/scenarios/quickstart.json -q -o " +
                                (dir / "other").string() + " --timeline " + (dir / "other" / "sub" / "t.json").string());
  CHECK(deeper.exit_code == 2);
  CHECK_THAT(deeper.output, Catch::Contains("does not exist"));
  CHECK_FALSE(fs::exists(dir / "other"));
  fs::remove_all(dir);
}

TEST_CASE("export --timeline rebuilds from trace.h5 the same bytes the run wrote", "[cli][timeline]") {
  // With faults, a training job and a facility: every kind of record, and generated jobs.
  const fs::path dir = temp_path("timeline-export");
  fs::create_directories(dir);
  for (const std::string scenario : {"quickstart.json --set duration=\"1 d\" --set reliability.faults=llama3_405b "
                                     "--set reliability.scale=10000",
                                     "failover-policies.json --set duration=\"1 d\"", "cooling-failure.json"}) {
    INFO(scenario);
    fs::remove_all(dir / "out");
    const auto r = run_dcsim("run " + source_dir() + "/scenarios/" + scenario + " -q -o " + (dir / "out").string() +
                             " --timeline " + (dir / "run.json").string());
    REQUIRE(r.exit_code == 0);
    const auto e = run_dcsim("export " + (dir / "out" / "trace.h5").string() + " --timeline " +
                             (dir / "export.json").string());
    CHECK(e.exit_code == 0);
    std::ifstream a(dir / "run.json"), b(dir / "export.json");
    const std::string run_text((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
    const std::string export_text((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
    CHECK(run_text.size() > 1000);
    CHECK(run_text == export_text);
  }
  fs::remove_all(dir);
}
