#include "models/workload/tp_overlap.hpp"

#include <algorithm>

#include "sim/error.hpp"

namespace dcsim::models::workload {

double split_gemm_s(const std::function<double(double)>& gemm_of_rows, double rows, int chunks, int streams) {
  if (chunks < 1 || streams < 1) throw sim::ConfigError("parallelism.tp", "overlap needs at least one chunk and stream");
  const int together = std::min(chunks, streams);
  const int full_groups = chunks / together, rest = chunks % together;
  double t = full_groups * gemm_of_rows(rows * together / chunks);
  if (rest > 0) t += gemm_of_rows(rows * rest / chunks);
  return t;
}

double overlapped_tp_exposed_s(double comm_s, double gemm_s, double split_gemm_s, int chunks) {
  if (chunks < 1) throw sim::ConfigError("parallelism.tp", "overlap needs at least one chunk");
  if (comm_s <= 0.0) return std::max(0.0, split_gemm_s - gemm_s);
  const double n = chunks;
  const double c = comm_s / n, g = split_gemm_s / n;
  return std::max(0.0, c + (n - 1.0) * std::max(c, g) + g - gemm_s);
}

}  // namespace dcsim::models::workload
