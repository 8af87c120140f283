#include "tools/sweep/sweep_results.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/output/output_directory.hpp"
#include "tools/output/results_table.hpp"
#include "tools/output/trace_csv_export.hpp"

namespace dcsim::tools::sweep {

namespace {

using nlohmann::json;
using output::csv_cell;
using output::ResultsCell;
using output::ResultsColumn;

// A headline table whose rows are named (jobs: one row per named job) is small and its rows are
// what a sweep compares (a job's step time): its cells become "<table>/<row name>/<column>".
// Other tables (unnamed rows, more than kMaxNamedRows) stay out of the row.
constexpr std::size_t kMaxNamedRows = 64;

bool named_rows(const json& table) {
  if (table.empty() || table.size() > kMaxNamedRows) return false;
  std::set<std::string> names;
  for (const auto& row : table) {
    if (!row.is_object() || !row.contains("name") || !row.at("name").is_string()) return false;
    if (!names.insert(row.at("name").get<std::string>()).second) return false;
  }
  return true;
}

void walk(const json& node, const std::string& prefix, std::vector<std::pair<std::string, json>>& out) {
  for (const auto& [key, value] : node.items()) {
    const std::string path = prefix.empty() ? key : prefix + "/" + key;
    if (value.is_object()) {
      walk(value, path, out);
    } else if (value.is_array()) {
      if (!named_rows(value)) continue;
      for (const auto& row : value) {
        const std::string row_path = path + "/" + row.at("name").get<std::string>();
        for (const auto& [column, cell] : row.items()) {
          if (column != "name" && !cell.is_structured()) out.emplace_back(row_path + "/" + column, cell);
        }
      }
    } else {
      out.emplace_back(path, value);
    }
  }
}

// What a summary column holds across the variants: int64 while every value is an integer and no
// variant lacks it, float64 while every value is a number, else strings.
struct ColumnInfo {
  bool all_int = true;
  bool all_number = true;
  std::size_t present = 0;
  std::string unit;
};

struct VariantRecord {
  std::string status = "failed";
  std::string error = "the variant did not run (interrupted?)";
  json summary;  // null unless ok
};

VariantRecord read_record(const std::filesystem::path& dir) {
  VariantRecord r;
  const json v = read_json_or_null(dir / kVariantFileName);
  if (!v.is_object()) return r;
  if (v.value("status", "") == "ok") {
    r.summary = read_json_or_null(dir / "summary.json");
    if (r.summary.is_object()) {
      r.status = "ok";
      r.error.clear();
    } else {
      r.error = "summary.json is missing or unreadable";
    }
  } else {
    r.error = v.value("error", std::string("failed"));
  }
  return r;
}

// summary.json's "units" names a table column once ("jobs/step_time_s"), not per row.
std::string unit_of(const json& units, const std::string& path) {
  std::string key = path;
  if (!units.contains(key)) {
    const auto last = path.rfind('/');
    const auto row = last == std::string::npos || last == 0 ? std::string::npos : path.rfind('/', last - 1);
    if (row != std::string::npos) key = path.substr(0, row) + path.substr(last);
  }
  return units.contains(key) && units.at(key).is_string() ? units.at(key).get<std::string>() : "";
}

ResultsCell cell_of(const json& v, ResultsColumn::Type type) {
  if (v.is_null()) return std::monostate{};
  switch (type) {
    case ResultsColumn::Type::kInt64: return v.get<std::int64_t>();
    case ResultsColumn::Type::kUInt64: return v.get<std::uint64_t>();
    case ResultsColumn::Type::kFloat64: return v.get<double>();
    case ResultsColumn::Type::kString: return v.is_string() ? v.get<std::string>() : v.dump();
  }
  return std::monostate{};
}

}  // namespace

json read_json_or_null(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  std::ostringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  return doc.is_discarded() ? json(nullptr) : doc;
}

std::vector<std::pair<std::string, json>> summary_scalars(const json& summary) {
  std::vector<std::pair<std::string, json>> out;
  json results = summary;
  for (const char* meta : {"scenario", "seed", "overrides", "dcsim_version", "units"}) results.erase(meta);
  walk(results, "", out);
  return out;
}

std::string csv_text(const json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return csv_cell(value.get<std::string>());
  return csv_cell(value.dump());
}

ResultsReport write_results(const Sweep& sweep, const Plan& plan, const std::filesystem::path& dir) {
  const std::size_t count = variant_count(sweep);
  // Pass 1: which summary values exist, of what kind and unit.
  std::map<std::string, ColumnInfo> summary_columns;
  std::size_t ok = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const VariantRecord r = read_record(dir / variant_name(i, count));
    if (r.status != "ok") continue;
    ++ok;
    const json units = r.summary.value("units", json::object());
    for (const auto& [path, value] : summary_scalars(r.summary)) {
      ColumnInfo& info = summary_columns[path];
      ++info.present;
      info.all_int = info.all_int && value.is_number_integer();
      info.all_number = info.all_number && value.is_number();
      if (info.unit.empty()) info.unit = unit_of(units, path);
    }
  }

  std::vector<ResultsColumn> columns = {
      {"variant", ResultsColumn::Type::kString, "", "the variant's folder under the sweep's output"},
      {"status", ResultsColumn::Type::kString, "", "ok, or failed (see error)"},
      {"replication", ResultsColumn::Type::kInt64, "", "replication index, 0 to replications - 1"},
      {"seed", ResultsColumn::Type::kUInt64, "", "the scenario seed the variant ran with"},
  };
  std::vector<ResultsColumn::Type> param_types;
  for (const auto& p : sweep.parameters) {
    bool all_int = true, all_number = true;
    for (const auto& v : p.values) {
      all_int = all_int && v.is_number_integer();
      all_number = all_number && v.is_number();
    }
    if (p.continuous) all_int = false, all_number = p.unit.empty();
    const auto type = all_int ? ResultsColumn::Type::kInt64
                              : all_number ? ResultsColumn::Type::kFloat64 : ResultsColumn::Type::kString;
    param_types.push_back(type);
    columns.push_back({p.path, type, "", "swept value (--set " + p.path + ")"});
  }
  std::vector<std::string> summary_paths;
  for (const auto& [path, info] : summary_columns) {
    const bool complete = info.present == count;
    const auto type = info.all_int && complete ? ResultsColumn::Type::kInt64
                      : info.all_number ? ResultsColumn::Type::kFloat64 : ResultsColumn::Type::kString;
    columns.push_back({path, type, info.unit, "summary.json value"});
    summary_paths.push_back(path);
  }
  columns.push_back({"error", ResultsColumn::Type::kString, "", "why the variant failed (empty when ok)"});

  output::OutputDirectory out(dir);
  const auto csv_path = out.stage(kResultsCsvName);
  const auto h5_path = out.stage(kResultsH5Name);
  std::ofstream csv(csv_path, std::ios::binary | std::ios::trunc);
  if (!csv) throw sim::InputError("cannot write '" + csv_path.string() + "'");
  for (std::size_t c = 0; c < columns.size(); ++c) csv << (c == 0 ? "" : ",") << csv_cell(columns[c].name);
  csv << '\n';
  output::ResultsTableWriter table(h5_path, columns);

  // Pass 2: the rows.
  ResultsReport report;
  report.ok = ok;
  for (std::size_t i = 0; i < count; ++i) {
    const Variant v = variant_at(sweep, i, plan.base_seed);
    const VariantRecord r = read_record(dir / v.name);
    std::vector<ResultsCell> cells;
    cells.reserve(columns.size());
    csv << csv_cell(v.name) << ',' << r.status << ',' << v.replication << ',' << v.seed;
    cells.emplace_back(v.name);
    cells.emplace_back(r.status);
    cells.emplace_back(static_cast<std::int64_t>(v.replication));
    cells.emplace_back(v.seed);
    for (std::size_t k = 0; k < v.values.size(); ++k) {
      csv << ',' << csv_text(v.values[k]);
      cells.push_back(cell_of(v.values[k], param_types[k]));
    }
    std::map<std::string, json> values;
    if (r.status == "ok") {
      for (auto& [path, value] : summary_scalars(r.summary)) values.emplace(path, std::move(value));
    }
    for (std::size_t k = 0; k < summary_paths.size(); ++k) {
      const auto it = values.find(summary_paths[k]);
      const json& value = it == values.end() ? json(nullptr) : it->second;
      csv << ',' << csv_text(value);
      cells.push_back(cell_of(value, columns[4 + v.values.size() + k].type));
    }
    csv << ',' << csv_cell(r.error) << '\n';
    cells.emplace_back(r.error);
    table.append(std::move(cells));
    if (r.status != "ok") report.failures.push_back({v.name, describe_values(sweep, v), r.error});
  }
  table.finish();
  csv.close();
  if (!csv) throw sim::InputError("cannot write '" + csv_path.string() + "'");
  out.commit();
  return report;
}

void write_json_atomically(const std::filesystem::path& file, const json& doc) {
  const auto tmp = file.parent_path() / fmt::format(".{}.tmp-{}", file.filename().string(), ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << doc.dump(2) << '\n';
    out.close();
    if (!out) throw sim::InputError("cannot write '" + tmp.string() + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw sim::InputError("cannot write '" + file.string() + "'");
  }
}

}  // namespace dcsim::tools::sweep
