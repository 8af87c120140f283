#pragma once
// Billing months and per-month accumulation, the time grid of every cost series.
//
// A simulation has no calendar: time 0 is the start of billing month 0, and a billing month is
// the mean Gregorian month, 365.25 d / 12 = 30.4375 d = 2,629,800 s exactly (an integer number
// of nanoseconds, so month boundaries are exact). Cloud egress tiers and flat monthly fees apply
// per billing month; a horizon that ends inside a month bills that month's flat fees pro rata.
//
// MonthlySeries keeps one double per month, grown on demand: memory grows with the months a
// run spans, never with the number of calls. add_at is O(1) amortised; add_spread is
// O(1 + months the interval crosses).

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::economics {

inline constexpr std::int64_t kBillingMonthNs = 2'629'800LL * 1'000'000'000LL;
inline constexpr double kBillingMonthS = 2'629'800.0;
inline constexpr double kBillingMonthHours = kBillingMonthS / 3600.0;  // 730.5 h
inline constexpr double kMonthsPerYear = 12.0;

inline constexpr sim::Time billing_month_start(std::size_t month) {
  return sim::Time::from_ns(static_cast<std::int64_t>(month) * kBillingMonthNs);
}

// The month an instant falls in (t >= 0; the month starting exactly at t for a boundary).
std::size_t billing_month_of(sim::Time t);

// Months a horizon covers, counting a final partial month (at least 1 for a positive horizon;
// 0 for a zero horizon).
std::size_t billing_months(sim::Time horizon);

// The fraction of month `month` that lies before `horizon`, in [0, 1].
double month_fraction_before(std::size_t month, sim::Time horizon);

// Calls f(month, from, to) for each piece [from, to) of [start, end) inside one month, in order
// (nothing for an empty interval). O(months crossed).
template <class F>
void for_each_month_piece(sim::Time start, sim::Time end, F&& f) {
  std::size_t m = billing_month_of(start);
  for (sim::Time from = start; from < end; ++m) {
    const sim::Time to = std::min(end, billing_month_start(m + 1));
    f(m, from, to);
    from = to;
  }
}

class MonthlySeries {
 public:
  // Adds `value` to the month `at` falls in.
  void add_at(sim::Time at, double value);
  // Spreads `value` uniformly over [start, end): each month gets the share of the interval it
  // overlaps. A zero-length interval adds everything to the month of `start`.
  void add_spread(sim::Time start, sim::Time end, double value);
  void add_to_month(std::size_t month, double value);

  // 0 for a month nothing was added to.
  double month(std::size_t m) const { return m < values_.size() ? values_[m] : 0.0; }
  // Months with an entry (the last month added to, plus one).
  std::size_t size() const { return values_.size(); }
  double total() const;
  // The first `months` values, zero-padded.
  std::vector<double> values(std::size_t months) const;

 private:
  std::vector<double> values_;
};

}  // namespace dcsim::models::economics
