#include "models/reliability/scripted_node_faults.hpp"

#include "sim/error.hpp"

namespace dcsim::models::reliability {

namespace {

const char* kind_name(ScriptedNodeFault::Kind kind) {
  switch (kind) {
    case ScriptedNodeFault::Kind::kDown: return "node_down";
    case ScriptedNodeFault::Kind::kUp: return "node_up";
    case ScriptedNodeFault::Kind::kJobCrash: return "job_crash";
    case ScriptedNodeFault::Kind::kSilentCorruption: return "silent_data_corruption";
  }
  return "";
}

}  // namespace

ScriptedNodeFaults::ScriptedNodeFaults(std::vector<ScriptedNodeFault> faults, seams::NodeFaultTarget* nodes,
                                       const seams::DatacenterSignals& signals, sim::Simulator& simulator,
                                       sim::TraceSink& sink)
    : faults_(std::move(faults)), nodes_(nodes), signals_(signals), simulator_(simulator), sink_(sink) {
  if (nodes_ == nullptr) throw sim::ConfigError("node_faults", "node faults need a cluster");
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    if (faults_[i].node < 0 || faults_[i].node >= nodes_->node_count()) {
      throw sim::ConfigError("node_faults[" + std::to_string(i) + "].node",
                             "expected a node below " + std::to_string(nodes_->node_count()) + ", got " +
                                 std::to_string(faults_[i].node));
    }
  }
  table_ = sink.declare_table("node_faults", {{"time_s", sim::ColumnType::kFloat64, "s", "when"},
                                              {"kind", sim::ColumnType::kString, "", "node_down, node_up, job_crash or silent_data_corruption"},
                                              {"node", sim::ColumnType::kInt64, "", "cluster node"}});
}

void ScriptedNodeFaults::start() {
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    simulator_.at(faults_[i].at, [this, i] { apply(i); }, sim::Priority::kFirst);
  }
}

void ScriptedNodeFaults::apply(std::size_t index) {
  const ScriptedNodeFault& f = faults_[index];
  const char* kind = kind_name(f.kind);
  sink_.append_row(table_, {simulator_.now().seconds(), std::string(kind), std::int64_t{f.node}});
  signals_.fault.emit(seams::FaultNotice{simulator_.now(), kind, f.node, f.kind == ScriptedNodeFault::Kind::kUp});
  switch (f.kind) {
    case ScriptedNodeFault::Kind::kDown: nodes_->set_node_down(f.node, "scripted node fault"); break;
    case ScriptedNodeFault::Kind::kUp: nodes_->set_node_up(f.node); break;
    case ScriptedNodeFault::Kind::kJobCrash: nodes_->crash_jobs_on_node(f.node, "scripted job crash"); break;
    case ScriptedNodeFault::Kind::kSilentCorruption:
      nodes_->corrupt_jobs_on_node(f.node, "scripted silent data corruption", f.quarantine);
      break;
  }
}

}  // namespace dcsim::models::reliability
