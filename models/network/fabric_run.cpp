#include "models/network/fabric_run.hpp"

#include <algorithm>
#include <numeric>

#include "models/network/bill_of_materials.hpp"

namespace dcsim::models::network {

using FabricFault = ScriptedFabricFault;

FabricRun::FabricRun(FabricRunConfig config, const TopologyRegistry& topologies, sim::Simulator& sim,
                     sim::TraceSink& sink)
    : config_(std::move(config)), sim_(sim), sink_(sink) {
  fabric_ = std::make_unique<Fabric>(topologies.get(config_.topology).factory(config_.topology_config),
                                     config_.options);
  report_ = std::make_unique<FabricReport>(&sink, config_.name, config_.flow_table);
  driver_ = std::make_unique<FabricSimulation>(sim, *fabric_, report_.get());
  // The bill of materials is a property of the built fabric, not of the traffic or the faults:
  // emitted once, up front, so every fabric run (even one that fails mid-way) carries what the
  // economics model prices.
  emit_bill_of_materials(bill_of_materials(fabric_->topology()), sink, config_.name);
  order_.resize(config_.flows.size());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::stable_sort(order_.begin(), order_.end(),
                   [this](std::size_t a, std::size_t b) { return config_.flows[a].start < config_.flows[b].start; });
  faults_table_ = sink.declare_table(
      config_.name + "/faults", {{"time_ns", sim::ColumnType::kInt64, "ns", "when the fault was applied"},
                         {"kind", sim::ColumnType::kString, "", "link, switch or nic_port"},
                         {"target", sim::ColumnType::kString, "", "link id, switch name, or host:port"},
                         {"state", sim::ColumnType::kString, "", "down or up"},
                         {"subflows_rerouted", sim::ColumnType::kInt64, "",
                          "active subflows moved to another route by this fault (down: off the failed "
                          "part; up: back, unless routing.resilient_hashing)"}});
}

void FabricRun::start() {
  if (!order_.empty()) {
    sim_.at(config_.flows[order_[0]].start, [this] { start_due(); });
  }
  for (std::size_t i = 0; i < config_.faults.size(); ++i) {
    sim_.at(config_.faults[i].at, [this, i] { apply_fault(i); });
  }
}

void FabricRun::start_due() {
  const sim::Time now = sim_.now();
  while (next_ < order_.size() && config_.flows[order_[next_]].start <= now) {
    const FlowRecord& r = config_.flows[order_[next_++]];
    driver_->start_flow(r.src, r.dst, r.bytes);
  }
  if (next_ < order_.size()) sim_.at(config_.flows[order_[next_]].start, [this] { start_due(); });
}

void FabricRun::apply_fault(std::size_t index) {
  const FabricFault& f = config_.faults[index];
  std::string kind, target;
  const std::uint64_t rerouted_before = fabric_->rerouted_subflows();
  switch (f.kind) {
    case FabricFault::Kind::kLink:
      driver_->set_link_state(f.link, f.up);
      kind = "link";
      target = std::to_string(f.link);
      break;
    case FabricFault::Kind::kSwitch:
      driver_->set_switch_state(f.node, f.up);
      kind = "switch";
      target = fabric_->topology().node_name(f.node);
      break;
    case FabricFault::Kind::kNicPort:
      driver_->set_nic_port_state(f.node, f.port, f.up);
      kind = "nic_port";
      target = fabric_->topology().node_name(f.node) + ":" + std::to_string(f.port);
      break;
  }
  sink_.append_row(faults_table_, {sim_.now().ns(), kind, target, std::string(f.up ? "up" : "down"),
                                   static_cast<std::int64_t>(fabric_->rerouted_subflows() - rerouted_before)});
}

FabricSummary FabricRun::finish() { return report_->finish(*fabric_); }

double FabricRun::progress_fraction() const {
  return order_.empty() ? 1.0 : static_cast<double>(next_) / static_cast<double>(order_.size());
}

}  // namespace dcsim::models::network
