#pragma once
// Running a scenario document through the whole stack (loader, assembly, every model) into a
// MemoryTraceSink, for the tests that check a run's outputs: one copy of the harness, each test
// file deriving its own result type for the tables it reads.

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "sim/trace_sink.hpp"
#include "tools/run/run_scenario.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::test {

struct RunOutputs {
  sim::MemoryTraceSink sink;
  std::vector<std::string> notices;  // the loader's (a migrated key, ...)
  // A numeric summary value (integers widened).
  double number(const std::string& path) const {
    const auto& v = sink.summary(path).value;
    if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
    return std::get<double>(v);
  }
  bool has(const std::string& path) const { return sink.summary().count(path) > 0; }
};

// The document as "<test>" with `sets` (--set overrides) applied; sim::InputError on bad input.
template <class Outputs = RunOutputs>
std::unique_ptr<Outputs> run_scenario_json(nlohmann::json doc, const std::vector<std::string>& sets = {}) {
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  const auto scenario = tools::scenario::load_scenario_json(std::move(doc), "<test>", sets, {}, registries);
  auto r = std::make_unique<Outputs>();
  r->notices = scenario.notices;
  tools::run::simulate(scenario, registries, r->sink);
  return r;
}

// The message of the InputError the document gives, or "no error".
inline std::string input_error_of(nlohmann::json doc, const std::vector<std::string>& sets = {}) {
  try {
    run_scenario_json(std::move(doc), sets);
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace dcsim::test
