#include "models/workload/step_graph.hpp"

#include <algorithm>
#include <cmath>

#include "models/workload/step_graph_builder.hpp"

namespace dcsim::models::workload {

namespace mc = collective;

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
    return StepGraphBuilder(job, r, node, fabric, collectives, o, tuning, layout, lists).build();
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
