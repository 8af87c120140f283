#pragma once
// `dcsim list [KIND] [--json]`: every registered model and policy with its description and
// documented parameters, generated from the registries so it cannot drift from the code.

#include <string>

#include "models/model_registries.hpp"

namespace dcsim::tools::cli {

// Text (or JSON) listing; `kind` filters by registry kind ("" = all). An unknown kind is an
// InputError listing the valid kinds.
std::string list_registries(const models::ModelRegistries& registries, const std::string& kind, bool json);

}  // namespace dcsim::tools::cli
