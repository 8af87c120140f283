// The cluster's cloud pool (models/cluster/cloud_pool.hpp) under the cloud_burst scheduler:
// provisioning and release times, spot preemptions at the offer's rate, no on-prem power.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "models/economics/cloud_offer.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::cluster::CloudPoolConfig;
using dcsim::tests::job;
using dcsim::tests::Run;
using dcsim::tests::simple_cluster;

namespace {

Time s(double seconds) { return Time::from_seconds(seconds); }
Time h(double hours) { return Time::from_seconds(hours * 3600.0); }

std::int64_t count(const Run& run, const std::string& path) {
  return std::get<std::int64_t>(run.sink.summary(path).value);
}

// One on-prem node (1 GPU, as simple_cluster's) and a pool of 1-GPU instances of `offer`, under
// cloud_burst bursting as soon as the node is full (threshold 1, no sustain).
ClusterConfig burst_cluster(dcsim::models::economics::CloudGpuOffer offer, int max_instances) {
  ClusterConfig c = simple_cluster(1);
  offer.gpus_per_instance = 1;
  CloudPoolConfig pool;
  pool.offer = offer;
  pool.max_instances = max_instances;
  pool.provisioning_delay = s(60);
  pool.idle_release = h(1);
  c.cloud_pool = pool;
  c.scheduler = "cloud_burst";
  c.scheduler_params.set_number("threshold", 1.0);
  c.scheduler_params.set_number("sustain", 0.0);
  return c;
}

// 2,000 one-hour batch jobs at once: the node and 8 instances stay busy for days.
ClusterConfig spot_workload(double preemptions_per_instance_hour, std::uint64_t seed) {
  auto offer = dcsim::models::economics::aws_p5_spot();
  offer.preemptions_per_instance_hour = preemptions_per_instance_hour;
  ClusterConfig c = burst_cluster(offer, 8);
  c.seed = seed;
  for (int i = 0; i < 2000; ++i) c.jobs.push_back(job("J" + std::to_string(i), Time::zero(), 1, h(1), 1.0));
  return c;
}

}  // namespace

TEST_CASE("spot preemptions at a given rate interrupt jobs at that rate", "[models][datacenter][cloud_pool]") {
  // Each ready spot instance lives an exponential time of mean 1 / r: over H instance-hours the
  // preemptions are Poisson with mean r H (superposition; the instance count does not matter).
  // 4 standard deviations, sqrt(r H), bound a correct model's count except once in ~16,000 runs
  // (and the seed is fixed: the check is deterministic).
  const double r = 0.5;
  Run run(spot_workload(r, 7));
  run.to_end();
  const double instance_hours = run.summary("cloud/instance_hours");
  const double expected = r * instance_hours;
  REQUIRE(expected > 1000);  // enough for the bound to mean something (about 12%)
  const double bound = 4 * std::sqrt(expected);
  const auto preemptions = static_cast<double>(count(run, "workload/spot_preemptions"));
  CHECK(std::abs(preemptions - expected) <= bound);
  // Every instance is busy whenever it exists (2,000 jobs wait), so each preemption stops one
  // (1-GPU) job: interruptions come at the same rate, through the failover policy.
  const auto interruptions = static_cast<double>(count(run, "reliability/interruptions/spot_preemption"));
  CHECK(interruptions <= preemptions);
  CHECK(std::abs(interruptions - expected) <= bound);
  // A batch job keeps nothing: each interruption loses the work of its run so far, which
  // averages at most the hour it needs.
  CHECK(run.summary("goodput/lost_gpu_h_by_cause/spot_preemption") > 0.0);
  CHECK(run.summary("goodput/lost_gpu_h_by_cause/spot_preemption") <= interruptions * 1.0);
  CHECK(count(run, "workload/jobs_completed") == 2000);
  CHECK(count(run, "workload/burst/jobs") > 1000);
}

TEST_CASE("same seed, same spot preemptions; another seed, others", "[models][datacenter][cloud_pool]") {
  Run a(spot_workload(0.5, 7)), b(spot_workload(0.5, 7)), other(spot_workload(0.5, 8));
  a.to_end();
  b.to_end();
  other.to_end();
  for (const char* path : {"cloud/instance_hours", "goodput/lost_gpu_h", "makespan_s", "workload/mean_wait_s"}) {
    INFO(path);
    CHECK(a.summary(path) == b.summary(path));
  }
  CHECK(count(a, "workload/spot_preemptions") == count(b, "workload/spot_preemptions"));
  CHECK(a.summary("goodput/lost_gpu_h") != other.summary("goodput/lost_gpu_h"));
}

TEST_CASE("on-demand instances are never preempted", "[models][datacenter][cloud_pool]") {
  ClusterConfig c = burst_cluster(dcsim::models::economics::aws_p5_on_demand(), 8);
  for (int i = 0; i < 200; ++i) c.jobs.push_back(job("J" + std::to_string(i), Time::zero(), 1, h(1), 1.0));
  Run on_demand(c);
  on_demand.to_end();
  CHECK(count(on_demand, "workload/spot_preemptions") == 0);
  CHECK(count(on_demand, "reliability/interruptions_total") == 0);
  CHECK(on_demand.summary("cloud/instance_hours") > 100.0);
  CHECK(count(on_demand, "workload/jobs_completed") == 200);
}

TEST_CASE("cloud_burst: provisioning, start and release at hand-solved times", "[models][datacenter][cloud_pool]") {
  // Node 0 runs A (0-100 s). B arrives at 10 s: the node is full (occupancy 1 >= 0.9) with B
  // waiting, so the sustain timer runs from 10 s; at 30 s it has held 20 s: one instance is
  // requested, usable at 30 + 30 = 60 s. B starts there at 60 s, its 1 GB dataset crosses the
  // 8 Gbit/s WAN in 1 s, its 50 s of work end at 111 s; idle from then, the instance is released
  // at 111 + 60 = 171 s: 111 s provisioned.
  ClusterConfig c = burst_cluster(dcsim::models::economics::aws_p5_on_demand(), 2);
  c.scheduler_params.set_number("threshold", 0.9);
  c.scheduler_params.set_number("sustain", 20);
  c.cloud_pool->provisioning_delay = s(30);
  c.cloud_pool->idle_release = s(60);
  c.cloud_pool->dataset_bytes = 1e9;
  c.cloud_pool->wan_bits_per_s = 8e9;
  c.jobs = {job("A", Time::zero(), 1, s(100), 1.0), job("B", s(10), 1, s(50), 1.0)};
  Run run(c);
  run.to_end();
  CHECK(run.start_of("B") == 60.0);
  CHECK(run.finish_of("B") == 111.0);
  CHECK(std::get<std::string>(run.event_cell("B", "node_list")) == "1");  // the first instance
  CHECK(run.summary("cloud/instance_hours") == Approx(111.0 / 3600.0).epsilon(1e-12));
  CHECK(run.summary("simulated_s") == 171.0);  // the release is the last event
  CHECK(count(run, "cloud/instances_requested") == 1);
  CHECK(count(run, "workload/burst/jobs") == 1);
  CHECK(run.summary("workload/burst/gpu_hours") == Approx(51.0 / 3600.0).epsilon(1e-12));
  CHECK(run.summary("goodput/transfer_gpu_h") == Approx(1.0 / 3600.0).epsilon(1e-12));
  CHECK(run.summary("workload/onprem/gpu_hours") == Approx(100.0 / 3600.0).epsilon(1e-12));
  CHECK(run.summary("cloud/ingress_bytes") == 1e9);
}

TEST_CASE("cloud_burst rents nothing while occupancy stays under the threshold or not for the sustain time",
          "[models][datacenter][cloud_pool]") {
  SECTION("under the threshold") {
    // 4 nodes, A holds 1 (occupancy 0.25); B needs all 4 and waits 100 s for A: below 0.9 the
    // whole time, so B waits on-prem, as under fifo.
    ClusterConfig c = burst_cluster(dcsim::models::economics::aws_p5_on_demand(), 4);
    c.nodes = 4;
    c.scheduler_params.set_number("threshold", 0.9);
    c.jobs = {job("A", Time::zero(), 1, s(100), 1.0), job("B", s(1), 4, s(10), 1.0)};
    Run run(c);
    run.to_end();
    CHECK(count(run, "cloud/instances_requested") == 0);
    CHECK(run.start_of("B") == 100.0);
    CHECK(count(run, "workload/burst/jobs") == 0);
  }
  SECTION("over the threshold for less than the sustain time") {
    // The node is full from 0 to 100 s with B waiting from 1 s: 99 s, under the 120 s sustain.
    ClusterConfig c = burst_cluster(dcsim::models::economics::aws_p5_on_demand(), 4);
    c.scheduler_params.set_number("sustain", 120);
    c.jobs = {job("A", Time::zero(), 1, s(100), 1.0), job("B", s(1), 1, s(10), 1.0)};
    Run run(c);
    run.to_end();
    CHECK(count(run, "cloud/instances_requested") == 0);
    CHECK(run.start_of("B") == 100.0);
  }
}

TEST_CASE("cloud instances draw no on-prem power", "[models][datacenter][cloud_pool]") {
  // P(u) = 150 + 500 u W per node. A holds the only on-prem node at full load for 1000 s while B
  // runs 500 s on an instance: the cluster's IT power is A's node alone, 650 W, then 150 W idle
  // until the instance's release ends the run.
  ClusterConfig c = burst_cluster(dcsim::models::economics::aws_p5_on_demand(), 2);
  c.cloud_pool->provisioning_delay = Time::zero();
  c.cloud_pool->idle_release = s(100);
  c.jobs = {job("A", Time::zero(), 1, s(1000), 1.0), job("B", s(1), 1, s(500), 1.0)};
  Run run(c);
  run.to_end();
  REQUIRE(run.finish_of("B") == 501.0);
  CHECK(run.summary("power/peak_w") == 650.0);
  CHECK(run.summary("simulated_s") == 1000.0);  // A's end; the instance left at 601 s
  CHECK(run.summary("energy/it_kwh") == Approx(650.0 * 1000.0 / 3.6e6).epsilon(1e-12));
  CHECK(run.summary("utilization/node_busy_fraction") == 1.0);  // on-prem nodes only
}

TEST_CASE("a cloud pool needs a scheduler that uses it, and the reverse", "[models][datacenter][cloud_pool]") {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  const auto registries = dcsim::tests::builtin();
  ClusterConfig pool_only = burst_cluster(dcsim::models::economics::aws_p5_on_demand(), 2);
  pool_only.scheduler = "fifo";
  pool_only.scheduler_params = {};
  try {
    ClusterSimulation model(pool_only, registries, sim, sink);
    FAIL("a pool under fifo was accepted");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "cloud_pool");
  }
  ClusterConfig burst_only = simple_cluster(1);
  burst_only.scheduler = "cloud_burst";
  try {
    ClusterSimulation model(burst_only, registries, sim, sink);
    FAIL("cloud_burst without a pool was accepted");
  } catch (const dcsim::sim::ConfigError& e) {
    CHECK(e.field() == "scheduler");
  }
}
