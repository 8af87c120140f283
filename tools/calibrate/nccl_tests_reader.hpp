#pragma once
// Reads the output of NVIDIA's nccl-tests (all_reduce_perf and its siblings) as users keep it: the
// header ("# nThread 1 nGpus 8 ..."), one "#  Rank  r Group g Pid p on HOST device d [...] NAME"
// line per rank, then one row per size:
//
//   #       size   count   type   redop  root   time  algbw  busbw #wrong   time  algbw  busbw #wrong
//            (B) (elements)                     (us) (GB/s) (GB/s)          (us) (GB/s) (GB/s)
//     134217728 33554432  float     sum    -1   1046  128.3  224.5      0    1043  128.7  225.2      0
//
// The out-of-place time is the measurement (nccl-tests' own "Avg bus bandwidth" averages the
// same). Which collective ran is not in the rows: the reader takes it from a "Collective test
// starting: <binary>" line when the output has one, else from the file's name (all_reduce_perf,
// alltoall_perf, ... or all_reduce, all_to_all, ...), else refuses.

#include <string>
#include <vector>

#include "models/collective/collective_types.hpp"

namespace dcsim::tools::calibrate {

struct NcclTestsRow {
  double bytes = 0.0;
  double time_s = 0.0;  // out-of-place
  int line = 0;         // 1-based, for messages
};

struct NcclTestsRun {
  models::collective::CollectiveOp op = models::collective::CollectiveOp::kAllReduce;
  int ranks = 0;
  int hosts = 0;       // distinct host names of the rank lines
  std::string device;  // of rank 0 ("NVIDIA H100 80GB HBM3")
  std::vector<NcclTestsRow> rows;
};

// True when `text` looks like nccl-tests output (its header or rank lines).
bool looks_like_nccl_tests(const std::string& text);

// Throws sim::InputError "<display>:<line>: ..." for rows that do not parse, "<display>: ..." for
// output without rank lines or rows, ranks that do not split evenly over the hosts, or a
// collective the output and the name do not tell.
NcclTestsRun read_nccl_tests(const std::string& text, const std::string& display);

}  // namespace dcsim::tools::calibrate
