#include "models/reliability/fault_effects.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace dcsim::models::reliability {

FaultEffects::FaultEffects(FaultModelConfig config, std::uint64_t seed, sim::Time horizon, FaultTargets targets,
                           const seams::DatacenterSignals& signals, sim::Simulator& simulator, sim::TraceSink& sink)
    : targets_(std::move(targets)), horizon_(horizon), signals_(signals), simulator_(simulator), sink_(sink) {
  table_ = sink.declare_table(
      "faults", {{"time_s", sim::ColumnType::kFloat64, "s", "simulated time of the fault"},
                 {"class", sim::ColumnType::kString, "", "fault class (/reliability/classes, or the preset's)"},
                 {"component", sim::ColumnType::kString, "", "component path, e.g. node/12/gpu/3, fabric/link/881"},
                 {"node", sim::ColumnType::kInt64, "", "node the component belongs to (-1: link, switch, zone)"},
                 {"repair_s", sim::ColumnType::kFloat64, "s", "time until it is back in service"},
                 {"effect", sim::ColumnType::kString, "", "node_down, job_crash, nic_down, link_down, ..."}});
  nic_bonding_ = config.nic_bonding;
  for (const FaultClass& c : config.classes) {
    recovery_.push_back(recovery_stages(config, c));
    recovery_rng_.emplace_back(seed, "recovery/" + c.name);
  }
  nics_per_node_ = std::max(1, config.inventory.nics_per_node);
  osds_per_host_ = std::max(1, config.inventory.osds_per_host);
  const auto on_fault = [this](const Fault& f) {
    const auto& c = faults_->fault_class(f);
    sink_.append_row(table_, {f.at.seconds(), c.name, faults_->path(f), static_cast<std::int64_t>(f.node),
                              (f.repair_done - f.at).seconds(), std::string(effect_name(c.effect))});
    act(f, false);
  };
  const auto on_repair = [this](const Fault& f) { act(f, true); };
  faults_ = std::make_unique<FaultProcess>(std::move(config), seed, simulator, on_fault, on_repair, horizon);
  if (const auto wanted = targets_.nodes != nullptr ? targets_.nodes->wanted_precursor() : std::nullopt) {
    try {
      precursor_ = std::make_unique<FaultPrecursor>(
          *wanted, *faults_, seed, simulator,
          [this](const Alarm& a) { targets_.nodes->warn_node(a.node, a.cause, a.drain_until, a.false_alarm); },
          horizon);
    } catch (const sim::ConfigError& e) {
      // The predictor's settings are the failover policy's parameters.
      throw PrecursorConfigError("failover_params." + e.field(), e.detail());
    }
  }
}

void FaultEffects::start() {
  faults_->start();
  if (precursor_) precursor_->start();
}

seams::RecoveryDelay FaultEffects::draw_recovery(const Fault& f) {
  const RecoveryStages& stages = recovery_[f.class_index];
  sim::RandomStream& rng = recovery_rng_[f.class_index];
  const double detection_s = std::max(0.0, stages.detection_s.sample(rng));
  const double diagnosis_s = std::max(0.0, stages.diagnosis_s.sample(rng));
  return {sim::Time::from_seconds(detection_s), sim::Time::from_seconds(diagnosis_s)};
}

void FaultEffects::act(const Fault& f, bool up) {
  const FaultClass& c = faults_->fault_class(f);
  signals_.fault.emit(seams::FaultNotice{simulator_.now(), c.name, f.node, up});
  seams::NodeFaultTarget* nodes = targets_.nodes;
  const bool node_ok = nodes != nullptr && f.node >= 0 && f.node < nodes->node_count();
  switch (c.effect) {
    case FaultEffect::kNicDown:
      if (node_ok) act_on_nic(f, c.name, up);
      break;
    case FaultEffect::kNodeDown:
      if (node_ok) {
        if (up) {
          nodes->set_node_up(f.node);
        } else {
          nodes->set_node_down(f.node, c.name, draw_recovery(f));
        }
      }
      break;
    case FaultEffect::kJobCrash:
      if (node_ok && !up) nodes->crash_jobs_on_node(f.node, c.name, draw_recovery(f));
      break;
    case FaultEffect::kSilentCorruption:
      // The repair time is the quarantine once it is caught; the cluster keeps that clock.
      if (node_ok && !up) nodes->corrupt_jobs_on_node(f.node, c.name, f.repair_done - f.at);
      break;
    case FaultEffect::kLinkDown:
    case FaultEffect::kSwitchDown:
      if (targets_.fabric == nullptr) {
        if (nodes != nullptr && nodes->node_count() > 0 && !up) {
          nodes->crash_jobs_on_node(static_cast<int>(f.instance % static_cast<std::size_t>(nodes->node_count())),
                                    c.name, draw_recovery(f));
        }
      } else if (c.effect == FaultEffect::kLinkDown) {
        const std::size_t cables = targets_.fabric->cable_count();
        if (cables > 0) targets_.fabric->set_cable_state(f.instance % cables, up);
      } else {
        const std::size_t switches = targets_.fabric->switch_count();
        if (switches > 0) targets_.fabric->set_switch_state(f.instance % switches, up);
      }
      break;
    case FaultEffect::kOsdHostDown:
      signals_.store_host_fault.emit(
          seams::StoreHostChange{simulator_.now(), static_cast<int>(f.instance), up, c.name, -1});
      break;
    case FaultEffect::kOsdDown:
      signals_.store_host_fault.emit(seams::StoreHostChange{simulator_.now(),
                                                            static_cast<int>(f.instance) / osds_per_host_, up, c.name,
                                                            static_cast<int>(f.instance) % osds_per_host_});
      break;
    case FaultEffect::kZoneCoolingLoss:
      if (targets_.zones != nullptr && targets_.zones->zones() > 0) {
        const auto zones = static_cast<std::size_t>(targets_.zones->zones());
        targets_.zones->set_zone_cooling_lost(static_cast<int>(f.instance % zones), !up, c.name);
      }
      break;
  }
}

void FaultEffects::act_on_nic(const Fault& f, const std::string& cause, bool up) {
  // NIC k of node n is port k of fabric host n (node i is host i), when the host has that port.
  const int nic = static_cast<int>(f.instance % static_cast<std::size_t>(nics_per_node_));
  if (targets_.fabric != nullptr && nic < targets_.fabric->host_ports(f.node)) {
    targets_.fabric->set_host_port_state(f.node, nic, up);
  }
  if (!nic_bonding_) {
    // A rail lost: the node's collectives stop until the NIC is back.
    if (up) {
      targets_.nodes->set_node_up(f.node);
    } else {
      targets_.nodes->set_node_down(f.node, cause, draw_recovery(f));
    }
    return;
  }
  // Bonded: the node is down only while every one of its NICs is.
  int& down = nics_down_[f.node];
  if (up) {
    if (down == nics_per_node_) targets_.nodes->set_node_up(f.node);
    if (--down == 0) nics_down_.erase(f.node);
  } else if (++down == nics_per_node_) {
    targets_.nodes->set_node_down(f.node, cause + " (every NIC of the bond)", draw_recovery(f));
  }
}

void FaultEffects::finish() {
  const auto& config = faults_->config();
  sink_.set_summary("reliability/faults_total",
                    {static_cast<std::int64_t>(faults_->faults_total()), "", "random faults in the run (all classes)"});
  double expected = 0;
  for (std::size_t c = 0; c < config.classes.size(); ++c) {
    sink_.set_summary("reliability/faults/" + config.classes[c].name,
                      {static_cast<std::int64_t>(faults_->faults(c)), "", "random faults of this class"});
    expected += faults_->nominal_rate_per_hour(c);
  }
  const sim::Time until = horizon_.is_max() ? sim::Time::zero() : horizon_;
  sink_.set_summary("reliability/expected_faults",
                    {expected * until.seconds() / 3600.0, "",
                     "rate x instances x /duration summed over classes (ignores instances under repair)"});
}

}  // namespace dcsim::models::reliability
