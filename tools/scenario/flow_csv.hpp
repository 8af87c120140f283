#pragma once
// Reading the CSV files a traffic section names: flow traces for replay and lists of flow sizes.
// Every problem is a sim::InputError naming file and line, as editors jump to them:
//   flows.csv:17: unknown host 'h99' (the fabric has hosts h0 .. h15)
//   flows.csv:4: column bytes: expected a non-negative number of bytes, got "-5"
// Lines that are empty or start with '#' are skipped.

#include <cstddef>
#include <fstream>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/network/traffic.hpp"
#include "tools/scenario/data_file.hpp"  // open_data_file, used by every data-file reader

namespace dcsim::tools::scenario {

// Header `src,dst,bytes,start_s` (required, in that order); hosts as `h12` or `12`, in
// [0, hosts); bytes >= 0; start_s >= 0 seconds. `display` is how messages name the file;
// `named_at` the key that names it (open_data_file).
std::vector<models::network::FlowRecord> read_flow_csv(const std::string& path, const std::string& display,
                                                       std::size_t hosts, const std::string& named_at = "");
// The same, from a stream (the path version opens the file, "cannot open file" when it cannot).
std::vector<models::network::FlowRecord> read_flow_csv(std::istream& in, const std::string& display,
                                                       std::size_t hosts);

// One size in bytes per line (a plain number >= 0), an optional `bytes` header; at least one.
std::vector<double> read_size_csv(const std::string& path, const std::string& display,
                                  const std::string& named_at = "");
std::vector<double> read_size_csv(std::istream& in, const std::string& display);


}  // namespace dcsim::tools::scenario
