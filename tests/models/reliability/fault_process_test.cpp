// Fault counts against their expectations. Bands: a count N with mean m and variance v is
// checked within m +- 4 sqrt(v). For a Poisson count v = m; for a renewal count (lifetime plus
// repair, cycle mean mu, variance s2) v = m s2 / mu^2 (renewal CLT). Were the seed random, a
// correct model would fail one such check with probability 6.3e-5 (two-sided 4 sigma); with the
// fixed seeds here the outcome is deterministic.

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "models/reliability/fault_process.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"

using namespace dcsim::models::reliability;
using dcsim::sim::Distribution;
using dcsim::sim::Simulator;
using dcsim::sim::Time;

namespace {

constexpr double kHour = 3600.0;

Distribution fixed_s(double s) { return {Distribution::Kind::kFixed, s, 0.0}; }

Inventory gpus(std::int64_t nodes) {
  Inventory inv;
  inv.nodes = nodes;
  inv.gpus_per_node = 8;
  return inv;
}

// Runs the config for `hours` and returns the faults.
std::vector<Fault> run(const FaultModelConfig& config, double hours, std::uint64_t seed = 7,
                       std::uint64_t* skipped = nullptr) {
  Simulator sim;
  std::vector<Fault> faults;
  const Time horizon = Time::from_seconds(hours * kHour);
  FaultProcess p(config, seed, sim, [&](const Fault& f) { faults.push_back(f); }, {}, horizon);
  p.start();
  sim.run_until(horizon);
  if (skipped != nullptr) *skipped = p.skipped(0);
  return faults;
}

void check_band(double count, double mean, double variance) {
  INFO("count " << count << ", expected " << mean << " +- " << 4 * std::sqrt(variance));
  CHECK(std::abs(count - mean) <= 4.0 * std::sqrt(variance));
}

}  // namespace

TEST_CASE("an exponential class without repair time fails n x rate x time times (Poisson band)",
          "[models][reliability][fault_process]") {
  FaultModelConfig c;
  c.inventory = gpus(100);  // 800 GPUs
  c.classes = {{"gpu", ComponentKind::kGpu, 1e-3, 1.0, fixed_s(0.0), FaultEffect::kNodeDown}};
  // 800 x 1e-3 / h x 1e5 h = 80,000 expected, band +- 1,131.
  const auto faults = run(c, 1e5);
  check_band(static_cast<double>(faults.size()), 80000.0, 80000.0);
  // Instances are uniform: node 0's 8 GPUs get 1/100 of the faults (binomial, p = 0.01).
  std::size_t node0 = 0;
  for (const auto& f : faults) node0 += f.node == 0 ? 1 : 0;
  const double n = static_cast<double>(faults.size());
  check_band(static_cast<double>(node0), n * 0.01, n * 0.01 * 0.99);
}

TEST_CASE("superposition drops candidates on instances under repair, which makes the rate exact",
          "[models][reliability][fault_process]") {
  FaultModelConfig c;
  c.inventory = gpus(100);
  // MTTF 1,000 h, repair 1,000 h: each GPU is down half the time, so the long-run fault rate per
  // GPU is 1 / (1,000 + 1,000) h, half the nominal rate. Over 1e6 h: 800 x 1e6 / 2,000 = 400,000.
  // Cycle: exponential lifetime (variance 1e6 h^2) + fixed repair: s2 / mu^2 = 1e6 / 4e6 = 0.25.
  // Renewal start-up bias: (s2 - mu^2) / (2 mu^2) = -0.375 per GPU, -300 in all.
  c.classes = {{"gpu", ComponentKind::kGpu, 1e-3, 1.0, fixed_s(1000.0 * kHour), FaultEffect::kNodeDown}};
  std::uint64_t skipped = 0;
  const auto faults = run(c, 1e6, 7, &skipped);
  check_band(static_cast<double>(faults.size()), 400000.0 - 300.0, 400000.0 * 0.25);
  // Candidates come at the nominal rate 0.8 / h: 800,000, about half of them dropped.
  check_band(static_cast<double>(faults.size() + skipped), 800000.0, 800000.0);
  // No instance fails while it is down: per GPU, faults are at least the repair time apart.
  std::map<std::size_t, Time> last_repair;
  bool overlap = false;
  for (const auto& f : faults) {
    auto it = last_repair.find(f.instance);
    if (it != last_repair.end() && f.at < it->second) overlap = true;
    last_repair[f.instance] = f.repair_done;
  }
  CHECK_FALSE(overlap);
}

TEST_CASE("Weibull classes renew per instance: long-run rate 1 / (MTTF + repair)",
          "[models][reliability][fault_process]") {
  for (const double shape : {0.7, 2.0}) {
    INFO("shape " << shape);
    FaultModelConfig c;
    c.inventory = gpus(25);  // 200 GPUs
    // MTTF 100 h (rate 0.01 / h), repair 10 h: cycle mean 110 h.
    c.classes = {{"gpu", ComponentKind::kGpu, 0.01, shape, fixed_s(10.0 * kHour), FaultEffect::kNodeDown}};
    const double mttf = 100.0, mu = 110.0, hours = 1e5;
    // Weibull lifetime variance: MTTF^2 (Gamma(1 + 2/k) / Gamma(1 + 1/k)^2 - 1).
    const double g1 = std::tgamma(1 + 1 / shape), g2 = std::tgamma(1 + 2 / shape);
    const double s2 = mttf * mttf * (g2 / (g1 * g1) - 1.0);
    // Renewal function from age 0: E N(t) = t / mu + (s2 - mu^2) / (2 mu^2) + o(1), per instance.
    const double mean = 200.0 * (hours / mu + (s2 - mu * mu) / (2 * mu * mu));
    const auto faults = run(c, hours);
    check_band(static_cast<double>(faults.size()), mean, mean * s2 / (mu * mu));
  }
}

TEST_CASE("the Weibull scale gives a mean time to failure of 1 / rate", "[models][reliability][fault_process]") {
  // Shape 1 is the exponential: scale = mean = 1 / rate.
  CHECK(weibull_scale_hours(0.01, 1.0) == Approx(100.0));
  for (const double shape : {0.7, 2.0}) {
    INFO("shape " << shape);
    const double rate = 0.01;  // MTTF 100 h
    dcsim::sim::RandomStream rng(3, "test/weibull");
    const int n = 200000;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; ++i) {
      const double x = rng.weibull(shape, weibull_scale_hours(rate, shape));
      sum += x;
      sum2 += x * x;
    }
    const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
    // Within 5 standard errors of 100 h (0.7: sd about 150 h, se 0.34 h; 2: sd 52 h, se 0.12 h).
    CHECK(std::abs(mean - 100.0) < 5 * sd / std::sqrt(double(n)));
  }
}

TEST_CASE("the same seed gives the same faults; another seed other faults", "[models][reliability][fault_process]") {
  FaultModelConfig c;
  c.inventory = gpus(64);
  c.inventory.links = 100;
  c.classes = {{"gpu", ComponentKind::kGpu, 1e-3, 1.0, fixed_s(3600), FaultEffect::kNodeDown},
               {"wear", ComponentKind::kNode, 1e-3, 2.0, fixed_s(7200), FaultEffect::kNodeDown},
               {"cable", ComponentKind::kLink, 1e-3, 1.0, {Distribution::Kind::kLognormal, 3600, 1.0},
                FaultEffect::kLinkDown}};
  const auto key = [](const std::vector<Fault>& fs) {
    std::vector<std::tuple<std::int64_t, std::size_t, std::size_t, std::int64_t>> out;
    for (const auto& f : fs) out.emplace_back(f.at.ns(), f.class_index, f.instance, f.repair_done.ns());
    return out;
  };
  const auto a = run(c, 1e4, 11), b = run(c, 1e4, 11), other = run(c, 1e4, 12);
  REQUIRE(a.size() > 100);
  CHECK(key(a) == key(b));
  CHECK(key(a) != key(other));
}

TEST_CASE("reordering the classes does not change any class's faults (own streams)",
          "[models][reliability][fault_process]") {
  FaultModelConfig c;
  c.inventory = gpus(64);
  c.inventory.links = 100;
  c.classes = {{"gpu_a", ComponentKind::kGpu, 2e-3, 1.0, fixed_s(36000), FaultEffect::kNodeDown},
               {"gpu_b", ComponentKind::kGpu, 1e-3, 0.7, fixed_s(36000), FaultEffect::kJobCrash},
               {"cable", ComponentKind::kLink, 1e-3, 1.0, fixed_s(3600), FaultEffect::kLinkDown}};
  FaultModelConfig reversed = c;
  std::reverse(reversed.classes.begin(), reversed.classes.end());
  const auto by_class = [](const FaultModelConfig& cfg, const std::vector<Fault>& fs) {
    std::map<std::string, std::vector<std::pair<std::int64_t, std::size_t>>> out;
    for (const auto& f : fs) out[cfg.classes[f.class_index].name].emplace_back(f.at.ns(), f.instance);
    return out;
  };
  const auto a = by_class(c, run(c, 2e4)), b = by_class(reversed, run(reversed, 2e4));
  REQUIRE(a.size() == 3);
  CHECK(a == b);
}

TEST_CASE("faults happen from start() on and strictly before the horizon; repairs call back",
          "[models][reliability][fault_process]") {
  FaultModelConfig c;
  c.inventory = gpus(10);
  c.classes = {{"gpu", ComponentKind::kGpu, 0.01, 1.0, fixed_s(600), FaultEffect::kNodeDown}};
  Simulator sim;
  const Time start = Time::from_s(3600 * 100), horizon = Time::from_s(3600 * 200);
  sim.at(start, [] {});
  sim.run_until(start);
  std::vector<Fault> faults, repairs;
  FaultProcess p(
      c, 1, sim, [&](const Fault& f) { faults.push_back(f); }, [&](const Fault& f) { repairs.push_back(f); },
      horizon);
  p.start();
  sim.run();  // nothing is scheduled at or after the horizon, so this ends
  REQUIRE(faults.size() > 20);  // 80 GPUs x 0.01 / h x 100 h = 80 expected
  for (const auto& f : faults) {
    CHECK(f.at >= start);
    CHECK(f.at < horizon);
    CHECK(f.repair_done == f.at + Time::from_s(600));
  }
  CHECK(sim.now() < horizon);
  // Every fault is repaired 600 s later, unless that is at or beyond the horizon.
  std::size_t repairable = 0;
  for (const auto& f : faults) repairable += f.repair_done < horizon ? 1 : 0;
  CHECK(repairs.size() == repairable);
  CHECK(p.faults_total() == faults.size());
  CHECK(p.path(faults.front()).rfind("node/", 0) == 0);
}

TEST_CASE("a config the model cannot run is a ConfigError naming the field", "[models][reliability][fault_process]") {
  Simulator sim;
  const auto field_of = [&](FaultModelConfig c) -> std::string {
    try {
      FaultProcess p(std::move(c), 1, sim, {}, {});
    } catch (const dcsim::sim::ConfigError& e) {
      return e.field();
    }
    return "(accepted)";
  };
  FaultModelConfig base;
  base.inventory = gpus(1);
  base.classes = {{"gpu", ComponentKind::kGpu, 1e-3, 1.0, fixed_s(0), FaultEffect::kNodeDown}};
  CHECK(field_of(base) == "(accepted)");
  auto bad = base;
  bad.classes[0].rate_per_hour = -1;
  CHECK(field_of(bad) == "classes[0].rate_per_hour");
  bad = base;
  bad.classes[0].weibull_shape = 0;
  CHECK(field_of(bad) == "classes[0].weibull_shape");
  bad = base;
  bad.classes[0].repair_s = {Distribution::Kind::kExponential, 0, 0};
  CHECK(field_of(bad) == "classes[0].repair_s");
  bad = base;
  bad.classes[0].effect = FaultEffect::kSwitchDown;
  CHECK(field_of(bad) == "classes[0].effect");
  bad = base;
  bad.classes.push_back(bad.classes[0]);
  CHECK(field_of(bad) == "classes[1].name");
  bad = base;
  bad.scale = -2;
  CHECK(field_of(bad) == "scale");
}
