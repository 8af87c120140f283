// The page's first section: what run this is (scenario, seed, overrides, version, when) and the
// headline results, the same lines `dcsim run` prints (headline.hpp).

#include <fmt/format.h>

#include "tools/report/headline.hpp"
#include "tools/report/html_escape.hpp"
#include "tools/report/report_sections.hpp"

namespace dcsim::tools::report {

ReportSection headline_section(const RunData& run) {
  ReportSection s{"headline", "Headline", "", ""};
  const auto& t = run.trace;
  const std::uint64_t seed =
      t.meta_uint64("seed").value_or(run.summary.value("seed", std::uint64_t{0}));
  std::string rows;
  const auto row = [&](const std::string& label, const std::string& text) {
    if (!text.empty())
      rows +=
          fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", html_escape(label), html_escape(text));
  };
  row("scenario", t.meta_string("scenario_name"));
  row("description", run.resolved.value("description", ""));
  row("source", t.meta_string("source"));
  row("seed", std::to_string(seed));
  std::string overrides;
  for (const auto& o : t.meta_strings("overrides"))
    overrides += (overrides.empty() ? "" : ", ") + o;
  row("overrides", overrides.empty() ? "none" : overrides);
  row("simulated", run.end_s >= 60 ? hours_text(run.end_s) : short_time_text(run.end_s));
  const auto wall = t.meta_double("wall_time_s");
  row("run", fmt::format("started {}{} by dcsim {}", t.meta_string("started_at"),
                         wall ? fmt::format(", {:.3f} s of wall time", *wall) : std::string(),
                         t.meta_string("dcsim_version")));
  s.html += "<table class=\"meta\">\n" + rows + "</table>\n";

  const HeadlineFacts facts = headline_facts_from_resolved(run.resolved, seed);
  std::string lines;
  for (const auto& l : headline_lines(facts, run.summary)) {
    lines +=
        fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", html_escape(l.label), html_escape(l.text));
  }
  if (!lines.empty())
    s.html += "<h3>Results</h3>\n<table class=\"headline\">\n" + lines + "</table>\n";
  return s;
}

}  // namespace dcsim::tools::report
