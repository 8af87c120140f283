#include "models/cluster/step_executor.hpp"

#include <algorithm>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace mw = workload;

StepExecutor::StepExecutor(const mw::StepGraph& graph, TrainingFabric& fabric,
                           const std::vector<int>& nodes, double clock_factor)
    : graph_(graph), fabric_(fabric), sim_(fabric.simulator()), clock_factor_(clock_factor) {
  if (static_cast<int>(nodes.size()) < graph.nodes) {
    throw sim::InternalError("StepExecutor: fewer nodes than the step graph uses (this is a bug)");
  }
  for (int node : nodes) hosts_.push_back(fabric.host(node));
  stage_stream_.resize(static_cast<std::size_t>(graph.stages));
  for (std::uint32_t t = 0; t < graph.tasks.size(); ++t) {
    const mw::StepTask& task = graph.tasks[t];
    if (task.on_stream) stage_stream_[static_cast<std::size_t>(task.stage)].push_back(t);
    for (const mw::StepFlow& f : task.flows) {
      if (f.src_node < 0 || f.src_node >= static_cast<int>(hosts_.size()) || f.dst_node < 0 ||
          f.dst_node >= static_cast<int>(hosts_.size())) {
        throw sim::InternalError("StepExecutor: a flow between nodes the job does not hold (this is a bug)");
      }
    }
  }
  state_.resize(graph.tasks.size());
}

StepExecutor::~StepExecutor() = default;

void StepExecutor::run_step(OnStep on_done) {
  if (running_) throw sim::InternalError("StepExecutor::run_step while a step runs (this is a bug)");
  running_ = true;
  on_done_ = std::move(on_done);
  step_start_ = sim_.now();
  left_ = graph_.tasks.size();
  for (std::uint32_t t = 0; t < state_.size(); ++t) {
    State& s = state_[t];
    s.waiting = static_cast<std::uint32_t>(graph_.tasks[t].deps.size());
    s.activity.reset();
  }
  for (std::uint32_t t = 0; t < state_.size(); ++t) {
    if (state_[t].waiting == 0) start(t);
  }
}

void StepExecutor::set_clock_factor(double factor) {
  if (factor == clock_factor_) return;
  clock_factor_ = factor;
  for (std::uint32_t t : running_compute_) state_[t].activity->set_rate(factor);
}

void StepExecutor::start(std::uint32_t t) {
  const mw::StepTask& task = graph_.tasks[t];
  State& s = state_[t];
  s.start = sim_.now();
  switch (task.kind) {
    case mw::StepTaskKind::kCompute:
      running_compute_.push_back(t);
      s.activity = std::make_unique<sim::Activity>(sim_, task.work_s, clock_factor_,
                                                   [this, t](sim::Activity&) { finish(t); });
      return;
    case mw::StepTaskKind::kNvlink:
      sim_.after(sim::Time::ceil_from_seconds(task.work_s), [this, t] { finish(t); },
                 sim::Priority::kCompletion);
      return;
    case mw::StepTaskKind::kFabric:
      if (task.flows.empty()) {
        sim_.after(sim::Time::ceil_from_seconds(task.nvlink_s) + sim::Time::ceil_from_seconds(task.work_s),
                   [this, t] { finish(t); }, sim::Priority::kCompletion);
        return;
      }
      s.pending_flows = static_cast<std::uint32_t>(task.flows.size());
      s.last_flow = s.start;
      for (const mw::StepFlow& f : task.flows) {
        fabric_.driver().start_flow(hosts_[static_cast<std::size_t>(f.src_node)],
                                    hosts_[static_cast<std::size_t>(f.dst_node)], f.bytes,
                                    [this, t](const network::FinishedFlow& done) { on_flow(t, done); },
                                    f.channel, {});
      }
      return;
  }
}

void StepExecutor::on_flow(std::uint32_t t, const network::FinishedFlow& f) {
  State& s = state_[t];
  if (f.failed) fabric_.count_failed_flow();
  s.last_flow = std::max(s.last_flow, f.finish);
  if (--s.pending_flows > 0) return;
  const mw::StepTask& task = graph_.tasks[t];
  const sim::Time end = std::max(s.start + sim::Time::ceil_from_seconds(task.nvlink_s), s.last_flow) +
                        sim::Time::ceil_from_seconds(task.work_s);
  sim_.at(std::max(end, sim_.now()), [this, t] { finish(t); }, sim::Priority::kCompletion);
}

void StepExecutor::finish(std::uint32_t t) {
  State& s = state_[t];
  s.finish = sim_.now();
  const mw::StepTask& task = graph_.tasks[t];
  if (on_fabric_task_ && task.kind == mw::StepTaskKind::kFabric && !task.flows.empty()) {
    on_fabric_task_(task, s.start, s.finish);
  }
  if (task.kind == mw::StepTaskKind::kCompute) {
    auto it = std::find(running_compute_.begin(), running_compute_.end(), t);
    if (it != running_compute_.end()) {
      *it = running_compute_.back();
      running_compute_.pop_back();
    }
  }
  --left_;
  for (std::uint32_t next : graph_.successors[t]) {
    if (--state_[next].waiting == 0) start(next);
  }
  if (left_ > 0) return;
  running_ = false;
  fabric_.count_step(graph_.fabric_flows);
  const StepMeasurement m = measure();
  OnStep done = std::move(on_done_);
  done(m);
}

StepMeasurement StepExecutor::measure() const {
  StepMeasurement m;
  m.step_s = (sim_.now() - step_start_).seconds();
  // The critical stage: its optimizer ends last (the lowest-numbered on ties).
  std::size_t crit = 0;
  for (std::size_t s = 1; s < graph_.stage_end.size(); ++s) {
    if (state_[graph_.stage_end[s]].finish > state_[graph_.stage_end[crit]].finish) crit = s;
  }
  std::vector<std::uint32_t> stream = stage_stream_[crit];
  std::stable_sort(stream.begin(), stream.end(),
                   [this](std::uint32_t a, std::uint32_t b) { return state_[a].start < state_[b].start; });
  sim::Time cursor = step_start_;
  for (std::uint32_t t : stream) {
    const State& s = state_[t];
    const mw::StepTask& task = graph_.tasks[t];
    const double gap = (s.start - cursor).seconds();
    if (gap > 0.0) {
      // The dependency that arrived last decides what the stream waited for.
      std::uint32_t gate = UINT32_MAX;
      for (std::uint32_t d : task.deps) {
        if (gate == UINT32_MAX || state_[d].finish > state_[gate].finish) gate = d;
      }
      const mw::StepTaskRole role = gate == UINT32_MAX ? mw::StepTaskRole::kForward : graph_.tasks[gate].role;
      if (role == mw::StepTaskRole::kDpGrad || role == mw::StepTaskRole::kDpGather || role == mw::StepTaskRole::kEp) {
        m.exposed_comm_s += gap;
      } else if (role == mw::StepTaskRole::kPp) {
        const double transfer = (state_[gate].finish - state_[gate].start).seconds();
        m.exposed_comm_s += std::min(gap, transfer);
        m.bubble_s += gap - std::min(gap, transfer);
      } else {
        m.bubble_s += gap;
      }
    }
    const double dur = (s.finish - s.start).seconds();
    if (task.role == mw::StepTaskRole::kTp || task.role == mw::StepTaskRole::kEp) {
      m.exposed_comm_s += dur;
    } else {
      m.compute_s += dur;
    }
    cursor = std::max(cursor, s.finish);
  }
  m.ep_s = exposed_ep_s();
  return m;
}

// O(EP tasks x their dependencies) per step; nothing for dense jobs.
double StepExecutor::exposed_ep_s() const {
  if (!graph_.has_ep) return 0.0;
  std::vector<double> per_stage(graph_.stage_end.size(), 0.0);
  for (std::uint32_t t = 0; t < graph_.tasks.size(); ++t) {
    const mw::StepTask& task = graph_.tasks[t];
    if (task.role != mw::StepTaskRole::kEp || !task.on_stream) continue;
    const State& s = state_[t];
    // Its wait for an overlapped all-to-all beyond the stream's previous task.
    sim::Time on_stream = step_start_, latest = step_start_;
    for (std::uint32_t d : task.deps) {
      latest = std::max(latest, state_[d].finish);
      if (graph_.tasks[d].on_stream) on_stream = std::max(on_stream, state_[d].finish);
    }
    const double wait = latest > on_stream ? (latest - on_stream).seconds() : 0.0;
    per_stage[static_cast<std::size_t>(task.stage)] += (s.finish - s.start).seconds() + wait;
  }
  return *std::max_element(per_stage.begin(), per_stage.end());
}

}  // namespace dcsim::models::cluster
