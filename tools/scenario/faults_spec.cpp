#include "tools/scenario/faults_spec.hpp"

#include "sim/error.hpp"
#include "sim/time.hpp"
#include "sim/units.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace dcsim::tools::scenario {

using json = nlohmann::json;
using sim::QuantityKind;

namespace {

struct KindInfo {
  FaultTarget target;
  std::set<std::string> keys;      // besides at, kind
  std::string required_key;        // "" when none
  bool has_state;                  // can be "up" (a scripted repair)
  bool has_duration;               // can last a given time
};

const std::map<std::string, KindInfo>& kinds() {
  static const std::map<std::string, KindInfo> kKinds{
      {"link", {FaultTarget::kFabric, {"link", "state", "duration"}, "link", true, true}},
      {"switch", {FaultTarget::kFabric, {"switch", "state", "duration"}, "switch", true, true}},
      {"nic_port", {FaultTarget::kFabric, {"host", "port", "state", "duration"}, "host", true, true}},
      {"node", {FaultTarget::kNode, {"node", "state", "duration"}, "node", true, true}},
      {"job_crash", {FaultTarget::kNode, {"node"}, "node", false, false}},
      {"silent_data_corruption", {FaultTarget::kNode, {"node", "duration"}, "node", false, true}},
      {"osd_host", {FaultTarget::kStore, {"host", "duration"}, "host", false, true}},
      {"osd", {FaultTarget::kStore, {"host", "drive", "duration"}, "drive", false, true}},
      {"cdu_pump_failure", {FaultTarget::kPlant, {"zone", "flow_fraction", "duration"}, "", false, true}},
      {"cdu_failure", {FaultTarget::kPlant, {"zone", "count", "duration"}, "", false, true}},
      {"rdhx_fan_failure", {FaultTarget::kPlant, {"zone", "duration"}, "", false, true}},
      {"chilled_water_rise", {FaultTarget::kPlant, {"delta", "duration"}, "", false, true}},
      {"zone_cooling_loss", {FaultTarget::kPlant, {"zone", "duration"}, "", false, true}},
  };
  return kKinds;
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& [name, info] : kinds()) names.push_back(name);
  return names;
}

}  // namespace

FaultTarget fault_target(const std::string& kind) { return kinds().at(kind).target; }

FieldSpec faults_section() {
  return with_default(
      object_array_field(
          "faults",
          "Scripted faults, whatever part they hit: a fabric link, switch or NIC port (link ids and switch "
          "names as `dcsim topo SCENARIO --links` prints them), a node, or a cooling plant part. Random "
          "faults are /reliability. Files with /fabric/faults or /facility/faults (the format before this "
          "section) still load: their entries move here, with a notice.",
          {
              required(quantity_field("at", "When, from the start of the run.", QuantityKind::kDuration,
                                      at_least(0))),
              required(enum_field("kind",
                                  "What fails: `link` (one direction), `switch` (all its links), `nic_port` "
                                  "(one port of a host: flows fail over to the host's other ports, the bond), "
                                  "`node` (down: its jobs are interrupted and handed to the failover policy), "
                                  "`job_crash` (the node's jobs are interrupted, the node stays up), "
                                  "`osd_host` (a host of the shared store, /storage, with its OSDs: degraded reads, "
                                  "backfill once marked out), `osd` (one drive of an OSD host, the host up: its "
                                  "placement groups degraded, its host's drive bandwidth less one drive, exactly its "
                                  "data backfilled once marked out), "
                                  "`silent_data_corruption` (a GPU of the node computes wrong numbers: its training "
                                  "jobs run on corrupted state until /reliability/sdc_detection catches it; "
                                  "`duration` is the node's quarantine once caught), "
                                  "`cdu_pump_failure` (a zone's pumps lose flow), `cdu_failure` (`count` of a "
                                  "zone's CDUs out of service: its loop gets at most the working ones' rated flow), "
                                  "`rdhx_fan_failure`, `chilled_water_rise`, "
                                  "`zone_cooling_loss` (plant faults; need /facility).",
                                  "fault kind", kind_names())),
              with_default(enum_field("state",
                                      "Goes down, or comes back up (a scripted repair; link, switch, nic_port, "
                                      "node).",
                                      "fault state", {"down", "up"}),
                           "down"),
              with_default_note(quantity_field("duration",
                                               "Until repaired (every kind but job_crash; with state down); "
                                               "silent_data_corruption: the quarantine once caught (required).",
                                               QuantityKind::kDuration, above(0)),
                                "until a later `up` entry, or never"),
              integer_field("link", "Link id (kind `link`).", at_least(0)),
              string_field("switch", "Switch name such as \"s2.5\" (kind `switch`)."),
              integer_field("host", "Host index (kind `nic_port`); OSD host index, 0-based, of /storage (kinds "
                                    "`osd_host`, `osd`; 0 when left out).",
                            at_least(0)),
              integer_field("drive", "Drive of the OSD host, 0-based, below /storage/drives_per_host (kind `osd`).",
                            at_least(0)),
              with_default(integer_field("port", "NIC port of the host, NIC 0's first (kind `nic_port`).",
                                         at_least(0)),
                           0),
              integer_field("node", "Cluster node index (kinds `node`, `job_crash`, `silent_data_corruption`).",
                            at_least(0)),
              with_default(integer_field("zone", "Cooling zone index, -1 for all (cdu_pump_failure, cdu_failure, "
                                                 "rdhx_fan_failure, zone_cooling_loss).",
                                         at_least(-1)),
                           0),
              with_default(number_field("flow_fraction", "Pump failure: secondary flow left (redundant pumps).",
                                        between(0, 1)),
                           0.0),
              with_default(integer_field("count", "CDUs out of service in each zone it hits (kind `cdu_failure`).",
                                         between(1, 1000)),
                           1),
              with_default(quantity_field("delta", "Chilled-water rise (plant-wide); 0-40 C.",
                                          QuantityKind::kTemperature, between(0, 40)),
                           "5 C"),
          }),
      json::array());
}

namespace {

// /storage/faults entries ({host, at, repair}: repair a time, not a duration) as /faults
// entries of kind osd_host. An entry whose times do not parse moves as it is, and validation
// reports it at its new place.
json osd_host_fault(const json& legacy) {
  json out = legacy;
  if (!out.is_object()) return out;
  out["kind"] = "osd_host";
  if (out.contains("repair") && out["repair"].is_string() && out.contains("at") && out["at"].is_string()) {
    try {
      const double at = sim::parse_quantity(sim::QuantityKind::kDuration, out["at"].get<std::string>());
      const double repair = sim::parse_quantity(sim::QuantityKind::kDuration, out["repair"].get<std::string>());
      out.erase("repair");
      out["duration"] = std::to_string(repair - at) + " s";
    } catch (const std::exception&) {
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> migrate_legacy_faults(json& doc) {
  std::vector<std::string> notices;
  if (!doc.is_object()) return notices;
  if (doc.contains("storage") && doc["storage"].is_object() && doc["storage"].contains("faults") &&
      doc["storage"]["faults"].is_array() && (!doc.contains("faults") || doc["faults"].is_array())) {
    if (!doc.contains("faults")) doc["faults"] = json::array();
    const std::size_t first = doc["faults"].size(), count = doc["storage"]["faults"].size();
    for (const json& f : doc["storage"]["faults"]) doc["faults"].push_back(osd_host_fault(f));
    doc["storage"].erase("faults");
    if (count > 0) {
      notices.push_back("/storage/faults is the format before /faults: " +
                        (count == 1 ? "its entry is /faults/" + std::to_string(first)
                                    : "its " + std::to_string(count) + " entries are /faults/" +
                                          std::to_string(first) + " to /faults/" + std::to_string(first + count - 1)) +
                        " now, kind osd_host, its repair time a duration (move them there to silence this)");
    }
  }
  for (const char* section : {"fabric", "facility"}) {
    if (!doc.contains(section) || !doc[section].is_object()) continue;
    json& part = doc[section];
    if (!part.contains("faults") || !part["faults"].is_array()) continue;
    if (!doc.contains("faults")) doc["faults"] = json::array();
    if (!doc["faults"].is_array()) continue;  // validation reports the wrong type
    const std::size_t first = doc["faults"].size(), count = part["faults"].size();
    for (const json& fault : part["faults"]) doc["faults"].push_back(fault);
    part.erase("faults");
    if (count == 0) {
      notices.push_back(std::string("/") + section + "/faults is the format before /faults: an empty list, dropped");
    } else {
      const std::string moved = count == 1 ? "its entry is /faults/" + std::to_string(first)
                                           : "its " + std::to_string(count) + " entries are /faults/" +
                                                 std::to_string(first) + " to /faults/" +
                                                 std::to_string(first + count - 1);
      notices.push_back(std::string("/") + section + "/faults is the format before /faults: " + moved +
                        " now (move them there to silence this)");
    }
  }
  return notices;
}

void check_faults_cross_field(const json& given, const json& resolved, ErrorList& errors) {
  if (!given.contains("faults") || !given["faults"].is_array() || !resolved.contains("faults")) return;
  const json& faults = resolved["faults"];
  for (std::size_t i = 0; i < faults.size() && i < given["faults"].size(); ++i) {
    const json& x = given["faults"][i];
    const json& r = faults[i];
    if (!x.is_object() || !r.is_object() || !r.contains("kind") || !r["kind"].is_string()) continue;
    const std::string kind = r["kind"].get<std::string>();
    const auto it = kinds().find(kind);
    if (it == kinds().end()) continue;
    const KindInfo& info = it->second;
    const std::string base = "/faults/" + std::to_string(i);
    const std::string a = std::string("aeiou").find(kind.front()) == std::string::npos ? "a " : "an ";
    for (const auto& [key, value] : x.items()) {
      if (key != "at" && key != "kind" && !info.keys.count(key)) {
        errors.add(base + "/" + key, a + kind + " fault does not use `" + key + "` (remove it)");
      }
    }
    if (!info.required_key.empty() && !x.contains(info.required_key)) {
      errors.add(base + "/" + info.required_key, "missing required key for a " + kind + " fault");
    }
    if (kind == "silent_data_corruption" && !x.contains("duration")) {
      errors.add(base + "/duration",
                 "missing; a silent_data_corruption fault needs the node's quarantine once caught (\"4 h\": "
                 "diagnostics before it returns)");
    }
    if (x.contains("duration") && r.contains("state") && r["state"] == "up") {
      errors.add(base + "/duration", "only a fault that goes down lasts a duration; this one has state \"up\"");
    }
    const char* section = info.target == FaultTarget::kFabric   ? "fabric"
                          : info.target == FaultTarget::kPlant ? "facility"
                          : info.target == FaultTarget::kStore ? "storage"
                                                               : "cluster";
    if (!resolved.contains(section)) {
      errors.add(base + "/kind", a + kind + " fault needs the scenario's /" + std::string(section) +
                                     " section, which is absent");
    }
  }
}

std::vector<models::reliability::ScriptedNodeFault> map_node_faults(const json& faults, int nodes,
                                                                   const std::string& source) {
  using models::reliability::ScriptedNodeFault;
  std::vector<ScriptedNodeFault> out;
  std::vector<std::string> errors;
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const json& x = faults[i];
    const std::string kind = x.at("kind").get<std::string>();
    if (fault_target(kind) != FaultTarget::kNode) continue;
    ScriptedNodeFault f;
    f.at = sim::Time::from_seconds(x.at("at").get<double>());
    f.node = x.at("node").get<int>();
    if (f.node >= nodes) {
      errors.push_back(source + ":/faults/" + std::to_string(i) + "/node: " +
                       "expected a node below " + std::to_string(nodes) + " (/cluster/nodes), got " +
                       std::to_string(f.node));
      continue;
    }
    f.kind = kind == "job_crash"                ? ScriptedNodeFault::Kind::kJobCrash
             : kind == "silent_data_corruption"   ? ScriptedNodeFault::Kind::kSilentCorruption
             : x.at("state").get<std::string>() == "up" ? ScriptedNodeFault::Kind::kUp
                                                      : ScriptedNodeFault::Kind::kDown;
    if (f.kind == ScriptedNodeFault::Kind::kSilentCorruption) {
      f.quarantine = sim::Time::from_seconds(x.at("duration").get<double>());
      out.push_back(f);
      continue;
    }
    out.push_back(f);
    if (x.contains("duration")) {
      ScriptedNodeFault repair = f;
      repair.at = f.at + sim::Time::from_seconds(x.at("duration").get<double>());
      repair.kind = ScriptedNodeFault::Kind::kUp;
      out.push_back(repair);
    }
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  std::stable_sort(out.begin(), out.end(),
                   [](const ScriptedNodeFault& a, const ScriptedNodeFault& b) { return a.at < b.at; });
  return out;
}

std::optional<std::string> part_fault_pointer(std::string_view field, const nlohmann::json& faults,
                                              FaultTarget target) {
  const auto close = field.find(']');
  if (field.substr(0, 7) != "faults[" || close == std::string_view::npos) return std::nullopt;
  const std::string index(field.substr(7, close - 7));
  if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  std::size_t k = std::stoul(index);
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const nlohmann::json& f = faults[i];
    if (!f.contains("kind") || fault_target(f["kind"].get<std::string>()) != target || k-- > 0) continue;
    const std::string at = "/faults/" + std::to_string(i);
    const std::string_view rest = field.substr(close + 1);
    if (rest.size() > 1 && rest[0] == '.' && f.contains(std::string(rest.substr(1)))) {
      return at + "/" + std::string(rest.substr(1));
    }
    return at;
  }
  return std::nullopt;
}

}  // namespace dcsim::tools::scenario
