#include "models/model_registries.hpp"

namespace dcsim::models {

void register_builtin_models(ModelRegistries& registries) {
  (void)registries;
}

}  // namespace dcsim::models
