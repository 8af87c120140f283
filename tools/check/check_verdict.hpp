#pragma once
// Judging one run's summary against its checks (expectations.hpp): each verdict with the value
// found, the limit, and by how much it passed or failed, for the table `dcsim check` prints and
// its JUnit XML.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/check/expectations.hpp"

namespace dcsim::tools::check {

struct Verdict {
  std::string run;
  std::string check;   // "network/fct_p99_s <= 0.03", "fingerprint", ...
  std::string value;   // what the run gave
  std::string limit;   // what was expected
  bool passed = false;
  std::string detail;  // "by 12% (0.0036 under the limit)", "no such value in the summary", ...
  double time_s = 0.0; // judging it (the run's own time is the JUnit "run" testcase's)
};

// `summary` is what the run's summary.json holds.
std::vector<Verdict> judge(const RunExpectation& run, const nlohmann::json& summary);

}  // namespace dcsim::tools::check
