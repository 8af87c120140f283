// FreeCapacity alone, on a view written by hand: what one scheduling call has taken is counted
// per node, whether the call took a few nodes (scanned) or many (looked up by node).

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

#include "models/policy/free_capacity.hpp"

namespace policy = dcsim::models::policy;

namespace {

// `nodes` healthy nodes of 8 GPUs, every GPU free, nothing waiting or running; NVLink domains of
// `domain_nodes` nodes.
class FreeView final : public policy::ClusterView {
 public:
  explicit FreeView(int nodes, int domain_nodes = 1)
      : states_(static_cast<std::size_t>(nodes)), free_(static_cast<std::size_t>(nodes)), domain_(domain_nodes) {
    for (auto& s : states_) s.gpus = s.free_gpus = 8;
    std::iota(free_.begin(), free_.end(), 0);
  }
  // Node `n` runs something: no GPU free.
  void occupy(int n) {
    states_[static_cast<std::size_t>(n)].free_gpus = 0;
    std::erase(free_, n);
  }
  int nodes_per_nvlink_domain() const override { return domain_; }
  dcsim::sim::Time now() const override { return dcsim::sim::Time::zero(); }
  int node_count() const override { return static_cast<int>(states_.size()); }
  int gpus_per_node() const override { return 8; }
  const policy::NodeState& node(int id) const override { return states_[static_cast<std::size_t>(id)]; }
  std::span<const int> free_nodes() const override { return free_; }
  int free_gpus() const override { return 8 * static_cast<int>(free_.size()); }
  double gpu_temperature_c(int) const override { return 0.0; }
  double rack_power_headroom_w(int) const override { return 0.0; }
  double node_load_power_w() const override { return 0.0; }
  std::span<const policy::WaitingJob> waiting() const override { return {}; }
  void visit_running_by_expected_end(const std::function<bool(const policy::RunningJob&)>&) const override {}
  std::size_t running_count() const override { return 0; }
  int in_service_gpus() const override { return 8 * node_count(); }

 private:
  std::vector<policy::NodeState> states_;
  std::vector<int> free_;
  int domain_;
};

}  // namespace

TEST_CASE("free capacity counts what one call took per node, past the scan's few entries", "[models][policy]") {
  // 40 one-GPU jobs on 40 nodes of 8 GPUs: best fit fills node 0, then 1, ... so nodes 0-4 end
  // full (5 x 8 = 40) and 35 nodes stay whole. 40 takes is past the 32 that are scanned, so the
  // later ones are counted by node.
  const FreeView view(40);
  policy::FreeCapacity free(view);
  policy::WaitingJob one_gpu;
  one_gpu.gpus_per_node = 1;
  for (int j = 0; j < 40; ++j) {
    const auto nodes = free.take_default(one_gpu);
    REQUIRE(nodes);
    CHECK(nodes->front() == j / 8);
  }
  for (int n = 0; n < 5; ++n) CHECK(free.free_gpus_on(n) == 0);
  CHECK(free.free_gpus_on(5) == 8);
  CHECK(free.whole_free_nodes() == 35);
  CHECK(free.free_gpus() == 320 - 40);
  // A whole-node job of 35 nodes still fits, one of 36 does not.
  policy::WaitingJob whole;
  whole.gpus_per_node = 8;
  whole.nodes = 36;
  CHECK_FALSE(free.take_default(whole));
  whole.nodes = 35;
  const auto nodes = free.take_default(whole);
  REQUIRE(nodes);
  CHECK(nodes->front() == 5);
  CHECK(free.whole_free_nodes() == 0);
}

TEST_CASE("NVLink blocks come whole from one domain, lowest domains first", "[models][policy][nvlink]") {
  // Two GB200 NVL72 racks of 18 trays; tray 3 is busy. A job of 18 trays whose TP 8 groups span
  // 2 trays (4 GPUs each) takes 8 blocks from the 17 free trays of rack 0 and 1 from rack 1: the
  // 17th free tray of rack 0 would have split a block over the racks, so it stays free.
  FreeView view(36, 18);
  view.occupy(3);
  policy::WaitingJob job;
  job.gpus_per_node = 8;
  job.nodes = 18;
  job.nvlink_block_nodes = 2;
  {
    policy::FreeCapacity free(view);
    const auto nodes = free.take_default(job);
    REQUIRE(nodes);
    CHECK(policy::nvlink_aligned(*nodes, 2, 18));
    CHECK(std::vector<int>(nodes->begin(), nodes->begin() + 3) == std::vector<int>{0, 1, 2});
    CHECK(std::count_if(nodes->begin(), nodes->end(), [](int n) { return n < 18; }) == 16);
    CHECK(nodes->back() == 19);
    CHECK(free.free_gpus_on(17) == 8);
    // A hand-picked list that splits a block is refused, nothing taken.
    policy::WaitingJob two = job;
    two.nodes = 2;
    CHECK_FALSE(free.take(two, {17, 20}));
    CHECK(free.take(two, {20, 21}));
  }
  {
    // Without blocks the lowest 18 free trays straddle the racks (tray 18 with 16 and 17).
    policy::FreeCapacity free(view);
    job.nvlink_block_nodes = 1;
    const auto nodes = free.take_default(job);
    REQUIRE(nodes);
    CHECK(nodes->back() == 18);
    CHECK_FALSE(policy::nvlink_aligned(*nodes, 2, 18));
  }
  {
    // A block of a whole rack: only rack 1 holds one.
    policy::FreeCapacity free(view);
    job.nvlink_block_nodes = 18;
    const auto nodes = free.take_default(job);
    REQUIRE(nodes);
    CHECK(nodes->front() == 18);
    CHECK(nodes->back() == 35);
    job.nodes = 36;
    job.nvlink_block_nodes = 18;
    CHECK_FALSE(policy::FreeCapacity(view).take_default(job));
  }
}
