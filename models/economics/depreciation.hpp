#pragma once
// Depreciation and financing of capital, month by month.
//
// Depreciation over M = round(12 x years) months of a capex C down to a residual R = C x
// residual_fraction (D = C - R is what is depreciated):
//  - straight line: D / M a month. The last month takes D minus the sum of the others, so the
//    schedule summed in order is exactly D (the subtraction is exact: the others sum to at least
//    D / 2 whenever M >= 2, Sterbenz).
//  - declining balance: each month the larger of book value x factor / M (factor 2: double
//    declining) and the straight line over the months left down to R; the last month ends
//    exactly at R the same way.
// Book value after x months (x may be fractional) = C - charges of the whole months - the
// fraction of the next month's charge; R from month M on.
//
// Financing: an annuity over N = round(12 x years) monthly payments at rate r = rate_per_year / 12:
//   payment = P r / (1 - (1 + r)^-N)   (P / N when r = 0),
//   balance after k payments = P (1 + r)^k - payment ((1 + r)^k - 1) / r   (P - k payment).

#include <cstddef>
#include <string>
#include <vector>

namespace dcsim::models::economics {

enum class DepreciationMethod { kStraightLine, kDecliningBalance };

struct DepreciationConfig {
  DepreciationMethod method = DepreciationMethod::kStraightLine;
  // Server lives in filings (public-figures.md, Costs, P): Microsoft, Alphabet, CoreWeave 6 years;
  // Meta 5.5; Amazon 5 for part of its fleet (2025); Nebius 4. Amazon's 2025 shortening, the most
  // recent change, for GPU servers.
  double years = 5.0;
  double residual_fraction = 0.0;  // of capex, left at the end of the period
  double declining_factor = 2.0;   // declining balance: 2 = double declining
};

struct FinancingConfig {
  double rate_per_year = 0.0;  // nominal annual rate, compounded monthly
  double years = 0.0;
};

// sim::ConfigError naming the field (prefix + "years": "expected a depreciation period of at least
// one month, got 0"; "declining_factor"). A single key's range (residual_fraction in [0, 1], a
// non-negative rate) is the scenario spec's (tools/scenario/economics_spec.cpp).
void validate(const DepreciationConfig& config, const std::string& prefix);
// sim::ConfigError naming prefix + "years".
void validate(const FinancingConfig& config, const std::string& prefix);

std::size_t depreciation_months(const DepreciationConfig& config);
// The charge of each month, depreciation_months() entries, summing to capex x (1 - residual).
std::vector<double> depreciation_schedule_usd(double capex_usd, const DepreciationConfig& config);
// Book value after `months` months (>= 0; fractional months pro rata).
double book_value_usd(double capex_usd, const DepreciationConfig& config, double months);

std::size_t financing_months(const FinancingConfig& config);
double annuity_payment_usd(double principal_usd, const FinancingConfig& config);
// What is still owed after `payments` monthly payments (0 once all are made).
double loan_balance_usd(double principal_usd, const FinancingConfig& config, std::size_t payments);

}  // namespace dcsim::models::economics
