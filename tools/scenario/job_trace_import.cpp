#include "tools/scenario/job_trace_import.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/scenario/flow_csv.hpp"
#include "tools/scenario/job_trace_rows.hpp"

namespace dcsim::tools::scenario {

namespace {

using trace_rows::Row;

// sim::Time holds 292 years of nanoseconds; arrival + run time must fit, so each gets half.
constexpr double kMaxSeconds = 4.6e9;

class Collector final : public trace_rows::RowSink {
 public:
  Collector(const trace_rows::LineReader& reader, const JobTraceOptions& options) : reader_(reader), options_(options) {}

  void add(Row row) override {
    ++out_.rows;
    const double arrival_s = options_.start.seconds() + options_.time_scale * row.arrival_s;
    const double work_s = options_.time_scale * row.work_s;
    if (!(arrival_s < kMaxSeconds) || !(work_s < kMaxSeconds) || !(options_.time_scale * row.estimate_s < kMaxSeconds)) {
      reader_.fail(fmt::format("arrival {:.6g} s, run time {:.6g} s after start and time_scale: expected each below {:.2g} s "
                               "(146 years, half the range of simulated time)",
                               arrival_s, work_s, kMaxSeconds));
    }
    models::workload::JobSpec job;
    job.name = options_.name + "-" + (row.id.empty() ? std::to_string(row.line) : row.id);
    job.arrival = sim::Time::from_seconds(arrival_s);
    // Rounded up: a positive run time never becomes an empty job.
    job.work = sim::Time::ceil_from_seconds(work_s);
    job.estimate = row.estimate_s > 0 ? sim::Time::ceil_from_seconds(options_.time_scale * row.estimate_s)
                                      : sim::Time::zero();
    job.nodes = row.nodes;
    job.gpus_per_node = row.gpus_per_node;
    job.gpu_utilization = row.gpu_utilization;
    job.priority = row.priority;
    pending_.push_back({std::move(job), row.line});
    // With a limit, keep the earliest `limit` now and then, so a long trace is never held whole.
    if (options_.limit && pending_.size() >= 2 * *options_.limit + 1024) keep_earliest();
  }

  void skip(const std::string& reason) override {
    ++out_.rows;
    const auto it = std::find_if(out_.skipped.begin(), out_.skipped.end(),
                                 [&](const auto& s) { return s.first == reason; });
    if (it == out_.skipped.end()) {
      out_.skipped.emplace_back(reason, 1);
    } else {
      ++it->second;
    }
  }

  JobTrace finish() {
    keep_earliest();
    out_.jobs.reserve(pending_.size());
    out_.lines.reserve(pending_.size());
    for (auto& p : pending_) {
      out_.jobs.push_back(std::move(p.job));
      out_.lines.push_back(p.line);
    }
    return std::move(out_);
  }

 private:
  struct Pending {
    models::workload::JobSpec job;
    std::size_t line;
  };

  // Stable: among equal arrivals the file's order stands, before and after pruning.
  void keep_earliest() {
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const Pending& a, const Pending& b) { return a.job.arrival < b.job.arrival; });
    if (options_.limit && pending_.size() > *options_.limit) {
      out_.beyond_limit += pending_.size() - *options_.limit;
      pending_.resize(*options_.limit);
    }
  }

  const trace_rows::LineReader& reader_;
  const JobTraceOptions& options_;
  std::vector<Pending> pending_;
  JobTrace out_;
};

std::string thousands(std::size_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

}  // namespace

const std::vector<std::string>& job_trace_format_names() {
  static const std::vector<std::string> kNames = {"swf", "alibaba_openb", "csv"};
  return kNames;
}

JobTraceFormat job_trace_format(const std::string& name) {
  if (name == "swf") return JobTraceFormat::kSwf;
  if (name == "alibaba_openb") return JobTraceFormat::kAlibabaOpenb;
  if (name == "csv") return JobTraceFormat::kCsv;
  throw sim::InputError("unknown job trace format '" + name + "'; expected one of swf, alibaba_openb, csv");
}

std::size_t JobTrace::skipped_rows() const {
  std::size_t n = 0;
  for (const auto& [reason, count] : skipped) n += count;
  return n;
}

std::string JobTrace::describe() const {
  std::string out = thousands(jobs.size()) + (jobs.size() == 1 ? " job" : " jobs") + " of " + thousands(rows) +
                    " rows; " + thousands(skipped_rows()) + " skipped";
  if (!skipped.empty()) {
    out += " (";
    for (std::size_t i = 0; i < skipped.size(); ++i) {
      out += (i > 0 ? "; " : "") + thousands(skipped[i].second) + " " + skipped[i].first;
    }
    out += ")";
  }
  if (beyond_limit > 0) out += "; " + thousands(beyond_limit) + " beyond the limit";
  return out;
}

JobTrace import_job_trace(std::istream& in, const std::string& display, const JobTraceOptions& options) {
  if (options.time_scale <= 0 || options.processors_per_node < 1) {
    throw sim::InternalError("import_job_trace: time_scale <= 0 or processors_per_node < 1 (this is a bug)");
  }
  // SWF header comments start with ';', dcsim's and Alibaba's CSVs may carry '#' notes.
  trace_rows::LineReader reader(in, display, options.format == JobTraceFormat::kSwf ? ';' : '#');
  Collector collector(reader, options);
  switch (options.format) {
    case JobTraceFormat::kSwf: trace_rows::read_swf(reader, options, collector); break;
    case JobTraceFormat::kAlibabaOpenb: trace_rows::read_alibaba_openb(reader, options, collector); break;
    case JobTraceFormat::kCsv: trace_rows::read_job_csv(reader, options, collector); break;
  }
  return collector.finish();
}

JobTrace import_job_trace(const std::string& path, const std::string& display, const JobTraceOptions& options,
                          const std::string& named_at) {
  std::ifstream in = open_data_file(path, display, named_at);
  return import_job_trace(in, display, options);
}

}  // namespace dcsim::tools::scenario
