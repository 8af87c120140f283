#include "tools/bench/scenario_case.hpp"

#include <malloc.h>

#include <chrono>
#include <optional>
#include <variant>

#include "models/model_registries.hpp"
#include "tools/bench/process_memory.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::bench {

double ScenarioCaseRun::number(const std::string& key) const {
  const auto& v = sink.summary(key).value;
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  return 0.0;
}

void run_scenario_case(const char* document, const std::string& name, ScenarioCaseRun& out) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  malloc_trim(0);  // what earlier cases freed is not this case's peak
  reset_peak_rss();
  const auto wall0 = std::chrono::steady_clock::now();
  const auto scenario =
      scenario::load_scenario_json(nlohmann::json::parse(document), name, {}, std::nullopt, registries);
  out.stats = run::simulate(scenario, registries, out.sink);
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  out.peak_rss_mb = peak_rss_mb();
}

}  // namespace dcsim::tools::bench
