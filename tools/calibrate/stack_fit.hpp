#pragma once
// Fits a software stack's parameters (models/workload/software_stack.hpp) to measurements
// (measurement.hpp): least squares on the relative error, Levenberg-Marquardt on Eigen.
//
//   residual of point i   w_i ln(predicted_i / measured_i),  w_i = 1 / sqrt(points of its file)
//
// so every file weighs the same however many sizes or iterations it holds, and a 2x error counts
// alike above and below. Each parameter moves within its physical range (an efficiency in
// (0, 1], a duration >= 0, a latency scale > 0), scaled to its typical size; the Jacobian is taken
// by finite differences of dcsim's own predictions, so the fit sees exactly the mechanisms a run
// uses (NCCL's protocol and algorithm choice included).
//
// A fit the data cannot determine is refused, naming the parameter: one that moves no prediction,
// or a set the predictions move together (the smallest singular value of the column-normalised
// Jacobian under 1e-3 of the largest; the parameters that weigh in its singular vector are named).
//
// Leave-one-out: each file is predicted by a fit to the others (from the same start), which is
// the error a user should expect on a run they held back.

#include <optional>
#include <string>
#include <vector>

#include "models/workload/software_stack.hpp"
#include "tools/calibrate/measurement.hpp"

namespace dcsim::tools::calibrate {

struct FitOptions {
  // Parameters to fit; empty: every parameter that moves a prediction.
  std::vector<std::string> fit;
  // Fit nothing: the stack's errors on the measurements (a held-back run, a profile's check).
  bool evaluate_only = false;
  int max_iterations = 100;
};

struct FittedParameter {
  std::string name;
  double base = 0.0;
  double fitted = 0.0;
  bool at_bound = false;  // the fit pressed against the parameter's physical range
};

struct FileResult {
  std::string file;
  std::string what;
  int points = 0;
  double measured_s = 0.0;        // one point: its value; several: the first
  double base_predicted_s = 0.0;  // same point, under the stack before fitting
  double predicted_s = 0.0;       // after fitting
  // predicted / measured - 1 of the file's point; with several points, its RMS over them.
  double base_error = 0.0;
  double error = 0.0;
  std::optional<double> loo_error;  // fitted without this file
  std::string loo_note;             // why there is none
};

struct FitResult {
  models::workload::SoftwareStack stack;
  std::vector<FittedParameter> parameters;
  std::vector<FileResult> files;
  double base_rms_error = 0.0;  // over all files (each weighing the same)
  double rms_error = 0.0;
  int iterations = 0;
};

// Throws sim::InputError naming the parameter(s) when the measurements cannot determine the fit,
// a name that is not a stack parameter, or no measurement.
FitResult fit_stack(const models::workload::SoftwareStack& base, const std::vector<Measurement>& measurements,
                    const FitOptions& options);

}  // namespace dcsim::tools::calibrate
