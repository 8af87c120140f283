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

const std::vector<std::string>& timeline_series() {
  static const std::vector<std::string> paths = {"power/cluster_w",  "facility/it_w",
                                                 "facility/total_w", "facility/cooling_w",
                                                 "facility/pue",     "thermal/busy_clock_factor",
                                                 "jobs/running",     "jobs/waiting"};
  return paths;
}

bool exists(hid_t file, const std::string& path) {
  // Each component in turn: H5Lexists on "a/b" fails when "a" is missing.
  std::string prefix;
  std::size_t from = 1;
  while (true) {
    const std::size_t slash = path.find('/', from);
    prefix = path.substr(0, slash);
    if (H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
    from = slash + 1;
  }
}

std::vector<std::string> read_strings_attribute(hid_t obj, const std::string& object, const std::string& name) {
  const std::string where = object + "@" + name;
  Handle attr = attr_handle(H5Aopen(obj, name.c_str(), H5P_DEFAULT), where);
  Handle space = space_handle(H5Aget_space(attr.get()), where);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
  std::vector<char*> ptrs(n, nullptr);
  Handle type = utf8_string_type();
  if (n > 0) check(H5Aread(attr.get(), type.get(), ptrs.data()), "cannot read attribute", where);
  std::vector<std::string> out;
  for (char* p : ptrs) out.emplace_back(p != nullptr ? p : "");
  if (n > 0) H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, ptrs.data());
  return out;
}

std::uint64_t read_uint64_attribute(hid_t obj, const std::string& object, const std::string& name) {
  const std::string where = object + "@" + name;
  Handle attr = attr_handle(H5Aopen(obj, name.c_str(), H5P_DEFAULT), where);
  std::uint64_t v = 0;
  check(H5Aread(attr.get(), H5T_NATIVE_UINT64, &v), "cannot read attribute", where);
  return v;
}

hsize_t length(hid_t dataset, const std::string& object) {
  Handle space = space_handle(H5Dget_space(dataset), object);
  return static_cast<hsize_t>(H5Sget_simple_extent_npoints(space.get()));
}

// Rows [start, start + count) of one column as cells.
void read_cells(hid_t dataset, const std::string& object, sim::ColumnType type, hsize_t start, hsize_t count,
                std::vector<sim::Cell>& cells) {
  cells.clear();
  Handle mem = space_handle(H5Screate_simple(1, &count, nullptr), object);
  Handle file_space = space_handle(H5Dget_space(dataset), object);
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr), "cannot select in",
        object);
  if (type == sim::ColumnType::kInt64) {
    std::vector<std::int64_t> v(count);
    check(H5Dread(dataset, H5T_NATIVE_INT64, mem.get(), file_space.get(), H5P_DEFAULT, v.data()), "cannot read", object);
    cells.assign(v.begin(), v.end());
  } else if (type == sim::ColumnType::kFloat64) {
    std::vector<double> v(count);
    check(H5Dread(dataset, H5T_NATIVE_DOUBLE, mem.get(), file_space.get(), H5P_DEFAULT, v.data()), "cannot read",
          object);
    cells.assign(v.begin(), v.end());
  } else {
    std::vector<char*> ptrs(count, nullptr);
    Handle string_type = utf8_string_type();
    check(H5Dread(dataset, string_type.get(), mem.get(), file_space.get(), H5P_DEFAULT, ptrs.data()), "cannot read",
          object);
    for (char* p : ptrs) cells.emplace_back(std::string(p != nullptr ? p : ""));
    H5Dvlen_reclaim(string_type.get(), mem.get(), H5P_DEFAULT, ptrs.data());
  }
}

void replay_table(hid_t file, const std::string& path, sim::TraceSink& sink) {
  const std::string where = path.rfind("summary/", 0) == 0 ? "/" + path : "/events/" + path;
  if (!exists(file, where)) return;
  Handle group = group_handle(H5Gopen2(file, where.c_str(), H5P_DEFAULT), where);
  const auto names = read_strings_attribute(group.get(), where, "columns");
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
    const hsize_t n = length(datasets.back().get(), object);
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
  if (!exists(file, where)) return;
  Handle group = group_handle(H5Gopen2(file, where.c_str(), H5P_DEFAULT), where);
  Handle t = dataset_handle(H5Dopen2(group.get(), "time_ns", H5P_DEFAULT), where + "/time_ns");
  Handle v = dataset_handle(H5Dopen2(group.get(), "value", H5P_DEFAULT), where + "/value");
  const hsize_t n = length(t.get(), where + "/time_ns");
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
  if (!exists(file, "/series")) return 0;
  Handle series = group_handle(H5Gopen2(file, "/series", H5P_DEFAULT), "/series");
  std::vector<std::string> names;
  auto visit = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
  };
  check(H5Lvisit(series.get(), H5_INDEX_NAME, H5_ITER_INC, visit, &names), "cannot list", "/series");
  std::int64_t last = 0;
  for (const auto& n : names) {
    if (n.size() < 8 || n.compare(n.size() - 8, 8, "/time_ns") != 0) continue;
    const std::string object = "/series/" + n;
    Handle ds = dataset_handle(H5Dopen2(series.get(), n.c_str(), H5P_DEFAULT), object);
    const hsize_t count = length(ds.get(), object);
    if (count == 0) continue;
    const hsize_t start = count - 1, one = 1;
    Handle mem = space_handle(H5Screate_simple(1, &one, nullptr), object);
    Handle space = space_handle(H5Dget_space(ds.get()), object);
    check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &one, nullptr), "cannot select in", object);
    std::int64_t t = 0;
    check(H5Dread(ds.get(), H5T_NATIVE_INT64, mem.get(), space.get(), H5P_DEFAULT, &t), "cannot read", object);
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
  if (H5Aexists(m.get(), "overrides") > 0) meta.overrides = read_strings_attribute(m.get(), "/meta", "overrides");
  // The run's end: /summary/simulated_s (a cluster's; the same double `dcsim run` used, so the
  // same bytes), else the last time any series was recorded.
  meta.end_ns = last_series_time(h5.get());
  if (exists(h5.get(), "/summary/simulated_s")) {
    Handle ds = dataset_handle(H5Dopen2(h5.get(), "/summary/simulated_s", H5P_DEFAULT), "/summary/simulated_s");
    double seconds = 0.0;
    check(H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &seconds), "cannot read",
          "/summary/simulated_s");
    meta.end_ns = sim::Time::from_seconds(seconds).ns();
  }
  return file.write(recorder.records(), meta);
}

}  // namespace dcsim::tools::output
