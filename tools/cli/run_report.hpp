#pragma once
// The headline results `dcsim run` prints: a few lines a person reads, from summary.json's data.

#include <string>

#include "tools/run/run_scenario.hpp"

namespace dcsim::tools::cli {

std::string headline_report(const scenario::Scenario& scenario, const run::RunOutputs& outputs);

}  // namespace dcsim::tools::cli
