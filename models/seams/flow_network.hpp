#pragma once
// A network as the parts that move their bytes over it see it (the object store's reads, writes
// and recoveries; NVMe-oF targets): flows between hosts, sharing the links with everything else
// on that network, and capacities beside the links (a drive's bandwidth, a throttle, CPU cores)
// that the flows crossing them share in the same max-min solve. The network's simulation
// (models/network/fabric_simulation.hpp) implements it; the storage models never see its class.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "models/network/finished_flow.hpp"
#include "models/network/network_ids.hpp"
#include "sim/time.hpp"

namespace dcsim::models::seams {

class FlowNetwork {
 public:
  using OnFinish = std::function<void(const network::FinishedFlow&)>;
  virtual ~FlowNetwork() = default;
  // Hosts 0 .. host_count() - 1 may send and receive.
  virtual std::size_t host_count() const = 0;
  // What `host` can send at most: the bandwidth of its links into the network, in bit/s.
  virtual double host_bandwidth_bps(network::NodeId host) const = 0;
  // The switch `host`'s first link reaches (its leaf) and that switch's bandwidth towards the
  // switches above it, in bit/s (0 for a single-switch network, or a host that forwards).
  struct EdgeSwitch {
    network::NodeId node = 0;
    double uplink_bps = 0.0;
  };
  virtual EdgeSwitch edge_switch(network::NodeId host) const = 0;
  // Starts a flow of `bytes` from `src` to `dst` now, crossing `resources` too; `on_finish` when
  // it finished or failed (as an event, never inside this call). `channel` -1: the network's own
  // choice of path. Returns the flow's number.
  virtual std::uint64_t start_flow(network::NodeId src, network::NodeId dst, double bytes, OnFinish on_finish,
                                   int channel, std::span<const network::ResourceId> resources) = 0;
  // A capacity beside the links, in bit/s; its id for start_flow.
  virtual network::ResourceId add_resource(double capacity_bps) = 0;
  virtual void set_resource_capacity(network::ResourceId resource, double capacity_bps) = 0;
  virtual double resource_capacity_bps(network::ResourceId resource) const = 0;
  // The bytes each resource carried up to `at` (flows in flight at their rates), by resource id:
  // what a sampler of their load reads (storage/store_load_sampler.hpp). O(resources + live flows).
  virtual void resource_bytes_at(sim::Time at, std::vector<double>& bytes) const = 0;
  // Fails now the flows crossing `resource` (a drive that died), or from or to `host` (a host
  // that went down): their callbacks see failed = true and `reason`.
  virtual void fail_resource_flows(network::ResourceId resource, const std::string& reason) = 0;
  virtual void fail_host_flows(network::NodeId host, const std::string& reason) = 0;
  // Links, switches and host ports gone down or come back so far: a reader that keeps what it
  // measured on the network (a training job's sampled step) compares counts to see a change. O(1).
  virtual std::uint64_t state_changes() const = 0;
};

}  // namespace dcsim::models::seams
