#pragma once
// JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one testsuite per run, one
// testcase per check, a <failure> with the value, the limit and the margin for each that failed.

#include <ostream>
#include <string>
#include <vector>

#include "tools/check/check_verdict.hpp"

namespace dcsim::tools::check {

void write_junit(std::ostream& out, const std::string& name, const std::vector<Verdict>& verdicts);

}  // namespace dcsim::tools::check
