// Issue 40 item 5: the operations presets' detection and diagnosis, and the fault router handing
// each interrupting fault its drawn stages without moving the faults themselves.
#include <catch2/catch.hpp>

#include <vector>

#include "models/reliability/fault_effects.hpp"
#include "models/reliability/recovery_stages.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

using namespace dcsim::models::reliability;
using dcsim::sim::Distribution;
using dcsim::sim::Time;

namespace {

// Records what the faults did to the nodes.
struct RecordingNodes final : dcsim::models::seams::NodeFaultTarget {
  struct Call {
    double at_s;
    int node;
    double detection_s, diagnosis_s;
  };
  dcsim::sim::Simulator* sim = nullptr;
  std::vector<Call> downs, crashes;
  int node_count() const override { return 16; }
  void set_node_down(int node, const std::string&, const dcsim::models::seams::RecoveryDelay& r) override {
    downs.push_back({sim->now().seconds(), node, r.detection.seconds(), r.diagnosis.seconds()});
  }
  void set_node_up(int) override {}
  void crash_jobs_on_node(int node, const std::string&, const dcsim::models::seams::RecoveryDelay& r) override {
    crashes.push_back({sim->now().seconds(), node, r.detection.seconds(), r.diagnosis.seconds()});
  }
  void corrupt_jobs_on_node(int, const std::string&, Time) override {}
};

FaultClass node_class(const std::string& name, FaultEffect effect) {
  // 16 nodes x 1 fault per node-hour for 10 h: about 160 faults; repairs of 10 s.
  return {name, ComponentKind::kNode, 1.0, 1.0, {Distribution::Kind::kFixed, 10.0, 0.0}, effect, std::nullopt};
}

RecordingNodes run(FaultModelConfig config) {
  config.inventory.nodes = 16;
  config.inventory.gpus_per_node = 8;
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  dcsim::models::seams::DatacenterSignals signals;
  RecordingNodes nodes;
  nodes.sim = &sim;
  FaultTargets targets;
  targets.nodes = &nodes;
  const Time horizon = Time::from_s(36'000);
  FaultEffects effects(std::move(config), 3, horizon, std::move(targets), signals, sim, sink);
  effects.start();
  sim.run_until(horizon);
  return nodes;
}

}  // namespace

TEST_CASE("the operations presets' stages by effect", "[models][reliability][recovery]") {
  using K = Distribution::Kind;
  // automated: NVRx's 300 s heartbeat timeout, then self-checks: MegaScale's < 10 min in all.
  const RecoveryStages automated = operations_stages(Operations::kAutomated, FaultEffect::kNodeDown);
  CHECK(automated.detection_s.kind == K::kFixed);
  CHECK(automated.detection_s.a == 300.0);
  CHECK(automated.diagnosis_s.a == 300.0);
  CHECK(automated.detection_s.mean() + automated.diagnosis_s.mean() <= 600.0);
  // A crash is seen at once and leaves the node in service.
  CHECK(operations_stages(Operations::kAutomated, FaultEffect::kJobCrash).detection_s.mean() == 0.0);
  // manual: the 10-minute NCCL watchdog plus an hourly monitor, then hours to replace the node.
  const RecoveryStages manual = operations_stages(Operations::kManual, FaultEffect::kNicDown);
  CHECK(manual.detection_s.kind == K::kUniform);
  CHECK(manual.detection_s.mean() == Approx(40 * 60.0));
  CHECK(manual.diagnosis_s.kind == K::kLognormal);
  CHECK(manual.diagnosis_s.a == 7200.0);  // the median
  CHECK(operations_stages(Operations::kManual, FaultEffect::kJobCrash).detection_s.a == 300.0);
  // none, and effects that do not interrupt jobs directly: no stages.
  CHECK(operations_stages(Operations::kNone, FaultEffect::kNodeDown).detection_s.mean() == 0.0);
  CHECK(operations_stages(Operations::kManual, FaultEffect::kSilentCorruption).diagnosis_s.mean() == 0.0);
  CHECK(operations_stages(Operations::kManual, FaultEffect::kZoneCoolingLoss).detection_s.mean() == 0.0);
  CHECK(parse_operations("manual") == Operations::kManual);
  CHECK_FALSE(parse_operations("robotic"));
}

TEST_CASE("every interrupting fault carries its class's drawn stages; the faults themselves do not move",
          "[models][reliability][recovery]") {
  FaultModelConfig manual;
  manual.operations = Operations::kManual;
  manual.classes = {node_class("psu", FaultEffect::kNodeDown), node_class("software", FaultEffect::kJobCrash)};
  FaultModelConfig none = manual;
  none.operations = Operations::kNone;
  const RecordingNodes a = run(manual);
  const RecordingNodes b = run(none);
  REQUIRE(a.downs.size() > 100);
  REQUIRE(a.downs.size() == b.downs.size());
  REQUIRE(a.crashes.size() == b.crashes.size());
  double detection_sum = 0.0;
  for (std::size_t i = 0; i < a.downs.size(); ++i) {
    CHECK(a.downs[i].at_s == b.downs[i].at_s);  // own stream: same fault times
    CHECK(a.downs[i].node == b.downs[i].node);
    CHECK(a.downs[i].detection_s >= 600.0);
    CHECK(a.downs[i].detection_s < 4200.0);
    CHECK(a.downs[i].diagnosis_s > 0.0);
    CHECK(b.downs[i].detection_s == 0.0);
    detection_sum += a.downs[i].detection_s;
  }
  // Uniform 10-70 min: mean 2,400 s, sd 1,039 s; over n > 100 draws the mean is within 4 sd / sqrt(n).
  const double n = static_cast<double>(a.downs.size());
  CHECK(std::abs(detection_sum / n - 2400.0) < 4.0 * 1039.0 / std::sqrt(n));
  for (const auto& c : a.crashes) {
    CHECK(c.detection_s == 300.0);  // Slurm's requeue of a crashed job, BLOOM
    CHECK(c.diagnosis_s == 0.0);
  }
}

TEST_CASE("a class's own stages replace the operations preset's", "[models][reliability][recovery]") {
  FaultModelConfig config;
  FaultClass c = node_class("gpu", FaultEffect::kNodeDown);
  c.recovery = RecoveryStages{{Distribution::Kind::kFixed, 42.0, 0.0}, {Distribution::Kind::kFixed, 7.0, 0.0}};
  config.classes = {c};
  const RecordingNodes r = run(config);
  REQUIRE_FALSE(r.downs.empty());
  for (const auto& d : r.downs) {
    CHECK(d.detection_s == 42.0);
    CHECK(d.diagnosis_s == 7.0);
  }
}

TEST_CASE("a stage's distribution is validated like a repair time", "[models][reliability][recovery]") {
  FaultModelConfig config;
  FaultClass c = node_class("gpu", FaultEffect::kNodeDown);
  c.recovery = RecoveryStages{{Distribution::Kind::kFixed, -1.0, 0.0}, {}};
  config.classes = {c};
  CHECK_THROWS_WITH(validate(config), Catch::StartsWith("classes[0].detection_s"));
}
