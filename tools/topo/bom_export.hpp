#pragma once
// `dcsim topo --bom`: the fabric's bill of materials (models/network/bill_of_materials.hpp) for
// people (a text table, one line per switch / cable / NIC-port group, then the totals) and for
// scripts (JSON with the same lines and totals; the economics model and notebooks read it).

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "models/economics/capex.hpp"
#include "models/network/bill_of_materials.hpp"

namespace dcsim::tools::topo {

void write_bom_table(const models::network::BillOfMaterials& bom, std::ostream& out);

// {"hosts", "switches", "switch_ports_used", "switch_ports_total", "cables", "transceivers",
//  "nic_ports", "cable_length_m", "switch_power_w", "lines": [{"item", "tier", "radix",
//  "speed_bps", "media", "count", "ports_used", "ports_total", "length_m"}, ...]}: the keys of
//  /events/network/bom and /summary/network/*, so a run's output and `topo --bom --json` can be
//  compared field by field; switch lines add "model", "price_key" and "power_w" (switch presets),
//  and "transceiver" lines (media: reach class SR/DR/FR/LR) list the optics of "optics" cables.
nlohmann::json bom_json(const models::network::BillOfMaterials& bom);

// With /economics: the exported network's bill of materials priced line by line (`network`: its
// capex alone, economics/site_capex.hpp's network_capex) and the whole site's capex by category
// (`site`), as a table with thousands separators: the figures the run's summary gives
// (cost/capex/*), before any run.
void write_price_table(const models::economics::Capex& network, const models::economics::Capex& site,
                       const std::string& price_preset, std::ostream& out);
// {"prices": {"preset", "lines": [{"category", "item", "quantity", "unit", "usd_each", "usd"}, ...],
//  "switches_usd", "cables_optics_usd", "nics_usd", "total_usd"}, "capex": {"<category>_usd", ...,
//  "total_usd"}}: the keys of cost/capex/* in the run's summary.
nlohmann::json price_json(const models::economics::Capex& network, const models::economics::Capex& site,
                          const std::string& price_preset);

}  // namespace dcsim::tools::topo
