// libFuzzer target: the flow CSV readers (tools/scenario/flow_csv.hpp) on in-memory text.
// The first byte picks the reader and, for flow traces, the fabric's host count (0 .. 127);
// the rest is the file's content. sim::InputError is the expected rejection; anything else
// escaping, a crash or a record that breaks the reader's contract is a finding.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "sim/error.hpp"
#include "tools/scenario/flow_csv.hpp"

namespace {

[[noreturn]] void contract_broken(const char* what) {
  std::fprintf(stderr, "flow_csv_fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  try {
    if (selector & 0x80) {
      const auto sizes = dcsim::tools::scenario::read_size_csv(in, "fuzz.csv");
      if (sizes.empty()) contract_broken("read_size_csv returned no sizes");
      for (const double b : sizes) {
        if (!std::isfinite(b) || b < 0) contract_broken("read_size_csv returned a bad size");
      }
    } else {
      const std::size_t hosts = selector & 0x7f;
      const auto flows = dcsim::tools::scenario::read_flow_csv(in, "fuzz.csv", hosts);
      for (const auto& f : flows) {
        if (static_cast<std::size_t>(f.src) >= hosts || static_cast<std::size_t>(f.dst) >= hosts) {
          contract_broken("read_flow_csv returned a host out of range");
        }
        if (!std::isfinite(f.bytes) || f.bytes < 0) contract_broken("read_flow_csv returned bad bytes");
        if (f.start.ns() < 0) contract_broken("read_flow_csv returned a negative start");
      }
    }
  } catch (const dcsim::sim::InputError&) {
    // The expected rejection.
  }
  return 0;
}
