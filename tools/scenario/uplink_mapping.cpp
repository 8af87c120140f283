#include "tools/scenario/uplink_mapping.hpp"

#include <set>
#include <vector>

#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/uplink_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;

models::network::UplinkConfig map_uplink_section(const json& uplink, const Scenario& s) {
  std::vector<std::string> errors;
  const auto error = [&](const std::string& pointer, const std::string& message) {
    errors.push_back(s.source + ":" + pointer + ": " + message);
  };
  models::network::UplinkConfig out;
  uplink_bindings().apply(uplink, out);
  const std::string base = "/uplink";

  std::set<double> speeds;
  for (std::size_t i = 0; i < out.ports.size(); ++i) {
    if (!speeds.insert(out.ports[i].speed_bps).second) {
      error(base + "/ports/" + std::to_string(i) + "/speed", "expected each port speed once; merge the counts");
    }
  }

  std::set<std::string> names;
  for (std::size_t i = 0; i < out.streams.size(); ++i) {
    const json& j = uplink.at("streams")[i];
    const std::string ptr = base + "/streams/" + std::to_string(i);
    models::network::UplinkStream& st = out.streams[i];
    if (!names.insert(st.name).second)
      error(ptr + "/name", "expected each stream name once, got '" + st.name + "' again");
    const bool sized = j.contains("size"), rated = j.contains("rate");
    if (sized && rated) {
      error(ptr + "/rate", "expected either size (bytes per transfer) or rate (a steady flow), got both");
    } else if (rated) {  // one transfer of rate x every per period, hourly unless the period is given
      if (st.every.is_max()) st.every = sim::Time::from_s(3600);
      st.bytes = j.at("rate").get<double>() / 8.0 * st.every.seconds();
    } else if (!sized) {
      error(ptr, "expected size (bytes per transfer) or rate (a steady flow), got neither");
    }
    if (!st.every.is_max() && s.duration.is_max()) {
      error(ptr + "/every", "a repeating stream needs /duration: it would never end");
    }
  }

  if (out.checkpoint_copies) {
    bool checkpoints = false;
    if (s.has_cluster) {
      for (const auto& t : s.cluster.training_jobs) checkpoints = checkpoints || t.checkpoint.interval_steps > 0;
    }
    if (!checkpoints) {
      error(base + "/checkpoint_copies",
            "no training job checkpoints (/workload/training/*/checkpoint/interval): "
            "there would be nothing to copy");
    }
  }
  if (out.gateway && out.ports.empty()) {
    error(base + "/gateway", "a gateway is where the ports terminate: give /uplink/ports, or leave the gateway out");
  }
  if ((!out.streams.empty() || out.checkpoint_copies) && out.ports.empty()) {
    error(base + "/ports",
          "expected at least one port: transfers cross the site's uplink at the ports' speed, got "
          "none");
  }
  if (!errors.empty()) throw sim::InputErrors(std::move(errors));
  return out;
}

}  // namespace dcsim::tools::scenario
