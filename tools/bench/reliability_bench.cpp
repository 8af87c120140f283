#include "tools/bench/reliability_bench.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "models/reliability/fault_process.hpp"
#include "models/reliability/llama3_faults.hpp"
#include "sim/simulator.hpp"
#include "tools/bench/process_memory.hpp"

namespace dcsim::tools::bench {

namespace {

namespace rel = models::reliability;

nlohmann::json run_case(const std::string& name, double weibull_shape) {
  rel::FaultModelConfig config;
  config.preset = "llama3_405b";
  config.classes = rel::llama3_fault_classes(8);
  for (auto& c : config.classes) c.weibull_shape = weibull_shape;
  config.inventory.nodes = 16384;
  config.inventory.gpus_per_node = 8;
  config.inventory.nics_per_node = 8;
  config.inventory.links = static_cast<std::int64_t>(std::floor(16384.0 * 8 * rel::kLlama3CablesPerGpu));
  config.inventory.switches = 0;
  const sim::Time year = sim::Time::from_s(365LL * 24 * 3600);

  const auto wall0 = std::chrono::steady_clock::now();
  sim::Simulator s;
  std::uint64_t faults = 0, repairs = 0;
  rel::FaultProcess process(
      config, 1, s, [&faults](const rel::Fault&) { ++faults; }, [&repairs](const rel::Fault&) { ++repairs; }, year);
  process.start();
  s.run_until(year);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  double expected = 0;
  for (std::size_t c = 0; c < config.classes.size(); ++c) expected += process.nominal_rate_per_hour(c);
  return {{"name", name},
          {"wall_s", wall_s},
          {"peak_rss_mb", peak_rss_mb()},
          {"events", s.events_executed()},
          {"gpus", config.inventory.count(rel::ComponentKind::kGpu)},
          {"faults", faults},
          {"repairs", repairs},
          {"expected_faults", expected * 365.0 * 24.0}};
}

}  // namespace

nlohmann::json run_reliability_bench() {
  nlohmann::json cases = nlohmann::json::array();
  cases.push_back(run_case("fault-process-131k-gpus-1-year", 1.0));
  cases.push_back(run_case("fault-process-131k-gpus-1-year-weibull", 0.7));
  return cases;
}

}  // namespace dcsim::tools::bench
