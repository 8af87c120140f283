#pragma once
// What one server costs, registered as "node price" under the node preset's name ("hgx-h100"),
// so a cluster's node preset finds its price by name.
//
// A node is priced as usd_per_node plus its itemised parts (GPUs, CPUs, memory, NVMe, NICs: any
// the caller has figures for), each count_per_node x usd_each. The presets carry whole-node
// quotes and no parts: the public figures are system prices, not part prices. To itemise, move
// money from usd_per_node into parts. includes_nics says whether the fabric's NIC ports are in
// the node price (then the fabric's capex does not price them again).

#include <string>
#include <vector>

#include "models/economics/price_preset.hpp"

namespace dcsim::models::economics {

struct NodePart {
  std::string name;  // "gpu", "cpu", "memory", "nvme", "nic", ...
  double count_per_node = 0.0;
  double usd_each = 0.0;
};

struct NodePrice {
  std::string name;  // a node preset name
  std::string source;
  std::string as_of;
  double usd_per_node = 0.0;  // what is not itemised in parts (the whole node without parts)
  std::vector<NodePart> parts;
  bool includes_nics = true;
};

// USD for one node: usd_per_node + sum(count_per_node x usd_each).
double node_total_usd(const NodePrice& price);

// sim::ConfigError naming the field (prefix + "usd_per_node", "parts[1].usd_each") for negative
// prices or counts, an unnamed part, or a node that costs nothing at all.
void validate(const NodePrice& price, const std::string& prefix);

std::vector<PriceField> price_fields(NodePrice& price);

// HGX H100 8-GPU server with 8 x 400G compute NICs: $313,500, the middle of the $310-317k quote.
NodePrice hgx_h100_price();
// NVIDIA DGX H100: about $270,000.
NodePrice dgx_h100_price();
// Estimates (no quote in the reference files; node_price.cpp says what each rests on).
NodePrice hgx_h800_price();
NodePrice dgx_b200_price();
NodePrice hgx_b200_price();
NodePrice gb200_nvl72_price();  // one compute tray: an 18th of the rack

void register_node_prices(sim::Registry<PricePresetFactory<NodePrice>>& registry);

}  // namespace dcsim::models::economics
