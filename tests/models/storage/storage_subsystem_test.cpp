// The shared object store as the cluster's checkpoint target (storage_subsystem.hpp): a job's
// checkpoints are the store's writes and its restart reads the store's reads, on the front-end
// network, at the bound the drives set (solved by hand below); a write the pool refuses saves
// nothing; each job keeps its newest keep_checkpoints.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <variant>

#include "models/datacenter/datacenter.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/reliability/checkpoint_interval.hpp"
#include "models/storage/crush_placement.hpp"
#include "models/workload/training_job.hpp"
#include "tests/models/storage/storage_test_support.hpp"

using dcsim::models::datacenter::Datacenter;
using dcsim::models::datacenter::DatacenterConfig;
using dcsim::models::datacenter::DatacenterConfigError;
using dcsim::models::reliability::ScriptedNodeFault;
using dcsim::models::storage::StorageConfig;
using dcsim::tests::builtin;
namespace mw = dcsim::models::workload;
namespace net = dcsim::models::network;
namespace sim = dcsim::sim;

namespace {

// Three OSD hosts of one drive each (1 GB/s write, 2 GB/s read, IOPS far above), a pool of
// three replicas: every placement group lives on all three, so each drive takes every byte.
StorageConfig store(double capacity_bytes, int keep) {
  StorageConfig s;
  s.store.hosts = {2, 3, 4};
  s.store.drives_per_host = 1;
  s.store.drive.write_bytes_per_s = 1e9;
  s.store.drive.read_bytes_per_s = 2e9;
  s.store.drive.write_iops = 1e9;
  s.store.drive.read_iops = 1e9;
  s.store.drive.capacity_bytes = capacity_bytes;
  s.store.pools[0].name = "ckpt";
  s.keep_checkpoints = keep;
  return s;
}

// BERT-Large on 2 HGX H100 nodes, analytic steps, a checkpoint after every step into the store.
mw::TrainingJobSpec bert(const dcsim::models::ModelRegistries& reg, int steps) {
  mw::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.nodes = 2;
  t.job.micro_batch_size = 8;
  t.steps = steps;
  t.checkpoint.interval_steps = 1;
  t.checkpoint.target = mw::CheckpointTarget::kStore;
  return t;
}

mw::TrainingJobSpec async_spec(const dcsim::models::ModelRegistries& reg) {
  mw::TrainingJobSpec t = bert(reg, 3);
  t.checkpoint.async = true;
  return t;
}

DatacenterConfig config(const dcsim::models::ModelRegistries& reg, int steps, StorageConfig storage) {
  const mw::TrainingJobSpec t = bert(reg, steps);
  DatacenterConfig c;
  c.cluster.emplace();
  c.cluster->node = dcsim::models::hardware::hgx_h100();
  c.cluster->nodes = 2;
  c.cluster->nodes_per_rack = 2;
  c.cluster->training_jobs.push_back(t);
  c.frontend = dcsim::tests::storage_frontend();  // hosts 2-4 are the OSD hosts, 5 is free
  c.storage = std::move(storage);
  return c;
}

struct Run {
  sim::MemoryTraceSink sink;
  double number(const std::string& key) const {
    const auto& v = sink.summary().at(key).value;
    return std::holds_alternative<double>(v) ? std::get<double>(v) : static_cast<double>(std::get<std::int64_t>(v));
  }
  double job_column(const std::string& name) const {
    const auto& table = sink.table("summary/jobs");
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].name == name) return std::get<double>(table.rows.at(0)[i]);
    }
    return -1.0;
  }
};

// Node 0's jobs crash at `t_s`.
ScriptedNodeFault crash_at(double t_s) {
  ScriptedNodeFault f;
  f.at = sim::Time::from_seconds(t_s);
  f.kind = ScriptedNodeFault::Kind::kJobCrash;
  f.node = 0;
  return f;
}

void run(DatacenterConfig c, Run& out) { dcsim::tests::run_datacenter(std::move(c), out.sink); }

}  // namespace

TEST_CASE("a checkpoint into a three-replica pool takes its bytes over one drive's write rate",
          "[models][datacenter][storage]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  Run r;
  run(config(reg, 3, store(1e15, 2)), r);
  // Each host is primary for a third of the PGs and a replica for the other two thirds: its one
  // drive writes every byte of the checkpoint, at 1 GB/s.
  CHECK(r.number("storage/checkpoint_writes") == 2);
  CHECK(r.number("storage/checkpoint_write_s_max") == Approx(bytes / 1e9).epsilon(0.01));
  CHECK(r.number("storage/client_write_bytes") == Approx(2 * bytes).epsilon(1e-9));
  CHECK(r.number("storage/back_bytes") == Approx(2 * 2 * bytes).epsilon(1e-9));  // two forwards per byte
  // The job's time writing checkpoints is the store's.
  CHECK(r.job_column("checkpoint_s") == Approx(r.number("storage/stall_s")).epsilon(1e-6));
  CHECK(r.number("storage/pools/ckpt/stored_bytes_end") == Approx(2 * bytes).epsilon(1e-9));
}

TEST_CASE("a job keeps only its newest keep_checkpoints in the store", "[models][datacenter][storage]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  for (int keep : {1, 2}) {
    Run r;
    run(config(reg, 4, store(1e15, keep)), r);  // 3 checkpoints written
    CHECK(r.number("storage/checkpoint_writes") == 3);
    CHECK(r.number("storage/pools/ckpt/stored_bytes_end") == Approx(keep * bytes).epsilon(1e-9));
  }
}

TEST_CASE("a write the full pool refuses saves nothing and the job keeps its previous checkpoint",
          "[models][datacenter][storage]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  // Each drive holds every byte; at full_ratio 0.95 a drive of 1.5 checkpoints / 0.95 holds one
  // checkpoint and not two (the old one is deleted only once the new one is safe).
  Run r;
  run(config(reg, 3, store(1.5 * bytes / 0.95, 1)), r);
  CHECK(r.number("storage/checkpoint_writes") == 1);
  CHECK(r.number("storage/checkpoint_writes_failed") == 1);
  CHECK(r.job_column("checkpoints") == 1);
  CHECK(r.number("storage/pools/ckpt/stored_bytes_end") == Approx(bytes).epsilon(1e-9));
}

TEST_CASE("a restart reads its checkpoint back through the store before its work resumes",
          "[models][datacenter][storage]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  Run first;
  run(config(reg, 3, store(1e15, 2)), first);
  const auto& ops = first.sink.table("storage/operations");
  const double first_write_end_s = std::get<double>(ops.rows.at(0)[5]);
  // The job crashes just after its first checkpoint is saved.
  DatacenterConfig crashed = config(reg, 3, store(1e15, 2));
  crashed.node_faults.push_back(crash_at(first_write_end_s + 0.01));
  Run r;
  run(std::move(crashed), r);
  CHECK(r.number("storage/checkpoint_reads") == 1);
  // A replicated read comes from the primaries: each host's drive serves the share of PGs whose
  // primary it is, at 2 GB/s; the host with the most primaries finishes last. The same placement
  // (same pool, same seed) says how many that is.
  const StorageConfig s = store(1e15, 2);
  const dcsim::models::storage::CrushPlacement placement(3, 1, 1, s.store.pools[0], 0, s.store.seed);
  int primaries[3] = {0, 0, 0};
  for (int pg = 0; pg < placement.pg_count(); ++pg) ++primaries[placement.host_of(placement.members(pg)[0])];
  const double busiest = std::max({primaries[0], primaries[1], primaries[2]}) / double(placement.pg_count());
  CHECK(busiest >= 1.0 / 3);
  CHECK(r.number("storage/checkpoint_read_s_max") == Approx(busiest * bytes / 2e9).epsilon(0.01));
  CHECK(r.number("storage/client_read_bytes") == Approx(bytes).epsilon(1e-9));
  CHECK(
      r.number("storage/jobs/bert/stall_s") ==
      Approx(r.number("storage/checkpoint_read_s_max") + 2 * r.number("storage/checkpoint_write_s_max")).epsilon(0.02));
}

TEST_CASE("an async save stalls the job only for its snapshot and counts once its write has finished",
          "[models][datacenter][storage]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  DatacenterConfig sync = config(reg, 3, store(1e15, 2));
  DatacenterConfig async = config(reg, 3, store(1e15, 2));
  async.cluster->training_jobs[0] = async_spec(reg);
  Run s, a;
  run(std::move(sync), s);
  run(std::move(async), a);
  // Both write the same two checkpoints at the drives' rate (bytes / 1 GB/s each, by hand above).
  CHECK(a.number("storage/checkpoint_writes") == 2);
  CHECK(a.number("storage/checkpoint_write_s_max") == Approx(s.number("storage/checkpoint_write_s_max")));
  CHECK(a.job_column("checkpoints") == 1);  // the second save's write outlives the job's last step
  // Each save stalls the job for the copy to host memory: its nodes' shares (bytes / 2) at 8 GPUs
  // x 52 GB/s. The first write (W = bytes / 1 GB/s) runs beside step 2 (T, far shorter), so the
  // second save also waits W - T for it: the host memory holds one snapshot.
  const double snapshot_s = bytes / 2 / (8 * 52e9);
  const double write_s = bytes / 1e9;
  const double step_s =
      mw::plan_training_job(async_spec(reg), dcsim::models::hardware::hgx_h100(), reg.collective_algorithms)
          .step.step_time_s;
  REQUIRE(step_s < write_s);
  CHECK(a.job_column("checkpoint_s") == Approx(2 * snapshot_s + write_s - step_s).epsilon(0.01));
  CHECK(s.job_column("checkpoint_s") == Approx(2 * write_s).epsilon(0.01));
  // The store's writes ran beside the async job's steps: it waited on none of them.
  CHECK(a.number("storage/jobs/bert/stall_s") == 0.0);
  CHECK(s.number("storage/jobs/bert/stall_s") == Approx(s.job_column("checkpoint_s")).epsilon(1e-6));
  // The async job finishes its steps sooner by what it did not wait for.
  CHECK(a.job_column("checkpoint_s") < s.job_column("checkpoint_s") - write_s / 2);
}

namespace {

// The same job and store with end-to-end checksums (`verify`) at 1 GB/s per rank (slow, so that
// hashing shows) and a corruption rate so high (1e12 per PB) that every checkpoint is saved
// corrupted (1 - exp(-4e3) is 1 in a double), or none (0).
DatacenterConfig checked(const dcsim::models::ModelRegistries& reg, int steps, bool verify, double corruptions_per_pb) {
  DatacenterConfig c = config(reg, steps, store(1e15, 2));
  c.storage->integrity.verify = verify;
  c.storage->integrity.hash_bytes_per_s_per_gpu = 1e9;
  c.storage->integrity.corruptions_per_pb = corruptions_per_pb;
  c.cluster->sdc_detection = dcsim::models::cluster::SdcDetection{1.0, 0};
  return c;
}

// When the job's second checkpoint (its write, row 1 of storage/operations) is saved.
double second_save_s(const Run& r) { return std::get<double>(r.sink.table("storage/operations").rows.at(1)[5]); }

double count_of(const Run& r, const std::string& event) {
  double n = 0;
  for (const auto& row : r.sink.table("integrity_events").rows) n += std::get<std::string>(row[3]) == event;
  return n;
}

}  // namespace

TEST_CASE("verified checkpoints add each rank's hashing to every write and restart read",
          "[models][datacenter][storage][integrity]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  Run plain, verified;
  run(checked(reg, 3, false, 0.0), plain);
  run(checked(reg, 3, true, 0.0), verified);
  // Each node's share (bytes / 2) is hashed by its 8 ranks at 1 GB/s each before it is written.
  const double hash_s = bytes / 2 / (8 * 1e9);
  CHECK(verified.number("storage/checkpoint_write_s_max") ==
        Approx(plain.number("storage/checkpoint_write_s_max") + hash_s).epsilon(1e-6));
  CHECK(verified.number("storage/integrity/hash_node_s") ==
        Approx(2 * 2 * hash_s).epsilon(1e-6));  // 2 writes x 2 nodes
  CHECK(plain.number("storage/integrity/hash_node_s") == 0.0);
  // A restart read is verified after it arrives: the read takes the hash time more.
  DatacenterConfig crash_plain = checked(reg, 3, false, 0.0), crash_verified = checked(reg, 3, true, 0.0);
  crash_plain.node_faults.push_back(crash_at(second_save_s(plain) + 0.01));
  crash_verified.node_faults.push_back(crash_at(second_save_s(verified) + 0.01));
  Run rp, rv;
  run(std::move(crash_plain), rp);
  run(std::move(crash_verified), rv);
  CHECK(rv.number("storage/checkpoint_reads") == 1);
  CHECK(rv.number("storage/checkpoint_read_s_max") ==
        Approx(rp.number("storage/checkpoint_read_s_max") + hash_s).epsilon(1e-6));
}

TEST_CASE("a corrupted checkpoint its checksums find at the restart read sends the job back to the one before",
          "[models][datacenter][storage][integrity]") {
  const auto reg = builtin();
  Run clean;
  run(checked(reg, 4, true, 0.0), clean);
  // The job crashes just after its second checkpoint (step 2) is saved; both it and the first
  // were saved corrupted. The read of step 2 fails its checksums, so does the read of step 1:
  // the job starts over, its two steps lost, and the store keeps neither.
  DatacenterConfig c = checked(reg, 4, true, 1e12);
  c.node_faults.push_back(crash_at(second_save_s(clean) + 0.01));
  Run r;
  run(std::move(c), r);
  CHECK(r.number("storage/integrity/checkpoints_corrupted") == 2 + 3);  // before the crash, and after
  CHECK(r.number("storage/integrity/corrupt_reads_found") == 2);
  CHECK(r.number("storage/integrity/corrupt_reads_loaded") == 0);
  CHECK(r.number("storage/checkpoint_reads") == 2);
  CHECK(r.number("integrity/corrupt_checkpoint_fallbacks") == 2);
  CHECK(count_of(r, "checkpoint_corrupt_found") == 2);
  const double step_s =
      mw::plan_training_job(bert(reg, 4), dcsim::models::hardware::hgx_h100(), reg.collective_algorithms)
          .step.step_time_s;
  CHECK(r.number("integrity/corrupt_checkpoint_lost_gpu_h") == Approx(2 * step_s * 16 / 3600).epsilon(1e-9));
  CHECK(r.number("integrity/wrong_results") == 0);  // it never ran on corrupted state
  // Three checkpoints saved after starting over; the store keeps the newest two.
  CHECK(r.job_column("steps_done") == 4);
}

TEST_CASE("without checksums a corrupted checkpoint is loaded and only the loss checks can catch it",
          "[models][datacenter][storage][integrity]") {
  const auto reg = builtin();
  Run clean;
  run(checked(reg, 4, false, 0.0), clean);
  for (double probability : {0.0, 1.0}) {
    DatacenterConfig c = checked(reg, 4, false, 1e12);
    c.cluster->sdc_detection->probability = probability;
    c.node_faults.push_back(crash_at(second_save_s(clean) + 0.01));
    Run r;
    run(std::move(c), r);
    CHECK(r.number("storage/integrity/corrupt_reads_found") == 0);
    if (probability == 0.0) {
      // Loaded at step 2 and never caught: the job finishes on it.
      CHECK(r.number("storage/integrity/corrupt_reads_loaded") == 1);
      CHECK(r.number("integrity/missed") == 1);
      CHECK(r.number("integrity/wrong_results") == 1);
    } else {
      // Caught at once (latency 0): back to step 1's checkpoint, loaded (corrupt too) and caught
      // again: back to the start, clean from there.
      CHECK(r.number("storage/integrity/corrupt_reads_loaded") == 2);
      CHECK(r.number("integrity/caught") == 2);
      CHECK(r.number("integrity/quarantines") == 0);  // no GPU to blame
      CHECK(r.number("integrity/wrong_results") == 0);
      CHECK(r.number("reliability/interruptions/corrupt checkpoint") == 2);
    }
  }
}

TEST_CASE("Daly's interval for a job saving into the store is set by the store's drives, not the job's NICs",
          "[models][datacenter][storage]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  DatacenterConfig c = config(reg, 400, store(1e15, 2));
  c.cluster->node_fault_rate_per_hour = 0.5;  // 2 nodes: the job's MTBF is 1 h
  Run r;
  run(c, r);
  // A save cannot beat the three drives: 3 x the bytes at 1 GB/s each = bytes / 1 GB/s. The
  // NICs alone (two 400G front-end ports per node's share) would allow far less.
  const auto plan = mw::plan_training_job(c.cluster->training_jobs[0], c.cluster->node, reg.collective_algorithms);
  const double drive_bound_s = bytes / 1e9;
  REQUIRE(plan.checkpoint_s < drive_bound_s / 10);
  const double interval_s = dcsim::models::reliability::checkpoint_interval_daly(drive_bound_s, 3600.0);
  const int interval_steps = std::max(1, static_cast<int>(std::llround(interval_s / plan.step.step_time_s)));
  REQUIRE(interval_steps > 1);
  CHECK(r.job_column("checkpoints") == (400 - 1) / interval_steps);
}

TEST_CASE("a job reading its input from the store runs no faster than the store's drives deliver it",
          "[models][datacenter][storage][dataset]") {
  const auto reg = builtin();
  DatacenterConfig plain = config(reg, 16, store(1e15, 2));
  plain.cluster->training_jobs[0].checkpoint.interval_steps = 0;
  DatacenterConfig fed = plain;
  mw::DatasetConfig& data = fed.cluster->training_jobs[0].dataset;
  data.from_store = true;
  data.bytes_per_sample = 1e9;  // 1 GB per sequence: far more than BERT's short steps can take in
  data.prefetch_steps = 4;
  const auto plan = mw::plan_training_job(fed.cluster->training_jobs[0], fed.cluster->node, reg.collective_algorithms);
  const double total = 16 * plan.dataset_bytes_per_step;
  REQUIRE(plan.dataset_bytes_per_step ==
          Approx(plan.step.tokens_per_step / fed.cluster->training_jobs[0].job.model.seq_len * 1e9));
  Run p, r;
  run(std::move(plain), p);
  run(std::move(fed), r);
  CHECK(r.number("storage/dataset_reads") == 4);  // 16 steps in chunks of 4
  CHECK(r.number("storage/dataset_bytes") == Approx(total).epsilon(1e-9));
  // Replicated reads come from the primaries' drives: three drives of 2 GB/s at best.
  const double finish = r.job_column("finish_s");
  CHECK(finish >= total / 6e9);
  // Nothing else slows it: the time beyond the plain run's is the wait for input.
  CHECK(finish - p.job_column("finish_s") == Approx(r.number("storage/data_stall_s")).epsilon(1e-6));
  CHECK(r.number("storage/data_stall_gpu_h") == Approx(r.number("storage/data_stall_s") * 16 / 3600).epsilon(1e-9));
}

TEST_CASE("random osd_host_down faults take the store's hosts down and back like scripted ones",
          "[models][datacenter][storage][reliability]") {
  namespace rel = dcsim::models::reliability;
  const auto reg = builtin();
  DatacenterConfig c = config(reg, 3, store(1e15, 2));
  c.duration = sim::Time::from_seconds(10 * 3600);
  rel::FaultModelConfig faults;
  faults.inventory.nodes = 2;
  faults.inventory.osd_hosts = 3;
  // About one fault per host per hour, each down for 10 minutes.
  faults.classes.push_back({"osd", rel::ComponentKind::kOsdHost, 1.0, 1.0,
                            sim::Distribution{sim::Distribution::Kind::kFixed, 600.0, 0.0},
                            rel::FaultEffect::kOsdHostDown});
  c.reliability = faults;
  Run r;
  run(std::move(c), r);
  const double fired = r.number("reliability/faults/osd");
  CHECK(fired >= 10);  // 3 hosts x 10 h at 1 per hour, less repair time: ~26 expected
  CHECK(r.number("storage/host_failures") == fired);
  for (const auto& row : r.sink.table("faults").rows) {
    CHECK(std::get<std::string>(row[2]).rfind("storage/osd_host/", 0) == 0);
  }
  // The hosts_down series steps up once per fault and down once per repair.
  const auto& down = r.sink.series("storage/hosts_down").value;
  int rises = 0;
  for (std::size_t i = 1; i < down.size(); ++i) rises += down[i] > down[i - 1];
  CHECK(rises == fired);
}

TEST_CASE("a dataset in the store takes its pool's room: the checkpoints get what is left, or none",
          "[models][datacenter][storage][dataset]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  // Each of the 3 drives holds every byte (3 replicas on 3 hosts): at full_ratio 0.95 a drive of
  // 10 checkpoints / 0.95 keeps 10 checkpoints' worth of client data.
  const auto with_dataset = [&](double dataset_bytes) {
    DatacenterConfig c = config(reg, 3, store(10 * bytes / 0.95, 2));  // two saves
    mw::DatasetConfig& data = c.cluster->training_jobs[0].dataset;
    data.from_store = true;
    data.size_bytes = dataset_bytes;
    return c;
  };
  // 7.5 checkpoints of dataset: room for both saves (2 kept: 9.5 of 10).
  Run roomy;
  run(with_dataset(7.5 * bytes), roomy);
  CHECK(roomy.number("storage/checkpoint_writes") == 2);
  CHECK(roomy.number("storage/pools/ckpt/dataset_bytes") == Approx(7.5 * bytes));
  CHECK(roomy.number("storage/pools/ckpt/stored_bytes_end") == Approx(9.5 * bytes).epsilon(1e-9));
  // 8.5: the first save fits (9.5), the second would make 10.5 and is refused.
  Run tight;
  run(with_dataset(8.5 * bytes), tight);
  CHECK(tight.number("storage/checkpoint_writes") == 1);
  CHECK(tight.number("storage/checkpoint_writes_failed") == 1);
  // 11: the dataset alone does not fit; the store says so before anything runs.
  DatacenterConfig too_big = with_dataset(11 * bytes);
  sim::Simulator simulator;
  sim::MemoryTraceSink sink;
  try {
    Datacenter datacenter(std::move(too_big), reg, simulator, sink);
    FAIL("built a store too small for its dataset");
  } catch (const DatacenterConfigError& e) {
    CHECK(e.field() == "pools[0]");
    CHECK_THAT(e.detail(), Catch::Contains("less than the datasets it holds: job 'bert' adds"));
  }
  // Left out, the size is what the job reads: its steps x bytes per step.
  DatacenterConfig derived = config(reg, 3, store(1e15, 2));
  derived.cluster->training_jobs[0].dataset.from_store = true;
  const auto plan =
      mw::plan_training_job(derived.cluster->training_jobs[0], derived.cluster->node, reg.collective_algorithms);
  CHECK(plan.dataset_bytes_stored == Approx(3 * plan.dataset_bytes_per_step));
}

TEST_CASE("an off-site copy of a store checkpoint is read off the OSD hosts' drives: each host its primaries' share",
          "[models][datacenter][storage][uplink]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  // Host 5 of the front-end is the gateway of 1.6 Tb/s of ports (200 GB/s): far above the drives'
  // reads (2 GB/s per host), so the drives bind. Every checkpoint is copied.
  DatacenterConfig c = config(reg, 3, store(1e15, 2));
  c.uplink.emplace();
  c.uplink->ports.push_back({1.6e12, 1});
  c.uplink->gateway = dcsim::models::network::UplinkGateway{false, 5};
  c.uplink->checkpoint_copies = dcsim::models::network::CheckpointCopies{1, 0};
  Run r;
  run(std::move(c), r);
  // Bytes in = bytes out: both checkpoints leave whole.
  CHECK(r.number("uplink/out_bytes") == Approx(2 * bytes).epsilon(1e-9));
  // A copy reads as a replicated read does: each host's drive gives the share of PGs whose
  // primary it is, at 2 GB/s, and the busiest host ends the copy (the same placement as the
  // restart read above says which). From the NICs alone it would take bytes / 200 GB/s.
  const StorageConfig s = store(1e15, 2);
  const dcsim::models::storage::CrushPlacement placement(3, 1, 1, s.store.pools[0], 0, s.store.seed);
  int primaries[3] = {0, 0, 0};
  for (int pg = 0; pg < placement.pg_count(); ++pg) ++primaries[placement.host_of(placement.members(pg)[0])];
  const double busiest = std::max({primaries[0], primaries[1], primaries[2]}) / double(placement.pg_count());
  const auto& transfers = r.sink.table("uplink/transfers");
  REQUIRE(transfers.rows.size() == 2);
  for (const auto& row : transfers.rows) {
    CHECK(std::get<double>(row[5]) - std::get<double>(row[4]) == Approx(busiest * bytes / 2e9).epsilon(1e-3));
  }
}
