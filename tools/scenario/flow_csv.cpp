#include "tools/scenario/flow_csv.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <istream>

#include "sim/error.hpp"
#include "tools/scenario/job_trace_rows.hpp"

namespace dcsim::tools::scenario {

namespace {

using trace_rows::LineReader;

// The whole cell must be a finite number: "12abc" or "1e400" are errors, not 12 or inf (nor is
// "+5", which the job traces' parse_number takes).
bool parse_number(const std::string& cell, double& out) {
  if (cell.empty()) return false;
  const char* end = cell.data() + cell.size();
  const auto [ptr, ec] = std::from_chars(cell.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

models::network::NodeId parse_host(const LineReader& r, const std::string& cell, std::size_t hosts) {
  const std::string digits = !cell.empty() && cell[0] == 'h' ? cell.substr(1) : cell;
  std::uint64_t id = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, id);
  if (digits.empty() || ec != std::errc() || ptr != end) {
    r.fail("expected a host such as h3 or 3, got '" + cell + "'");
  }
  if (id >= hosts) {
    r.fail("unknown host '" + cell + "' (the fabric has hosts h0 .. h" + std::to_string(hosts - 1) + ")");
  }
  return static_cast<models::network::NodeId>(id);
}

}  // namespace

std::vector<models::network::FlowRecord> read_flow_csv(std::istream& in, const std::string& display,
                                                       std::size_t hosts) {
  LineReader r(in, display, '#');
  std::string line;
  if (!r.next(line)) throw sim::InputError(display + ": empty flow trace; expected a header src,dst,bytes,start_s");
  if (trace_rows::split_commas(line) != std::vector<std::string>{"src", "dst", "bytes", "start_s"}) {
    r.fail("expected the header src,dst,bytes,start_s, got '" + line + "'");
  }
  std::vector<models::network::FlowRecord> out;
  while (r.next(line)) {
    const auto cells = trace_rows::split_commas(line);
    if (cells.size() != 4) r.fail("expected 4 cells (src,dst,bytes,start_s), got " + std::to_string(cells.size()));
    models::network::FlowRecord f;
    f.src = parse_host(r, cells[0], hosts);
    f.dst = parse_host(r, cells[1], hosts);
    double start_s = 0;
    if (!parse_number(cells[2], f.bytes)) r.fail("column bytes: expected a number, got '" + cells[2] + "'");
    if (f.bytes < 0) r.fail("column bytes: expected a size >= 0, got " + cells[2]);
    if (!parse_number(cells[3], start_s)) r.fail("column start_s: expected a number, got '" + cells[3] + "'");
    if (start_s < 0) r.fail("column start_s: expected a time >= 0, got " + cells[3]);
    f.start = sim::Time::from_seconds(start_s);
    out.push_back(f);
  }
  return out;
}

std::vector<models::network::FlowRecord> read_flow_csv(const std::string& path, const std::string& display,
                                                       std::size_t hosts, const std::string& named_at) {
  std::ifstream in = open_data_file(path, display, named_at);
  return read_flow_csv(in, display, hosts);
}

std::vector<double> read_size_csv(std::istream& in, const std::string& display) {
  LineReader r(in, display, '#');
  std::string line;
  std::vector<double> out;
  bool first = true;
  while (r.next(line)) {
    const bool header = first && line == "bytes";
    first = false;
    if (header) continue;
    double bytes = 0;
    if (!parse_number(line, bytes)) r.fail("expected a number of bytes, got '" + line + "'");
    if (bytes < 0) r.fail("expected a size >= 0, got " + line);
    out.push_back(bytes);
  }
  if (out.empty()) throw sim::InputError(display + ": expected at least one flow size, found none");
  return out;
}

std::vector<double> read_size_csv(const std::string& path, const std::string& display, const std::string& named_at) {
  std::ifstream in = open_data_file(path, display, named_at);
  return read_size_csv(in, display);
}

}  // namespace dcsim::tools::scenario
