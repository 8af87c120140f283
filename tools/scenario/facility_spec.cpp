#include "tools/scenario/facility_spec.hpp"

#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

using models::facility::FacilityConfig;
using models::facility::ZoneConfig;
using sim::QuantityKind;

namespace {
// The loader fills these from /cluster/node's preset (fill_facility_from_preset), so the resolved
// document states the thresholds that run.
FieldSpec gpu_preset_default(FieldSpec f) { return with_default_note(std::move(f), "from the node's GPU preset"); }
}  // namespace

Bindings<FacilityConfig> facility_bindings(const models::ModelRegistries& registries) {
  using C = FacilityConfig;
  Bindings<C> ups(object_field(
      "ups",
      "UPS losses as fractions of its rating, by load x: no-load + proportional x + square-law x^2 "
      "(Schneider Electric White Paper 108: no-load losses can be over 40% of all losses, square-law 1-4% at "
      "high load). Defaults: 4.2% of rating at full load (~96%, double conversion) split 40/48/12 "
      "(assumption); a quarter-loaded UPS is then ~92% efficient.",
      {}));
  ups.bind(number_field("no_load_loss", "Loss at no load, fraction of rating.", between(0, 0.5)),
           &C::ups_no_load_loss, "ups_no_load_loss")
      .bind(number_field("proportional_loss", "Loss proportional to load, fraction of rating at full load.",
                         between(0, 0.5)),
            &C::ups_proportional_loss, "ups_proportional_loss")
      .bind(number_field("square_law_loss", "Loss with the square of load (I^2 R), fraction of rating at full load.",
                         between(0, 0.5)),
            &C::ups_square_law_loss, "ups_square_law_loss")
      .bind(with_default_note(quantity_field("capacity", "UPS rating.", QuantityKind::kPower, above(0)),
                              "the cluster's full-load IT power (every node at full power plus the network) "
                              "over the PDU efficiency"),
            &C::ups_capacity_w, "ups_capacity_w");

  Bindings<C> throttle(object_field(
      "throttle",
      "GPU thermal thresholds: clocks fall linearly from max_operating to slowdown, hold at slowdown_clock "
      "above it, and the GPU shuts down at shutdown until it cools below restart_below. The three "
      "temperatures default to the node's GPU preset (nvidia-smi -q: H100 and H200 SXM 87 / 89 / 92 C, "
      "A100 SXM4 85 / 89 / 92 C).",
      {}));
  throttle
      .bind(gpu_preset_default(quantity_field("max_operating", "Clocks start to fall above it.",
                                              QuantityKind::kTemperature, between(40, 120))),
            &C::max_operating_c, "max_operating_c")
      .bind(gpu_preset_default(quantity_field("slowdown", "Hardware slowdown: clocks at slowdown_clock.",
                                              QuantityKind::kTemperature, between(40, 120))),
            &C::slowdown_c, "slowdown_c")
      .bind(gpu_preset_default(quantity_field("shutdown", "The GPU stops; its node's job stalls.",
                                              QuantityKind::kTemperature, between(40, 120))),
            &C::shutdown_c, "shutdown_c")
      .bind(number_field("slowdown_clock", "Clock factor at and above slowdown (assumption: HW slowdown halves the "
                         "clock).", between(0.05, 1)),
            &C::slowdown_clock_factor, "slowdown_clock_factor")
      .bind(with_default(quantity_field("restart_below", "A shut-down GPU restarts once cooled below it (assumption).",
                                        QuantityKind::kTemperature, between(20, 120)),
                         "80 C"),
            &C::restart_below_c, "restart_below_c");

  Bindings<C> cooling(object_field("cooling", "How heat leaves the nodes.", {}));
  cooling
      .bind_enum(with_default(enum_field("mode", "d2c: cold plates on GPUs/CPUs; air: heat sinks and node fans.",
                                         "cooling mode", {"d2c", "air"}),
                              "d2c"),
                 &C::mode, "mode", {{"d2c", C::Mode::kD2c}, {"air", C::Mode::kAir}})
      .bind(number_field("d2c_capture", "Share of node heat captured by liquid (0.7-0.95 typical).", between(0, 1)),
            &C::d2c_capture, "d2c_capture")
      .bind(number_field("secondary_flow_kg_per_s_per_rack", "Rated CDU secondary coolant flow per rack.", above(0)),
            &C::secondary_flow_kg_per_s_per_rack, "secondary_flow_kg_per_s_per_rack")
      .bind(boolean_field("rdhx", "Rear-door heat exchangers on every rack."), &C::rdhx, "rdhx")
      .bind(boolean_field("rdhx_active", "Doors with fans (else passive)."), &C::rdhx_active, "rdhx_active")
      .bind(with_default(quantity_field("rdhx_capacity", "Heat one active door removes.", QuantityKind::kPower,
                                        above(0)),
                         "50 kW"),
            &C::rdhx_capacity_w, "rdhx_capacity_w")
      .bind(with_default(quantity_field("rdhx_passive_capacity",
                                        "Heat one passive door removes (rdhx_active false), and the most an "
                                        "active door whose fans failed still removes; passive doors reach "
                                        "about 35 kW (public-figures.md).",
                                        QuantityKind::kPower, at_least(0)),
                         "20 kW"),
            &C::rdhx_passive_capacity_w, "rdhx_passive_capacity_w")
      .bind(number_field("rdhx_effectiveness",
                         "Share of a rack's exhaust heat its door takes, below the door's "
                         "capacity; the doors sit in series with the exhaust, the air handlers "
                         "take the rest (assumption: doors are rated room-neutral at capacity, "
                         "0.9 leaves a tenth to bypass around the door).",
                         between(0, 1)),
            &C::rdhx_effectiveness, "rdhx_effectiveness")
      .bind(with_default(quantity_field("rdhx_fan_power",
                                        "Fan power of one active door at its rated capacity (door fans "
                                        "0.5-2 kW, public-figures.md); at part duty it follows the fan "
                                        "affinity law, (duty / capacity)^3.",
                                        QuantityKind::kPower, at_least(0)),
                         "1 kW"),
            &C::rdhx_fan_power_w, "rdhx_fan_power_w")
      .bind(with_default_note(quantity_field("crah_capacity",
                                             "Room air handler (CRAH) capacity per zone, for the heat the doors "
                                             "leave; heat beyond it warms the room air.",
                                             QuantityKind::kPower, at_least(0)),
                              "sized for the zone's full-load air-side heat: every node at full power, "
                              "doors off"),
            &C::crah_capacity_w, "crah_capacity_w")
      .bind(number_field("crah_fan_fraction",
                         "Air handler fan power per W of heat it moves (assumption: ~5% for "
                         "legacy CRAH units).",
                         at_least(0)),
            &C::crah_fan_w_per_w, "crah_fan_w_per_w")
      .bind(number_field("cdu_rated_flow_kg_per_s",
                         "Most secondary flow one CDU pumps through its heat exchanger; a zone's "
                         "loop gets at most its working CDUs' total (assumption: 24 kg/s carries "
                         "~1 MW at a 10 K rise, a row-scale CDU).",
                         above(0)),
            &C::cdu_rated_flow_kg_per_s, "cdu_rated_flow_kg_per_s")
      .bind(integer_field("cdu_redundant_units",
                          "Spare CDUs in a zone whose count is not set: it gets enough CDUs for its "
                          "rated flow plus these (1: N+1, the usual design; a cdu_failure of one "
                          "unit then costs no flow).",
                          between(0, 16)),
            &C::cdu_redundant_units, "cdu_redundant_units")
      .bind(with_default(quantity_field("cdu_pump_power",
                                        "CDU secondary pump power per rack at rated flow; it follows the "
                                        "affinity law, speed^3 (assumption: ~1% of a 40 kW rack).",
                                        QuantityKind::kPower, at_least(0)),
                         "400 W"),
            &C::cdu_pump_power_w_per_rack, "cdu_pump_power_w_per_rack")
      .bind(with_default(enum_field("control", "Cooling-control policy (`dcsim list \"cooling control\"`).",
                                    registries.cooling_controls.kind(), registries.cooling_controls.names()),
                         "pi_target"),
            &C::control, "control")
      .bind(params_object_field("control_params",
                                "Parameters of the chosen cooling control (`dcsim list \"cooling control\"`); "
                                "keys it does not document are errors, keys left out take its defaults.",
                                entry_params(registries.cooling_controls)),
            &C::control_params, "control_params")
      .bind(with_default(quantity_field("target_gpu", "GPU die temperature the closed-loop control holds; "
                                        "20-95 C (an H100 slows down on its own near 87 C).",
                                        QuantityKind::kTemperature, between(20, 95)),
                         "65 C"),
            &C::target_gpu_c, "target_gpu_c");

  // switches, active_ports and port_speed become the switch count, ports and power (derived in
  // map_facility_section, or counted from the fabric's topology).
  Bindings<C> network(object_field(
      "network",
      "Network switches as IT load (models/power/switch_power.hpp): base power plus power per active port by "
      "speed. With a fabric section its topology's switches and cabled ports are counted and `switches` must "
      "stay 0; without one, `switches` switches with `active_ports` ports each.",
      {}));
  network
      .bind(integer_field("switches", "Switches in the facility when there is no fabric section.", at_least(0)),
            &C::network_switches, "network_switches")
      .key(with_default(integer_field("active_ports", "Cabled ports per switch (no fabric section).", at_least(0)),
                        64))
      .key(with_default(quantity_field("port_speed", "Speed of those ports (no fabric section).",
                                       QuantityKind::kDataRate, above(0)),
                        "400 Gb/s"))
      .bind(with_default(quantity_field("base_power", "Per switch: ASIC core, CPU, fans, PSU losses (estimate).",
                                        QuantityKind::kPower, at_least(0)),
                         "400 W"),
            &C::switch_power, &models::power::SwitchPowerConfig::base_w, "switch_power.base_w")
      .bind(with_default(quantity_field("port_power", "Per active 400G port: optic (8 W typical, NVIDIA OSFP spec) "
                                        "+ SerDes (estimate); scales with port speed.",
                                        QuantityKind::kPower, at_least(0)),
                         "11 W"),
            &C::switch_power, &models::power::SwitchPowerConfig::port_400g_w, "switch_power.port_400g_w");

  using models::thermal::CoolingPlantConfig;
  Bindings<C> plant(object_field("plant", "Facility water plant.", {}));
  plant
      .bind(with_default(quantity_field("supply", "Facility water supply set point; 2-60 C: liquid "
                                        "water (no glycol is modelled), up to beyond ASHRAE's W45 class.",
                                        QuantityKind::kTemperature, between(2, 60)),
                         "25 C"),
            &C::plant, &CoolingPlantConfig::supply_c, "plant.supply_c")
      .bind(boolean_field("chiller", "A chiller trims what the dry cooler cannot."), &C::plant,
            &CoolingPlantConfig::chiller, "plant.chiller")
      .bind(boolean_field("dry_cooler", "A dry cooler for free cooling (economiser)."), &C::plant,
            &CoolingPlantConfig::dry_cooler, "plant.dry_cooler")
      .bind(number_field("water_flow_kg_per_s_per_rack",
                         "Facility water flow per rack: the plant follows the cluster "
                         "(assumption: ~1 kg/s carries a 41 kW rack's heat at a 10 K "
                         "rise, the secondary loop's sizing rule).",
                         above(0)),
            &C::facility_water_flow_kg_per_s_per_rack, "facility_water_flow_kg_per_s_per_rack")
      .bind(with_default_note(quantity_field("chiller_capacity",
                                             "Heat the chiller can lift; what it cannot lift warms the "
                                             "facility water supply and is a cooling shortfall.",
                                             QuantityKind::kPower, at_least(0)),
                              "the cluster's full-load heat: every node at full power plus the "
                              "network"),
            &C::chiller_capacity_w, "chiller_capacity_w");

  // kind "csv" reads `file` (map_facility_section).
  using models::thermal::OutdoorProfile;
  Bindings<C> outdoor(object_field("outdoor", "Outdoor temperature profile.", {}));
  outdoor
      .bind(with_default(enum_field("kind", "constant, daily sinusoid, or a CSV series.", "outdoor profile",
                                    {"constant", "sinusoid", "csv"}),
                         "constant"),
            "outdoor.kind",
            [](C& c, const nlohmann::json& v) {
              c.outdoor.kind = v == "sinusoid" ? OutdoorProfile::Kind::kSinusoid
                               : v == "csv"    ? OutdoorProfile::Kind::kSeries
                                               : OutdoorProfile::Kind::kConstant;
            })
      .bind(with_default(quantity_field("mean", "Mean (or constant) temperature; -60 to 60 C, "
                                        "beyond the coldest and hottest annual means anywhere.",
                                        QuantityKind::kTemperature, between(-60, 60)),
                         "15 C"),
            &C::outdoor, &OutdoorProfile::mean_c, "outdoor.mean_c")
      .bind(with_default(quantity_field("amplitude", "Sinusoid half-swing (peak at 15:00); 0-40 C.",
                                        QuantityKind::kTemperature, between(0, 40)),
                         "0 C"),
            &C::outdoor, &OutdoorProfile::amplitude_c, "outdoor.amplitude_c")
      .key(string_field("file", "CSV of temperatures in C, one per line (kind csv), relative to the scenario."))
      .bind(with_default(quantity_field("interval", "Time between CSV samples.", QuantityKind::kDuration, above(0)),
                         "1 h"),
            &C::outdoor, &OutdoorProfile::series_interval, "outdoor.series_interval");

  Bindings<ZoneConfig> zone(with_default(
      object_array_field("zones", "Groups of racks with their own CDU, doors and air (default: one zone, all racks).",
                         {}),
      nlohmann::json::array()));
  zone.bind(required(non_empty(string_field("name", "Zone name."))), &ZoneConfig::name, "name")
      .bind(required(min_items(integer_array_field("racks", "Rack indices.", at_least(0)), 1)), &ZoneConfig::racks,
            "racks")
      .bind(number_field("d2c_capture", "This zone's capture fraction (default: /facility/cooling/d2c_capture).",
                         between(0, 1)),
            &ZoneConfig::d2c_capture, "d2c_capture")
      .bind(quantity_field("rdhx_capacity", "This zone's active-door capacity (default: /facility/cooling/rdhx_capacity).",
                           QuantityKind::kPower, at_least(0)),
            &ZoneConfig::rdhx_capacity_w, "rdhx_capacity_w")
      .bind(number_field("secondary_flow_kg_per_s_per_rack",
                         "This zone's rated CDU flow per rack; cold plates rated at the facility-wide flow (default: "
                         "/facility/cooling).",
                         above(0)),
            &ZoneConfig::secondary_flow_kg_per_s_per_rack, "secondary_flow_kg_per_s_per_rack")
      .bind(quantity_field("target_gpu", "This zone's control target (default: /facility/cooling/target_gpu); 20-95 C.",
                           QuantityKind::kTemperature, between(20, 95)),
            &ZoneConfig::target_gpu_c, "target_gpu_c")
      .bind(integer_field("cdus", "CDUs serving this zone (default: enough for its rated flow at "
                                  "/facility/cooling/cdu_rated_flow_kg_per_s, plus cdu_redundant_units).",
                          between(1, 1000)),
            &ZoneConfig::cdus, "cdus");

  Bindings<C> facility(object_field(
      "facility",
      "Power delivery and cooling (models/facility): when present, the facility's bottom-up node "
      "power replaces the cluster's linear model, GPUs carry thermal state and throttle, and PUE "
      "is reported.",
      {}));
  facility
      .bind(with_default(quantity_field("tick",
                                        "Thermal step and control period (also stepped at every load change). "
                                        "At least 1 ms: the fastest thermal paths modelled (cold plates) take seconds, "
                                        "so a finer step resolves nothing and costs a step per millisecond.",
                                        QuantityKind::kDuration, at_least(1e-3)),
                         "10 s"),
            &C::tick, "tick")
      .bind(with_default(enum_field("thermal_resolution",
                                    "Thermal paths: `gpu`, one per GPU, each with its own thermal-interface "
                                    "resistance (exact); `node`, one per node standing for its GPUs as its hottest "
                                    "(the one that sets its clock): the same node clocks and heat balance, a tick "
                                    "O(nodes) instead of O(GPUs), for site-scale runs (docs/models/facility.md).",
                                    "thermal resolution", {"gpu", "node"}),
                         "gpu"),
            "thermal_resolution",
            [](C& c, const nlohmann::json& v) {
              c.thermal_resolution = v == "node" ? C::ThermalResolution::kNode : C::ThermalResolution::kGpu;
            })
      // Left out: the GPU's own maximum (map_facility_section), nvidia-smi's default.
      .bind(with_default_note(quantity_field("gpu_power_limit",
                                             "GPU power cap; demand above it lowers the clock (DVFS).",
                                             QuantityKind::kPower, between(100, 700)),
                              "the GPU's maximum power (/cluster/node/gpu_max_power)"),
            "node.gpu.power_limit_w", [](C& c, const nlohmann::json& v) { c.node.gpu.power_limit_w = v.get<double>(); })
      .bind(with_default(quantity_field("rack_limit",
                                        "Rack power limit; crossings are logged (events/facility), "
                                        "and enforced when power_capping says so.",
                                        QuantityKind::kPower, above(0)),
                         "60 kW"),
            &C::rack_limit_w, "rack_limit_w")
      .bind(with_default(enum_field("power_capping",
                                    "Power-capping policy (`dcsim list \"power capping\"`): log_only keeps GPU power "
                                    "limits as configured; rack_gpu_cap lowers the GPU limits of a rack that would "
                                    "cross rack_limit, which lowers their clock and slows their jobs.",
                                    registries.power_capping.kind(), registries.power_capping.names()),
                         "log_only"),
            &C::power_capping, "power_capping")
      .bind(params_object_field("power_capping_params",
                                "Parameters of the chosen power-capping policy (`dcsim list \"power capping\"`); keys "
                                "it does not document are errors, keys left out take its defaults.",
                                entry_params(registries.power_capping)),
            &C::power_capping_params, "power_capping_params")
      .object(std::move(ups))
      .bind(number_field("pdu_efficiency", "PDU and transformer efficiency after the UPS (98-99% vendor range).",
                         between(0.5, 1)),
            &C::pdu_efficiency, "pdu_efficiency")
      .object(std::move(throttle))
      .bind(with_default(enum_field("on_shortfall",
                                    "When the cooling cannot remove the heat (a GPU die above its max operating "
                                    "temperature, room air above ASHRAE's allowable 32 C, or heat beyond the chiller): "
                                    "warn (an event and /summary/facility/cooling_warning) or error (the run stops, "
                                    "exit 2).",
                                    "shortfall action", {"warn", "error"}),
                         "warn"),
            "shortfall_is_error", [](C& c, const nlohmann::json& v) { c.shortfall_is_error = v == "error"; })
      .object(std::move(cooling))
      .object(std::move(network))
      .object(std::move(plant))
      .object(std::move(outdoor))
      .array(&C::zones, "zones", std::move(zone))
      .bind(with_default(integer_field("halls",
                                       "Without /facility/zones: the racks split in rack order into this many zones "
                                       "of equal size (data halls hall-1 .. hall-N, each with its own CDUs, doors and "
                                       "air); 1: one zone \"all\". At most the racks.",
                                       at_least(1)),
                         1),
            &C::halls, "halls");
  return facility;
}

FieldSpec facility_section(const models::ModelRegistries& registries) {
  return optional_section(facility_bindings(registries).spec(),
                          "no facility model: node power follows the cluster's linear model, no thermal state, no PUE");
}

}  // namespace dcsim::tools::scenario
