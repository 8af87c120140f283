#include "tools/calibrate/nccl_tests_reader.hpp"

#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::tools::calibrate {

namespace mc = models::collective;

namespace {

// nccl-tests' binaries and dcsim's names, as they may appear in a file name or a header line
// (longest first, so "reduce_scatter" is not read as "reduce").
const std::vector<std::pair<std::string, mc::CollectiveOp>>& op_names() {
  static const std::vector<std::pair<std::string, mc::CollectiveOp>> names{
      {"reduce_scatter", mc::CollectiveOp::kReduceScatter},
      {"all_reduce", mc::CollectiveOp::kAllReduce},
      {"all_gather", mc::CollectiveOp::kAllGather},
      {"all_to_all", mc::CollectiveOp::kAllToAll},
      {"alltoall", mc::CollectiveOp::kAllToAll},
      {"broadcast", mc::CollectiveOp::kBroadcast},
      {"sendrecv", mc::CollectiveOp::kPointToPoint},
      {"point_to_point", mc::CollectiveOp::kPointToPoint},
  };
  return names;
}

std::optional<mc::CollectiveOp> op_in(const std::string& text) {
  for (const auto& [name, op] : op_names()) {
    if (text.find(name) != std::string::npos) return op;
  }
  return std::nullopt;
}

bool number_of(const std::string& token, double& out) {
  std::size_t used = 0;
  try {
    out = std::stod(token, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == token.size() && std::isfinite(out);
}

}  // namespace

bool looks_like_nccl_tests(const std::string& text) {
  return text.find("# nThread") != std::string::npos ||
         (text.find("#  Rank") != std::string::npos && text.find("busbw") != std::string::npos);
}

NcclTestsRun read_nccl_tests(const std::string& text, const std::string& display) {
  NcclTestsRun run;
  std::set<std::string> hosts;
  std::optional<mc::CollectiveOp> op;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    if (w[0].front() == '#') {
      if (line.find("Collective test starting") != std::string::npos) op = op_in(line);
      // "#  Rank  0 Group  0 Pid  4242 on   node-a device  0 [0x18] NVIDIA H100 80GB HBM3"
      if (w.size() >= 7 && w[0] == "#" && w[1] == "Rank") {
        for (std::size_t i = 2; i + 1 < w.size(); ++i) {
          if (w[i] != "on") continue;
          hosts.insert(w[i + 1]);
          if (run.ranks == 0) {
            const auto bracket = line.find(']');
            const auto name = bracket == std::string::npos ? bracket : line.find_first_not_of(' ', bracket + 1);
            if (name != std::string::npos) run.device = line.substr(name);
          }
          ++run.ranks;
          break;
        }
      }
      continue;
    }
    // A data row: size count type redop root time algbw busbw #wrong (then in-place).
    double bytes = 0.0, count = 0.0, time_us = 0.0, algbw = 0.0, busbw = 0.0;
    if (w.size() < 8 || !number_of(w[0], bytes) || !number_of(w[1], count) || !number_of(w[5], time_us) ||
        !number_of(w[6], algbw) || !number_of(w[7], busbw)) {
      // nccl-tests prints a few non-# lines of its own (environment, "Out of bounds values"); a
      // line that starts with a number but does not parse is a damaged row.
      double first = 0.0;
      if (number_of(w[0], first)) {
        throw sim::InputError(display + ":" + std::to_string(number) +
                              ": expected an nccl-tests row (size count type redop root time algbw busbw "
                              "#wrong ...), got '" +
                              line + "'");
      }
      continue;
    }
    if (!(bytes > 0.0) || !(time_us > 0.0)) continue;  // a 0-byte row measures nothing
    run.rows.push_back({bytes, time_us * 1e-6, number});
  }
  if (run.ranks == 0) {
    throw sim::InputError(display +
                          ": no '#  Rank ... on HOST device ...' lines: cannot tell how many GPUs on how "
                          "many nodes ran the test (keep nccl-tests' whole output)");
  }
  if (run.rows.empty()) throw sim::InputError(display + ": no result rows (size count type ... time algbw busbw)");
  run.hosts = static_cast<int>(hosts.size());
  if (run.ranks % run.hosts != 0) {
    throw sim::InputError(display + ": " + std::to_string(run.ranks) + " ranks on " + std::to_string(run.hosts) +
                          " hosts: expected the same number of GPUs on every host");
  }
  if (!op) op = op_in(std::filesystem::path(display).filename().string());
  if (!op) {
    throw sim::InputError(display +
                          ": cannot tell which collective ran: the output has no 'Collective test starting' line; "
                          "name the file after the test (all_reduce_perf.txt, all_gather_perf.txt, "
                          "reduce_scatter_perf.txt, alltoall_perf.txt, broadcast_perf.txt, sendrecv_perf.txt)");
  }
  run.op = *op;
  return run;
}

}  // namespace dcsim::tools::calibrate
