// The cluster's node pool alone (models/cluster/node_pool.hpp): the free nodes and GPUs the
// scheduler sees as jobs take and give back GPUs and nodes leave and rejoin the pool, the running
// jobs by expected end, and the placements it refuses.

#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "models/cluster/node_pool.hpp"
#include "models/cluster/wait_queue.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"

using dcsim::models::cluster::NodePool;
using dcsim::models::cluster::WaitQueue;
using dcsim::models::policy::Placement;
using dcsim::models::policy::RunningJob;
using dcsim::models::policy::WaitingJob;
using dcsim::sim::Time;

namespace {

std::vector<int> free_nodes(const NodePool& pool) { return {pool.free_nodes().begin(), pool.free_nodes().end()}; }

// 4 nodes of 8 GPUs, 2 to a rack.
struct Pool {
  dcsim::sim::Simulator sim;
  WaitQueue waiting;
  NodePool pool{4, 2, 8, 700.0, waiting, sim};
};

}  // namespace

TEST_CASE("a node stays out of the free nodes until its last job gives its GPUs back", "[models][cluster][node_pool]") {
  Pool p;
  NodePool& pool = p.pool;
  CHECK(free_nodes(pool) == std::vector<int>{0, 1, 2, 3});
  CHECK(pool.free_gpus() == 32);  // 4 x 8
  CHECK(pool.node(3).rack == 1);  // nodes 2 and 3 share the second rack
  pool.hold(1, 0, 4);             // job 0 on half of node 1
  pool.hold(1, 1, 4);             // job 1 on the other half
  CHECK(free_nodes(pool) == std::vector<int>{0, 2, 3});
  CHECK(pool.free_gpus() == 24);
  CHECK(pool.busy_nodes() == 1);  // shared, it counts once
  CHECK(pool.jobs_on(1) == std::vector<std::size_t>{0, 1});
  pool.release(1, 0, 4);  // job 1 still holds 4: not free yet
  CHECK(free_nodes(pool) == std::vector<int>{0, 2, 3});
  CHECK(pool.free_gpus() == 28);
  pool.release(1, 1, 4);
  CHECK(free_nodes(pool) == std::vector<int>{0, 1, 2, 3});
  CHECK(pool.free_gpus() == 32);
  CHECK(pool.busy_nodes() == 0);
}

TEST_CASE("a node down takes its GPUs out of service until its last fault is repaired",
          "[models][cluster][node_pool]") {
  Pool p;
  NodePool& pool = p.pool;
  pool.hold(2, 7, 8);
  CHECK(pool.fault(2));
  CHECK_FALSE(pool.fault(2));  // a second fault while down: two repairs to come
  CHECK_FALSE(pool.node(2).healthy);
  CHECK(pool.in_service_gpus() == 24);
  CHECK(pool.free_gpus() == 24);  // nodes 0, 1, 3: its 0 free GPUs left with it
  pool.release(2, 7, 8);          // the job is interrupted: the GPUs are free, but not schedulable
  CHECK(pool.free_gpus() == 24);
  CHECK(free_nodes(pool) == std::vector<int>{0, 1, 3});
  CHECK_FALSE(pool.repair(2));  // the other fault still holds it down
  CHECK(pool.repair(2));
  CHECK(pool.in_service_gpus() == 32);
  CHECK(pool.free_gpus() == 32);
  CHECK(free_nodes(pool) == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("a used spare joins the pool, and the repaired node it replaced becomes the spare",
          "[models][cluster][node_pool]") {
  Pool p;
  NodePool& pool = p.pool;
  pool.hold_spares(1);  // node 3
  CHECK(pool.spares().ready() == std::vector<int>{3});
  CHECK(pool.node(3).spare);
  CHECK(pool.in_service_gpus() == 24);
  CHECK(free_nodes(pool) == std::vector<int>{0, 1, 2});
  pool.fault(1);
  pool.use_spare(3);  // replaces node 1 under its job
  CHECK(pool.spares().ready().empty());
  CHECK(free_nodes(pool) == std::vector<int>{0, 2, 3});
  pool.repair(1);  // the pool is one spare short: node 1 refills it, out of the scheduler's pool
  CHECK(pool.node(1).spare);
  CHECK(pool.spares().ready() == std::vector<int>{1});
  CHECK(free_nodes(pool) == std::vector<int>{0, 2, 3});
  pool.set_drained(1, true);  // a drained spare is not ready
  CHECK(pool.spares().ready().empty());
  pool.set_drained(0, true);  // a drained node leaves the free nodes
  CHECK(free_nodes(pool) == std::vector<int>{2, 3});
  CHECK(pool.in_service_gpus() == 16);
  pool.set_drained(0, false);
  pool.set_drained(1, false);
  CHECK(free_nodes(pool) == std::vector<int>{0, 2, 3});
  CHECK(pool.spares().ready() == std::vector<int>{1});
}

TEST_CASE("running jobs are visited by expected end, and one past its end is expected now",
          "[models][cluster][node_pool]") {
  Pool p;
  const std::vector<int> a{0}, b{1, 2}, c{3};
  p.pool.start_running(5, Time::from_seconds(30), 0, 8, a);
  p.pool.start_running(6, Time::from_seconds(10), 2, 8, b);
  p.pool.start_running(7, Time::from_seconds(20), 1, 4, c);
  p.pool.end_running(5, Time::from_seconds(30));
  CHECK(p.pool.running_count() == 2);
  std::vector<RunningJob> seen;
  p.sim.at(Time::from_seconds(15), [&] {
    p.pool.visit_running_by_expected_end([&seen](const RunningJob& r) {
      seen.push_back(r);
      return true;
    });
  });
  p.sim.run();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].job_index == 6);
  CHECK(seen[0].expected_end == Time::from_seconds(15));  // its 10 s are past: any moment now
  CHECK(seen[0].nodes == 2);
  CHECK(seen[0].priority == 2);
  CHECK(seen[1].job_index == 7);
  CHECK(seen[1].expected_end == Time::from_seconds(20));
  CHECK(seen[1].gpus() == 4);
}

TEST_CASE("a placement on a node without room, or twice on one node, is refused as a bug",
          "[models][cluster][node_pool]") {
  Pool p;
  p.waiting.insert(WaitingJob{0, 2, 8, Time::zero(), Time::from_seconds(60), 0});
  p.pool.hold(1, 9, 1);  // one GPU of node 1 is taken
  CHECK_NOTHROW(p.pool.check(Placement{0, {0, 2}}, 1, "fifo"));
  CHECK_THROWS_AS(p.pool.check(Placement{0, {0, 1}}, 1, "fifo"), dcsim::sim::InternalError);
  CHECK_THROWS_AS(p.pool.check(Placement{0, {2, 2}}, 1, "fifo"), dcsim::sim::InternalError);
  CHECK_THROWS_AS(p.pool.check(Placement{0, {0}}, 1, "fifo"), dcsim::sim::InternalError);     // one node short
  CHECK_THROWS_AS(p.pool.check(Placement{1, {0, 2}}, 1, "fifo"), dcsim::sim::InternalError);  // not waiting
}

TEST_CASE("a job's fabric groups are counted once each, and its clock is its slowest node's",
          "[models][cluster][node_pool]") {
  Pool p;
  p.pool.set_fabric_groups({0, 0, 1, 1});
  const std::vector<int> nodes{0, 1, 2};
  CHECK(p.pool.fabric_groups(nodes) == 2);  // leaves 0 and 1
  p.pool.at(2).clock_factor = 0.8;          // throttled
  p.pool.at(0).clock_factor = 0.9;
  CHECK(p.pool.slowest_clock(nodes) == 0.8);
  CHECK(p.pool.slowest_clock(std::vector<int>{1}) == 1.0);
}
