#include "models/network/fabric_report.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::network {

namespace {

// Flow completion times in ns: 1 ns to 2^63 ns (all of int64), buckets 0.5% wide: 8,758 counters,
// 70 KB, whatever the number of flows. A quantile is within 0.25% of the exact one, plus the
// rounding to the nanosecond.
constexpr double kFctMinNs = 1.0;
constexpr double kFctMaxNs = 9.223372036854775808e18;
constexpr double kFctGrowth = 1.005;

}  // namespace

FabricReport::FabricReport(sim::TraceSink* sink, std::string prefix, bool emit_flow_table, std::size_t exact_fct_flows)
    : sink_(sink),
      prefix_(std::move(prefix)),
      table_(emit_flow_table && sink != nullptr),
      exact_limit_(exact_fct_flows) {
  if (table_) {
    using sim::ColumnType;
    table_id_ = sink_->declare_table(
        prefix_ + "/flows",
        {{"flow", ColumnType::kInt64, "", "flow number, in start order"},
         {"src", ColumnType::kInt64, "", "source host"},
         {"dst", ColumnType::kInt64, "", "destination host"},
         {"bytes", ColumnType::kFloat64, "B", "payload bytes"},
         {"start_ns", ColumnType::kInt64, "ns", "start time"},
         {"finish_ns", ColumnType::kInt64, "ns", "last byte delivered (or failure time)"},
         {"fct_ns", ColumnType::kInt64, "ns", "flow completion time"},
         {"status", ColumnType::kString, "", "ok, or failed: reason"},
         {"route", ColumnType::kString, "",
          "link ids of the route in path order; a flow of several subflows: every link they cross once, "
          "in id order, as id*subflows on it"},
         {"subflows", ColumnType::kInt64, "", "subflows the flow was split into (spray, QPs)"}});
  }
}

void FabricReport::record(const FinishedFlow& f) {
  const std::int64_t fct = (f.finish - f.start).ns();
  makespan_ns_ = std::max(makespan_ns_, f.finish.ns());
  if (f.failed) {
    ++failed_;
  } else {
    ++completed_;
    fct_max_ns_ = std::max(fct_max_ns_, fct);
    if (fct_hist_ == nullptr && fct_ns_.size() == exact_limit_) {
      // Memory paid here: 8 B per completed flow up to exact_limit_ (8 MB by default), then a
      // fixed 70 KB histogram, and the exact times are folded into it and released.
      fct_hist_ = std::make_unique<sim::LogHistogram>(kFctMinNs, kFctMaxNs, kFctGrowth);
      for (const std::int64_t v : fct_ns_) fct_hist_->add(static_cast<double>(v));
      std::vector<std::int64_t>().swap(fct_ns_);
    }
    if (fct_hist_ != nullptr) {
      fct_hist_->add(static_cast<double>(fct));
    } else {
      fct_ns_.push_back(fct);
    }
  }
  if (table_) {
    sink_->append_row(table_id_, {static_cast<std::int64_t>(f.flow_number), static_cast<std::int64_t>(f.src),
                                  static_cast<std::int64_t>(f.dst), f.bytes, f.start.ns(), f.finish.ns(), fct,
                                  f.failed ? "failed: " + f.reason : std::string("ok"), f.route,
                                  static_cast<std::int64_t>(f.subflows)});
  }
}

std::size_t FabricReport::fct_bytes() const {
  return fct_ns_.capacity() * sizeof(std::int64_t) + (fct_hist_ != nullptr ? fct_hist_->bytes() : 0);
}

FabricSummary FabricReport::finish(const Fabric& fabric) {
  FabricSummary s;
  s.makespan = sim::Time::from_ns(makespan_ns_);
  std::sort(fct_ns_.begin(), fct_ns_.end());
  auto pct = [&](double p) {
    if (fct_hist_ != nullptr) return sim::Time::from_ns(std::llround(fct_hist_->quantile(p)));
    if (fct_ns_.empty()) return sim::Time::zero();
    auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(fct_ns_.size())));
    return sim::Time::from_ns(fct_ns_[std::clamp<std::size_t>(rank, 1, fct_ns_.size()) - 1]);
  };
  s.fct_p50 = pct(0.5);
  s.fct_p99 = pct(0.99);
  s.fct_max = sim::Time::from_ns(fct_max_ns_);
  s.flows_completed = completed_;
  s.flows_failed = failed_;
  s.bytes_sent = fabric.bytes_started();
  s.bytes_delivered = fabric.bytes_delivered();
  const Topology& t = fabric.topology();
  const double span_s = s.makespan.seconds();
  std::vector<double> tier_sum(static_cast<std::size_t>(t.max_tier()) + 1, 0.0);
  std::vector<double> tier_n(tier_sum.size(), 0.0);
  double sum = 0.0;
  for (LinkId l = 0; l < t.link_count(); ++l) {
    const double u = span_s > 0 ? fabric.link_bytes()[l] * 8.0 / (t.link(l).bandwidth_bps * span_s) : 0.0;
    sum += u;
    s.link_utilisation_max = std::max(s.link_utilisation_max, u);
    const auto tier = static_cast<std::size_t>(t.link(l).tier);
    tier_sum[tier] += u;
    tier_n[tier] += 1;
  }
  s.link_utilisation_mean = t.link_count() ? sum / static_cast<double>(t.link_count()) : 0.0;
  for (std::size_t i = 0; i < tier_sum.size(); ++i) {
    s.link_utilisation_tier_mean.push_back(tier_n[i] > 0 ? tier_sum[i] / tier_n[i] : 0.0);
  }
  if (sink_ != nullptr) {
    auto put = [&](const std::string& k, auto v, const std::string& unit, const std::string& d) {
      sink_->set_summary(prefix_ + "/" + k, sim::SummaryValue{v, unit, d});
    };
    put("makespan_s", s.makespan.seconds(), "s", "last flow finish");
    put("fct_p50_s", s.fct_p50.seconds(), "s", "median flow completion time");
    put("fct_p99_s", s.fct_p99.seconds(), "s", "99th percentile flow completion time");
    put("fct_max_s", s.fct_max.seconds(), "s", "longest flow completion time");
    put("flows_completed", s.flows_completed, "", "flows that delivered every byte");
    put("flows_failed", s.flows_failed, "", "flows left without a path");
    put("bytes_sent", s.bytes_sent, "B", "payload bytes of every started flow");
    put("bytes_delivered", s.bytes_delivered, "B", "payload bytes delivered");
    put("link_utilisation_mean", s.link_utilisation_mean, "", "mean over directed links, over the makespan");
    put("link_utilisation_max", s.link_utilisation_max, "", "busiest directed link");
    if (fabric.link_series_interval_ns() > 0) {
      using sim::ColumnType;
      const sim::TableId id = sink_->declare_table(
          prefix_ + "/link_utilisation",
          {{"link", ColumnType::kInt64, "", "directed link id (as dcsim topo lists them)"},
           {"tier", ColumnType::kInt64, "", "link tier (0: host links)"},
           {"start_ns", ColumnType::kInt64, "ns", "interval start"},
           {"end_ns", ColumnType::kInt64, "ns", "interval end"},
           {"bytes", ColumnType::kFloat64, "B", "payload bytes carried in the interval"},
           {"utilisation", ColumnType::kFloat64, "", "bytes x 8 / (capacity x interval)"}});
      const std::int64_t dt = fabric.link_series_interval_ns();
      // Idle (link, interval) cells are left out: the table grows with traffic, not fabric size.
      for (std::size_t b = 0; b < fabric.link_series_buckets(); ++b) {
        for (LinkId l = 0; l < t.link_count(); ++l) {
          const double bytes = fabric.link_series_bytes(b, l);
          if (bytes <= 0) continue;
          const auto start = static_cast<std::int64_t>(b) * dt;
          sink_->append_row(id, {static_cast<std::int64_t>(l), static_cast<std::int64_t>(t.link(l).tier), start,
                                 start + dt, bytes, bytes * 8.0 / (t.link(l).bandwidth_bps * static_cast<double>(dt) * 1e-9)});
        }
      }
    }
    for (std::size_t i = 0; i < s.link_utilisation_tier_mean.size(); ++i) {
      put("link_utilisation_tier" + std::to_string(i) + "_mean", s.link_utilisation_tier_mean[i], "",
          "mean over the links of this tier (0: host links)");
    }
  }
  return s;
}

}  // namespace dcsim::models::network
