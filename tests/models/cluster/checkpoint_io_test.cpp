// Checkpoint I/O alone (models/cluster/checkpoint_io.hpp): which target a plan's checkpoints go
// to and come back from, against a store and namespaces written by hand that record their calls.
// The same paths under a real cluster and store are in tests/models/storage/.

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/cluster/checkpoint_io.hpp"

namespace seams = dcsim::models::seams;
namespace workload = dcsim::models::workload;
using dcsim::models::cluster::CheckpointIo;
using dcsim::sim::Time;

namespace {

struct FakeStore final : seams::CheckpointStore {
  int kept = 3;
  double bound_s = 0.0;
  std::vector<std::pair<std::string, std::size_t>> kept_oldest;
  std::vector<std::string> reads;  // job/pool
  bool answer_now = true;          // else the reads wait in `pending`
  std::vector<std::function<void(seams::CheckpointRead)>> pending;
  std::unique_ptr<seams::CheckpointWriter> writer(const std::string&, const std::string&, const std::vector<int>&,
                                                  bool) override {
    return nullptr;
  }
  void read(const std::string& job, const std::string& pool, const std::vector<int>&, double,
            std::function<void(seams::CheckpointRead)> on_done) override {
    reads.push_back(job + "/" + pool);
    if (answer_now) {
      on_done(seams::CheckpointRead::kCorruptFound);
    } else {
      pending.push_back(std::move(on_done));
    }
  }
  int kept_checkpoints() const override { return kept; }
  double write_bound_s(const std::string&, double, int) const override { return bound_s; }
  void keep_oldest(const std::string& job, std::size_t count) override { kept_oldest.emplace_back(job, count); }
  void hold_dataset(const std::string&, const std::string&, double) override {}
  void read_data(DataKind, const std::string&, const std::string&, const std::vector<int>&, double,
                 std::function<void(bool)>) override {}
  std::vector<dcsim::models::network::UplinkSource> copy_sources(const std::string&) const override { return {}; }
};

struct FakeNamespaces final : seams::CheckpointNamespaces {
  bool reachable = true;
  double bound_s = 0.0;
  std::unique_ptr<seams::CheckpointWriter> writer(const std::vector<int>&) override { return nullptr; }
  void read(const std::vector<int>&, double, std::function<void(bool)> on_done) override { on_done(reachable); }
  double write_bound_s(double, int) const override { return bound_s; }
};

workload::TrainingJobPlan plan_to(workload::CheckpointTarget target, bool async = false) {
  workload::TrainingJobPlan p;
  p.checkpoint_config.target = target;
  p.checkpoint_config.pool = "ckpt";
  p.checkpoint_config.async = async;
  p.checkpoint_bytes = 1e9;
  p.checkpoint_bytes_per_node = 1e9;
  return p;
}

}  // namespace

TEST_CASE("a plan's checkpoints are in the store only when it names the store and one is attached",
          "[models][cluster][checkpoint_io]") {
  CheckpointIo io;
  const auto to_store = plan_to(workload::CheckpointTarget::kStore);
  CHECK_FALSE(io.in_store(to_store));  // nothing attached: the plan's rate
  CHECK(io.kept_checkpoints(to_store) == 0);
  FakeStore store;
  io.attach_store(store);
  CHECK(io.in_store(to_store));
  CHECK_FALSE(io.in_namespaces(to_store));
  CHECK(io.kept_checkpoints(to_store) == 3);
  store.kept = 0;  // the store keeps at least the latest
  CHECK(io.kept_checkpoints(to_store) == 1);
  auto empty = to_store;
  empty.checkpoint_bytes = 0.0;  // nothing to write: no reads back either
  CHECK_FALSE(io.in_store(empty));
  io.keep_oldest("j", to_store, 2);
  io.keep_oldest("j", plan_to(workload::CheckpointTarget::kNvmeof), 1);  // not the store's
  REQUIRE(store.kept_oldest.size() == 1);
  CHECK(store.kept_oldest[0] == std::pair<std::string, std::size_t>{"j", 2});
}

TEST_CASE("a synchronous save costs at least what the drives of its target take", "[models][cluster][checkpoint_io]") {
  CheckpointIo io;
  FakeStore store;
  FakeNamespaces namespaces;
  io.attach_store(store);
  io.attach_namespaces(namespaces);
  store.bound_s = 30.0;
  namespaces.bound_s = 5.0;
  // The plan's own cost (its NICs) is 10 s: the store's drives bound it at 30 s, the
  // namespaces' at 5 s leave it at 10 s, and an asynchronous save never stalls on the drives.
  CHECK(io.sync_save_cost_s(plan_to(workload::CheckpointTarget::kStore), 16, 10.0) == 30.0);
  CHECK(io.sync_save_cost_s(plan_to(workload::CheckpointTarget::kNvmeof), 16, 10.0) == 10.0);
  CHECK(io.sync_save_cost_s(plan_to(workload::CheckpointTarget::kStore, true), 16, 10.0) == 10.0);
}

TEST_CASE("a checkpoint is read back from where the plan keeps it", "[models][cluster][checkpoint_io]") {
  CheckpointIo io;
  FakeStore store;
  FakeNamespaces namespaces;
  io.attach_store(store);
  io.attach_namespaces(namespaces);
  std::vector<seams::CheckpointRead> results;
  const auto record = [&results](seams::CheckpointRead r) {
    results.push_back(r);
    return false;  // the run begins
  };
  const auto read = [&io, &record](workload::CheckpointTarget target) {
    const auto plan = plan_to(target);
    io.reload_time(0, plan, true);
    return io.read_owed(0, "j", plan, {0, 1}, record);
  };
  CHECK(read(workload::CheckpointTarget::kStore));
  CHECK(store.reads == std::vector<std::string>{"j/ckpt"});
  // Namespaces have no checksums: all of it (ok) or a target out of reach (unavailable).
  CHECK(read(workload::CheckpointTarget::kNvmeof));
  namespaces.reachable = false;
  CHECK(read(workload::CheckpointTarget::kNvmeof));
  CHECK(results == std::vector<seams::CheckpointRead>{seams::CheckpointRead::kCorruptFound, seams::CheckpointRead::kOk,
                                                      seams::CheckpointRead::kUnavailable});
  CHECK(store.reads.size() == 1);
}

TEST_CASE("a restart owes a read where its plan keeps its checkpoint; a stopped run's read is ignored",
          "[models][cluster][checkpoint_io]") {
  CheckpointIo io;
  FakeStore store;
  io.attach_store(store);
  // Kept elsewhere, 1 GB per node read back at 100 MB/s: 10 s before the work resumes.
  auto at_rate = plan_to(workload::CheckpointTarget::kRemote);
  at_rate.checkpoint_rate_bytes_per_s = 1e8;
  CHECK(io.reload_time(0, at_rate, true) == Time::from_seconds(10.0));
  CHECK(io.reload_time(0, at_rate, false) == Time::zero());
  int answers = 0;
  const auto back_once = [&answers](seams::CheckpointRead) { return ++answers == 1; };
  const auto to_store = plan_to(workload::CheckpointTarget::kStore);
  CHECK_FALSE(io.read_owed(0, "j", to_store, {0, 1}, back_once));  // nothing owed
  // In the store: no delay, a read at the run's begin instead. The fake finds every checkpoint
  // corrupt; the job goes back to the one before once (read in turn), then begins.
  CHECK(io.reload_time(0, to_store, true) == Time::zero());
  CHECK(io.read_owed(0, "j", to_store, {0, 1}, back_once));
  CHECK(answers == 2);
  CHECK(store.reads.size() == 2);
  CHECK_FALSE(io.read_owed(0, "j", to_store, {0, 1}, back_once));  // read: owed no more
  // A run that stops while its read is in flight never hears of it.
  store.answer_now = false;
  io.reload_time(1, to_store, true);
  CHECK(io.read_owed(1, "k", to_store, {2}, back_once));
  io.forget_read(1);
  REQUIRE(store.pending.size() == 1);
  store.pending.front()(seams::CheckpointRead::kOk);
  CHECK(answers == 2);
}
