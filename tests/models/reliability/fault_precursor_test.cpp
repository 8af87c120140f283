// The failure predictor: true alarms lead their faults by lead_time for a recall share of the
// listed classes, false alarms come at the rate that makes precision hold, and listening never
// changes the faults. Bands as in fault_process_test.cpp: a Poisson or binomial count within
// 4 standard deviations of its mean (deterministic here, fixed seeds).

#include "models/reliability/fault_precursor.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "sim/simulator.hpp"

using namespace dcsim::models::reliability;
using dcsim::sim::Distribution;
using dcsim::sim::Simulator;
using dcsim::sim::Time;

namespace {

constexpr double kHour = 3600.0;

// 100 nodes of 8 GPUs; a GPU class with a precursor and a host class without, each 1e-3 per
// instance-hour, repairs of 1 s (instances are almost never down).
FaultModelConfig model() {
  FaultModelConfig c;
  c.inventory.nodes = 100;
  c.inventory.gpus_per_node = 8;
  const Distribution second{Distribution::Kind::kFixed, 1.0, 0.0};
  c.classes = {{"gpu_hbm3", ComponentKind::kGpu, 1e-3, 1.0, second, FaultEffect::kNodeDown},
               {"psu", ComponentKind::kNode, 1e-3, 1.0, second, FaultEffect::kNodeDown}};
  return c;
}

PrecursorConfig signal(double recall, double precision) {
  PrecursorConfig p;
  p.lead_time = Time::from_seconds(180);
  p.recall = recall;
  p.precision = precision;
  p.classes = {"gpu_hbm3"};
  p.drain_time = Time::from_seconds(600);
  return p;
}

struct Run {
  std::vector<Fault> faults;
  std::vector<std::pair<Time, Alarm>> alarms;
  std::uint64_t missed = 0;
};

Run run(const PrecursorConfig* p, double hours, std::uint64_t seed = 11) {
  Simulator sim;
  Run out;
  const Time horizon = Time::from_seconds(hours * kHour);
  FaultProcess faults(
      model(), seed, sim, [&](const Fault& f) { out.faults.push_back(f); }, {}, horizon);
  std::unique_ptr<FaultPrecursor> precursor;
  if (p != nullptr) {
    precursor = std::make_unique<FaultPrecursor>(
        *p, faults, seed, sim, [&](const Alarm& a) { out.alarms.emplace_back(sim.now(), a); },
        horizon);
  }
  faults.start();
  if (precursor) precursor->start();
  sim.run_until(horizon);
  if (precursor) out.missed = precursor->missed();
  return out;
}

void check_band(double count, double mean, double variance) {
  INFO("count " << count << ", expected " << mean << " +- " << 4 * std::sqrt(variance));
  CHECK(std::abs(count - mean) <= 4.0 * std::sqrt(variance));
}

}  // namespace

TEST_CASE("listening for precursors leaves the faults exactly as they were",
          "[models][reliability][precursor]") {
  const PrecursorConfig p = signal(0.8, 0.9);
  const Run quiet = run(nullptr, 2000);
  const Run heard = run(&p, 2000);
  REQUIRE(quiet.faults.size() == heard.faults.size());
  for (std::size_t i = 0; i < quiet.faults.size(); ++i) {
    CHECK(quiet.faults[i].at == heard.faults[i].at);
    CHECK(quiet.faults[i].class_index == heard.faults[i].class_index);
    CHECK(quiet.faults[i].instance == heard.faults[i].instance);
    CHECK(quiet.faults[i].repair_done == heard.faults[i].repair_done);
  }
}

TEST_CASE(
    "with recall 1 every fault of a listed class is announced lead_time before it, on its node",
    "[models][reliability][precursor]") {
  const PrecursorConfig p = signal(1.0, 1.0);  // precision 1: no false alarms
  const Run r = run(&p, 2000);
  std::map<std::pair<std::int64_t, int>, int> faults;  // (time ns, node) of gpu_hbm3 faults
  std::size_t listed = 0;
  for (const auto& f : r.faults) {
    if (f.class_index != 0) continue;
    ++listed;
    ++faults[{f.at.ns(), f.node}];
  }
  REQUIRE(listed > 1000);  // 800 GPUs x 1e-3 / h x 2,000 h = 1,600 expected
  CHECK(r.alarms.size() == listed);
  for (const auto& [at, alarm] : r.alarms) {
    CHECK_FALSE(alarm.false_alarm);
    CHECK(alarm.cause == "predicted:gpu_hbm3");
    // The signal lasts until the fault: the fault at drain_until, on the alarm's node, lead_time
    // after the alarm (or sooner when the class's previous fault came less than 180 s before).
    CHECK(faults.count({alarm.drain_until.ns(), alarm.node}) == 1);
    CHECK(alarm.drain_until - at <= Time::from_seconds(180));
  }
}

TEST_CASE(
    "recall is the share of listed faults that raise an alarm; the others and other classes come "
    "unannounced",
    "[models][reliability][precursor]") {
  const PrecursorConfig p = signal(0.6, 1.0);
  const Run r = run(&p, 5000);
  std::size_t listed = 0;
  for (const auto& f : r.faults) listed += f.class_index == 0 ? 1 : 0;
  const double n = static_cast<double>(listed);
  check_band(static_cast<double>(r.alarms.size()), 0.6 * n, n * 0.6 * 0.4);  // binomial
  CHECK(r.alarms.size() + r.missed == listed);
  const PrecursorConfig none = signal(0.0, 0.5);
  const Run silent = run(&none, 5000);
  CHECK(silent.alarms.empty());  // recall 0: no true alarms, and so no false ones either
}

TEST_CASE("false alarms come at true rate x (1 - precision) / precision, on random nodes",
          "[models][reliability][precursor]") {
  const PrecursorConfig p = signal(0.8, 0.5);
  const double hours = 5000;
  const Run r = run(&p, hours);
  std::size_t false_alarms = 0;
  std::map<int, int> nodes;
  for (const auto& [at, alarm] : r.alarms) {
    if (!alarm.false_alarm) continue;
    ++false_alarms;
    ++nodes[alarm.node];
    CHECK(alarm.cause == "false_alarm");
    CHECK(alarm.drain_until - at == Time::from_seconds(600));
  }
  // True rate: 0.8 x 800 GPUs x 1e-3 / h = 0.64 / h; precision 0.5: as many false, 0.64 / h,
  // 3,200 expected in 5,000 h (Poisson band +- 226). They spread over the 100 nodes.
  check_band(static_cast<double>(false_alarms), 0.64 * hours, 0.64 * hours);
  CHECK(nodes.size() > 90);
  // Precision measured: true / all within the same bands.
  const double all = static_cast<double>(r.alarms.size());
  CHECK((all - static_cast<double>(false_alarms)) / all == Approx(0.5).margin(0.03));
}

TEST_CASE("same seed, same alarms", "[models][reliability][precursor]") {
  const PrecursorConfig p = signal(0.8, 0.7);
  const Run a = run(&p, 1000);
  const Run b = run(&p, 1000);
  REQUIRE(a.alarms.size() == b.alarms.size());
  for (std::size_t i = 0; i < a.alarms.size(); ++i) {
    CHECK(a.alarms[i].first == b.alarms[i].first);
    CHECK(a.alarms[i].second.node == b.alarms[i].second.node);
  }
}

TEST_CASE("bad precursor parameters are refused with their field",
          "[models][reliability][precursor]") {
  const auto refused = [](PrecursorConfig p) {
    Simulator sim;
    FaultProcess faults(model(), 1, sim, {}, {});
    try {
      FaultPrecursor precursor(p, faults, 1, sim, {});
    } catch (const dcsim::sim::ConfigError& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  CHECK(refused(signal(0.8, 0.0)) == "precision");
  CHECK(refused(signal(0.8, 1.5)) == "precision");
  CHECK(refused(signal(-0.1, 0.9)) == "recall");
  CHECK(refused(signal(1.1, 0.9)) == "recall");
  PrecursorConfig early = signal(0.8, 0.9);
  early.lead_time = Time::from_seconds(-1);
  CHECK(refused(early) == "lead_time");
  PrecursorConfig unknown = signal(0.8, 0.9);
  unknown.classes = {"gpu_hbm4"};
  CHECK(refused(unknown) == "precursor_classes");
  CHECK(refused(signal(0.8, 0.9)) == "accepted");
}
