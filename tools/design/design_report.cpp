#include "tools/design/design_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/report/html_escape.hpp"
#include "tools/report/html_page.hpp"
#include "tools/report/svg_line_chart.hpp"
#include "tools/scenario/input_reader.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/spec_path.hpp"

namespace dcsim::tools::design {

namespace {

using nlohmann::json;
using report::html_escape;

// Runners-up listed in each of the two tables.
constexpr std::size_t kRunnersUp = 10;

std::string value_text(const json& v) {
  return v.is_null() ? "(default)" : v.is_string() ? v.get<std::string>() : v.dump();
}

std::string number_text(double v) { return fmt::format("{:.6g}", v); }

std::string values_text(const Evaluation& e, const Design& design) {
  std::string out;
  for (std::size_t i = 0; i < design.variables.size() && i < e.values.size(); ++i) {
    out += (out.empty() ? "" : ", ") + e.values[i].first + " = " + value_text(e.values[i].second);
  }
  return out;
}

std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::string html = "<table><thead><tr>";
  for (const auto& h : header) html += "<th>" + html_escape(h) + "</th>";
  html += "</tr></thead><tbody>";
  for (const auto& row : rows) {
    html += "<tr>";
    for (const auto& cell : row) html += "<td>" + html_escape(cell) + "</td>";
    html += "</tr>";
  }
  return html + "</tbody></table>";
}

// The chart: the best so far (one objective) or the front of the first two.
std::string chart(const Design& design, const SearchResult& result) {
  report::LineChart c;
  if (design.objectives.size() == 1) {
    const auto& o = design.objectives[0];
    c.title = "best feasible " + o.key + " after each evaluation";
    c.x_label = "evaluations";
    c.y_label = o.key;
    c.y_from_zero = false;
    report::ChartLine line;
    line.name = "best so far";
    double best = std::nan("");
    for (std::size_t i = 0; i < result.evaluations.size(); ++i) {
      const auto& e = result.evaluations[i];
      if (e.feasible() && (std::isnan(best) || (o.maximize ? e.objectives[0] > best : e.objectives[0] < best))) {
        best = e.objectives[0];
      }
      line.points.push_back({static_cast<double>(i + 1), best});
    }
    line.hold_until = static_cast<double>(result.evaluations.size());
    c.lines.push_back(std::move(line));
  } else {
    c.title = "Pareto front: " + design.objectives[1].key + " against " + design.objectives[0].key;
    c.x_label = design.objectives[0].key;
    c.y_label = design.objectives[1].key;
    c.y_from_zero = false;
    report::ChartLine line;
    line.name = "non-dominated designs";
    line.step = false;
    for (const std::size_t i : result.pareto) {
      const auto& e = result.evaluations[i];
      line.points.push_back({e.objectives[0], e.objectives[1]});
    }
    std::sort(line.points.begin(), line.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
    c.lines.push_back(std::move(line));
  }
  return report::svg_line_chart(c);
}

// Feasible evaluations at the front's fidelity, best first by the first objective.
std::vector<std::size_t> ranked(const Design& design, const SearchResult& result) {
  std::vector<std::size_t> out;
  const int fidelity = result.pareto.empty() ? -1 : result.evaluations[result.pareto.front()].candidate.fidelity;
  for (std::size_t i = 0; i < result.evaluations.size(); ++i) {
    const auto& e = result.evaluations[i];
    if (e.feasible() && e.candidate.fidelity == fidelity) out.push_back(i);
  }
  const bool max = design.objectives[0].maximize;
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
    const double x = result.evaluations[a].objectives[0], y = result.evaluations[b].objectives[0];
    return max ? x > y : x < y;
  });
  return out;
}

}  // namespace

std::vector<std::pair<std::string, json>> base_values(const Design& design) {
  json doc = scenario::read_json_file(design.scenario, "the base scenario");
  for (const auto& s : design.sets) scenario::apply_override(doc, s);
  std::vector<std::pair<std::string, json>> out;
  std::vector<std::string> paths;
  for (const auto& v : design.variables) paths.push_back(v.path);
  for (const auto& c : design.couplings) paths.push_back(c.path);
  for (const auto& path : paths) {
    const json* at = &doc;
    for (const auto& seg : scenario::split_path(path)) {
      if (at->is_object() && at->contains(seg)) {
        at = &at->at(seg);
      } else if (at->is_array() && !seg.empty() && std::all_of(seg.begin(), seg.end(), ::isdigit) &&
                 std::stoul(seg) < at->size()) {
        at = &(*at)[std::stoul(seg)];
      } else {
        at = nullptr;
        break;
      }
    }
    out.emplace_back(path, at == nullptr ? json() : *at);
  }
  return out;
}

std::string design_report_html(const Design& design, const SearchResult& result,
                               const std::vector<std::pair<std::string, json>>& base) {
  report::ReportPage page;
  page.title = "design search: " + design.name;
  page.subtitle = design.description.empty() ? design.scenario : design.description;
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& e : result.evaluations) ++counts[static_cast<int>(e.status)];

  std::string head = fmt::format(
      "<p>Strategy <b>{}</b>: {} evaluations ({} feasible, {} infeasible, {} pruned before running, {} failed) "
      "of {} variables and {} couplings over <code>{}</code>.</p>",
      html_escape(design.strategy), result.evaluations.size(), counts[0], counts[1], counts[2], counts[3],
      design.variables.size(), design.couplings.size(), html_escape(design.scenario));
  if (result.best) {
    const auto& b = result.evaluations[*result.best];
    head += fmt::format("<p>Best: <b>{} = {}</b> with {}.</p>", html_escape(design.objectives[0].key),
                        number_text(b.objectives[0]), html_escape(values_text(b, design)));
  } else if (!result.pareto.empty()) {
    head += fmt::format("<p>The Pareto front holds {} designs (pareto.csv).</p>", result.pareto.size());
  } else {
    head += "<p>No candidate met the constraints; the runners-up below say by how much each missed.</p>";
  }
  page.sections.push_back({"search", "The search", head, ""});
  page.sections.push_back({"chart", design.objectives.size() == 1 ? "Best so far" : "Pareto front",
                           result.pareto.empty() ? "" : chart(design, result),
                           result.pareto.empty() ? "no feasible design" : ""});

  if (result.best || !result.pareto.empty()) {
    const auto& b = result.evaluations[result.best ? *result.best : result.pareto.front()];
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < b.values.size() && i < base.size(); ++i) {
      rows.push_back({b.values[i].first, value_text(base[i].second), value_text(b.values[i].second)});
    }
    page.sections.push_back(
        {"best", "The best design beside the base scenario",
         table({"path", "base scenario", "best design"}, rows) +
             "<p>best-scenario.json holds it as a scenario; sensitivity.csv moves each variable one "
             "step.</p>",
         ""});
  }

  // Why the runners-up lost.
  const auto order = ranked(design, result);
  std::vector<std::vector<std::string>> behind;
  for (std::size_t k = 1; k < order.size() && behind.size() < kRunnersUp; ++k) {
    const auto& e = result.evaluations[order[k]];
    const double best = result.evaluations[order[0]].objectives[0];
    const double gap = best != 0 ? (e.objectives[0] - best) / std::abs(best) : 0.0;
    behind.push_back({std::to_string(order[k]), values_text(e, design), number_text(e.objectives[0]),
                      fmt::format("{:+.2f}%", 100.0 * gap)});
  }
  std::vector<const Evaluation*> missed;
  for (const auto& e : result.evaluations) {
    if (!e.feasible()) missed.push_back(&e);
  }
  std::stable_sort(missed.begin(), missed.end(), [](const Evaluation* a, const Evaluation* b) {
    const double x = a->status == EvaluationStatus::kFailed ? std::numeric_limits<double>::max() : a->violation;
    const double y = b->status == EvaluationStatus::kFailed ? std::numeric_limits<double>::max() : b->violation;
    return x < y;
  });
  std::vector<std::vector<std::string>> lost;
  for (std::size_t k = 0; k < missed.size() && k < kRunnersUp; ++k) {
    lost.push_back({values_text(*missed[k], design), status_name(missed[k]->status), missed[k]->reason});
  }
  page.sections.push_back({"runners-up", "Why the runners-up lost",
                           "<p>The next-best feasible designs, and how far behind the best they are:</p>" +
                               table({"evaluation", "values", design.objectives[0].key, "behind the best"}, behind) +
                               "<p>The candidates nearest to meeting the constraints, and what each missed:</p>" +
                               table({"values", "status", "reason"}, lost),
                           ""});
  return report::html_page(page);
}

}  // namespace dcsim::tools::design
