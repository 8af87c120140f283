#pragma once
// Writes trace events one per line into the "traceEvents" array (timeline_json.cpp). Fields in a
// fixed order, numbers in their shortest round-trip form, times as microseconds with three
// decimals from integer nanoseconds: the same events give the same bytes.
//
// A complete ("X") slice ends where a viewer computes ts + dur, and some viewers (speedscope)
// add the two in double arithmetic: 8734225.631 + 1496.047 need not be the double of
// 8735721.678, so a step's last child could end after its parent, or a phase after the next one
// starts, and the viewer's nesting breaks. complete_duration() prints dur so that the double sum
// is exactly the double of the end's own three-decimal form: the exact three decimals when they
// already add up (most slices), else the nearest double that does, in shortest round-trip form
// (within 1e-9 us of the exact value: a viewer that rounds to nanoseconds reads the exact end).

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/trace_sink.hpp"

namespace dcsim::tools::output::timeline {

// A JSON string literal (UTF-8 kept; invalid bytes replaced, never an exception).
inline std::string quote(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A JSON number; NaN and infinities (which JSON lacks) as null.
inline std::string number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string("null"); }

// Nanoseconds as microseconds, exactly: 1234567 -> "1234.567".
inline std::string micros(std::int64_t ns) {
  const std::int64_t a = ns < 0 ? -ns : ns;
  return fmt::format("{}{}.{:03d}", ns < 0 ? "-" : "", a / 1000, static_cast<int>(a % 1000));
}

// The "dur" of a slice [ts_ns, ts_ns + dur_ns): see the header comment.
inline std::string complete_duration(std::int64_t ts_ns, std::int64_t dur_ns) {
  std::string exact = micros(dur_ns);
  const double ts = std::strtod(micros(ts_ns).c_str(), nullptr);
  const double end = std::strtod(micros(ts_ns + dur_ns).c_str(), nullptr);
  double dur = std::strtod(exact.c_str(), nullptr);
  if (ts + dur == end) return exact;
  dur = end - ts;
  for (int i = 0; i < 4 && ts + dur != end; ++i) dur = std::nextafter(dur, ts + dur < end ? HUGE_VAL : -HUGE_VAL);
  return ts + dur == end ? fmt::format("{}", dur) : exact;
}

inline std::string cell(const sim::Cell& c) {
  if (std::holds_alternative<std::int64_t>(c)) return fmt::format("{}", std::get<std::int64_t>(c));
  if (std::holds_alternative<double>(c)) return number(std::get<double>(c));
  return quote(std::get<std::string>(c));
}

// `"key":value` pairs joined into an object: Args().add("cause", quote(c)).text() == {"cause":"..."}
class Args {
 public:
  Args& add(const std::string& key, const std::string& json_value) {
    body_ += (body_.empty() ? "" : ",") + quote(key) + ":" + json_value;
    return *this;
  }
  std::string text() const { return "{" + body_ + "}"; }
  bool empty() const { return body_.empty(); }

 private:
  std::string body_;
};

class EventWriter {
 public:
  explicit EventWriter(std::ostream& out) : out_(out) {}

  void metadata(const char* what, int pid, int tid, const Args& args) {
    line(fmt::format(R"({{"name":"{}","ph":"M","pid":{},"tid":{},"args":{}}})", what, pid, tid, args.text()));
  }
  void complete(const std::string& name, const std::string& cat, std::int64_t ts_ns, std::int64_t dur_ns, int pid,
                int tid, const Args& args) {
    line(fmt::format(R"({{"name":{},"cat":{},"ph":"X","ts":{},"dur":{},"pid":{},"tid":{},"args":{}}})", quote(name),
                     quote(cat), micros(ts_ns), complete_duration(ts_ns, dur_ns), pid, tid, args.text()));
  }
  void instant(const std::string& name, const std::string& cat, std::int64_t ts_ns, int pid, int tid,
               const Args& args) {
    line(fmt::format(R"({{"name":{},"cat":{},"ph":"i","s":"t","ts":{},"pid":{},"tid":{},"args":{}}})", quote(name),
                     quote(cat), micros(ts_ns), pid, tid, args.text()));
  }
  void counter(const std::string& name, std::int64_t ts_ns, int pid, const std::string& key, double value) {
    line(fmt::format(R"({{"name":{},"ph":"C","ts":{},"pid":{},"tid":0,"args":{{{}:{}}}}})", quote(name),
                     micros(ts_ns), pid, quote(key), number(value)));
  }
  std::size_t events() const { return events_; }

 private:
  void line(const std::string& event) {
    out_ << (events_ == 0 ? "\n" : ",\n") << event;
    ++events_;
  }
  std::ostream& out_;
  std::size_t events_ = 0;
};

}  // namespace dcsim::tools::output::timeline
