#include "tools/output/run_output.hpp"

#include "tools/output/summary.hpp"

namespace dcsim::tools::output {

RunOutput::RunOutput(const std::filesystem::path& dir, Hdf5Options options)
    : directory_(dir),
      summary_temporary_(),
      writer_(directory_.stage(kTraceFileName), options) {
  summary_temporary_ = directory_.stage(kSummaryFileName);
  directory_.discard_previous();
}

void RunOutput::commit(double wall_time_s, const std::function<void()>& poll) {
  writer_.finish(wall_time_s, poll);
  write_summary_json(summary_temporary_, writer_.summary(), writer_.meta());
  if (poll) poll();
  directory_.commit();
}

}  // namespace dcsim::tools::output
