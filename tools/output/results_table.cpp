#include "tools/output/results_table.hpp"

#include <cmath>
#include <limits>

#include "sim/error.hpp"
#include "tools/output/hdf5_handle.hpp"

namespace dcsim::tools::output {

namespace {

using Type = ResultsColumn::Type;

struct Column {
  ResultsColumn spec;
  Handle dataset;
  hsize_t size = 0;
  std::vector<std::int64_t> ints;
  std::vector<std::uint64_t> uints;
  std::vector<double> doubles;
  std::vector<std::string> strings;
};

hid_t file_type(Type type, hid_t string_type) {
  switch (type) {
    case Type::kInt64: return H5T_STD_I64LE;
    case Type::kUInt64: return H5T_STD_U64LE;
    case Type::kFloat64: return H5T_IEEE_F64LE;
    case Type::kString: return string_type;
  }
  return string_type;
}

void append_block(Column& c, hid_t string_type) {
  std::size_t n = 0;
  const void* data = nullptr;
  hid_t mem_type = H5T_NATIVE_DOUBLE;
  std::vector<const char*> ptrs;
  switch (c.spec.type) {
    case Type::kInt64: n = c.ints.size(); data = c.ints.data(); mem_type = H5T_NATIVE_INT64; break;
    case Type::kUInt64: n = c.uints.size(); data = c.uints.data(); mem_type = H5T_NATIVE_UINT64; break;
    case Type::kFloat64: n = c.doubles.size(); data = c.doubles.data(); break;
    case Type::kString:
      n = c.strings.size();
      for (const auto& s : c.strings) ptrs.push_back(s.c_str());
      data = ptrs.data();
      mem_type = string_type;
      break;
  }
  if (n == 0) return;
  const std::string object = "/results/" + c.spec.name;
  const hsize_t count = n;
  const hsize_t start = c.size;
  const hsize_t new_size = start + count;
  check(H5Dset_extent(c.dataset.get(), &new_size), "cannot extend dataset", object);
  Handle file_space = space_handle(H5Dget_space(c.dataset.get()), object);
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr),
        "cannot select in dataset", object);
  Handle mem_space = space_handle(H5Screate_simple(1, &count, nullptr), object);
  check(H5Dwrite(c.dataset.get(), mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, data),
        "cannot write dataset", object);
  c.size = new_size;
  c.ints.clear();
  c.uints.clear();
  c.doubles.clear();
  c.strings.clear();
}

}  // namespace

struct ResultsTableWriter::Impl {
  std::filesystem::path path;
  Handle file;
  Handle group;
  Handle string_type;
  std::vector<Column> columns;
  std::size_t block_rows = 1024;
  std::size_t buffered = 0;

  void flush() {
    for (auto& c : columns) append_block(c, string_type.get());
    buffered = 0;
  }
};

ResultsTableWriter::ResultsTableWriter(const std::filesystem::path& file, std::vector<ResultsColumn> columns,
                                       std::size_t block_rows)
    : impl_(std::make_unique<Impl>()) {
  const Hdf5Lock hdf5_lock;
  auto& m = *impl_;
  m.path = file;
  m.block_rows = std::max<std::size_t>(1, block_rows);
  const std::string name = file.string();
  const hid_t fid = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (fid < 0) {
    const std::string detail = hdf5_error_detail();
    throw sim::InputError("cannot create '" + name + "'" + (detail.empty() ? "" : ": " + detail));
  }
  m.file = file_handle(fid, name);
  m.string_type = utf8_string_type();
  write_string_attribute(m.file.get(), "/", "format_version", kResultsFormatVersion);
  m.group = group_handle(H5Gcreate2(m.file.get(), "/results", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "/results");
  Handle lcpl = plist_handle(H5Pcreate(H5P_LINK_CREATE), "link creation properties");
  check(H5Pset_create_intermediate_group(lcpl.get(), 1), "cannot set intermediate groups", name);
  check(H5Pset_char_encoding(lcpl.get(), H5T_CSET_UTF8), "cannot set link encoding", name);
  Handle dcpl = plist_handle(H5Pcreate(H5P_DATASET_CREATE), "dataset creation properties");
  const hsize_t chunk = m.block_rows;
  check(H5Pset_chunk(dcpl.get(), 1, &chunk), "cannot set chunk size", name);
  // No object timestamps: the same sweep gives the same file contents.
  check(H5Pset_obj_track_times(dcpl.get(), 0), "cannot switch off timestamps", name);
  std::vector<std::string> names;
  for (auto& spec : columns) {
    const std::string object = "/results/" + spec.name;
    const hsize_t zero = 0;
    const hsize_t unlimited = H5S_UNLIMITED;
    Handle space = space_handle(H5Screate_simple(1, &zero, &unlimited), object);
    Column c;
    c.dataset = dataset_handle(H5Dcreate2(m.group.get(), spec.name.c_str(), file_type(spec.type, m.string_type.get()),
                                          space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT),
                               object);
    write_string_attribute(c.dataset.get(), object, "unit", spec.unit);
    write_string_attribute(c.dataset.get(), object, "description", spec.description);
    names.push_back(spec.name);
    c.spec = std::move(spec);
    m.columns.push_back(std::move(c));
  }
  write_string_array_attribute(m.group.get(), "/results", "columns", names);
}

ResultsTableWriter::~ResultsTableWriter() {
  const Hdf5Lock hdf5_lock;
  impl_.reset();
}

void ResultsTableWriter::append(std::vector<ResultsCell> row) {
  auto& m = *impl_;
  if (row.size() != m.columns.size()) throw sim::InternalError("results table: a row of the wrong size (this is a bug)");
  for (std::size_t i = 0; i < row.size(); ++i) {
    Column& c = m.columns[i];
    auto& cell = row[i];
    const auto wrong = [&] {
      throw sim::InternalError("results table: column '" + c.spec.name + "' got a cell of the wrong kind (this is a bug)");
    };
    switch (c.spec.type) {
      case Type::kInt64:
        if (const auto* v = std::get_if<std::int64_t>(&cell)) c.ints.push_back(*v); else wrong();
        break;
      case Type::kUInt64:
        if (const auto* v = std::get_if<std::uint64_t>(&cell)) c.uints.push_back(*v); else wrong();
        break;
      case Type::kFloat64:
        if (const auto* d = std::get_if<double>(&cell)) {
          c.doubles.push_back(*d);
        } else if (const auto* n = std::get_if<std::int64_t>(&cell)) {
          c.doubles.push_back(static_cast<double>(*n));
        } else if (const auto* u = std::get_if<std::uint64_t>(&cell)) {
          c.doubles.push_back(static_cast<double>(*u));
        } else if (std::holds_alternative<std::monostate>(cell)) {
          c.doubles.push_back(std::numeric_limits<double>::quiet_NaN());
        } else {
          wrong();
        }
        break;
      case Type::kString:
        if (auto* s = std::get_if<std::string>(&cell)) {
          c.strings.push_back(std::move(*s));
        } else if (std::holds_alternative<std::monostate>(cell)) {
          c.strings.emplace_back();
        } else {
          wrong();
        }
        break;
    }
  }
  if (++m.buffered >= m.block_rows) {
    const Hdf5Lock hdf5_lock;
    m.flush();
  }
}

void ResultsTableWriter::finish() {
  const Hdf5Lock hdf5_lock;
  auto& m = *impl_;
  m.flush();
  for (auto& c : m.columns) c.dataset.close("/results/" + c.spec.name);
  m.group.close("/results");
  m.string_type.reset();
  m.file.close(m.path.string());
}

}  // namespace dcsim::tools::output
