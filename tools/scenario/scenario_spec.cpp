// The dcsim scenario format. Adding a section means adding its FieldSpec here and its mapping in
// scenario_loader.cpp; validation, the schema and the reference follow.

#include "tools/scenario/cluster_spec.hpp"
#include "tools/scenario/economics_spec.hpp"
#include "tools/scenario/fabric_spec.hpp"
#include "tools/scenario/facility_spec.hpp"
#include "tools/scenario/faults_spec.hpp"
#include "tools/scenario/inference_spec.hpp"
#include "tools/scenario/nvmeof_spec.hpp"
#include "tools/scenario/reliability_spec.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/software_spec.hpp"
#include "tools/scenario/storage_spec.hpp"
#include "tools/scenario/uplink_spec.hpp"

namespace dcsim::tools::scenario {

using sim::QuantityKind;

FieldSpec scenario_spec(const models::ModelRegistries& registries) {
  return object_field(
      "", "A dcsim scenario.",
      {
          required(non_empty(string_field("name", "Scenario name, shown in outputs."))),
          free_text(string_field("description", "Free text.")),
          with_default(wide_integer(integer_field("seed",
                                                  "Scenario seed; every random stream derives from it. 0 to "
                                                  "2^64 - 1, recorded exactly in the outputs.",
                                                  at_least(0))),
                       1),
          with_default_note(quantity_field("duration",
                                           "Simulated time limit, at most 100 years (a site's life is 10 to 30; "
                                           "a longer span is a typo, and its periodic work never ends).",
                                           QuantityKind::kDuration, above(0)),
                            "run until every job has finished"),
          cluster_bindings(registries).spec(),
          workload_bindings(registries).spec(),
          fabric_section(registries),
          frontend_section(registries),
          traffic_section(),
          facility_section(registries),
          reliability_section(),
          faults_section(),
          uplink_section(),
          storage_section(),
          nvmeof_section(),
          economics_section(registries),
          inference_section(registries),
          software_section(registries),
          policies_bindings(registries).spec(),
          outputs_bindings().spec(),
      });
}

}  // namespace dcsim::tools::scenario
