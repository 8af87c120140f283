#pragma once
// JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one testsuite per run, whose
// first testcase is the run itself ("run", with its wall time: building, simulating and writing
// the outputs) and then one testcase per check, each with the time judging it took; a <failure>
// with the value, the limit and the margin for each check that failed. Reporters that add up
// their testcases' times (GitLab does) so show where a gate's time went.

#include <ostream>
#include <string>
#include <vector>

#include "tools/check/check_verdict.hpp"

namespace dcsim::tools::check {

struct RunTime {
  std::string run;        // the run's name
  std::string scenario;   // its scenario file, as the testcase's name says it
  double wall_s = 0.0;    // building, simulating, writing
};

// `runs` in order; every verdict's run is one of them.
void write_junit(std::ostream& out, const std::string& name, const std::vector<RunTime>& runs,
                 const std::vector<Verdict>& verdicts);

}  // namespace dcsim::tools::check
