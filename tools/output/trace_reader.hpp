#pragma once
// Reading a finished trace.h5 (LAYOUT.md) back: its series a block of points at a time, table
// columns whole, and /meta attributes. Used by the CSV export and `dcsim report`; HDF5 stays out
// of this header (hdf5_handle.hpp is private to tools/output).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dcsim::tools::output {

class TraceReader {
 public:
  // Throws sim::InputError when the file cannot be opened or is not a dcsim trace
  // (open_dcsim_trace's check). Every reader below throws sim::InputError too when HDF5 fails
  // to read (a damaged file).
  explicit TraceReader(const std::filesystem::path& trace);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  const std::filesystem::path& path() const;

  // Every series path ("power/cluster_w"), depth first in name order (as the CSV export lists
  // them).
  const std::vector<std::string>& series_paths() const;
  bool has_series(const std::string& path) const;
  std::string series_unit(const std::string& path) const;
  std::uint64_t series_points(const std::string& path) const;
  // The last point's time; nullopt for an empty series.
  std::optional<std::int64_t> series_last_time_ns(const std::string& path) const;

  // Calls `block` with consecutive blocks of (time_ns, value), in order, at most 65,536 points
  // each, so a long series never has to fit in memory.
  using SeriesBlockFn = std::function<void(std::span<const std::int64_t>, std::span<const double>)>;
  void read_series(const std::string& path, const SeriesBlockFn& block) const;

  // Tables by their path under the root: "events/jobs", "summary/jobs", "events/network/flows".
  bool has_table(const std::string& path) const;
  std::vector<std::string> table_columns(const std::string& path) const;
  std::uint64_t table_rows(const std::string& path) const;  // 0 when the table is absent
  // A numeric column (int64 or float64) as doubles; a string column as strings. InputError when
  // the column is missing or of the other kind.
  std::vector<double> read_number_column(const std::string& table, const std::string& column) const;
  std::vector<std::string> read_string_column(const std::string& table,
                                              const std::string& column) const;

  // /meta attributes; "" / empty when absent.
  std::string meta_string(const std::string& name) const;
  std::vector<std::string> meta_strings(const std::string& name) const;
  std::optional<std::uint64_t> meta_uint64(const std::string& name) const;
  std::optional<double> meta_double(const std::string& name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dcsim::tools::output
