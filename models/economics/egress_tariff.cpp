#include "models/economics/egress_tariff.hpp"

#include <algorithm>
#include <cmath>

#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

constexpr double kGB = 1e9;
constexpr double kTB = 1e12;

}  // namespace

void validate(const EgressTariff& t, const std::string& prefix) {
  require_non_negative(t.free_bytes_per_month, prefix + "free_bytes_per_month", "allowance in bytes");
  if (t.tiers.empty()) throw sim::ConfigError(prefix + "tiers", "expected at least one tier");
  double previous = 0.0;
  for (std::size_t i = 0; i < t.tiers.size(); ++i) {
    const EgressTier& tier = t.tiers[i];
    const std::string field = prefix + "tiers[" + std::to_string(i) + "].";
    require_non_negative(tier.usd_per_gb, field + "usd_per_gb");
    if (!(tier.up_to_bytes > previous)) {
      throw sim::ConfigError(field + "up_to_bytes", "expected a bound above the previous tier's " +
                                                        format_number(previous) + " bytes (bounds strictly increase), got " +
                                                        format_number(tier.up_to_bytes));
    }
    const bool last = i + 1 == t.tiers.size();
    if (last != std::isinf(tier.up_to_bytes)) {
      throw sim::ConfigError(field + "up_to_bytes",
                             last ? "the last tier must be unbounded (bytes beyond its bound would have no price), got " +
                                        format_number(tier.up_to_bytes)
                                  : "only the last tier may be unbounded");
    }
    previous = tier.up_to_bytes;
  }
}

double egress_cost_usd(const EgressTariff& t, double bytes) {
  if (!(bytes >= 0.0)) throw sim::InternalError("economics: negative egress volume (this is a bug)");
  double usd = 0.0;
  double lower = 0.0;
  for (const EgressTier& tier : t.tiers) {
    const double from = std::max(lower, t.free_bytes_per_month);
    const double to = std::min(tier.up_to_bytes, bytes);
    if (to > from) usd += tier.usd_per_gb * ((to - from) / kGB);
    if (bytes <= tier.up_to_bytes) break;
    lower = tier.up_to_bytes;
  }
  return usd;
}

std::vector<PriceField> price_fields(EgressTariff& t) {
  std::vector<PriceField> fields;
  fields.push_back({"free_bytes_per_month", &t.free_bytes_per_month,
                    "bytes free each billing month (they count towards the tier bounds)"});
  for (std::size_t i = 0; i < t.tiers.size(); ++i) {
    fields.push_back({"tier_" + std::to_string(i + 1) + "_usd_per_gb", &t.tiers[i].usd_per_gb,
                      "USD per GB (1e9 bytes) in tier " + std::to_string(i + 1) +
                          (std::isinf(t.tiers[i].up_to_bytes)
                               ? std::string(" (unbounded)")
                               : " (to " + format_number(t.tiers[i].up_to_bytes / kTB) + " TB a month)")});
  }
  return fields;
}

// shared/reference/public-figures.md, Costs: "AWS internet egress | first 100 GB/month free;
// $0.09/GB to 10 TB; $0.085 next 40 TB; $0.07 next 100 TB; $0.05 above 150 TB | AWS pricing
// summaries | S".
EgressTariff aws_internet_egress() {
  return {"aws-internet", "AWS EC2 data transfer out to the internet, via pricing summaries (public-figures.md)",
          "undated (reference of 2026)", 100 * kGB,
          {{10 * kTB, 0.09}, {50 * kTB, 0.085}, {150 * kTB, 0.07}, {kUnbounded, 0.05}}};
}

// public-figures.md, Costs: "GCP premium egress | $0.12 (0-1 TB), $0.11 (1-10 TB), $0.08 (10 TB+)
// | GCP network tiers pricing | S". No free allowance is listed there, so none is assumed.
EgressTariff gcp_premium_egress() {
  return {"gcp-premium", "GCP network tiers pricing, premium tier internet egress (public-figures.md)", "undated (reference of 2026)", 0.0,
          {{1 * kTB, 0.12}, {10 * kTB, 0.11}, {kUnbounded, 0.08}}};
}

// public-figures.md, Costs: "Azure egress | first 100 GB free, about $0.087/GB to 10 TB | Azure
// pricing summaries | S". Beyond 10 TB the reference has no figure and a search of stored public
// pages found none: ASSUMPTION, Azure's bandwidth page as recalled ($0.083 to 50 TB, $0.07 to
// 150 TB, $0.05 beyond: the same tier shape as AWS's), not checked against a stored source.
EgressTariff azure_internet_egress() {
  return {"azure-internet",
          "Azure bandwidth pricing summaries (public-figures.md) to 10 TB; tiers beyond 10 TB are an assumption", "undated (reference of 2026)",
          100 * kGB, {{10 * kTB, 0.087}, {50 * kTB, 0.083}, {150 * kTB, 0.07}, {kUnbounded, 0.05}}};
}

void register_egress_tariffs(sim::Registry<PricePresetFactory<EgressTariff>>& registry) {
  register_price_preset(registry, &aws_internet_egress,
                        "AWS internet egress: 100 GB/month free, $0.09/GB to 10 TB, $0.085 to 50 TB, $0.07 to 150 TB, $0.05 beyond");
  register_price_preset(registry, &gcp_premium_egress,
                        "GCP premium-tier internet egress: $0.12/GB to 1 TB, $0.11 to 10 TB, $0.08 beyond");
  register_price_preset(registry, &azure_internet_egress,
                        "Azure internet egress: 100 GB/month free, $0.087/GB to 10 TB, then $0.083, $0.07, $0.05 (assumed)");
}

}  // namespace dcsim::models::economics
