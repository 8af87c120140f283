#include "tools/output/trace_reader.hpp"

#include <algorithm>
#include <unordered_set>

#include "sim/error.hpp"
#include "tools/output/hdf5_handle.hpp"

namespace dcsim::tools::output {

namespace {

constexpr hsize_t kBlock = 65536;  // points read per block

// Reads under the HDF5 lock (a sweep writes traces on other threads). HDF5 failures while
// reading (a damaged file) are bad input, like a file that does not open.
template <class F>
auto guarded(const std::filesystem::path& trace, F&& read) -> decltype(read()) {
  const Hdf5Lock hdf5_lock;
  try {
    return read();
  } catch (const Hdf5Error& e) {
    throw sim::InputError("cannot read trace '" + trace.string() + "': " + e.what());
  }
}

}  // namespace

struct TraceReader::Impl {
  std::filesystem::path path;
  Handle file;
  std::vector<std::string> series;
  std::unordered_set<std::string> series_set;

  Handle open_series_dataset(const std::string& series_path, const char* leaf) const {
    const std::string object = "/series/" + series_path + "/" + leaf;
    if (series_set.count(series_path) == 0) {
      throw sim::InputError("trace '" + path.string() + "' has no series '" + series_path + "'");
    }
    return dataset_handle(H5Dopen2(file.get(), object.c_str(), H5P_DEFAULT), object);
  }

  Handle open_column(const std::string& table, const std::string& column) const {
    const std::string object = "/" + table + "/" + column;
    if (!link_exists(file.get(), object)) {
      throw sim::InputError("trace '" + path.string() + "' has no table column '" + object + "'");
    }
    return dataset_handle(H5Dopen2(file.get(), object.c_str(), H5P_DEFAULT), object);
  }

  Handle open_meta() const {
    return group_handle(H5Gopen2(file.get(), "/meta", H5P_DEFAULT), "/meta");
  }
  bool has_meta_attribute(const std::string& name) const {
    return link_exists(file.get(), "/meta") &&
           H5Aexists_by_name(file.get(), "/meta", name.c_str(), H5P_DEFAULT) > 0;
  }
  // A scalar attribute of /meta read as `mem_type`; nothing when the trace has none.
  template <class T>
  std::optional<T> meta_scalar(const std::string& name, hid_t mem_type) const {
    return guarded(path, [&]() -> std::optional<T> {
      if (!has_meta_attribute(name)) return std::nullopt;
      Handle meta = open_meta();
      Handle attr = attr_handle(H5Aopen(meta.get(), name.c_str(), H5P_DEFAULT), "/meta@" + name);
      T v{};
      check(H5Aread(attr.get(), mem_type, &v), "cannot read attribute", "/meta@" + name);
      return v;
    });
  }
};

TraceReader::TraceReader(const std::filesystem::path& trace) : impl_(std::make_unique<Impl>()) {
  const Hdf5Lock hdf5_lock;  // a sweep writes traces on other threads
  impl_->path = trace;
  impl_->file = open_dcsim_trace(trace);
  impl_->series = guarded(trace, [&] { return list_series(impl_->file.get()); });
  impl_->series_set.insert(impl_->series.begin(), impl_->series.end());
}

TraceReader::~TraceReader() = default;

const std::filesystem::path& TraceReader::path() const { return impl_->path; }

const std::vector<std::string>& TraceReader::series_paths() const { return impl_->series; }

bool TraceReader::has_series(const std::string& path) const {
  return impl_->series_set.count(path) > 0;
}

std::string TraceReader::series_unit(const std::string& path) const {
  return guarded(impl_->path, [&]() -> std::string {
    const std::string object = "/series/" + path;
    Handle group = group_handle(H5Gopen2(impl_->file.get(), object.c_str(), H5P_DEFAULT), object);
    return read_string_attribute(group.get(), object, "unit");
  });
}

std::uint64_t TraceReader::series_points(const std::string& path) const {
  return guarded(impl_->path, [&]() -> std::uint64_t {
    Handle times = impl_->open_series_dataset(path, "time_ns");
    return dataset_length(times.get(), "/series/" + path + "/time_ns");
  });
}

std::optional<std::int64_t> TraceReader::series_last_time_ns(const std::string& path) const {
  return guarded(impl_->path, [&]() -> std::optional<std::int64_t> {
    const std::string object = "/series/" + path + "/time_ns";
    Handle times = impl_->open_series_dataset(path, "time_ns");
    const hsize_t n = dataset_length(times.get(), object);
    if (n == 0) return std::nullopt;
    std::int64_t last = 0;
    read_slab(times.get(), H5T_NATIVE_INT64, n - 1, 1, &last, object);
    return last;
  });
}

void TraceReader::read_series(const std::string& path, const SeriesBlockFn& block) const {
  return guarded(impl_->path, [&]() -> void {
    const std::string object = "/series/" + path;
    Handle times = impl_->open_series_dataset(path, "time_ns");
    Handle values = impl_->open_series_dataset(path, "value");
    const hsize_t n = dataset_length(times.get(), object + "/time_ns");
    if (dataset_length(values.get(), object + "/value") != n) {
      throw sim::InputError("series '" + object + "' has time_ns and value of different lengths");
    }
    std::vector<std::int64_t> t;
    std::vector<double> v;
    for (hsize_t start = 0; start < n; start += kBlock) {
      const hsize_t count = std::min(kBlock, n - start);
      t.resize(count);
      v.resize(count);
      read_slab(times.get(), H5T_NATIVE_INT64, start, count, t.data(), object + "/time_ns");
      read_slab(values.get(), H5T_NATIVE_DOUBLE, start, count, v.data(), object + "/value");
      block(t, v);
    }
  });
}

bool TraceReader::has_table(const std::string& path) const {
  return guarded(impl_->path, [&]() -> bool {
    const std::string object = "/" + path;
    return link_exists(impl_->file.get(), object) &&
           H5Aexists_by_name(impl_->file.get(), object.c_str(), "columns", H5P_DEFAULT) > 0;
  });
}

std::vector<std::string> TraceReader::table_columns(const std::string& path) const {
  return guarded(impl_->path, [&]() -> std::vector<std::string> {
    if (!has_table(path)) return {};
    const std::string object = "/" + path;
    Handle group = group_handle(H5Gopen2(impl_->file.get(), object.c_str(), H5P_DEFAULT), object);
    return read_string_array_attribute(group.get(), object, "columns");
  });
}

std::uint64_t TraceReader::table_rows(const std::string& path) const {
  return guarded(impl_->path, [&]() -> std::uint64_t {
    const auto columns = table_columns(path);
    if (columns.empty()) return 0;
    Handle ds = impl_->open_column(path, columns.front());
    return dataset_length(ds.get(), "/" + path + "/" + columns.front());
  });
}

std::vector<double> TraceReader::read_number_column(const std::string& table, const std::string& column) const {
  return guarded(impl_->path, [&]() -> std::vector<double> {
    const std::string object = "/" + table + "/" + column;
    Handle ds = impl_->open_column(table, column);
    Handle type = type_handle(H5Dget_type(ds.get()), object);
    const H5T_class_t kind = H5Tget_class(type.get());
    if (kind != H5T_INTEGER && kind != H5T_FLOAT) {
      throw sim::InputError("'" + object + "' in '" + impl_->path.string() +
                            "' is not a number column");
    }
    const hsize_t n = dataset_length(ds.get(), object);
    std::vector<double> out(n);
    // HDF5 converts int64 to double on read.
    for (hsize_t start = 0; start < n; start += kBlock) {
      const hsize_t count = std::min(kBlock, n - start);
      read_slab(ds.get(), H5T_NATIVE_DOUBLE, start, count, out.data() + start, object);
    }
    return out;
  });
}

std::vector<std::string> TraceReader::read_string_column(const std::string& table, const std::string& column) const {
  return guarded(impl_->path, [&]() -> std::vector<std::string> {
    const std::string object = "/" + table + "/" + column;
    Handle ds = impl_->open_column(table, column);
    Handle type = type_handle(H5Dget_type(ds.get()), object);
    if (H5Tget_class(type.get()) != H5T_STRING) {
      throw sim::InputError("'" + object + "' in '" + impl_->path.string() +
                            "' is not a string column");
    }
    const hsize_t n = dataset_length(ds.get(), object);
    std::vector<std::string> out;
    out.reserve(n);
    for (hsize_t start = 0; start < n; start += kBlock) {
      for (auto& s : read_string_slab(ds.get(), start, std::min(kBlock, n - start), object))
        out.push_back(std::move(s));
    }
    return out;
  });
}

std::string TraceReader::meta_string(const std::string& name) const {
  return guarded(impl_->path, [&]() -> std::string {
    if (!impl_->has_meta_attribute(name)) return "";
    Handle meta = impl_->open_meta();
    return read_string_attribute(meta.get(), "/meta", name);
  });
}

std::vector<std::string> TraceReader::meta_strings(const std::string& name) const {
  return guarded(impl_->path, [&]() -> std::vector<std::string> {
    if (!impl_->has_meta_attribute(name)) return {};
    Handle meta = impl_->open_meta();
    return read_string_array_attribute(meta.get(), "/meta", name);
  });
}

std::optional<std::uint64_t> TraceReader::meta_uint64(const std::string& name) const {
  return impl_->meta_scalar<std::uint64_t>(name, H5T_NATIVE_UINT64);
}

std::optional<double> TraceReader::meta_double(const std::string& name) const {
  return impl_->meta_scalar<double>(name, H5T_NATIVE_DOUBLE);
}

}  // namespace dcsim::tools::output
