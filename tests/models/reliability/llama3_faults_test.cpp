#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "models/reliability/fault_process.hpp"
#include "models/reliability/llama3_faults.hpp"
#include "sim/simulator.hpp"

using namespace dcsim::models::reliability;
using dcsim::sim::Time;

namespace {

double expected_in_54_days(const FaultClass& c, const Inventory& inv) {
  return c.rate_per_hour * static_cast<double>(inv.count(c.component)) * kLlama3Hours;
}

}  // namespace

TEST_CASE("the Llama 3 preset expects the table's 419 unexpected interruptions, cause by cause",
          "[models][reliability][llama3]") {
  const auto classes = llama3_fault_classes(8);
  const auto inv = llama3_405b_inventory();
  REQUIRE(classes.size() == llama3_causes().size());  // every cause of table 5 has its class
  double total = 0;
  int table_total = 0;
  for (std::size_t i = 0; i < classes.size(); ++i) {
    INFO(classes[i].name);
    // rate = count / (1,296 h x instances): rate x instances x 1,296 h gives the count back.
    CHECK(classes[i].name == llama3_causes()[i].class_name);
    CHECK(expected_in_54_days(classes[i], inv) == Approx(llama3_causes()[i].count).epsilon(1e-12));
    CHECK(effect_applies_to(classes[i].effect, classes[i].component));
    total += expected_in_54_days(classes[i], inv);
    table_total += llama3_causes()[i].count;
  }
  CHECK(table_total == kLlama3UnexpectedInterruptions);
  CHECK(total == Approx(419.0).epsilon(1e-12));
  // Faulty GPU by hand: 148 / (1,296 h x 16,384) = 6.970e-6 per GPU-hour.
  CHECK(classes[0].rate_per_hour == Approx(6.970e-6).epsilon(1e-3));
  // One interruption every 1,296 / 419 = 3.09 h (public-figures.md).
  CHECK(kLlama3Hours / total == Approx(3.093).epsilon(1e-3));
}

TEST_CASE("host-level Llama 3 rates scale with GPUs per node; GPU, NIC and cable rates do not",
          "[models][reliability][llama3]") {
  const auto eight = llama3_fault_classes(8), four = llama3_fault_classes(4);
  for (std::size_t i = 0; i < eight.size(); ++i) {
    INFO(eight[i].name);
    const double factor = eight[i].component == ComponentKind::kNode ? 0.5 : 1.0;
    CHECK(four[i].rate_per_hour == Approx(eight[i].rate_per_hour * factor).epsilon(1e-12));
  }
}

TEST_CASE("a simulated Llama 3 run has its interruptions within the Poisson band",
          "[models][reliability][llama3]") {
  FaultModelConfig c;
  c.preset = "llama3_405b";
  c.classes = llama3_fault_classes(8);
  c.inventory = llama3_405b_inventory();
  const Time horizon = Time::from_s(54 * 24 * 3600);
  // One 54-day run: 419 +- 4 sqrt(419) = +- 82. Twenty seeds together: 8,380 +- 366, and per
  // cause the same band around 20 x its count. (Repairs remove a down instance's rate for hours
  // out of an instance MTTF of 1e5 h or more: a change far below these bands.)
  std::map<std::string, double> per_class;
  double all = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    dcsim::sim::Simulator sim;
    FaultProcess p(c, seed, sim, {}, {}, horizon);
    p.start();
    sim.run_until(horizon);
    if (seed == 1) {
      INFO("seed 1: " << p.faults_total());
      CHECK(std::abs(static_cast<double>(p.faults_total()) - 419.0) <= 4 * std::sqrt(419.0));
    }
    for (std::size_t k = 0; k < c.classes.size(); ++k) per_class[c.classes[k].name] += double(p.faults(k));
    all += static_cast<double>(p.faults_total());
  }
  CHECK(std::abs(all - 8380.0) <= 4 * std::sqrt(8380.0));
  for (const auto& cause : llama3_causes()) {
    INFO(cause.class_name);
    const double mean = 20.0 * cause.count;
    CHECK(std::abs(per_class[cause.class_name] - mean) <= 4 * std::sqrt(mean));
  }
}

TEST_CASE("the node interruption rate counts NIC faults only when the NICs are rails, not a bond",
          "[models][reliability]") {
  FaultModelConfig config;
  config.inventory = llama3_405b_inventory();
  config.classes = llama3_fault_classes(8);
  double nic_per_node = 0.0, other_per_node = 0.0;
  for (const auto& c : config.classes) {
    const double per_node = c.component == ComponentKind::kGpu   ? config.inventory.gpus_per_node
                            : c.component == ComponentKind::kNic ? config.inventory.nics_per_node
                                                                 : 1.0;
    const bool interrupts = c.effect == FaultEffect::kNodeDown || c.effect == FaultEffect::kJobCrash;
    if (c.effect == FaultEffect::kNicDown) nic_per_node += c.rate_per_hour * per_node;
    if (interrupts) other_per_node += c.rate_per_hour * per_node;
  }
  REQUIRE(nic_per_node > 0);  // the preset has its NIC causes
  CHECK(node_interruption_rate_per_hour(config) == Approx(other_per_node + nic_per_node));
  config.nic_bonding = true;
  CHECK(node_interruption_rate_per_hour(config) == Approx(other_per_node));
}
