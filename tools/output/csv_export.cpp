#include "tools/output/csv_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <span>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/output/hdf5_handle.hpp"
#include "tools/output/hdf5_trace_writer.hpp"
#include "tools/output/trace_reader.hpp"

namespace dcsim::tools::output {

namespace {

// Exact decimal seconds: formatting ns / 1e9 as a double would round long runs' timestamps.
std::string seconds_text(std::int64_t ns) {
  const bool negative = ns < 0;
  // Unsigned arithmetic: -INT64_MIN does not fit in int64.
  const std::uint64_t magnitude =
      negative ? ~static_cast<std::uint64_t>(ns) + 1 : static_cast<std::uint64_t>(ns);
  return fmt::format("{}{}.{:09}", negative ? "-" : "", magnitude / 1'000'000'000,
                     magnitude % 1'000'000'000);
}

void export_one(const TraceReader& trace, const std::string& path, const std::filesystem::path& target) {
  const std::string unit = trace.series_unit(path);
  std::ofstream out = open_csv(target);
  out << "time_ns,time_s," << (unit.empty() ? std::string("value") : "value [" + unit + "]")
      << "\n";
  trace.read_series(path, [&](std::span<const std::int64_t> t, std::span<const double> v) {
    for (std::size_t i = 0; i < t.size(); ++i) {
      out << t[i] << ',' << seconds_text(t[i]) << ',' << csv_value_text(v[i]) << '\n';
    }
  });
  close_csv(out, target);
}

}  // namespace

std::ofstream open_csv(const std::filesystem::path& target) {
  std::filesystem::create_directories(target.parent_path());
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  if (!out) throw sim::InputError("cannot write '" + target.string() + "'");
  return out;
}

void close_csv(std::ofstream& out, const std::filesystem::path& target) {
  out.close();
  if (!out) throw sim::InputError("cannot write '" + target.string() + "'");
}

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
  const TraceReader reader(trace);
  std::vector<std::string> paths = reader.series_paths();
  if (!series_path.empty()) {
    if (!reader.has_series(series_path)) {
      throw sim::InputError("trace '" + trace.string() + "' has no series '" + series_path + "'");
    }
    paths = {series_path};
  }
  std::vector<std::filesystem::path> written;
  for (const auto& path : paths) {
    const auto target = out_dir / (path + ".csv");
    export_one(reader, path, target);
    written.push_back(target);
  }
  return written;
}

}  // namespace dcsim::tools::output
