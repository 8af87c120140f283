// Tier arithmetic of internet egress, at the edges where a tier or the free allowance ends.

#include <catch2/catch.hpp>

#include "economics_test_support.hpp"
#include "models/economics/egress_tariff.hpp"

using namespace dcsim::models::economics;
using dcsim::test::config_error_field;

namespace {

constexpr double kGB = 1e9;
constexpr double kTB = 1e12;
constexpr double kUsdTol = 1e-12;  // relative: a few roundings of sums of products

}  // namespace

TEST_CASE("AWS egress costs nothing within the free 100 GB and $0.09/GB just past it", "[models][economics][egress]") {
  const EgressTariff aws = aws_internet_egress();
  CHECK(egress_cost_usd(aws, 0.0) == 0.0);
  CHECK(egress_cost_usd(aws, 100 * kGB) == 0.0);
  // 1 GB past the allowance, in the first tier.
  CHECK(egress_cost_usd(aws, 101 * kGB) == Approx(0.09).epsilon(kUsdTol));
}

TEST_CASE("AWS egress at the 10, 50 and 150 TB tier edges", "[models][economics][egress]") {
  const EgressTariff aws = aws_internet_egress();
  // The allowance counts towards the first tier's 10 TB: (10,000 - 100) GB x $0.09 = $891.
  CHECK(egress_cost_usd(aws, 10 * kTB) == Approx(891.0).epsilon(kUsdTol));
  // + the next 40 TB at $0.085: 891 + 40,000 x 0.085 = 891 + 3,400 = $4,291.
  CHECK(egress_cost_usd(aws, 50 * kTB) == Approx(4'291.0).epsilon(kUsdTol));
  // + the next 100 TB at $0.07: 4,291 + 7,000 = $11,291.
  CHECK(egress_cost_usd(aws, 150 * kTB) == Approx(11'291.0).epsilon(kUsdTol));
  // + 50 TB beyond 150 TB at $0.05: 11,291 + 2,500 = $13,791.
  CHECK(egress_cost_usd(aws, 200 * kTB) == Approx(13'791.0).epsilon(kUsdTol));
  // One GB past an edge is priced at the next tier's rate.
  CHECK(egress_cost_usd(aws, 10 * kTB + kGB) - egress_cost_usd(aws, 10 * kTB) == Approx(0.085).epsilon(1e-9));
  CHECK(egress_cost_usd(aws, 150 * kTB + kGB) - egress_cost_usd(aws, 150 * kTB) == Approx(0.05).epsilon(1e-9));
}

TEST_CASE("GCP premium egress has no allowance: $0.12 from the first byte", "[models][economics][egress]") {
  const EgressTariff gcp = gcp_premium_egress();
  CHECK(egress_cost_usd(gcp, 1 * kTB) == Approx(120.0).epsilon(kUsdTol));             // 1,000 GB x 0.12
  CHECK(egress_cost_usd(gcp, 10 * kTB) == Approx(120.0 + 990.0).epsilon(kUsdTol));    // + 9,000 GB x 0.11
  CHECK(egress_cost_usd(gcp, 20 * kTB) == Approx(1'110.0 + 800.0).epsilon(kUsdTol));  // + 10,000 GB x 0.08
}

TEST_CASE("egress cost never decreases with volume, for every preset", "[models][economics][egress]") {
  for (const EgressTariff& t : {aws_internet_egress(), gcp_premium_egress(), azure_internet_egress()}) {
    INFO(t.name);
    CHECK_NOTHROW(validate(t, ""));
    double previous = 0.0;
    for (int half_tb = 0; half_tb <= 600; ++half_tb) {
      const double usd = egress_cost_usd(t, half_tb * 0.5 * kTB);
      CHECK(usd >= previous);
      previous = usd;
    }
  }
}

TEST_CASE("a tier table with a negative price or bounds that do not increase names the field",
          "[models][economics][egress][validation]") {
  EgressTariff t = aws_internet_egress();
  t.tiers[1].usd_per_gb = -0.01;
  CHECK(config_error_field([&] { validate(t, "egress."); }) == "egress.tiers[1].usd_per_gb");

  t = aws_internet_egress();
  t.tiers[2].up_to_bytes = t.tiers[1].up_to_bytes;  // 50 TB twice: not strictly increasing
  CHECK(config_error_field([&] { validate(t, ""); }) == "tiers[2].up_to_bytes");

  t = aws_internet_egress();
  t.tiers.back().up_to_bytes = 500 * kTB;  // bytes beyond 500 TB would have no price
  CHECK(config_error_field([&] { validate(t, ""); }) == "tiers[3].up_to_bytes");

  t = aws_internet_egress();
  t.free_bytes_per_month = -1.0;
  CHECK(config_error_field([&] { validate(t, ""); }) == "free_bytes_per_month");

  t.tiers.clear();
  t.free_bytes_per_month = 0.0;
  CHECK(config_error_field([&] { validate(t, ""); }) == "tiers");
}
