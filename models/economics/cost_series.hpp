#pragma once
// Monthly cost series, break-even and unit costs.
//
// A series holds one value per billing month; cumulative[m] is the total at the end of month m
// (month numbers in reports are 1-based: cumulative[0] is "month 1").
// Break-even month: the first month (1-based) whose end finds owning's cumulative cost below
// renting's for the same delivered GPU-hours; none ("never") when that never happens within the
// series. Unit costs divide a total by what was delivered; none when nothing was.

#include <cstddef>
#include <optional>
#include <vector>

namespace dcsim::models::economics {

std::vector<double> cumulative(const std::vector<double>& monthly);

// Both series must have the same length (InternalError otherwise).
std::optional<std::size_t> break_even_month(const std::vector<double>& own_cumulative,
                                            const std::vector<double>& rent_cumulative);

struct UnitCosts {
  std::optional<double> usd_per_gpu_hour;
  std::optional<double> usd_per_million_tokens;
  std::optional<double> usd_per_pflop;  // per 1e15 floating-point operations
};

UnitCosts unit_costs(double total_usd, double delivered_gpu_hours, double tokens, double flops);

}  // namespace dcsim::models::economics
