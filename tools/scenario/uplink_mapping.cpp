#include "tools/scenario/uplink_mapping.hpp"

#include <set>
#include <vector>

#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace dc = models::datacenter;

dc::UplinkConfig map_uplink_section(const json& uplink, const Scenario& s, FieldOrigins& origins) {
  std::vector<std::string> errors;
  const auto error = [&](const std::string& pointer, const std::string& message) {
    errors.push_back(s.source + ":" + pointer + ": " + message);
  };
  dc::UplinkConfig out;
  const std::string base = "/uplink";
  const OriginReader u(uplink, base, "", origins);

  std::set<double> speeds;
  const json& ports = u.at("ports", "ports");
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const std::string index = std::to_string(i);
    const OriginReader port(ports[i], base + "/ports/" + index, "ports[" + index + "].", origins);
    const double speed = port.at("speed", "speed_bps").get<double>();
    if (!speeds.insert(speed).second) error(port.pointer() + "/speed", "expected each port speed once; merge the counts");
    out.ports.push_back({speed, port.at("count", "count").get<std::int64_t>()});
  }

  std::set<std::string> names;
  const json& streams = u.at("streams", "streams");
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const std::string index = std::to_string(i);
    const OriginReader j(streams[i], base + "/streams/" + index, "streams[" + index + "].", origins);
    const std::string& ptr = j.pointer();
    dc::UplinkStream st;
    st.name = j.at("name", "name").get<std::string>();
    if (!names.insert(st.name).second) error(ptr + "/name", "expected each stream name once, got '" + st.name + "' again");
    st.direction = j.at("direction", "direction").get<std::string>() == "in" ? models::network::UplinkDirection::kIn
                                                                              : models::network::UplinkDirection::kOut;
    st.start = sim::Time::from_seconds(j.at("start", "start").get<double>());
    st.grow_bytes = j.at("grow_by", "grow_bytes").get<double>();
    const bool sized = j.contains("size"), rated = j.contains("rate");
    if (j.contains("every")) st.every = sim::Time::from_seconds(j.at("every", "every").get<double>());
    if (sized && rated) {
      error(ptr + "/rate", "expected either size (bytes per transfer) or rate (a steady flow), got both");
    } else if (sized) {
      st.bytes = j.at("size", "bytes").get<double>();
    } else if (rated) {
      if (st.every.is_max()) st.every = sim::Time::from_s(3600);
      st.bytes = j.at("rate", "bytes").get<double>() / 8.0 * st.every.seconds();
    } else {
      error(ptr, "expected size (bytes per transfer) or rate (a steady flow), got neither");
    }
    if (!st.every.is_max() && s.duration.is_max()) {
      error(ptr + "/every", "a repeating stream needs /duration: it would never end");
    }
    out.streams.push_back(std::move(st));
  }

  if (u.contains("gateway")) {
    const OriginReader g = u.object("gateway", "gateway.");
    out.gateway = dc::UplinkGateway{g.at("network", "network").get<std::string>() == "backend",
                                    g.at("host", "host").get<int>()};
  }

  if (u.contains("checkpoint_copies")) {
    const OriginReader copies = u.object("checkpoint_copies", "checkpoint_copies.");
    out.checkpoint_copies = dc::CheckpointCopies{
        copies.at("every_nth", "every_nth").get<int>(),
        copies.contains("staging_slots") ? copies.at("staging_slots", "staging_slots").get<int>() : 0};
    bool checkpoints = false;
    if (s.has_cluster) {
      for (const auto& t : s.cluster.training_jobs) checkpoints = checkpoints || t.checkpoint.interval_steps > 0;
    }
    if (!checkpoints) {
      error(base + "/checkpoint_copies", "no training job checkpoints (/workload/training/*/checkpoint/interval): "
                                         "there would be nothing to copy");
    }
  }
  if (out.gateway && out.ports.empty()) {
    error(base + "/gateway", "a gateway is where the ports terminate: give /uplink/ports, or leave the gateway out");
  }
  if ((!out.streams.empty() || out.checkpoint_copies) && out.ports.empty()) {
    error(base + "/ports", "expected at least one port: transfers cross the site's uplink at the ports' speed, got "
                           "none");
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  return out;
}

}  // namespace dcsim::tools::scenario
