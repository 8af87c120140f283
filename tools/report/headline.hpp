#pragma once
// The headline results of a run, as labelled lines: `dcsim run` prints them after a run and
// `dcsim report` puts them at the top of its page. Built from summary.json's data and a few facts
// about the scenario, so a finished run directory (trace.h5's /meta) gives the same lines as the
// run that wrote it.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace dcsim::tools::report {

// What the headline needs to know about the scenario beyond its summary values.
struct HeadlineFacts {
  std::string name;
  std::uint64_t seed = 0;
  bool has_cluster = false;
  bool has_facility = false;
  bool has_fabric = false;
  double cluster_nodes = 0;   // /cluster/nodes (0 without a cluster)
  bool has_frontend = false;  // /frontend: the nodes' front-end network
  bool has_reliability = false;
  bool has_storage = false;   // /storage: the shared object store
  bool has_nvmeof = false;    // /nvmeof: NVMe-oF targets
  bool uplink_carries_traffic = false;  // /uplink with streams or checkpoint copies
  bool has_economics = false;
  std::vector<std::string> cloud_options;  // /economics/cloud offers, in scenario order
  std::vector<std::string> trace_notes;    // "<trace>: <what it gave>" per /workload/traces entry
  std::vector<std::string> services;       // /inference/services names, in scenario order
};

// The facts as the resolved scenario (trace.h5 /meta scenario_resolved) records them; trace notes
// are not recorded there and stay empty.
HeadlineFacts headline_facts_from_resolved(const nlohmann::json& resolved, std::uint64_t seed);

struct HeadlineLine {
  std::string label;  // "IT energy", "jobs", ...
  std::string text;
};

// The lines in reading order; sections the scenario does not have are left out.
std::vector<HeadlineLine> headline_lines(const HeadlineFacts& facts, const nlohmann::json& summary);

// "  <label padded to 12 columns><text>\n", the terminal layout.
std::string headline_text_line(const HeadlineLine& line);

// Durations and money as the headline writes them: "2.50 h" / "45.0 min"; "1.234 ms"; "$1.2k".
std::string hours_text(double seconds);
// A period: "45.0 min", "2.50 h", from two days up "1,095.75 d".
std::string span_text(double seconds);
std::string short_time_text(double seconds);
std::string short_usd_text(double usd);
// Numbers and money with thousands separators, as a reader compares them: "1,234,567.9";
// "$1,234,567" (whole dollars from $1,000 up, cents below), "-$4,600,000"; usd_text(x, 2) always
// with that many decimals ("$502,353.12").
std::string grouped(double value, int decimals);
std::string usd_text(double usd);
std::string usd_text(double usd, int decimals);

// The cost breakdowns' summary keys with the words the headline and the report use for them:
// the capex categories ("servers_usd" -> "servers", ..., in the order they sum), and the TCO items
// of owning and of a cloud offer ("book_value_credit_usd" -> "book value left", ...).
using CostLabels = std::vector<std::pair<std::string, std::string>>;
const CostLabels& capex_category_labels();
const CostLabels& tco_item_labels();

}  // namespace dcsim::tools::report
