#include "tools/output/hdf5_trace_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <variant>

#include "sim/error.hpp"
#include "tools/output/hdf5_extensible.hpp"
#include "tools/output/hdf5_handle.hpp"
#include "tools/output/hdf5_string_column.hpp"

namespace dcsim::tools::output {

namespace {

const std::string kSummaryPrefix = "summary/";

// finish() polls (for a signal) every this many series: each costs 30-100 us to create and write,
// so a poll every few milliseconds.
constexpr std::size_t kPollEvery = 64;

constexpr std::size_t kMetadataCacheBytes = std::size_t{4} << 20;

// A series costs its path, unit, description and buffer until it is first written: its group
// and datasets are created then (lazily), with chunks sized to what it has, and closed after
// every write (reopened by path for the next).
struct SeriesState {
  std::string path;
  std::string unit;
  std::string description;
  bool created = false;
  Extensible time_ns;
  Extensible value;
  std::vector<std::int64_t> time_buffer;
  std::vector<double> value_buffer;
  std::int64_t last_ns = std::numeric_limits<std::int64_t>::min();
};

using ColumnBuffer =
    std::variant<std::vector<std::int64_t>, std::vector<double>, std::vector<std::string>>;

struct TableState {
  std::string path;    // as declared, e.g. "jobs" or "summary/jobs"
  std::string object;  // e.g. "/events/jobs"
  std::vector<sim::Column> columns;
  Handle group;
  // A string column's dataset is created at the table's first flush (its width is known then);
  // string_widths[c] is its width, nullopt until then (and for numeric columns).
  std::vector<Extensible> datasets;
  std::vector<std::optional<std::size_t>> string_widths;
  bool strings_created = false;
  std::vector<ColumnBuffer> buffers;
  std::size_t buffered_rows = 0;
  std::size_t buffered_bytes = 0;
  std::optional<std::size_t> summary_index;  // headline tables are also kept for summary.json
};

}  // namespace

struct Hdf5TraceWriter::Impl {
  std::filesystem::path file_path;
  Hdf5Options options;
  RunMeta meta;
  SummaryRecorder summary;
  PathSet series_paths;
  PathSet event_paths;

  // Declaration order is destruction order reversed: datasets and groups close before the file.
  Handle file;
  Handle string_type;
  Handle lcpl;          // creates intermediate groups for nested paths
  Handle numeric_dcpl;  // chunked, shuffle + deflate
  Handle string_dcpl;   // chunked, deflate (shuffle gains nothing on bytes)
  Handle dapl;          // chunk cache off: we write whole chunks, and memory must stay bounded
  std::vector<SeriesState> series;
  std::vector<TableState> tables;
  std::size_t buffered_bytes = 0;
  bool direct_chunks = false;  // filters_outside_lock(), decided once
  bool open = false;

  void require_open(const char* operation) const {
    if (!open) {
      throw sim::InternalError(std::string("trace writer: ") + operation + " after the file '" +
                               file_path.string() + "' was closed (this is a bug)");
    }
  }

  Handle make_dcpl(bool shuffle) const {
    Handle dcpl = plist_handle(H5Pcreate(H5P_DATASET_CREATE), "dataset creation properties");
    const hsize_t chunk = options.chunk_elements;
    check(H5Pset_chunk(dcpl.get(), 1, &chunk), "cannot set chunk size", file_path.string());
    if (options.deflate_level > 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
      if (shuffle) check(H5Pset_shuffle(dcpl.get()), "cannot set shuffle", file_path.string());
      check(H5Pset_deflate(dcpl.get(), static_cast<unsigned>(options.deflate_level)),
            "cannot set deflate", file_path.string());
    }
    return dcpl;
  }

  // Under the lock. The series' group and datasets with chunks of `chunk` elements; open after.
  void create_series(SeriesState& s, hsize_t chunk) {
    const std::string object = "/series/" + s.path;
    Handle group = group_handle(
        H5Gcreate2(file.get(), object.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT), object);
    write_string_attribute(group.get(), object, "unit", s.unit);
    write_string_attribute(group.get(), object, "description", s.description);
    const Handle dcpl = dcpl_with_chunk(numeric_dcpl.get(), chunk, file_path.string());
    s.time_ns = create_extensible(group.get(), "time_ns", H5T_STD_I64LE, dcpl.get(), dapl.get(), object + "/time_ns");
    s.value = create_extensible(group.get(), "value", H5T_IEEE_F64LE, dcpl.get(), dapl.get(), object + "/value");
    write_string_attribute(s.time_ns.dataset.get(), s.time_ns.object, "unit", "ns");
    write_string_attribute(s.value.dataset.get(), s.value.object, "unit", s.unit);
    group.close(object);
    s.created = true;
    // Its strings are in the file now.
    std::string().swap(s.unit);
    std::string().swap(s.description);
  }

  // The chunk size of a series created with `pending` points to write: as large as what is
  // there (a power of two, 64 at least, chunk_elements at most). A whole run's points written at
  // the end take one chunk, not a 16384-element one of mostly zeros compressed for nothing (that
  // was about 1 ms per series); a series flushed early for memory gets chunks the size it
  // flushes at.
  hsize_t first_chunk(std::size_t pending) const {
    if (pending >= options.chunk_elements) return options.chunk_elements;
    hsize_t chunk = 64;
    while (chunk * 2 <= pending && chunk < options.chunk_elements) chunk *= 2;  // at most pending
    return std::min<hsize_t>(chunk, options.chunk_elements);
  }

  // Under the lock: the series' datasets, created (with `chunk`) or reopened.
  void open_series(SeriesState& s, hsize_t chunk) {
    if (!s.created) {
      create_series(s, chunk);
      return;
    }
    if (!s.time_ns.dataset.valid()) {
      s.time_ns.dataset = dataset_handle(H5Dopen2(file.get(), s.time_ns.object.c_str(), dapl.get()), s.time_ns.object);
      s.value.dataset = dataset_handle(H5Dopen2(file.get(), s.value.object.c_str(), dapl.get()), s.value.object);
    }
  }

  // Under the lock: closes what open_series opened (a closed series costs no HDF5 memory).
  void close_series(SeriesState& s, bool checked) {
    for (Extensible* ds : {&s.time_ns, &s.value}) {
      if (!ds->dataset.valid()) continue;
      if (checked) {
        ds->dataset.close(ds->object);
      } else {
        ds->dataset.reset();
      }
    }
  }

  // Without the lock (it compresses): see stage_append.
  StagedAppend stage(Extensible& ds, hid_t mem_type, const void* data, std::size_t count, hsize_t chunk) const {
    return stage_append(ds, mem_type, data, count, chunk, direct_chunks, options.deflate_level);
  }
  StagedAppend stage(Extensible& ds, hid_t mem_type, const void* data, std::size_t count) const {
    return stage(ds, mem_type, data, count, ds.chunk);
  }

  // Writes the series' buffer (creating its datasets the first time, with no points too: a
  // declared series has its datasets) and closes its datasets again. With `whole_chunks`, only
  // whole chunks are written and the rest stays buffered: during the run every write is whole
  // chunks on chunk boundaries (never a chunk read back to be completed); the last, partial one
  // is written at finish().
  void flush_series(SeriesState& s, bool whole_chunks) {
    const std::size_t buffered = s.time_buffer.size();
    if (buffered == 0 && s.created) return;
    const hsize_t chunk = s.created ? s.time_ns.chunk : first_chunk(buffered);
    const std::size_t n = whole_chunks ? buffered / chunk * chunk : buffered;
    if (n == 0 && (whole_chunks || s.created)) return;
    StagedAppend times = stage(s.time_ns, H5T_NATIVE_INT64, s.time_buffer.data(), n, chunk);
    StagedAppend values = stage(s.value, H5T_NATIVE_DOUBLE, s.value_buffer.data(), n, chunk);
    {
      const Hdf5Lock hdf5_lock;
      open_series(s, chunk);
      commit(times);
      commit(values);
      close_series(s, true);
    }
    const auto written = static_cast<std::ptrdiff_t>(n);
    s.time_buffer.erase(s.time_buffer.begin(), s.time_buffer.begin() + written);
    s.value_buffer.erase(s.value_buffer.begin(), s.value_buffer.begin() + written);
    if (s.time_buffer.empty()) {
      s.time_buffer.shrink_to_fit();  // a buffer of a series written once is not kept
      s.value_buffer.shrink_to_fit();
    }
    buffered_bytes -= n * (sizeof(std::int64_t) + sizeof(double));
  }

  // Writes the table's buffered rows; the first call creates its string columns, also with no
  // rows (so every declared column is in the file).
  void flush_table(TableState& t) {
    if (t.buffered_rows == 0 && t.strings_created) return;
    std::vector<StagedAppend> numeric;
    std::vector<std::size_t> string_columns;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      auto& ds = t.datasets[c];
      std::visit(
          [&](auto& buffer) {
            using T = typename std::decay_t<decltype(buffer)>::value_type;
            if constexpr (std::is_same_v<T, std::int64_t>) {
              numeric.push_back(stage(ds, H5T_NATIVE_INT64, buffer.data(), buffer.size()));
            } else if constexpr (std::is_same_v<T, double>) {
              numeric.push_back(stage(ds, H5T_NATIVE_DOUBLE, buffer.data(), buffer.size()));
            } else {
              string_columns.push_back(c);
            }
          },
          t.buffers[c]);
    }
    {
      const Hdf5Lock hdf5_lock;
      for (auto& a : numeric) commit(a);
      for (const std::size_t c : string_columns) {
        append_string_column(t.datasets[c], t.string_widths[c], t.group.get(), t.columns[c],
                             std::get<std::vector<std::string>>(t.buffers[c]), string_dcpl.get(), dapl.get(),
                             options.chunk_elements, file_path.string());
      }
    }
    t.strings_created = true;
    for (auto& buffer : t.buffers) std::visit([](auto& b) { b.clear(); }, buffer);
    buffered_bytes -= t.buffered_bytes;
    t.buffered_bytes = 0;
    t.buffered_rows = 0;
  }

  // Writes every buffer; with `poll`, calls it every kPollEvery series (outside the HDF5 lock):
  // what lets a signal stop the writing of 250,000 series within a second.
  void flush_buffers(const std::function<void()>& poll = {}) {
    for (std::size_t i = 0; i < series.size(); ++i) {
      if (poll && i % kPollEvery == 0) poll();
      flush_series(series[i], false);
    }
    for (auto& t : tables) {
      if (poll) poll();
      flush_table(t);
    }
  }

  // Over the memory bound: whole chunks first (every series' buffer down to less than a chunk);
  // when that frees too little (series with few points each), everything.
  void relieve_memory() {
    for (auto& s : series) flush_series(s, true);
    for (auto& t : tables) flush_table(t);
    if (buffered_bytes > options.max_buffered_bytes / 2) flush_buffers();
  }

  void write_summary_scalars() {
    for (const auto& [path, value] : summary.scalars()) {
      const std::string object = "/summary/" + path;
      Handle space = space_handle(H5Screate(H5S_SCALAR), object);
      hid_t file_type = H5T_IEEE_F64LE;
      hid_t mem_type = H5T_NATIVE_DOUBLE;
      const void* data = nullptr;
      const char* text = nullptr;
      if (const auto* d = std::get_if<double>(&value.value)) {
        data = d;
      } else if (const auto* i = std::get_if<std::int64_t>(&value.value)) {
        file_type = H5T_STD_I64LE;
        mem_type = H5T_NATIVE_INT64;
        data = i;
      } else {
        file_type = mem_type = string_type.get();
        text = std::get<std::string>(value.value).c_str();
        data = &text;
      }
      Handle ds = dataset_handle(H5Dcreate2(file.get(), object.c_str(), file_type, space.get(),
                                            lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                                 object);
      check(H5Dwrite(ds.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
            "cannot write dataset", object);
      write_string_attribute(ds.get(), object, "unit", value.unit);
      write_string_attribute(ds.get(), object, "description", value.description);
      ds.close(object);
    }
  }

  void write_meta(double wall_time_s) {
    const std::string object = "/meta";
    Handle group = group_handle(H5Gopen2(file.get(), object.c_str(), H5P_DEFAULT), object);
    write_string_attribute(group.get(), object, "scenario_name", meta.scenario_name);
    write_string_attribute(group.get(), object, "scenario_given", meta.scenario_given);
    write_string_attribute(group.get(), object, "scenario_resolved", meta.scenario_resolved);
    write_string_attribute(group.get(), object, "dcsim_version", meta.dcsim_version);
    write_uint64_attribute(group.get(), object, "seed", meta.seed);
    write_double_attribute(group.get(), object, "wall_time_s", wall_time_s);
    write_string_attribute(group.get(), object, "started_at", meta.started_at);
    write_string_attribute(group.get(), object, "source", meta.source);
    write_string_array_attribute(group.get(), object, "overrides", meta.overrides);
    group.close(object);
  }

  // Closes every id, checking each on the success path so a failed final write is reported.
  void close_all(bool checked) {
    open = false;
    auto close = [checked](Handle& h, const std::string& object) {
      if (checked) {
        h.close(object);
      } else {
        h.reset();
      }
    };
    for (auto& t : tables) {
      for (auto& ds : t.datasets) close(ds.dataset, ds.object);
      close(t.group, t.object);
    }
    for (auto& s : series) close_series(s, checked);
    string_type.reset();
    lcpl.reset();
    numeric_dcpl.reset();
    string_dcpl.reset();
    dapl.reset();
    close(file, file_path.string());
  }
};

Hdf5TraceWriter::Hdf5TraceWriter(std::filesystem::path file, Hdf5Options options)
    : impl_(std::make_unique<Impl>()) {
  const Hdf5Lock hdf5_lock;
  auto& m = *impl_;
  m.file_path = std::move(file);
  m.options = options;
  if (options.chunk_elements == 0) {
    throw sim::InternalError("trace writer: chunk_elements must be positive (this is a bug)");
  }
  if (options.deflate_level < 0 || options.deflate_level > 9) {
    throw sim::InternalError("trace writer: deflate_level must be 0-9 (this is a bug)");
  }
  const std::string name = m.file_path.string();
  // HDF5's metadata cache (object headers, the chunk indexes' B-tree nodes) capped at 4 MB: with
  // its default it grew to hold every series' index, 400 MB for 4,000 rack series sampled every
  // 10 s for 12 h (191 MB at 4 MB, and no slower; docs/resource-guards.md).
  Handle fapl = plist_handle(H5Pcreate(H5P_FILE_ACCESS), "file access properties");
  H5AC_cache_config_t cache{};
  cache.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  check(H5Pget_mdc_config(fapl.get(), &cache), "cannot read metadata cache settings", name);
  cache.set_initial_size = true;
  cache.initial_size = std::size_t{1} << 20;
  cache.min_size = std::size_t{1} << 20;
  cache.max_size = kMetadataCacheBytes;
  check(H5Pset_mdc_config(fapl.get(), &cache), "cannot set metadata cache size", name);
  const hid_t fid = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
  if (fid < 0) {
    const std::string detail = hdf5_error_detail();
    throw sim::InputError("cannot create the trace file '" + name + "'" +
                          (detail.empty() ? "" : ": " + detail));
  }
  m.file = file_handle(fid, name);
  m.open = true;
  m.string_type = utf8_string_type();
  m.lcpl = plist_handle(H5Pcreate(H5P_LINK_CREATE), "link creation properties");
  check(H5Pset_create_intermediate_group(m.lcpl.get(), 1), "cannot set intermediate groups", name);
  check(H5Pset_char_encoding(m.lcpl.get(), H5T_CSET_UTF8), "cannot set link encoding", name);
  m.numeric_dcpl = m.make_dcpl(true);
  m.string_dcpl = m.make_dcpl(false);
  m.direct_chunks = filters_outside_lock(options.deflate_level);
  m.dapl = plist_handle(H5Pcreate(H5P_DATASET_ACCESS), "dataset access properties");
  check(H5Pset_chunk_cache(m.dapl.get(), H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0,
                           H5D_CHUNK_CACHE_W0_DEFAULT),
        "cannot set chunk cache", name);

  write_string_attribute(m.file.get(), "/", "format_version", kTraceFormatVersion);
  for (const char* group : {"/meta", "/series", "/events", "/summary"}) {
    group_handle(H5Gcreate2(m.file.get(), group, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), group)
        .close(group);
  }
}

Hdf5TraceWriter::~Hdf5TraceWriter() {
  const Hdf5Lock hdf5_lock;
  if (impl_ && impl_->open) impl_->close_all(false);
}

sim::SeriesId Hdf5TraceWriter::declare_series(const std::string& path, const std::string& unit,
                                              const std::string& description) {
  auto& m = *impl_;
  m.require_open("declare_series");
  m.series_paths.claim(path, "series");
  // Nothing in the file yet: the group and datasets come with the first write (flush_series).
  SeriesState s;
  s.path = path;
  s.unit = unit;
  s.description = description;
  m.series.push_back(std::move(s));
  return static_cast<sim::SeriesId>(m.series.size() - 1);
}

void Hdf5TraceWriter::append(sim::SeriesId series, sim::Time t, double value) {
  auto& m = *impl_;
  m.require_open("append");
  if (series >= m.series.size()) {
    throw sim::InternalError("trace writer: unknown series id " + std::to_string(series) +
                             " (this is a bug)");
  }
  auto& s = m.series[series];
  // NaN is a series' documented "does not exist here" (LAYOUT.md); an infinity is a model's
  // bug and must not reach a notebook as a number.
  if (std::isinf(value)) {
    throw sim::InternalError("series '" + s.path + "': value " + std::to_string(value) + " at " +
                             sim::format_duration(t) + " is infinite (this is a bug)");
  }
  if (t.ns() < s.last_ns) {
    throw sim::InternalError("series '" + s.path + "': time went backwards (this is a bug)");
  }
  s.last_ns = t.ns();
  s.time_buffer.push_back(t.ns());
  s.value_buffer.push_back(value);
  m.buffered_bytes += sizeof(std::int64_t) + sizeof(double);
  // The flushes take the HDF5 lock themselves, after compressing (see StagedAppend).
  if (s.time_buffer.size() >= m.options.chunk_elements) {
    m.flush_series(s, true);
  } else if (m.buffered_bytes > m.options.max_buffered_bytes) {
    m.relieve_memory();
  }
}

sim::TableId Hdf5TraceWriter::declare_table(const std::string& path,
                                            std::vector<sim::Column> columns) {
  const Hdf5Lock hdf5_lock;
  auto& m = *impl_;
  m.require_open("declare_table");
  check_record_path(path, "table");
  check_column_names(path, columns);
  TableState t;
  t.path = path;
  if (path.rfind(kSummaryPrefix, 0) == 0) {
    const std::string name = path.substr(kSummaryPrefix.size());
    t.summary_index = m.summary.add_table(name, columns);
    t.object = "/summary/" + name;
  } else {
    m.event_paths.claim(path, "table");
    t.object = "/events/" + path;
  }
  t.group = group_handle(
      H5Gcreate2(m.file.get(), t.object.c_str(), m.lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
      t.object);
  std::vector<std::string> names;
  for (const auto& c : columns) {
    names.push_back(c.name);
    const std::string object = t.object + "/" + c.name;
    t.string_widths.emplace_back();
    switch (c.type) {
      case sim::ColumnType::kInt64: t.buffers.emplace_back(std::vector<std::int64_t>{}); break;
      case sim::ColumnType::kFloat64: t.buffers.emplace_back(std::vector<double>{}); break;
      case sim::ColumnType::kString: t.buffers.emplace_back(std::vector<std::string>{}); break;
    }
    if (c.type == sim::ColumnType::kString) {
      Extensible later;  // created at the table's first flush (append_string_column)
      later.object = object;
      t.datasets.push_back(std::move(later));
      continue;
    }
    auto ds =
        create_extensible(t.group.get(), c.name, c.type == sim::ColumnType::kInt64 ? H5T_STD_I64LE : H5T_IEEE_F64LE,
                          m.numeric_dcpl.get(), m.dapl.get(), object);
    write_string_attribute(ds.dataset.get(), object, "unit", c.unit);
    write_string_attribute(ds.dataset.get(), object, "description", c.description);
    t.datasets.push_back(std::move(ds));
  }
  write_string_array_attribute(t.group.get(), t.object, "columns", names);
  t.strings_created = std::none_of(columns.begin(), columns.end(),
                                   [](const sim::Column& c) { return c.type == sim::ColumnType::kString; });
  t.columns = std::move(columns);
  m.tables.push_back(std::move(t));
  return static_cast<sim::TableId>(m.tables.size() - 1);
}

void Hdf5TraceWriter::append_row(sim::TableId table, std::vector<sim::Cell> row) {
  auto& m = *impl_;
  m.require_open("append_row");
  if (table >= m.tables.size()) {
    throw sim::InternalError("trace writer: unknown table id " + std::to_string(table) +
                             " (this is a bug)");
  }
  auto& t = m.tables[table];
  sim::check_row(t.path, t.columns, row);
  // NaN is the documented "no value" of a float cell (LAYOUT.md); an infinity is a bug.
  for (std::size_t c = 0; c < row.size(); ++c) {
    if (const double* v = std::get_if<double>(&row[c]); v != nullptr && std::isinf(*v)) {
      throw sim::InternalError("table '" + t.path + "', column " + t.columns[c].name +
                               ": an infinite value (this is a bug)");
    }
  }
  if (t.summary_index) m.summary.append_row(*t.summary_index, row);
  std::size_t bytes = 0;
  for (std::size_t c = 0; c < row.size(); ++c) {
    std::visit(
        [&](auto& buffer) {
          using T = typename std::decay_t<decltype(buffer)>::value_type;
          T& cell = std::get<T>(row[c]);
          if constexpr (std::is_same_v<T, std::string>) bytes += cell.size();
          bytes += sizeof(T);
          buffer.push_back(std::move(cell));
        },
        t.buffers[c]);
  }
  ++t.buffered_rows;
  t.buffered_bytes += bytes;
  m.buffered_bytes += bytes;
  if (t.buffered_rows >= m.options.chunk_elements) {
    m.flush_table(t);
  } else if (m.buffered_bytes > m.options.max_buffered_bytes) {
    m.relieve_memory();
  }
}

void Hdf5TraceWriter::set_summary(const std::string& path, sim::SummaryValue value) {
  impl_->require_open("set_summary");
  if (const double* v = std::get_if<double>(&value.value); v != nullptr && !std::isfinite(*v)) {
    throw sim::InternalError("summary '" + path + "': value " + std::to_string(*v) +
                             " is not finite (this is a bug)");
  }
  impl_->summary.set_scalar(path, std::move(value));
}

void Hdf5TraceWriter::set_meta(const RunMeta& meta) {
  impl_->require_open("set_meta");
  impl_->meta = meta;
}

const RunMeta& Hdf5TraceWriter::meta() const { return impl_->meta; }

void Hdf5TraceWriter::flush() {
  auto& m = *impl_;
  m.require_open("flush");
  m.flush_buffers();  // before the lock: it compresses
  const Hdf5Lock hdf5_lock;
  check(H5Fflush(m.file.get(), H5F_SCOPE_LOCAL), "cannot flush", m.file_path.string());
}

void Hdf5TraceWriter::finish(double wall_time_s, const std::function<void()>& poll) {
  auto& m = *impl_;
  m.require_open("finish");
  m.flush_buffers(poll);  // before the lock: it compresses
  if (poll) poll();
  const Hdf5Lock hdf5_lock;
  m.write_summary_scalars();
  m.write_meta(wall_time_s);
  m.close_all(true);
}

void Hdf5TraceWriter::close() {
  auto& m = *impl_;
  if (!m.open) return;
  m.flush_buffers();  // before the lock: it compresses
  const Hdf5Lock hdf5_lock;
  m.close_all(true);
}

bool Hdf5TraceWriter::is_open() const { return impl_->open; }

const SummaryRecorder& Hdf5TraceWriter::summary() const { return impl_->summary; }

const std::filesystem::path& Hdf5TraceWriter::file() const { return impl_->file_path; }

}  // namespace dcsim::tools::output
