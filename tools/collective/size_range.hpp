#pragma once
// nccl-tests' message-size syntax for `dcsim collective --sizes`: "MIN:MAX" or one size, each a
// number with an optional K, M, G or T suffix. Like nccl-tests (-b/-e, parsesize() in
// src/common.cu) the suffixes are binary (1K = 1024 B, 8G = 8 x 2^30 B); a trailing "B" is
// accepted ("1KB" = "1K"), and so are "Ki"/"KiB" spellings.

#include <string_view>

namespace dcsim::tools::collective {

struct SizeRange {
  double min_bytes = 0.0;
  double max_bytes = 0.0;
};

// Throws sim::InputError "--sizes: ..." for an empty, malformed, zero or decreasing range.
SizeRange parse_size_range(std::string_view text);

}  // namespace dcsim::tools::collective
