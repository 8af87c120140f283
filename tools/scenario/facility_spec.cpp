#include "tools/scenario/facility_spec.hpp"

#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

using sim::QuantityKind;

FieldSpec facility_section(const models::ModelRegistries& registries) {
  return optional_section(object_field(
      "facility",
      "Power delivery and cooling (models/facility): when present, the facility's bottom-up node "
      "power replaces the cluster's linear model, GPUs carry thermal state and throttle, and PUE "
      "is reported.",
      {
          with_default(quantity_field("tick", "Thermal step and control period (also stepped at every load change). "
                                      "At least 1 ms: the fastest thermal paths modelled (cold plates) take seconds, "
                                      "so a finer step resolves nothing and costs a step per millisecond.",
                                      QuantityKind::kDuration, at_least(1e-3)),
                       "10 s"),
          with_default_note(quantity_field("gpu_power_limit", "GPU power cap; demand above it lowers the clock (DVFS).",
                                           QuantityKind::kPower, between(100, 700)),
                            "the GPU's maximum power (/cluster/node/gpu_max_power)"),
          with_default(quantity_field("rack_limit", "Rack power limit; crossings are logged (events/facility), "
                                      "and enforced when power_capping says so.",
                                      QuantityKind::kPower, above(0)),
                       "60 kW"),
          with_default(enum_field("power_capping",
                                  "Power-capping policy (`dcsim list \"power capping\"`): log_only keeps GPU power "
                                  "limits as configured; rack_gpu_cap lowers the GPU limits of a rack that would "
                                  "cross rack_limit, which lowers their clock and slows their jobs.",
                                  registries.power_capping.kind(), registries.power_capping.names()),
                       "log_only"),
          params_object_field("power_capping_params",
                              "Parameters of the chosen power-capping policy (`dcsim list \"power capping\"`); keys "
                              "it does not document are errors, keys left out take its defaults.",
                              entry_params(registries.power_capping)),
          object_field(
              "cooling", "How heat leaves the nodes.",
              {
                  with_default(enum_field("mode", "d2c: cold plates on GPUs/CPUs; air: heat sinks and node fans.",
                                          "cooling mode", {"d2c", "air"}),
                               "d2c"),
                  with_default(number_field("d2c_capture", "Share of node heat captured by liquid (0.7-0.95 typical).",
                                            between(0, 1)),
                               0.8),
                  with_default(number_field("secondary_flow_kg_per_s_per_rack",
                                            "Rated CDU secondary coolant flow per rack.", above(0)),
                               1.0),
                  with_default(boolean_field("rdhx", "Rear-door heat exchangers on every rack."), true),
                  with_default(boolean_field("rdhx_active", "Doors with fans (else passive)."), true),
                  with_default(quantity_field("rdhx_capacity", "Heat one active door removes.",
                                              QuantityKind::kPower, above(0)),
                               "50 kW"),
                  with_default(quantity_field("crah_capacity", "Room air handler capacity per zone.",
                                              QuantityKind::kPower, at_least(0)),
                               "1000 MW"),
                  with_default(enum_field("control", "Cooling-control policy (`dcsim list \"cooling control\"`).",
                                          registries.cooling_controls.kind(), registries.cooling_controls.names()),
                               "pi_target"),
                  params_object_field("control_params",
                                      "Parameters of the chosen cooling control (`dcsim list \"cooling control\"`); "
                                      "keys it does not document are errors, keys left out take its defaults.",
                                      entry_params(registries.cooling_controls)),
                  with_default(quantity_field("target_gpu", "GPU die temperature the closed-loop control holds; "
                                              "20-95 C (an H100 slows down on its own near 87 C).",
                                              QuantityKind::kTemperature, between(20, 95)),
                               "65 C"),
              }),
          object_field(
              "network",
              "Network switches as IT load (models/power/switch_power.hpp): base power plus power per active port by "
              "speed. With a fabric section its topology's switches and cabled ports are counted and `switches` must "
              "stay 0; without one, `switches` switches with `active_ports` ports each.",
              {
                  with_default(integer_field("switches", "Switches in the facility when there is no fabric section.",
                                             at_least(0)),
                               0),
                  with_default(integer_field("active_ports", "Cabled ports per switch (no fabric section).", at_least(0)),
                               64),
                  with_default(quantity_field("port_speed", "Speed of those ports (no fabric section).",
                                              QuantityKind::kDataRate, above(0)),
                               "400 Gb/s"),
                  with_default(quantity_field("base_power", "Per switch: ASIC core, CPU, fans, PSU losses (estimate).",
                                              QuantityKind::kPower, at_least(0)),
                               "400 W"),
                  with_default(quantity_field("port_power", "Per active 400G port: optic (8 W typical, NVIDIA OSFP spec) "
                                              "+ SerDes (estimate); scales with port speed.",
                                              QuantityKind::kPower, at_least(0)),
                               "11 W"),
              }),
          object_field("plant", "Facility water plant.",
                       {
                           with_default(quantity_field("supply", "Facility water supply set point; 2-60 C: liquid "
                                                       "water (no glycol is modelled), up to beyond ASHRAE's W45 class.",
                                                       QuantityKind::kTemperature, between(2, 60)),
                                        "25 C"),
                           with_default(boolean_field("chiller", "A chiller trims what the dry cooler cannot."), true),
                           with_default(boolean_field("dry_cooler", "A dry cooler for free cooling (economiser)."), true),
                       }),
          object_field("outdoor", "Outdoor temperature profile.",
                       {
                           with_default(enum_field("kind", "constant, daily sinusoid, or a CSV series.",
                                                   "outdoor profile", {"constant", "sinusoid", "csv"}),
                                        "constant"),
                           with_default(quantity_field("mean", "Mean (or constant) temperature; -60 to 60 C, "
                                                       "beyond the coldest and hottest annual means anywhere.",
                                                       QuantityKind::kTemperature, between(-60, 60)),
                                        "15 C"),
                           with_default(quantity_field("amplitude", "Sinusoid half-swing (peak at 15:00); 0-40 C.",
                                                       QuantityKind::kTemperature, between(0, 40)),
                                        "0 C"),
                           string_field("file", "CSV of temperatures in C, one per line (kind csv), relative to the scenario."),
                           with_default(quantity_field("interval", "Time between CSV samples.",
                                                       QuantityKind::kDuration, above(0)),
                                        "1 h"),
                       }),
          with_default(object_array_field(
                           "zones", "Groups of racks with their own CDU, doors and air (default: one zone, all racks).",
                           {required(non_empty(string_field("name", "Zone name."))),
                            required(min_items(integer_array_field("racks", "Rack indices.", at_least(0)), 1)),
                            number_field("d2c_capture", "This zone's capture fraction (default: /facility/cooling/d2c_capture).",
                                         between(0, 1)),
                            quantity_field("rdhx_capacity", "This zone's active-door capacity (default: /facility/cooling/rdhx_capacity).",
                                           QuantityKind::kPower, at_least(0)),
                            number_field("secondary_flow_kg_per_s_per_rack",
                                         "This zone's rated CDU flow per rack; cold plates rated at the facility-wide flow (default: /facility/cooling).",
                                         above(0)),
                            quantity_field("target_gpu", "This zone's control target (default: /facility/cooling/target_gpu); 20-95 C.",
                                           QuantityKind::kTemperature, between(20, 95))}),
                       nlohmann::json::array()),
      }),
      "no facility model: node power follows the cluster's linear model, no thermal state, no PUE");
}

}  // namespace dcsim::tools::scenario
