#include "tools/design/design_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/design/design_report.hpp"
#include "tools/output/output_directory.hpp"
#include "tools/output/trace_csv_export.hpp"
#include "tools/scenario/data_file.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/sweep/sweep_results.hpp"

namespace dcsim::tools::design {

namespace {

using nlohmann::json;
using Kind = SearchVariable::Kind;
using output::csv_cell;

// A continuous variable without grid points moves by this share of its range (or of its log range).
constexpr double kContinuousNudge = 0.05;

std::string number_cell(double v) { return sweep::csv_text(json(v)); }

std::ofstream open_csv(const std::filesystem::path& path, const std::vector<std::string>& header) {
  std::ofstream csv(path, std::ios::binary | std::ios::trunc);
  if (!csv) throw sim::InputError("cannot write '" + path.string() + "'");
  for (std::size_t c = 0; c < header.size(); ++c) csv << (c == 0 ? "" : ",") << csv_cell(header[c]);
  csv << '\n';
  return csv;
}

void close_csv(std::ofstream& csv, const std::filesystem::path& path) {
  csv.close();
  if (!csv) throw sim::InputError("cannot write '" + path.string() + "'");
}

const json* find(const std::vector<std::pair<std::string, json>>& items, const std::string& key) {
  for (const auto& [k, v] : items) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string cell(const json* v) { return v == nullptr ? "" : sweep::csv_text(*v); }

// The design's own columns: its values, then the keys it constrains and optimises.
struct Columns {
  std::vector<std::string> values, keys;
};

Columns design_columns(const Design& design) {
  Columns c;
  for (const auto& v : design.variables) c.values.push_back(v.path);
  for (const auto& k : design.couplings) c.values.push_back(k.path);
  for (const auto& k : design.constraints) {
    if (std::find(c.keys.begin(), c.keys.end(), k.key) == c.keys.end()) c.keys.push_back(k.key);
  }
  for (const auto& o : design.objectives) {
    if (std::find(c.keys.begin(), c.keys.end(), o.key) == c.keys.end()) c.keys.push_back(o.key);
  }
  return c;
}

void write_evaluations(const Design& design, const SearchResult& result, const std::filesystem::path& path) {
  const Columns own = design_columns(design);
  std::set<std::string> others;
  for (const auto& e : result.evaluations) {
    for (const auto& [k, v] : e.summary) {
      if (std::find(own.keys.begin(), own.keys.end(), k) == own.keys.end()) others.insert(k);
    }
  }
  std::vector<std::string> header{"evaluation", "fidelity", "status"};
  header.insert(header.end(), own.values.begin(), own.values.end());
  header.insert(header.end(), own.keys.begin(), own.keys.end());
  header.push_back("reason");
  header.insert(header.end(), others.begin(), others.end());
  auto csv = open_csv(path, header);
  for (std::size_t i = 0; i < result.evaluations.size(); ++i) {
    const auto& e = result.evaluations[i];
    csv << i << ',' << csv_cell(design.fidelities[static_cast<std::size_t>(e.candidate.fidelity)].name) << ','
        << status_name(e.status);
    for (const auto& k : own.values) csv << ',' << cell(find(e.values, k));
    for (const auto& k : own.keys) csv << ',' << cell(find(e.summary, k));
    csv << ',' << csv_cell(e.reason);
    for (const auto& k : others) csv << ',' << cell(find(e.summary, k));
    csv << '\n';
  }
  close_csv(csv, path);
}

void write_pareto(const Design& design, const SearchResult& result, const std::filesystem::path& path) {
  const Columns own = design_columns(design);
  std::vector<std::string> header{"evaluation", "fidelity"};
  header.insert(header.end(), own.values.begin(), own.values.end());
  header.insert(header.end(), own.keys.begin(), own.keys.end());
  auto csv = open_csv(path, header);
  for (const std::size_t i : result.pareto) {
    const auto& e = result.evaluations[i];
    csv << i << ',' << csv_cell(design.fidelities[static_cast<std::size_t>(e.candidate.fidelity)].name);
    for (const auto& k : own.values) csv << ',' << cell(find(e.values, k));
    for (const auto& k : own.keys) csv << ',' << cell(find(e.summary, k));
    csv << '\n';
  }
  close_csv(csv, path);
}

// Relative data-file names made absolute, so the scenario runs from wherever it is written.
void absolute_data_paths(json& doc, const std::string& source, const std::set<std::string>& opened) {
  if (doc.is_object() || doc.is_array()) {
    for (auto& child : doc) absolute_data_paths(child, source, opened);
  } else if (doc.is_string()) {
    const std::string text = doc.get<std::string>();
    if (text.empty() || std::filesystem::path(text).is_absolute()) return;
    const std::string found = scenario::beside(source, text);
    if (opened.count(found) != 0) doc = std::filesystem::absolute(found).lexically_normal().string();
  }
}

void write_best_scenario(const Design& design, const Evaluation& best, const models::ModelRegistries& registries,
                         const std::filesystem::path& path) {
  const scenario::DataFileLog data_files;
  auto loaded = scenario::load_scenario_file(design.scenario, best.overrides, std::nullopt, registries);
  json doc = loaded.given;
  absolute_data_paths(doc, design.scenario, {data_files.paths().begin(), data_files.paths().end()});
  doc["name"] = fmt::format("{} (best of design '{}')", loaded.name, design.name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << doc.dump(2) << '\n';
  out.close();
  if (!out) throw sim::InputError("cannot write '" + path.string() + "'");
}

void write_sensitivity(const Design& design, const Evaluation& best, const std::vector<Evaluation>& around,
                       const std::filesystem::path& path) {
  const double base = best.objectives.at(0);
  auto csv =
      open_csv(path, {"variable", "value", "best_value", design.objectives[0].key, "change", "status", "reason"});
  for (const auto& e : around) {
    // The variable this neighbour moves: the one whose value differs from the best's.
    for (std::size_t v = 0; v < design.variables.size(); ++v) {
      if (e.candidate.point[v] == best.candidate.point[v]) continue;
      const std::string& var = design.variables[v].path;
      csv << csv_cell(var) << ',' << cell(find(e.values, var)) << ',' << cell(find(best.values, var)) << ',';
      if (!e.objectives.empty()) {
        csv << number_cell(e.objectives[0]) << ','
            << number_cell(base != 0 ? (e.objectives[0] - base) / std::abs(base) : 0.0);
      } else {
        csv << ',';
      }
      csv << ',' << status_name(e.status) << ',' << csv_cell(e.reason) << '\n';
    }
  }
  close_csv(csv, path);
}

}  // namespace

std::vector<std::pair<std::size_t, SearchPoint>> neighbours(const SearchSpace& space, const SearchPoint& point) {
  std::vector<std::pair<std::size_t, SearchPoint>> out;
  for (std::size_t i = 0; i < space.variables.size(); ++i) {
    const auto& v = space.variables[i];
    std::vector<double> moves;
    if (v.kind == Kind::kChoice) {
      for (std::size_t c = 0; c < v.choices; ++c) moves.push_back(static_cast<double>(c));
    } else if (v.kind == Kind::kInteger) {
      moves = {point[i] - v.step, point[i] + v.step};
    } else {
      const double share = v.grid_points >= 2 ? 1.0 / static_cast<double>(v.grid_points - 1) : kContinuousNudge;
      if (v.log_scale) {
        const double factor = std::pow(v.high / v.low, share);
        moves = {point[i] / factor, point[i] * factor};
      } else {
        moves = {point[i] - share * (v.high - v.low), point[i] + share * (v.high - v.low)};
      }
    }
    for (const double m : moves) {
      const double x = v.kind == Kind::kChoice ? m : std::clamp(m, v.low, v.high);
      if (x == point[i]) continue;
      SearchPoint p = point;
      p[i] = x;
      out.emplace_back(i, std::move(p));
    }
  }
  return out;
}

void write_design_outputs(const Design& design, const SearchResult& result, const std::vector<Evaluation>& sensitivity,
                          const models::ModelRegistries& registries, const std::filesystem::path& dir) {
  output::OutputDirectory out(dir);
  {
    const auto path = out.stage(kDesignReport);
    std::ofstream html(path, std::ios::binary | std::ios::trunc);
    html << design_report_html(design, result, base_values(design));
    html.close();
    if (!html) throw sim::InputError("cannot write '" + path.string() + "'");
  }
  write_evaluations(design, result, out.stage(kEvaluationsCsv));
  write_pareto(design, result, out.stage(kParetoCsv));
  if (result.best) {
    const auto& best = result.evaluations[*result.best];
    write_best_scenario(design, best, registries, out.stage(kBestScenario));
    if (!sensitivity.empty()) write_sensitivity(design, best, sensitivity, out.stage(kSensitivityCsv));
  }
  out.commit();
}

}  // namespace dcsim::tools::design
