#include "models/workload/step_graph.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "models/workload/dp_chunks.hpp"
#include "models/workload/dp_flows.hpp"
#include "models/workload/pipeline_schedule.hpp"
#include "sim/error.hpp"

namespace dcsim::models::workload {

namespace {

namespace mc = collective;

constexpr std::uint32_t kNone = UINT32_MAX;

struct Builder {
  StepGraph& g;

  std::uint32_t add(StepTask t) {
    g.tasks.push_back(std::move(t));
    return static_cast<std::uint32_t>(g.tasks.size() - 1);
  }
  void dep(std::uint32_t task, std::uint32_t on) {
    if (task != kNone && on != kNone) g.tasks[task].deps.push_back(on);
  }
};

// How buckets coalesce into chunks when there are more than max_dp_chunks (make the choice in
// build_step_graph below).
enum class ChunkLayout { kGrowing, kEven };
// Whether fabric tasks carry their flows, or only the closed-form times critical_path_s reads
// (the graphs that only choose the layout: a flow list per bucket grows with the DP ring, and at
// 32k GPUs was a third of a flow-mode step's wall time).
enum class FlowLists { kBuild, kTimesOnly };

StepGraph build_with_layout(const TrainingJobConfig& job, const TrainingStepResult& r,
                            const hardware::NodeSpec& node, const mc::FabricParams& fabric,
                            const mc::CollectiveRegistry& collectives, const StepGraphOptions& options,
                            const mc::CollectiveTuning& tuning, ChunkLayout layout, FlowLists lists) {
  const bool build_flows = lists == FlowLists::kBuild;
  if (options.max_dp_chunks < 1) {
    throw sim::ConfigError("max_dp_chunks", "must be a positive integer");
  }
  if (options.flows_per_node_pair < 0) {
    throw sim::ConfigError("flows_per_node_pair", "must not be negative");
  }
  StepGraph g;
  Builder b{g};
  const int p = job.parallelism.pp;
  const int tp = job.parallelism.tp;
  const int cp = job.parallelism.cp;
  const int v = std::max(1, r.virtual_stages);
  const int m = std::max(1, r.micro_batches);
  const int dp = r.dp;
  const int gpus = node.gpus;
  const int z = job.parallelism.zero_stage;
  g.stages = p;
  g.micro_batches = m;
  g.nodes = job.nodes;
  const int nics = fabric.nics_per_node > 0 ? fabric.nics_per_node : node.compute_nics;
  const double nic_bps =
      fabric.nic_bandwidth_bps > 0.0 ? fabric.nic_bandwidth_bps : node.compute_nic_bandwidth_bps;
  const int per_pair = options.flows_per_node_pair > 0 ? options.flows_per_node_pair : std::max(1, nics);
  // Line rate of one flow when a node's flows of a transfer spread evenly over its NICs.
  const double flow_bytes_per_s = nics * nic_bps / 8.0 / per_pair;
  const double eff = tuning.network_efficiency;
  const int stage_ranks = tp * cp * dp;

  // Per-chunk exposed TP (+ CP ring) time of stage s: 2 all-reduces per layer in the forward,
  // 2 (4 with full recomputation, which repeats the forward's) in the backward.
  const double tp_fwd_share = job.recompute == Recompute::kFull ? 2.0 / 6.0 : 0.5;
  auto comm_of = [&](int s, bool forward) {
    const double per_chunk = r.stage_comm_s[static_cast<std::size_t>(s)] / v;
    return forward ? per_chunk * tp_fwd_share : per_chunk * (1.0 - tp_fwd_share);
  };
  const double p2p_s = r.pp_send_s;

  // DP chunks (parameter fractions) and the collectives on them.
  const bool has_dp = dp > 1 && r.dp_grad_bytes > 0.0;
  const bool gather = has_dp && job.parallelism.gathers_parameters();
  const mc::CollectiveSystem& dps = r.dp_system;
  // Gradient chunks (the last backward's pieces) and gather chunks (the first forward's pieces,
  // and ZeRO 3's first backward): one partition of the stage's parameters serves both.
  std::vector<DpChunk> gather_chunks, grad_chunks;
  if (has_dp && layout == ChunkLayout::kGrowing) {
    gather_chunks = growing_chunks(r.dp_grad_bytes, r.dp_bucket_bytes, options.max_dp_chunks, z >= 3);
    grad_chunks = gather_chunks;
  } else if (has_dp) {
    gather_chunks = even_chunks(r.dp_grad_bytes, r.dp_bucket_bytes, options.max_dp_chunks);
    grad_chunks = gather_chunks;
  }
  const double param_bytes = has_dp ? r.dp_grad_bytes / job.grad_bytes_per_param * 2.0 : 0.0;

  auto analytic = [&](mc::CollectiveOp op, const std::vector<double>& sizes) {
    double t = 0.0;
    for (double s : sizes) {
      t += mc::estimate_collective(collectives, op, s, dps, tuning,
                                   op == mc::CollectiveOp::kAllGather ? "auto" : job.dp_algorithm)
               .time_s;
    }
    return t;
  };
  // Sizes of the buckets of `bytes` split by bucket_bytes (the all_gather's own buckets).
  auto buckets_of = [&](double bytes) {
    std::vector<double> out;
    const double full = std::floor(bytes / r.dp_bucket_bytes);
    for (double i = 0; i < full; ++i) out.push_back(r.dp_bucket_bytes);
    if (bytes - full * r.dp_bucket_bytes > 0.0) out.push_back(bytes - full * r.dp_bucket_bytes);
    return out;
  };
  // Node of the first rank of stage s (Megatron tp-dp-pp order: stages are rank blocks).
  auto stage_first_node = [&](int s) { return s * stage_ranks / gpus; };

  auto dp_collective = [&](int s, mc::CollectiveOp op, double bytes, double closed_s) {
    StepTask t;
    t.role = op == mc::CollectiveOp::kAllGather ? StepTaskRole::kDpGather : StepTaskRole::kDpGrad;
    t.stage = s;
    const int n = dps.ranks();
    const int ring = dps.nodes;
    if (ring <= 1) {
      t.kind = StepTaskKind::kNvlink;
      t.work_s = closed_s;
      t.ideal_s = closed_s;
      return b.add(std::move(t));
    }
    // The pattern of the algorithm the collective model picks for a bucket (dp_flows.hpp): the
    // double binary tree for a tree all-reduce, else the ring (hierarchical's network phase is
    // a ring per rail between the same neighbours).
    const std::string algorithm =
        mc::estimate_collective(collectives, op, std::min(bytes, r.dp_bucket_bytes), dps, tuning,
                                op == mc::CollectiveOp::kAllGather ? "auto" : job.dp_algorithm)
            .algorithm;
    const bool tree = op == mc::CollectiveOp::kAllReduce && algorithm == "tree";
    const int steps = op == mc::CollectiveOp::kAllReduce ? 2 * (n - 1) : n - 1;
    // The tree runs at its bandwidth factor (Simple protocol), on the wire and on the NVLink
    // chain, as flow_collective.hpp runs it.
    const double tree_factor = tuning.tree_bw_factor * tuning.tree_protocol_bw_factor[static_cast<int>(mc::Protocol::kSimple)];
    const double wire_factor = tree ? tree_factor : 1.0;
    // Payload one GPU moves over NVLink and the transfers between the group's nodes.
    const double edge = tree ? 2.0 * bytes / tree_factor : steps * (bytes / n);
    const std::vector<NodeTransfer> transfers = tree ? double_tree_transfers(ring, bytes / 2.0)
                                                     : ring_transfers(ring, steps * (bytes / n));
    t.kind = StepTaskKind::kFabric;
    t.nvlink_s = dps.gpus_per_node > 1 ? edge / mc::nvlink_bandwidth(dps, tuning) : 0.0;
    const int first = stage_first_node(s);
    const int span = std::max(ring, stage_ranks / gpus);
    std::vector<double> sent(static_cast<std::size_t>(ring), 0.0);
    for (const NodeTransfer& x : transfers) sent[static_cast<std::size_t>(x.src)] += x.bytes;
    if (build_flows) t.flows.reserve(static_cast<std::size_t>(span / ring) * transfers.size() * per_pair);
    for (int base = 0; build_flows && base + ring <= span; base += ring) {
      for (const NodeTransfer& x : transfers) {
        const double flow = r.dp_groups_per_node * x.bytes / per_pair / (eff * wire_factor);
        for (int k = 0; k < per_pair; ++k) t.flows.push_back({first + base + x.src, first + base + x.dst, flow, k});
      }
    }
    // At line rate the busiest sender sets the time (every node's flows spread over its NICs).
    const double busiest = *std::max_element(sent.begin(), sent.end());
    const double bandwidth_s =
        std::max(t.nvlink_s, r.dp_groups_per_node * busiest / per_pair / (eff * wire_factor) / flow_bytes_per_s);
    t.work_s = std::max(0.0, closed_s - bandwidth_s);
    t.ideal_s = bandwidth_s + t.work_s;
    return b.add(std::move(t));
  };

  // A pipeline transfer from stage `from` to stage `to` (rank i to rank i).
  const bool pp_cross_node = stage_ranks >= gpus;
  const double pp_bytes_per_gpu =
      static_cast<double>(job.micro_batch_size) * job.model.seq_len / cp * job.model.hidden * 2.0 / tp;
  auto pp_transfer = [&](int from, int to, int j) {
    StepTask t;
    t.role = StepTaskRole::kPp;
    t.stage = from;
    t.micro_batch = j;
    if (!pp_cross_node) {
      t.kind = StepTaskKind::kNvlink;
      t.work_s = p2p_s;
      t.ideal_s = p2p_s;
      return b.add(std::move(t));
    }
    t.kind = StepTaskKind::kFabric;
    std::vector<std::pair<std::pair<int, int>, double>> pairs;
    for (int i = 0; i < stage_ranks; ++i) {
      const int src = (from * stage_ranks + i) / gpus, dst = (to * stage_ranks + i) / gpus;
      if (!pairs.empty() && pairs.back().first == std::make_pair(src, dst)) {
        pairs.back().second += pp_bytes_per_gpu;
      } else {
        pairs.push_back({{src, dst}, pp_bytes_per_gpu});
      }
    }
    double bandwidth_s = 0.0;
    for (const auto& [nodes_pair, bytes] : pairs) {
      const double flow = bytes / per_pair / eff;
      for (int k = 0; build_flows && k < per_pair; ++k) t.flows.push_back({nodes_pair.first, nodes_pair.second, flow, k});
      bandwidth_s = std::max(bandwidth_s, flow / flow_bytes_per_s);
    }
    t.work_s = std::max(0.0, p2p_s - bandwidth_s);
    t.ideal_s = bandwidth_s + t.work_s;
    return b.add(std::move(t));
  };

  // Per stage: the stream in 1F1B order, each element with the send its successor waits for.
  struct StreamItem {
    std::uint32_t first = kNone;  // first task (a received transfer gates it)
    std::uint32_t last = kNone;   // last task (compute or its TP)
    std::vector<std::uint32_t> pieces;
  };
  std::vector<std::vector<StreamItem>> fwd(static_cast<std::size_t>(p)), bwd(static_cast<std::size_t>(p));
  std::vector<std::vector<std::uint32_t>> stream(static_cast<std::size_t>(p));

  // Backward pieces produce chunks 0 .. c-1 (gradient order); forward pieces consume them in
  // the opposite (layer) order, c-1 .. 0.
  auto compute_item = [&](int s, int j, bool forward, const std::vector<DpChunk>* parts) {
    StreamItem item;
    const int pieces = parts != nullptr ? static_cast<int>(parts->size()) : 1;
    // A stage's v chunks take equal shares of its time (as the step model).
    const auto su = static_cast<std::size_t>(s);
    const double total = (forward ? r.stage_forward_s[su] : r.stage_backward_s[su]) / v;
    for (int k = 0; k < pieces; ++k) {
      const auto chunk = static_cast<std::size_t>(forward ? pieces - 1 - k : k);
      StepTask t;
      t.kind = StepTaskKind::kCompute;
      t.role = forward ? StepTaskRole::kForward : StepTaskRole::kBackward;
      t.stage = s;
      t.micro_batch = j;
      t.on_stream = true;
      t.work_s = pieces > 1 ? total * (*parts)[chunk].fraction : total;
      item.pieces.push_back(b.add(std::move(t)));
    }
    item.first = item.pieces.front();
    item.last = item.pieces.back();
    const double tp_s = comm_of(s, forward);
    if (tp_s > 0.0) {
      StepTask t;
      t.kind = StepTaskKind::kNvlink;
      t.role = StepTaskRole::kTp;
      t.stage = s;
      t.micro_batch = j;
      t.on_stream = true;
      t.work_s = tp_s;
      t.ideal_s = tp_s;
      item.last = b.add(std::move(t));
    }
    return item;
  };

  // Items indexed by chunk c and micro-batch j: [c m + j]. Megatron's order of each stage
  // (pipeline_schedule.hpp) decides which items carry the DP pieces: the first forward on the
  // stream (gathers), the last backward (gradients) and, with ZeRO 3, the first backward.
  std::vector<std::vector<ScheduleItem>> orders;
  auto at = [m](int c, int j) { return static_cast<std::size_t>(c * m + j); };
  for (int s = 0; s < p; ++s) {
    orders.push_back(stage_order(p, v, m, s));
    const auto& order = orders.back();
    const ScheduleItem first_f = order.front();
    const ScheduleItem last_b = order.back();
    ScheduleItem first_b{};
    for (const auto& it : order) {
      if (!it.forward) { first_b = it; break; }
    }
    auto& F = fwd[static_cast<std::size_t>(s)];
    auto& B = bwd[static_cast<std::size_t>(s)];
    F.resize(static_cast<std::size_t>(v * m));
    B.resize(static_cast<std::size_t>(v * m));
    for (int c = 0; c < v; ++c) {
      for (int j = 0; j < m; ++j) {
        const bool is_first_f = c == first_f.chunk && j == first_f.micro_batch;
        F[at(c, j)] = compute_item(s, j, true, gather && is_first_f ? &gather_chunks : nullptr);
      }
    }
    for (int c = 0; c < v; ++c) {
      for (int j = 0; j < m; ++j) {
        const bool is_last = c == last_b.chunk && j == last_b.micro_batch;
        const bool is_first = c == first_b.chunk && j == first_b.micro_batch;
        const std::vector<DpChunk>* parts = !has_dp ? nullptr
                                          : is_last           ? &grad_chunks
                                          : z >= 3 && is_first ? &gather_chunks
                                                               : nullptr;
        B[at(c, j)] = compute_item(s, j, false, parts);
      }
    }
  }

  // Pipeline transfers to the next / previous virtual stage (chunk c of stage p-1 feeds chunk
  // c+1 of stage 0), and the blocking-send dependencies.
  std::vector<std::vector<std::uint32_t>> act(static_cast<std::size_t>(p)), grad(static_cast<std::size_t>(p));
  for (int s = 0; s < p; ++s) {
    const auto su = static_cast<std::size_t>(s);
    act[su].assign(static_cast<std::size_t>(v * m), kNone);
    grad[su].assign(static_cast<std::size_t>(v * m), kNone);
    for (int c = 0; c < v; ++c) {
      for (int j = 0; j < m; ++j) {
        if (s + 1 < p || c + 1 < v) {
          const std::uint32_t t = pp_transfer(s, s + 1 < p ? s + 1 : 0, j);
          b.dep(t, fwd[su][at(c, j)].last);
          act[su][at(c, j)] = t;
        }
        if (s > 0 || c > 0) {
          const std::uint32_t t = pp_transfer(s, s > 0 ? s - 1 : p - 1, j);
          b.dep(t, bwd[su][at(c, j)].last);
          grad[su][at(c, j)] = t;
        }
      }
    }
  }
  for (int s = 0; s < p; ++s) {
    const auto su = static_cast<std::size_t>(s);
    for (int c = 0; c < v; ++c) {
      for (int j = 0; j < m; ++j) {
        if (s > 0) b.dep(fwd[su][at(c, j)].first, act[su - 1][at(c, j)]);
        if (s == 0 && c > 0) b.dep(fwd[su][at(c, j)].first, act[static_cast<std::size_t>(p - 1)][at(c - 1, j)]);
        if (s + 1 < p) b.dep(bwd[su][at(c, j)].first, grad[su + 1][at(c, j)]);
        if (s == p - 1 && c + 1 < v) b.dep(bwd[su][at(c, j)].first, grad[0][at(c + 1, j)]);
      }
    }
    // Megatron's order on the stream; each element waits for the previous one and, under 1F1B,
    // its send (blocking); the interleaved schedule overlaps a send with the next element and
    // waits for it one element later (overlap_p2p_comm).
    std::vector<std::pair<const StreamItem*, std::uint32_t>> order;  // item, its send
    for (const auto& it : orders[su]) {
      const std::size_t k = at(it.chunk, it.micro_batch);
      order.push_back(it.forward ? std::make_pair(&fwd[su][k], act[su][k]) : std::make_pair(&bwd[su][k], grad[su][k]));
    }
    std::uint32_t prev_last = kNone, prev_send = kNone, older_send = kNone;
    for (const auto& [item, send] : order) {
      b.dep(item->first, prev_last);
      b.dep(item->first, v == 1 ? prev_send : older_send);
      // Pieces and TP of one item run back to back.
      for (std::size_t k = 1; k < item->pieces.size(); ++k) b.dep(item->pieces[k], item->pieces[k - 1]);
      if (item->last != item->pieces.back()) b.dep(item->last, item->pieces.back());
      prev_last = item->last;
      older_send = prev_send;
      prev_send = send;
    }
    const ScheduleItem first_f = orders[su].front();
    const ScheduleItem last_b = orders[su].back();
    ScheduleItem first_b{};
    for (const auto& it : orders[su]) {
      if (!it.forward) { first_b = it; break; }
    }

    // DP: parameter all_gather passes, then the gradient chunks, on one NCCL stream.
    std::uint32_t nccl = kNone;
    if (gather) {
      const int passes = z >= 3 ? 2 : 1;
      for (int pass = 0; pass < passes; ++pass) {
        const StreamItem& gated = pass == 0 ? fwd[su][at(first_f.chunk, first_f.micro_batch)]
                                            : bwd[su][at(first_b.chunk, first_b.micro_batch)];
        const int c = static_cast<int>(gather_chunks.size());
        for (int k = 0; k < c; ++k) {
          // Pass 0 gathers in forward order (chunk c-1 first), pass 1 in backward order.
          const auto chunk = static_cast<std::size_t>(pass == 0 ? c - 1 - k : k);
          const double bytes = param_bytes * gather_chunks[chunk].fraction;
          const std::uint32_t t = dp_collective(
              s, mc::CollectiveOp::kAllGather, bytes, analytic(mc::CollectiveOp::kAllGather, buckets_of(bytes)));
          b.dep(t, nccl);
          b.dep(gated.pieces[static_cast<std::size_t>(k)], t);
          nccl = t;
        }
      }
    }
    std::uint32_t last_chunk = kNone;
    if (has_dp) {
      const mc::CollectiveOp op = job.parallelism.reduce_scatters_gradients() ? mc::CollectiveOp::kReduceScatter
                                                                                     : mc::CollectiveOp::kAllReduce;
      const StreamItem& last_item = bwd[su][at(last_b.chunk, last_b.micro_batch)];
      for (std::size_t k = 0; k < grad_chunks.size(); ++k) {
        const DpChunk& ch = grad_chunks[k];
        const std::uint32_t t = dp_collective(s, op, ch.bytes, analytic(op, ch.buckets));
        b.dep(t, nccl);
        b.dep(t, last_item.pieces[k]);
        nccl = t;
      }
      last_chunk = nccl;
    }
    StepTask opt;
    opt.kind = StepTaskKind::kCompute;
    opt.role = StepTaskRole::kOptimizer;
    opt.stage = s;
    opt.on_stream = true;
    opt.work_s = r.optimizer_s;
    const std::uint32_t o = b.add(std::move(opt));
    b.dep(o, prev_last);
    b.dep(o, prev_send);
    b.dep(o, older_send);
    b.dep(o, last_chunk);
    g.stage_end.push_back(o);
  }

  // Successors, a topological order check (a cycle is a bug in the construction above), and
  // the flow count.
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
  for (std::uint32_t t = 0; t < n; ++t) if (indegree[t] == 0) ready.push_back(t);
  std::size_t seen = 0;
  while (!ready.empty()) {
    const std::uint32_t t = ready.back();
    ready.pop_back();
    ++seen;
    for (std::uint32_t s : g.successors[t]) if (--indegree[s] == 0) ready.push_back(s);
  }
  if (seen != n) throw sim::InternalError("build_step_graph: the step graph has a cycle (this is a bug)");
  return g;
}

}  // namespace

double critical_path_s(const StepGraph& graph, double clock_factor) {
  const std::size_t n = graph.tasks.size();
  std::vector<double> finish(n, 0.0);
  std::vector<std::uint32_t> indegree(n, 0);
  for (std::size_t t = 0; t < n; ++t) indegree[t] = static_cast<std::uint32_t>(graph.tasks[t].deps.size());
  std::vector<std::uint32_t> ready;
  for (std::uint32_t t = 0; t < n; ++t) if (indegree[t] == 0) ready.push_back(t);
  double end = 0.0;
  while (!ready.empty()) {
    const std::uint32_t t = ready.back();
    ready.pop_back();
    const StepTask& task = graph.tasks[t];
    double start = 0.0;
    for (std::uint32_t d : task.deps) start = std::max(start, finish[d]);
    const double dur = task.kind == StepTaskKind::kCompute ? task.work_s / clock_factor
                       : task.kind == StepTaskKind::kNvlink ? task.work_s
                                                            : task.ideal_s;
    finish[t] = start + dur;
    end = std::max(end, finish[t]);
    for (std::uint32_t s : graph.successors[t]) if (--indegree[s] == 0) ready.push_back(s);
  }
  return end;
}

StepGraph build_step_graph(const TrainingJobConfig& job, const TrainingStepResult& r,
                           const hardware::NodeSpec& node, const mc::FabricParams& fabric,
                           const mc::CollectiveRegistry& collectives,
                           const StepGraphOptions& options, const mc::CollectiveTuning& tuning) {
  const auto build = [&](const StepGraphOptions& o, ChunkLayout layout, FlowLists lists) {
    return build_with_layout(job, r, node, fabric, collectives, o, tuning, layout, lists);
  };
  const double buckets = r.dp_grad_bytes > 0.0 ? std::ceil(r.dp_grad_bytes / r.dp_bucket_bytes) : 0.0;
  // Every bucket its own collective: nothing to choose.
  if (buckets <= options.max_dp_chunks) return build(options, ChunkLayout::kGrowing, FlowLists::kBuild);
  // Coalescing delays a chunk's collective to the end of its whole backward piece (and a gather
  // chunk gates a whole forward piece), so how the buckets coalesce moves the overlap. Which of
  // the two layouts keeps it closest to bucket by bucket depends on the job (the growing one
  // suits a short DP stream against the pieces, the even one a long one), so the choice is
  // measured: the graph with one collective per bucket, on an ideal network, is the reference.
  // Same job, same result; a numerical-granularity choice, not a fitted parameter.
  // The choice reads closed-form times only, so those graphs carry no flow lists.
  StepGraphOptions fine = options;
  fine.max_dp_chunks = static_cast<int>(buckets);
  const double reference = critical_path_s(build(fine, ChunkLayout::kGrowing, FlowLists::kTimesOnly));
  const double growing_error =
      std::abs(critical_path_s(build(options, ChunkLayout::kGrowing, FlowLists::kTimesOnly)) - reference);
  const double even_error =
      std::abs(critical_path_s(build(options, ChunkLayout::kEven, FlowLists::kTimesOnly)) - reference);
  return build(options, even_error < growing_error ? ChunkLayout::kEven : ChunkLayout::kGrowing, FlowLists::kBuild);
}

}  // namespace dcsim::models::workload
