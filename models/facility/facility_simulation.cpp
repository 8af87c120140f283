#include "models/facility/facility_simulation.hpp"

#include "models/facility/facility_state.hpp"
#include "models/facility/power_delivery.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/thermal/rc_path.hpp"
#include "sim/error.hpp"
#include "sim/random.hpp"

namespace dcsim::models::facility {

namespace {

constexpr double kJoulesPerKwh = 3.6e6;
// A shut-down GPU stalls its node's job; activities need a positive rate, so the job crawls at
// this factor until the GPU restarts.
constexpr double kShutdownClockFactor = 1e-3;

void require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw sim::ConfigError(field, message);
}

// "87 C", "89.5 C": a threshold as an error message quotes it.
std::string celsius(double c) {
  char text[32];
  std::snprintf(text, sizeof text, "%g C", c);
  return text;
}

enum Series : std::size_t {
  kItW, kTotalW, kCoolingW, kPue, kOutdoorC, kSupplyC, kChillerW, kMaxGpuC, kBusyClock, kCount
};

}  // namespace


FacilitySimulation::FacilitySimulation(FacilityConfig config, int nodes, int nodes_per_rack,
                                       std::uint64_t seed, const FacilityRegistries& registries,
                                       sim::Simulator& sim, sim::TraceSink& sink)
    : config_(std::move(config)), sim_(sim), sink_(sink), nodes_per_rack_(nodes_per_rack) {
  const auto& c = config_;
  // Single-key ranges are the scenario format's (tools/scenario/facility_spec.cpp); here only
  // what no single key says. Errors name the member, which the scenario layer maps to its key.
  require(c.max_operating_c < c.slowdown_c, "slowdown_c",
          "must be above the max operating temperature (" + celsius(c.max_operating_c) + ")");
  require(c.slowdown_c < c.shutdown_c, "shutdown_c",
          "must be above the slowdown temperature (" + celsius(c.slowdown_c) + ")");
  require(c.restart_below_c < c.shutdown_c, "restart_below_c",
          "must be below the shutdown temperature (" + celsius(c.shutdown_c) + ")");
  require(c.node.gpu.power_limit_w > 0, "node.gpu.power_limit_w", "must be positive");
  require(c.cdu_effectiveness > 0 && c.cdu_effectiveness <= 1, "cdu_effectiveness", "must be in (0, 1]");
  const int racks = (nodes + nodes_per_rack - 1) / nodes_per_rack;
  {
    std::vector<double> zero_gpu(static_cast<std::size_t>(c.node.gpus), c.node.gpu.idle_power_w);
    const double idle_rack_w =
        power::node_power(c.node, zero_gpu.data(), 0.0, c.node_fan_min_speed).ac_w;
    require(c.rack_limit_w >= idle_rack_w, "rack_limit_w",
            "must be at least one node's idle power (" + std::to_string(static_cast<int>(idle_rack_w)) + " W)");
  }
  // The plant follows the cluster: facility water per rack; the chiller, unless set, lifts the
  // cluster's full-load heat (every node at full power plus the network).
  std::vector<double> full_gpu(static_cast<std::size_t>(c.node.gpus), c.node.gpu.max_power_w);
  const double air_fan = c.mode == FacilityConfig::Mode::kAir ? 1.0 : c.node_fan_min_speed;
  const double full_node_w = power::node_power(c.node, full_gpu.data(), 1.0, air_fan).ac_w;
  config_.plant.water_flow_kg_per_s = c.facility_water_flow_kg_per_s_per_rack * racks;
  config_.plant.chiller_capacity_w = c.chiller_capacity_w.value_or(full_node_w * nodes + c.network_power_w);
  ups_ = {c.ups_capacity_w.value_or((full_node_w * nodes + c.network_power_w) / c.pdu_efficiency), c.ups_no_load_loss,
          c.ups_proportional_loss, c.ups_square_law_loss};
  std::vector<int> rack_zone(static_cast<std::size_t>(racks), -1);
  require(c.halls >= 1 && c.halls <= racks, "halls", "must be from 1 to the racks (" + std::to_string(racks) + ")");
  require(c.halls == 1 || c.zones.empty(), "halls", "must be 1 when zones are listed (each zone names its racks)");
  if (config_.zones.empty()) {
    for (int h = 0, first = 0; h < c.halls; ++h) {
      ZoneConfig hall;
      hall.name = c.halls == 1 ? "all" : "hall-" + std::to_string(h + 1);
      const int size = racks / c.halls + (h < racks % c.halls ? 1 : 0);
      for (int r = first; r < first + size; ++r) hall.racks.push_back(r);
      first += size;
      config_.zones.push_back(std::move(hall));
    }
  }
  zones_.resize(config_.zones.size());
  for (std::size_t z = 0; z < config_.zones.size(); ++z) {
    zones_[z].name = config_.zones[z].name;
    for (std::size_t k = 0; k < config_.zones[z].racks.size(); ++k) {
      const int r = config_.zones[z].racks[k];
      const std::string at = "zones[" + std::to_string(z) + "].racks[" + std::to_string(k) + "]";
      require(r >= 0 && r < racks, at, "must be a rack index below " + std::to_string(racks));
      require(rack_zone[static_cast<std::size_t>(r)] < 0, at, "rack already belongs to a zone");
      rack_zone[static_cast<std::size_t>(r)] = static_cast<int>(z);
      ++zones_[z].racks;
    }
  }
  for (int r = 0; r < racks; ++r) {
    require(rack_zone[static_cast<std::size_t>(r)] >= 0, "zones", "rack " + std::to_string(r) + " is in no zone");
  }
  for (std::size_t f = 0; f < c.faults.size(); ++f) {
    const auto& fault = c.faults[f];
    require(fault.zone >= -1 && fault.zone < static_cast<int>(zones_.size()),
            "faults[" + std::to_string(f) + "].zone", "must name a zone");
    require(fault.kind != PlantFault::Kind::kCduFailure || fault.count >= 1,
            "faults[" + std::to_string(f) + "].count", "must be at least 1");
  }
  const auto& control = registries.cooling_controls.get(config_.control);
  config_.control_params.require_documented(control.params, "control_params.",
                                            "cooling control '" + config_.control + "'");
  config_.control_params.fill_defaults(control.params);
  const auto& capping = registries.power_capping.get(config_.power_capping);
  config_.power_capping_params.require_documented(capping.params, "power_capping_params.",
                                                  "power capping '" + config_.power_capping + "'");
  config_.power_capping_params.fill_defaults(capping.params);
  capping_ = capping.factory(config_.power_capping_params);

  sim::RandomStream rng(seed, "facility/tim");
  const double t0 = config_.plant.supply_c;
  nodes_.resize(static_cast<std::size_t>(nodes));
  const bool per_node = c.thermal_resolution == FacilityConfig::ThermalResolution::kNode;
  paths_per_node_ = per_node ? 1 : static_cast<std::size_t>(c.node.gpus);
  gpus_per_path_ = per_node ? static_cast<double>(c.node.gpus) : 1.0;
  gpus_.resize(static_cast<std::size_t>(nodes) * paths_per_node_);
  node_gpu_w_.assign(static_cast<std::size_t>(c.node.gpus), 0.0);
  cap_gpu_w_.assign(static_cast<std::size_t>(c.node.gpus), 0.0);
  for (std::size_t n = 0; n < static_cast<std::size_t>(nodes); ++n) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(c.node.gpus); ++k) {
      // Thermal-interface spread: assembly variation makes some GPUs hotter than others. The
      // same draws at either resolution; a node's path takes its GPUs' largest resistance.
      const double r = c.rc.die_to_plate_k_per_w * std::max(0.5, 1.0 + c.tim_spread * rng.normal(0.0, 1.0));
      auto& g = gpus_[path_index(n, k)];
      if (!per_node || k == 0 || 1.0 / r < g.g_die_plate) g.g_die_plate = 1.0 / r;
      g.die_c = g.plate_c = t0;
    }
  }
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    nodes_[n].rack = n / static_cast<std::size_t>(nodes_per_rack);
    nodes_[n].zone = rack_zone[nodes_[n].rack];
    nodes_[n].power_limit_w = c.node.gpu.power_limit_w;
    zones_[static_cast<std::size_t>(nodes_[n].zone)].nodes.push_back(n);
  }
  for (std::size_t zi = 0; zi < zones_.size(); ++zi) {
    auto& z = zones_[zi];
    const auto& zc = config_.zones[zi];
    const std::string at = "zones[" + std::to_string(zi) + "].";
    z.capture = zc.d2c_capture.value_or(c.d2c_capture);
    z.rdhx_capacity_w = zc.rdhx_capacity_w.value_or(c.rdhx_capacity_w);
    z.secondary_flow_kg_per_s_per_rack = zc.secondary_flow_kg_per_s_per_rack.value_or(c.secondary_flow_kg_per_s_per_rack);
    z.plate_flow_scale = z.secondary_flow_kg_per_s_per_rack / c.secondary_flow_kg_per_s_per_rack;
    // Air handlers sized, unless set, for the zone's full-load air-side heat with the doors off.
    const double air_share = c.mode == FacilityConfig::Mode::kAir ? 1.0 : 1.0 - z.capture;
    z.crah_capacity_w = c.crah_capacity_w.value_or(
        air_share * full_node_w * static_cast<double>(z.nodes.size()) +
        c.network_power_w * z.racks / std::max(1, racks));
    z.target_gpu_c = zc.target_gpu_c.value_or(c.target_gpu_c);
    // CDUs: set, or enough for the zone's rated flow plus the spares.
    const double rated_flow = z.secondary_flow_kg_per_s_per_rack * z.racks;
    z.cdus = zc.cdus.value_or(static_cast<int>(std::ceil(rated_flow / c.cdu_rated_flow_kg_per_s - 1e-9)) +
                              c.cdu_redundant_units);
    require(z.cdus >= 1, at + "cdus", "must be at least 1");
    update_cdu_limit(z);
    z.loop_c = z.air_c = z.max_gpu_c = t0;
    z.control = control.factory(config_.control_params);
    z.speed = z.control->initial_speed();
  }
  rack_power_w_.assign(static_cast<std::size_t>(racks), 0.0);
  rack_over_limit_.assign(static_cast<std::size_t>(racks), false);
  rack_gpu_limit_w_.assign(static_cast<std::size_t>(racks), c.node.gpu.power_limit_w);
  rack_cap_short_.assign(static_cast<std::size_t>(racks), 0);
  rack_history_.resize(static_cast<std::size_t>(racks));
  rack_last_spike_.assign(static_cast<std::size_t>(racks), sim::Time::zero() - c.spike_window - c.spike_window);
  for (auto& z : zones_) {
    z.crossings.resize(z.nodes.size());
    for (std::size_t k = 0; k < z.nodes.size(); ++k) nodes_[z.nodes[k]].zone_slot = k;
  }
  crossing_stale_.assign(nodes_.size(), 0);
  for (std::size_t n = 0; n < nodes_.size(); ++n) recompute_node(n);
  stored0_j_ = stored_energy_j();  // zero by construction; kept as the reference

  events_ = sink_.declare_table(
      "facility", {{"time_s", sim::ColumnType::kFloat64, "s", "simulated time"},
                   {"kind", sim::ColumnType::kString, "", "event kind"},
                   {"zone", sim::ColumnType::kInt64, "", "zone index (-1: none / all)"},
                   {"rack", sim::ColumnType::kInt64, "", "rack index (-1: none)"},
                   {"node", sim::ColumnType::kInt64, "", "node index (-1: none)"},
                   {"value", sim::ColumnType::kFloat64, "see unit",
                    "power (W), temperature (C), difference (K), fraction or count, as column unit says"},
                   {"unit", sim::ColumnType::kString, "", "the value's unit: W, C, K, fraction, CDUs, or empty (no value)"},
                   {"detail", sim::ColumnType::kString, "", "why"}});
  series_.resize(kCount);
  series_[kItW] = sink_.declare_series("facility/it_w", "W", "IT power: node AC + network switches");
  series_[kTotalW] = sink_.declare_series("facility/total_w", "W", "facility power: IT + distribution losses + cooling");
  series_[kCoolingW] = sink_.declare_series("facility/cooling_w", "W", "pumps, fans, chiller, dry cooler");
  series_[kPue] = sink_.declare_series("facility/pue", "", "facility power / IT power at this tick");
  series_[kOutdoorC] = sink_.declare_series("facility/outdoor_c", "C", "outdoor dry bulb");
  series_[kSupplyC] = sink_.declare_series("facility/water_supply_c", "C", "facility water supply");
  series_[kChillerW] = sink_.declare_series("facility/chiller_w", "W", "chiller compressor power (0: economiser)");
  series_[kMaxGpuC] = sink_.declare_series("thermal/max_gpu_c", "C", "hottest GPU die");
  series_[kBusyClock] = sink_.declare_series("thermal/busy_clock_factor", "",
                                             "mean clock factor of nodes running jobs (1: no throttling)");
  for (auto& z : zones_) {
    const std::string p = "thermal/zone/" + z.name + "/";
    z.series = {sink_.declare_series(p + "max_gpu_c", "C", "hottest GPU die in the zone"),
                sink_.declare_series(p + "coolant_c", "C", "secondary coolant loop (lumped)"),
                sink_.declare_series(p + "air_c", "C", "room air (lumped)"),
                sink_.declare_series(p + "speed", "", "pump (D2C) or node fan (air) speed fraction"),
                sink_.declare_series(p + "liquid_w", "W", "heat the CDU passes to facility water"),
                sink_.declare_series(p + "air_w", "W", "heat the rear doors and air handlers remove")};
  }
}

FacilitySimulation::~FacilitySimulation() = default;

double FacilitySimulation::node_power_w(int node) const { return nodes_[static_cast<std::size_t>(node)].ac_w; }
double FacilitySimulation::gpu_die_c(int gpu) const {
  const auto per = static_cast<std::size_t>(config_.node.gpus);
  return gpus_[path_index(static_cast<std::size_t>(gpu) / per, static_cast<std::size_t>(gpu) % per)].die_c;
}
int FacilitySimulation::zones() const { return static_cast<int>(zones_.size()); }
double FacilitySimulation::zone_coolant_c(int zone) const { return zones_[static_cast<std::size_t>(zone)].loop_c; }

void FacilitySimulation::attach(seams::NodeClock& clock, sim::Time duration) {
  clock_ = &clock;
  duration_ = duration;
}

int FacilitySimulation::zone_of_node(int node) const { return nodes_[static_cast<std::size_t>(node)].zone; }

double FacilitySimulation::gpu_temperature_c(int node) const {
  const std::size_t first = static_cast<std::size_t>(node) * paths_per_node_;
  double hottest = -std::numeric_limits<double>::infinity();
  for (std::size_t g = first; g < first + paths_per_node_; ++g) hottest = std::max(hottest, gpus_[g].die_c);
  return hottest;
}

double FacilitySimulation::rack_power_headroom_w(int rack) const {
  return config_.rack_limit_w - rack_power_w_[static_cast<std::size_t>(rack)];
}

void FacilitySimulation::start() {
  started_ = true;
  last_ = sim_.now();
  for (auto& z : zones_) z.last = last_;
  plant_ = thermal::plant_state(config_.plant, 0.0, config_.outdoor.temperature_c(sim_.now()), 0.0);
  for (std::size_t f = 0; f < config_.faults.size(); ++f) {
    const auto& fault = config_.faults[f];
    sim_.at(std::max(fault.at, sim_.now()), [this, f] { apply_fault(f, true); }, sim::Priority::kFirst);
    if (!fault.duration.is_max()) {
      sim_.at(std::max(fault.at, sim_.now()) + fault.duration, [this, f] { apply_fault(f, false); },
              sim::Priority::kFirst);
    }
  }
  sim_.at(sim_.now(), [this] { on_tick(); }, sim::Priority::kRateChange);
}

void FacilitySimulation::on_node_utilization(int node, double utilization) {
  // Its zone only: the others' powers did not change (O(zone GPUs) rather than O(site GPUs)).
  advance_zone(static_cast<std::size_t>(nodes_[static_cast<std::size_t>(node)].zone));
  auto& n = nodes_[static_cast<std::size_t>(node)];
  n.utilization = utilization;
  // The rack's capping decision first, at the new load: the rack never passes through a
  // crossing the policy prevents.
  if (!cap_rack(n.rack, static_cast<std::size_t>(node))) {
    update_cap_factor(static_cast<std::size_t>(node));
    recompute_node(static_cast<std::size_t>(node));
    apply_node_clock(static_cast<std::size_t>(node));
  }
  schedule_threshold_check();
}

double FacilitySimulation::node_ac_w_at(std::size_t n, double cap_factor, double* gpu_w, double* clock) const {
  const auto& node = nodes_[n];
  const int per = config_.node.gpus;
  double thermal = 1.0;
  bool any_shutdown = false;
  for (int g = 0; g < per; ++g) {
    const auto& gpu = gpus_[path_index(n, static_cast<std::size_t>(g))];
    thermal = std::min(thermal, gpu.thermal_factor);
    any_shutdown = any_shutdown || gpu.shutdown;
  }
  // Synchronous data-parallel work: the node runs at its slowest GPU's clock.
  *clock = any_shutdown ? kShutdownClockFactor : std::min(cap_factor, thermal);
  for (int g = 0; g < per; ++g) {
    const auto& gpu = gpus_[path_index(n, static_cast<std::size_t>(g))];
    gpu_w[g] = gpu.shutdown ? 0.0 : power::gpu_power_w(config_.node.gpu, node.utilization, *clock);
  }
  const auto& zone = zones_[static_cast<std::size_t>(node.zone)];
  const double fan = config_.mode == FacilityConfig::Mode::kAir ? zone.speed : config_.node_fan_min_speed;
  return power::node_power(config_.node, gpu_w, node.utilization, fan).ac_w;
}

void FacilitySimulation::recompute_node(std::size_t n) {
  auto& node = nodes_[n];
  const int per = config_.node.gpus;
  // One slot per GPU of the node, sized when the model is built (no fixed bound to trust).
  std::vector<double>& gpu_w = node_gpu_w_;
  node.ac_w = node_ac_w_at(n, node.cap_factor, gpu_w.data(), &node.clock);
  node.gpu_w = 0.0;
  auto& rise = zones_[static_cast<std::size_t>(node.zone)].rise;
  for (int g = 0; g < per; ++g) {
    auto& gpu = gpus_[path_index(n, static_cast<std::size_t>(g))];
    gpu.power_w = gpu_w[g];  // per GPU: a node's path takes its GPUs' (equal) power
    node.gpu_w += gpu_w[g];
    // Its zone's die bound holds for the new power too (the crossing skip relies on it).
    rise.die_w = std::max(rise.die_w, rise.share * gpu.power_w - gpu.die_plate_w());
  }
  peak_node_w_ = std::max(peak_node_w_, node.ac_w);
  zones_[static_cast<std::size_t>(node.zone)].it_dirty = true;
  mark_crossing_stale(n);
  check_rack(node.rack);
}

void FacilitySimulation::apply_node_clock(std::size_t n) {
  if (!clock_) return;
  // set_node_clock_factor re-reads node_power_w, so the cluster integrates the new power too.
  clock_->set_node_clock_factor(static_cast<int>(n), std::clamp(nodes_[n].clock, kShutdownClockFactor, 1.0));
}

void FacilitySimulation::check_rack(std::size_t rack) {
  const std::size_t first = rack * static_cast<std::size_t>(nodes_per_rack_);
  const std::size_t last = std::min(nodes_.size(), first + static_cast<std::size_t>(nodes_per_rack_));
  // The rack's nodes and its share of the network switches (a top-of-rack switch per rack when
  // /facility/network counts one per rack).
  double p = config_.network_power_w / static_cast<double>(std::max<std::size_t>(1, rack_power_w_.size()));
  for (std::size_t n = first; n < last; ++n) p += nodes_[n].ac_w;
  rack_power_w_[rack] = p;
  if (!started_) return;  // building the racks up at construction is not an event
  peak_rack_w_ = std::max(peak_rack_w_, p);
  const int z = nodes_[first].zone;
  if ((p > config_.rack_limit_w) != rack_over_limit_[rack]) {
    rack_over_limit_[rack] = p > config_.rack_limit_w;
    log_event(rack_over_limit_[rack] ? "rack_limit_exceeded" : "rack_limit_cleared", z,
              static_cast<int>(rack), -1, p, "rack power vs the configured rack limit");
  }
  auto& h = rack_history_[rack];
  const sim::Time now = sim_.now();
  while (!h.empty() && h.front().first + config_.spike_window < now) h.pop_front();
  double low = p;
  for (const auto& [t, v] : h) low = std::min(low, v);
  if (!h.empty() && h.back().first == now) h.back().second = p; else h.emplace_back(now, p);
  if (p > (1.0 + config_.spike_fraction) * low && now - rack_last_spike_[rack] > config_.spike_window) {
    rack_last_spike_[rack] = now;
    log_event("power_spike", z, static_cast<int>(rack), -1, p,
              "rack power rose by more than the spike fraction within the spike window");
  }
}

void FacilitySimulation::advance() { advance_zones(nullptr); }

void FacilitySimulation::advance_zone(std::size_t zone) { advance_zones(&zones_[zone]); }

double FacilitySimulation::zone_it_now_w(Zone& z) {
  if (z.it_dirty) {  // O(its nodes), once per change of its power
    const int total_racks = static_cast<int>(rack_power_w_.size());
    double w = config_.network_power_w * z.racks / std::max(1, total_racks);
    for (std::size_t n : z.nodes) w += nodes_[n].ac_w;
    z.it_now_w = w;
    z.it_dirty = false;
  }
  return z.it_now_w;
}

void FacilitySimulation::advance_zones(Zone* only) {
  const sim::Time now = sim_.now();
  const double dt = (now - last_).seconds();  // the plant's and the site's energies' step
  const double facility_before_j = signals_ != nullptr ? facility_energy_j() : 0.0;
  const double t_fw = plant_.supply_c;
  scratch_.resize(2 * gpus_.size());
  // Each zone on its own clock: its powers have been constant since its last step (a change
  // steps it first), so one step to now integrates them exactly as the site-wide steps did.
  double it_step_j = 0.0;
  bool zone_stepped = false;
  ++advance_calls_;
  const auto step = [&](Zone& z) {
    const double dt_z = (now - z.last).seconds();
    if (dt_z <= 0.0) return;
    const ZoneStep st = step_zone(z, dt_z, t_fw);  // zone_heat_balance.cpp
    z.last = now;
    z.stepped_in_call = advance_calls_;
    z.last_step = st;
    z.it_now_w = st.it_w;
    z.it_dirty = false;
    z.crossings_all_stale = true;
    zone_stepped = true;
    it_step_j += st.it_w * dt_z;
    it_j_ += st.it_w * dt_z;
    liquid_j_ += z.liquid_w * dt_z;
    air_j_ += z.air_w * dt_z;
    cdu_pump_j_ += st.cdu_pump_w * dt_z;
    rdhx_fan_j_ += st.rdhx_fan_w * dt_z;
    crah_fan_j_ += st.crah_fan_w * dt_z;
  };
  if (only != nullptr) {
    step(*only);
  } else {
    for (auto& z : zones_) step(z);
  }
  if (dt <= 0.0 && !zone_stepped) return;
  stepped_ = true;
  const sim::Time from = last_;
  last_ = now;
  const auto& c = config_;
  // The site over [from, now]: a zone stepped here drew its step's power throughout (it was
  // constant since before `from`); another draws what it draws now (cached: O(1) unless its
  // power changed). O(zones) besides the zones stepped.
  double it_w = 0.0, cdu_pump_w = 0.0, rdhx_fan_w = 0.0, crah_fan_w = 0.0, liquid_w = 0.0, air_w = 0.0;
  double max_c = -std::numeric_limits<double>::infinity();
  for (auto& z : zones_) {
    it_w += z.stepped_in_call == advance_calls_ ? z.last_step.it_w : zone_it_now_w(z);
    max_c = std::max(max_c, z.max_gpu_c);
    liquid_w += z.liquid_w;
    air_w += z.air_w;
    cdu_pump_w += z.last_step.cdu_pump_w;
    rdhx_fan_w += z.last_step.rdhx_fan_w;
    crah_fan_w += z.last_step.crah_fan_w;
  }
  max_gpu_c_ = std::max(max_gpu_c_, max_c);
  network_j_ += c.network_power_w * dt;
  plant_ = thermal::plant_state(c.plant, liquid_w + air_w, c.outdoor.temperature_c(now), supply_offset_k_);
  chiller_j_ += plant_.chiller_power_w * dt;
  dry_cooler_j_ += plant_.dry_cooler_power_w * dt;
  facility_pump_j_ += plant_.pump_power_w * dt;
  const double distribution_w = distribution_loss_w(ups_, c.pdu_efficiency, it_w);
  distribution_j_ += distribution_w * dt;
  if (plant_.economiser) economiser_s_ += dt;
  it_w_ = it_w;
  cooling_w_ = cdu_pump_w + rdhx_fan_w + crah_fan_w + plant_.chiller_power_w + plant_.dry_cooler_power_w +
               plant_.pump_power_w;
  distribution_w_ = distribution_w;
  check_shortfall(dt, max_c);  // cooling_shortfall.cpp
  if (signals_ != nullptr && signals_->facility_step.connected()) {
    signals_->facility_step.emit(seams::FacilityStep{from, now, it_step_j, facility_energy_j() - facility_before_j,
                                                     std::isfinite(max_c) ? max_c : 0.0});
  }
}

void FacilitySimulation::update_cdu_limit(Zone& z) const {
  const double rated_flow = z.secondary_flow_kg_per_s_per_rack * z.racks;
  const int working = std::max(0, z.cdus - z.cdus_failed);
  z.cdu_flow_limit = rated_flow > 0.0 ? working * config_.cdu_rated_flow_kg_per_s / rated_flow : 0.0;
}

double FacilitySimulation::plate_conductance(const Zone& z) const {
  // Dittus-Boelter: the plate-to-coolant (or sink-to-air) conductance scales with flow^0.8.
  if (config_.mode == FacilityConfig::Mode::kD2c) {
    return std::pow(std::max(z.flow() * z.plate_flow_scale, 0.0), 0.8) /
           config_.rc.plate_to_coolant_k_per_w;
  }
  return std::pow(z.speed, 0.8) / config_.rc.sink_to_air_k_per_w;
}

void FacilitySimulation::on_tick() {
  advance();
  update_throttling();
  // Temperatures (and air zones' fans) moved the racks' power: the capping policy looks again.
  for (std::size_t r = 0; r < rack_power_w_.size(); ++r) cap_rack(r);
  control_and_record();
}

void FacilitySimulation::control_and_record() {
  if (!stepped_) start_state();
  const auto& c = config_;
  const std::size_t per = static_cast<std::size_t>(c.node.gpus);
  const double dt_s = c.tick.seconds();
  for (auto& z : zones_) {
    double zone_w = 0.0;
    for (std::size_t n : z.nodes) zone_w += nodes_[n].ac_w;
    std::vector<double> full(per, c.node.gpu.max_power_w);
    const double rated_w = power::node_power(c.node, full.data(), 1.0, 1.0).ac_w * static_cast<double>(z.nodes.size());
    const double speed = z.control->speed({z.max_gpu_c, z.target_gpu_c, zone_w / rated_w, dt_s});
    if (speed != z.speed) {
      z.speed = speed;
      if (c.mode == FacilityConfig::Mode::kAir) {
        for (std::size_t n : z.nodes) {
          recompute_node(n);
          if (clock_) clock_->refresh_node_power(static_cast<int>(n));
        }
      }
    }
  }
  record();
  const sim::Time next = sim_.now() + c.tick;
  const bool bounded = !duration_.is_max();
  next_tick_ = sim::Time::max();
  if ((bounded && next <= duration_) || (!bounded && clock_ && clock_->has_work_left())) {
    next_tick_ = next;
    sim_.at(next, [this] { on_tick(); }, sim::Priority::kRateChange);
  }
  schedule_threshold_check();
}

void FacilitySimulation::record() {
  const sim::Time now = sim_.now();
  const double total_w = it_w_ + distribution_w_ + cooling_w_;
  sink_.append(series_[kItW], now, it_w_);
  sink_.append(series_[kTotalW], now, total_w);
  sink_.append(series_[kCoolingW], now, cooling_w_);
  sink_.append(series_[kPue], now, it_w_ > 0 ? total_w / it_w_ : 0.0);
  sink_.append(series_[kOutdoorC], now, config_.outdoor.temperature_c(now));
  sink_.append(series_[kSupplyC], now, plant_.supply_c);
  sink_.append(series_[kChillerW], now, plant_.chiller_power_w);
  double hottest = -1e9, clock_sum = 0.0;
  int busy = 0;
  for (const auto& z : zones_) hottest = std::max(hottest, z.max_gpu_c);
  for (const auto& n : nodes_) {
    if (n.utilization > 0.0) { clock_sum += n.clock; ++busy; }
  }
  sink_.append(series_[kMaxGpuC], now, zones_.empty() ? 0.0 : hottest);
  sink_.append(series_[kBusyClock], now, busy ? clock_sum / busy : 1.0);
  for (const auto& z : zones_) {
    const double v[6] = {z.max_gpu_c, z.loop_c, z.air_c, z.speed, z.liquid_w, z.air_w};
    for (std::size_t k = 0; k < 6; ++k) sink_.append(z.series[k], now, std::isfinite(v[k]) ? v[k] : 0.0);
  }
}

double FacilitySimulation::stored_energy_j() const {
  const double t0 = config_.plant.supply_c;
  double e = 0.0;
  for (const auto& g : gpus_) {
    e += gpus_per_path_ *
         (config_.rc.die_capacity_j_per_k * (g.die_c - t0) + config_.rc.plate_capacity_j_per_k * (g.plate_c - t0));
  }
  for (const auto& z : zones_) {
    e += config_.loop_capacity_j_per_k_per_rack * z.racks * (z.loop_c - t0) +
         config_.air_capacity_j_per_k_per_rack * z.racks * (z.air_c - t0);
  }
  return e - stored0_j_;
}

double FacilitySimulation::facility_energy_j() const {
  return it_j_ + distribution_j_ + cdu_pump_j_ + rdhx_fan_j_ + crah_fan_j_ + chiller_j_ + dry_cooler_j_ +
         facility_pump_j_;
}

void FacilitySimulation::finish() {
  if (finished_) throw sim::InternalError("FacilitySimulation::finish called twice (this is a bug)");
  finished_ = true;
  sim_.cancel(threshold_event_);
  advance();
  auto put = [this](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink_.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  const double total = facility_energy_j();
  put("facility/pue", it_j_ > 0 ? total / it_j_ : 0.0, "", "facility energy / IT energy (energy-weighted PUE)");
  put("facility/it_energy_kwh", it_j_ / kJoulesPerKwh, "kWh", "IT energy: node AC + network switches");
  put("facility/total_energy_kwh", total / kJoulesPerKwh, "kWh", "IT + distribution losses + cooling");
  put("facility/energy/distribution_kwh", distribution_j_ / kJoulesPerKwh, "kWh", "UPS and PDU losses");
  put("facility/energy/cdu_pumps_kwh", cdu_pump_j_ / kJoulesPerKwh, "kWh", "CDU secondary pumps");
  put("facility/energy/rdhx_fans_kwh", rdhx_fan_j_ / kJoulesPerKwh, "kWh", "rear-door fans");
  put("facility/energy/crah_fans_kwh", crah_fan_j_ / kJoulesPerKwh, "kWh", "room air handler fans");
  put("facility/energy/chiller_kwh", chiller_j_ / kJoulesPerKwh, "kWh", "chiller compressors");
  put("facility/energy/dry_cooler_kwh", dry_cooler_j_ / kJoulesPerKwh, "kWh", "dry cooler fans");
  put("facility/energy/facility_pumps_kwh", facility_pump_j_ / kJoulesPerKwh, "kWh", "facility water pumps");
  put("facility/energy/network_kwh", network_j_ / kJoulesPerKwh, "kWh", "network switches (part of the IT energy)");
  put("facility/network_switches", static_cast<double>(config_.network_switches), "",
      "switches counted in the IT power (fabric section or /facility/network)");
  put("facility/economiser_hours", economiser_s_ / 3600.0, "h", "hours with the chiller off (free cooling)");
  put("power/peak_node_w", peak_node_w_, "W", "highest node AC power");
  put("facility/peak_rack_w", peak_rack_w_, "W",
      "highest rack power: its nodes plus its share of the network switches (vs the rack limit)");
  put("power/capped_gpu_s", capped_gpu_s_, "s", "GPU-seconds with the clock lowered by the power limit");
  put_shortfall_summary();
  put("thermal/max_gpu_c", max_gpu_c_, "C", "hottest GPU die over the run");
  put("thermal/throttled_gpu_s", throttled_gpu_s_, "s", "GPU-seconds thermally slowed or shut down");
  const double balance = liquid_j_ + air_j_ + stored_energy_j();
  put("thermal/energy_balance_error", it_j_ > 0 ? std::abs(balance - it_j_) / it_j_ : 0.0, "",
      "|liquid + air + stored - IT| / IT energy");
  put("thermal/liquid_fraction", it_j_ > 0 ? liquid_j_ / it_j_ : 0.0, "", "share of IT heat removed by liquid");
  for (const auto& z : zones_) {
    put("thermal/zone/" + z.name + "/final_coolant_c", z.loop_c, "C", "coolant loop at the end of the run");
    put("thermal/zone/" + z.name + "/cdus", z.cdus, "", "CDUs serving the zone (set, or sized: rated flow plus spares)");
    put("thermal/zone/" + z.name + "/max_gpu_c", std::isfinite(z.run_max_gpu_c) ? z.run_max_gpu_c : z.max_gpu_c,
        "C", "hottest GPU die in the zone over the run");
  }
}

}  // namespace dcsim::models::facility
