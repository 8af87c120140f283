// One zone's heat balance over one step (the equations are in facility_simulation.hpp): GPU
// paths as affine functions of their sink, the CDU coolant loop, then the air side (rear doors in
// series with the rack exhaust, air handlers on the remainder: thermal/air_side.hpp), then each
// GPU resolved against its sink.

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/facility/facility_simulation.hpp"
#include "models/facility/facility_state.hpp"
#include "models/facility/power_delivery.hpp"
#include "models/thermal/air_side.hpp"
#include "models/thermal/rc_path.hpp"

namespace dcsim::models::facility {

namespace {
constexpr double kWaterCpJPerKgK = 4180.0;
}  // namespace

FacilitySimulation::ZoneStep FacilitySimulation::step_zone(Zone& z, double dt, double t_fw) {
  const auto& c = config_;
  const bool d2c = c.mode == FacilityConfig::Mode::kD2c;
  const std::size_t per = static_cast<std::size_t>(c.node.gpus);
  const std::size_t paths = paths_per_node_;
  const double mult = gpus_per_path_;  // GPUs per path: sums below count each GPU (x 1.0 is exact)
  const int total_racks = static_cast<int>(rack_power_w_.size());
  const double c_die = c.rc.die_capacity_j_per_k, c_plate = c.rc.plate_capacity_j_per_k;
  ZoneStep out;
  const double flow = z.flow();  // fraction of rated secondary flow (pumps, CDUs in service)
  const double capture = d2c ? z.capture : 0.0;
  const double m_sec = flow * z.secondary_flow_kg_per_s_per_rack * z.racks;
  // The CDU passes heat to the zone's share of the facility water (sized per rack).
  const double m_fw = c.plant.water_flow_kg_per_s * z.racks / std::max(1, total_racks);
  const double g_x = z.cooling_lost() ? 0.0 : c.cdu_effectiveness * kWaterCpJPerKgK * std::min(m_sec, m_fw);
  const double g_ps = plate_conductance(z);
  // Pass 1: each GPU's path as an affine function of its sink temperature.
  // The zone's share of the network switches: IT power whose heat goes into the racks' exhaust.
  const double zone_network_w = c.network_power_w * z.racks / std::max(1, total_racks);
  double s0 = 0.0, s1 = 0.0, direct_liquid_w = 0.0, direct_air_w = zone_network_w;
  out.it_w = zone_network_w;
  for (std::size_t n : z.nodes) {
    const auto& node = nodes_[n];
    out.it_w += node.ac_w;
    direct_liquid_w += capture * (node.ac_w - node.gpu_w);
    direct_air_w += d2c ? (1.0 - capture) * node.ac_w : node.ac_w - node.gpu_w;
    for (std::size_t g = n * paths; g < (n + 1) * paths; ++g) {
      auto& gpu = gpus_[g];
      const double q = (d2c ? capture : 1.0) * gpu.power_w;
      const auto a = thermal::rc_backward_euler(gpu.die_c, gpu.plate_c, q, gpu.g_die_plate, g_ps, c_die, c_plate, dt);
      gpu.die_c = a.die0;
      gpu.plate_c = a.plate0;
      scratch_[2 * g] = a.die1;
      scratch_[2 * g + 1] = a.plate1;
      s0 += mult * (g_ps * a.plate0);
      s1 += mult * (g_ps * (a.plate1 - 1.0));
    }
  }
  // Coolant loop (D2C): C_l (T' - T)/dt = s0 + s1 T' + direct - G_x (T' - T_fw).
  const double c_loop = c.loop_capacity_j_per_k_per_rack * z.racks;
  double sink_loop = z.loop_c;
  if (d2c) sink_loop = (c_loop / dt * z.loop_c + s0 + direct_liquid_w + g_x * t_fw) / (c_loop / dt - s1 + g_x);

  // Air side: the racks' exhaust (in air mode with the GPU heat sinks' flux, affine in T_a).
  const bool doors_full = c.rdhx_active && !z.rdhx_fans_failed;
  thermal::AirSideInput air;
  air.dt_s = dt;
  air.capacity_j_per_k = c.air_capacity_j_per_k_per_rack * z.racks;
  air.air_c = z.air_c;
  air.water_c = t_fw;
  air.exhaust0_w = direct_air_w + (d2c ? 0.0 : s0);
  air.exhaust1_w_per_k = d2c ? 0.0 : s1;
  if (c.rdhx && !z.cooling_lost()) {
    // A passive door keeps its effectiveness; an active door whose fans failed passes only the
    // air the servers push through it, the passive share of its rated airflow (air_side.hpp).
    const double passive_share = !c.rdhx_active ? 1.0
                                 : z.rdhx_capacity_w > 0.0 ? c.rdhx_passive_capacity_w / z.rdhx_capacity_w
                                                           : 0.0;
    air.door_effectiveness = c.rdhx_effectiveness * (doors_full ? 1.0 : std::min(1.0, passive_share));
    air.door_capacity_w = z.racks * (doors_full ? z.rdhx_capacity_w : c.rdhx_passive_capacity_w);
  }
  air.crah_capacity_w = z.cooling_lost() ? 0.0 : z.crah_capacity_w;
  air.crah_approach_k = c.coil_approach_k;
  const auto a = thermal::solve_air_side(air);
  z.rdhx_w = a.door_w;
  z.crah_w = a.crah_w;
  z.air_c = a.air_c;
  z.loop_c = sink_loop;
  const double sink = d2c ? sink_loop : a.air_c;
  // Pass 2: resolve each GPU against its sink.
  // Locals, not members, in the loop: a store to a GPU may alias a member, so the compiler would
  // store and reload them on every GPU (a quarter of the step's time at 131k GPUs). The sums
  // take the same additions in the same order.
  // The rise bounds take node_crossing_s's terms as it computes them (same operations, so the
  // maxima bound its values exactly), at this step's sink and plate conductance.
  double max_gpu_c = -std::numeric_limits<double>::infinity();
  double throttled_gpu_s = throttled_gpu_s_, capped_gpu_s = capped_gpu_s_;
  const double share = d2c ? capture : 1.0;
  double die_w = -std::numeric_limits<double>::infinity(), plate_w = die_w, plate_sink_k = 0.0;
  for (std::size_t n : z.nodes) {
    for (std::size_t g = n * paths; g < (n + 1) * paths; ++g) {
      auto& gpu = gpus_[g];
      gpu.die_c += scratch_[2 * g] * sink;
      gpu.plate_c += scratch_[2 * g + 1] * sink;
      max_gpu_c = std::max(max_gpu_c, gpu.die_c);
      if (gpu.shutdown || gpu.thermal_factor < 1.0) throttled_gpu_s += mult * dt;
      const double die_plate_w = gpu.die_plate_w();
      die_w = std::max(die_w, share * gpu.power_w - die_plate_w);
      plate_w = std::max(plate_w, die_plate_w - g_ps * (gpu.plate_c - sink));
      plate_sink_k = std::max(plate_sink_k, std::abs(gpu.plate_c - sink));
    }
    if (nodes_[n].cap_factor < 1.0 && nodes_[n].utilization > 0.0) capped_gpu_s += dt * static_cast<double>(per);
  }
  z.max_gpu_c = max_gpu_c;
  z.rise = {die_w, plate_w, plate_sink_k, g_ps, share, sink};
  throttled_gpu_s_ = throttled_gpu_s;
  capped_gpu_s_ = capped_gpu_s;
  z.run_max_gpu_c = std::max(z.run_max_gpu_c, z.max_gpu_c);
  z.liquid_w = d2c ? g_x * (sink_loop - t_fw) : 0.0;
  z.air_w = z.rdhx_w + z.crah_w;
  zone_cooling_power(z, out);
  return out;
}

void FacilitySimulation::zone_cooling_power(const Zone& z, ZoneStep& out) const {
  const auto& c = config_;
  if (c.mode == FacilityConfig::Mode::kD2c) out.cdu_pump_w = c.cdu_pump_power_w_per_rack * z.racks * std::pow(z.flow(), 3.0);
  const bool doors_full = c.rdhx_active && !z.rdhx_fans_failed;
  if (c.rdhx && doors_full && !z.cooling_lost()) {
    out.rdhx_fan_w = thermal::door_fan_power_w(z.rdhx_w, z.racks, z.rdhx_capacity_w, c.rdhx_fan_power_w);
  }
  out.crah_fan_w = c.crah_fan_w_per_w * std::max(0.0, z.crah_w);
}

void FacilitySimulation::start_state() {
  const auto& c = config_;
  const std::size_t paths = paths_per_node_;
  const int total_racks = static_cast<int>(rack_power_w_.size());
  double it_w = 0.0, cooling_w = 0.0;
  for (auto& z : zones_) {
    ZoneStep power;
    zone_cooling_power(z, power);
    it_w += c.network_power_w * z.racks / std::max(1, total_racks);
    z.max_gpu_c = -std::numeric_limits<double>::infinity();
    for (std::size_t n : z.nodes) {
      it_w += nodes_[n].ac_w;
      for (std::size_t g = n * paths; g < (n + 1) * paths; ++g) z.max_gpu_c = std::max(z.max_gpu_c, gpus_[g].die_c);
    }
    cooling_w += power.cdu_pump_w + power.rdhx_fan_w + power.crah_fan_w;
  }
  it_w_ = it_w;
  cooling_w_ = cooling_w + plant_.chiller_power_w + plant_.dry_cooler_power_w + plant_.pump_power_w;
  distribution_w_ = distribution_loss_w(ups_, c.pdu_efficiency, it_w);
}

}  // namespace dcsim::models::facility
