#pragma once
// The narrow seams through which subsystems of a datacenter (datacenter.hpp) act on the models
// that own its parts: the cluster takes nodes down and interrupts jobs, the facility stops a
// zone's heat removal, the fabric takes links and switches down. A subsystem sees these, never
// the concrete models.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/datacenter/checkpoint_writer.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/network/topology.hpp"
#include "models/network/uplink_transport.hpp"
#include "models/reliability/precursor_config.hpp"
#include "sim/time.hpp"

namespace dcsim::models::datacenter {

class NodeFaultTarget {
 public:
  virtual ~NodeFaultTarget() = default;
  virtual int node_count() const = 0;
  // The node goes down now (its jobs are interrupted); up once every fault holding it down is
  // repaired (one set_node_up per set_node_down).
  virtual void set_node_down(int node, const std::string& cause) = 0;
  virtual void set_node_up(int node) = 0;
  // The node's jobs crash (software, watchdog); the node stays usable.
  virtual void crash_jobs_on_node(int node, const std::string& cause) = 0;
  // A GPU of the node computes wrong numbers silently: the training jobs on it run on corrupted
  // state until their loss checks catch it (then they roll back to their last clean checkpoint
  // and the node is quarantined for `quarantine`) or never.
  virtual void corrupt_jobs_on_node(int node, const std::string& cause, sim::Time quarantine) = 0;
  // The precursor signal the node owner acts on (a predictive failover policy), if any: the
  // fault router then raises its alarms (reliability/fault_precursor.hpp) and warns here.
  virtual std::optional<reliability::PrecursorConfig> wanted_precursor() const { return std::nullopt; }
  // A precursor warns of a fault on `node` (drain it until `drain_until`, move its jobs).
  virtual void warn_node(int node, const std::string& cause, sim::Time drain_until, bool false_alarm) {
    (void)node, (void)cause, (void)drain_until, (void)false_alarm;
  }
};

class ZoneCoolingTarget {
 public:
  virtual ~ZoneCoolingTarget() = default;
  virtual int zones() const = 0;
  // The zone's CDU and air path remove no heat while any loss is in progress.
  virtual void set_zone_cooling_lost(int zone, bool lost, const std::string& cause) = 0;
};

// Holds training jobs' next checkpoints: the seam through which a subsystem that keeps a job's
// earlier checkpoints somewhere finite (the uplink's staging space for off-site copies,
// site_uplink.hpp) makes the job wait for room. Implemented by the cluster, which asks before
// every checkpoint write: a job whose next write is due while held stalls (no progress, GPUs held
// and idle) until released, then writes. One holder per job: hold and release are not counted.
// An interruption ends the stall with the run; a held job's next run stalls at its first
// checkpoint while it stays held.
class CheckpointGate {
 public:
  virtual ~CheckpointGate() = default;
  // The job's next checkpoint waits. O(1).
  virtual void hold_checkpoints(std::size_t job) = 0;
  // The job may write again; a stalled job writes now. O(1), plus the job's nodes when it stalled.
  virtual void release_checkpoints(std::size_t job) = 0;
  // Seconds jobs stalled at held checkpoints, summed over jobs, up to the cluster's last
  // accounting (its finish() closes the stalls still open).
  virtual double checkpoint_stall_s() const = 0;
};

// What a restart read of a checkpoint found: the data, none (some of it on no OSD up), or a
// checkpoint that was corrupted on its way into the store, found by its checksums (verified
// reads) or not (the job loads the corruption).
enum class CheckpointRead { kOk, kUnavailable, kCorruptFound, kCorruptUnnoticed };

// The shared object store as training jobs see it (storage_subsystem.hpp): a job whose
// checkpoint target is the store writes every checkpoint through a writer it gets here and reads
// its last one back here before a restart resumes. Node i is host i of the store's network.
class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;
  // A writer for one run of job `job` on `nodes`, into `pool` (empty: the store's first pool);
  // `job_waits`: the job stalls for each write (synchronous saves), not beside it (async).
  virtual std::unique_ptr<CheckpointWriter> writer(const std::string& job, const std::string& pool,
                                                   const std::vector<int>& nodes, bool job_waits) = 0;
  // Every node reads `bytes_per_node` of the job's newest kept checkpoint (and verifies it, when
  // the store checks integrity); on_done once all have, never before the call returns.
  virtual void read(const std::string& job, const std::string& pool, const std::vector<int>& nodes,
                    double bytes_per_node, std::function<void(CheckpointRead)> on_done) = 0;
  // How many of a job's latest checkpoints the store keeps (older ones are deleted): the ones a
  // rollback can go back to.
  virtual int kept_checkpoints() const = 0;
  // The least a synchronous save of `bytes` from `nodes` nodes into `pool` can stall a job (the
  // drives' bound, the hashing): what a checkpoint interval is optimised against.
  virtual double write_bound_s(const std::string& pool, double bytes, int nodes) const = 0;
  // The job goes on from its `count` oldest kept checkpoints: the newer ones (after a rollback
  // or a checkpoint found corrupt) are deleted.
  virtual void keep_oldest(const std::string& job, std::size_t count) = 0;
  // Every node reads `bytes_per_node` of the job's data from `pool`: its input (a training job's
  // dataset) or its weights (an inference replica's); on_done(ok) once all have, as an event.
  // ok is false when some of it is on no OSD up.
  enum class DataKind { kDataset, kWeights };
  // Job `job`'s dataset lies in `pool` from the start: `bytes` of client data that take its room
  // (a pool too small for them is a sim::ConfigError naming the pool).
  virtual void hold_dataset(const std::string& job, const std::string& pool, double bytes) = 0;
  virtual void read_data(DataKind kind, const std::string& job, const std::string& pool,
                         const std::vector<int>& nodes, double bytes_per_node, std::function<void(bool ok)> on_done) = 0;
  // Where a copy of a checkpoint in `pool` is read from as of now: each OSD host (a host of the
  // store's network) with its share of the bytes, read through its drives (the resource): what
  // an off-site copy of the checkpoint leaves from (site_uplink.hpp). Empty when no data of the
  // pool is on a member up.
  virtual std::vector<network::UplinkSource> copy_sources(const std::string& pool) const = 0;
};

// Remote NVMe namespaces as training jobs see them (nvmeof_subsystem.hpp): a job whose checkpoint
// target is nvmeof writes every checkpoint through a writer it gets here (each node to its own
// namespace) and reads its last one back here before a restart resumes. Node i is host i of the
// targets' network.
class CheckpointNamespaces {
 public:
  virtual ~CheckpointNamespaces() = default;
  virtual std::unique_ptr<CheckpointWriter> writer(const std::vector<int>& nodes) = 0;
  // Every node reads `bytes_per_node` back; on_done(ok) once all have, never before the call
  // returns (ok false when some node could not reach its target).
  virtual void read(const std::vector<int>& nodes, double bytes_per_node, std::function<void(bool ok)> on_done) = 0;
  // The least a synchronous save of `bytes` from `nodes` nodes can stall a job (the targets'
  // drives and cores, a node's queue): what a checkpoint interval is optimised against.
  virtual double write_bound_s(double bytes, int nodes) const = 0;
};

// The owner of the training jobs (the cluster) takes the store and the namespaces while the
// datacenter is built.
class CheckpointStoreHost {
 public:
  virtual ~CheckpointStoreHost() = default;
  virtual void attach_checkpoint_store(CheckpointStore& store) = 0;
  virtual void attach_checkpoint_namespaces(CheckpointNamespaces& namespaces) = 0;
};

// Runs inference replicas as jobs of the cluster: the seam through which the inference subsystem
// gets GPUs. A service job arrives now, waits for its scheduler like any job, holds its GPUs
// (draws their power at the activity it is given) until ended, and is interrupted by faults and
// requeued or given up by the failover policy like any job.
class ServiceJobHost {
 public:
  struct Callbacks {
    std::function<void()> started;      // each time the job starts running (again, after a fault)
    std::function<void()> interrupted;  // a fault or a preemption stopped it
    std::function<void(double)> clock;  // the clock factor of its slowest node, at each start and change
  };
  virtual ~ServiceJobHost() = default;
  // Submits a job named `name` holding `gpus` GPUs (of one node, or whole nodes when more) at
  // queue `priority`; returns its handle.
  virtual std::size_t submit_service_job(const std::string& name, int gpus, int priority, Callbacks callbacks) = 0;
  // The job ends now: completed if running, taken out of the queue if waiting. No callback follows.
  virtual void end_service_job(std::size_t handle) = 0;
  // The mean activity of the job's GPUs (gpu_phase_power.hpp) from now on, while it runs.
  virtual void set_service_job_activity(std::size_t handle, double activity) = 0;
  // The nodes the job holds now (empty while it waits).
  virtual const std::vector<int>& service_job_nodes(std::size_t handle) const = 0;
  // The job's nodes read `bytes` (in all) from the shared store's `pool` (the replica's weights);
  // done() once they have, as an event. A read of data on no OSD up is tried again after the
  // time the nodes' storage NICs would take. Needs the store (CheckpointStore).
  virtual void read_from_store(std::size_t handle, const std::string& pool, double bytes,
                               std::function<void()> done) = 0;
};

// The parts a datacenter simulates; any may be null (that part is not in the scenario).
struct DatacenterParts {
  NodeFaultTarget* nodes = nullptr;
  network::FabricSimulation* fabric = nullptr;
  const network::Topology* topology = nullptr;  // with fabric
  network::FabricSimulation* frontend = nullptr;         // the front-end network, when there is one
  const network::Topology* frontend_topology = nullptr;  // with frontend
  ZoneCoolingTarget* zones = nullptr;
  CheckpointGate* checkpoints = nullptr;  // with a cluster
  ServiceJobHost* service_jobs = nullptr;  // with a cluster
  CheckpointStoreHost* checkpoint_store_host = nullptr;  // with a cluster
};

}  // namespace dcsim::models::datacenter
