#pragma once
// When faults were in progress, from the trace's fault tables, for the report to shade on its
// time charts: /events/faults (random faults: from the fault to its repair), /events/node_faults
// (node_down to node_up; a job crash or corruption as an instant), /events/<network>/faults
// (down to up per link, switch or port) and the plant faults of /events/facility (begins to
// repaired, per kind and zone). A fault not repaired by the end lasts to it.

#include <string>
#include <vector>

#include "tools/output/trace_reader.hpp"
#include "tools/report/run_data.hpp"

namespace dcsim::tools::report {

// Every fault's window, unmerged, in start order.
std::vector<FaultWindow> read_fault_windows(const output::TraceReader& trace, double end_s);

// Windows that overlap or lie closer than `min_gap_s` (a pixel of the chart) become one, whose
// `what` counts its faults and names their kinds ("3 faults: gpu_xid, node_down").
std::vector<FaultWindow> merge_fault_windows(std::vector<FaultWindow> windows, double min_gap_s);

}  // namespace dcsim::tools::report
