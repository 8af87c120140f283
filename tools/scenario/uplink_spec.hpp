#pragma once
// The scenario's `uplink` section (models/network/site_uplink.hpp): the site's internet ports
// and what crosses them. Its keys, bound to an UplinkConfig (binding.hpp), and the move of ports
// from where files before it kept them (/economics/ports).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/network/uplink_config.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/field_spec.hpp"

namespace dcsim::tools::scenario {

// The keys of /uplink and the UplinkConfig members they feed.
Bindings<models::network::UplinkConfig> uplink_bindings();

FieldSpec uplink_section();

// Moves /economics/ports to /uplink/ports (creating /uplink) and says so; leaves a document that
// already has /uplink/ports, or whose keys have the wrong types, to validation.
std::vector<std::string> migrate_legacy_ports(nlohmann::json& doc);

}  // namespace dcsim::tools::scenario
