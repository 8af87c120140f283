// summary.json: nesting, headline tables, units, and byte-identical output for identical input.

#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <sstream>

#include "tests/tools/output/temp_dir.hpp"
#include "tools/output/hdf5_trace_writer.hpp"
#include "tools/output/summary.hpp"

using dcsim::sim::Column;
using dcsim::sim::ColumnType;
using dcsim::sim::SummaryValue;
using dcsim::tools::output::Hdf5TraceWriter;
using dcsim::tools::output::RunMeta;
using dcsim::tools::output::SummaryRecorder;
using dcsim::tools::output::summary_json_text;
using dcsim::tools::output::test::read_file;
using dcsim::tools::output::test::TempDir;

namespace {

RunMeta meta() {
  RunMeta m;
  m.scenario_name = "quickstart";
  m.seed = 42;
  m.dcsim_version = "0.1.0";
  // Wall-clock fields must not reach summary.json: different values here, same bytes there.
  m.started_at = "2024-01-01T00:00:00Z";
  m.source = "a.json";
  m.overrides = {"cluster.nodes=16", "seed=42"};  // recorded as given, in order
  return m;
}

// Emits the same summary into any sink, in a scrambled order (order must not matter).
// with_nan: a NaN summary value, which summary.json writes as null; the HDF5 writer refuses it.
void emit(dcsim::sim::TraceSink& sink, bool with_nan = true) {
  sink.set_summary("power/peak_w", SummaryValue{2.5e6, "W", "peak power"});
  sink.set_summary("energy_kwh", SummaryValue{0.1 + 0.2, "kWh", "IT energy"});
  sink.set_summary("jobs_completed", SummaryValue{std::int64_t{3}, "", "jobs"});
  sink.set_summary("power/avg_w", SummaryValue{1.0, "W", "mean power"});
  sink.set_summary("cooling/state", SummaryValue{std::string("nominal"), "", ""});
  if (with_nan) sink.set_summary("bad", SummaryValue{std::numeric_limits<double>::quiet_NaN(), "", ""});
  const auto jobs = sink.declare_table(
      "summary/jobs", {Column{"name", ColumnType::kString, "", "job"},
                       Column{"runtime_s", ColumnType::kFloat64, "s", "runtime"},
                       Column{"gpus", ColumnType::kInt64, "", "GPUs"}});
  sink.append_row(jobs, {std::string("bert"), 3600.0, std::int64_t{24}});
  sink.append_row(jobs, {std::string("llama"), 0.5, std::int64_t{8}});
  sink.declare_table("jobs", {Column{"id", ColumnType::kInt64, "", ""}});  // not headline
}


}  // namespace

TEST_CASE("summary.json nests paths, lists headline tables and maps units",
          "[tools][output][summary]") {
  dcsim::sim::MemoryTraceSink sink;
  emit(sink);
  const auto text = summary_json_text(SummaryRecorder::from(sink), meta());
  // The full text is the contract: sorted keys, 2-space indent, shortest round-trip numbers
  // (0.1 + 0.2 prints as 0.30000000000000004, 1.0 keeps its ".0"), NaN as null.
  CHECK(text == R"({
  "bad": null,
  "cooling": {
    "state": "nominal"
  },
  "dcsim_version": "0.1.0",
  "energy_kwh": 0.30000000000000004,
  "jobs": [
    {
      "gpus": 24,
      "name": "bert",
      "runtime_s": 3600.0
    },
    {
      "gpus": 8,
      "name": "llama",
      "runtime_s": 0.5
    }
  ],
  "jobs_completed": 3,
  "overrides": [
    "cluster.nodes=16",
    "seed=42"
  ],
  "power": {
    "avg_w": 1.0,
    "peak_w": 2500000.0
  },
  "scenario": "quickstart",
  "seed": 42,
  "units": {
    "bad": "",
    "cooling/state": "",
    "energy_kwh": "kWh",
    "jobs/gpus": "",
    "jobs/name": "",
    "jobs/runtime_s": "s",
    "jobs_completed": "",
    "power/avg_w": "W",
    "power/peak_w": "W"
  }
}
)");
}

TEST_CASE("summary.json is byte-identical for identical input", "[tools][output][summary]") {
  TempDir dir;
  std::vector<std::string> texts;
  for (int run = 0; run < 2; ++run) {
    const auto sub = dir / ("run" + std::to_string(run));
    std::filesystem::create_directories(sub);
    Hdf5TraceWriter w(sub / "trace.h5");
    emit(w, false);
    RunMeta m = meta();
    m.started_at = run == 0 ? "2024-01-01T00:00:00Z" : "2031-12-31T23:59:59Z";
    m.source = run == 0 ? "a.json" : "/elsewhere/a.json";
    w.set_meta(m);
    w.finish(run == 0 ? 1.0 : 99.0);
    dcsim::tools::output::write_summary_json(sub / "summary.json", w.summary(), w.meta());
    texts.push_back(read_file(sub / "summary.json"));
  }
  CHECK(texts[0] == texts[1]);
  // The HDF5 writer keeps exactly what the in-memory reference sink would.
  dcsim::sim::MemoryTraceSink sink;
  emit(sink, false);
  CHECK(texts[0] == summary_json_text(SummaryRecorder::from(sink), meta()));
}

TEST_CASE("summary.json of an empty run", "[tools][output][summary]") {
  const auto text = summary_json_text(SummaryRecorder{}, meta());
  CHECK(text ==
        "{\n  \"dcsim_version\": \"0.1.0\",\n  \"overrides\": [\n    \"cluster.nodes=16\",\n    \"seed=42\"\n  ],\n"
        "  \"scenario\": \"quickstart\",\n  \"seed\": 42,\n  \"units\": {}\n}\n");
}
