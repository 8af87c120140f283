// Depreciation schedules and loan annuities.

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "economics_test_support.hpp"
#include "models/economics/depreciation.hpp"

using namespace dcsim::models::economics;
using dcsim::test::config_error_field;

namespace {

constexpr double kUsdTol = 1e-12;

}  // namespace

TEST_CASE("straight-line depreciation sums exactly to capex minus residual", "[models][economics][depreciation]") {
  // Awkward amounts and periods on purpose: the last month absorbs the rounding of the others,
  // so the in-order sum is exact (no tolerance), not merely close.
  for (double capex : {316'000.0, 316'000.37, 1.0 / 3.0, 9.87654321e8}) {
    for (double years : {1.0 / 12.0, 1.0, 3.0, 5.0, 5.5, 6.0}) {
      for (double residual : {0.0, 0.1, 0.37}) {
        INFO("capex " << capex << " years " << years << " residual " << residual);
        DepreciationConfig c;
        c.years = years;
        c.residual_fraction = residual;
        const std::vector<double> s = depreciation_schedule_usd(capex, c);
        CHECK(s.size() == static_cast<std::size_t>(std::llround(years * 12)));
        CHECK(std::accumulate(s.begin(), s.end(), 0.0) == capex - capex * residual);
      }
    }
  }
}

TEST_CASE("straight-line book value falls by capex/months each month", "[models][economics][depreciation]") {
  DepreciationConfig c;  // 5 years, no residual
  // 12 of 60 months gone: 316,000 x 48/60 = 252,800; half a month more: 316,000/120 less.
  CHECK(book_value_usd(316'000.0, c, 12.0) == Approx(252'800.0).epsilon(kUsdTol));
  CHECK(book_value_usd(316'000.0, c, 12.5) == Approx(252'800.0 - 316'000.0 / 120).epsilon(kUsdTol));
  CHECK(book_value_usd(316'000.0, c, 0.0) == 316'000.0);
  CHECK(book_value_usd(316'000.0, c, 61.0) == 0.0);  // past the period: the residual
}

TEST_CASE("double-declining depreciation front-loads and still ends exactly at the residual",
          "[models][economics][depreciation]") {
  DepreciationConfig c;
  c.method = DepreciationMethod::kDecliningBalance;
  c.years = 5;
  c.residual_fraction = 0.1;
  const double capex = 100'000.0;
  const std::vector<double> s = depreciation_schedule_usd(capex, c);
  // Month 1: book x 2 / 60 = 3,333.33 (the straight line to the residual would be 90,000/60 = 1,500).
  CHECK(s.front() == Approx(capex * 2 / 60).epsilon(kUsdTol));
  CHECK(s.front() > s.back());
  for (std::size_t m = 1; m < s.size(); ++m) CHECK(s[m] <= s[m - 1] * (1 + 1e-12));  // never rises
  CHECK(std::accumulate(s.begin(), s.end(), 0.0) == capex - capex * 0.1);
  CHECK(book_value_usd(capex, c, 60.0) == Approx(10'000.0).epsilon(kUsdTol));
}

TEST_CASE("an annuity's payments repay the principal at the loan's rate", "[models][economics][financing]") {
  const FinancingConfig loan{0.06, 3.0};  // 6% a year, 36 monthly payments
  const double principal = 1e6;
  const double payment = annuity_payment_usd(principal, loan);
  // The payments discounted at 0.5% a month are worth exactly the principal.
  double present = 0.0;
  for (int k = 1; k <= 36; ++k) present += payment / std::pow(1.005, k);
  CHECK(present == Approx(principal).epsilon(1e-12));
  CHECK(payment == Approx(30'421.94).epsilon(1e-6));  // the textbook figure for 1M over 36 months at 6%
  CHECK(loan_balance_usd(principal, loan, 0) == Approx(principal).epsilon(kUsdTol));
  CHECK(loan_balance_usd(principal, loan, 36) == 0.0);
  CHECK(loan_balance_usd(principal, loan, 35) == Approx(payment / 1.005).epsilon(1e-9));  // one payment left
  // At 0%: principal / months.
  CHECK(annuity_payment_usd(principal, FinancingConfig{0.0, 2.0}) == Approx(principal / 24).epsilon(kUsdTol));
}

TEST_CASE("a depreciation period of 0 or a bad loan names the field", "[models][economics][depreciation][validation]") {
  DepreciationConfig c;
  c.years = 0.0;
  CHECK(config_error_field([&] { validate(c, "depreciation."); }) == "depreciation.years");
  c.years = 0.01;  // under half a month: rounds to no month at all
  CHECK(config_error_field([&] { depreciation_schedule_usd(1.0, c); }) == "years");
  CHECK(config_error_field([] { validate(FinancingConfig{0.05, 0.0}, "financing."); }) == "financing.years");
}
