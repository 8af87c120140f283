#include "models/network/fabric_simulation.hpp"

#include <algorithm>

namespace dcsim::models::network {

FabricSimulation::FabricSimulation(sim::Simulator& sim, Fabric& fabric, FabricReport* report)
    : sim_(sim), fabric_(fabric), report_(report) {}

std::uint64_t FabricSimulation::start_flow(NodeId src, NodeId dst, double bytes, OnFinish on_finish, int channel,
                                          std::span<const ResourceId> resources) {
  std::uint64_t tag;
  if (!free_tags_.empty()) {
    tag = free_tags_.back();
    free_tags_.pop_back();
    callbacks_[tag] = std::move(on_finish);
  } else {
    tag = callbacks_.size();
    callbacks_.push_back(std::move(on_finish));
  }
  const std::uint64_t number = fabric_.start_flow(sim_.now(), src, dst, bytes, tag, channel, resources);
  reschedule();
  return number;
}

double FabricSimulation::host_bandwidth_bps(NodeId host) const {
  // O(the host's ports) the first time, O(1) after.
  const auto i = static_cast<std::size_t>(host);
  if (i >= host_bandwidth_bps_.size())
    host_bandwidth_bps_.resize(std::max(i + 1, fabric_.topology().node_count()), -1.0);
  double& known = host_bandwidth_bps_[i];
  if (known < 0.0) {
    double sum = 0.0;
    for (const LinkId l : fabric_.topology().out_links(host)) sum += fabric_.topology().link(l).bandwidth_bps;
    known = sum;
  }
  return known;
}

seams::FlowNetwork::EdgeSwitch FabricSimulation::edge_switch(NodeId host) const {
  // O(the host's and its leaf's ports).
  const Topology& t = fabric_.topology();
  const auto links = t.out_links(host);
  if (links.empty()) return {};
  const NodeId leaf = t.link(links.front()).dst;
  EdgeSwitch edge{leaf, 0.0};
  for (const LinkId l : t.out_links(leaf)) {
    const NodeInfo& to = t.node(t.link(l).dst);
    if (to.kind != NodeKind::kHost && to.tier > t.node(leaf).tier) edge.uplink_bps += t.link(l).bandwidth_bps;
  }
  return edge;
}

void FabricSimulation::reschedule() {
  if (in_tick_) return;  // tick() reschedules once at its end
  // A flow that found no route is due "at the fabric's last advance", which a flow started
  // later than that (a training step's send after a switch failed) has left in the past: it is
  // due now.
  const sim::Time next = std::max(fabric_.next_event_time(), sim_.now());
  if (next == scheduled_ && sim_.is_pending(event_)) return;
  sim_.cancel(event_);
  scheduled_ = next;
  if (next.is_max()) return;
  event_ = sim_.at(next, [this] { tick(); }, sim::Priority::kCompletion);
}

void FabricSimulation::deliver() {
  std::vector<FinishedFlow> batch;
  batch.swap(finished_);
  for (const FinishedFlow& f : batch) {
    if (report_ != nullptr) report_->record(f);
    OnFinish cb = std::move(callbacks_[f.tag]);
    callbacks_[f.tag] = nullptr;
    free_tags_.push_back(f.tag);
    if (cb) cb(f);
    flow_finished_.emit(f);
  }
}

void FabricSimulation::tick() {
  in_tick_ = true;
  scheduled_ = sim::Time::max();
  while (fabric_.next_event_time() <= sim_.now()) {
    fabric_.advance(sim_.now(), finished_);
    deliver();
  }
  in_tick_ = false;
  reschedule();
}

void FabricSimulation::set_resource_capacity(ResourceId r, double capacity_bps) {
  fabric_.set_resource_capacity(sim_.now(), r, capacity_bps);
  reschedule();
}

void FabricSimulation::fail_resource_flows(ResourceId r, const std::string& reason) {
  fabric_.fail_resource_flows(sim_.now(), r, reason, finished_);
  deliver();
  reschedule();
}

void FabricSimulation::fail_host_flows(NodeId host, const std::string& reason) {
  fabric_.fail_host_flows(sim_.now(), host, reason, finished_);
  deliver();
  reschedule();
}

void FabricSimulation::set_link_state(LinkId link, bool up) {
  ++state_changes_;
  fabric_.set_link_state(sim_.now(), link, up, finished_);
  deliver();
  reschedule();
}

void FabricSimulation::set_switch_state(NodeId sw, bool up) {
  ++state_changes_;
  fabric_.set_switch_state(sim_.now(), sw, up, finished_);
  deliver();
  reschedule();
}

void FabricSimulation::set_nic_port_state(NodeId host, int port, bool up) {
  ++state_changes_;
  fabric_.set_nic_port_state(sim_.now(), host, port, up, finished_);
  deliver();
  reschedule();
}

}  // namespace dcsim::models::network
