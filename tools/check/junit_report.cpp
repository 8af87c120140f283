#include "tools/check/junit_report.hpp"

#include <map>

namespace dcsim::tools::check {

namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

void write_junit(std::ostream& out, const std::string& name, const std::vector<Verdict>& verdicts) {
  // Runs in the order they first appear.
  std::vector<std::string> runs;
  std::map<std::string, std::pair<int, int>> counts;  // tests, failures
  int failures = 0;
  for (const auto& v : verdicts) {
    if (counts.count(v.run) == 0) runs.push_back(v.run);
    ++counts[v.run].first;
    if (!v.passed) {
      ++counts[v.run].second;
      ++failures;
    }
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"" << xml_escape(name) << "\" tests=\"" << verdicts.size() << "\" failures=\"" << failures
      << "\">\n";
  for (const auto& run : runs) {
    out << "  <testsuite name=\"" << xml_escape(run) << "\" tests=\"" << counts[run].first << "\" failures=\""
        << counts[run].second << "\">\n";
    for (const auto& v : verdicts) {
      if (v.run != run) continue;
      out << "    <testcase classname=\"" << xml_escape(run) << "\" name=\"" << xml_escape(v.check) << "\"";
      if (v.passed) {
        out << "/>\n";
        continue;
      }
      const std::string message = "got " + v.value + ", expected " + v.limit + ": " + v.detail;
      out << ">\n      <failure message=\"" << xml_escape(message) << "\">" << xml_escape(message)
          << "</failure>\n    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace dcsim::tools::check
