// Rack power capping (models/facility/power_capping.hpp): every registered policy's contract, and
// rack_gpu_cap keeping a rack under its limit with the slowdown the DVFS relation gives.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <string>

#include "models/cluster/cluster_simulation.hpp"
#include "models/datacenter/facility_coupling.hpp"
#include "models/cluster/training_job_run.hpp"
#include "models/facility/facility_simulation.hpp"
#include "models/model_registries.hpp"
#include "models/power/gpu_power.hpp"
#include "models/workload/training_job.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

using namespace dcsim;
using models::facility::FacilityConfig;

namespace {

models::ModelRegistries registries() {
  models::ModelRegistries reg;
  models::register_builtin_models(reg);
  return reg;
}

bool has_event(const sim::MemoryTraceSink& sink, const std::string& kind) {
  for (const auto& row : sink.table("facility").rows) {
    if (std::get<std::string>(row[1]) == kind) return true;
  }
  return false;
}

double summary(const sim::MemoryTraceSink& sink, const std::string& path) {
  return std::get<double>(sink.summary(path).value);
}

// One rack of two HGX H100 nodes, each running a one-hour batch job at full utilisation from t=0.
struct BatchRack {
  sim::MemoryTraceSink sink;
  double gpu_limit_w = 0.0;  // node 0's GPU power limit while both jobs run
  BatchRack(const std::string& capping, double rack_limit_w) {
    const auto reg = registries();
    models::cluster::ClusterConfig c;
    c.node = reg.node_presets.get("hgx-h100").factory();
    c.nodes = 2;
    c.nodes_per_rack = 2;
    for (int i = 0; i < 2; ++i) {
      c.jobs.push_back({});
      c.jobs.back().name = "j" + std::to_string(i);
      c.jobs.back().work = sim::Time::from_s(3600);
    }
    FacilityConfig f;
    f.rack_limit_w = rack_limit_w;
    f.power_capping = capping;
    sim::Simulator s;
    models::cluster::ClusterSimulation cluster(c, reg, s, sink);
    models::facility::FacilitySimulation fac(f, c.nodes, c.nodes_per_rack, 1, {reg.cooling_controls, reg.power_capping}, s, sink);
    models::datacenter::couple_facility(cluster, fac, sim::Time::max());
    cluster.start();
    fac.start();
    s.run_until(sim::Time::from_s(60));
    gpu_limit_w = fac.gpu_power_limit_w(0);
    s.run();
    cluster.finish();
    fac.finish();
  }
};

}  // namespace

TEST_CASE("every power-capping policy returns a limit the driver accepts and leaves a rack that fits alone",
          "[models][thermal][facility][power_capping]") {
  const auto reg = registries();
  REQUIRE(reg.power_capping.contains("log_only"));
  for (const auto& entry : reg.power_capping.entries()) {
    INFO("power capping '" << entry.name << "'");
    const auto policy = entry.factory(sim::Params::defaults(entry.params));
    models::facility::RackPowerInput in;
    in.max_gpu_limit_w = 700.0;
    in.min_gpu_limit_w = 200.0;
    in.rack_power_w = [](double limit_w) { return 2000.0 + 16.0 * limit_w; };  // two 8-GPU nodes, roughly
    for (double rack_limit_w : {5000.0, 9000.0, 12000.0, 20000.0}) {
      in.rack_limit_w = rack_limit_w;
      const double limit_w = policy->gpu_power_limit_w(in);
      CHECK(limit_w >= in.min_gpu_limit_w);
      CHECK(limit_w <= in.max_gpu_limit_w);
      // 2000 + 16 x 700 = 13.2 kW fits a 20 kW rack: nothing to cap.
      if (in.rack_power_w(in.max_gpu_limit_w) <= rack_limit_w) CHECK(limit_w == in.max_gpu_limit_w);
    }
  }
}

TEST_CASE("rack_gpu_cap holds the rack at its limit and the jobs slow by the DVFS clock factor",
          "[models][thermal][facility][power_capping]") {
  // Full load, 8 x 700 W GPUs: 7.38 kW per node (node_power_model.hpp, fans at 25%), 14.75 kW for
  // the rack.
  const BatchRack logged("log_only", 13'000.0);
  CHECK(summary(logged.sink, "power/peak_rack_w") > 14'500.0);
  CHECK(has_event(logged.sink, "rack_limit_exceeded"));
  CHECK(summary(logged.sink, "makespan_s") == Approx(3600.0));  // logged, not enforced

  const BatchRack capped("rack_gpu_cap", 13'000.0);
  CHECK(summary(capped.sink, "power/peak_rack_w") <= 13'000.0);
  CHECK(summary(capped.sink, "power/peak_rack_w") > 13'000.0 - 40.0);  // within the 1 W limit step x 16 GPUs
  CHECK_FALSE(has_event(capped.sink, "rack_limit_exceeded"));
  CHECK(has_event(capped.sink, "rack_power_cap"));
  // By hand: 6,500 W AC per node is 6,158.1 W DC at the PSU's 94.74% (80 PLUS Titanium curve at
  // 31% load); less 1,408.3 W of CPUs and DRAM at a GPU job's host load (16 of 112 cores), NICs,
  // PCIe switches, NVMe, NVSwitches and fans at 25% speed leaves 4,749.8 W for 8 GPUs: a
  // 593.7 W limit.
  CHECK(capped.gpu_limit_w == Approx(593.7).margin(1.5));
  // DVFS: f = ((L - P_idle) / (P_max - P_idle))^(1/2.5) = (509.7 / 616)^0.4 = 0.9270; the jobs'
  // work (one hour at nominal clock) takes 3600 / f.
  models::power::GpuPowerConfig gpu;
  gpu.power_limit_w = capped.gpu_limit_w;
  const double f = models::power::power_cap_clock_factor(gpu, 1.0);
  CHECK(f == Approx(0.9270).margin(0.001));
  CHECK(summary(capped.sink, "makespan_s") == Approx(3600.0 / f).epsilon(1e-6));
}

TEST_CASE("a capped rack's training job steps at the plan's step time for the capped clock",
          "[models][thermal][facility][power_capping][training]") {
  const auto reg = registries();
  models::cluster::ClusterConfig c;
  c.node = reg.node_presets.get("hgx-h100").factory();
  c.nodes = 2;
  c.nodes_per_rack = 2;
  models::workload::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.nodes = 2;
  t.job.micro_batch_size = 8;
  t.steps = 2000;
  t.fabric.nics_per_node = c.node.compute_nics;
  t.fabric.nic_bandwidth_bps = c.node.compute_nic_bandwidth_bps;
  c.training_jobs.push_back(t);
  const auto plan = models::workload::plan_training_job(t, c.node, reg.collective_algorithms);
  const double u = models::cluster::step_gpu_activity(
      models::power::phase_activities(c.gpu_phase_power, c.node.gpu), plan.step);
  REQUIRE(u < 1.0);  // the step's communication and optimizer draw less than compute

  FacilityConfig f;
  f.rack_limit_w = 12'000.0;  // below the job's uncapped ~13-15 kW for the rack
  f.power_capping = "rack_gpu_cap";
  sim::MemoryTraceSink sink;
  sim::Simulator s;
  models::cluster::ClusterSimulation cluster(c, reg, s, sink);
  models::facility::FacilitySimulation fac(f, c.nodes, c.nodes_per_rack, 1, {reg.cooling_controls, reg.power_capping}, s, sink);
  models::datacenter::couple_facility(cluster, fac, sim::Time::max());
  cluster.start();
  fac.start();
  s.run_until(sim::Time::from_seconds(10 * plan.step.step_time_s));
  const double limit_w = fac.gpu_power_limit_w(0);
  REQUIRE(limit_w < 700.0);  // the cap binds
  CHECK(fac.rack_power_w(0) <= 12'000.0);
  s.run();
  cluster.finish();
  fac.finish();
  // The clock the limit leaves at the job's mean activity u (gpu_power.hpp), and the analytic
  // step at that clock: only its clock-bound share stretches (training_job.hpp).
  models::power::GpuPowerConfig gpu;
  gpu.power_limit_w = limit_w;
  const double clock = models::power::power_cap_clock_factor(gpu, u);
  REQUIRE(clock < 1.0);
  const auto& jobs = sink.table("summary/jobs");
  REQUIRE(jobs.rows.size() == 1);
  double step_s = 0.0;
  for (std::size_t i = 0; i < jobs.columns.size(); ++i) {
    if (jobs.columns[i].name == "step_time_s") step_s = std::get<double>(jobs.rows[0][i]);
  }
  CHECK(step_s == Approx(plan.step_time_s(clock)).epsilon(1e-6));
  CHECK(step_s > plan.step.step_time_s);
  CHECK(summary(sink, "power/peak_rack_w") <= 12'000.0);
}
