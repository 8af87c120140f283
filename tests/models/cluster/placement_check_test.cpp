#include <catch2/catch.hpp>

#include <memory>
#include <numeric>
#include <vector>

#include "models/policy/cluster_view.hpp"
#include "models/policy/scheduler.hpp"
#include "sim/error.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using namespace dcsim;

namespace {

// A broken policy: the first waiting job gets nodes 0 .. n-2 and node 0 again.
class TwiceOnNodeZero final : public models::policy::Scheduler {
 public:
  std::vector<models::policy::Placement> schedule(const models::policy::ClusterView& view) override {
    if (view.waiting().empty()) return {};
    models::policy::Placement p;
    p.position = 0;
    p.nodes.resize(static_cast<std::size_t>(view.waiting().front().nodes));
    std::iota(p.nodes.begin(), p.nodes.end() - 1, 0);
    p.nodes.back() = 0;
    return {p};
  }
};

}  // namespace

TEST_CASE("cluster: a policy that places a job twice on one node is refused as a bug, small or large",
          "[models][cluster]") {
  // 4 nodes take the scan of earlier nodes, 40 the sorted copy (past 32): both must see it.
  for (int nodes : {4, 40}) {
    INFO(nodes << " nodes");
    ModelRegistries registries = tests::builtin();
    registries.schedulers.add({"twice", "test: places node 0 twice", {}, [](const sim::Params&) {
                                 return std::make_unique<TwiceOnNodeZero>();
                               }});
    ClusterConfig c = tests::simple_cluster(64);
    c.scheduler = "twice";
    c.jobs.push_back(tests::job("j", Time::zero(), nodes, Time::from_s(60), 1.0));
    sim::Simulator s;
    sim::MemoryTraceSink sink;
    ClusterSimulation model(c, registries, s, sink);
    model.start();
    CHECK_THROWS_WITH(s.run(), Catch::Contains("scheduler 'twice' placed a job twice on one node"));
  }
}
