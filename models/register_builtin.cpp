#include "models/hardware/node_presets.hpp"
#include "models/model_registries.hpp"
#include "models/policy/fifo_scheduler.hpp"
#include "models/policy/first_fit_scheduler.hpp"

namespace dcsim::models {

void register_builtin_models(ModelRegistries& registries) {
  hardware::register_node_presets(registries.node_presets);
  policy::register_fifo_scheduler(registries.schedulers);
  policy::register_first_fit_scheduler(registries.schedulers);
}

}  // namespace dcsim::models
