#include "models/workload/step_graph_builder.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "models/hardware/nvlink_domain.hpp"
#include "models/workload/dp_flows.hpp"
#include "models/workload/expert_parallel.hpp"
#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace mc = collective;

StepGraphBuilder::StepGraphBuilder(const TrainingJobConfig& job, const TrainingStepResult& step,
                                   const hardware::NodeSpec& node, const mc::FabricParams& fabric,
                                   const mc::CollectiveRegistry& collectives, const StepGraphOptions& options,
                                   const mc::CollectiveTuning& tuning, ChunkLayout layout, FlowLists lists)
    : job_(job), r_(step), collectives_(collectives), options_(options), tuning_(tuning) {
  build_flows_ = lists == FlowLists::kBuild;
  if (options.max_dp_chunks < 1) {
    throw sim::ConfigError("max_dp_chunks", "must be a positive integer");
  }
  if (options.flows_per_node_pair < 0) {
    throw sim::ConfigError("flows_per_node_pair", "must not be negative");
  }
  // Flow mode puts every transfer between nodes on the fabric's NICs; the NVLink between the
  // trays of an NVL72 rack is not a fabric element yet, so it refuses rather than misplaces them.
  if (hardware::nodes_per_nvlink_domain(node) > 1 && job.nodes > 1) {
    throw sim::ConfigError("node.nvlink_domain_gpus",
                           "flow mode does not model an NVLink domain of " +
                               std::to_string(hardware::nodes_per_nvlink_domain(node)) + " nodes (" +
                               std::to_string(hardware::nvlink_domain(node)) +
                               " GPUs): traffic between its nodes would travel the fabric; run the job in the "
                               "closed form (no /fabric section)");
  }
  p_ = job.parallelism.pp;
  tp_ = job.parallelism.tp;
  cp_ = job.parallelism.cp;
  v_ = std::max(1, step.virtual_stages);
  m_ = std::max(1, step.micro_batches);
  dp_ = step.dp;
  gpus_ = node.gpus;
  z_ = job.parallelism.zero_stage;
  g_.stages = p_;
  g_.micro_batches = m_;
  g_.nodes = job.nodes;
  const int nics = fabric.nics_per_node > 0 ? fabric.nics_per_node : node.compute_nics;
  nics_ = std::max(1, nics);
  const double nic_bps = fabric.nic_bandwidth_bps > 0.0 ? fabric.nic_bandwidth_bps : node.compute_nic_bandwidth_bps;
  per_pair_ = options.flows_per_node_pair > 0 ? options.flows_per_node_pair : std::max(1, nics);
  flow_bytes_per_s_ = nics * nic_bps / 8.0 / per_pair_;
  eff_ = tuning.network_efficiency;
  stage_ranks_ = tp_ * cp_ * dp_;

  // 2 TP all-reduces per layer in the forward, 2 (4 with full recomputation, which repeats the
  // forward's) in the backward.
  tp_forward_share_ = job.recompute == Recompute::kFull ? 2.0 / 6.0 : 0.5;
  p2p_s_ = step.pp_send_s;

  has_dp_ = dp_ > 1 && step.dp_grad_bytes > 0.0;
  gather_ = has_dp_ && job.parallelism.gathers_parameters();
  if (has_dp_ && layout == ChunkLayout::kGrowing) {
    gather_chunks_ = growing_chunks(step.dp_grad_bytes, step.dp_bucket_bytes, options.max_dp_chunks, z_ >= 3);
    grad_chunks_ = gather_chunks_;
  } else if (has_dp_) {
    gather_chunks_ = even_chunks(step.dp_grad_bytes, step.dp_bucket_bytes, options.max_dp_chunks);
    grad_chunks_ = gather_chunks_;
  }
  param_bytes_ = has_dp_ ? step.dp_grad_bytes / job.grad_bytes_per_param * 2.0 : 0.0;

  pp_cross_node_ = stage_ranks_ >= gpus_;
  pp_bytes_per_gpu_ =
      static_cast<double>(job.micro_batch_size) * job.model.seq_len / cp_ * job.model.hidden * 2.0 / tp_;
  plan_expert_all_to_alls(node, fabric);
}

void StepGraphBuilder::plan_expert_all_to_alls(const hardware::NodeSpec& node, const mc::FabricParams& fabric) {
  const int ep = job_.parallelism.ep;
  if (!job_.model.moe.enabled() || ep <= gpus_ || r_.stage_ep_s.empty()) return;  // within a node: TP task
  if (ep % gpus_ != 0 || hardware::nvlink_domain(node) != gpus_) {
    throw sim::ConfigError("parallelism.ep", "flow mode lays an EP group of " + std::to_string(ep) +
                                                 " GPUs on whole nodes of " + std::to_string(gpus_) +
                                                 " GPUs in one NVLink domain: use an ep that is a multiple of " +
                                                 std::to_string(gpus_) + " (or at most " + std::to_string(gpus_) +
                                                 "), or the closed form (no /fabric section)");
  }
  ep_on_fabric_ = true;
  g_.has_ep = true;
  ep_nodes_ = ep / gpus_;
  ep_overlap_ = job_.parallelism.ep_overlap;
  const double load = busiest_gpu_load(job_);
  // A channel carries q = gpus / channels GPUs' copies; channel k is on NIC k mod NICs (a
  // multi-plane NIC's ports take channels k, k + NICs, ...), and the busiest GPU is one of NIC
  // 0's, so its channels carry its load beside q - 1 mean GPUs (q < 1: only its load).
  const double q = static_cast<double>(gpus_) / per_pair_;
  ep_busiest_factor_ = q >= 1.0 ? (q - 1.0 + load) / q : load;
  collective::ExpertAllToAllShape shape = expert_all_to_all_shape(job_, node);
  const double nvlink_bps = node.gpu.nvlink_bandwidth_bytes_per_s;
  const double nic_bps = nic_bytes_per_s_per_gpu(node, fabric);
  const double latency_s = fabric_crossing_s(fabric);
  const auto direction = [&](double element_bytes) {
    shape.element_bytes = element_bytes;
    shape.load = load;
    const mc::ExpertAllToAll busiest = mc::expert_all_to_all(shape, nvlink_bps, nic_bps, latency_s);
    shape.load = 1.0;
    const mc::ExpertAllToAll mean = mc::expert_all_to_all(shape, nvlink_bps, nic_bps, latency_s);
    return EpDirection{mean.nic_bytes, busiest.nvlink_bytes / nvlink_bps, busiest.time_s};
  };
  const double dispatch_bytes = dispatch_element_bytes(job_), bf16 = 2.0;
  // Forward: the dispatch flows into the busiest GPU, the combine out of it. Backward: the
  // combine's gradient in, the dispatch's gradient out; full recomputation repeats the forward.
  ep_[0][0] = direction(dispatch_bytes);
  ep_[0][1] = direction(bf16);
  ep_[1][0] = direction(bf16);
  ep_[1][1] = direction(bf16);
  if (job_.recompute == Recompute::kFull) {
    ep_[1][0] += ep_[0][0];
    ep_[1][1] += ep_[0][1];
  }
}

StepGraph StepGraphBuilder::build() {
  add_stream_passes();
  add_pipeline_sends();
  for (int s = 0; s < p_; ++s) {
    link_received_sends(s);
    const StreamTail tail = chain_stream(s);
    const std::uint32_t nccl = gather_ ? add_parameter_gathers(s, kNone) : kNone;
    const std::uint32_t last_chunk = has_dp_ ? add_gradient_reductions(s, nccl) : kNone;
    add_optimizer(s, tail, last_chunk);
  }
  finish();
  return std::move(g_);
}

// Items indexed by chunk c and micro-batch j: [c m + j]. Megatron's order of each stage
// (pipeline_schedule.hpp) decides which passes carry the DP pieces: the first forward on the
// stream (gathers), the last backward (gradients) and, with ZeRO 3, the first backward.
void StepGraphBuilder::add_stream_passes() {
  fwd_.resize(static_cast<std::size_t>(p_));
  bwd_.resize(static_cast<std::size_t>(p_));
  for (int s = 0; s < p_; ++s) {
    orders_.push_back(stage_order(p_, v_, m_, s));
    const DpPasses marks = dp_passes(s);
    auto& F = fwd_[static_cast<std::size_t>(s)];
    auto& B = bwd_[static_cast<std::size_t>(s)];
    F.resize(static_cast<std::size_t>(v_ * m_));
    B.resize(static_cast<std::size_t>(v_ * m_));
    for (int c = 0; c < v_; ++c) {
      for (int j = 0; j < m_; ++j) {
        const bool is_first_f = c == marks.first_forward.chunk && j == marks.first_forward.micro_batch;
        F[at(c, j)] = add_pass(s, j, true, gather_ && is_first_f ? &gather_chunks_ : nullptr);
      }
    }
    for (int c = 0; c < v_; ++c) {
      for (int j = 0; j < m_; ++j) {
        const bool is_last = c == marks.last_backward.chunk && j == marks.last_backward.micro_batch;
        const bool is_first = c == marks.first_backward.chunk && j == marks.first_backward.micro_batch;
        const std::vector<DpChunk>* parts = !has_dp_              ? nullptr
                                            : is_last             ? &grad_chunks_
                                            : z_ >= 3 && is_first ? &gather_chunks_
                                                                  : nullptr;
        B[at(c, j)] = add_pass(s, j, false, parts);
      }
    }
  }
}

// Chunk c of stage p-1 feeds chunk c+1 of stage 0.
void StepGraphBuilder::add_pipeline_sends() {
  act_.resize(static_cast<std::size_t>(p_));
  grad_.resize(static_cast<std::size_t>(p_));
  for (int s = 0; s < p_; ++s) {
    const auto su = static_cast<std::size_t>(s);
    act_[su].assign(static_cast<std::size_t>(v_ * m_), kNone);
    grad_[su].assign(static_cast<std::size_t>(v_ * m_), kNone);
    for (int c = 0; c < v_; ++c) {
      for (int j = 0; j < m_; ++j) {
        if (s + 1 < p_ || c + 1 < v_) {
          const std::uint32_t t = add_pp_transfer(s, s + 1 < p_ ? s + 1 : 0, j);
          dep(t, fwd_[su][at(c, j)].last);
          act_[su][at(c, j)] = t;
        }
        if (s > 0 || c > 0) {
          const std::uint32_t t = add_pp_transfer(s, s > 0 ? s - 1 : p_ - 1, j);
          dep(t, bwd_[su][at(c, j)].last);
          grad_[su][at(c, j)] = t;
        }
      }
    }
  }
}

void StepGraphBuilder::link_received_sends(int s) {
  const auto su = static_cast<std::size_t>(s);
  for (int c = 0; c < v_; ++c) {
    for (int j = 0; j < m_; ++j) {
      if (s > 0) dep(fwd_[su][at(c, j)].first, act_[su - 1][at(c, j)]);
      if (s == 0 && c > 0) dep(fwd_[su][at(c, j)].first, act_[static_cast<std::size_t>(p_ - 1)][at(c - 1, j)]);
      if (s + 1 < p_) dep(bwd_[su][at(c, j)].first, grad_[su + 1][at(c, j)]);
      if (s == p_ - 1 && c + 1 < v_) dep(bwd_[su][at(c, j)].first, grad_[0][at(c + 1, j)]);
    }
  }
}

// Each pass waits for the previous one and, under 1F1B, its send (blocking); the interleaved
// schedule overlaps a send with the next pass and waits for it one pass later (overlap_p2p_comm).
StepGraphBuilder::StreamTail StepGraphBuilder::chain_stream(int s) {
  const auto su = static_cast<std::size_t>(s);
  std::vector<std::pair<const StreamPass*, std::uint32_t>> order;  // pass, its send
  for (const auto& it : orders_[su]) {
    const std::size_t k = at(it.chunk, it.micro_batch);
    order.push_back(it.forward ? std::make_pair(&fwd_[su][k], act_[su][k])
                               : std::make_pair(&bwd_[su][k], grad_[su][k]));
  }
  StreamTail tail;
  for (const auto& [pass, send] : order) {
    dep(pass->first, tail.last);
    dep(pass->first, v_ == 1 ? tail.send : tail.older_send);
    // Pieces, TP and EP of one pass run back to back.
    for (std::size_t k = 1; k < pass->pieces.size(); ++k) dep(pass->pieces[k], pass->pieces[k - 1]);
    std::uint32_t previous = pass->pieces.back();
    for (const std::uint32_t c : pass->comm) {
      dep(c, previous);
      previous = c;
    }
    // The overlapped all-to-alls start with the pass (what its first piece waits for).
    if (pass->hidden != kNone) g_.tasks[pass->hidden].deps = g_.tasks[pass->first].deps;
    tail.last = pass->last;
    tail.older_send = tail.send;
    tail.send = send;
  }
  return tail;
}

std::uint32_t StepGraphBuilder::add_parameter_gathers(int s, std::uint32_t nccl) {
  const auto su = static_cast<std::size_t>(s);
  const DpPasses marks = dp_passes(s);
  const int passes = z_ >= 3 ? 2 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    const StreamPass& gated = pass == 0 ? fwd_[su][at(marks.first_forward.chunk, marks.first_forward.micro_batch)]
                                        : bwd_[su][at(marks.first_backward.chunk, marks.first_backward.micro_batch)];
    const int c = static_cast<int>(gather_chunks_.size());
    for (int k = 0; k < c; ++k) {
      // Pass 0 gathers in forward order (chunk c-1 first), pass 1 in backward order.
      const auto chunk = static_cast<std::size_t>(pass == 0 ? c - 1 - k : k);
      const double bytes = param_bytes_ * gather_chunks_[chunk].fraction;
      const std::uint32_t t = add_dp_collective(s, mc::CollectiveOp::kAllGather, bytes,
                                                closed_form_s(mc::CollectiveOp::kAllGather, buckets_of(bytes)));
      dep(t, nccl);
      dep(gated.pieces[static_cast<std::size_t>(k)], t);
      nccl = t;
    }
  }
  return nccl;
}

std::uint32_t StepGraphBuilder::add_gradient_reductions(int s, std::uint32_t nccl) {
  const mc::CollectiveOp op =
      job_.parallelism.reduce_scatters_gradients() ? mc::CollectiveOp::kReduceScatter : mc::CollectiveOp::kAllReduce;
  const DpPasses marks = dp_passes(s);
  const StreamPass& last_pass =
      bwd_[static_cast<std::size_t>(s)][at(marks.last_backward.chunk, marks.last_backward.micro_batch)];
  for (std::size_t k = 0; k < grad_chunks_.size(); ++k) {
    const DpChunk& ch = grad_chunks_[k];
    const std::uint32_t t = add_dp_collective(s, op, ch.bytes, closed_form_s(op, ch.buckets));
    dep(t, nccl);
    dep(t, last_pass.pieces[k]);
    nccl = t;
  }
  return nccl;
}

void StepGraphBuilder::add_optimizer(int s, const StreamTail& tail, std::uint32_t last_chunk) {
  StepTask opt;
  opt.kind = StepTaskKind::kCompute;
  opt.role = StepTaskRole::kOptimizer;
  opt.stage = s;
  opt.on_stream = true;
  opt.work_s = r_.optimizer_s;
  const std::uint32_t o = add(std::move(opt));
  dep(o, tail.last);
  dep(o, tail.send);
  dep(o, tail.older_send);
  dep(o, last_chunk);
  g_.stage_end.push_back(o);
}

void StepGraphBuilder::finish() {
  StepGraph& g = g_;
  const std::size_t n = g.tasks.size();
  g.successors.assign(n, {});
  std::vector<std::uint32_t> indegree(n, 0);
  for (std::uint32_t t = 0; t < n; ++t) {
    for (std::uint32_t d : g.tasks[t].deps) {
      g.successors[d].push_back(t);
      ++indegree[t];
    }
    g.fabric_flows += g.tasks[t].flows.size();
  }
  std::vector<std::uint32_t> ready;
  for (std::uint32_t t = 0; t < n; ++t)
    if (indegree[t] == 0) ready.push_back(t);
  std::size_t seen = 0;
  while (!ready.empty()) {
    const std::uint32_t t = ready.back();
    ready.pop_back();
    ++seen;
    for (std::uint32_t s : g.successors[t])
      if (--indegree[s] == 0) ready.push_back(s);
  }
  if (seen != n) throw sim::InternalError("build_step_graph: the step graph has a cycle (this is a bug)");
}

std::uint32_t StepGraphBuilder::add(StepTask t) {
  g_.tasks.push_back(std::move(t));
  return static_cast<std::uint32_t>(g_.tasks.size() - 1);
}

void StepGraphBuilder::dep(std::uint32_t task, std::uint32_t on) {
  if (task != kNone && on != kNone) g_.tasks[task].deps.push_back(on);
}

// Backward pieces produce chunks 0 .. c-1 (gradient order); forward pieces consume them in the
// opposite (layer) order, c-1 .. 0.
StepGraphBuilder::StreamPass StepGraphBuilder::add_pass(int s, int j, bool forward, const std::vector<DpChunk>* parts) {
  StreamPass pass;
  const int pieces = parts != nullptr ? static_cast<int>(parts->size()) : 1;
  // A stage's v chunks take equal shares of its time (as the step model).
  const auto su = static_cast<std::size_t>(s);
  const double total = (forward ? r_.stage_forward_s[su] : r_.stage_backward_s[su]) / v_;
  for (int k = 0; k < pieces; ++k) {
    const auto chunk = static_cast<std::size_t>(forward ? pieces - 1 - k : k);
    StepTask t;
    t.kind = StepTaskKind::kCompute;
    t.role = forward ? StepTaskRole::kForward : StepTaskRole::kBackward;
    t.stage = s;
    t.micro_batch = j;
    t.on_stream = true;
    t.work_s = pieces > 1 ? total * (*parts)[chunk].fraction : total;
    pass.pieces.push_back(add(std::move(t)));
  }
  pass.first = pass.pieces.front();
  pass.last = pass.pieces.back();
  const double tp_s = tp_comm_s(s, forward);
  if (tp_s > 0.0) {
    StepTask t;
    t.kind = StepTaskKind::kNvlink;
    t.role = StepTaskRole::kTp;
    t.stage = s;
    t.micro_batch = j;
    t.on_stream = true;
    t.work_s = tp_s;
    t.ideal_s = tp_s;
    pass.last = add(std::move(t));
    pass.comm.push_back(pass.last);
  }
  if (ep_on_fabric_ && r_.stage_moe_layers[su] > 0) add_ep_tasks(pass, s, j, forward);
  return pass;
}

void StepGraphBuilder::add_ep_tasks(StreamPass& pass, int s, int j, bool forward) {
  // A chunk's share of the stage's MoE layers, as its compute (add_pass).
  const double layers = static_cast<double>(r_.stage_moe_layers[static_cast<std::size_t>(s)]) / v_;
  const EpDirection& in = ep_[forward ? 0 : 1][0];
  const EpDirection& out = ep_[forward ? 0 : 1][1];
  std::uint32_t hidden_out = kNone;
  if (ep_overlap_ > 0.0) {
    pass.hidden = add_ep_task(s, j, in, layers, ep_overlap_, true, false);
    hidden_out = add_ep_task(s, j, out, layers, ep_overlap_, false, false);
    dep(hidden_out, pass.hidden);
  }
  const std::uint32_t exposed_in = add_ep_task(s, j, in, layers, 1.0 - ep_overlap_, true, true);
  const std::uint32_t exposed_out = add_ep_task(s, j, out, layers, 1.0 - ep_overlap_, false, true);
  // What the pass's compute did not hide of the overlapped share is exposed here.
  dep(exposed_in, hidden_out);
  pass.comm.push_back(exposed_in);
  pass.comm.push_back(exposed_out);
  pass.last = exposed_out;
}

std::uint32_t StepGraphBuilder::add_ep_task(int s, int j, const EpDirection& d, double layers, double share,
                                            bool into_busiest, bool on_stream) {
  StepTask t;
  t.role = StepTaskRole::kEp;
  t.stage = s;
  t.micro_batch = j;
  t.on_stream = on_stream;
  const double closed_s = layers * share * d.closed_s;
  const double gpu_bytes = layers * share * d.nic_bytes;  // a mean GPU's, over the other N - 1 nodes
  if (gpu_bytes <= 0.0) {
    // Nothing left exposed (ep_overlap 1): a join on the stream.
    t.kind = StepTaskKind::kNvlink;
    t.work_s = closed_s;
    t.ideal_s = closed_s;
    return add(std::move(t));
  }
  t.kind = StepTaskKind::kFabric;
  t.nvlink_s = layers * share * d.nvlink_s;
  const int n = ep_nodes_;
  // Channel k of node a carries its GPUs' copies for node b on rail k: q GPUs x bytes / (N - 1).
  const double flow = static_cast<double>(gpus_) / per_pair_ * gpu_bytes / (n - 1);
  const double busiest = flow * ep_busiest_factor_;
  if (build_flows_) {
    const int groups = stage_ranks_ / job_.parallelism.ep;
    t.flows.reserve(static_cast<std::size_t>(groups) * n * (n - 1) * per_pair_);
    for (int e = 0; e < groups; ++e) {
      const int first = stage_first_node(s) + e * n;
      for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
          if (a == b) continue;
          // Into the busiest GPU: its node's NIC 0 channels receive; out of it: send.
          const bool hot = (into_busiest ? b : a) == 0;
          for (int k = 0; k < per_pair_; ++k) {
            const bool busiest_channel = hot && k % nics_ == 0;
            t.flows.push_back({first + a, first + b, busiest_channel ? busiest : flow, k});
          }
        }
      }
    }
  }
  // At line rate the busiest GPU's channel sets the time (it sends or receives N - 1 flows).
  const double bandwidth_s = std::max(t.nvlink_s, (n - 1) * busiest / flow_bytes_per_s_);
  t.work_s = std::max(0.0, closed_s - bandwidth_s);
  t.ideal_s = bandwidth_s + t.work_s;
  return add(std::move(t));
}

std::uint32_t StepGraphBuilder::add_pp_transfer(int from, int to, int j) {
  StepTask t;
  t.role = StepTaskRole::kPp;
  t.stage = from;
  t.micro_batch = j;
  if (!pp_cross_node_) {
    t.kind = StepTaskKind::kNvlink;
    t.work_s = p2p_s_;
    t.ideal_s = p2p_s_;
    return add(std::move(t));
  }
  t.kind = StepTaskKind::kFabric;
  std::vector<std::pair<std::pair<int, int>, double>> pairs;
  for (int i = 0; i < stage_ranks_; ++i) {
    const int src = (from * stage_ranks_ + i) / gpus_, dst = (to * stage_ranks_ + i) / gpus_;
    if (!pairs.empty() && pairs.back().first == std::make_pair(src, dst)) {
      pairs.back().second += pp_bytes_per_gpu_;
    } else {
      pairs.push_back({{src, dst}, pp_bytes_per_gpu_});
    }
  }
  double bandwidth_s = 0.0;
  for (const auto& [nodes_pair, bytes] : pairs) {
    const double flow = bytes / per_pair_ / eff_;
    for (int k = 0; build_flows_ && k < per_pair_; ++k)
      t.flows.push_back({nodes_pair.first, nodes_pair.second, flow, k});
    bandwidth_s = std::max(bandwidth_s, flow / flow_bytes_per_s_);
  }
  t.work_s = std::max(0.0, p2p_s_ - bandwidth_s);
  t.ideal_s = bandwidth_s + t.work_s;
  return add(std::move(t));
}

std::uint32_t StepGraphBuilder::add_dp_collective(int s, mc::CollectiveOp op, double bytes, double closed_s) {
  const mc::CollectiveSystem& dps = r_.dp_system;
  StepTask t;
  t.role = op == mc::CollectiveOp::kAllGather ? StepTaskRole::kDpGather : StepTaskRole::kDpGrad;
  t.stage = s;
  const int n = dps.ranks();
  const int ring = dps.nodes;
  if (ring <= 1) {
    t.kind = StepTaskKind::kNvlink;
    t.work_s = closed_s;
    t.ideal_s = closed_s;
    return add(std::move(t));
  }
  // The pattern of the algorithm the collective model picks for a bucket (dp_flows.hpp): the
  // double binary tree for a tree all-reduce, else the ring (hierarchical's network phase is
  // a ring per rail between the same neighbours).
  const std::string algorithm =
      mc::estimate_collective(collectives_, op, std::min(bytes, r_.dp_bucket_bytes), dps, tuning_,
                              op == mc::CollectiveOp::kAllGather ? "auto" : job_.dp_algorithm)
          .algorithm;
  const bool tree = op == mc::CollectiveOp::kAllReduce && algorithm == "tree";
  const int steps = op == mc::CollectiveOp::kAllReduce ? 2 * (n - 1) : n - 1;
  // The tree runs at its bandwidth factor (Simple protocol), on the wire and on the NVLink
  // chain, as flow_collective.hpp runs it.
  const double tree_factor =
      tuning_.tree_bw_factor * tuning_.tree_protocol_bw_factor[static_cast<int>(mc::Protocol::kSimple)];
  const double wire_factor = tree ? tree_factor : 1.0;
  // Payload one GPU moves over NVLink and the transfers between the group's nodes.
  const double edge = tree ? 2.0 * bytes / tree_factor : steps * (bytes / n);
  const std::vector<NodeTransfer> transfers =
      tree ? double_tree_transfers(ring, bytes / 2.0) : ring_transfers(ring, steps * (bytes / n));
  t.kind = StepTaskKind::kFabric;
  t.nvlink_s = dps.gpus_per_node > 1 ? edge / mc::nvlink_bandwidth(dps, tuning_) : 0.0;
  const int first = stage_first_node(s);
  const int span = std::max(ring, stage_ranks_ / gpus_);
  std::vector<double> sent(static_cast<std::size_t>(ring), 0.0);
  for (const NodeTransfer& x : transfers) sent[static_cast<std::size_t>(x.src)] += x.bytes;
  if (build_flows_) t.flows.reserve(static_cast<std::size_t>(span / ring) * transfers.size() * per_pair_);
  for (int base = 0; build_flows_ && base + ring <= span; base += ring) {
    for (const NodeTransfer& x : transfers) {
      const double flow = r_.dp_groups_per_node * x.bytes / per_pair_ / (eff_ * wire_factor);
      for (int k = 0; k < per_pair_; ++k) t.flows.push_back({first + base + x.src, first + base + x.dst, flow, k});
    }
  }
  // At line rate the busiest sender sets the time (every node's flows spread over its NICs).
  const double busiest = *std::max_element(sent.begin(), sent.end());
  const double bandwidth_s =
      std::max(t.nvlink_s, r_.dp_groups_per_node * busiest / per_pair_ / (eff_ * wire_factor) / flow_bytes_per_s_);
  t.work_s = std::max(0.0, closed_s - bandwidth_s);
  t.ideal_s = bandwidth_s + t.work_s;
  return add(std::move(t));
}

double StepGraphBuilder::tp_comm_s(int s, bool forward) const {
  const auto su = static_cast<std::size_t>(s);
  // The EP all-to-alls leave the TP task when they run on the fabric (add_ep_tasks).
  const double per_chunk = (r_.stage_comm_s[su] - (ep_on_fabric_ ? r_.stage_ep_s[su] : 0.0)) / v_;
  return forward ? per_chunk * tp_forward_share_ : per_chunk * (1.0 - tp_forward_share_);
}

double StepGraphBuilder::closed_form_s(mc::CollectiveOp op, const std::vector<double>& sizes) const {
  double t = 0.0;
  for (double s : sizes) {
    t += mc::estimate_collective(collectives_, op, s, r_.dp_system, tuning_,
                                 op == mc::CollectiveOp::kAllGather ? "auto" : job_.dp_algorithm)
             .time_s;
  }
  return t;
}

std::vector<double> StepGraphBuilder::buckets_of(double bytes) const {
  std::vector<double> out;
  const double full = std::floor(bytes / r_.dp_bucket_bytes);
  for (double i = 0; i < full; ++i) out.push_back(r_.dp_bucket_bytes);
  if (bytes - full * r_.dp_bucket_bytes > 0.0) out.push_back(bytes - full * r_.dp_bucket_bytes);
  return out;
}

StepGraphBuilder::DpPasses StepGraphBuilder::dp_passes(int s) const {
  const auto& order = orders_[static_cast<std::size_t>(s)];
  DpPasses marks{order.front(), order.back(), ScheduleItem{}};
  for (const auto& it : order) {
    if (!it.forward) {
      marks.first_backward = it;
      break;
    }
  }
  return marks;
}

}  // namespace dcsim::models::workload
