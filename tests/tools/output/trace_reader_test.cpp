// The trace reader (tools/output/trace_reader.hpp) reads the string columns of traces written
// before they were fixed-length: variable-length UTF-8, as dcsim wrote them until issue 38.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/tools/output/temp_dir.hpp"
#include "tools/output/hdf5_handle.hpp"
#include "tools/output/hdf5_trace_writer.hpp"
#include "tools/output/trace_csv_export.hpp"
#include "tools/output/trace_reader.hpp"

using dcsim::sim::Column;
using dcsim::sim::ColumnType;
using namespace dcsim::tools::output;

namespace {

// Replaces the string column `object` of a finished trace by a variable-length UTF-8 dataset of
// `values`, written directly with the HDF5 API as the old writer stored it.
void write_vlen_column(const std::filesystem::path& file, const std::string& object,
                       const std::vector<std::string>& values) {
  silence_hdf5_errors();
  Handle f = file_handle(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), file.string());
  check(H5Ldelete(f.get(), object.c_str(), H5P_DEFAULT), "delete", object);
  const hsize_t n = values.size();
  Handle space = space_handle(H5Screate_simple(1, &n, nullptr), object);
  Handle type = utf8_string_type();
  Handle ds = dataset_handle(H5Dcreate2(f.get(), object.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT,
                                        H5P_DEFAULT),
                             object);
  std::vector<const char*> ptrs;
  for (const auto& v : values) ptrs.push_back(v.c_str());
  check(H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "write", object);
  write_string_attribute(ds.get(), object, "unit", "");
  ds.close(object);
  f.close(file.string());
}

}  // namespace

TEST_CASE("variable-length string columns of older traces are still read", "[tools][output][trace_reader]") {
  test::TempDir dir;
  const auto file = dir / "trace.h5";
  {
    Hdf5TraceWriter w(file);
    const auto t = w.declare_table("faults", {Column{"kind", ColumnType::kString, "", ""}});
    w.append_row(t, {std::string("placeholder")});
    w.finish(0);
  }
  const std::vector<std::string> values = {"power_spike", "", "Ünïcödé ✓ 日本"};
  write_vlen_column(file, "/events/faults/kind", values);

  const TraceReader reader(file);
  CHECK(reader.read_string_column("events/faults", "kind") == values);
  // The CSV export reads through the same path: the old column exports as before.
  export_trace_csv(file, dir / "csv");
  CHECK(test::read_file(dir / "csv" / "events" / "faults.csv") == "kind\npower_spike\n\nÜnïcödé ✓ 日本\n");
}

TEST_CASE("fixed-length string columns read back without their padding", "[tools][output][trace_reader]") {
  test::TempDir dir;
  const auto file = dir / "trace.h5";
  const std::vector<std::string> values = {"power_spike", "", "Ünïcödé ✓ 日本", "abcdefgh"};
  {
    Hdf5TraceWriter w(file);
    const auto t = w.declare_table("faults", {Column{"kind", ColumnType::kString, "", ""}});
    for (const auto& v : values) w.append_row(t, {v});
    w.finish(0);
  }
  CHECK(TraceReader(file).read_string_column("events/faults", "kind") == values);
}
