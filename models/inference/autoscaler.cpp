#include "models/inference/autoscaler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "sim/error.hpp"

namespace dcsim::models::inference {

namespace {

class Hpa final : public Autoscaler {
 public:
  explicit Hpa(const sim::Params& p)
      : metric_(p.text("metric")),
        target_(p.number("target_utilization")),
        tolerance_(p.number("tolerance")),
        period_(p.duration("sync_period")),
        up_window_(p.duration("scale_up_stabilization")),
        down_window_(p.duration("scale_down_stabilization")),
        down_percent_(p.number("scale_down_percent")),
        down_rate_period_(p.duration("scale_down_period")) {
    if (metric_ != "busy" && metric_ != "batch" && metric_ != "kv_cache") {
      throw sim::ConfigError("autoscaler_params.metric", "expected busy, batch or kv_cache, got '" + metric_ + "'");
    }
  }

  sim::Time period() const override { return period_; }

  int desired(const FleetSample& s) override {
    const double value = metric_ == "busy" ? s.utilization : metric_ == "batch" ? s.batch_fraction : s.kv_used_fraction;
    // The metric is a mean over the ready (serving) replicas. Kubernetes' replica calculator:
    // without replicas still starting, or when shrinking, raw = ceil(ratio x ready); growing
    // while some are not ready yet, those count as using 0% of the target, and no change is
    // made if the ratio recomputed so falls within the tolerance or reverses. Without that,
    // each sync period while the new replicas start sees the same high mean and asks again:
    // a 32-replica fleet asked for 96 within a minute, then drained them five minutes later.
    const double ratio = value / target_;
    const int ready = std::min(s.ready, s.replicas);
    int raw = s.replicas;
    if (ready > 0 && std::abs(ratio - 1.0) > tolerance_) {
      if (ratio > 1.0 && ready < s.replicas) {
        const double with_unready = ratio * ready / s.replicas;
        if (with_unready > 1.0 + tolerance_) raw = static_cast<int>(std::ceil(s.replicas * with_unready - 1e-9));
      } else {
        raw = static_cast<int>(std::ceil(ready * ratio - 1e-9));
      }
    }
    // Waiting work with nothing serving (all replicas still starting) is not a reason to shrink.
    if (s.replicas == 0 && s.queued > 0) raw = 1;
    // The fleet as deployed is the first recommendation (time 0): a change must hold for its
    // whole window from the start too.
    if (history_.empty()) history_.emplace_back(sim::Time::zero(), s.replicas);
    history_.emplace_back(s.now, raw);
    const sim::Time keep = std::max(up_window_, down_window_);
    while (!history_.empty() && s.now - history_.front().first > keep) history_.pop_front();
    if (raw > s.replicas) {
      int lowest = raw;
      for (const auto& [t, r] : history_) {
        if (s.now - t <= up_window_) lowest = std::min(lowest, r);
      }
      return std::max(lowest, s.replicas);
    }
    // The fleet's size over the last scale-down policy period (Kubernetes' behavior.scaleDown
    // policy of type Percent: at most that share of the replicas present a period ago goes).
    fleet_.emplace_back(s.now, s.replicas);
    while (s.now - fleet_.front().first > down_rate_period_) fleet_.pop_front();
    if (raw < s.replicas) {
      int highest = raw;
      for (const auto& [t, r] : history_) {
        if (s.now - t <= down_window_) highest = std::max(highest, r);
      }
      int period_start = s.replicas;
      for (const auto& [t, r] : fleet_) period_start = std::max(period_start, r);
      const int floor_by_rate = static_cast<int>(std::ceil(period_start * (1.0 - down_percent_ / 100.0) - 1e-9));
      return std::min(std::max(highest, floor_by_rate), s.replicas);
    }
    return s.replicas;
  }

 private:
  std::string metric_;
  double target_, tolerance_;
  sim::Time period_, up_window_, down_window_;
  double down_percent_;
  sim::Time down_rate_period_;
  std::deque<std::pair<sim::Time, int>> history_;
  std::deque<std::pair<sim::Time, int>> fleet_;  // (time, replicas) over the last down_rate_period_
};

class Scheduled final : public Autoscaler {
 public:
  explicit Scheduled(const sim::Params& p) : period_(p.duration("sync_period")) {
    const std::string& text = p.text("schedule");
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t end = text.find(',', pos);
      if (end == std::string::npos) end = text.size();
      std::string entry = text.substr(pos, end - pos);
      entry.erase(0, entry.find_first_not_of(' '));
      entry.erase(entry.find_last_not_of(' ') + 1);
      int hh = -1, mm = -1, n = -1;
      char extra = 0;
      if (std::sscanf(entry.c_str(), "%d:%d=%d%c", &hh, &mm, &n, &extra) != 3 || hh < 0 || hh > 23 || mm < 0 ||
          mm > 59 || n < 0) {
        throw sim::ConfigError("autoscaler_params.schedule",
                               "expected entries \"HH:MM=N\" (00:00 to 23:59, N >= 0 replicas) separated by "
                               "commas, got '" + entry + "'");
      }
      entries_.emplace_back((hh * 60 + mm) * 60, n);
      pos = end + 1;
    }
    if (entries_.empty()) {
      throw sim::ConfigError("autoscaler_params.schedule", "expected at least one entry \"HH:MM=N\", got none");
    }
    std::sort(entries_.begin(), entries_.end());
  }

  sim::Time period() const override { return period_; }

  int desired(const FleetSample& s) override {
    const auto day_s = static_cast<int>(std::fmod(s.now.seconds(), 86400.0));
    int n = entries_.back().second;  // before the first entry of the day: the last of the day before
    for (const auto& [at, replicas] : entries_) {
      if (at <= day_s) n = replicas;
    }
    return n;
  }

 private:
  sim::Time period_;
  std::vector<std::pair<int, int>> entries_;  // (second of the day, replicas), sorted
};

}  // namespace

void register_autoscalers(AutoscalerRegistry& registry) {
  registry.add(
      {"hpa",
       "Kubernetes' Horizontal Pod Autoscaler: ceil(ready replicas x metric / target), replicas not yet "
       "ready at 0% when growing, with its tolerance and stabilisation windows",
       {{"metric", "string", "\"busy\"", "",
         "What utilisation means: busy (GPU busy time, as DCGM reports it; saturates under continuous "
         "batching), batch (running sequences / max_batch) or kv_cache (KV cache in use)."},
        {"target_utilization", "", "0.8", "0 < x <= 1", "Value of the metric to hold, mean over serving replicas."},
        {"tolerance", "", "0.1", "0 <= x < 1", "No change while |utilisation / target - 1| is within it."},
        {"sync_period", "duration", "\"15 s\"", "x > 0", "How often the autoscaler decides."},
        {"scale_up_stabilization", "duration", "\"0 s\"", "x >= 0",
         "A scale-up takes the lowest recommendation of this window."},
        {"scale_down_stabilization", "duration", "\"300 s\"", "x >= 0",
         "A scale-down takes the highest recommendation of this window."},
        {"scale_down_percent", "", "100", "0 < x <= 100",
         "At most this percentage of the replicas present scale_down_period ago goes in that period "
         "(Kubernetes' behavior.scaleDown policy of type Percent; its default, 100, limits nothing)."},
        {"scale_down_period", "duration", "\"15 s\"", "x > 0", "The period of scale_down_percent."}},
       [](const sim::Params& p) { return std::make_unique<Hpa>(p); }});
  registry.add({"scheduled", "replicas by time of day from a fixed schedule",
                {{"schedule", "string", "\"00:00=1\"", "",
                  "Entries \"HH:MM=N\" separated by commas: from HH:MM on, N replicas (the run starts at 00:00)."},
                 {"sync_period", "duration", "\"60 s\"", "x > 0", "How often the schedule is read."}},
                [](const sim::Params& p) { return std::make_unique<Scheduled>(p); }});
}

}  // namespace dcsim::models::inference
