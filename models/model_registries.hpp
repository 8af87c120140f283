#pragma once
// Every registry of models and policies, owned by whoever runs scenarios (no global state).
// register_builtin_models() fills them: adding a model touches its own files plus one line there.

#include <functional>

#include "models/hardware/node_spec.hpp"
#include "models/policy/scheduler.hpp"
#include "sim/registry.hpp"

namespace dcsim::models {

using NodePresetFactory = std::function<hardware::NodeSpec()>;

struct ModelRegistries {
  sim::Registry<NodePresetFactory> node_presets{"node preset"};
  sim::Registry<policy::SchedulerFactory> schedulers{"scheduler"};
};

void register_builtin_models(ModelRegistries& registries);

// Calls f(registry) for every registry, in a fixed order (`dcsim list`, the schema).
template <class F>
void for_each_registry(const ModelRegistries& registries, F&& f) {
  f(registries.node_presets);
  f(registries.schedulers);
}

}  // namespace dcsim::models
