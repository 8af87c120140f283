#include "tools/output/csv_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <tuple>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/output/hdf5_handle.hpp"
#include "tools/output/hdf5_trace_writer.hpp"

namespace dcsim::tools::output {

namespace {

constexpr hsize_t kBlock = 65536;  // points read per block

// Exact decimal seconds: formatting ns / 1e9 as a double would round long runs' timestamps.
std::string seconds_text(std::int64_t ns) {
  const bool negative = ns < 0;
  // Unsigned arithmetic: -INT64_MIN does not fit in int64.
  const std::uint64_t magnitude =
      negative ? ~static_cast<std::uint64_t>(ns) + 1 : static_cast<std::uint64_t>(ns);
  return fmt::format("{}{}.{:09}", negative ? "-" : "", magnitude / 1'000'000'000,
                     magnitude % 1'000'000'000);
}

std::vector<std::string> series_paths(hid_t series_group) {
  std::vector<std::string> paths;
  auto visit = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    const std::string n = name;
    const std::string leaf = "time_ns";
    if (n.size() > leaf.size() && n.compare(n.size() - leaf.size() - 1, std::string::npos,
                                            "/" + leaf) == 0) {
      static_cast<std::vector<std::string>*>(out)->push_back(n.substr(0, n.size() - leaf.size() - 1));
    }
    return 0;
  };
  check(H5Lvisit(series_group, H5_INDEX_NAME, H5_ITER_INC, visit, &paths), "cannot list",
        "/series");
  return paths;
}

void export_one(hid_t file, const std::string& path, const std::filesystem::path& target) {
  const std::string object = "/series/" + path;
  Handle group = group_handle(H5Gopen2(file, object.c_str(), H5P_DEFAULT), object);
  const std::string unit = read_string_attribute(group.get(), object, "unit");
  Handle times = dataset_handle(H5Dopen2(group.get(), "time_ns", H5P_DEFAULT), object + "/time_ns");
  Handle values = dataset_handle(H5Dopen2(group.get(), "value", H5P_DEFAULT), object + "/value");
  Handle space = space_handle(H5Dget_space(times.get()), object);
  const auto n = static_cast<hsize_t>(H5Sget_simple_extent_npoints(space.get()));

  std::filesystem::create_directories(target.parent_path());
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  if (!out) throw sim::InputError("cannot write '" + target.string() + "'");
  out << "time_ns,time_s," << (unit.empty() ? std::string("value") : "value [" + unit + "]")
      << "\n";
  std::vector<std::int64_t> t;
  std::vector<double> v;
  for (hsize_t start = 0; start < n; start += kBlock) {
    hsize_t count = std::min(kBlock, n - start);
    t.resize(count);
    v.resize(count);
    Handle mem = space_handle(H5Screate_simple(1, &count, nullptr), object);
    for (auto [ds, type, data] : {std::tuple{times.get(), H5T_NATIVE_INT64, static_cast<void*>(t.data())},
                                  std::tuple{values.get(), H5T_NATIVE_DOUBLE, static_cast<void*>(v.data())}}) {
      Handle file_space = space_handle(H5Dget_space(ds), object);
      check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr),
            "cannot select in", object);
      check(H5Dread(ds, type, mem.get(), file_space.get(), H5P_DEFAULT, data), "cannot read",
            object);
    }
    for (std::size_t i = 0; i < count; ++i) {
      out << t[i] << ',' << seconds_text(t[i]) << ',' << csv_value_text(v[i]) << '\n';
    }
  }
  out.close();
  if (!out) throw sim::InputError("cannot write '" + target.string() + "'");
}

}  // namespace

std::string csv_value_text(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

Handle open_dcsim_trace(const std::filesystem::path& trace) {
  const Hdf5Lock hdf5_lock;
  const hid_t fid = H5Fopen(trace.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (fid < 0) {
    const std::string detail = hdf5_error_detail();
    throw sim::InputError("cannot open trace '" + trace.string() + "'" + (detail.empty() ? "" : ": " + detail));
  }
  Handle file = file_handle(fid, trace.string());
  std::string version;
  try {
    version = read_string_attribute(file.get(), "/", "format_version");
  } catch (const Hdf5Error&) {
  }
  if (version != kTraceFormatVersion) {
    throw sim::InputError("'" + trace.string() + "' is not a dcsim trace (format_version '" + version + "', expected '" +
                          kTraceFormatVersion + "')");
  }
  return file;
}

std::vector<std::filesystem::path> write_series_csv(const std::filesystem::path& trace,
                                                    const std::filesystem::path& out_dir,
                                                    const std::string& series_path) {
  const Hdf5Lock hdf5_lock;  // first, so it outlives the handles
  Handle file = open_dcsim_trace(trace);
  Handle series = group_handle(H5Gopen2(file.get(), "/series", H5P_DEFAULT), "/series");
  std::vector<std::string> paths = series_paths(series.get());
  if (!series_path.empty()) {
    if (std::find(paths.begin(), paths.end(), series_path) == paths.end()) {
      throw sim::InputError("trace '" + trace.string() + "' has no series '" + series_path + "'");
    }
    paths = {series_path};
  }
  std::vector<std::filesystem::path> written;
  for (const auto& path : paths) {
    const auto target = out_dir / (path + ".csv");
    export_one(file.get(), path, target);
    written.push_back(target);
  }
  return written;
}

}  // namespace dcsim::tools::output
