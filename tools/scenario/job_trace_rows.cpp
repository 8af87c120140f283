#include "tools/scenario/job_trace_rows.hpp"

#include <charconv>
#include <cmath>

#include "sim/error.hpp"

namespace dcsim::tools::scenario::trace_rows {

namespace {

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Long cells (a stray binary file) are cut in messages, which must stay one readable line.
std::string shown(std::string_view cell) {
  constexpr std::size_t kMax = 40;
  return cell.size() <= kMax ? std::string(cell) : std::string(cell.substr(0, kMax)) + "...";
}

}  // namespace

LineReader::LineReader(std::istream& in, std::string display, char comment)
    : in_(in), display_(std::move(display)), comment_(comment) {}

bool LineReader::next(std::string& line) {
  while (std::getline(in_, line)) {
    ++number_;
    line = std::string(trim(line));
    if (!line.empty() && line[0] != comment_) return true;
  }
  if (in_.bad()) throw sim::InputError(display_ + ": cannot read file");
  return false;
}

void LineReader::fail(const std::string& message) const {
  throw sim::InputError(display_ + ":" + std::to_string(number_) + ": " + message);
}

std::vector<std::string_view> split_whitespace(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
  return out;
}

std::vector<std::string> header_row(const LineReader& r, const std::string& line, const std::vector<std::string>& header) {
  auto cells = split_commas(line);
  if (cells.size() < header.size()) {
    r.fail("missing field " + header[cells.size()] + ": expected " + std::to_string(header.size()) +
           " comma-separated cells as in the header, got " + std::to_string(cells.size()));
  }
  if (cells.size() > header.size()) {
    r.fail("expected " + std::to_string(header.size()) + " comma-separated cells as in the header, got " +
           std::to_string(cells.size()));
  }
  return cells;
}

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (;;) {
    const auto comma = line.find(',', begin);
    const auto cell = std::string_view(line).substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    out.emplace_back(trim(cell));
    if (comma == std::string::npos) return out;
    begin = comma + 1;
  }
}

bool parse_number(std::string_view cell, double& out) {
  if (cell.empty()) return false;
  // from_chars rejects a leading '+', which SWF writers never emit but spreadsheets may.
  if (cell[0] == '+') cell.remove_prefix(1);
  const char* end = cell.data() + cell.size();
  const auto [ptr, ec] = std::from_chars(cell.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

double number_cell(const LineReader& r, const std::string& field, std::string_view cell, const std::string& expected) {
  double v = 0;
  if (!parse_number(cell, v)) r.fail(field + ": expected " + expected + ", got \"" + shown(cell) + "\"");
  return v;
}

long long integer_cell(const LineReader& r, const std::string& field, std::string_view cell, long long lo,
                       long long hi) {
  const std::string expected =
      "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  double v = 0;
  if (!parse_number(cell, v) || v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
    r.fail(field + ": expected " + expected + ", got \"" + shown(cell) + "\"");
  }
  return static_cast<long long>(v);
}

}  // namespace dcsim::tools::scenario::trace_rows
