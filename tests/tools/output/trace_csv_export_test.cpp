// The whole trace as CSV: series, event and headline tables with units in their headers, and the
// summary scalars, each value exactly as written.

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/error.hpp"
#include "tests/tools/output/temp_dir.hpp"
#include "tools/output/hdf5_trace_writer.hpp"
#include "tools/output/trace_csv_export.hpp"

using dcsim::sim::Column;
using dcsim::sim::ColumnType;
using dcsim::sim::Time;
using dcsim::tools::output::export_trace_csv;
using dcsim::tools::output::Hdf5Options;
using dcsim::tools::output::Hdf5TraceWriter;
using dcsim::tools::output::test::read_file;
using dcsim::tools::output::test::TempDir;

TEST_CASE("a trace exports to CSV: series, tables with units in the header, and the summary", "[tools][output][csv]") {
  TempDir dir;
  const auto trace = dir / "trace.h5";
  {
    Hdf5TraceWriter w(trace);
    const auto p = w.declare_series("power/cluster_w", "W", "");
    w.append(p, Time::from_ns(0), 1.5);
    const auto t = w.declare_table("jobs", {Column{"name", ColumnType::kString, "", ""},
                                            Column{"nodes", ColumnType::kInt64, "nodes", ""},
                                            Column{"finish_s", ColumnType::kFloat64, "s", ""}});
    // A name with a comma and a quote is quoted, its quote doubled (RFC 4180); NaN is empty.
    w.append_row(t, {std::string("a"), std::int64_t{2}, 10.25});
    w.append_row(t, {std::string("b, \"big\""), std::int64_t{64}, std::nan("")});
    const auto h = w.declare_table("summary/jobs", {Column{"name", ColumnType::kString, "", ""}});
    w.append_row(h, {std::string("a")});
    w.set_summary("energy/it_kwh", {12.5, "kWh", ""});
    w.set_summary("workload/jobs_total", {std::int64_t{2}, "", ""});
    w.set_summary("cost/break_even_month", {std::string("never"), "month", ""});
    w.finish(0);
  }
  const auto files = export_trace_csv(trace, dir / "csv");
  const auto csv = dir / "csv";
  REQUIRE(files == std::vector<std::filesystem::path>{csv / "series" / "power" / "cluster_w.csv",
                                                      csv / "events" / "jobs.csv", csv / "summary" / "jobs.csv",
                                                      csv / "summary.csv"});
  CHECK(read_file(files[0]) == "time_ns,time_s,value [W]\n0,0.000000000,1.5\n");
  CHECK(read_file(files[1]) ==
        "name,nodes [nodes],finish_s [s]\n"
        "a,2,10.25\n"
        "\"b, \"\"big\"\"\",64,\n");
  CHECK(read_file(files[2]) == "name\na\n");
  // Summary scalars in path order, the tables' columns left out.
  CHECK(read_file(files[3]) ==
        "path,value,unit\n"
        "cost/break_even_month,never,month\n"
        "energy/it_kwh,12.5,kWh\n"
        "workload/jobs_total,2,\n");
}

TEST_CASE("a table longer than one read block exports every row in order", "[tools][output][csv]") {
  TempDir dir;
  Hdf5Options options;
  options.chunk_elements = 4096;
  constexpr std::int64_t kRows = 70'000;  // more than the 65,536-row read block
  {
    Hdf5TraceWriter w(dir / "trace.h5", options);
    const auto t = w.declare_table("rows", {Column{"i", ColumnType::kInt64, "", ""},
                                            Column{"label", ColumnType::kString, "", ""}});
    for (std::int64_t i = 0; i < kRows; ++i) w.append_row(t, {i, "r" + std::to_string(i)});
    w.finish(0);
  }
  export_trace_csv(dir / "trace.h5", dir / "csv");
  std::ifstream in(dir / "csv" / "events" / "rows.csv");
  std::string line;
  std::getline(in, line);
  CHECK(line == "i,label");
  std::int64_t expected = 0;
  bool in_order = true;
  while (std::getline(in, line)) {
    in_order = in_order && line == std::to_string(expected) + ",r" + std::to_string(expected);
    ++expected;
  }
  CHECK(in_order);
  CHECK(expected == kRows);
}

TEST_CASE("exporting what is not a dcsim trace is bad input", "[tools][output][csv]") {
  TempDir dir;
  CHECK_THROWS_AS(export_trace_csv(dir / "missing.h5", dir / "csv"), dcsim::sim::InputError);
  {
    std::ofstream(dir / "not.h5") << "{}";
  }
  CHECK_THROWS_WITH(export_trace_csv(dir / "not.h5", dir / "csv"), Catch::Contains("cannot open trace"));
}
