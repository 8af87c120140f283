#include "models/network/flow_replay.hpp"

#include <algorithm>

namespace dcsim::models::network {

FabricSummary replay_flows(Fabric& fabric, std::vector<FlowRecord> records, FabricReport& report) {
  validate_trace(records, fabric.topology().host_count());
  std::stable_sort(records.begin(), records.end(),
                   [](const FlowRecord& a, const FlowRecord& b) { return a.start < b.start; });
  std::vector<FinishedFlow> finished;
  std::size_t next = 0;
  for (;;) {
    const sim::Time rec_t = next < records.size() ? records[next].start : sim::Time::max();
    const sim::Time t = std::min(rec_t, fabric.next_event_time());
    if (t.is_max()) break;
    while (next < records.size() && records[next].start == t) {
      fabric.start_flow(t, records[next].src, records[next].dst, records[next].bytes);
      ++next;
    }
    finished.clear();
    fabric.advance(t, finished);
    for (const FinishedFlow& f : finished) report.record(f);
  }
  return report.finish(fabric);
}

}  // namespace dcsim::models::network
