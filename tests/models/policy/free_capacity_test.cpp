// FreeCapacity alone, on a view written by hand: what one scheduling call has taken is counted
// per node, whether the call took a few nodes (scanned) or many (looked up by node).

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

#include "models/policy/free_capacity.hpp"

namespace policy = dcsim::models::policy;

namespace {

// `nodes` healthy nodes of 8 GPUs, every GPU free, nothing waiting or running.
class FreeView final : public policy::ClusterView {
 public:
  explicit FreeView(int nodes) : states_(static_cast<std::size_t>(nodes)), free_(static_cast<std::size_t>(nodes)) {
    for (auto& s : states_) s.gpus = s.free_gpus = 8;
    std::iota(free_.begin(), free_.end(), 0);
  }
  dcsim::sim::Time now() const override { return dcsim::sim::Time::zero(); }
  int node_count() const override { return static_cast<int>(states_.size()); }
  int gpus_per_node() const override { return 8; }
  const policy::NodeState& node(int id) const override { return states_[static_cast<std::size_t>(id)]; }
  std::span<const int> free_nodes() const override { return free_; }
  int free_gpus() const override { return 8 * node_count(); }
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
