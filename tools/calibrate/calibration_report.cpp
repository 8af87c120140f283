#include "tools/calibrate/calibration_report.hpp"

#include <fmt/format.h>

#include "tools/scenario/software_spec.hpp"

namespace dcsim::tools::calibrate {

using nlohmann::json;

namespace {

std::string percent(double error) { return fmt::format("{:+.1f}%", 100.0 * error); }

}  // namespace

json profile_json(const std::string& stack_name, const models::workload::SoftwareStack& base, const FitResult& fit) {
  json parameters = json::array();
  for (const auto& p : fit.parameters) {
    parameters.push_back({{"name", p.name}, {"base", p.base}, {"fitted", p.fitted}, {"at_bound", p.at_bound}});
  }
  json measurements = json::array();
  for (const auto& f : fit.files) {
    json m = {{"file", f.file},
              {"what", f.what},
              {"points", f.points},
              {"measured_s", f.measured_s},
              {"predicted_s", f.predicted_s},
              {"base_predicted_s", f.base_predicted_s},
              {"base_error", f.base_error},
              {"error", f.error}};
    if (f.loo_error) {
      m["loo_error"] = *f.loo_error;
    } else {
      m["loo_note"] = f.loo_note;
    }
    measurements.push_back(std::move(m));
  }
  return {{"software", scenario::software_object(stack_name, fit.stack, base)},
          {"calibration",
           {{"stack", stack_name},
            {"parameters", parameters},
            {"measurements", measurements},
            {"base_rms_error", fit.base_rms_error},
            {"rms_error", fit.rms_error},
            {"iterations", fit.iterations}}}};
}

void print_calibration(std::ostream& out, const std::string& stack_name, const FitResult& fit) {
  if (fit.parameters.empty()) {
    out << fmt::format("checked {} on {} measurement file{}: RMS error {:.1f}%\n", stack_name, fit.files.size(),
                       fit.files.size() == 1 ? "" : "s", 100.0 * fit.base_rms_error);
  } else {
    out << fmt::format("calibrated {} in {} iterations: RMS error {:.1f}% before, {:.1f}% after\n", stack_name,
                       fit.iterations, 100.0 * fit.base_rms_error, 100.0 * fit.rms_error);
    out << "\nparameter                      base          fitted\n";
    for (const auto& p : fit.parameters) {
      out << fmt::format("{:<28} {:>12.6g}  {:>12.6g}{}\n", p.name, p.base, p.fitted,
                         p.at_bound ? "  (at its bound)" : "");
    }
  }
  out << "\nmeasurement (predicted / measured - 1)                       before    after  held out\n";
  for (const auto& f : fit.files) {
    const std::string held = f.loo_error ? percent(*f.loo_error) : "n/a";
    out << fmt::format("{:<58} {:>8} {:>8} {:>9}\n", f.file, percent(f.base_error), percent(f.error), held);
    out << fmt::format("  {}", f.what);
    if (f.points == 1) out << fmt::format(": measured {:.4g} s, predicted {:.4g} s", f.measured_s, f.predicted_s);
    out << "\n";
    if (!f.loo_error) out << "  held out: " << f.loo_note << "\n";
  }
}

}  // namespace dcsim::tools::calibrate
