#pragma once
// What the parts of a datacenter announce, as typed signals (sim/signal.hpp): the seam through
// which subsystems that only observe (economics, reports, later inference and storage) learn
// what happened without a pointer to the model that did it. The assembly (datacenter.hpp) owns
// one DatacenterSignals and hands it to every part; a part emits, listeners connect before
// start(). Values are passed by const reference and live only for the call.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "models/network/finished_flow.hpp"
#include "models/network/uplink_values.hpp"
#include "sim/signal.hpp"
#include "sim/time.hpp"

namespace dcsim::models::seams {

// A job moved between lifecycle states (pending, waiting, running, interrupted, requeued,
// completed, failed): every transition of every job, generated and trace jobs included.
struct JobStateChange {
  sim::Time at;
  std::size_t job = 0;       // index in the cluster's job list
  std::string_view name;
  std::string_view from, to;
  std::string_view cause;    // fault class or failover action; empty for normal steps
  int gpus = 0;              // GPUs the job holds (or held, for interrupted and completed)
  double energy_j = 0.0;     // node energy attributed to the job over all its runs so far
  bool cloud = false;        // its (latest) run is on cloud pool instances, not on-prem nodes
};

// Training work a job delivered: its steps kept, with the tokens and model FLOPs they trained
// (tokens_per_step and the PaLM model FLOPs per step of its submitted plan: an elastic job on fewer
// replicas trains the same global batch). Emitted once per training job: when it completes (every
// step), or at the end of the run for one that has not (the steps done by a running job, the steps
// a waiting job will resume from, 0 for a failed or unstarted one). Work redone after a fault is
// counted once.
struct TrainingWork {
  sim::Time at;
  std::size_t job = 0;
  double steps = 0.0;
  double tokens = 0.0;
  double model_flops = 0.0;
};

// What an inference service delivered over the run, once at the end (inference_subsystem.hpp):
// the output and prompt tokens of the requests it answered, and the cluster jobs its replicas ran
// as (their GPU time is the service's share of the cluster's cost).
struct InferenceWork {
  sim::Time at;
  std::string_view service;
  const std::vector<std::size_t>& jobs;  // indices in the cluster's job list
  double output_tokens = 0.0;
  double input_tokens = 0.0;
};

// A node went down (a fault) or came back (every fault holding it down repaired).
struct NodeHealthChange {
  sim::Time at;
  int node = 0;
  bool healthy = true;
  std::string_view cause;
};

// A node's GPU clock factor changed (1 = nominal): throttling by a power cap or temperature, or
// its end. The node's jobs run at the slowest factor among their nodes.
struct NodeClockChange {
  sim::Time at;
  int node = 0;
  double factor = 1.0;
};

// The compute nodes' total AC power changed (it stays at power_w until the next change), so a
// listener integrates IT energy exactly.
struct ItPowerChange {
  sim::Time at;
  double power_w = 0.0;
};

// One step of the facility model: the energies over [from, to) and the state at `to`.
struct FacilityStep {
  sim::Time from, to;
  double it_j = 0.0;          // nodes and network switches
  double facility_j = 0.0;    // IT plus distribution losses, cooling, pumps, chillers
  double max_gpu_c = 0.0;     // hottest die at `to`
};

// A fault of the reliability model began (repaired = false) or its repair completed.
struct FaultNotice {
  sim::Time at;
  std::string_view fault_class;
  int node = -1;             // owning node; -1 for links, switches, zones
  bool repaired = false;
};

// A host of the shared store, or one of its OSDs (drives), goes down or comes back (a random
// fault of the reliability model; scripted ones are the store's own config). One per fault and
// one per repair: a part two faults hold down is up only after both repairs.
struct StoreHostChange {
  sim::Time at;
  int host = 0;  // index into the store's hosts
  bool repaired = false;
  std::string_view cause;
  int drive = -1;  // the OSD of the host that failed; -1: the whole host
};

// A training job finished writing a checkpoint: `bytes` is the whole job's state (every node's
// share), as TrainingJobPlan::checkpoint_bytes.
struct CheckpointWritten {
  sim::Time at;
  std::size_t job = 0;  // index in the cluster's job list
  std::string_view name;
  double bytes = 0.0;
  // Where it is: on the job's nodes (local NVMe, or a remote store at an analytic rate), on host
  // `host` of a network (the backend when on_backend, else the front-end), or in the shared
  // object store.
  enum class Place : std::uint8_t { kNodes, kNetworkHost, kStore };
  Place place = Place::kNodes;
  bool on_backend = false;
  int host = -1;
  std::span<const int> nodes;  // the job's nodes (cluster node i is host i); valid during the emit
  // In the store: the OSD hosts it is read from, their shares and drive resources
  // (CheckpointStore::copy_sources); valid during the emit.
  std::span<const network::UplinkSource> sources;
};

// An instance of the cluster's cloud pool (cloud_pool.hpp): requested, ready (usable and billed
// from now), released after its idle timeout, or preempted (spot; gone, its jobs interrupted).
struct CloudInstanceChange {
  enum class Kind { kRequested, kReady, kReleased, kPreempted };
  sim::Time at;
  int instance = 0;          // its node id in the cluster
  Kind kind = Kind::kRequested;
  int gpus = 0;
  double lost_gpu_s = 0.0;   // kPreempted: work the interrupted jobs lost (since their last checkpoint)
};

// Data a job's move to or from the cloud pool carries over the WAN: its dataset before it starts
// on instances (leaves_cloud false: ingress, free at the providers), its results after it
// finishes there (leaves_cloud true: egress at the offer's tariff).
struct CloudTransfer {
  sim::Time at;
  std::size_t job = 0;
  double bytes = 0.0;
  bool leaves_cloud = false;
};

struct DatacenterSignals {
  sim::Signal<const JobStateChange&> job_state;
  sim::Signal<const TrainingWork&> training_work;
  sim::Signal<const InferenceWork&> inference_work;
  sim::Signal<const NodeHealthChange&> node_health;
  sim::Signal<const ItPowerChange&> it_power;
  sim::Signal<const NodeClockChange&> node_clock;
  sim::Signal<const FacilityStep&> facility_step;
  sim::Signal<const network::FinishedFlow&> flow_finished;  // every flow of the fabric, traffic and jobs
  sim::Signal<const FaultNotice&> fault;
  sim::Signal<const StoreHostChange&> store_host_fault;
  sim::Signal<const CheckpointWritten&> checkpoint_written;
  // The site's internet uplink carried bytes in one direction over [from, to) at a constant rate
  // (site_uplink.hpp): what economics bills as egress, in the month it left.
  sim::Signal<const network::UplinkCarried&> uplink_carried;
  sim::Signal<const CloudInstanceChange&> cloud_instance;
  sim::Signal<const CloudTransfer&> cloud_transfer;
};

}  // namespace dcsim::models::seams
