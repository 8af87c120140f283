// CSV export reads a finished trace back and writes one exact CSV per series.

#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <sstream>

#include "sim/error.hpp"
#include "tests/tools/output/temp_dir.hpp"
#include "tools/output/csv_export.hpp"
#include "tools/output/hdf5_trace_writer.hpp"

using dcsim::sim::Time;
using dcsim::tools::output::Hdf5Options;
using dcsim::tools::output::Hdf5TraceWriter;
using dcsim::tools::output::write_series_csv;
using dcsim::tools::output::test::read_file;
using dcsim::tools::output::test::TempDir;

TEST_CASE("series export to CSV with exact times and values", "[tools][output][csv]") {
  TempDir dir;
  const auto trace = dir / "trace.h5";
  {
    Hdf5TraceWriter w(trace);
    const auto p = w.declare_series("power/cluster_w", "W", "");
    const auto j = w.declare_series("jobs/running", "", "");
    w.append(p, Time::from_ns(0), 1.5);
    // 7 days + 1 ns: a double number of seconds would lose the last nanosecond.
    w.append(p, Time::from_s(7 * 86400) + Time::from_ns(1), 0.1);
    w.append(p, Time::from_s(7 * 86400) + Time::from_ns(1), std::nan(""));
    w.append(j, Time::from_ms(1500), -2.5);
    w.finish(0);
  }
  const auto files = write_series_csv(trace, dir / "csv");
  REQUIRE(files.size() == 2);
  CHECK(files[0] == dir / "csv" / "jobs" / "running.csv");
  CHECK(read_file(files[1]) ==
        "time_ns,time_s,value [W]\n"
        "0,0.000000000,1.5\n"
        "604800000000001,604800.000000001,0.1\n"
        "604800000000001,604800.000000001,\n");
  CHECK(read_file(files[0]) == "time_ns,time_s,value\n1500000000,1.500000000,-2.5\n");

  const auto one = write_series_csv(trace, dir / "one", "jobs/running");
  CHECK(one == std::vector<std::filesystem::path>{dir / "one" / "jobs" / "running.csv"});
  CHECK_THROWS_WITH(write_series_csv(trace, dir / "x", "nope"), Catch::Contains("no series 'nope'"));
  CHECK_THROWS_AS(write_series_csv(dir / "missing.h5", dir / "x"), dcsim::sim::InputError);
}

TEST_CASE("CSV export of a series longer than one read block", "[tools][output][csv]") {
  TempDir dir;
  Hdf5Options options;
  options.chunk_elements = 4096;
  constexpr int kPoints = 70'000;  // more than the 65536-point read block
  {
    Hdf5TraceWriter w(dir / "trace.h5", options);
    const auto s = w.declare_series("x", "", "");
    for (int i = 0; i < kPoints; ++i) w.append(s, Time::from_ns(i), i);
    w.finish(0);
  }
  const auto files = write_series_csv(dir / "trace.h5", dir / "csv");
  std::ifstream in(files.at(0));
  std::string line;
  int lines = 0;
  std::string last;
  while (std::getline(in, line)) {
    ++lines;
    last = line;
  }
  CHECK(lines == kPoints + 1);
  CHECK(last == "69999,0.000069999,69999");
}
