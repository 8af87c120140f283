#include "tools/output/trace_timeline.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tools/output/hdf5_handle.hpp"
#include "tools/output/timeline_recorder.hpp"

namespace dcsim::tools::output {

namespace {

constexpr hsize_t kRowBlock = 65536;  // table rows read per block

// The tables a timeline draws from, by their record path, and where trace.h5 keeps them.
const std::vector<std::string>& timeline_tables() {
  static const std::vector<std::string> paths = {"summary/jobs", "jobs",           "job_states", "training_steps",
                                                 "faults",       "node_faults",    "network/faults", "facility",
                                                 "training_collectives"};
  return paths;
}

// Rows [start, start + count) of one column as cells.
void read_cells(hid_t dataset, const std::string& object, sim::ColumnType type, hsize_t start, hsize_t count,
                std::vector<sim::Cell>& cells) {
  cells.clear();
  if (type == sim::ColumnType::kInt64) {
    std::vector<std::int64_t> v(count);
    read_slab(dataset, H5T_NATIVE_INT64, start, count, v.data(), object);
    cells.assign(v.begin(), v.end());
  } else if (type == sim::ColumnType::kFloat64) {
    std::vector<double> v(count);
    read_slab(dataset, H5T_NATIVE_DOUBLE, start, count, v.data(), object);
    cells.assign(v.begin(), v.end());
  } else {
    for (auto& s : read_string_slab(dataset, start, count, object)) cells.emplace_back(std::move(s));
  }
}

void replay_table(hid_t file, const std::string& path, sim::TraceSink& sink) {
  const std::string where = path.rfind("summary/", 0) == 0 ? "/" + path : "/events/" + path;
  if (!link_exists(file, where)) return;
  Handle group = group_handle(H5Gopen2(file, where.c_str(), H5P_DEFAULT), where);
  const auto names = read_string_array_attribute(group.get(), where, "columns");
  std::vector<sim::Column> columns;
  std::vector<Handle> datasets;
  hsize_t rows = 0;
  for (const auto& name : names) {
    const std::string object = where + "/" + name;
    datasets.push_back(dataset_handle(H5Dopen2(group.get(), name.c_str(), H5P_DEFAULT), object));
    Handle type = type_handle(H5Dget_type(datasets.back().get()), object);
    const H5T_class_t kind = H5Tget_class(type.get());
    const sim::ColumnType t = kind == H5T_INTEGER ? sim::ColumnType::kInt64
                              : kind == H5T_FLOAT ? sim::ColumnType::kFloat64
                                                  : sim::ColumnType::kString;
    columns.push_back({name, t, read_string_attribute(datasets.back().get(), object, "unit"), ""});
    const hsize_t n = dataset_length(datasets.back().get(), object);
    if (datasets.size() > 1 && n != rows) throw sim::InputError("table '" + where + "' has columns of different lengths");
    rows = n;
  }
  const sim::TableId id = sink.declare_table(path, columns);
  std::vector<std::vector<sim::Cell>> block(columns.size());
  for (hsize_t start = 0; start < rows; start += kRowBlock) {
    const hsize_t count = std::min(kRowBlock, rows - start);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      read_cells(datasets[c].get(), where + "/" + names[c], columns[c].type, start, count, block[c]);
    }
    for (hsize_t r = 0; r < count; ++r) {
      std::vector<sim::Cell> row;
      row.reserve(columns.size());
      for (std::size_t c = 0; c < columns.size(); ++c) row.push_back(std::move(block[c][r]));
      sink.append_row(id, std::move(row));
    }
  }
}

void replay_series(hid_t file, const std::string& path, sim::TraceSink& sink) {
  const std::string where = "/series/" + path;
  if (!link_exists(file, where)) return;
  Handle group = group_handle(H5Gopen2(file, where.c_str(), H5P_DEFAULT), where);
  Handle t = dataset_handle(H5Dopen2(group.get(), "time_ns", H5P_DEFAULT), where + "/time_ns");
  Handle v = dataset_handle(H5Dopen2(group.get(), "value", H5P_DEFAULT), where + "/value");
  const hsize_t n = dataset_length(t.get(), where + "/time_ns");
  std::vector<std::int64_t> times(n);
  std::vector<double> values(n);
  if (n > 0) {
    check(H5Dread(t.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, times.data()), "cannot read", where);
    check(H5Dread(v.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "cannot read", where);
  }
  const sim::SeriesId id = sink.declare_series(path, read_string_attribute(group.get(), where, "unit"), "");
  for (hsize_t i = 0; i < n; ++i) sink.append(id, sim::Time::from_ns(times[i]), values[i]);
}

// The last time any series was recorded: the run's end.
std::int64_t last_series_time(hid_t file) {
  std::int64_t last = 0;
  for (const auto& path : list_series(file)) {
    const std::string object = "/series/" + path + "/time_ns";
    Handle ds = dataset_handle(H5Dopen2(file, object.c_str(), H5P_DEFAULT), object);
    const hsize_t count = dataset_length(ds.get(), object);
    if (count == 0) continue;
    std::int64_t t = 0;
    read_slab(ds.get(), H5T_NATIVE_INT64, count - 1, 1, &t, object);
    last = std::max(last, t);
  }
  return last;
}

}  // namespace

TimelineStats export_trace_timeline(const std::filesystem::path& trace, TimelineFile& file) {
  const Hdf5Lock hdf5_lock;  // first, so it outlives the handles
  Handle h5 = open_dcsim_trace(trace);
  TimelineRecorder recorder(nullptr, file.options().records);
  for (const auto& path : timeline_tables()) replay_table(h5.get(), path, recorder);
  for (const auto& path : timeline_series()) replay_series(h5.get(), path, recorder);
  TimelineMeta meta;
  Handle m = group_handle(H5Gopen2(h5.get(), "/meta", H5P_DEFAULT), "/meta");
  meta.scenario = read_string_attribute(m.get(), "/meta", "scenario_name");
  meta.seed = read_uint64_attribute(m.get(), "/meta", "seed");
  meta.dcsim_version = read_string_attribute(m.get(), "/meta", "dcsim_version");
  if (H5Aexists(m.get(), "overrides") > 0) meta.overrides = read_string_array_attribute(m.get(), "/meta", "overrides");
  // The run's end: /summary/simulated_s (a cluster's; the same double `dcsim run` used, so the
  // same bytes), else the last time any series was recorded.
  meta.end_ns = last_series_time(h5.get());
  if (link_exists(h5.get(), "/summary/simulated_s")) {
    Handle ds = dataset_handle(H5Dopen2(h5.get(), "/summary/simulated_s", H5P_DEFAULT), "/summary/simulated_s");
    double seconds = 0.0;
    check(H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &seconds), "cannot read",
          "/summary/simulated_s");
    meta.end_ns = sim::Time::from_seconds(seconds).ns();
  }
  return file.write(recorder.records(), meta);
}

}  // namespace dcsim::tools::output
