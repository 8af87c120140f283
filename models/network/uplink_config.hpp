#pragma once
// What crosses the site's internet uplink (site_uplink.hpp), as a plain config: the ports (the
// one place a scenario declares them: their speed caps the transfers, and the economics
// subsystem bills their flat monthly fee from the same list) and the transfers the scenario
// declares, as streams and as copies of the checkpoints the training jobs write.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/network/uplink_values.hpp"
#include "sim/time.hpp"

namespace dcsim::models::network {

// Ports of one speed (economics bills them: economics::PortGroup is this).
struct PortGroup {
  double speed_bps = 0.0;
  std::int64_t count = 0;
};

// A repeating (or one-off) transfer: occurrence k (0-based) is due at start + k x every and sends
// bytes + k x grow_bytes. A rate is declared as bytes = rate x every (one transfer per period).
struct UplinkStream {
  std::string name;
  UplinkDirection direction = network::UplinkDirection::kOut;
  double bytes = 0.0;       // > 0
  double grow_bytes = 0.0;  // >= 0, added per occurrence (a dataset, a model, results that grow)
  sim::Time start = sim::Time::zero();
  sim::Time every = sim::Time::max();  // max(): once; a repeating stream needs a run duration
};

// Every `every_nth` checkpoint a training job writes (the nth, 2nth, ... of that job) is copied
// off-site: the whole checkpoint (TrainingJobPlan::checkpoint_bytes), one queue per job.
// `staging_slots` > 0 is the local space for checkpoints awaiting their copy: while that many of
// a job's checkpoints wait for or are in their copy, the job cannot write another and stalls
// (CheckpointGate). 0: unlimited, jobs never wait.
struct CheckpointCopies {
  int every_nth = 1;
  int staging_slots = 0;
};

// Where the ports terminate, when the scenario says: a host of one of the datacenter's networks
// (the border routers), beyond the cluster's nodes and the store's hosts. Every transfer then
// travels that network between the hosts that hold its data and the gateway (fabric_uplink.hpp):
// a checkpoint copy from where the checkpoint is (the store's OSD hosts, the remote store host,
// or the job's nodes), a stream from the store's OSD hosts on that network, else from the
// cluster's nodes. Without a gateway the ports alone carry the transfers (wan_uplink.hpp).
struct UplinkGateway {
  bool on_backend = false;  // false: the /frontend network; true: the backend /fabric
  int host = -1;
};

struct UplinkConfig {
  std::vector<PortGroup> ports;  // unmetered internet ports; the uplink is their total speed
  std::optional<UplinkGateway> gateway;
  std::vector<UplinkStream> streams;
  std::optional<CheckpointCopies> checkpoint_copies;
};

}  // namespace dcsim::models::network
