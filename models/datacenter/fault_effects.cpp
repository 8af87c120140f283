#include "models/datacenter/fault_effects.hpp"

#include "models/datacenter/datacenter_config_error.hpp"

#include <algorithm>
#include <string>

namespace dcsim::models::datacenter {

namespace rel = reliability;

FaultEffects::FaultEffects(rel::FaultModelConfig config, std::uint64_t seed, sim::Time horizon, DatacenterParts targets,
                           const seams::DatacenterSignals& signals, sim::Simulator& simulator, sim::TraceSink& sink)
    : targets_(targets), horizon_(horizon), signals_(signals), simulator_(simulator), sink_(sink) {
  table_ = sink.declare_table(
      "faults", {{"time_s", sim::ColumnType::kFloat64, "s", "simulated time of the fault"},
                 {"class", sim::ColumnType::kString, "", "fault class (/reliability/classes, or the preset's)"},
                 {"component", sim::ColumnType::kString, "", "component path, e.g. node/12/gpu/3, fabric/link/881"},
                 {"node", sim::ColumnType::kInt64, "", "node the component belongs to (-1: link, switch, zone)"},
                 {"repair_s", sim::ColumnType::kFloat64, "s", "time until it is back in service"},
                 {"effect", sim::ColumnType::kString, "", "node_down, job_crash, nic_down, link_down, ..."}});
  nic_bonding_ = config.nic_bonding;
  nics_per_node_ = std::max(1, config.inventory.nics_per_node);
  osds_per_host_ = std::max(1, config.inventory.osds_per_host);
  if (targets_.fabric != nullptr && targets_.topology != nullptr) {
    const auto& topology = *targets_.topology;
    for (network::LinkId l = 0; l < topology.link_count(); ++l) {
      if (topology.link(l).reverse > l) cables_.push_back(l);
    }
  }
  const auto on_fault = [this](const rel::Fault& f) {
    const auto& c = faults_->fault_class(f);
    sink_.append_row(table_, {f.at.seconds(), c.name, faults_->path(f), static_cast<std::int64_t>(f.node),
                              (f.repair_done - f.at).seconds(), std::string(rel::effect_name(c.effect))});
    act(f, false);
  };
  const auto on_repair = [this](const rel::Fault& f) { act(f, true); };
  faults_ = std::make_unique<rel::FaultProcess>(std::move(config), seed, simulator, on_fault, on_repair, horizon);
  if (const auto wanted = targets_.nodes != nullptr ? targets_.nodes->wanted_precursor() : std::nullopt) {
    try {
      precursor_ = std::make_unique<rel::FaultPrecursor>(
          *wanted, *faults_, seed, simulator,
          [this](const rel::Alarm& a) { targets_.nodes->warn_node(a.node, a.cause, a.drain_until, a.false_alarm); },
          horizon);
    } catch (const sim::ConfigError& e) {
      // The predictor's settings are the failover policy's parameters.
      throw DatacenterConfigError("cluster", "failover_params." + e.field(), e.detail());
    }
  }
}

void FaultEffects::start() {
  faults_->start();
  if (precursor_) precursor_->start();
}

void FaultEffects::act(const rel::Fault& f, bool up) {
  const rel::FaultClass& c = faults_->fault_class(f);
  signals_.fault.emit(seams::FaultNotice{simulator_.now(), c.name, f.node, up});
  seams::NodeFaultTarget* nodes = targets_.nodes;
  const bool node_ok = nodes != nullptr && f.node >= 0 && f.node < nodes->node_count();
  switch (c.effect) {
    case rel::FaultEffect::kNicDown:
      if (node_ok) act_on_nic(f, c.name, up);
      break;
    case rel::FaultEffect::kNodeDown:
      if (node_ok) {
        if (up) {
          nodes->set_node_up(f.node);
        } else {
          nodes->set_node_down(f.node, c.name);
        }
      }
      break;
    case rel::FaultEffect::kJobCrash:
      if (node_ok && !up) nodes->crash_jobs_on_node(f.node, c.name);
      break;
    case rel::FaultEffect::kSilentCorruption:
      // The repair time is the quarantine once it is caught; the cluster keeps that clock.
      if (node_ok && !up) nodes->corrupt_jobs_on_node(f.node, c.name, f.repair_done - f.at);
      break;
    case rel::FaultEffect::kLinkDown:
    case rel::FaultEffect::kSwitchDown:
      if (targets_.fabric == nullptr) {
        if (nodes != nullptr && nodes->node_count() > 0 && !up) {
          nodes->crash_jobs_on_node(static_cast<int>(f.instance % static_cast<std::size_t>(nodes->node_count())),
                                    c.name);
        }
      } else if (c.effect == rel::FaultEffect::kLinkDown) {
        if (!cables_.empty()) targets_.fabric->set_link_state(cables_[f.instance % cables_.size()], up);
      } else {
        const auto& topology = *targets_.topology;
        const std::size_t switches = topology.node_count() - topology.host_count();
        if (switches > 0) {
          targets_.fabric->set_switch_state(
              static_cast<network::NodeId>(topology.host_count() + f.instance % switches), up);
        }
      }
      break;
    case rel::FaultEffect::kOsdHostDown:
      signals_.store_host_fault.emit(seams::StoreHostChange{simulator_.now(), static_cast<int>(f.instance), up, c.name, -1});
      break;
    case rel::FaultEffect::kOsdDown:
      signals_.store_host_fault.emit(seams::StoreHostChange{simulator_.now(), static_cast<int>(f.instance) / osds_per_host_,
                                                     up, c.name, static_cast<int>(f.instance) % osds_per_host_});
      break;
    case rel::FaultEffect::kZoneCoolingLoss:
      if (targets_.zones != nullptr && targets_.zones->zones() > 0) {
        const auto zones = static_cast<std::size_t>(targets_.zones->zones());
        targets_.zones->set_zone_cooling_lost(static_cast<int>(f.instance % zones), !up, c.name);
      }
      break;
  }
}

void FaultEffects::act_on_nic(const rel::Fault& f, const std::string& cause, bool up) {
  // NIC k of node n is port k of fabric host n (node i is host i), when the host has that port.
  const int nic = static_cast<int>(f.instance % static_cast<std::size_t>(nics_per_node_));
  if (targets_.fabric != nullptr && static_cast<std::size_t>(f.node) < targets_.topology->host_count() &&
      static_cast<std::size_t>(nic) < targets_.topology->out_links(static_cast<network::NodeId>(f.node)).size()) {
    targets_.fabric->set_nic_port_state(static_cast<network::NodeId>(f.node), nic, up);
  }
  if (!nic_bonding_) {
    // A rail lost: the node's collectives stop until the NIC is back.
    if (up) {
      targets_.nodes->set_node_up(f.node);
    } else {
      targets_.nodes->set_node_down(f.node, cause);
    }
    return;
  }
  // Bonded: the node is down only while every one of its NICs is.
  int& down = nics_down_[f.node];
  if (up) {
    if (down == nics_per_node_) targets_.nodes->set_node_up(f.node);
    if (--down == 0) nics_down_.erase(f.node);
  } else if (++down == nics_per_node_) {
    targets_.nodes->set_node_down(f.node, cause + " (every NIC of the bond)");
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

}  // namespace dcsim::models::datacenter
