// What an inference service reports when the run ends (inference_service.hpp's summary keys).

#include <algorithm>
#include <string>
#include <utility>

#include "models/inference/inference_service.hpp"

namespace dcsim::models::inference {

void InferenceService::finish() {
  if (finished_) return;
  finished_ = true;
  if (sample_event_.valid()) sim_.cancel(sample_event_);
  if (scale_event_.valid()) sim_.cancel(scale_event_);
  if (fluid_running_) {
    sim_.cancel(fluid_event_);
    if (segment_.drained_event.valid()) sim_.cancel(segment_.drained_event);
    fluid_close();
    fluid_running_ = false;
  }
  const double now_s = sim_.now().seconds();
  for (auto& r : replicas_) {
    if (r.state == ReplicaState::kGone) continue;
    close_accounts(r);
    r.state = ReplicaState::kGone;
  }
  live_.clear();
  note_serving();
  // The size the pool had at the end, when it held for any time (or the run took none).
  if (sim_.now() > serving_count_since_ || stats_.replicas_min < 0) {
    stats_.replicas_min = stats_.replicas_min < 0 ? serving_count_ : std::min(stats_.replicas_min, serving_count_);
  }
  // Requests still in the system count up to now (Little's integral over the run).
  stats_.in_system_seconds += static_cast<double>(outstanding_) * now_s - outstanding_issued_s_;
  count_missed_unfinished();
  const auto put = [this](const std::string& key, double v, const char* unit, const std::string& what) {
    sink_.set_summary(prefix_ + key, sim::SummaryValue{v, unit, what});
  };
  const auto count = [this](const std::string& key, std::uint64_t v, const std::string& what) {
    sink_.set_summary(prefix_ + key, sim::SummaryValue{static_cast<std::int64_t>(v), "", what});
  };
  const double span = now_s > 0.0 ? now_s : 1.0;
  count("requests", stats_.completed, "requests answered in full");
  count("rejected", stats_.rejected, "requests that could never fit a replica's KV cache (or one iteration)");
  count("unfinished", outstanding_, "requests still in the system at the end");
  const std::pair<const char*, const LatencyHistogram*> latencies[] = {
      {"ttft", &stats_.ttft}, {"tpot", &stats_.tpot}, {"e2e", &stats_.e2e}};
  const char* meaning[] = {"time to first token at the client", "time per output token after the first",
                           "end-to-end latency at the client"};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string name = latencies[i].first;
    const LatencyHistogram& h = *latencies[i].second;
    put(name + "_p50_s", h.quantile(0.5), "s", std::string("median ") + meaning[i]);
    put(name + "_p90_s", h.quantile(0.9), "s", std::string("90th percentile ") + meaning[i]);
    put(name + "_p99_s", h.quantile(0.99), "s", std::string("99th percentile ") + meaning[i]);
    put(name + "_mean_s", h.mean(), "s", std::string("mean ") + meaning[i]);
  }
  put("queue_p99_s", stats_.queue.quantile(0.99), "s", "99th percentile wait at a replica before admission");
  put("output_tokens_per_s", stats_.output_tokens / span, "1/s", "output tokens of completed requests per second");
  put("input_tokens_per_s", stats_.input_tokens / span, "1/s", "prompt tokens of completed requests per second");
  put("goodput_rps", static_cast<double>(stats_.sla_met) / span, "1/s", "requests meeting the SLA per second");
  const double judged = static_cast<double>(stats_.completed + stats_.rejected + stats_.missed_unfinished);
  put("sla_attainment", judged > 0.0 ? static_cast<double>(stats_.sla_met) / judged : 0.0, "",
      "fraction of the requests judged that met every SLA bound: those answered or rejected, and those still in "
      "the system already past a bound they can no longer meet (an overloaded fleet's backlog)");
  put("mean_in_system", stats_.in_system_seconds / span, "",
      "time-averaged requests sent and not yet answered (Little's L)");
  count("preemptions", stats_.preemptions, "sequences preempted for KV cache room");
  put("mean_batch", stats_.iterations > 0 ? stats_.batch_sum / static_cast<double>(stats_.iterations) : 0.0, "",
      "sequences per engine iteration, mean");
  put("kv_capacity_tokens", cost_.memory().kv_capacity_tokens, "", "KV cache of one replica, in tokens");
  put("replicas_mean", stats_.replica_seconds / span, "", "serving replicas (the decode pool when disaggregated), time average");
  count("replicas_max", static_cast<std::uint64_t>(stats_.replicas_max), "most replicas serving at once");
  count("replicas_min", static_cast<std::uint64_t>(stats_.replicas_min),
        "fewest replicas serving for any stretch of the run (0: a time with none, e.g. waiting for nodes)");
  count("scale_ups", static_cast<std::uint64_t>(stats_.scale_ups), "replicas added after the start");
  count("scale_downs", static_cast<std::uint64_t>(stats_.scale_downs), "replicas drained or withdrawn");
  put("gpu_hours", stats_.gpu_seconds / 3600.0, "h", "GPU time held by the replicas (starting, serving, draining)");
  put("gpu_busy_fraction", stats_.gpu_seconds > 0.0 ? stats_.busy_gpu_seconds / stats_.gpu_seconds : 0.0, "",
      "fraction of the held GPU time spent iterating");
  if (config_.prefill_replicas > 0) {
    count("kv_transfers", stats_.kv_transfers, "prompt KV caches moved from a prefill to a decode replica");
    put("kv_transfer_bytes", stats_.kv_transfer_bytes, "B", "bytes of those KV caches");
    put("kv_transfer_p99_s", stats_.kv_transfer.quantile(0.99), "s", "99th percentile time of one KV transfer");
  }
  put("gpu_energy_kwh", stats_.gpu_energy_j / 3.6e6, "kWh",
      "energy of the replicas' GPUs: idle power while held plus each phase's dynamic power");
  write_latency_table();
}

void InferenceService::note_serving() {
  if (fluid_running_) fluid_reshape();  // the fleet the segment was opened for changed
  const int now_serving = static_cast<int>(serving_.size());
  stats_.replicas_max = std::max(stats_.replicas_max, now_serving);
  if (now_serving == serving_count_) return;
  // The size that is ending counts for the minimum only if the pool kept it for some time: the
  // initial fleet placed at t = 0 never "served with none".
  if (sim_.now() > serving_count_since_) {
    stats_.replicas_min = stats_.replicas_min < 0 ? serving_count_ : std::min(stats_.replicas_min, serving_count_);
  }
  serving_count_ = now_serving;
  serving_count_since_ = sim_.now();
}

void InferenceService::declare_latency_table() {
  latency_table_ = sink_.declare_table(
      prefix_ + "latency_histogram",
      {{"metric", sim::ColumnType::kString, "", "ttft, tpot or e2e (as the summary's percentiles)"},
       {"lower_s", sim::ColumnType::kFloat64, "s", "bucket's lower end (buckets 0.5% wide from 1 us; the first is [0, 1 us))"},
       {"upper_s", sim::ColumnType::kFloat64, "s", "bucket's upper end (the last bucket's reaches the largest value)"},
       {"count", sim::ColumnType::kInt64, "", "requests whose latency fell in the bucket"}});
}

void InferenceService::write_latency_table() {
  // At most 3 x 5,540 rows (the non-empty buckets), whatever the number of requests.
  const std::pair<const char*, const LatencyHistogram*> latencies[] = {
      {"ttft", &stats_.ttft}, {"tpot", &stats_.tpot}, {"e2e", &stats_.e2e}};
  for (const auto& [metric, histogram] : latencies) {
    for (const auto& b : histogram->buckets()) {
      sink_.append_row(latency_table_, {std::string(metric), b.lower, b.upper, static_cast<std::int64_t>(b.count)});
    }
  }
}

void InferenceService::count_missed_unfinished() {
  // A request still in the system has missed its SLA when, seen from the client now, it is past
  // the TTFT bound without a first token or past the end-to-end bound; the others cannot be
  // judged yet and are left out (in transit between gateway, pools and replicas they are too).
  const double out = gateway_out_s();
  const double now_s = sim_.now().seconds();
  const SlaConfig& sla = config_.sla;
  const auto judge = [&](const ReplicaRequest& q, sim::Time first_token) {
    const double age = now_s + out - q.issued.seconds();
    if (const auto it = prefilled_.find(q.id); it != prefilled_.end()) first_token = it->second.first_token;
    const bool no_first = first_token == sim::Time::max();
    if ((sla.ttft_s > 0.0 && no_first && age > sla.ttft_s) || (sla.e2e_s > 0.0 && age > sla.e2e_s)) {
      ++stats_.missed_unfinished;
    }
  };
  for (const ReplicaRequest& q : pending_) judge(q, sim::Time::max());
  if (curve_ != nullptr && segment_.backlog >= 1.0) {
    // Fluid: the backlog has waited about fluid_wait_s() so far, none of it with a first token.
    const double age = fluid_wait_s() + out;
    if ((sla.ttft_s > 0.0 && age > sla.ttft_s) || (sla.e2e_s > 0.0 && age > sla.e2e_s)) {
      stats_.missed_unfinished += static_cast<std::uint64_t>(segment_.backlog);
    }
  }
  for (const auto& [from, q] : awaiting_decode_) judge(q, sim::Time::max());
  for (const auto& r : replicas_) {
    for (const auto& e : r.engines) e->visit_unfinished(judge);
  }
}

}  // namespace dcsim::models::inference
