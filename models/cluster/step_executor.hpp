#pragma once
// StepExecutor: runs a training job's step graph (models/workload/step_graph.hpp) on the
// Simulator, one step at a time, with its fabric tasks as flows on a shared TrainingFabric.
//
// A task starts when its last dependency ends (tasks that become ready at one instant start in
// graph order: deterministic). Kinds:
//   compute  a sim::Activity of work_s seconds-at-clock-1 at rate = the job's clock factor, so a
//            throttle in flight stretches exactly the compute that remains by the clock ratio;
//   nvlink   a fixed duration (links do not throttle with the SMs);
//   fabric   its flows all start at once; the task ends at
//            max(start + nvlink_s, last flow's finish) + work_s (the fixed, latency part).
//            A flow that fails (no path) counts as ended at its failure time.
//
// Breakdown of each executed step, on the critical stage (the one whose optimizer ends last; it
// spans the whole step, so the three parts add up to the step time exactly):
//   compute_s       time its stream spends in forward, backward and optimizer tasks
//   exposed_comm_s  its TP and EP tasks, plus every gap in its stream whose last-arriving
//                   dependency is communication: all of the gap for its own DP collectives
//                   (all_gather gating a forward, gradient chunks gating the optimizer) and
//                   overlapped EP all-to-alls that outlast the pass, and up to the
//                   transfer's own duration for a pipeline transfer (sent or received)
//   bubble_s        the rest: waiting on other stages' compute (the 1F1B bubble)
//   ep_s            (not a part of the three) the most exposed EP time of any stage: the
//                   critical stage is often the first, which holds a MoE model's dense layers
// An approximation of attribution only (the step time itself is the graph's), which reproduces
// the step model's split on an ideal network up to the PP send accounting.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/cluster/training_fabric.hpp"
#include "models/workload/step_graph.hpp"
#include "sim/activity.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::cluster {

struct StepMeasurement {
  double step_s = 0.0;
  double compute_s = 0.0;
  double exposed_comm_s = 0.0;
  double bubble_s = 0.0;
  // MoE (issue 41): the stage with the most exposed EP all-to-all time (its on-stream EP tasks
  // and its waits for overlapped ones that outlast the pass's compute); 0 for dense jobs.
  double ep_s = 0.0;
};

class StepExecutor {
 public:
  using OnStep = std::function<void(const StepMeasurement&)>;

  // `nodes[i]` is the cluster node of the job's node i (fabric host fabric.host(nodes[i])).
  // graph and fabric must outlive this object.
  StepExecutor(const workload::StepGraph& graph, TrainingFabric& fabric, const std::vector<int>& nodes,
               double clock_factor);
  ~StepExecutor();
  StepExecutor(const StepExecutor&) = delete;
  StepExecutor& operator=(const StepExecutor&) = delete;

  // Starts one step now; on_done runs at its end. One step at a time (InternalError otherwise).
  void run_step(OnStep on_done);
  bool running() const { return running_; }
  // Compute tasks in flight and later ones run at `factor` from now on.
  void set_clock_factor(double factor);
  // Called as each fabric task with flows (a collective or pipeline transfer on the fabric)
  // ends: the task, its start and its end (collective_log.hpp).
  using OnFabricTask = std::function<void(const workload::StepTask&, sim::Time start, sim::Time end)>;
  void set_on_fabric_task(OnFabricTask f) { on_fabric_task_ = std::move(f); }
  // Start of the step in flight (meaningful while running()).
  sim::Time step_start() const { return step_start_; }
  // The fabric's link, switch and port state changes so far (FlowNetwork::state_changes).
  std::uint64_t fabric_changes() const { return fabric_.driver().state_changes(); }

 private:
  struct State {
    std::uint32_t waiting = 0;  // dependencies not yet done
    std::uint32_t pending_flows = 0;
    sim::Time start;
    sim::Time finish;
    sim::Time last_flow;
    std::unique_ptr<sim::Activity> activity;  // compute
  };
  void start(std::uint32_t task);
  void finish(std::uint32_t task);
  void on_flow(std::uint32_t task, const network::FinishedFlow& f);
  StepMeasurement measure() const;
  double exposed_ep_s() const;

  const workload::StepGraph& graph_;
  TrainingFabric& fabric_;
  sim::Simulator& sim_;
  std::vector<network::NodeId> hosts_;  // per job node
  std::vector<std::vector<std::uint32_t>> stage_stream_;  // on-stream tasks per stage
  std::vector<State> state_;
  std::vector<std::uint32_t> running_compute_;
  double clock_factor_ = 1.0;
  bool running_ = false;
  std::size_t left_ = 0;  // tasks of the step not yet done
  sim::Time step_start_;
  OnStep on_done_;
  OnFabricTask on_fabric_task_;
};

}  // namespace dcsim::models::cluster
