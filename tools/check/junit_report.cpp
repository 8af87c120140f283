#include "tools/check/junit_report.hpp"

#include <map>

#include <fmt/format.h>

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

void write_junit(std::ostream& out, const std::string& name, const std::vector<RunTime>& runs,
                 const std::vector<Verdict>& verdicts) {
  std::map<std::string, std::pair<int, int>> counts;  // tests (the run and its checks), failures
  std::map<std::string, double> seconds;
  int tests = 0, failures = 0;
  double total_s = 0.0;
  for (const auto& r : runs) {
    counts[r.run] = {1, 0};
    ++tests;
    seconds[r.run] = r.wall_s;
    total_s += r.wall_s;
  }
  for (const auto& v : verdicts) {
    ++counts[v.run].first;
    ++tests;
    seconds[v.run] += v.time_s;
    total_s += v.time_s;
    if (!v.passed) {
      ++counts[v.run].second;
      ++failures;
    }
  }
  const auto time = [](double s) { return fmt::format("{:.3f}", s); };
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"" << xml_escape(name) << "\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" time=\"" << time(total_s) << "\">\n";
  for (const auto& run : runs) {
    out << "  <testsuite name=\"" << xml_escape(run.run) << "\" tests=\"" << counts[run.run].first
        << "\" failures=\"" << counts[run.run].second << "\" time=\"" << time(seconds[run.run]) << "\">\n";
    out << "    <testcase classname=\"" << xml_escape(run.run) << "\" name=\"run " << xml_escape(run.scenario)
        << "\" time=\"" << time(run.wall_s) << "\"/>\n";
    for (const auto& v : verdicts) {
      if (v.run != run.run) continue;
      out << "    <testcase classname=\"" << xml_escape(v.run) << "\" name=\"" << xml_escape(v.check) << "\" time=\""
          << time(v.time_s) << "\"";
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
