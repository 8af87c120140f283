// The cloud alternative: on demand, reserved commitments, spot preemptions.

#include <catch2/catch.hpp>

#include "economics_test_support.hpp"
#include "models/economics/billing_month.hpp"
#include "models/economics/cloud_cost.hpp"

using namespace dcsim::models::economics;
using dcsim::test::config_error_field;

namespace {

constexpr double kUsdTol = 1e-12;

CloudOption option(CloudGpuOffer offer) {
  CloudOption o;
  o.offer = std::move(offer);
  o.offer.usd_per_gpu_hour = 2.0;
  o.egress = aws_internet_egress();
  return o;
}

}  // namespace

TEST_CASE("on demand bills the GPU-hours delivered", "[models][economics][cloud]") {
  const CloudMonthCost c = cloud_month_cost(option(aws_p5_on_demand()), {1'000.0, 0.0, 0.0, kBillingMonthHours});
  CHECK(c.billed_gpu_hours == 1'000.0);
  CHECK(c.gpu_usd == Approx(2'000.0).epsilon(kUsdTol));
}

TEST_CASE("a reservation bills its commitment whether used or not", "[models][economics][cloud]") {
  CloudOption o = option(aws_p5_reserved_1y());
  o.committed_gpus = 8;
  // 8 GPUs x 730.5 h = 5,844 GPU-hours committed; 1,000 used: 5,844 billed.
  CHECK(cloud_month_cost(o, {1'000.0, 0.0, 0.0, kBillingMonthHours}).billed_gpu_hours ==
        Approx(5'844.0).epsilon(kUsdTol));
  // Use beyond the commitment is billed too.
  CHECK(cloud_month_cost(o, {6'000.0, 0.0, 0.0, kBillingMonthHours}).billed_gpu_hours == 6'000.0);
  // Half a month inside the horizon: half the commitment.
  CHECK(cloud_month_cost(o, {0.0, 0.0, 0.0, kBillingMonthHours / 2}).billed_gpu_hours ==
        Approx(2'922.0).epsilon(kUsdTol));
  o.committed_gpus = 0;
  CHECK(config_error_field([&] { validate(o, "cloud[0]."); }) == "cloud[0].committed_gpus");
}

TEST_CASE("spot preemptions bill the work they make redo", "[models][economics][cloud]") {
  CloudOption o = option(aws_p5_spot());
  o.offer.preemptions_per_instance_hour = 1e-3;
  o.job_gpus = 16;  // two 8-GPU instances: a job is preempted at twice the rate
  o.lost_work_per_preemption_s = 1'800.0;
  // u = 1 - 2 x 1e-3 x 0.5 h = 0.999 of billed time is useful.
  CHECK(useful_fraction(o) == Approx(0.999).epsilon(kUsdTol));
  CHECK(cloud_month_cost(o, {999.0, 0.0, 0.0, kBillingMonthHours}).billed_gpu_hours == Approx(1'000.0).epsilon(kUsdTol));
  // The preset's rate: 15% of instances interrupted a month, -ln(0.85) / 730.5 h.
  CHECK(aws_p5_spot().preemptions_per_instance_hour == Approx(0.1625189 / 730.5).epsilon(1e-6));
  o.job_gpus = 0;
  CHECK(config_error_field([&] { validate(o, ""); }) == "job_gpus");
  o.job_gpus = 16;
  o.lost_work_per_preemption_s = 1e7;  // more work lost than an instance-hour holds
  CHECK(config_error_field([&] { validate(o, ""); }) == "lost_work_per_preemption_s");
}

TEST_CASE("egress and storage are billed per month, ingress is free", "[models][economics][cloud]") {
  const CloudMonthCost c = cloud_month_cost(option(aws_p5_on_demand()), {0.0, 50e12, 1'000.0, kBillingMonthHours});
  CHECK(c.egress_usd == Approx(4'291.0).epsilon(kUsdTol));              // AWS at 50 TB
  CHECK(c.storage_usd == Approx(1'000.0 * 0.023).epsilon(kUsdTol));     // S3 Standard
}

TEST_CASE("a negative cloud price names the field", "[models][economics][cloud][validation]") {
  CloudOption o = option(aws_p5_on_demand());
  o.offer.usd_per_gpu_hour = -1.0;
  CHECK(config_error_field([&] { validate(o, "cloud[2]."); }) == "cloud[2].offer.usd_per_gpu_hour");
  o = option(aws_p5_on_demand());
  o.offer.preemptions_per_instance_hour = 0.01;  // only spot offers are preempted
  CHECK(config_error_field([&] { validate(o, ""); }) == "offer.preemptions_per_instance_hour");
}
