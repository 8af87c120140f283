#pragma once
// The report page: one self-contained HTML document (styles and the small hover script inline,
// plots as inline SVG, nothing fetched from anywhere), with a section per topic. A section the
// run has no data for is left out, replaced by a one-line note saying why.

#include <string>
#include <vector>

namespace dcsim::tools::report {

struct ReportSection {
  std::string id;     // the element id and data-section value: "power", "costs"
  std::string title;  // plain text
  std::string html;   // the body: markup built by the section builders (text already escaped)
  // Non-empty: the section has no data in this run; the page shows "<title>: <absent>" instead.
  std::string absent;
};

struct ReportPage {
  std::string title;     // plain text (the scenario name)
  std::string subtitle;  // plain text
  std::vector<ReportSection> sections;
};

std::string html_page(const ReportPage& page);

}  // namespace dcsim::tools::report
