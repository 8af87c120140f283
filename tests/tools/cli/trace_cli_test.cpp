// Job traces through the CLI: `dcsim validate` says what each trace gave and what it skipped, and a
// bad row is exit 2 naming the file and line.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;
using dcsim::cli_testing::run_dcsim;
using dcsim::cli_testing::source_dir;
using dcsim::cli_testing::temp_path;

TEST_CASE("validate counts what a trace gave and skipped", "[cli][traces]") {
  const auto r = run_dcsim("validate " + source_dir() + "/scenarios/trace-replay.json");
  CHECK(r.exit_code == 0);
  // scenarios/data/README.md: 300 GPU pods, 21 of them never scheduled.
  CHECK_THAT(r.output, Catch::Contains("trace alibaba (") &&
                           Catch::Contains("279 jobs of 300 rows; 21 skipped (21 never scheduled"));
}

TEST_CASE("validate refuses a trace with a bad row: exit 2 naming file:line", "[cli][traces]") {
  const fs::path bad = temp_path("bad-trace.csv");
  {
    std::ofstream out(bad);
    out << "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
           "scheduled_time\n"
           "p0,1000,1024,1,1000,,LS,Running,0,100,0\n"
           "p1,1000,1024,1,1000,,LS,Running,later,100,0\n";
  }
  const auto r = run_dcsim("validate " + source_dir() + "/scenarios/trace-replay.json --set workload.traces.0.path=" +
                           bad.string());
  fs::remove(bad);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output,
             Catch::Contains(bad.string() + ":3: column creation_time: expected a time in seconds, got \"later\""));
}
