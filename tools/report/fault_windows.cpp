#include "tools/report/fault_windows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace dcsim::tools::report {

namespace {

// Open faults by key; a close ends the earliest open one (faults of one key repair in order).
class OpenFaults {
 public:
  void open(const std::string& key, double at_s, std::string what) { open_[key].push_back({at_s, at_s, std::move(what)}); }
  void close(const std::string& key, double at_s, std::vector<FaultWindow>& out) {
    auto it = open_.find(key);
    if (it == open_.end() || it->second.empty()) return;  // a repair of a fault from before the trace: nothing to draw
    FaultWindow w = it->second.front();
    it->second.erase(it->second.begin());
    w.end_s = at_s;
    out.push_back(std::move(w));
  }
  void close_all(double end_s, std::vector<FaultWindow>& out) {
    for (auto& [key, windows] : open_) {
      for (auto& w : windows) {
        w.end_s = std::max(w.start_s, end_s);
        out.push_back(std::move(w));
      }
    }
    open_.clear();
  }

 private:
  std::map<std::string, std::vector<FaultWindow>> open_;
};

void random_faults(const output::TraceReader& trace, std::vector<FaultWindow>& out) {
  const std::string t = "events/faults";
  if (!trace.has_table(t) || trace.table_rows(t) == 0) return;
  const auto time = trace.read_number_column(t, "time_s");
  const auto repair = trace.read_number_column(t, "repair_s");
  const auto kind = trace.read_string_column(t, "class");
  for (std::size_t i = 0; i < time.size(); ++i) {
    out.push_back({time[i], time[i] + (std::isfinite(repair[i]) ? std::max(0.0, repair[i]) : 0.0), kind[i]});
  }
}

void node_faults(const output::TraceReader& trace, OpenFaults& open, std::vector<FaultWindow>& out) {
  const std::string t = "events/node_faults";
  if (!trace.has_table(t) || trace.table_rows(t) == 0) return;
  const auto time = trace.read_number_column(t, "time_s");
  const auto kind = trace.read_string_column(t, "kind");
  const auto node = trace.read_number_column(t, "node");
  for (std::size_t i = 0; i < time.size(); ++i) {
    const std::string key = fmt::format("node {}", node[i]);
    if (kind[i] == "node_down") {
      open.open(key, time[i], "node_down");
    } else if (kind[i] == "node_up") {
      open.close(key, time[i], out);
    } else {
      out.push_back({time[i], time[i], kind[i]});
    }
  }
}

void network_faults(const output::TraceReader& trace, const std::string& t, OpenFaults& open,
                    std::vector<FaultWindow>& out) {
  if (!trace.has_table(t) || trace.table_rows(t) == 0) return;
  const auto time_ns = trace.read_number_column(t, "time_ns");
  const auto kind = trace.read_string_column(t, "kind");
  const auto target = trace.read_string_column(t, "target");
  const auto state = trace.read_string_column(t, "state");
  for (std::size_t i = 0; i < time_ns.size(); ++i) {
    const std::string key = t + " " + kind[i] + " " + target[i];
    if (state[i] == "down") {
      open.open(key, time_ns[i] * 1e-9, kind[i] + "_down");
    } else {
      open.close(key, time_ns[i] * 1e-9, out);
    }
  }
}

void plant_faults(const output::TraceReader& trace, OpenFaults& open, std::vector<FaultWindow>& out) {
  const std::string t = "events/facility";
  if (!trace.has_table(t) || trace.table_rows(t) == 0) return;
  static const std::set<std::string> kPlantFaults = {"cdu_pump_failure", "cdu_failure", "rdhx_fan_failure",
                                                     "chilled_water_rise", "zone_cooling_loss"};
  const auto time = trace.read_number_column(t, "time_s");
  const auto kind = trace.read_string_column(t, "kind");
  const auto zone = trace.read_number_column(t, "zone");
  const auto detail = trace.read_string_column(t, "detail");
  for (std::size_t i = 0; i < time.size(); ++i) {
    if (!kPlantFaults.contains(kind[i])) continue;
    const std::string key = fmt::format("{} zone {}", kind[i], zone[i]);
    if (detail[i].find("begins") != std::string::npos) {
      open.open(key, time[i], kind[i]);
    } else if (detail[i].find("repaired") != std::string::npos) {
      open.close(key, time[i], out);
    }
  }
}

}  // namespace

std::vector<FaultWindow> read_fault_windows(const output::TraceReader& trace, double end_s) {
  std::vector<FaultWindow> out;
  OpenFaults open;
  random_faults(trace, out);
  node_faults(trace, open, out);
  network_faults(trace, "events/network/faults", open, out);
  network_faults(trace, "events/frontend/faults", open, out);
  plant_faults(trace, open, out);
  open.close_all(end_s, out);
  std::stable_sort(out.begin(), out.end(),
                   [](const FaultWindow& a, const FaultWindow& b) { return a.start_s < b.start_s; });
  return out;
}

std::vector<FaultWindow> merge_fault_windows(std::vector<FaultWindow> windows, double min_gap_s) {
  std::stable_sort(windows.begin(), windows.end(),
                   [](const FaultWindow& a, const FaultWindow& b) { return a.start_s < b.start_s; });
  std::vector<FaultWindow> out;
  std::size_t count = 0;
  std::vector<std::string> kinds;  // first seen first
  const auto close = [&] {
    if (out.empty()) return;
    std::string names;
    for (std::size_t k = 0; k < kinds.size() && k < 3; ++k) names += (k == 0 ? "" : ", ") + kinds[k];
    if (kinds.size() > 3) names += fmt::format(" and {} more", kinds.size() - 3);
    out.back().what = count == 1 ? "fault: " + names : fmt::format("{} faults: {}", count, names);
  };
  for (auto& w : windows) {
    if (!out.empty() && w.start_s <= out.back().end_s + min_gap_s) {
      out.back().end_s = std::max(out.back().end_s, w.end_s);
    } else {
      close();
      out.push_back({w.start_s, w.end_s, ""});
      count = 0;
      kinds.clear();
    }
    ++count;
    if (std::find(kinds.begin(), kinds.end(), w.what) == kinds.end()) kinds.push_back(w.what);
  }
  close();
  return out;
}

}  // namespace dcsim::tools::report
