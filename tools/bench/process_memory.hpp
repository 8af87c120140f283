#pragma once
// This process's memory as benchmarks report it (Linux /proc; 0 where it cannot be read).

namespace dcsim::tools::bench {

// Peak resident set size (VmHWM) in MB since the process started or the last reset.
double peak_rss_mb();
// Resets the peak to the present RSS (writes 5 to /proc/self/clear_refs, Linux >= 4.0), so that
// each case of a benchmark reports its own peak; false when the kernel does not allow it.
bool reset_peak_rss();

}  // namespace dcsim::tools::bench
