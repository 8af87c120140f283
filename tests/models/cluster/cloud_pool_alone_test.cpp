// The cloud pool alone (models/cluster/cloud_pool.hpp): a host that records what the pool tells
// it, no cluster and no scheduler; requests, holds and releases given by hand. The pool under a
// real cluster and scheduler is in cloud_pool_test.cpp.

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "models/cluster/cloud_pool.hpp"
#include "models/economics/cloud_offer.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

using dcsim::models::cluster::CloudPool;
using dcsim::models::cluster::CloudPoolConfig;
using dcsim::models::seams::CloudInstanceChange;
using dcsim::sim::Time;

namespace {

Time s(double seconds) { return Time::from_seconds(seconds); }

struct RecordingHost final : CloudPool::Host {
  std::vector<std::pair<int, bool>> provisioned;  // (node, provisioned) in call order
  std::vector<std::pair<int, std::string>> interrupted;
  int capacity_changes = 0;
  double lost_gpu_s = 0.0;  // what an interruption reports
  void set_instance_provisioned(int node, bool p) override { provisioned.emplace_back(node, p); }
  double interrupt_instance_jobs(int node, const std::string& cause) override {
    interrupted.emplace_back(node, cause);
    return lost_gpu_s;
  }
  void cloud_capacity_changed() override { ++capacity_changes; }
};

// Instances of 8 GPUs (the offer's), ready 60 s after a request, released after 1 h idle.
CloudPoolConfig pool_config(dcsim::models::economics::CloudGpuOffer offer, int max_instances) {
  CloudPoolConfig c;
  c.offer = std::move(offer);
  c.max_instances = max_instances;
  c.provisioning_delay = s(60);
  c.idle_release = s(3600);
  return c;
}

double number(const dcsim::sim::MemoryTraceSink& sink, const std::string& path) {
  return std::get<double>(sink.summary(path).value);
}
std::int64_t count(const dcsim::sim::MemoryTraceSink& sink, const std::string& path) {
  return std::get<std::int64_t>(sink.summary(path).value);
}

}  // namespace

TEST_CASE("instances are ready after the provisioning delay and released after idling, billed ready to gone",
          "[models][cluster][cloud_pool]") {
  dcsim::sim::Simulator sim;
  RecordingHost host;
  CloudPool pool(pool_config(dcsim::models::economics::aws_p5_on_demand(), 3), 8, 10, 1, "test", host, sim);
  pool.request({2, Time::max()});
  CHECK(pool.provisioning() == 2);
  sim.at(s(100), [&] { pool.instance_held(10); });  // a job takes the first one
  sim.run();
  // Nodes 10 and 11 (the lowest free slots) ready at 60 s; 11 released idle at 60 + 3600 s.
  CHECK(host.provisioned == std::vector<std::pair<int, bool>>{{10, true}, {11, true}, {11, false}});
  CHECK(host.capacity_changes == 3);  // each ready, and the release
  CHECK(sim.now() == s(3660));
  CHECK(pool.provisioned() == 1);
  CHECK(pool.idle_nodes().empty());
  dcsim::sim::MemoryTraceSink sink;
  pool.emit_summary(0, 7200.0, 0.0, sink);
  // 11 existed 3,600 s; 10 has 3,600 s so far (ready at 60 s, still there at 3,660 s): 2 h billed.
  CHECK(number(sink, "cloud/instance_hours") == Approx(2.0));
  CHECK(count(sink, "cloud/instances_requested") == 2);
  CHECK(count(sink, "cloud/instances_released") == 1);
  CHECK(count(sink, "cloud/peak_instances") == 2);
  CHECK(number(sink, "workload/onprem/gpu_hours") == Approx(2.0));  // none held on instances
}

TEST_CASE("a spot preemption takes the instance from under its jobs and announces what they lost",
          "[models][cluster][cloud_pool]") {
  dcsim::sim::Simulator sim;
  dcsim::models::seams::DatacenterSignals signals;
  std::vector<CloudInstanceChange> changes;
  signals.cloud_instance.connect([&](const CloudInstanceChange& c) { changes.push_back(c); });
  RecordingHost host;
  host.lost_gpu_s = 123.0;
  auto offer = dcsim::models::economics::aws_p5_spot();
  offer.preemptions_per_instance_hour = 1.0;
  CloudPool pool(pool_config(offer, 1), 8, 4, 7, "test", host, sim);
  pool.set_signals(&signals);
  pool.request({1, Time::max()});
  sim.at(s(61), [&] { pool.instance_held(4); });  // busy from 61 s: no idle release
  sim.run();
  REQUIRE(changes.size() == 3);
  CHECK(changes[0].kind == CloudInstanceChange::Kind::kRequested);
  CHECK(changes[1].kind == CloudInstanceChange::Kind::kReady);
  CHECK(changes[2].kind == CloudInstanceChange::Kind::kPreempted);
  CHECK(changes[2].lost_gpu_s == 123.0);
  CHECK(changes[2].gpus == 8);
  // Gone before its jobs are interrupted, so their release cannot make it idle.
  CHECK(host.provisioned == std::vector<std::pair<int, bool>>{{4, true}, {4, false}});
  CHECK(host.interrupted == std::vector<std::pair<int, std::string>>{{4, "spot_preemption"}});
  CHECK(pool.provisioned() == 0);
}

TEST_CASE("the scheduler is asked again at the earliest time it asked for, and its mistakes are bugs",
          "[models][cluster][cloud_pool]") {
  dcsim::sim::Simulator sim;
  RecordingHost host;
  CloudPool pool(pool_config(dcsim::models::economics::aws_p5_on_demand(), 2), 8, 0, 1, "test", host, sim);
  pool.request({0, s(10)});
  pool.request({0, s(20)});  // later than the pending ask: nothing new
  sim.run();
  CHECK(host.capacity_changes == 1);
  CHECK_THROWS_AS(pool.request({0, sim.now()}), dcsim::sim::InternalError);    // not after now
  CHECK_THROWS_AS(pool.request({3, Time::max()}), dcsim::sim::InternalError);  // beyond 2 instances
}

TEST_CASE("an offer whose instances differ from the cluster's nodes is a config error",
          "[models][cluster][cloud_pool]") {
  dcsim::sim::Simulator sim;
  RecordingHost host;
  auto offer = dcsim::models::economics::aws_p5_on_demand();  // 8 GPUs an instance
  CHECK_THROWS_AS(CloudPool(pool_config(offer, 1), 4, 0, 1, "test", host, sim), dcsim::sim::ConfigError);
}
