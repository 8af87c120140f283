#include "models/cluster/integrity_report.hpp"

#include <cstdint>

namespace dcsim::models::cluster {

void IntegrityReport::declare() {
  table_ = sink_.declare_table(
      "integrity_events",
      {{"time_s", sim::ColumnType::kFloat64, "s", "when"},
       {"job", sim::ColumnType::kString, "", "job name"},
       {"node", sim::ColumnType::kInt64, "", "the corrupting GPU's node"},
       {"event", sim::ColumnType::kString, "",
        "corrupted (its checks will catch it), corrupted_unnoticed (they will not), corrupted_again, unprotected "
        "(batch or service job), caught, washed_out (a restart went back before it), finished_corrupted, "
        "checkpoint_corrupt_found (its checksums failed at a restart read: an older one is read)"},
       {"step", sim::ColumnType::kInt64, "",
        "steps finished before the corruption; caught: the checkpoint step rolled back to; washed_out: the restart "
        "step; checkpoint_corrupt_found: its step; -1 otherwise"}});
  declared_ = true;
}

void IntegrityReport::log(sim::Time now, const std::string& job, int node, const char* event, int step) {
  if (!declared_) return;
  sink_.append_row(table_, {now.seconds(), job, std::int64_t{node}, std::string(event), std::int64_t{step}});
}

void IntegrityReport::emit(std::size_t corrupted_at_end) const {
  if (!declared_) return;
  const auto count = [this](const std::string& key, std::size_t v, const std::string& what) {
    sink_.set_summary("integrity/" + key, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  count("sdc_faults", counts.faults, "silent data corruptions of GPUs (random and scripted)");
  count("sdc_on_idle_gpus", counts.idle, "corruptions on a node with no job stepping: harmless");
  count("jobs_corrupted", counts.corrupted, "training jobs whose state a corruption reached");
  count("caught", counts.caught, "corruptions the jobs' loss checks caught: rolled back to a clean checkpoint");
  count("missed", counts.missed, "corruptions the loss checks were never going to catch (detection probability)");
  count("unprotected", counts.unprotected, "corruptions of batch or service jobs, which have no loss checks");
  count("washed_out", counts.washed_out, "corruptions a restart from a checkpoint before them removed first");
  count("quarantines", counts.quarantines, "nodes taken out for diagnostics after a caught corruption");
  count("wrong_results", counts.wrong_results, "training jobs that finished on corrupted state");
  count("corrupted_at_end", corrupted_at_end, "training jobs still on corrupted state when the run ended");
  sink_.set_summary("integrity/corrupted_gpu_h",
                    sim::SummaryValue{counts.corrupted_gpu_s / 3600.0, "GPU-h",
                                      "job GPUs x wall time from each corruption until it was caught, washed out "
                                      "or the job or run ended (waits to restart included)"});
  count("corrupt_checkpoint_fallbacks", counts.corrupt_fallbacks,
        "restart reads whose checksums found the checkpoint corrupt: the job went back to the one before");
  sink_.set_summary("integrity/corrupt_checkpoint_lost_gpu_h",
                    sim::SummaryValue{counts.corrupt_fallback_lost_gpu_s / 3600.0, "GPU-h",
                                      "work those fallbacks discarded (part of goodput/lost_gpu_h)"});
}

}  // namespace dcsim::models::cluster
