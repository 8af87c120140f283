#include "models/economics/cost_series.hpp"

#include "sim/error.hpp"

namespace dcsim::models::economics {

std::vector<double> cumulative(const std::vector<double>& monthly) {
  std::vector<double> out(monthly.size());
  double sum = 0.0;
  for (std::size_t m = 0; m < monthly.size(); ++m) out[m] = sum += monthly[m];
  return out;
}

std::optional<std::size_t> break_even_month(const std::vector<double>& own, const std::vector<double>& rent) {
  if (own.size() != rent.size()) throw sim::InternalError("economics: series of different lengths (this is a bug)");
  for (std::size_t m = 0; m < own.size(); ++m) {
    if (own[m] < rent[m]) return m + 1;
  }
  return std::nullopt;
}

UnitCosts unit_costs(double total_usd, double gpu_hours, double tokens, double flops) {
  UnitCosts u;
  if (gpu_hours > 0.0) u.usd_per_gpu_hour = total_usd / gpu_hours;
  if (tokens > 0.0) u.usd_per_million_tokens = total_usd / tokens * 1e6;
  if (flops > 0.0) u.usd_per_pflop = total_usd / (flops / 1e15);
  return u;
}

}  // namespace dcsim::models::economics
