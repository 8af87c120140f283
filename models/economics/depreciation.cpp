#include "models/economics/depreciation.hpp"

#include <algorithm>
#include <cmath>

#include "models/economics/price_preset.hpp"
#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

std::size_t months_of(double years) { return static_cast<std::size_t>(std::llround(years * 12.0)); }

}  // namespace

void validate(const DepreciationConfig& c, const std::string& prefix) {
  if (!(c.years > 0.0) || !std::isfinite(c.years) || months_of(c.years) < 1) {
    throw sim::ConfigError(prefix + "years", "expected a depreciation period of at least one month, got " +
                                                 format_number(c.years) + " years");
  }
  if (c.method == DepreciationMethod::kDecliningBalance) {
    require_positive(c.declining_factor, prefix + "declining_factor", "factor");
  }
}

void validate(const FinancingConfig& c, const std::string& prefix) {
  if (!(c.years > 0.0) || !std::isfinite(c.years) || months_of(c.years) < 1) {
    throw sim::ConfigError(prefix + "years", "expected a loan term of at least one month, got " + format_number(c.years) +
                                                 " years");
  }
}

std::size_t depreciation_months(const DepreciationConfig& c) { return months_of(c.years); }

std::vector<double> depreciation_schedule_usd(double capex_usd, const DepreciationConfig& c) {
  validate(c, "");
  const std::size_t m_total = depreciation_months(c);
  const double residual = capex_usd * c.residual_fraction;
  const double depreciable = capex_usd - residual;
  std::vector<double> charges(m_total, 0.0);
  double sum = 0.0;  // of the charges so far, in order
  for (std::size_t m = 0; m + 1 < m_total; ++m) {
    double charge = depreciable / static_cast<double>(m_total);
    if (c.method == DepreciationMethod::kDecliningBalance) {
      const double book = capex_usd - sum;
      const double declining = book * c.declining_factor / static_cast<double>(m_total);
      const double straight_rest = (book - residual) / static_cast<double>(m_total - m);
      charge = std::min(std::max(declining, straight_rest), book - residual);
    }
    charges[m] = charge;
    sum += charge;
  }
  charges[m_total - 1] = depreciable - sum;  // ends exactly at the residual
  return charges;
}

double book_value_usd(double capex_usd, const DepreciationConfig& c, double months) {
  if (!(months >= 0.0)) throw sim::InternalError("economics: negative months of depreciation (this is a bug)");
  const std::vector<double> charges = depreciation_schedule_usd(capex_usd, c);
  if (months >= static_cast<double>(charges.size())) return capex_usd * c.residual_fraction;
  const auto whole = static_cast<std::size_t>(std::floor(months));
  double depreciated = 0.0;
  for (std::size_t m = 0; m < whole; ++m) depreciated += charges[m];
  depreciated += (months - static_cast<double>(whole)) * charges[whole];
  return capex_usd - depreciated;
}

std::size_t financing_months(const FinancingConfig& c) { return months_of(c.years); }

double annuity_payment_usd(double principal_usd, const FinancingConfig& c) {
  validate(c, "");
  const double n = static_cast<double>(financing_months(c));
  const double r = c.rate_per_year / 12.0;
  if (r == 0.0) return principal_usd / n;
  return principal_usd * r / (1.0 - std::pow(1.0 + r, -n));
}

double loan_balance_usd(double principal_usd, const FinancingConfig& c, std::size_t payments) {
  if (payments >= financing_months(c)) return 0.0;
  const double payment = annuity_payment_usd(principal_usd, c);
  const double r = c.rate_per_year / 12.0;
  const double k = static_cast<double>(payments);
  if (r == 0.0) return principal_usd - k * payment;
  const double growth = std::pow(1.0 + r, k);
  return principal_usd * growth - payment * (growth - 1.0) / r;
}

}  // namespace dcsim::models::economics
