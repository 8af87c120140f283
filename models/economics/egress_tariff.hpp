#pragma once
// Tiered internet egress prices, billed per billing month (billing_month.hpp), and the AWS, GCP
// and Azure presets (registered as "egress tariff").
//
// The month's volume V is split over the tiers by its cumulative position: tier i covers
// (up_to_bytes of tier i-1, up_to_bytes of tier i], the first tier starts at 0, the last tier's
// bound is kUnbounded. The free allowance covers the first free_bytes_per_month of every month
// and counts towards the tier bounds (the tiers are positions in the month's volume, as the
// providers write them: "first 10 TB at $0.09" includes the free 100 GB). So
//
//   cost(V) = sum_i usd_per_gb_i * |(max(lo_i, F), min(hi_i, V)]| / 1e9,   F = free allowance,
//
// a continuous, piecewise-linear, non-decreasing function of V. GB and TB are decimal (1e9,
// 1e12 bytes) as the reference writes them. O(tiers).

#include <limits>
#include <string>
#include <vector>

#include "models/economics/price_preset.hpp"

namespace dcsim::models::economics {

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

struct EgressTier {
  double up_to_bytes = kUnbounded;  // cumulative monthly volume where the tier ends
  double usd_per_gb = 0.0;          // per 1e9 bytes
};

struct EgressTariff {
  std::string name;
  std::string source;
  std::string as_of;
  double free_bytes_per_month = 0.0;
  std::vector<EgressTier> tiers;  // bounds strictly increasing; the last is kUnbounded
};

// sim::ConfigError naming the field (prefix + "tiers[2].up_to_bytes", "free_bytes_per_month",
// "tiers[0].usd_per_gb") for: no tiers, a negative or non-finite price, bounds that do not
// strictly increase, a last bound that is not kUnbounded (bytes beyond it would have no price),
// a negative allowance.
void validate(const EgressTariff& tariff, const std::string& prefix);

// USD for `bytes` leaving in one billing month (bytes >= 0). Assumes a validated tariff.
double egress_cost_usd(const EgressTariff& tariff, double bytes);

std::vector<PriceField> price_fields(EgressTariff& tariff);

// AWS EC2 data transfer out to the internet: 100 GB free, $0.09/GB to 10 TB, $0.085 to 50 TB,
// $0.07 to 150 TB, $0.05 beyond.
EgressTariff aws_internet_egress();
// GCP premium tier: $0.12 (0-1 TB), $0.11 (1-10 TB), $0.08 beyond; no free allowance.
EgressTariff gcp_premium_egress();
// Azure internet egress: 100 GB free, $0.087/GB to 10 TB, then (assumed) $0.083, $0.07, $0.05.
EgressTariff azure_internet_egress();

void register_egress_tariffs(sim::Registry<PricePresetFactory<EgressTariff>>& registry);

}  // namespace dcsim::models::economics
