// Atomic outputs: no final file before commit, no temporaries after a failure.

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "sim/error.hpp"
#include "tests/tools/output/temp_dir.hpp"
#include "tests/tools/output/trace_reader.hpp"
#include "tools/output/output_directory.hpp"
#include "tools/output/run_output.hpp"

using dcsim::tools::output::OutputDirectory;
using dcsim::tools::output::RunOutput;
using dcsim::tools::output::test::TempDir;

namespace {

std::vector<std::string> listing(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

void touch(const std::filesystem::path& p, const std::string& text = "x") {
  std::ofstream(p) << text;
}

}  // namespace

TEST_CASE("staged files appear under their final names only at commit",
          "[tools][output][atomic]") {
  TempDir tmp;
  const auto dir = tmp / "a" / "b";  // created with parents
  OutputDirectory out(dir);
  const auto trace = out.stage("trace.h5");
  const auto summary = out.stage("summary.json");
  CHECK(trace.parent_path() == dir);
  CHECK(trace.filename().string() == ".trace.h5.tmp-" + std::to_string(::getpid()));
  touch(trace);
  touch(summary);
  CHECK(listing(dir) == std::vector<std::string>{".summary.json.tmp-" + std::to_string(::getpid()),
                                                 ".trace.h5.tmp-" + std::to_string(::getpid())});
  out.commit();
  CHECK(out.committed());
  CHECK(listing(dir) == std::vector<std::string>{"summary.json", "trace.h5"});
}

TEST_CASE("an uncommitted output directory removes its temporaries", "[tools][output][atomic]") {
  TempDir tmp;
  {
    OutputDirectory out(tmp.path());
    touch(out.stage("trace.h5"));
    out.stage("summary.json");  // never written: removing it must not fail
  }
  CHECK(listing(tmp.path()).empty());
}

TEST_CASE("commit replaces earlier results and fails cleanly on a missing temporary",
          "[tools][output][atomic]") {
  TempDir tmp;
  touch(tmp / "trace.h5", "old");
  touch(tmp / "summary.json", "old");
  {
    OutputDirectory out(tmp.path());
    touch(out.stage("trace.h5"), "new");
    out.stage("summary.json");  // missing: the run did not complete
    CHECK_THROWS_AS(out.commit(), dcsim::sim::InputError);
  }
  // Nothing renamed, temporaries gone, the earlier complete set untouched.
  CHECK(listing(tmp.path()) == std::vector<std::string>{"summary.json", "trace.h5"});
  std::ifstream in(tmp / "trace.h5");
  std::string text;
  in >> text;
  CHECK(text == "old");

  OutputDirectory out(tmp.path());
  touch(out.stage("trace.h5"), "new");
  touch(out.stage("summary.json"), "new");
  out.commit();
  CHECK(listing(tmp.path()) == std::vector<std::string>{"summary.json", "trace.h5"});
  std::ifstream again(tmp / "summary.json");
  again >> text;
  CHECK(text == "new");
}

TEST_CASE("a run that throws leaves nothing behind; a committed run leaves both files",
          "[tools][output][atomic]") {
  TempDir tmp;
  const auto dir = tmp / "run";
  try {
    RunOutput out(dir);
    const auto s = out.sink().declare_series("power/cluster_w", "W", "");
    out.sink().append(s, dcsim::sim::Time::from_s(1), 5);
    CHECK(std::filesystem::exists(dir));
    CHECK_FALSE(std::filesystem::exists(out.trace_path()));
    throw std::runtime_error("simulated failure");
  } catch (const std::runtime_error&) {
  }
  CHECK(listing(dir).empty());

  {
    RunOutput out(dir);
    const auto s = out.sink().declare_series("power/cluster_w", "W", "");
    out.sink().append(s, dcsim::sim::Time::from_s(1), 5);
    out.sink().set_summary("energy_kwh", {1.5, "kWh", ""});
    dcsim::tools::output::RunMeta meta;
    meta.scenario_name = "x";
    out.set_meta(meta);
    CHECK_FALSE(std::filesystem::exists(out.summary_path()));
    out.commit(0.5);
  }
  CHECK(listing(dir) == std::vector<std::string>{"summary.json", "trace.h5"});
  dcsim::tools::output::test::TraceReader r(dir / "trace.h5");
  CHECK(r.scalar_double("/summary/energy_kwh") == 1.5);
}

TEST_CASE("an unusable output directory is an InputError naming it", "[tools][output][atomic]") {
  TempDir tmp;
  touch(tmp / "file");
  // Root ignores permission bits, so a regular file in the way is the portable failure.
  CHECK_THROWS_AS(OutputDirectory(tmp / "file" / "sub"), dcsim::sim::InputError);
  CHECK_THROWS_WITH(OutputDirectory(tmp / "file" / "sub"),
                    Catch::Contains("cannot create output directory") &&
                        Catch::Contains((tmp / "file" / "sub").string()));
  CHECK_THROWS_WITH(OutputDirectory(tmp / "file"), Catch::Contains("is not a directory"));
  CHECK_THROWS_AS(RunOutput(tmp / "file" / "sub"), dcsim::sim::InputError);

  if (::geteuid() != 0) {
    const auto ro = tmp / "read-only";
    std::filesystem::create_directory(ro);
    std::filesystem::permissions(ro, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_exec);
    CHECK_THROWS_WITH(OutputDirectory(ro), Catch::Contains("is not writable"));
  }
}

TEST_CASE("a new run deletes the previous run's results before it starts", "[tools][output][atomic]") {
  // A script that ignores the exit code of a failed run must not read the previous summary.
  TempDir tmp;
  touch(tmp / "trace.h5", "old");
  touch(tmp / "summary.json", "old");
  touch(tmp / "notes.txt", "mine");  // not ours: kept
  try {
    RunOutput out(tmp.path());
    CHECK_FALSE(std::filesystem::exists(tmp / "summary.json"));
    CHECK_FALSE(std::filesystem::exists(tmp / "trace.h5"));
    throw std::runtime_error("the run failed");
  } catch (const std::runtime_error&) {
  }
  CHECK(listing(tmp.path()) == std::vector<std::string>{"notes.txt"});
}

TEST_CASE("a check before the rename that throws leaves no complete-looking file", "[tools][output][atomic]") {
  TempDir tmp;
  {
    RunOutput out(tmp.path());
    out.sink().set_summary("energy_kwh", {1.5, "kWh", ""});
    CHECK_THROWS_AS(out.commit(0.5, [] { throw std::runtime_error("interrupted"); }), std::runtime_error);
  }
  CHECK(listing(tmp.path()).empty());
}

TEST_CASE("an empty output directory path is refused, not taken as the current directory",
          "[tools][output][atomic]") {
  CHECK_THROWS_WITH(OutputDirectory(""), Catch::Contains("expected a directory path, got an empty string"));
}

TEST_CASE("a run deletes the temporaries that killed runs left, not those of live processes",
          "[tools][output][atomic]") {
  // Before: a run killed outright left .trace.h5.tmp-<pid> for ever; every later run into the
  // folder kept it.
  TempDir tmp;
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  ::waitpid(child, nullptr, 0);  // reaped: its pid names no process now
  const std::string dead = std::to_string(child);
  const std::string live = std::to_string(::getppid());
  for (const std::string& name : {".trace.h5.tmp-" + dead, ".summary.json.tmp-" + dead, ".trace.h5.tmp-" + live,
                                 ".report.html.tmp-" + dead, std::string(".trace.h5.tmp-12x"), "trace.h5.tmp-" + dead}) {
    touch(tmp / name);
  }
  OutputDirectory out(tmp.path());
  out.stage("trace.h5");
  out.stage("summary.json");
  CHECK(out.discard_previous() == 2);
  // Kept: a live process's, other names' and what is not a temporary of ours.
  std::vector<std::string> kept{".report.html.tmp-" + dead, ".trace.h5.tmp-12x", ".trace.h5.tmp-" + live,
                                "trace.h5.tmp-" + dead};
  std::sort(kept.begin(), kept.end());
  CHECK(listing(tmp.path()) == kept);
}
