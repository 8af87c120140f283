// NVMe-oF namespaces as the cluster's checkpoint target (nvmeof_subsystem.hpp): a job's
// checkpoints are flows from its nodes to their namespaces on the targets and its restart read
// the same flows back, at the bound the target's drives set (solved by hand below).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

#include "models/datacenter/datacenter.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/reliability/checkpoint_interval.hpp"
#include "models/workload/training_job.hpp"
#include "tests/models/storage/storage_test_support.hpp"

using dcsim::models::datacenter::Datacenter;
using dcsim::models::datacenter::DatacenterConfig;
using dcsim::models::datacenter::DatacenterConfigError;
using dcsim::models::reliability::ScriptedNodeFault;
using dcsim::tests::builtin;
namespace mw = dcsim::models::workload;
namespace net = dcsim::models::network;
namespace sim = dcsim::sim;

namespace {

// BERT-Large on 2 HGX H100 nodes, analytic steps, a checkpoint after every step to NVMe-oF: one
// target with one drive (1 GB/s write, 2 GB/s read), its queue far from binding.
DatacenterConfig config(const dcsim::models::ModelRegistries& reg, int steps) {
  mw::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.nodes = 2;
  t.job.micro_batch_size = 8;
  t.steps = steps;
  t.checkpoint.interval_steps = 1;
  t.checkpoint.target = mw::CheckpointTarget::kNvmeof;
  DatacenterConfig c;
  c.cluster.emplace();
  c.cluster->node = dcsim::models::hardware::hgx_h100();
  c.cluster->nodes = 2;
  c.cluster->nodes_per_rack = 2;
  c.cluster->training_jobs.push_back(t);
  c.frontend = dcsim::tests::storage_frontend();  // host 2 is the target
  c.nvmeof.emplace();
  c.nvmeof->targets.targets = {2};
  c.nvmeof->targets.drives_per_target = 1;
  c.nvmeof->targets.drive.write_bytes_per_s = 1e9;
  c.nvmeof->targets.drive.read_bytes_per_s = 2e9;
  c.nvmeof->targets.queue_depth = 4096;
  return c;
}

double number(const sim::MemoryTraceSink& sink, const std::string& key) {
  const auto& v = sink.summary().at(key).value;
  return std::holds_alternative<double>(v) ? std::get<double>(v) : static_cast<double>(std::get<std::int64_t>(v));
}

// What building the assembly refused (empty part when it built).
struct Refusal {
  std::string part, field, detail;
};
Refusal refusal(const dcsim::models::ModelRegistries& reg, DatacenterConfig c) {
  sim::Simulator simulator;
  sim::MemoryTraceSink sink;
  try {
    Datacenter datacenter(std::move(c), reg, simulator, sink);
  } catch (const DatacenterConfigError& e) {
    return {e.part(), e.field(), e.detail()};
  }
  return {};
}

void run(DatacenterConfig c, sim::MemoryTraceSink& sink) { dcsim::tests::run_datacenter(std::move(c), sink); }

}  // namespace

TEST_CASE("checkpoints to NVMe-oF take their bytes over the target's drive and a restart reads them back",
          "[models][datacenter][nvmeof]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  sim::MemoryTraceSink plain;
  run(config(reg, 3), plain);
  // Both nodes' halves go through the one 1 GB/s drive: bytes / 1e9 per checkpoint, two of them.
  CHECK(number(plain, "nvmeof/checkpoint_writes") == 2);
  CHECK(number(plain, "nvmeof/checkpoint_write_s_max") == Approx(bytes / 1e9).epsilon(1e-3));
  CHECK(number(plain, "nvmeof/bytes_written") == Approx(2 * bytes).epsilon(1e-9));
  CHECK(number(plain, "nvmeof/host_core_s") == 0.0);  // RDMA
  // The job crashes after its first checkpoint: the restart reads it back at the drive's 2 GB/s.
  DatacenterConfig crashed = config(reg, 3);
  ScriptedNodeFault f;
  f.at = sim::Time::from_seconds(number(plain, "nvmeof/checkpoint_write_s_max") + 0.5);
  f.kind = ScriptedNodeFault::Kind::kJobCrash;
  f.node = 0;
  crashed.node_faults.push_back(f);
  sim::MemoryTraceSink restarted;
  run(std::move(crashed), restarted);
  CHECK(number(restarted, "nvmeof/checkpoint_reads") == 1);
  CHECK(number(restarted, "nvmeof/checkpoint_read_s_max") == Approx(bytes / 2e9).epsilon(1e-3));
  CHECK(number(restarted, "nvmeof/bytes_read") == Approx(bytes).epsilon(1e-9));
}

TEST_CASE("NVMe-oF over TCP spends the targets' cores: one core binds below the drive",
          "[models][datacenter][nvmeof]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  DatacenterConfig c = config(reg, 3);
  auto& t = c.nvmeof->targets;
  t.transport = dcsim::models::storage::NvmeofTransport::kTcp;
  t.tcp_bytes_per_s_per_core = 0.5e9;  // one target core moves 0.5 GB/s: below the 1 GB/s drive
  t.target_cores = 1;
  sim::MemoryTraceSink sink;
  run(std::move(c), sink);
  CHECK(number(sink, "nvmeof/checkpoint_write_s_max") == Approx(bytes / 0.5e9).epsilon(1e-3));
  CHECK(number(sink, "nvmeof/target_core_s") == Approx(2 * bytes / 0.5e9).epsilon(1e-9));
}

TEST_CASE("an NVMe-oF target must be a host beyond the cluster's nodes", "[models][datacenter][nvmeof]") {
  const auto reg = builtin();
  DatacenterConfig c = config(reg, 3);
  c.nvmeof->targets.targets = {1};
  const Refusal r = refusal(reg, std::move(c));
  CHECK(r.part == "nvmeof");
  CHECK(r.field == "targets");
}

TEST_CASE("Daly's interval for a job saving to NVMe-oF is set by the target's drive and not the job's NICs",
          "[models][datacenter][nvmeof]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  DatacenterConfig c = config(reg, 4000);
  c.cluster->node_fault_rate_per_hour = 5.0;  // 2 nodes: the job's MTBF is 6 min
  sim::MemoryTraceSink sink;
  run(c, sink);
  // Both nodes' shares cross the target's one 1 GB/s drive: a save takes at least bytes / 1 GB/s,
  // far more than the nodes' front-end NICs alone allow.
  const auto plan = mw::plan_training_job(c.cluster->training_jobs[0], c.cluster->node, reg.collective_algorithms);
  const double drive_bound_s = bytes / 1e9;
  REQUIRE(plan.checkpoint_s < drive_bound_s / 10);
  const double interval_s = dcsim::models::reliability::checkpoint_interval_daly(drive_bound_s, 360.0);
  const int interval_steps = std::max(1, static_cast<int>(std::llround(interval_s / plan.step.step_time_s)));
  REQUIRE(interval_steps > 1);
  const auto& table = sink.table("summary/jobs");
  double checkpoints = -1;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == "checkpoints") checkpoints = std::get<double>(table.rows.at(0)[i]);
  }
  // About 2,400 steps between saves (by the NICs' bound it would be about 170: 23 saves).
  CHECK(checkpoints == (4000 - 1) / interval_steps);
  CHECK(checkpoints >= 1);
}

TEST_CASE("an NVMe-oF target cannot also be the uplink's gateway", "[models][datacenter][nvmeof][uplink]") {
  const auto reg = builtin();
  DatacenterConfig c = config(reg, 3);
  c.uplink.emplace();
  c.uplink->ports.push_back({100e9, 1});
  c.uplink->gateway = dcsim::models::network::UplinkGateway{false, 2};  // the target
  const Refusal r = refusal(reg, std::move(c));
  CHECK(r.part == "uplink");
  CHECK(r.field == "gateway.host");
  CHECK_THAT(r.detail, Catch::Contains("host 2 is an NVMe-oF target"));
}
