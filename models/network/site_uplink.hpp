#pragma once
// The site's internet uplink as a subsystem of the datacenter (models/datacenter/subsystems.cpp
// hands it its section and an UplinkSite): the ports of UplinkConfig make one full-duplex uplink
// of their total speed in each direction, and what the scenario declares crosses it as
// transfers. The ports alone (wan_uplink.hpp) share it equally among the transfers; behind a
// gateway host of a network (UplinkConfig::gateway, fabric_uplink.hpp) every transfer is flows on that network between
// where its data is and the gateway, the ports a capacity in the same solve:
//   streams            occurrence k of a stream is due at start + k x every and sends
//                      bytes + k x grow_bytes, after the stream's earlier transfers (one queue
//                      per stream)
//   checkpoint copies  every nth checkpoint a training job writes (CheckpointWritten) is copied
//                      off-site whole, after that job's earlier copies (one queue per job)
// A copy reads a checkpoint already on storage, so by default (unlimited staging) jobs do not wait
// for their copies: a port too slow for them shows as copies that queue (backlog, delay). With
// `staging_slots` n, a job's checkpoints waiting for or in their copy occupy the local staging
// space: when n of them do, the uplink holds the job's next checkpoint (CheckpointGate,
// models/seams/checkpoint_gate.hpp) until a copy finishes, and a job that reaches it meanwhile stalls: the
// port's bound shows as slower training.
//
// The port binds the first time a transfer is due while the previous one of its queue is still
// in flight or waiting, or a job stalls for staging space (job_state signal, to "stalled"): from
// then on the queue cannot keep up unless the load drops.
//
// Emits
//   signal   uplink_carried: bytes per direction per interval of constant rate (economics bills
//            the outgoing ones in the month they left)
//   series   uplink/out_bps, uplink/out_backlog_bytes (and in_* with an ingress stream): the mean
//            rate between the uplink's reports at each start and end of a transfer (constant there
//            with the ports alone) and bytes not yet sent, a point at every start, finish and
//            submission
//   table    uplink/transfers: one row per finished transfer (queue name, direction, bytes,
//            due, start and finish times, time from due to done)
//   summary  uplink/capacity_bps, out_bytes, in_bytes, transfers_done, transfers_unfinished,
//            out_backlog_max_bytes, out_backlog_end_bytes, out_utilisation_mean,
//            out_utilisation_peak_day, transfer_time_max_s, queue_wait_max_s, binds_at_s,
//            binds_day, binding_queue, job_stall_s (the gate's stalls), staged_checkpoints_max;
//            with a gateway also network, gateway_host, failed_flows
// Costs: O(transfers in flight in a direction) per start or finish, O(1) per carried report plus
// O(days it crosses), O(1) per checkpoint for staging; nothing scales with the cluster. No event
// without a stream or a copy.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/network/fabric_simulation.hpp"
#include "models/network/fabric_uplink.hpp"
#include "models/network/uplink_config.hpp"
#include "models/network/uplink_transport.hpp"
#include "models/seams/checkpoint_gate.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/subsystem.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::network {

// A network the gateway may be a host of, and the hosts on it that others use.
struct UplinkNetwork {
  FabricSimulation* simulation = nullptr;  // null: the datacenter lacks it
  std::vector<std::uint32_t> store_hosts;  // the store's OSD hosts
  std::vector<std::uint32_t> nvmeof_targets;
  std::vector<std::pair<std::string, int>> checkpoint_hosts;  // (job, host) of jobs that checkpoint to a host
};

// What the uplink reads beyond its own section.
struct UplinkSite {
  sim::Time duration;
  std::optional<int> cluster_nodes;       // none: no cluster
  seams::CheckpointGate* gate = nullptr;  // the cluster's, when it has one
  UplinkNetwork backend, frontend;
};

class SiteUplink final : public seams::Subsystem {
 public:
  // sim::ConfigError naming the field: "ports" (none while
  // something crosses, "ports[i].speed_bps", "ports[i].count"), "streams[i].bytes",
  // "streams[i].grow_bytes", "streams[i].every" (not positive, or repeating without a run
  // duration), "streams[i].name" (empty or repeated), "checkpoint_copies.every_nth",
  // "checkpoint_copies.staging_slots" (negative), "checkpoint_copies" (no cluster, or finite
  // staging without a gate), "gateway.network" (absent), "gateway.host" (not a host of it beyond
  // the cluster's nodes, or one the store or a job's checkpoints use), "gateway" (streams with
  // neither a store on that network nor a cluster to come from). The cluster (site.gate) holds
  // the jobs' checkpoints when staging is finite.
  SiteUplink(const UplinkConfig& config, const UplinkSite& site, sim::Simulator& simulator, sim::TraceSink& sink,
             seams::DatacenterSignals& signals);
  ~SiteUplink() override;

  void start() override;
  void finish() override;

  // Total port speed per direction, bit/s.
  static double capacity_bps(const std::vector<PortGroup>& ports);

 private:
  struct Stream {
    UplinkStream spec;
    std::size_t queue = 0;
    std::int64_t occurrence = 0;
  };
  struct QueueInfo {
    std::string name;
    UplinkDirection direction = UplinkDirection::kOut;
    std::optional<std::size_t> job;  // checkpoint copies: whose
  };
  void on_due(std::size_t stream);
  void on_checkpoint(const seams::CheckpointWritten& c);
  // Submits to `queue` (data on `hosts`); the port binds if the queue is still busy.
  void submit(std::size_t queue, double bytes, std::span<const UplinkSource> sources);
  // Behind a gateway: checks its host and finds where the store's and streams' data is.
  void find_hosts(const UplinkSite& site, const UplinkNetwork& network, std::size_t network_hosts);
  void append_rate(UplinkDirection d, sim::Time at, double bps);
  void on_carried(const UplinkCarried& c);
  // The network's hosts a transfer's data is on (empty with the ports alone).
  std::vector<UplinkSource> checkpoint_sources(const seams::CheckpointWritten& c) const;
  void on_finished(const UplinkTransferDone& d);
  void record();

  sim::Simulator& simulator_;
  sim::TraceSink& sink_;
  seams::DatacenterSignals& signals_;
  sim::Time duration_;
  double capacity_bps_ = 0.0;
  std::optional<CheckpointCopies> copies_;
  std::unique_ptr<UplinkTransport> uplink_;
  FabricUplink* fabric_uplink_ = nullptr;  // uplink_ behind a gateway
  std::optional<UplinkGateway> gateway_;
  std::vector<NodeId> store_hosts_;   // the store's OSD hosts on the gateway's network
  std::vector<NodeId> stream_hosts_;  // where streams come from (the store, else the nodes)
  std::vector<Stream> streams_;
  std::vector<QueueInfo> queues_;                      // by transport queue index
  std::vector<std::optional<std::size_t>> job_queue_;  // by job index: its copies' queue
  std::vector<std::int64_t> job_checkpoints_;          // by job index
  std::vector<int> job_staged_;                        // by job index: its checkpoints waiting for or in their copy
  int staged_max_ = 0;
  seams::CheckpointGate* gate_ = nullptr;
  bool has_ingress_ = false;

  sim::SeriesId out_bps_ = 0, out_backlog_ = 0, in_bps_ = 0, in_backlog_ = 0;
  sim::TableId transfers_ = 0;
  double last_bps_[2] = {-1.0, -1.0};
  double bytes_[2] = {0.0, 0.0};
  std::vector<double> out_bytes_per_day_;
  std::int64_t transfers_done_ = 0, transfers_submitted_ = 0;
  double backlog_max_bytes_ = 0.0;
  double transfer_time_max_s_ = 0.0, queue_wait_max_s_ = 0.0;
  std::optional<sim::Time> binds_at_;
  std::string binding_queue_;
};

}  // namespace dcsim::models::network
