#include "tools/calibrate/training_log_reader.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "sim/error.hpp"

namespace dcsim::tools::calibrate {

namespace {

// The number right after `marker` (spaces, ':' or '=' between), if any and positive.
bool number_after(const std::string& line, const std::string& marker, double& out) {
  const auto at = line.find(marker);
  if (at == std::string::npos) return false;
  std::size_t i = at + marker.size();
  while (i < line.size() && (line[i] == ' ' || line[i] == ':' || line[i] == '=')) ++i;
  std::size_t used = 0;
  try {
    out = std::stod(line.substr(i), &used);
  } catch (const std::exception&) {
    return false;
  }
  return used > 0 && std::isfinite(out) && out > 0.0;
}

}  // namespace

StepTimes read_step_times(std::istream& in, const std::string& display) {
  StepTimes out;
  std::string line;
  while (std::getline(in, line)) {
    double v = 0.0;
    if ((out.format.empty() || out.format == "megatron") && number_after(line, "elapsed time per iteration (ms)", v)) {
      out.format = "megatron";
      out.seconds.push_back(v / 1e3);
    } else if ((out.format.empty() || out.format == "nemo") && number_after(line, "train_step_timing in s", v)) {
      out.format = "nemo";
      out.seconds.push_back(v);
    } else if ((out.format.empty() || out.format == "nemo") && number_after(line, "train_step_timing", v)) {
      out.format = "nemo";
      out.seconds.push_back(v);
    } else if ((out.format.empty() || out.format == "mlperf") && line.find(":::MLLOG") != std::string::npos) {
      const auto brace = line.find('{');
      if (brace == std::string::npos) continue;
      const auto record = nlohmann::json::parse(line.substr(brace), nullptr, false);
      if (record.is_discarded() || record.value("key", "") != "tracked_stats") continue;
      const auto* value = record.contains("value") ? &record["value"] : nullptr;
      if (value == nullptr || !value->is_object() || !value->contains("throughput") ||
          !(*value)["throughput"].is_number()) {
        continue;
      }
      const double throughput = (*value)["throughput"].get<double>();
      if (!(throughput > 0.0) || !std::isfinite(throughput)) continue;
      out.format = "mlperf";
      out.samples_per_s.push_back(throughput);
    }
  }
  if (out.format.empty()) {
    throw sim::InputError(display +
                          ": no step times found: expected Megatron-LM's 'elapsed time per iteration (ms): X', "
                          "NeMo's 'train_step_timing in s: X' or MLPerf's ':::MLLOG' tracked_stats throughput");
  }
  return out;
}

double steady_step_s(const std::vector<double>& seconds, int skip, const std::string& display) {
  if (skip < 0 || static_cast<std::size_t>(skip) >= seconds.size()) {
    throw sim::InputError(display + ": " + std::to_string(seconds.size()) + " iterations logged, " +
                          std::to_string(skip) + " skipped as warm-up: nothing left to measure");
  }
  std::vector<double> steady(seconds.begin() + skip, seconds.end());
  const auto mid = steady.begin() + static_cast<std::ptrdiff_t>(steady.size() / 2);
  std::nth_element(steady.begin(), mid, steady.end());
  if (steady.size() % 2 == 1) return *mid;
  const double upper = *mid;
  const double lower = *std::max_element(steady.begin(), mid);
  return (lower + upper) / 2.0;
}

}  // namespace dcsim::tools::calibrate
