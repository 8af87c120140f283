#include "tools/output/trace_csv_export.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <variant>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/output/csv_export.hpp"
#include "tools/output/hdf5_handle.hpp"

namespace dcsim::tools::output {

namespace {

constexpr hsize_t kRowBlock = 65536;  // table rows read per block

// Links under `group_path` (recursively), as paths relative to it, in name order.
std::vector<std::string> links_under(hid_t file, const std::string& group_path) {
  std::vector<std::string> names;
  if (H5Lexists(file, group_path.c_str(), H5P_DEFAULT) <= 0) return names;
  Handle group = group_handle(H5Gopen2(file, group_path.c_str(), H5P_DEFAULT), group_path);
  auto visit = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
  };
  check(H5Lvisit(group.get(), H5_INDEX_NAME, H5_ITER_INC, visit, &names), "cannot list", group_path);
  return names;
}

bool is_group(hid_t file, const std::string& path) {
  H5O_info_t info;
  check(H5Oget_info_by_name(file, path.c_str(), &info, H5P_DEFAULT), "cannot inspect", path);
  return info.type == H5O_TYPE_GROUP;
}

// One column of a table, read a block of rows at a time.
class ColumnReader {
 public:
  ColumnReader(hid_t table, const std::string& table_path, const std::string& name)
      : object_(table_path + "/" + name),
        dataset_(dataset_handle(H5Dopen2(table, name.c_str(), H5P_DEFAULT), object_)) {
    Handle type = type_handle(H5Dget_type(dataset_.get()), object_);
    kind_ = H5Tget_class(type.get());
    if (kind_ != H5T_INTEGER && kind_ != H5T_FLOAT && kind_ != H5T_STRING) {
      throw sim::InputError("'" + object_ + "' is not a dcsim table column (int64, float64 or string)");
    }
    unit_ = read_string_attribute(dataset_.get(), object_, "unit");
    rows_ = dataset_length(dataset_.get(), object_);
  }
  hsize_t rows() const { return rows_; }
  const std::string& unit() const { return unit_; }

  // Reads rows [start, start + count) as CSV cells.
  void read(hsize_t start, hsize_t count, std::vector<std::string>& cells) const {
    cells.assign(count, "");
    if (kind_ == H5T_INTEGER) {
      std::vector<std::int64_t> v(count);
      read_slab(dataset_.get(), H5T_NATIVE_INT64, start, count, v.data(), object_);
      for (hsize_t i = 0; i < count; ++i) cells[i] = fmt::format("{}", v[i]);
    } else if (kind_ == H5T_FLOAT) {
      std::vector<double> v(count);
      read_slab(dataset_.get(), H5T_NATIVE_DOUBLE, start, count, v.data(), object_);
      for (hsize_t i = 0; i < count; ++i) cells[i] = csv_value_text(v[i]);
    } else {
      const std::vector<std::string> values = read_string_slab(dataset_.get(), start, count, object_);
      for (hsize_t i = 0; i < count; ++i) cells[i] = csv_cell(values[i]);
    }
  }

 private:
  std::string object_;
  Handle dataset_;
  H5T_class_t kind_ = H5T_NO_CLASS;
  std::string unit_;
  hsize_t rows_ = 0;
};

void export_table(hid_t file, const std::string& path, const std::filesystem::path& target) {
  Handle table = group_handle(H5Gopen2(file, path.c_str(), H5P_DEFAULT), path);
  const std::vector<std::string> names = read_string_array_attribute(table.get(), path, "columns");
  std::vector<ColumnReader> columns;
  for (const auto& name : names) columns.emplace_back(table.get(), path, name);
  const hsize_t rows = columns.empty() ? 0 : columns.front().rows();
  for (const auto& c : columns) {
    if (c.rows() != rows) throw sim::InputError("table '" + path + "' has columns of different lengths");
  }
  std::ofstream out = open_csv(target);
  for (std::size_t c = 0; c < names.size(); ++c) {
    const std::string& unit = columns[c].unit();
    out << (c == 0 ? "" : ",") << csv_cell(unit.empty() ? names[c] : names[c] + " [" + unit + "]");
  }
  out << '\n';
  std::vector<std::vector<std::string>> cells(columns.size());
  for (hsize_t start = 0; start < rows; start += kRowBlock) {
    const hsize_t count = std::min(kRowBlock, rows - start);
    for (std::size_t c = 0; c < columns.size(); ++c) columns[c].read(start, count, cells[c]);
    for (hsize_t r = 0; r < count; ++r) {
      for (std::size_t c = 0; c < columns.size(); ++c) out << (c == 0 ? "" : ",") << cells[c][r];
      out << '\n';
    }
  }
  close_csv(out, target);
}

// `path,value,unit` for every rank-0 dataset under /summary (the tables' columns are rank 1).
void export_summary_scalars(hid_t file, const std::filesystem::path& target) {
  std::ofstream out = open_csv(target);
  out << "path,value,unit\n";
  for (const auto& name : links_under(file, "/summary")) {
    const std::string path = "/summary/" + name;
    if (is_group(file, path)) continue;
    Handle ds = dataset_handle(H5Dopen2(file, path.c_str(), H5P_DEFAULT), path);
    Handle space = space_handle(H5Dget_space(ds.get()), path);
    if (H5Sget_simple_extent_ndims(space.get()) != 0) continue;
    Handle type = type_handle(H5Dget_type(ds.get()), path);
    std::string value;
    switch (H5Tget_class(type.get())) {
      case H5T_INTEGER: {
        std::int64_t v = 0;
        check(H5Dread(ds.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v), "cannot read", path);
        value = fmt::format("{}", v);
        break;
      }
      case H5T_FLOAT: {
        double v = 0.0;
        check(H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v), "cannot read", path);
        value = csv_value_text(v);
        break;
      }
      case H5T_STRING: {
        Handle mtype = utf8_string_type();
        char* p = nullptr;
        check(H5Dread(ds.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &p), "cannot read", path);
        value = csv_cell(p != nullptr ? p : "");
        H5Dvlen_reclaim(mtype.get(), space.get(), H5P_DEFAULT, &p);
        break;
      }
      default:
        throw sim::InputError("'" + path + "' is not a dcsim summary value (int64, float64 or string)");
    }
    out << csv_cell(name) << ',' << value << ',' << csv_cell(read_string_attribute(ds.get(), path, "unit")) << '\n';
  }
  close_csv(out, target);
}

}  // namespace

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<std::filesystem::path> export_trace_csv(const std::filesystem::path& trace,
                                                    const std::filesystem::path& out_dir) {
  const Hdf5Lock hdf5_lock;  // first, so it outlives the handles
  std::vector<std::filesystem::path> written = write_series_csv(trace, out_dir / "series");
  Handle file = open_dcsim_trace(trace);
  for (const char* root : {"/events", "/summary"}) {
    for (const auto& name : links_under(file.get(), root)) {
      const std::string path = std::string(root) + "/" + name;
      if (!is_group(file.get(), path) || H5Aexists_by_name(file.get(), path.c_str(), "columns", H5P_DEFAULT) <= 0) {
        continue;
      }
      const auto target = out_dir / (path.substr(1) + ".csv");
      export_table(file.get(), path, target);
      written.push_back(target);
    }
  }
  const auto summary = out_dir / "summary.csv";
  export_summary_scalars(file.get(), summary);
  written.push_back(summary);
  return written;
}

}  // namespace dcsim::tools::output
