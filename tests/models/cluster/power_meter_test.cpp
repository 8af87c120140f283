// The cluster's power meter and telemetry series, alone (power_meter.hpp, cluster_telemetry.hpp):
// nodes' power set by hand, no cluster, no jobs. The cluster drives the same calls from job
// placements and its power source (cluster_simulation_test.cpp checks the totals end to end).

#include <catch2/catch.hpp>

#include <vector>

#include "models/cluster/cluster_telemetry.hpp"
#include "models/cluster/node_pool.hpp"
#include "models/cluster/power_meter.hpp"
#include "models/cluster/wait_queue.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "sim/signal.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

using dcsim::models::cluster::ClusterTelemetry;
using dcsim::models::cluster::NodePool;
using dcsim::models::cluster::PowerMeter;
using dcsim::models::cluster::WaitQueue;
using dcsim::models::policy::WaitingJob;
using dcsim::sim::Time;

namespace {

Time s(double seconds) { return Time::from_seconds(seconds); }

// The job counts the series read, fixed: 2 jobs running on 3 nodes, 1 waiting. The run has work
// left until told otherwise.
struct FixedCounts final : ClusterTelemetry::Source {
  dcsim::sim::Simulator clock;
  WaitQueue queue;
  NodePool nodes{4, 1, 1, 0.0, queue, clock};
  const std::vector<int> first{0}, second{1, 2};
  bool work_left = true;
  FixedCounts() {
    queue.insert(WaitingJob{2, 1, 1, Time::zero(), s(60), 0});
    for (int n : first) nodes.hold(n, 0, 1);
    for (int n : second) nodes.hold(n, 1, 1);
    nodes.start_running(0, s(60), 0, 1, first);
    nodes.start_running(1, s(60), 0, 1, second);
  }
  bool has_work_left() const override { return work_left; }
};

}  // namespace

TEST_CASE("node energy is power integrated exactly over piecewise-constant intervals", "[models][cluster][power]") {
  PowerMeter meter(3, 2, 100.0, Time::zero());  // racks {0, 1} and {2}, 100 W each
  meter.set_power_w(0, s(10), 400.0);
  meter.set_power_w(0, s(30), 250.0);
  meter.integrate(0, s(40));
  // 100 W x 10 s + 400 W x 20 s + 250 W x 10 s = 1,000 + 8,000 + 2,500 J
  CHECK(meter.node_energy_j(0) == 11500.0);
  CHECK(meter.node_energy_j(1) == 0.0);  // not integrated yet
  // Up to 40 s: node 0's 11,500 J plus 100 W x 40 s for each of nodes 1 and 2
  CHECK(meter.energy_j(s(40)) == 11500.0 + 2 * 4000.0);
  meter.integrate_all(s(40));
  CHECK(meter.node_energy_j(2) == 4000.0);
}

TEST_CASE("racks are summed at settle, the cluster as their sum, with the peaks settled values reach",
          "[models][cluster][power]") {
  PowerMeter meter(3, 2, 100.0, Time::zero());
  CHECK(meter.cluster_power_w() == 0.0);  // nothing settled yet
  meter.settle();                         // every rack starts marked: the idle power
  CHECK(meter.rack_power_w() == std::vector<double>{200.0, 100.0});
  CHECK(meter.cluster_power_w() == 300.0);
  // Two changes in one instant settle once: the 900 W in between never counts as a peak.
  meter.set_power_w(1, s(5), 700.0);
  meter.set_power_w(1, s(5), 150.0);
  meter.settle();
  CHECK(meter.rack_power_w() == std::vector<double>{250.0, 100.0});
  CHECK(meter.peak_power_w() == 350.0);
  CHECK(meter.peak_rack_power_w() == 250.0);
  // A node beyond the racks (a cloud instance) is metered at 0 W and in no rack.
  meter.add_unracked_node(s(5));
  meter.set_power_w(3, s(6), 0.0);
  meter.settle();
  CHECK(meter.rack_power_w().size() == 2);
  meter.integrate(3, s(100));
  CHECK(meter.node_energy_j(3) == 0.0);
}

TEST_CASE("without a telemetry interval a flush appends one point per instant, racks only when changed",
          "[models][cluster][power]") {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  PowerMeter meter(4, 1, 100.0, Time::zero());  // one node per rack
  FixedCounts counts;
  ClusterTelemetry telemetry({Time::zero(), Time::max(), 2}, meter, counts.nodes, counts, sim, sink);  // racks in pairs
  std::vector<double> announced;
  dcsim::sim::Signal<const dcsim::models::seams::ItPowerChange&> it_power;
  it_power.connect([&](const dcsim::models::seams::ItPowerChange& c) { announced.push_back(c.power_w); });
  telemetry.set_it_power_signal(&it_power);
  telemetry.start();
  sim.at(s(10), [&] {
    meter.set_power_w(3, sim.now(), 300.0);  // rack 3: group 1 only
    telemetry.mark_dirty();
    telemetry.mark_dirty();  // one flush for the instant
  });
  sim.at(s(20), [&] { telemetry.mark_dirty(); });  // nothing changed in power
  sim.run();
  const auto& cluster = sink.series("power/cluster_w");
  CHECK(cluster.time_ns == std::vector<std::int64_t>{0, s(10).ns(), s(20).ns()});
  CHECK(cluster.value == std::vector<double>{400.0, 600.0, 600.0});
  // Group 0 (racks 0 and 1) never changed: only its first point.
  CHECK(sink.series("power/rack_group/0_w").value == std::vector<double>{200.0});
  CHECK(sink.series("power/rack_group/1_w").value == std::vector<double>{200.0, 400.0});
  CHECK(sink.series("jobs/running").value == std::vector<double>{2.0, 2.0, 2.0});
  CHECK(sink.series("nodes/busy").value.back() == 3.0);
  // Announced when the settled power changed: from 0 W to idle, then the change at 10 s.
  CHECK(announced == std::vector<double>{400.0, 600.0});
}

TEST_CASE("a telemetry interval samples every series each tick until the duration, or the work, ends",
          "[models][cluster][power]") {
  FixedCounts counts;
  SECTION("bounded: ticks at 0, 5 and 10 s for a 12 s run") {
    dcsim::sim::Simulator sim;
    dcsim::sim::MemoryTraceSink sink;
    PowerMeter meter(2, 1, 50.0, Time::zero());
    ClusterTelemetry telemetry({s(5), s(12), 1}, meter, counts.nodes, counts, sim, sink);
    telemetry.start();
    sim.at(s(3), [&] {
      meter.set_power_w(0, sim.now(), 80.0);
      telemetry.mark_dirty();  // settles, but the tick samples
    });
    sim.run();
    CHECK(sink.series("power/cluster_w").value == std::vector<double>{100.0, 130.0, 130.0});
    CHECK(sink.series("power/rack/1_w").value == std::vector<double>{50.0, 50.0, 50.0});  // every tick
    CHECK(sim.now() == s(10));
  }
  SECTION("open-ended: the tick after the work ends is the last") {
    dcsim::sim::Simulator sim;
    dcsim::sim::MemoryTraceSink sink;
    PowerMeter meter(1, 1, 50.0, Time::zero());
    ClusterTelemetry telemetry({s(5), Time::max(), 0}, meter, counts.nodes, counts, sim, sink);  // no rack series
    telemetry.start();
    sim.at(s(7), [&] { counts.work_left = false; });
    sim.run();
    CHECK(sink.series("power/cluster_w").time_ns == std::vector<std::int64_t>{0, s(5).ns(), s(10).ns()});
    CHECK(sink.series().size() == 4);  // cluster, running, waiting, busy
  }
}
