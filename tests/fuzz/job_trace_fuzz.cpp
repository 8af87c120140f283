// libFuzzer target: the job-trace importers (tools/scenario/job_trace_import.hpp) on in-memory
// text. Byte 0 picks the format (value % 3: swf, alibaba_openb, csv), bit 2 a limit of 2 jobs and
// bit 3 a time_scale of 1e-3; the rest is the file's content. sim::InputError is the expected
// rejection; anything else escaping, a crash or a job that breaks the importer's contract is a
// finding.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "sim/error.hpp"
#include "tools/scenario/job_trace_import.hpp"

namespace {

[[noreturn]] void contract_broken(const char* what) {
  std::fprintf(stderr, "job_trace_fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  namespace sc = dcsim::tools::scenario;
  const std::uint8_t selector = data[0];
  sc::JobTraceOptions options;
  options.format = static_cast<sc::JobTraceFormat>(selector % 3);
  options.name = "f";
  if (selector & 0x04) options.limit = 2;
  if (selector & 0x08) options.time_scale = 1e-3;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  try {
    const auto t = sc::import_job_trace(in, "fuzz", options);
    if (t.jobs.size() != t.lines.size()) contract_broken("a job without its line");
    if (t.jobs.size() + t.skipped_rows() + t.beyond_limit != t.rows) contract_broken("rows not accounted for");
    if (options.limit && t.jobs.size() > *options.limit) contract_broken("more jobs than the limit");
    for (std::size_t i = 0; i < t.jobs.size(); ++i) {
      const auto& j = t.jobs[i];
      if (j.arrival.ns() < 0 || j.work.ns() <= 0 || j.estimate.ns() < 0) contract_broken("a bad time");
      if (i > 0 && j.arrival < t.jobs[i - 1].arrival) contract_broken("jobs out of arrival order");
      if (j.nodes < 1 || j.gpus_per_node < 0) contract_broken("a bad size");
      if (!(j.gpu_utilization >= 0 && j.gpu_utilization <= 1)) contract_broken("a bad utilisation");
    }
  } catch (const dcsim::sim::InputError&) {
    // The expected rejection.
  }
  return 0;
}
