#pragma once
// The fabric as random faults see it (models/reliability/fault_effects.hpp): cables, switches and
// NIC ports that go down and come back. Exactly the calls fault effects make; the assembly adapts
// the network's simulation to it (models/datacenter/subsystems.cpp).

#include <cstddef>

namespace dcsim::models::seams {

class FabricFaultTarget {
 public:
  virtual ~FabricFaultTarget() = default;
  // Cables (a link and its reverse) and switches, numbered from 0 in the fabric's order.
  virtual std::size_t cable_count() const = 0;
  virtual std::size_t switch_count() const = 0;
  // Flows re-route around a cable or switch that is down, or wait. O(flows that cross it).
  virtual void set_cable_state(std::size_t cable, bool up) = 0;
  virtual void set_switch_state(std::size_t sw, bool up) = 0;
  // The ports of host `host` (0 when it is none of the fabric's hosts); port `port` of it goes
  // down or comes back (its flows move to the host's other ports, or fail).
  virtual int host_ports(int host) const = 0;
  virtual void set_host_port_state(int host, int port, bool up) = 0;
};

}  // namespace dcsim::models::seams
