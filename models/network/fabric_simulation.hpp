#pragma once
// FabricSimulation: a Fabric inside the discrete-event engine with ONE pending engine event, at
// the fabric's next activation or completion (priority kCompletion). Starting a flow or failing
// a link moves that event; when it fires, the fabric advances, re-solves once for the instant,
// reports finished flows to the report and to each flow's callback (which may start new flows:
// they join the same solve when their latency is zero, else the next event).

#include <functional>
#include <vector>

#include "models/network/fabric.hpp"
#include "models/network/fabric_report.hpp"
#include "models/seams/flow_network.hpp"
#include "sim/signal.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::network {

class FabricSimulation final : public seams::FlowNetwork {
 public:
  using OnFinish = std::function<void(const FinishedFlow&)>;

  // report may be null. Both must outlive this object.
  FabricSimulation(sim::Simulator& sim, Fabric& fabric, FabricReport* report);
  FabricSimulation(const FabricSimulation&) = delete;
  FabricSimulation& operator=(const FabricSimulation&) = delete;

  std::uint64_t start_flow(NodeId src, NodeId dst, double bytes, OnFinish on_finish = {}, int channel = -1,
                           std::span<const ResourceId> resources = {}) override;
  // Capacities beside the links (Fabric::add_resource): a drive's bandwidth, a throttle.
  ResourceId add_resource(double capacity_bps) override { return fabric_.add_resource(capacity_bps); }
  void set_resource_capacity(ResourceId r, double capacity_bps) override;
  double resource_capacity_bps(ResourceId r) const override { return fabric_.resource_capacity_bps(r); }
  void resource_bytes_at(sim::Time at, std::vector<double>& bytes) const override {
    fabric_.resource_bytes_at(at, bytes);
  }
  std::size_t host_count() const override { return fabric_.topology().host_count(); }
  double host_bandwidth_bps(NodeId host) const override;
  EdgeSwitch edge_switch(NodeId host) const override;
  // Fails the flows crossing `r` now (their callbacks see failed = true and `reason`).
  void fail_resource_flows(ResourceId r, const std::string& reason) override;
  // Fails the flows from or to `host` now.
  void fail_host_flows(NodeId host, const std::string& reason) override;
  Fabric& fabric() { return fabric_; }
  const Fabric& fabric() const { return fabric_; }
  void set_link_state(LinkId link, bool up);
  void set_switch_state(NodeId sw, bool up);
  void set_nic_port_state(NodeId host, int port, bool up);
  std::uint64_t state_changes() const override { return state_changes_; }
  // Every finished (or failed) flow, after the report and the flow's own callback saw it.
  sim::Signal<const FinishedFlow&>& flow_finished() { return flow_finished_; }

 private:
  void tick();
  void reschedule();
  void deliver();

  sim::Simulator& sim_;
  Fabric& fabric_;
  FabricReport* report_;
  // host_bandwidth_bps by host, each summed on first ask (< 0: not yet): a link's bandwidth_bps
  // is its nominal rate, which no state change moves. A store sums its clients' NICs per save.
  mutable std::vector<double> host_bandwidth_bps_;
  sim::EventHandle event_;
  sim::Time scheduled_ = sim::Time::max();
  bool in_tick_ = false;
  std::vector<OnFinish> callbacks_;  // indexed by tag
  std::vector<std::uint64_t> free_tags_;
  std::vector<FinishedFlow> finished_;
  sim::Signal<const FinishedFlow&> flow_finished_;
  std::uint64_t state_changes_ = 0;
};

}  // namespace dcsim::models::network
