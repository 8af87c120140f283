#include "models/economics/billing_month.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::models::economics {

std::size_t billing_month_of(sim::Time t) {
  if (t.ns() < 0) throw sim::InternalError("economics: a negative time has no billing month (this is a bug)");
  return static_cast<std::size_t>(t.ns() / kBillingMonthNs);
}

std::size_t billing_months(sim::Time horizon) {
  if (horizon.ns() <= 0) return 0;
  return static_cast<std::size_t>((horizon.ns() - 1) / kBillingMonthNs + 1);
}

double month_fraction_before(std::size_t month, sim::Time horizon) {
  const std::int64_t start = billing_month_start(month).ns();
  const std::int64_t covered = std::clamp<std::int64_t>(horizon.ns() - start, 0, kBillingMonthNs);
  return static_cast<double>(covered) / static_cast<double>(kBillingMonthNs);
}

void MonthlySeries::add_to_month(std::size_t m, double value) {
  if (m >= values_.size()) values_.resize(m + 1, 0.0);
  values_[m] += value;
}

void MonthlySeries::add_at(sim::Time at, double value) { add_to_month(billing_month_of(at), value); }

void MonthlySeries::add_spread(sim::Time start, sim::Time end, double value) {
  if (end < start) throw sim::InternalError("economics: an interval ends before it starts (this is a bug)");
  const std::size_t first = billing_month_of(start);
  if (end == start || billing_month_of(end - sim::Time::from_ns(1)) == first) {
    add_to_month(first, value);
    return;
  }
  const double length_ns = static_cast<double>(end.ns() - start.ns());
  for_each_month_piece(start, end, [&](std::size_t m, sim::Time from, sim::Time to) {
    add_to_month(m, value * (static_cast<double>(to.ns() - from.ns()) / length_ns));
  });
}

double MonthlySeries::total() const {
  double sum = 0.0;
  for (double v : values_) sum += v;
  return sum;
}

std::vector<double> MonthlySeries::values(std::size_t months) const {
  std::vector<double> out(months, 0.0);
  std::copy_n(values_.begin(), std::min(months, values_.size()), out.begin());
  return out;
}

}  // namespace dcsim::models::economics
