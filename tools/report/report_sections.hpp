#pragma once
// The sections of `dcsim report`'s page, one builder each. A builder returns a section with its
// charts and tables, or with `absent` set to why the run has nothing to show there.

#include "tools/report/html_page.hpp"
#include "tools/report/run_data.hpp"

namespace dcsim::tools::report {

ReportSection headline_section(const RunData& run);      // report_headline_section.cpp
ReportSection power_section(const RunData& run);         // power_sections.cpp
ReportSection temperature_section(const RunData& run);   // power_sections.cpp
ReportSection job_timeline_section(const RunData& run);  // job_sections.cpp
ReportSection throughput_section(const RunData& run);    // job_sections.cpp
ReportSection inference_section(const RunData& run);     // inference_section.cpp
ReportSection link_section(const RunData& run);          // link_section.cpp
ReportSection cost_section(const RunData& run);          // cost_section.cpp

// Shared by the builders: a line chart of the given series (those present; at most
// kMaxLinesPerPlot), "" when none is present.
struct SeriesPick {
  std::string path;
  std::string name;
};
// With Reduction::kStepMean, a series too long for the plot is drawn as its mean per stretch of
// the run, and a note under the chart says so.
std::string series_chart(const RunData& run, const std::string& title, const std::string& what,
                         const std::vector<SeriesPick>& picks, bool y_from_zero = true,
                         Reduction reduction = Reduction::kEnvelope);

// The series under `prefix` whose path ends with `suffix` ("power/rack/", "_w"), in name order.
std::vector<std::string> series_matching(const RunData& run, const std::string& prefix,
                                         const std::string& suffix);

// "<p class="note">text</p>" with text escaped.
std::string note_html(const std::string& text);

// The inference services' names (/inference/services of the resolved scenario), in its order.
std::vector<std::string> service_names(const RunData& run);

}  // namespace dcsim::tools::report
