#include "tools/scenario/facility_spec.hpp"

#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

using sim::QuantityKind;

namespace {
// The loader fills these from /cluster/node's preset (fill_facility_from_preset), so the resolved
// document states the thresholds that run.
FieldSpec gpu_preset_default(FieldSpec f) { return with_default_note(std::move(f), "from the node's GPU preset"); }
}  // namespace

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
              "ups",
              "UPS losses as fractions of its rating, by load x: no-load + proportional x + square-law x^2 "
              "(Schneider Electric White Paper 108: no-load losses can be over 40% of all losses, square-law 1-4% at "
              "high load). Defaults: 4.2% of rating at full load (~96%, double conversion) split 40/48/12 "
              "(assumption); a quarter-loaded UPS is then ~92% efficient.",
              {
                  with_default(number_field("no_load_loss", "Loss at no load, fraction of rating.", between(0, 0.5)),
                               0.017),
                  with_default(number_field("proportional_loss", "Loss proportional to load, fraction of rating at "
                                            "full load.", between(0, 0.5)),
                               0.02),
                  with_default(number_field("square_law_loss", "Loss with the square of load (I^2 R), fraction of "
                                            "rating at full load.", between(0, 0.5)),
                               0.005),
                  with_default_note(quantity_field("capacity", "UPS rating.", QuantityKind::kPower, above(0)),
                                    "the cluster's full-load IT power (every node at full power plus the network) "
                                    "over the PDU efficiency"),
              }),
          with_default(number_field("pdu_efficiency", "PDU and transformer efficiency after the UPS (98-99% vendor "
                                    "range).", between(0.5, 1)),
                       0.985),
          object_field(
              "throttle",
              "GPU thermal thresholds: clocks fall linearly from max_operating to slowdown, hold at slowdown_clock "
              "above it, and the GPU shuts down at shutdown until it cools below restart_below. The three "
              "temperatures default to the node's GPU preset (nvidia-smi -q: H100 and H200 SXM 87 / 89 / 92 C, "
              "A100 SXM4 85 / 89 / 92 C).",
              {
                  gpu_preset_default(quantity_field("max_operating", "Clocks start to fall above it.",
                                                    QuantityKind::kTemperature, between(40, 120))),
                  gpu_preset_default(quantity_field("slowdown", "Hardware slowdown: clocks at slowdown_clock.",
                                                    QuantityKind::kTemperature, between(40, 120))),
                  gpu_preset_default(quantity_field("shutdown", "The GPU stops; its node's job stalls.",
                                                    QuantityKind::kTemperature, between(40, 120))),
                  with_default(number_field("slowdown_clock", "Clock factor at and above slowdown (assumption: HW "
                                            "slowdown halves the clock).", between(0.05, 1)),
                               0.5),
                  with_default(quantity_field("restart_below", "A shut-down GPU restarts once cooled below it "
                                              "(assumption).", QuantityKind::kTemperature, between(20, 120)),
                               "80 C"),
              }),
          with_default(enum_field("on_shortfall",
                                  "When the cooling cannot remove the heat (a GPU die above its max operating "
                                  "temperature, room air above ASHRAE's allowable 32 C, or heat beyond the chiller): "
                                  "warn (an event and /summary/facility/cooling_warning) or error (the run stops, "
                                  "exit 2).",
                                  "shortfall action", {"warn", "error"}),
                       "warn"),
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
                  with_default(quantity_field("rdhx_passive_capacity",
                                              "Heat one passive door removes (rdhx_active false), and the most an "
                                              "active door whose fans failed still removes; passive doors reach "
                                              "about 35 kW (public-figures.md).",
                                              QuantityKind::kPower, at_least(0)),
                               "20 kW"),
                  with_default(number_field("rdhx_effectiveness",
                                            "Share of a rack's exhaust heat its door takes, below the door's "
                                            "capacity; the doors sit in series with the exhaust, the air handlers "
                                            "take the rest (assumption: doors are rated room-neutral at capacity, "
                                            "0.9 leaves a tenth to bypass around the door).",
                                            between(0, 1)),
                               0.9),
                  with_default(quantity_field("rdhx_fan_power",
                                              "Fan power of one active door at its rated capacity (door fans "
                                              "0.5-2 kW, public-figures.md); at part duty it follows the fan "
                                              "affinity law, (duty / capacity)^3.",
                                              QuantityKind::kPower, at_least(0)),
                               "1 kW"),
                  with_default_note(quantity_field("crah_capacity",
                                                   "Room air handler (CRAH) capacity per zone, for the heat the doors "
                                                   "leave; heat beyond it warms the room air.",
                                                   QuantityKind::kPower, at_least(0)),
                                    "sized for the zone's full-load air-side heat: every node at full power, "
                                    "doors off"),
                  with_default(number_field("crah_fan_fraction",
                                            "Air handler fan power per W of heat it moves (assumption: ~5% for "
                                            "legacy CRAH units).",
                                            at_least(0)),
                               0.05),
                  with_default(number_field("cdu_rated_flow_kg_per_s",
                                            "Most secondary flow one CDU pumps through its heat exchanger; a zone's "
                                            "loop gets at most its working CDUs' total (assumption: 24 kg/s carries "
                                            "~1 MW at a 10 K rise, a row-scale CDU).",
                                            above(0)),
                               24.0),
                  with_default(integer_field("cdu_redundant_units",
                                             "Spare CDUs in a zone whose count is not set: it gets enough CDUs for its "
                                             "rated flow plus these (1: N+1, the usual design; a cdu_failure of one "
                                             "unit then costs no flow).",
                                             between(0, 16)),
                               1),
                  with_default(quantity_field("cdu_pump_power",
                                              "CDU secondary pump power per rack at rated flow; it follows the "
                                              "affinity law, speed^3 (assumption: ~1% of a 40 kW rack).",
                                              QuantityKind::kPower, at_least(0)),
                               "400 W"),
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
                           with_default(number_field("water_flow_kg_per_s_per_rack",
                                                     "Facility water flow per rack: the plant follows the cluster "
                                                     "(assumption: ~1 kg/s carries a 41 kW rack's heat at a 10 K "
                                                     "rise, the secondary loop's sizing rule).",
                                                     above(0)),
                                        1.0),
                           with_default_note(quantity_field("chiller_capacity",
                                                            "Heat the chiller can lift; what it cannot lift warms the "
                                                            "facility water supply and is a cooling shortfall.",
                                                            QuantityKind::kPower, at_least(0)),
                                             "the cluster's full-load heat: every node at full power plus the "
                                             "network"),
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
                                           QuantityKind::kTemperature, between(20, 95)),
                            integer_field("cdus", "CDUs serving this zone (default: enough for its rated flow at "
                                                  "/facility/cooling/cdu_rated_flow_kg_per_s, plus cdu_redundant_units).",
                                          between(1, 1000))}),
                       nlohmann::json::array()),
      }),
      "no facility model: node power follows the cluster's linear model, no thermal state, no PUE");
}

}  // namespace dcsim::tools::scenario
