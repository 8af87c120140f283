#include "tools/scenario/uplink_mapping.hpp"

#include <regex>
#include <set>
#include <vector>

#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace dc = models::datacenter;

dc::UplinkConfig map_uplink_section(const json& u, const Scenario& s) {
  std::vector<std::string> errors;
  const auto error = [&](const std::string& pointer, const std::string& message) {
    errors.push_back(s.source + ":" + pointer + ": " + message);
  };
  dc::UplinkConfig out;
  const std::string base = "/uplink";

  std::set<double> speeds;
  const json& ports = u.at("ports");
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const double speed = ports[i].at("speed").get<double>();
    if (!speeds.insert(speed).second) {
      error(base + "/ports/" + std::to_string(i) + "/speed", "expected each port speed once; merge the counts");
    }
    out.ports.push_back({speed, ports[i].at("count").get<std::int64_t>()});
  }

  std::set<std::string> names;
  const json& streams = u.at("streams");
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const json& j = streams[i];
    const std::string ptr = base + "/streams/" + std::to_string(i);
    dc::UplinkStream st;
    st.name = j.at("name").get<std::string>();
    if (!names.insert(st.name).second) error(ptr + "/name", "expected each stream name once, got '" + st.name + "' again");
    st.direction = j.at("direction").get<std::string>() == "in" ? models::network::UplinkDirection::kIn
                                                                 : models::network::UplinkDirection::kOut;
    st.start = sim::Time::from_seconds(j.at("start").get<double>());
    st.grow_bytes = j.at("grow_by").get<double>();
    const bool sized = j.contains("size"), rated = j.contains("rate");
    if (j.contains("every")) st.every = sim::Time::from_seconds(j.at("every").get<double>());
    if (sized && rated) {
      error(ptr + "/rate", "expected either size (bytes per transfer) or rate (a steady flow), got both");
    } else if (sized) {
      st.bytes = j.at("size").get<double>();
    } else if (rated) {
      if (st.every.is_max()) st.every = sim::Time::from_s(3600);
      st.bytes = j.at("rate").get<double>() / 8.0 * st.every.seconds();
    } else {
      error(ptr, "expected size (bytes per transfer) or rate (a steady flow), got neither");
    }
    if (!st.every.is_max() && s.duration.is_max()) {
      error(ptr + "/every", "a repeating stream needs /duration: it would never end");
    }
    out.streams.push_back(std::move(st));
  }

  if (u.contains("checkpoint_copies")) {
    const json& copies = u.at("checkpoint_copies");
    out.checkpoint_copies = dc::CheckpointCopies{copies.at("every_nth").get<int>(),
                                                 copies.contains("staging_slots") ? copies.at("staging_slots").get<int>() : 0};
    bool checkpoints = false;
    if (s.has_cluster) {
      for (const auto& t : s.cluster.training_jobs) checkpoints = checkpoints || t.checkpoint.interval_steps > 0;
    }
    if (!checkpoints) {
      error(base + "/checkpoint_copies", "no training job checkpoints (/workload/training/*/checkpoint/interval): "
                                         "there would be nothing to copy");
    }
  }
  if ((!out.streams.empty() || out.checkpoint_copies) && out.ports.empty()) {
    error(base + "/ports", "expected at least one port: transfers cross the site's uplink at the ports' speed, got "
                           "none");
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  return out;
}

std::string uplink_field_pointer(const std::string& field) {
  static const std::regex kIndexed(R"(^(ports|streams)\[(\d+)\]\.(\w+)$)");
  static const std::regex kCopies(R"(^checkpoint_copies(\.(\w+))?$)");
  std::smatch m;
  if (std::regex_match(field, m, kIndexed)) {
    std::string key = m[3].str();
    if (key == "speed_bps") key = "speed";
    if (key == "bytes") key = "size";
    if (key == "grow_bytes") key = "grow_by";
    return "/uplink/" + m[1].str() + "/" + m[2].str() + "/" + key;
  }
  if (std::regex_match(field, m, kCopies)) return "/uplink/checkpoint_copies" + (m[2].matched ? "/" + m[2].str() : "");
  if (field == "ports") return "/uplink/ports";
  return "/uplink";
}

}  // namespace dcsim::tools::scenario
