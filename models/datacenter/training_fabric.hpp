#pragma once
// Training jobs on a shared, simulated fabric (flow mode): the inter-node data-parallel gradient
// all_reduce of each job runs as flows on the run's FabricSimulation, so that other jobs,
// oversubscription, ECMP collisions and failed links stretch the exposed communication of its
// steps. Compute, TP/PP communication and intra-node (NVLink) parts stay analytic.
//
// Mechanism (measurement rounds). Cluster node i is fabric host i. A round starts, at one
// instant, the DP traffic of ONE step of every attached job: per stage (dp_system.nodes
// consecutive nodes), the pipelined ring of its DP groups as one flow per NIC from each node to
// the next, carrying what the lock-step ring sends over that edge in all its 2(n-1) steps,
//   bytes per flow = groups per node x 2(n-1)/n x S / NICs / network_efficiency
// (S gradient bytes per group, n DP ranks). A job's measurement ends when its last flow does:
//   t_flow = max(NVLink part 2(n-1) x S/n / B_nvlink, last flow - round start) + ring latency
// (the latency terms of flow_collective.hpp), and its DP scale is t_flow / t_ring, t_ring the
// analytic ring (Simple) all_reduce of S on the same system; on an uncongested fabric the scale
// is 1 up to the fabric's route latency. The job's DP collectives (all buckets, and ZeRO's
// all_gather) are then taken as `scale` times their analytic time and re-exposed with the step
// model's overlap rule (dp_exposed_at_scale); its later steps run at that step time.
//
// Approximations, stated: (1) all jobs' all-reduces overlap fully within a round (phases
// aligned: the most contention two synchronous jobs can see); (2) a measured scale holds until
// the set of attached jobs changes (a job starts or ends) or `remeasure_steps` steps of the
// fastest attached job have passed (link failures and background traffic are sampled then);
// (3) buckets are not sent separately: one message of S (the bandwidth term dominates the
// gradient all-reduce); (4) the fabric carries only the sampled rounds' bytes, so network/*
// outputs count rounds, not every step. A failed flow (no path) ends the measurement at its
// failure time.

#include <cstdint>
#include <vector>

#include "models/collective/collective_algorithm.hpp"
#include "models/network/fabric_simulation.hpp"
#include "models/workload/training_step.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::datacenter {

class TrainingJobRun;

class TrainingFabric {
 public:
  static constexpr int kDefaultRemeasureSteps = 100;

  // hosts[i] is the fabric host of cluster node i. All references must outlive this object.
  TrainingFabric(sim::Simulator& sim, network::FabricSimulation& fabric,
                 std::vector<network::NodeId> hosts, const collective::CollectiveRegistry& collectives,
                 int remeasure_steps = kDefaultRemeasureSteps,
                 const collective::CollectiveTuning& tuning = {});
  TrainingFabric(const TrainingFabric&) = delete;
  TrainingFabric& operator=(const TrainingFabric&) = delete;

  // True when `step`'s DP groups span nodes (something to put on the fabric).
  static bool crosses_nodes(const workload::TrainingStepResult& step);
  // A job starts on `nodes` (ascending cluster node indices); `run` and `step` must live until
  // detach. Returns a handle for detach. Starts a round now.
  std::size_t attach(TrainingJobRun& run, const workload::TrainingStepResult& step,
                     const std::vector<int>& nodes);
  // The job ended: its flows in flight finish without it; a round starts for the others.
  void detach(std::size_t handle);

  std::uint64_t rounds() const { return rounds_; }
  std::uint64_t flows_started() const { return flows_; }
  // Last measured DP scale of the job (1 before its first measurement).
  double scale(std::size_t handle) const { return jobs_[handle].scale; }

 private:
  struct Job {
    TrainingJobRun* run = nullptr;  // null once detached
    const workload::TrainingStepResult* step = nullptr;
    std::vector<network::NodeId> hosts;
    double analytic_s = 0.0;  // analytic ring all_reduce of one step's gradients
    double nvlink_s = 0.0;
    double latency_s = 0.0;
    double flow_bytes = 0.0;
    double scale = 1.0;
    std::size_t pending = 0;  // flows of the current round
    sim::Time last;
  };
  void request_round();
  void start_round();
  void on_flow(std::size_t handle, const network::FinishedFlow& f);
  void schedule_next_round();

  sim::Simulator& sim_;
  network::FabricSimulation& fabric_;
  std::vector<network::NodeId> hosts_;
  const collective::CollectiveRegistry& collectives_;
  int remeasure_steps_;
  collective::CollectiveTuning tuning_;  // Simple protocol only, as flow mode
  std::vector<Job> jobs_;
  bool in_round_ = false;
  bool round_requested_ = false;
  std::size_t measuring_ = 0;  // jobs of the current round still measuring
  sim::Time round_start_;
  sim::EventHandle timer_;
  std::uint64_t rounds_ = 0;
  std::uint64_t flows_ = 0;
};

}  // namespace dcsim::models::datacenter
