#include "tools/run/fabric_run.hpp"

#include <algorithm>
#include <numeric>

#include "models/network/bill_of_materials.hpp"
#include "tools/scenario/fabric_mapping.hpp"

namespace dcsim::tools::run {

namespace net = models::network;
using scenario::FabricFault;

FabricRun::FabricRun(const scenario::Scenario& scenario, const models::ModelRegistries& registries,
                     sim::Simulator& sim, sim::TraceSink& sink)
    : scenario_(scenario), sim_(sim), sink_(sink) {
  const scenario::FabricScenario& f = *scenario.fabric;
  fabric_ = std::make_unique<net::Fabric>(scenario::build_topology(f, registries, scenario.source), f.options);
  report_ = std::make_unique<net::FabricReport>(&sink, "network", true);
  driver_ = std::make_unique<net::FabricSimulation>(sim, *fabric_, report_.get());
  // The bill of materials is a property of the built fabric, not of the traffic or the faults:
  // emitted once, up front, so every fabric run (even one that fails mid-way) carries what the
  // economics model prices.
  net::emit_bill_of_materials(net::bill_of_materials(fabric_->topology()), sink, "network");
  if (scenario.traffic) {
    records_ = &scenario.traffic->records;
    order_.resize(records_->size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [this](std::size_t a, std::size_t b) { return (*records_)[a].start < (*records_)[b].start; });
  }
  faults_table_ = sink.declare_table(
      "network/faults", {{"time_ns", sim::ColumnType::kInt64, "ns", "when the fault was applied"},
                         {"kind", sim::ColumnType::kString, "", "link, switch or nic_port"},
                         {"target", sim::ColumnType::kString, "", "link id, switch name, or host:port"},
                         {"state", sim::ColumnType::kString, "", "down or up"},
                         {"subflows_rerouted", sim::ColumnType::kInt64, "",
                          "active subflows moved to another route by this fault (down: off the failed "
                          "part; up: back, unless routing.resilient_hashing)"}});
}

void FabricRun::start() {
  if (!order_.empty()) {
    sim_.at((*records_)[order_[0]].start, [this] { start_due(); });
  }
  for (std::size_t i = 0; i < scenario_.fabric->faults.size(); ++i) {
    sim_.at(scenario_.fabric->faults[i].at, [this, i] { apply_fault(i); });
  }
}

void FabricRun::start_due() {
  const sim::Time now = sim_.now();
  while (next_ < order_.size() && (*records_)[order_[next_]].start <= now) {
    const net::FlowRecord& r = (*records_)[order_[next_++]];
    driver_->start_flow(r.src, r.dst, r.bytes);
  }
  if (next_ < order_.size()) sim_.at((*records_)[order_[next_]].start, [this] { start_due(); });
}

void FabricRun::apply_fault(std::size_t index) {
  const FabricFault& f = scenario_.fabric->faults[index];
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

net::FabricSummary FabricRun::finish() { return report_->finish(*fabric_); }

double FabricRun::progress_fraction() const {
  return order_.empty() ? 1.0 : static_cast<double>(next_) / static_cast<double>(order_.size());
}

}  // namespace dcsim::tools::run
