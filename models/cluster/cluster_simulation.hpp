#pragma once
// The foundation's cluster model: H100 nodes running a job list under a scheduler policy, with
// node power from GPU utilisation and exact energy accounting.
//
// Mechanism: jobs arrive (events), wait in arrival order, and a registered Scheduler places them
// ({job, node ids}, from its NodePool as a read-only ClusterView) whenever nodes free up, a job
// arrives or health changes. A running job holds GPUs on its nodes (whole nodes, or part of one);
// its work is a JobRun (job_run.hpp) whose rate is the slowest clock factor among its nodes
// (1 = nominal), so a throttled node stretches the job in flight. A fault interrupts the jobs on
// a node (set_node_down, crash_jobs_on_node): the work since the last checkpoint is lost and the
// registered FailoverPolicy decides how the job comes back (requeue, resume from the checkpoint,
// resume on hot spares, re-form elastically on fewer data-parallel replicas: elastic_failover.hpp),
// paying a restart cost (cluster_lifecycle.cpp). A precursor's warning (warn_node) drains the
// node and lets the policy move its job off first (precursor_drain.hpp). Node power is
// piecewise constant between events, so energy is integrated exactly as sum(P_i * dt_i).
// A cloud pool (ClusterConfig::cloud_pool, cloud_pool.hpp) adds instances beyond the on-prem
// nodes that exist only while provisioned, draw no on-prem power and may be preempted (spot).
//
// The core is this class, over three files: cluster_simulation.cpp (construction, placement,
// node power, the end of the run), cluster_lifecycle.cpp (a job's runs, interruptions, the
// failover policy's decisions, node health) and cluster_hosts.cpp (what its collaborators ask of
// it). The mechanisms are the collaborators', each testable alone and, where it calls back,
// behind a Host it declares: CloudPool, PrecursorDrain, SilentCorruption, ElasticFailover,
// ServiceJobs (the last three read the jobs as a JobTable, job_table.hpp); NodePool (the nodes,
// free GPUs and running jobs: the scheduler's ClusterView), CheckpointIo (checkpoint writes, and
// the reads restarts owe), PowerMeter, WaitQueue, HotSpares, ClusterTelemetry and the reports
// (job_report.hpp, goodput_report.hpp) are called only. The assembly connects it once
// (ClusterConnections).
//
// Emits (sim::TraceSink):
//   series  power/cluster_w, power/rack/<r>_w (or power/rack_group/<g>_w, or neither:
//           ClusterConfig::racks_per_power_series), jobs/running, jobs/waiting, nodes/busy
//           — step functions: one point per instant at which the value changed, or one per
//           telemetry tick when a telemetry interval is set (cluster_telemetry.hpp, reading the
//           node and rack power of power_meter.hpp);
//   tables  jobs (one row per job, at its end or at the end of the run), summary/jobs (the
//           same for the jobs the scenario names; generated streams can hold 1e5+ jobs),
//           job_states (transitions with their cause: every one of named jobs, the fault-driven
//           ones of generated and trace jobs);
//   summary energy/it_kwh, power/mean_w, power/peak_w, power/peak_rack_w, workload/*, makespan_s,
//           simulated_s, utilization/node_busy_fraction, reliability/*, goodput/*.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/cluster/checkpoint_io.hpp"
#include "models/cluster/cloud_pool.hpp"
#include "models/cluster/cluster_config.hpp"
#include "models/cluster/cluster_telemetry.hpp"
#include "models/cluster/collective_log.hpp"
#include "models/cluster/data_feed.hpp"
#include "models/cluster/elastic_failover.hpp"
#include "models/cluster/goodput_report.hpp"
#include "models/cluster/job_report.hpp"
#include "models/cluster/job_table.hpp"
#include "models/cluster/node_pool.hpp"
#include "models/cluster/power_meter.hpp"
#include "models/cluster/precursor_drain.hpp"
#include "models/cluster/service_jobs.hpp"
#include "models/cluster/silent_corruption.hpp"
#include "models/cluster/wait_queue.hpp"
#include "models/collective/collective_algorithm.hpp"
#include "models/policy/failover_policy.hpp"
#include "models/policy/scheduler.hpp"
#include "models/seams/checkpoint_gate.hpp"
#include "models/seams/checkpoint_store.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/node_clock.hpp"
#include "models/seams/node_conditions.hpp"
#include "models/seams/node_fault_target.hpp"
#include "models/seams/node_power_source.hpp"
#include "sim/activity.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::cluster {

class TrainingFabric;
class TrainingJobRun;
struct ClusterJob;  // one job as the cluster keeps it (cluster_job.hpp, internal to the cluster's files)

// The cluster's job list as its collaborators read it (job_table.hpp).
class ClusterJobs final : public JobTable {
 public:
  explicit ClusterJobs(const std::vector<std::unique_ptr<ClusterJob>>& jobs) : jobs_(jobs) {}
  bool running(std::size_t job) const override;
  bool stepping(std::size_t job) const override;
  const std::vector<int>& nodes(std::size_t job) const override;
  double step_time_s(std::size_t job) const override;
  int clean_checkpoint(std::size_t job, int step) const override;

 private:
  const std::vector<std::unique_ptr<ClusterJob>>& jobs_;
};

// The registries the cluster uses: its scheduler and failover policy by name, and the collective
// algorithms its training jobs' plans are costed with. Converts from any registry hub with these
// members (models::ModelRegistries), so the cluster never sees the others.
struct ClusterRegistries {
  const sim::Registry<policy::SchedulerFactory>& schedulers;
  const sim::Registry<policy::FailoverFactory>& failover_policies;
  const collective::CollectiveRegistry& collective_algorithms;
  template <class Hub>
  ClusterRegistries(const Hub& hub)  // NOLINT(google-explicit-constructor): a view of the hub
      : schedulers(hub.schedulers),
        failover_policies(hub.failover_policies),
        collective_algorithms(hub.collective_algorithms) {}
};

// What the assembly connects the cluster to, once, before start(). None owned; each may be left
// out (tests, benches).
struct ClusterConnections {
  // Job transitions, node health and IT power changes are announced there (datacenter_signals.hpp).
  const seams::DatacenterSignals* signals = nullptr;
  // Fabric group (leaf switch) of every node, for topology-aware placement; empty: all in group 0.
  std::vector<int> fabric_groups{};
  // Flow mode: training jobs run every step (or, ClusterConfig::training_sample_every, a step now
  // and then) as their step graph, with PP and DP traffic as flows on this shared fabric
  // (training_fabric.hpp, step_executor.hpp), the transfers logged in training_collectives
  // (collective_log.hpp). Without it, the analytic step model in segments.
  TrainingFabric* training_fabric = nullptr;
  // The nodes' front-end network (their storage NICs): checkpoints whose config names it go to
  // their store host there as flows (network_write.hpp); those naming the backend go on the
  // training fabric.
  TrainingFabric* frontend_network = nullptr;
  // A facility model's node power (node_power_source.hpp), and the zones, GPU temperatures and
  // rack headroom that placement policies read (node_conditions.hpp).
  seams::NodePowerSource* power_source = nullptr;
  const seams::NodeConditions* node_conditions = nullptr;
};

// The scheduler sees the cluster's NodePool (node_pool.hpp), the read-only policy::ClusterView.
class ClusterSimulation final : public seams::NodeFaultTarget,
                                public seams::CheckpointGate,
                                public seams::CheckpointStoreHost,
                                public seams::NodeClock,
                                private ClusterTelemetry::Source,
                                private CloudPool::Host,
                                private SilentCorruption::Host,
                                private ElasticFailover::Host,
                                private PrecursorDrain::Host,
                                private ServiceJobs::Host {
 public:
  // Validates the config (ConfigError names the field, e.g. "jobs[2].nodes").
  ClusterSimulation(ClusterConfig config, ClusterRegistries registries, sim::Simulator& sim,
                    sim::TraceSink& sink);
  ~ClusterSimulation();
  ClusterSimulation(const ClusterSimulation&) = delete;
  ClusterSimulation& operator=(const ClusterSimulation&) = delete;

  // Once, before start() (ClusterConnections).
  void connect(const ClusterConnections& links);
  // Schedules the job arrivals and the first telemetry tick.
  void start();
  // Closes the energy integration at sim.now(), writes rows for unfinished jobs and the summary.
  void finish();

  // Clock factor of one node's GPUs (1 = nominal, 0 < f <= 1): running jobs on it slow down
  // from now on. The hook through which thermal and power throttling act.
  void set_node_clock_factor(int node, double factor) override;
  // The shared object store (models/seams/checkpoint_store.hpp): jobs whose checkpoint target is the store
  // write through it and read their checkpoint back from it on every restart
  // (checkpoint_io.hpp). Call before start(). Not owned.
  // Jobs that checkpoint into it get their checkpoint interval again, now against what a save
  // into the store costs at least (CheckpointStore::write_bound_s), not their NICs' rate.
  void attach_checkpoint_store(seams::CheckpointStore& store) override;
  void attach_checkpoint_namespaces(seams::CheckpointNamespaces& namespaces) override;
  // The source's power for `node` changed (throttling, fans): integrate to now and re-read it.
  void refresh_node_power(int node) override;
  // Faults (the reliability model's node effects). The node goes down now: every job on it is
  // interrupted (its progress since its last checkpoint is lost) and handed to the failover
  // policy. Up again once every fault holding it down is repaired (set_node_up once per
  // set_node_down): schedulable, or back in the spare pool when the policy keeps one short.
  void set_node_down(int node, const std::string& cause, const seams::RecoveryDelay& recovery = {}) override;
  void set_node_up(int node) override;
  // A job crash on a healthy node (software, NCCL watchdog, silent data corruption): its jobs are
  // interrupted; the node stays usable.
  void crash_jobs_on_node(int node, const std::string& cause, const seams::RecoveryDelay& recovery = {}) override;
  // Silent data corruption (silent_corruption.hpp, cluster_hosts.cpp): each training job
  // stepping on the node runs on corrupted state from now; its loss checks catch it (config
  // sdc_detection: with that probability, that many steps later) and it rolls back to its latest
  // kept checkpoint from before the corruption while the node is quarantined for `quarantine`, or
  // it is never caught and its result is wrong. Batch and service jobs have no loss checks:
  // counted, never caught.
  void corrupt_jobs_on_node(int node, const std::string& cause, sim::Time quarantine) override;
  // A precursor signal (reliability/fault_precursor.hpp) warns of a fault on `node`: it is
  // drained (no new work) until `drain_until`, or until repaired if the fault comes first; each
  // job on it is handed to the failover policy (on_warning), which may checkpoint it at the end
  // of its step in flight and move it to a healthy free node or spare (relaunch + checkpoint
  // reload; with none free it stays, its progress saved). `false_alarm` only counts it
  // (reliability/false_alarms): the cluster acts on both alike. Nodes beyond the cluster are
  // ignored.
  void warn_node(int node, const std::string& cause, sim::Time drain_until, bool false_alarm) override;
  std::optional<reliability::PrecursorConfig> wanted_precursor() const override { return failover_->precursor(); }
  // The nodes as the scheduler sees them (health, drains, spares, free GPUs).
  const policy::ClusterView& nodes() const { return pool_; }

  // CheckpointGate: a held training job stalls at its next checkpoint write (running -> stalled,
  // cause "off-site copy", in job_states; its GPUs idle) until released (stalled -> running); the
  // stall is not useful GPU time (goodput/stalled_gpu_h) and an interruption ends it with the run.
  void hold_checkpoints(std::size_t job) override;
  void release_checkpoints(std::size_t job) override;
  double checkpoint_stall_s() const override { return goodput_.stall_s; }

  // Inference replicas as jobs (service_jobs.hpp): the seam the inference subsystem gets GPUs
  // through.
  seams::ServiceJobHost& service_jobs() { return services_; }

  // True while any job has not finished (not yet arrived, waiting or running).
  bool has_work_left() const override { return finished_ + failed_ < jobs_.size(); }
  // Fraction of jobs finished: progress of an open-ended run.
  double progress_fraction() const {
    return jobs_.empty() ? 1.0 : static_cast<double>(finished_ + failed_) / static_cast<double>(jobs_.size());
  }

  using Job = ClusterJob;

 private:
  void on_arrival(std::size_t job_index) override;  // and ServiceJobs::Host
  void on_completion(std::size_t job_index);
  // Places what fits (shrunk elastic jobs first, then the queue, then the cloud request); marks
  // the series.
  void try_schedule();
  void place_waiting();
  // Lifecycle (cluster_lifecycle.cpp). The transition to running is the job's start_label
  // (elastic re-formations, migrations), by default waiting/requeued -> running.
  void start_job(std::size_t job_index, const std::vector<int>& nodes);
  void begin_run(std::size_t job_index);
  // What the read a restart owed (checkpoint_io.hpp) found (cluster_hosts.cpp): the run begins
  // from scratch when unavailable, or on a corrupted state; true: found corrupt, the job goes
  // back to its checkpoint before, to be read in turn.
  bool on_checkpoint_read(std::size_t job_index, seams::CheckpointRead result);
  // `recovery`: the fault's detection and diagnosis; what is left of them when the job starts again
  // opens its restart delay (start_job), whatever the policy decided.
  void interrupt_job(std::size_t job_index, const std::string& cause, const std::vector<int>& failed_nodes,
                     const seams::RecoveryDelay& recovery = {});
  void enqueue(std::size_t job_index, bool ahead_of_queue, const char* from = "interrupted");
  void preempt_job(std::size_t job_index, const policy::WaitingJob& by, sim::Time relaunch);
  void resume_on_spares(std::size_t job_index, const std::vector<int>& failed_nodes,
                        const std::vector<int>& spares, sim::Time swap_time);
  void close_run_accounts(Job& job);
  // The hold a training run asks before each checkpoint write: true stalls it (cluster_hosts.cpp).
  bool stall_at_checkpoint(std::size_t job_index);
  // Gives the job's GPUs back to the pool (its run stopped or ended).
  void release_nodes(Job& job);
  // Stops the job's run (or its restart delay) and releases its nodes, accounts closed; the
  // caller decides what comes next (requeue, start elsewhere).
  void stop_running(std::size_t job_index);
  // Elastic data parallelism (elastic_failover.hpp): the policy re-forms the job on fewer
  // replicas; `reload`: the state comes from the last checkpoint, which every node reads back.
  void reconfigure_job(std::size_t job_index, const std::vector<int>& failed_nodes, const policy::FailoverDecision& d,
                       bool reload);
  void grow(std::size_t job_index, const std::vector<int>& nodes, const workload::TrainingJobPlan* plan,
            sim::Time delay) override;
  // ServiceJobs::Host: a replica's job and its end.
  std::size_t add_job(workload::JobSpec spec) override;
  void end_job(std::size_t job_index) override;
  // Warnings (precursor_drain.hpp): the node leaves service or comes back; a job moves.
  void set_drained(int node, bool drained) override;
  void save_for_move(std::size_t job_index, const std::string& cause, std::function<void()> saved) override;
  void move(std::size_t job_index, sim::Time relaunch) override;
  void transition(Job& job, const char* from, const char* to, const std::string& cause);
  // Cloud pool (cloud_pool.hpp): its instances are nodes after the on-prem ones.
  void set_instance_provisioned(int node, bool provisioned) override;  // CloudPool::Host
  double interrupt_instance_jobs(int node, const std::string& cause) override;
  void cloud_capacity_changed() override;
  // The job's start delay ends (its work begins, or it stops before): the begin pending is
  // cancelled, the time it held its nodes split into restart and transfer.
  void end_start_delay(Job& job);
  std::shared_ptr<const workload::TrainingJobPlan> plan_with_policy_interval(const workload::JobSpec& spec) const;
  // Silent data corruption (cluster_hosts.cpp): what a catch does to the job (SilentCorruption::Host).
  bool roll_back(std::size_t job_index, int step, const std::string& cause, int node, sim::Time quarantine) override;
  // A restart's resume point: the job's next run resumes at `resume_step` (`resume_s` of its work
  // kept), its latest checkpoint at `checkpoint_step`; a corruption after it is gone, and so are
  // the checkpoints after it.
  void restart_from(Job& job, double resume_s, int resume_step, int checkpoint_step);
  // The node's utilisation from its jobs, and its power from that (or from the power source).
  void update_node_utilization(int node);
  // A running job's GPUs now do something else (a training step's phase mix): its utilisation
  // and its nodes' power follow.
  void set_job_utilization(std::size_t job_index, double utilization) override;
  // Training jobs: the training_work signal for `steps` kept (datacenter_signals.hpp).
  void report_training_work(const Job& job, double steps);
  // ElasticFailover::Host and NodeFaultTarget: the pool's.
  std::span<const int> free_nodes() const override { return pool_.free_nodes(); }
  int node_count() const override { return config_.nodes; }

  ClusterConfig config_;
  sim::Simulator& sim_;
  sim::TraceSink& sink_;
  std::unique_ptr<policy::Scheduler> scheduler_;
  std::unique_ptr<policy::FailoverPolicy> failover_;
  GoodputCounts goodput_;  // interruptions and goodput, reported by goodput_report.hpp
  std::size_t failed_ = 0;  // jobs the failover policy gave up
  // Silent data corruption and its detection: counts, table, summary (made where the tables
  // are declared, in their order).
  std::optional<SilentCorruption> corruption_;
  seams::NodePowerSource* power_source_ = nullptr;  // facility model, when the scenario has one
  TrainingFabric* training_fabric_ = nullptr;  // flow mode, when set
  std::unique_ptr<CollectiveLog> collective_log_;  // flow mode with training jobs
  CheckpointIo checkpoint_io_;  // the store, NVMe-oF namespaces and front end, when the datacenter has them
  const seams::DatacenterSignals* signals_ = nullptr;
  ClusterRegistries registries_;

  ClusterJobs job_table_{jobs_};  // what the collaborators below read of jobs_
  ElasticFailover elastic_;       // before jobs_: their runs refer to its plans
  PrecursorDrain precursor_;
  ServiceJobs services_;
  std::vector<std::unique_ptr<Job>> jobs_;
  WaitQueue waiting_;                      // in the order schedulers see them (wait_queue.hpp)
  NodePool pool_;                          // what the scheduler sees (node_pool.hpp)
  std::unique_ptr<CloudPool> cloud_;       // null without a cloud pool
  power::PhaseActivities gpu_activities_;  // of config_.gpu_phase_power on the node's GPU
  std::size_t finished_ = 0;
  // Node and rack power, energy and peaks; the series that show them (made once the config is
  // validated: power_meter.hpp, cluster_telemetry.hpp).
  std::optional<PowerMeter> power_;
  std::optional<ClusterTelemetry> telemetry_;
  double busy_node_seconds_ = 0.0;

  JobReport job_report_{sink_};  // the jobs, summary/jobs and job_states tables
  bool finished_run_ = false;
};

}  // namespace dcsim::models::cluster
