#include "tools/output/summary.hpp"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include "sim/error.hpp"

namespace dcsim::tools::output {

namespace {

constexpr std::array<const char*, 5> kReserved = {"scenario", "seed", "dcsim_version", "units", "overrides"};

nlohmann::json number(double v) {
  // JSON has no NaN or infinity; null says "no value" without breaking strict parsers.
  if (!std::isfinite(v)) return nullptr;
  return v;
}

nlohmann::json cell_json(const sim::Cell& cell) {
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return *i;
  if (const auto* d = std::get_if<double>(&cell)) return number(*d);
  return std::get<std::string>(cell);
}

nlohmann::json summary_value_json(const sim::SummaryValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v.value)) return *i;
  if (const auto* d = std::get_if<double>(&v.value)) return number(*d);
  return std::get<std::string>(v.value);
}

// The object at "a/b" of "a/b/c", created on the way; PathSet guarantees no clash with values.
nlohmann::json& parent_of(nlohmann::json& root, const std::string& path, std::string& leaf) {
  nlohmann::json* node = &root;
  std::size_t start = 0;
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', start)) {
    node = &(*node)[path.substr(start, slash - start)];
    start = slash + 1;
  }
  leaf = path.substr(start);
  return *node;
}

}  // namespace

bool SummaryRecorder::is_reserved(const std::string& path) {
  const std::string first = path.substr(0, path.find('/'));
  for (const char* r : kReserved) {
    if (first == r) return true;
  }
  return false;
}

void SummaryRecorder::claim(const std::string& path, const std::string& what) {
  if (is_reserved(path)) {
    throw sim::InternalError(what + " '" + path +
                             "' uses a key that summary.json reserves for run metadata "
                             "(scenario, seed, dcsim_version, units; this is a bug)");
  }
  paths_.claim(path, what);
}

void SummaryRecorder::set_scalar(const std::string& path, sim::SummaryValue value) {
  if (!paths_.contains(path)) claim(path, "summary value");
  auto it = scalars_.find(path);
  if (it == scalars_.end()) {
    // A headline table holds this path (PathSet knows it, scalars_ does not).
    for (const auto& t : tables_) {
      if (t.name == path) {
        throw sim::InternalError("summary value '" + path +
                                 "' clashes with the headline table 'summary/" + path +
                                 "' (this is a bug)");
      }
    }
    scalars_.emplace(path, std::move(value));
  } else {
    it->second = std::move(value);
  }
}

std::size_t SummaryRecorder::add_table(const std::string& name, std::vector<sim::Column> columns) {
  check_column_names("summary/" + name, columns);
  claim(name, "headline table");
  tables_.push_back(Table{name, std::move(columns), {}});
  return tables_.size() - 1;
}

void SummaryRecorder::append_row(std::size_t table, std::vector<sim::Cell> row) {
  auto& t = tables_.at(table);
  sim::check_row("summary/" + t.name, t.columns, row);
  t.rows.push_back(std::move(row));
}

SummaryRecorder SummaryRecorder::from(const sim::MemoryTraceSink& sink) {
  SummaryRecorder out;
  for (const auto& [path, value] : sink.summary()) out.set_scalar(path, value);
  const std::string prefix = "summary/";
  for (const auto& t : sink.tables()) {
    if (t.path.rfind(prefix, 0) != 0) continue;
    const std::size_t index = out.add_table(t.path.substr(prefix.size()), t.columns);
    for (const auto& row : t.rows) out.append_row(index, row);
  }
  return out;
}

nlohmann::json summary_json(const SummaryRecorder& summary, const RunMeta& meta) {
  nlohmann::json root = nlohmann::json::object();
  nlohmann::json units = nlohmann::json::object();
  root["scenario"] = meta.scenario_name;
  root["seed"] = meta.seed;
  root["overrides"] = meta.overrides;
  root["dcsim_version"] = meta.dcsim_version;
  std::string leaf;
  for (const auto& [path, value] : summary.scalars()) {
    parent_of(root, path, leaf)[leaf] = summary_value_json(value);
    units[path] = value.unit;
  }
  for (const auto& table : summary.tables()) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : table.rows) {
      nlohmann::json object = nlohmann::json::object();
      for (std::size_t i = 0; i < row.size(); ++i) object[table.columns[i].name] = cell_json(row[i]);
      rows.push_back(std::move(object));
    }
    parent_of(root, table.name, leaf)[leaf] = std::move(rows);
    for (const auto& c : table.columns) units[table.name + "/" + c.name] = c.unit;
  }
  root["units"] = std::move(units);
  return root;
}

std::string summary_json_text(const SummaryRecorder& summary, const RunMeta& meta) {
  // Replace invalid UTF-8 rather than throw: a model's odd string must not lose the run.
  return summary_json(summary, meta).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

void write_summary_json(const std::filesystem::path& file, const SummaryRecorder& summary,
                        const RunMeta& meta) {
  const std::string text = summary_json_text(summary, meta);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) {
    throw sim::InputError("cannot write '" + file.string() + "': " + std::strerror(errno));
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw sim::InputError("cannot write '" + file.string() + "': write failed");
}

}  // namespace dcsim::tools::output
