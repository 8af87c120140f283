#pragma once
// The backend fabric as random faults see it (seams::FabricFaultTarget, models/seams/): the
// assembly's adapter of the network's simulation. Cable i is the i-th link whose reverse comes
// after it (one direction of each cable), switch i the fabric's node host_count() + i, and a
// host's ports its out-links. O(links) once, to list the cables.

#include <cstddef>
#include <vector>

#include "models/network/fabric_simulation.hpp"
#include "models/network/topology.hpp"
#include "models/seams/fabric_fault_target.hpp"

namespace dcsim::models::datacenter {

class FabricFaults final : public seams::FabricFaultTarget {
 public:
  FabricFaults(network::FabricSimulation& fabric, const network::Topology& topology)
      : fabric_(fabric), topology_(topology) {
    for (network::LinkId l = 0; l < topology.link_count(); ++l) {
      if (topology.link(l).reverse > l) cables_.push_back(l);
    }
  }
  std::size_t cable_count() const override { return cables_.size(); }
  std::size_t switch_count() const override { return topology_.node_count() - topology_.host_count(); }
  void set_cable_state(std::size_t cable, bool up) override { fabric_.set_link_state(cables_[cable], up); }
  void set_switch_state(std::size_t sw, bool up) override {
    fabric_.set_switch_state(static_cast<network::NodeId>(topology_.host_count() + sw), up);
  }
  int host_ports(int host) const override {
    if (host < 0 || static_cast<std::size_t>(host) >= topology_.host_count()) return 0;
    return static_cast<int>(topology_.out_links(static_cast<network::NodeId>(host)).size());
  }
  void set_host_port_state(int host, int port, bool up) override {
    fabric_.set_nic_port_state(static_cast<network::NodeId>(host), port, up);
  }

 private:
  network::FabricSimulation& fabric_;
  const network::Topology& topology_;
  std::vector<network::LinkId> cables_;
};

}  // namespace dcsim::models::datacenter
