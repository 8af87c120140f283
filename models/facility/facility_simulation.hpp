#pragma once
// The facility: node power (bottom-up, power-capped), per-GPU thermal state, D2C/air zones with
// their CDU loop, rear doors and room air, the facility water plant, throttling fed back into the
// cluster's jobs, cooling control, plant faults, PUE and energy by component class.
//
// Coupling (models/seams/): the facility is the cluster's NodePowerSource, so there is one IT
// power per run. It learns utilisation changes from the cluster and slows nodes through the
// NodeClock seam (power cap, thermal slowdown, shutdown); it never sees the cluster's class. A registered
// power-capping policy (power_capping.hpp, facility_power_cap.cpp) may lower the GPU power limits
// of a rack that would cross its limit; the default only logs crossings.
//
// Time: the continuous state (temperatures, energies) is advanced by backward Euler at every
// power change (in the changed node's zone) and at every tick (config.tick), with the powers and
// plant settings held over the
// step (they are piecewise constant); control and plant decisions happen at ticks. Throttling
// decisions also happen between ticks, when a die reaches a threshold (threshold crossings below).
//
// Zone heat balance per step (zone_heat_balance.cpp; rc_path.hpp for the GPU path), D2C zone,
// capture c:
//   GPU die g:        heat c P_g
//   coolant loop:     C_l dT_l/dt = sum_g G_ps (T_p,g - T_l) + c (P_node - sum P_g) - G_x (T_l - T_fw)
//                     G_x = eps * cp * min(m_secondary, m_facility)       (CDU effectiveness)
//                     m_secondary = min(pump speed x rated, working CDUs x cdu_rated_flow)
//                     G_ps = G_ps,rated * (m / m_rated)^0.8               (Dittus-Boelter)
//   rack exhaust:     R = (1 - c) P_node (+ the zone's network switches)
//   rear doors:       Q_d = min(cap_d, eps_d R)                    (in series: first on the exhaust)
//   room air:         C_a dT_a/dt = R - Q_d - min(G_crah (T_a - T_fw), cap_crah)   (air_side.hpp)
// In an air zone the GPU heat sinks feed the room air instead (G_ps ~ fan speed^0.8) and c = 0.
// Energy is conserved exactly by construction (every flux is evaluated at the end of the step):
//   IT energy = liquid removed (CDU) + air removed (doors, air handlers) + change of stored heat.
// The plant is sized with the cluster: facility water per rack, the chiller (unless set) for the
// cluster's full-load heat, the air handlers (unless set) for each zone's full-load air heat.
//
// Threshold crossings: after every state change each running GPU's die is extrapolated linearly
// along its current heating rate, the larger of the die's and the cold plate's (the plate drives
// the die once the die's ~1 s time constant has passed; right after a flow loss only the plate
// rate is up), to the next threshold (max operating 87 C, slowdown 89 C, shutdown 92 C); when
// that comes before the next tick an extra step is scheduled there and the throttling decision
// made on the state reached. On a concave (saturating) rise the linear estimate is early, so the
// checks close in on the crossing from below and a die crosses a threshold by at most its rate x
// kMinSubstepS; a convex rise (the coolant loop heating up behind the plate) can overshoot by
// half its curvature x step^2. Tested: the die stays within 0.5 C of shutdown with a 10 s tick.
// Each zone keeps its nodes' earliest crossings in a MinTree (min_tree.hpp): its step re-derives
// its nodes once; a node's power change between steps (a job starting on 2,048 nodes at one
// instant is 2,048 of them) re-derives that node alone; the site's earliest is the zones'.
//
// Zones step on their own clocks: a node's power change steps its zone alone (its powers were
// constant since its last step, so one step integrates them as a site-wide one would), and
// every zone steps at ticks, threshold steps and faults. The plant, which couples the zones
// through the facility water, takes the zones' latest heat at every step of any zone; the
// site's plant and distribution energies integrate on the facility's own clock, and each
// facility_step signal carries the energy of the zones stepped in it (a zone that lagged puts
// its whole step there: attribution in time is to within a tick, totals are exact). A zone's
// temperatures may so be up to a tick older than another's between ticks. With one zone this is
// exactly the site-wide stepping it replaces (the shipped single-zone scenarios' events are
// unchanged).
//
// Cost per call (N nodes, G GPUs per node, R nodes per rack, Z zones, N_z nodes in the zone):
//   on_node_utilization   O(N_z G + R + Z) at the first change of an instant in its zone (one
//                         zone step), O(G + R + log N_z + Z) for a further change at that instant.
//   a tick                every zone's step and crossings, update_throttling (O(N) for cool
//                         zones, O(N P) for hot ones), the racks' capping O(N), the record
//                         O(N + Z): O(N P), the work of a tick at this resolution, with P the
//                         thermal paths per node (G, or 1 at FacilityConfig::thermal_resolution
//                         kNode).
//   node_power_w, gpu_temperature_c, rack_power_headroom_w: O(1), O(G), O(1).
//
// IT power is the nodes' AC power plus the network switches' (a constant load, switch_power.hpp);
// the cluster's own power series count the nodes only.
//
// Emits: series facility/*, thermal/*, thermal/zone/<z>/* (the cluster's power/* series carry
// the facility's node power); table facility
// (events: faults, throttling, rack limit and the capping policy's limits, power spikes); summary facility/*,
// power/peak_node_w, power/capped_gpu_s, thermal/max_gpu_c, thermal/throttled_gpu_s, thermal/energy_balance_error,
// thermal/zone/<z>/*, facility/cooling_shortfall_s and, when cooling fell short,
// facility/cooling_warning (tools/output/LAYOUT.md lists them all).
//
// Cooling shortfall (cooling_shortfall.cpp): the cooling could not remove the heat when a GPU die
// is above its max operating temperature, a zone's room air above ASHRAE's allowable 32 C, or the
// chiller short of capacity. Each shortfall is a facility event and a summary warning with the
// figures that explain it (and the CDUs or pump flow a zone has lost); config.shortfall_is_error
// makes it an error that ends the run. A hot-die shortfall ends when the hottest die is 1 K below
// max operating, so dies that throttling holds at the limit make one episode, not a flicker.

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/facility/cooling_control.hpp"
#include "models/facility/facility_config.hpp"
#include "models/facility/min_tree.hpp"
#include "models/facility/power_capping.hpp"
#include "models/facility/power_delivery.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/node_clock.hpp"
#include "models/seams/node_conditions.hpp"
#include "models/seams/node_power_source.hpp"
#include "models/seams/zone_cooling_target.hpp"
#include "sim/error.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::facility {

// A cooling shortfall when the config makes it an error (FacilityConfig::shortfall_is_error);
// field "shortfall_is_error".
class CoolingShortfallError : public sim::ConfigError {
 public:
  explicit CoolingShortfallError(const std::string& message);
};

// The registries the facility uses: its cooling controls and power-capping policies by name.
struct FacilityRegistries {
  const sim::Registry<CoolingControlFactory>& cooling_controls;
  const sim::Registry<PowerCappingFactory>& power_capping;
};

class FacilitySimulation final : public seams::NodePowerSource,
                                 public seams::NodeConditions,
                                 public seams::ZoneCoolingTarget {
 public:
  // Validates (ConfigError fields name the member: "shutdown_c", "rack_limit_w", ...).
  FacilitySimulation(FacilityConfig config, int nodes, int nodes_per_rack, std::uint64_t seed,
                     const FacilityRegistries& registries, sim::Simulator& sim, sim::TraceSink& sink);
  ~FacilitySimulation() override;
  FacilitySimulation(const FacilitySimulation&) = delete;
  FacilitySimulation& operator=(const FacilitySimulation&) = delete;

  // Announces every step's energies there (datacenter_signals.hpp); call before start(). Not owned.
  void set_signals(const seams::DatacenterSignals* signals) { signals_ = signals; }
  // The nodes' clocks it slows (power cap, throttling, shutdown) and tells of power changes, and
  // the run's end: `duration` bounds the ticks (max: while the clocks' owner has work left).
  // Being the cluster's power source and placement conditions is wired by the assembly.
  void attach(seams::NodeClock& clock, sim::Time duration);
  void start();
  void finish();

  void on_node_utilization(int node, double utilization) override;
  double node_power_w(int node) const override;

  // A random zone_cooling_loss fault (models/reliability) begins or is repaired: the zone's CDU
  // and air path remove no heat while any such fault, scripted or random, is in progress.
  void set_zone_cooling_lost(int zone, bool lost, const std::string& cause) override;

  // What placement policies see (node_conditions.hpp): temperatures as of their zone's last
  // step (at most one tick old: a zone steps at every tick and when one of its nodes changes).
  int zone_of_node(int node) const override;
  double gpu_temperature_c(int node) const override;
  double rack_power_headroom_w(int rack) const override;

  // Inspection (tests, bench).
  double max_gpu_c() const { return max_gpu_c_; }
  double gpu_die_c(int gpu) const;
  double it_energy_j() const { return it_j_; }
  double facility_energy_j() const;
  double liquid_energy_j() const { return liquid_j_; }
  double air_energy_j() const { return air_j_; }
  double stored_energy_j() const;   // relative to the start
  double throttled_gpu_s() const { return throttled_gpu_s_; }
  // The power limit of the node's GPUs now (the configured one unless a capping policy lowered it).
  double gpu_power_limit_w(int node) const;
  double rack_power_w(int rack) const { return rack_power_w_[static_cast<std::size_t>(rack)]; }
  double zone_coolant_c(int zone) const;
  int zones() const override;
  // Seconds from the last step to the earliest GPU threshold crossing (MinTree::kNone: none),
  // from the per-node index brought up to date for what changed since the last call; the same by
  // a scan of every GPU (O(GPUs)), the reference the index must equal bit for bit (tests); and
  // the GPUs the index has evaluated so far.
  double soonest_crossing_s();
  double soonest_crossing_by_scan_s() const;
  std::size_t crossing_gpu_evaluations() const { return crossing_gpu_evaluations_; }
  std::size_t crossing_zone_skips() const { return crossing_zone_skips_; }
  // Seconds from now to the next tick (or the end): crossings at or after it are the tick's.
  double crossing_horizon_s() const;

 private:
  struct Gpu;
  struct Node;
  struct Zone;
  struct ZoneStep {  // one zone's powers over a step
    double it_w = 0.0, cdu_pump_w = 0.0, rdhx_fan_w = 0.0, crah_fan_w = 0.0;
  };
  // Steps every zone to now (advance) or one (advance_zone), then the plant and the site's
  // energies over the time since the last call.
  void advance();
  void advance_zone(std::size_t zone);
  void advance_zones(Zone* only);
  double zone_it_now_w(Zone& zone);
  ZoneStep step_zone(Zone& zone, double dt_s, double water_c);
  // The zone's pumps and fans at its flow and the heat its doors and air handlers now remove.
  void zone_cooling_power(const Zone& zone, ZoneStep& out) const;
  // Before the first step (t = 0) the "last step" values are the state as built and loaded now:
  // node power, dies and loops at the supply temperature, no heat moved yet, the plant idle.
  // So the first sample of every series is a real value, not zero (zone_heat_balance.cpp).
  void start_state();
  void check_shortfall(double dt_s, double max_gpu_c);
  void put_shortfall_summary();
  void on_tick();
  void update_throttling();
  void control_and_record();
  void schedule_threshold_check();
  // Threshold crossings (gpu_throttling.cpp): what a die's heating rate depends on beyond its own
  // state and power, per zone (plate conductance, heat share to the plate, sink temperature).
  struct CrossingSink {
    double g_ps = 0.0, share = 0.0, sink_c = 0.0;
    bool operator==(const CrossingSink&) const = default;
  };
  CrossingSink crossing_sink(const Zone& zone) const;
  // Seconds from the state's time to the node's earliest crossing (MinTree::kNone: none).
  double node_crossing_s(std::size_t n, const CrossingSink& sink) const;
  void mark_crossing_stale(std::size_t n);
  bool cannot_cross_before_tick(const Zone& zone, const CrossingSink& sink) const;
  sim::Time tick_horizon() const;  // the next tick, or the end: crossings from then are the tick's
  double plate_conductance(const Zone& zone) const;
  void update_cdu_limit(Zone& zone) const;
  void recompute_node(std::size_t n);
  // The node's AC power were its GPUs at `cap_factor` (and their thermal state): per-GPU power
  // into gpu_w (size gpus) and the node's clock into *clock.
  double node_ac_w_at(std::size_t n, double cap_factor, double* gpu_w, double* clock) const;
  // Power capping (facility_power_cap.cpp): the node's cap factor from its power limit; the
  // rack's power at a common GPU limit; the policy's limit applied to a rack that would cross
  // its limit or has a lowered one (true: it recomputed every node of the rack). `changed`: a
  // node of the rack whose utilisation changed since it was last computed (npos: none).
  void update_cap_factor(std::size_t n);
  double rack_power_at_limit_w(std::size_t rack, double gpu_limit_w);
  bool cap_rack(std::size_t rack, std::size_t changed = static_cast<std::size_t>(-1));
  void apply_node_clock(std::size_t n);
  void check_rack(std::size_t rack);
  void apply_fault(std::size_t index, bool begin);
  void log_event(const std::string& kind, int zone, int rack, int node, double value,
                 const std::string& detail);
  void record();

  FacilityConfig config_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  seams::NodeClock* clock_ = nullptr;
  sim::Time duration_ = sim::Time::max();
  int nodes_per_rack_ = 1;

  // One thermal path per GPU, or per node (FacilityConfig::thermal_resolution): a node's paths
  // are gpus_[n * paths_per_node_, (n + 1) * paths_per_node_), each standing for gpus_per_path_
  // GPUs (1 or the node's GPUs); path(n, g) is the one GPU g of node n is on.
  std::vector<Gpu> gpus_;
  std::size_t paths_per_node_ = 1;
  double gpus_per_path_ = 1.0;
  std::size_t path_index(std::size_t n, std::size_t g) const {
    return n * paths_per_node_ + (paths_per_node_ == 1 ? 0 : g);
  }
  std::vector<Node> nodes_;
  std::vector<Zone> zones_;
  std::vector<double> rack_power_w_;
  std::unique_ptr<PowerCappingPolicy> capping_;
  std::vector<double> rack_gpu_limit_w_;  // the limit the policy last set per rack
  std::vector<char> rack_cap_short_;      // the policy's limit left the rack over (logged once)
  std::vector<double> cap_gpu_w_;         // per GPU of one node: the capping evaluations' scratch
  double* scratch_gpu_w() { return cap_gpu_w_.data(); }
  std::vector<bool> rack_over_limit_;
  std::vector<std::deque<std::pair<sim::Time, double>>> rack_history_;
  std::vector<sim::Time> rack_last_spike_;
  double supply_offset_k_ = 0.0;
  thermal::PlantState plant_;
  UpsLossCurve ups_;  // sized in the constructor
  sim::Time last_;
  sim::Time next_tick_ = sim::Time::max();
  sim::EventHandle threshold_event_;
  // Nodes whose power changed since the last check (each zone keeps its nodes' crossings, and
  // re-derives them all after a step of its own).
  std::vector<char> crossing_stale_;
  std::uint64_t advance_calls_ = 0;
  std::vector<std::size_t> stale_nodes_;
  std::size_t crossing_gpu_evaluations_ = 0;
  std::size_t crossing_zone_skips_ = 0;  // zones whose derivation cannot_cross_before_tick saved

  // Energies (J) and counters.
  double it_j_ = 0.0, network_j_ = 0.0, liquid_j_ = 0.0, air_j_ = 0.0, stored0_j_ = 0.0;
  double cdu_pump_j_ = 0.0, rdhx_fan_j_ = 0.0, crah_fan_j_ = 0.0, chiller_j_ = 0.0,
         dry_cooler_j_ = 0.0, facility_pump_j_ = 0.0, distribution_j_ = 0.0;
  double economiser_s_ = 0.0, throttled_gpu_s_ = 0.0, capped_gpu_s_ = 0.0;
  double max_gpu_c_ = 0.0, peak_node_w_ = 0.0, peak_rack_w_ = 0.0, peak_pue_ = 0.0;
  double it_w_ = 0.0, cooling_w_ = 0.0, distribution_w_ = 0.0;  // over the last step
  // Cooling shortfalls (cooling_shortfall.cpp): time short, when first, why, the worst seen.
  bool short_now_ = false;
  bool gpu_short_ = false;  // the hottest die counted as a shortfall (with hysteresis)
  double shortfall_s_ = 0.0, first_shortfall_s_ = -1.0, worst_loop_c_ = 0.0, worst_air_c_ = 0.0,
         worst_unmet_w_ = 0.0;
  std::string shortfall_causes_;
  // A cause other than the control's lag behind a load step was seen: the plant or a fault.
  bool shortfall_beyond_control_ = false;
  std::vector<double> node_gpu_w_;  // per GPU of one node: recompute_node's power by GPU
  std::vector<double> scratch_;  // per GPU: the affine coefficients of the current step
  std::vector<char> cool_zones_;  // per zone: update_throttling's scratch

  sim::TableId events_ = 0;
  std::vector<sim::SeriesId> series_;
  bool started_ = false;
  bool stepped_ = false;  // advance() has integrated a step of positive length
  const seams::DatacenterSignals* signals_ = nullptr;
  bool finished_ = false;
};

}  // namespace dcsim::models::facility
