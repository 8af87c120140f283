#pragma once
// What `dcsim calibrate` writes: the profile a scenario names (`"software": {"profile": FILE}`),
//
//   {"software": {"stack": "nemo-25.02", "params": {"gemm_sustained_fraction": 0.64, ...}},
//    "calibration": {"stack": ..., "parameters": [{"name", "base", "fitted", "at_bound"}],
//                    "measurements": [{"file", "what", "points", "measured_s", "predicted_s",
//                                      "base_error", "error", "loo_error" | "loo_note"}],
//                    "base_rms_error", "rms_error", "iterations"}}
//
// and the same as a table for people (errors as predicted / measured - 1, RMS over a file's
// points; leave-one-out: the file predicted by a fit to the others).

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/calibrate/stack_fit.hpp"

namespace dcsim::tools::calibrate {

nlohmann::json profile_json(const std::string& stack_name, const models::workload::SoftwareStack& base,
                            const FitResult& fit);

void print_calibration(std::ostream& out, const std::string& stack_name, const FitResult& fit);

}  // namespace dcsim::tools::calibrate
