// Round-trip tests of trace.h5: what the writer is given must be exactly what the HDF5 C API
// reads back (LAYOUT.md is the contract checked here).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tests/tools/output/temp_dir.hpp"
#include "tests/tools/output/trace_reader.hpp"
#include "tools/output/hdf5_trace_writer.hpp"

using dcsim::sim::Column;
using dcsim::sim::ColumnType;
using dcsim::sim::SummaryValue;
using dcsim::sim::Time;
using dcsim::tools::output::Hdf5Options;
using dcsim::tools::output::Hdf5TraceWriter;
using dcsim::tools::output::RunMeta;
using dcsim::tools::output::test::TempDir;
using dcsim::tools::output::test::TraceReader;

namespace {

RunMeta sample_meta() {
  RunMeta meta;
  meta.scenario_name = "round trip";
  meta.scenario_given = R"({"name": "round trip", "seed": 7})";
  meta.scenario_resolved = R"({"name":"round trip","seed":7,"duration":"1 h"})";
  meta.dcsim_version = "0.1.0";
  meta.seed = 18'000'000'000'000'000'000ULL;  // beyond int64: exact uint64 required
  meta.started_at = "2024-05-01T12:00:00Z";
  meta.source = "scenarios/round_trip.json";
  return meta;
}

}  // namespace

TEST_CASE("series, tables, summary and meta round-trip exactly", "[tools][output][hdf5]") {
  TempDir dir;
  const auto file = dir / "trace.h5";
  // Values chosen to expose any lossy conversion: subnormals, -0, extremes and NaN (the
  // documented "no value"). Infinities are refused as bugs (below).
  const std::vector<std::int64_t> times = {0, 1, 1, 999'999'999, std::numeric_limits<std::int64_t>::max()};
  const std::vector<double> values = {-0.0, 5e-324, 1.0 / 3.0, std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::lowest()};
  {
    Hdf5TraceWriter w(file);
    const auto power = w.declare_series("power/cluster_w", "W", "cluster IT power");
    const auto jobs = w.declare_series("jobs/running", "", "jobs running");
    const auto empty = w.declare_series("idle", "s", "never appended");
    (void)empty;
    for (std::size_t i = 0; i < times.size(); ++i) w.append(power, Time::from_ns(times[i]), values[i]);
    w.append(jobs, Time::from_s(10), 3.0);
    w.append(jobs, Time::from_s(20), std::nan(""));
    CHECK_THROWS_WITH(w.append(jobs, Time::from_s(30), std::numeric_limits<double>::infinity()),
                      Catch::Contains("jobs/running") && Catch::Contains("infinite"));
    CHECK_THROWS_WITH(w.set_summary("power/mean_w", {std::nan(""), "W", ""}), Catch::Contains("not finite"));

    const auto table = w.declare_table(
        "faults", {Column{"time_ns", ColumnType::kInt64, "ns", "when it struck"},
                   Column{"severity", ColumnType::kFloat64, "", "0..1"},
                   Column{"component", ColumnType::kString, "", "component path"}});
    w.append_row(table, {std::int64_t{-1}, 0.25, std::string("rack0/node3/gpu7")});
    w.append_row(table, {std::int64_t{42}, -0.0, std::string("Ünïcödé ✓ 日本")});
    w.append_row(table, {std::int64_t{std::numeric_limits<std::int64_t>::min()}, 1e300,
                         std::string()});
    const auto headline = w.declare_table(
        "summary/jobs", {Column{"name", ColumnType::kString, "", "job name"},
                         Column{"runtime_s", ColumnType::kFloat64, "s", "wall runtime"}});
    w.append_row(headline, {std::string("bert"), 3600.5});
    w.declare_table("empty/table", {Column{"x", ColumnType::kInt64, "", ""}});

    w.set_summary("energy_kwh", SummaryValue{12.5, "kWh", "IT energy"});
    w.set_summary("energy_kwh", SummaryValue{13.25, "kWh", "IT energy"});  // last write wins
    w.set_summary("jobs_completed", SummaryValue{std::int64_t{17}, "", "jobs done"});
    w.set_summary("cost/total_usd", SummaryValue{1234.5, "USD", "total cost"});
    w.set_summary("verdict", SummaryValue{std::string("ok ✓"), "", "free text"});
    w.set_meta(sample_meta());
    w.finish(12.75);
    CHECK_FALSE(w.is_open());
    // Every HDF5 id the writer opened is closed again (RAII), so the file is really closed.
    CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
  }

  TraceReader r(file);
  CHECK(r.attr_string("/", "format_version") == "dcsim-trace 1");

  // /meta
  const RunMeta meta = sample_meta();
  CHECK(r.attr_string("/meta", "scenario_name") == meta.scenario_name);
  CHECK(r.attr_string("/meta", "scenario_given") == meta.scenario_given);
  CHECK(r.attr_string("/meta", "scenario_resolved") == meta.scenario_resolved);
  CHECK(r.attr_string("/meta", "dcsim_version") == "0.1.0");
  CHECK(r.attr_uint64("/meta", "seed") == meta.seed);
  CHECK(r.attr_double("/meta", "wall_time_s") == 12.75);
  CHECK(r.attr_string("/meta", "started_at") == meta.started_at);
  CHECK(r.attr_string("/meta", "source") == meta.source);

  // /series: nested groups, exact values, attributes
  CHECK(r.is_group("/series/power"));
  CHECK(r.attr_string("/series/power/cluster_w", "unit") == "W");
  CHECK(r.attr_string("/series/power/cluster_w", "description") == "cluster IT power");
  CHECK(r.attr_string("/series/power/cluster_w/time_ns", "unit") == "ns");
  CHECK(r.int64s("/series/power/cluster_w/time_ns") == times);
  const auto got = r.doubles("/series/power/cluster_w/value");
  REQUIRE(got.size() == values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Bitwise equality: -0.0 must stay -0.0 and the subnormal must survive.
    CHECK(std::memcmp(&got[i], &values[i], sizeof(double)) == 0);
  }
  CHECK(r.attr_string("/series/jobs/running", "unit") == "");
  const auto running = r.doubles("/series/jobs/running/value");
  REQUIRE(running.size() == 2);
  CHECK(running[0] == 3.0);
  CHECK(std::isnan(running[1]));
  CHECK(r.int64s("/series/idle/time_ns").empty());
  CHECK(r.doubles("/series/idle/value").empty());
  CHECK(r.unlimited("/series/idle/value"));

  // /events: one dataset per column, order in `columns`, per-column attributes
  CHECK(r.attr_strings("/events/faults", "columns") ==
        std::vector<std::string>{"time_ns", "severity", "component"});
  CHECK(r.int64s("/events/faults/time_ns") ==
        std::vector<std::int64_t>{-1, 42, std::numeric_limits<std::int64_t>::min()});
  const auto severity = r.doubles("/events/faults/severity");
  REQUIRE(severity.size() == 3);
  CHECK(severity[0] == 0.25);
  CHECK(std::signbit(severity[1]));
  CHECK(severity[2] == 1e300);
  CHECK(r.strings("/events/faults/component") ==
        std::vector<std::string>{"rack0/node3/gpu7", "Ünïcödé ✓ 日本", ""});
  CHECK(r.attr_string("/events/faults/time_ns", "unit") == "ns");
  CHECK(r.attr_string("/events/faults/time_ns", "description") == "when it struck");
  CHECK(r.attr_string("/events/faults/severity", "description") == "0..1");
  CHECK(r.int64s("/events/empty/table/x").empty());

  // /summary: scalar datasets with their on-disk types, and the headline table
  CHECK(r.rank("/summary/energy_kwh") == 0);
  CHECK(r.scalar_double("/summary/energy_kwh") == 13.25);
  CHECK(r.attr_string("/summary/energy_kwh", "unit") == "kWh");
  CHECK(r.attr_string("/summary/energy_kwh", "description") == "IT energy");
  CHECK(r.scalar_int64("/summary/jobs_completed") == 17);
  CHECK(r.scalar_double("/summary/cost/total_usd") == 1234.5);
  CHECK(r.attr_string("/summary/cost/total_usd", "unit") == "USD");
  CHECK(r.scalar_string("/summary/verdict") == "ok ✓");
  CHECK(r.attr_strings("/summary/jobs", "columns") == std::vector<std::string>{"name", "runtime_s"});
  CHECK(r.strings("/summary/jobs/name") == std::vector<std::string>{"bert"});
  CHECK(r.doubles("/summary/jobs/runtime_s") == std::vector<double>{3600.5});
  CHECK(r.attr_string("/summary/jobs/runtime_s", "unit") == "s");
  CHECK_FALSE(r.exists("/events/summary"));
}

TEST_CASE("a long series spans many chunks and stays exact", "[tools][output][hdf5]") {
  TempDir dir;
  const auto file = dir / "trace.h5";
  Hdf5Options options;
  options.chunk_elements = 1000;
  // Small enough that the memory bound, not the chunk size, triggers most writes: the appends
  // then land at unaligned offsets, the harder case.
  options.max_buffered_bytes = 7 * 1000;
  constexpr std::int64_t kPoints = 25'321;
  {
    Hdf5TraceWriter w(file, options);
    const auto a = w.declare_series("a", "W", "");
    const auto b = w.declare_series("deep/er/b", "W", "");
    const auto t = w.declare_table("rows", {Column{"i", ColumnType::kInt64, "", ""},
                                            Column{"s", ColumnType::kString, "", ""}});
    for (std::int64_t i = 0; i < kPoints; ++i) {
      w.append(a, Time::from_ms(i), static_cast<double>(i) * 0.5);
      if (i % 3 == 0) w.append(b, Time::from_ms(i), -static_cast<double>(i));
      if (i % 7 == 0) w.append_row(t, {i, "row " + std::to_string(i)});
    }
    w.finish(0.0);
  }
  TraceReader r(file);
  // Created when the memory bound first wrote it, with chunks no larger than what it had then
  // (a power of two, 64 at least): about 7000 bytes over two series and a table.
  CHECK(r.chunk_dims("/series/a/value") == std::vector<hsize_t>{128});  // about 250 points then
  CHECK(r.has_filter("/series/a/time_ns", H5Z_FILTER_DEFLATE));
  CHECK(r.has_filter("/series/a/time_ns", H5Z_FILTER_SHUFFLE));
  CHECK(r.unlimited("/series/a/time_ns"));
  const auto ta = r.int64s("/series/a/time_ns");
  const auto va = r.doubles("/series/a/value");
  REQUIRE(ta.size() == static_cast<std::size_t>(kPoints));
  REQUIRE(va.size() == ta.size());
  bool exact = true;
  for (std::int64_t i = 0; i < kPoints; ++i) {
    exact = exact && ta[static_cast<std::size_t>(i)] == i * 1'000'000 &&
            va[static_cast<std::size_t>(i)] == static_cast<double>(i) * 0.5;
  }
  CHECK(exact);
  const auto vb = r.doubles("/series/deep/er/b/value");
  REQUIRE(vb.size() == static_cast<std::size_t>((kPoints + 2) / 3));
  CHECK(vb.back() == -static_cast<double>((kPoints - 1) / 3 * 3));
  const auto rows = r.strings("/events/rows/s");
  REQUIRE(rows.size() == static_cast<std::size_t>((kPoints + 6) / 7));
  CHECK(rows[1000] == "row 7000");
}

TEST_CASE("uncompressed traces are still chunked and extensible", "[tools][output][hdf5]") {
  TempDir dir;
  Hdf5Options options;
  options.deflate_level = 0;
  options.chunk_elements = 4;
  {
    Hdf5TraceWriter w(dir / "t.h5", options);
    const auto s = w.declare_series("x", "", "");
    for (int i = 0; i < 10; ++i) w.append(s, Time::from_ns(i), i);
    w.finish(0);
  }
  TraceReader r(dir / "t.h5");
  CHECK_FALSE(r.has_filter("/series/x/value", H5Z_FILTER_DEFLATE));
  CHECK(r.doubles("/series/x/value").size() == 10);
}

TEST_CASE("model bugs are reported as InternalError", "[tools][output][hdf5]") {
  TempDir dir;
  Hdf5TraceWriter w(dir / "t.h5");
  const auto s = w.declare_series("power/cluster_w", "W", "");
  using dcsim::sim::InternalError;
  CHECK_THROWS_AS(w.declare_series("power/cluster_w", "W", ""), InternalError);
  // A record cannot also be a folder of records, either way round.
  CHECK_THROWS_AS(w.declare_series("power", "W", ""), InternalError);
  CHECK_THROWS_AS(w.declare_series("power/cluster_w/gpu", "W", ""), InternalError);
  CHECK_THROWS_AS(w.declare_series("a//b", "W", ""), InternalError);
  CHECK_THROWS_AS(w.declare_series("/a", "W", ""), InternalError);
  CHECK_THROWS_AS(w.declare_series("a/..", "W", ""), InternalError);
  w.append(s, Time::from_s(2), 1);
  CHECK_THROWS_WITH(w.append(s, Time::from_s(1), 1), Catch::Contains("time went backwards"));
  CHECK_THROWS_AS(w.append(99, Time::from_s(3), 1), InternalError);

  const auto t = w.declare_table("jobs", {Column{"n", ColumnType::kInt64, "", ""}});
  CHECK_THROWS_AS(w.append_row(t, {1.5}), InternalError);
  CHECK_THROWS_AS(w.append_row(t, {}), InternalError);
  CHECK_THROWS_AS(w.declare_table("jobs", {}), InternalError);
  CHECK_THROWS_AS(w.declare_table("dup", {Column{"a", ColumnType::kInt64, "", ""},
                                          Column{"a", ColumnType::kInt64, "", ""}}),
                  InternalError);
  CHECK_THROWS_AS(w.declare_table("slash", {Column{"a/b", ColumnType::kInt64, "", ""}}),
                  InternalError);

  // summary.json reserves the run's own keys, and scalars and headline tables share one tree.
  CHECK_THROWS_AS(w.set_summary("seed", SummaryValue{1.0, "", ""}), InternalError);
  CHECK_THROWS_AS(w.declare_table("summary/units", {}), InternalError);
  w.declare_table("summary/jobs", {Column{"name", ColumnType::kString, "", ""}});
  CHECK_THROWS_AS(w.set_summary("jobs", SummaryValue{1.0, "", ""}), InternalError);
  CHECK_THROWS_AS(w.set_summary("jobs/completed", SummaryValue{1.0, "", ""}), InternalError);

  w.finish(0);
  CHECK_THROWS_WITH(w.append(s, Time::from_s(9), 1), Catch::Contains("closed"));
  CHECK_THROWS_AS(w.set_summary("late", SummaryValue{1.0, "", ""}), InternalError);
}

TEST_CASE("a trace file that cannot be created is an InputError", "[tools][output][hdf5]") {
  TempDir dir;
  CHECK_THROWS_WITH(Hdf5TraceWriter(dir / "missing" / "t.h5"),
                    Catch::Contains("cannot create the trace file") &&
                        Catch::Contains((dir / "missing" / "t.h5").string()));
  CHECK_THROWS_AS(Hdf5TraceWriter(dir / "missing" / "t.h5"), dcsim::sim::InputError);
}

TEST_CASE("close() without finish() leaves a readable file without /meta attributes",
          "[tools][output][hdf5]") {
  TempDir dir;
  {
    Hdf5TraceWriter w(dir / "t.h5");
    const auto s = w.declare_series("x", "", "");
    w.append(s, Time::from_s(1), 2);
    w.set_summary("never", SummaryValue{1.0, "", ""});
    w.close();
    w.close();  // idempotent
  }
  {
    Hdf5TraceWriter abandoned(dir / "u.h5");
    abandoned.declare_table("t", {Column{"s", ColumnType::kString, "", ""}});
  }
  CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
  TraceReader r(dir / "t.h5");
  CHECK(r.doubles("/series/x/value") == std::vector<double>{2});
  CHECK_FALSE(r.exists("/summary/never"));
  CHECK(r.exists("/meta"));
}

TEST_CASE("large scenario texts fit in /meta", "[tools][output][hdf5]") {
  // Attributes have a 64 KiB object-header limit, but variable-length strings live in the global
  // heap: a big resolved scenario must still fit.
  TempDir dir;
  RunMeta meta;
  meta.scenario_resolved = std::string(1 << 20, 'x');
  {
    Hdf5TraceWriter w(dir / "t.h5");
    w.set_meta(meta);
    w.finish(1);
  }
  TraceReader r(dir / "t.h5");
  CHECK(r.attr_string("/meta", "scenario_resolved") == meta.scenario_resolved);
}

TEST_CASE("a series is created when first written, with chunks no larger than its points", "[tools][output][hdf5]") {
  // Before, every series was created (and held open) when declared, with 16384-element chunks: a
  // rack series of a few points cost a 128 KiB chunk of zeros to compress, 40 kB held and about
  // 1 ms, so 250,000 of them took 9 GB and 277 s to write.
  TempDir dir;
  const auto file = dir / "trace.h5";
  {
    Hdf5TraceWriter w(file);
    const auto few = w.declare_series("few", "W", "three points");
    w.declare_series("none", "W", "no point");
    const auto many = w.declare_series("many", "W", "");
    for (int i = 0; i < 3; ++i) w.append(few, Time::from_s(i), i);
    for (int i = 0; i < 40'000; ++i) w.append(many, Time::from_ms(i), i);
    w.finish(0.0);
  }
  TraceReader r(file);
  CHECK(r.chunk_dims("/series/few/value") == std::vector<hsize_t>{64});
  CHECK(r.doubles("/series/few/value") == std::vector<double>{0, 1, 2});
  CHECK(r.attr_string("/series/few", "description") == "three points");
  CHECK(r.attr_string("/series/few/value", "unit") == "W");
  CHECK(r.doubles("/series/none/value").empty());  // declared, so its datasets exist, empty
  CHECK(r.chunk_dims("/series/many/value") == std::vector<hsize_t>{16384});
  CHECK(r.doubles("/series/many/value").size() == 40'000);
  CHECK(r.doubles("/series/many/value")[39'999] == 39'999);
}

TEST_CASE("finish stops at the poll's exception and the unfinished file can be deleted", "[tools][output][hdf5]") {
  // What a SIGTERM while the trace is written does (run_scenario polls throw_if_interrupted).
  TempDir dir;
  const auto file = dir / "trace.h5";
  int polls = 0;
  {
    Hdf5TraceWriter w(file);
    for (int i = 0; i < 1000; ++i) w.append(w.declare_series("s/" + std::to_string(i), "W", ""), Time::zero(), i);
    CHECK_THROWS_AS(w.finish(1.0,
                             [&] {
                               if (++polls == 3) throw std::runtime_error("interrupted");
                             }),
                    std::runtime_error);
    CHECK(w.is_open());  // not finished: the destructor closes it without /summary or /meta
  }
  CHECK(polls == 3);  // polled every few series, and not again after it threw
  CHECK(std::filesystem::remove(file));
}

TEST_CASE("a string column widens when a later value is longer, and no value is truncated", "[tools][output][hdf5]") {
  // Chunks of 4 rows: the table is flushed every 4 rows, so the column is created at the width of
  // its first 4 values (4 bytes, "dddd": stored with no terminator) and must widen twice, to 16 for
  // the second 4 (eight 2-byte "ü"s are 16 bytes) and to 128 for the 100-byte value.
  TempDir dir;
  Hdf5Options options;
  options.chunk_elements = 4;
  std::vector<std::string> values = {"a", "bb", "ccc", "dddd"};                 // the first flush: 4 wide
  for (const char* v : {"", "ünï ✓", "üüüüüüüü", "x"}) values.emplace_back(v);  // widened to 16
  values.insert(values.end(), {std::string(100, 'z'), "日本", ""});             // widened to 128
  {
    Hdf5TraceWriter w(dir / "t.h5", options);
    const auto t = w.declare_table("t", {Column{"s", ColumnType::kString, "unit", "what"}});
    for (const auto& v : values) w.append_row(t, {v});
    w.finish(0);
  }
  TraceReader r(dir / "t.h5");
  CHECK(r.strings("/events/t/s") == values);
  CHECK_FALSE(r.variable_length("/events/t/s"));
  CHECK(r.string_width("/events/t/s") == 128);
  CHECK(r.chunk_dims("/events/t/s") == std::vector<hsize_t>{4});
  // The widened dataset keeps its attributes.
  CHECK(r.attr_string("/events/t/s", "unit") == "unit");
  CHECK(r.attr_string("/events/t/s", "description") == "what");
}

TEST_CASE("a string column with a value over 256 bytes becomes variable-length, earlier rows included",
          "[tools][output][hdf5]") {
  // Fixed-length, every row of a 16 KB node list would be 16 KB wide in memory before deflate:
  // past 256 bytes the column is rewritten variable-length, and stays so for shorter values.
  TempDir dir;
  Hdf5Options options;
  options.chunk_elements = 2;
  const std::vector<std::string> values = {"n0", "n1-n3", std::string(257, 'n'), "", "ü", std::string(16384, 'x')};
  {
    Hdf5TraceWriter w(dir / "t.h5", options);
    const auto t = w.declare_table("jobs", {Column{"nodes", ColumnType::kString, "", "which"}});
    for (const auto& v : values) w.append_row(t, {v});
    w.finish(0);
  }
  TraceReader r(dir / "t.h5");
  CHECK(r.variable_length("/events/jobs/nodes"));
  CHECK(r.strings("/events/jobs/nodes") == values);
  CHECK(r.attr_string("/events/jobs/nodes", "description") == "which");
}

TEST_CASE("a table that never gets a row still has its string columns", "[tools][output][hdf5]") {
  TempDir dir;
  {
    Hdf5TraceWriter w(dir / "t.h5");
    w.declare_table("none", {Column{"s", ColumnType::kString, "", "d"}});
    w.finish(0);
  }
  TraceReader r(dir / "t.h5");
  CHECK(r.strings("/events/none/s").empty());
  CHECK(r.attr_string("/events/none/s", "description") == "d");
}

TEST_CASE("repeated strings compress to almost nothing", "[tools][output][hdf5]") {
  // 100,000 rows of the same 44-byte text. As variable-length strings, the column's chunks alone
  // held a 16-byte global-heap reference per row (1.6 MB) and the heap one uncompressed copy per
  // row (another 6 MB or so). Fixed-length at 64 bytes, deflate stores each 16384-row chunk
  // (1 MiB of repeats) in about 1 kB: the whole file, with its metadata, stays far below a tenth
  // of the references alone.
  TempDir dir;
  const auto file = dir / "t.h5";
  const std::string text = "rack power rose by more than the spike limit";
  {
    Hdf5TraceWriter w(file);
    const auto t = w.declare_table("facility", {Column{"detail", ColumnType::kString, "", ""}});
    for (int i = 0; i < 100'000; ++i) w.append_row(t, {text});
    w.finish(0);
  }
  CHECK(std::filesystem::file_size(file) < 100'000 * 16 / 10);
  const auto rows = TraceReader(file).strings("/events/facility/detail");
  REQUIRE(rows.size() == 100'000);
  CHECK(std::all_of(rows.begin(), rows.end(), [&](const std::string& s) { return s == text; }));
}
