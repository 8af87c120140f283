#include "models/economics/cloud_offer.hpp"

#include <cmath>

#include "models/economics/billing_month.hpp"
#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

// public-figures.md, Costs: "AWS p5.48xlarge after the June 2025 price cut | $55.04/h ($6.88/GPU-h);
// Azure ND96isr H100 v5 $98.32/h | datareceipts/data-receipts 109-gpu-pricing/hyperscalers.json
// (2026) | S".
constexpr double kAwsP5OnDemand2025 = 55.04 / 8;  // 6.88 USD/GPU-h
constexpr double kAzureNdH100V5OnDemand = 98.32 / 8;  // 12.29 USD/GPU-h
// public-figures.md, Costs: "AWS p5.48xlarge | $98.32/h on-demand at launch ($12.29/GPU-h) |
// AWS pricing | S" (launch: July 2023).
constexpr double kAwsP5OnDemand2023 = 98.32 / 8;
// public-figures.md, Costs: "committed-use discounts, 1 y / 3 y | AWS 41% / 64%, GCP 37% / 56%,
// Azure 25% / 49% | epoch-research/training-cost-trends constants.py | S".
constexpr double kAwsDiscount1y = 0.41;
constexpr double kAwsDiscount3y = 0.64;
constexpr double kAzureDiscount1y = 0.25;
constexpr double kAzureDiscount3y = 0.49;
// Not in the reference: S3 Standard $0.023 per GB-month (first 50 TB, us-east-1), as summarised
// by cloudhealthtech.com "S3 cost: Amazon cloud storage costs explained" (found by search, S).
constexpr double kS3StandardUsdPerGbMonth = 0.023;
// Spot (public-figures.md, Costs): "spot interruption | p5 in AWS's 10-20% interruption-frequency
// band; notice 2 min (AWS), 30 s (GCP) | AWS Spot Instance Advisor via thundercompute.com | B".
// The middle of the band.
constexpr double kAwsP5SpotMonthlyInterruption = 0.15;
// ASSUMPTION: no public p5 spot price was found (reference or search). AWS states spot runs "up
// to 90% off" on demand (aws.amazon.com/ec2/spot/pricing); H100 capacity is scarce, so half off
// the June 2025 on-demand price rather than the end of that range. Override with the Spot price
// history of the region in question.
constexpr double kAwsP5SpotDiscount = 0.5;

CloudGpuOffer offer(std::string name, std::string provider, std::string instance, CloudPurchase purchase,
                    double usd_per_gpu_hour, std::string source, std::string as_of) {
  CloudGpuOffer o;
  o.name = std::move(name);
  o.provider = std::move(provider);
  o.instance = std::move(instance);
  o.purchase = purchase;
  o.usd_per_gpu_hour = usd_per_gpu_hour;
  o.source = std::move(source);
  o.as_of = std::move(as_of);
  o.gpus_per_instance = 8;
  return o;
}

CloudGpuOffer aws(std::string name, CloudPurchase purchase, double usd_per_gpu_hour, std::string source,
                  std::string as_of) {
  CloudGpuOffer o = offer(std::move(name), "aws", "p5.48xlarge", purchase, usd_per_gpu_hour, std::move(source),
                          std::move(as_of));
  o.storage_usd_per_gb_month = kS3StandardUsdPerGbMonth;
  o.egress_tariff = "aws-internet";
  return o;
}

CloudGpuOffer azure(std::string name, CloudPurchase purchase, double usd_per_gpu_hour, std::string source) {
  CloudGpuOffer o = offer(std::move(name), "azure", "ND96isr H100 v5", purchase, usd_per_gpu_hour, std::move(source),
                          "2026");
  // ASSUMPTION: no Azure Blob price in the reference or found by search; S3 Standard's figure.
  o.storage_usd_per_gb_month = kS3StandardUsdPerGbMonth;
  o.egress_tariff = "azure-internet";
  return o;
}

const std::string kDataReceipts = "datareceipts/data-receipts 109-gpu-pricing/hyperscalers.json (public-figures.md)";
const std::string kEpochDiscounts = "epoch-research/training-cost-trends constants.py (public-figures.md)";

}  // namespace

const char* purchase_name(CloudPurchase purchase) {
  switch (purchase) {
    case CloudPurchase::kOnDemand: return "on_demand";
    case CloudPurchase::kReserved: return "reserved";
    case CloudPurchase::kSpot: return "spot";
  }
  return "?";
}

void validate(const CloudGpuOffer& o, const std::string& prefix) {
  require_non_negative(o.usd_per_gpu_hour, prefix + "usd_per_gpu_hour");
  require_non_negative(o.storage_usd_per_gb_month, prefix + "storage_usd_per_gb_month");
  require_non_negative(o.preemptions_per_instance_hour, prefix + "preemptions_per_instance_hour", "rate");
  if (o.gpus_per_instance <= 0) {
    throw sim::ConfigError(prefix + "gpus_per_instance",
                           "expected a positive GPU count, got " + std::to_string(o.gpus_per_instance));
  }
  if (o.purchase != CloudPurchase::kSpot && o.preemptions_per_instance_hour != 0.0) {
    throw sim::ConfigError(prefix + "preemptions_per_instance_hour",
                           std::string("only spot offers are preempted; this offer is ") + purchase_name(o.purchase));
  }
  if (o.purchase == CloudPurchase::kReserved) require_positive(o.term_years, prefix + "term_years", "term in years");
}

std::vector<PriceField> price_fields(CloudGpuOffer& o) {
  std::vector<PriceField> fields{
      {"usd_per_gpu_hour", &o.usd_per_gpu_hour, "price of one GPU-hour"},
      {"storage_usd_per_gb_month", &o.storage_usd_per_gb_month, "object storage, USD per GB (1e9 bytes) per month"}};
  if (o.purchase == CloudPurchase::kSpot) {
    fields.push_back({"preemptions_per_instance_hour", &o.preemptions_per_instance_hour,
                      "spot preemptions per instance-hour (each loses the work since the last checkpoint)"});
  }
  return fields;
}

double preemptions_per_hour_from_monthly_frequency(double f) {
  if (!(f >= 0.0 && f < 1.0)) throw sim::InternalError("economics: interruption frequency outside [0, 1) (this is a bug)");
  return -std::log1p(-f) / kBillingMonthHours;
}

CloudGpuOffer aws_p5_on_demand() {
  return aws("aws-p5-on-demand", CloudPurchase::kOnDemand, kAwsP5OnDemand2025,
             kDataReceipts + ": p5.48xlarge $55.04/h after the June 2025 price cut", "2025-06");
}

CloudGpuOffer aws_p5_on_demand_2023() {
  return aws("aws-p5-on-demand-2023", CloudPurchase::kOnDemand, kAwsP5OnDemand2023,
             "AWS pricing at launch via public-figures.md: p5.48xlarge $98.32/h", "2023-07");
}

CloudGpuOffer aws_p5_reserved_1y() {
  CloudGpuOffer o = aws("aws-p5-reserved-1y", CloudPurchase::kReserved, kAwsP5OnDemand2025 * (1 - kAwsDiscount1y),
                        "derived: " + kEpochDiscounts + " 41% 1-year discount on the June 2025 on-demand price", "2025-06");
  o.term_years = 1;
  return o;
}

CloudGpuOffer aws_p5_reserved_3y() {
  CloudGpuOffer o = aws("aws-p5-reserved-3y", CloudPurchase::kReserved, kAwsP5OnDemand2025 * (1 - kAwsDiscount3y),
                        "derived: " + kEpochDiscounts + " 64% 3-year discount on the June 2025 on-demand price", "2025-06");
  o.term_years = 3;
  return o;
}

CloudGpuOffer aws_p5_spot() {
  CloudGpuOffer o = aws("aws-p5-spot", CloudPurchase::kSpot, kAwsP5OnDemand2025 * (1 - kAwsP5SpotDiscount),
                        "ASSUMPTION: price half the June 2025 on-demand price (no public p5 spot price found); "
                        "preemptions: AWS Spot Instance Advisor 10-20%/month band via thundercompute.com (public-figures.md)",
                        "2025-06");
  o.preemptions_per_instance_hour = preemptions_per_hour_from_monthly_frequency(kAwsP5SpotMonthlyInterruption);
  return o;
}

CloudGpuOffer azure_nd_h100_v5_on_demand() {
  return azure("azure-nd-h100-v5-on-demand", CloudPurchase::kOnDemand, kAzureNdH100V5OnDemand,
               kDataReceipts + ": ND96isr H100 v5 $98.32/h");
}

CloudGpuOffer azure_nd_h100_v5_reserved_1y() {
  CloudGpuOffer o = azure("azure-nd-h100-v5-reserved-1y", CloudPurchase::kReserved,
                          kAzureNdH100V5OnDemand * (1 - kAzureDiscount1y),
                          "derived: " + kEpochDiscounts + " 25% 1-year discount on the on-demand price");
  o.term_years = 1;
  return o;
}

CloudGpuOffer azure_nd_h100_v5_reserved_3y() {
  CloudGpuOffer o = azure("azure-nd-h100-v5-reserved-3y", CloudPurchase::kReserved,
                          kAzureNdH100V5OnDemand * (1 - kAzureDiscount3y),
                          "derived: " + kEpochDiscounts + " 49% 3-year discount on the on-demand price");
  o.term_years = 3;
  return o;
}

void register_cloud_offers(sim::Registry<PricePresetFactory<CloudGpuOffer>>& registry) {
  register_price_preset(registry, &aws_p5_on_demand, "AWS p5.48xlarge (8 x H100) on demand, $6.88/GPU-h");
  register_price_preset(registry, &aws_p5_on_demand_2023, "AWS p5.48xlarge on demand at its 2023 launch, $12.29/GPU-h");
  register_price_preset(registry, &aws_p5_reserved_1y, "AWS p5.48xlarge, 1-year commitment, $4.06/GPU-h");
  register_price_preset(registry, &aws_p5_reserved_3y, "AWS p5.48xlarge, 3-year commitment, $2.48/GPU-h");
  register_price_preset(registry, &aws_p5_spot,
                        "AWS p5.48xlarge spot, $3.44/GPU-h (assumed), 15% of instances preempted a month");
  register_price_preset(registry, &azure_nd_h100_v5_on_demand, "Azure ND96isr H100 v5 on demand, $12.29/GPU-h");
  register_price_preset(registry, &azure_nd_h100_v5_reserved_1y, "Azure ND96isr H100 v5, 1-year reservation, $9.22/GPU-h");
  register_price_preset(registry, &azure_nd_h100_v5_reserved_3y, "Azure ND96isr H100 v5, 3-year reservation, $6.27/GPU-h");
}

}  // namespace dcsim::models::economics
