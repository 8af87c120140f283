#include "models/economics/node_price.hpp"

#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::economics {

double node_total_usd(const NodePrice& p) {
  double usd = p.usd_per_node;
  for (const NodePart& part : p.parts) usd += part.count_per_node * part.usd_each;
  return usd;
}

void validate(const NodePrice& p, const std::string& prefix) {
  require_non_negative(p.usd_per_node, prefix + "usd_per_node");
  for (std::size_t i = 0; i < p.parts.size(); ++i) {
    const std::string field = prefix + "parts[" + std::to_string(i) + "].";
    if (p.parts[i].name.empty()) throw sim::ConfigError(field + "name", "expected a part name");
    require_non_negative(p.parts[i].count_per_node, field + "count_per_node", "count");
    require_non_negative(p.parts[i].usd_each, field + "usd_each");
  }
  // A free server would make every owning cost meaningless; it is a missing price, not a price.
  if (!(node_total_usd(p) > 0.0)) {
    throw sim::ConfigError(prefix + "usd_per_node", "expected a node that costs something (usd_per_node plus parts), got 0");
  }
}

std::vector<PriceField> price_fields(NodePrice& p) {
  std::vector<PriceField> fields{{"usd_per_node", &p.usd_per_node, "node price beyond its itemised parts"}};
  for (NodePart& part : p.parts) {
    fields.push_back({part.name + "_usd_each", &part.usd_each, "price of one " + part.name});
  }
  return fields;
}

// public-figures.md, Costs: "DGX H100 purchase | about $270k; HGX node with 8x400G about
// $310-317k; 64-port 400G switch $36-50k | SemiAnalysis via epoch-research; Thinkmate quote | S/B".
NodePrice hgx_h100_price() {
  NodePrice p;
  p.name = "hgx-h100";
  p.source = "Thinkmate quote via public-figures.md: HGX H100 node with 8 x 400G, $310-317k (midpoint)";
  p.as_of = "undated (reference of 2026)";
  p.usd_per_node = (310'000.0 + 317'000.0) / 2;  // 313,500
  p.includes_nics = true;                        // the quote is for the node "with 8x400G"
  return p;
}

NodePrice dgx_h100_price() {
  NodePrice p;
  p.name = "dgx-h100";
  p.source = "SemiAnalysis via epoch-research (public-figures.md): DGX H100 about $270k";
  p.as_of = "undated (reference of 2026)";
  p.usd_per_node = 270'000.0;
  p.includes_nics = true;  // a DGX ships with its ConnectX-7 NICs
  return p;
}

// Not in the reference files: estimates to be replaced by a quote. The export H800 server is the
// hgx-h100 hardware (the same price); DGX B200 about $515,000 (list price in 2024 reseller and
// press reports); GB200 NVL72 about $3.0M a rack (press estimates of 2024-25), over its 18 compute
// trays, so each tray carries its share of the NVLink switch trays and power shelves.
namespace {

// A node price that is an estimate, not a quote; NICs included as in every whole-node price here.
NodePrice estimated(std::string name, std::string source, std::string as_of, double usd) {
  NodePrice p;
  p.name = std::move(name);
  p.source = "estimate: " + std::move(source);
  p.as_of = std::move(as_of);
  p.usd_per_node = usd;
  p.includes_nics = true;
  return p;
}

}  // namespace

NodePrice hgx_h800_price() {
  return estimated("hgx-h800", "the hgx-h100 quote (same server, export H800 GPUs)", hgx_h100_price().as_of,
                   hgx_h100_price().usd_per_node);
}

NodePrice dgx_b200_price() {
  return estimated("dgx-b200",
                   "DGX B200 list price about $515k (2024 reseller and press reports, not in the reference)", "2024",
                   515'000.0);
}

NodePrice hgx_b200_price() {
  return estimated("hgx-b200", "as dgx-b200 (same GPUs, NICs and power; OEM price not published)", "2024",
                   dgx_b200_price().usd_per_node);
}

// 166,667 per compute tray, its share of the switch trays included.
NodePrice gb200_nvl72_price() {
  return estimated("gb200-nvl72",
                   "GB200 NVL72 rack about $3.0M (2024-25 press estimates, not in the reference) / 18 trays", "2025",
                   3'000'000.0 / 18);
}

void register_node_prices(sim::Registry<PricePresetFactory<NodePrice>>& registry) {
  register_price_preset(registry, &dgx_h100_price, "NVIDIA DGX H100 system, $270,000 (NICs included)");
  register_price_preset(registry, &hgx_h100_price, "HGX H100 8-GPU server with 8 x 400G NICs, $313,500");
  register_price_preset(registry, &hgx_h800_price, "HGX H800 8-GPU server, $313,500 (estimate: the hgx-h100 quote)");
  register_price_preset(registry, &dgx_b200_price, "NVIDIA DGX B200 system, $515,000 (estimate, press reports)");
  register_price_preset(registry, &hgx_b200_price, "HGX B200 8-GPU server, $515,000 (estimate: as dgx-b200)");
  register_price_preset(registry, &gb200_nvl72_price,
                        "GB200 NVL72 compute tray, $166,667 = an 18th of a ~$3.0M rack (estimate, press reports)");
}

}  // namespace dcsim::models::economics
