#include "models/cluster/goodput_report.hpp"

#include <algorithm>
#include <cstdint>

namespace dcsim::models::cluster {

void emit_goodput_summary(const GoodputCounts& c, const TrainingTimeKept& training, sim::TraceSink& sink) {
  auto put = [&sink](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  sink.set_summary("reliability/interruptions_total",
                   sim::SummaryValue{static_cast<std::int64_t>(c.interruptions), "", "job interruptions by faults"});
  for (const auto& [cause, counts] : c.by_cause) {
    sink.set_summary("reliability/interruptions/" + cause,
                     sim::SummaryValue{static_cast<std::int64_t>(counts.first), "", "jobs interrupted by " + cause});
    put("goodput/lost_gpu_h_by_cause/" + cause, counts.second / 3600.0, "GPU-h", "work lost to " + cause);
  }
  const auto put_count = [&sink](const std::string& path, std::size_t v, const std::string& what) {
    sink.set_summary(path, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  put_count("reliability/elastic_shrinks", c.elastic_shrinks,
            "times an elastic job re-formed after a fault with fewer data-parallel replicas than submitted");
  put_count("reliability/elastic_reforms", c.elastic_reforms,
            "times an elastic job re-formed at its full size after a fault (free nodes replaced the failed ones)");
  put_count("reliability/elastic_expands", c.elastic_expands, "times a shrunk elastic job grew back as nodes freed up");
  put_count("reliability/alarms", c.alarms, "precursor alarms that preceded a fault (true alarms)");
  put_count("reliability/false_alarms", c.false_alarms, "precursor alarms that preceded no fault");
  put_count("reliability/migrations", c.migrations, "jobs that checkpointed and moved off a warned node");
  put_count("reliability/alarm_stays", c.alarm_stays,
            "jobs that checkpointed on a warning but stayed: no healthy free node or spare to move to");
  if (c.elastic_expands > 0) {
    put("goodput/lost_gpu_h_by_cause/elastic_expand", c.expand_lost_gpu_s / 3600.0, "GPU-h",
        "steps in flight abandoned when shrunk jobs grew back");
  }
  put_count("workload/preemptions", c.preemptions,
            "running jobs a preemptive scheduler stopped for a job of higher priority");
  put("goodput/lost_gpu_h_by_cause/preempted", c.preempted_lost_gpu_s / 3600.0, "GPU-h",
      "work preempted jobs lost: progress since their last checkpoint");
  put("goodput/shrunk_missing_gpu_h", c.shrunk_missing_gpu_s / 3600.0, "GPU-h",
      "GPU time elastic jobs ran without: submitted GPUs minus those held while shrunk, x time");
  put("goodput/allocated_gpu_h", c.held_gpu_s / 3600.0, "GPU-h", "GPU time held by jobs");
  put("goodput/lost_gpu_h", c.lost_gpu_s / 3600.0, "GPU-h",
      "work lost to interruptions and preemptions: progress since each job's last checkpoint");
  put("goodput/restart_gpu_h", c.restart_gpu_s / 3600.0, "GPU-h",
      "GPU time held by restarting jobs before their work resumed (detection, diagnosis, relaunch, checkpoint "
      "reload, spare swap)");
  put("goodput/restart_gpu_h_by_stage/detection", c.detection_gpu_s / 3600.0, "GPU-h",
      "of restart_gpu_h: interrupted jobs hung until their fault was detected (heartbeat, watchdog)");
  put("goodput/restart_gpu_h_by_stage/diagnosis", c.diagnosis_gpu_s / 3600.0, "GPU-h",
      "of restart_gpu_h: interrupted jobs waiting while the faulty part was found and excluded");
  put("goodput/restart_gpu_h_by_stage/restart",
      std::max(0.0, c.restart_gpu_s - c.detection_gpu_s - c.diagnosis_gpu_s) / 3600.0, "GPU-h",
      "of restart_gpu_h: the failover policy's relaunch, spare swap or re-formation and the checkpoint reload");
  put("reliability/recovery_h_by_stage/detection", c.detection_s / 3600.0, "h",
      "wall time interrupted jobs spent in detection, summed over the interruptions");
  put("reliability/recovery_h_by_stage/diagnosis", c.diagnosis_s / 3600.0, "h",
      "wall time interrupted jobs spent in diagnosis, summed over the interruptions");
  put("goodput/stalled_gpu_h", c.stalled_gpu_s / 3600.0, "GPU-h",
      "GPU time training jobs held idle, stalled at checkpoints held for staging space (off-site copies not done)");
  if (training.wall_s > 0) {
    put("goodput/effective_training_fraction", training.kept_s / training.wall_s, "",
        "training jobs: steps kept x nominal step time / wall time since their first start");
  }
  const double useful = c.held_gpu_s - c.lost_gpu_s - c.restart_gpu_s - c.transfer_gpu_s - c.stalled_gpu_s;
  put("goodput/fraction", c.held_gpu_s > 0 ? useful / c.held_gpu_s : 1.0, "",
      "(allocated - lost - restart - transfer - stalled) / allocated GPU time; checkpoint writes count as useful here");
}

}  // namespace dcsim::models::cluster
