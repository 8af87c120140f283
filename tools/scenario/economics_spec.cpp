#include "tools/scenario/economics_spec.hpp"

#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

using sim::QuantityKind;

FieldSpec economics_section(const models::ModelRegistries& registries) {
  const auto preset_params = [](const std::string& key, const std::string& what, const auto& registry) {
    return params_object_field(key,
                               "Prices of the chosen " + what + " preset to override (`dcsim list \"" +
                                   registry.kind() + "\"` lists each with its source); keys it does not document are "
                                   "errors, keys left out keep the preset's figure.",
                               entry_params(registry));
  };
  return optional_section(
      object_field(
          "economics",
          "Prices the run (models/economics): owning the cluster (capex with depreciation or financing, electricity "
          "for the energy the run drew, fees (the /uplink/ports' included), repairs per fault, egress the uplink "
          "carried) against renting the GPU-hours the run delivered from "
          "each cloud option (none: capex and the cost of owning alone). Writes series cost/<option>/cumulative_usd "
          "and summary cost/... (docs/models/economics.md). Needs /cluster. Prices the run's own span unless `horizon` "
          "asks for another period.",
          {
              with_default(enum_field("currency",
                                      "The currency every price in this file is written in. dcsim's presets and "
                                      "its *_usd outputs are in US dollars, so USD is the one it takes: a price in "
                                      "another currency (\"100 EUR\") is an error, never converted silently.",
                                      "currency", {"USD"}),
                           "USD"),
              with_default_note(enum_field("node_price", "Server price preset.", registries.node_prices.kind(),
                                           registries.node_prices.names()),
                                "the price preset named as /cluster/node/preset"),
              preset_params("node_price_params", "node price", registries.node_prices),
              with_default(enum_field("fabric_prices", "Switch, cable, optics and NIC prices for /fabric's bill of "
                                                       "materials (unused without /fabric).",
                                      registries.fabric_prices.kind(), registries.fabric_prices.names()),
                           "ethernet"),
              preset_params("fabric_prices_params", "fabric prices", registries.fabric_prices),
              with_default(enum_field("site_prices", "Per-kW gear, colocation, building, ports, support, staff and "
                                                     "licence prices, and the default electricity price.",
                                      registries.site_prices.kind(), registries.site_prices.names()),
                           "us"),
              preset_params("site_prices_params", "site prices", registries.site_prices),
              with_default(enum_field("site",
                                      "colocation: a colocation fee per kW-month covers the hall, UPS and heat "
                                      "rejection; own_building: the building's per-kW price is capex.",
                                      "site kind", {"colocation", "own_building"}),
                           "colocation"),
              with_default_note(quantity_field("contracted_power",
                                               "IT power contracted (colocation) or built (own building): the basis "
                                               "of per-kW gear, colocation and staff.",
                                               QuantityKind::kPower, above(0)),
                                "nodes x the node's maximum power"),
              with_default_note(quantity_field("electricity", "Flat electricity price for the energy the run drew "
                                                              "(the facility's total with /facility, else IT).",
                                               QuantityKind::kEnergyPrice, at_least(0)),
                                "the site prices' electricity_usd_per_kwh"),
              optional_section(
                  object_field(
                      "electricity_tariff",
                      "Time-of-use electricity price instead of a flat one (not with `electricity`): the price of "
                      "each point holds until the next point's; energy is priced at the price of the time it was "
                      "drawn.",
                      {with_default(enum_field("repeat",
                                               "daily or weekly: hours are of the day (0-24) or week (0-168) and the "
                                               "profile repeats; none: hours since the run's start, the last price "
                                               "holds on.",
                                               "tariff repeat", {"daily", "weekly", "none"}),
                                    "daily"),
                       string_field("file", "CSV with header `hour,usd_per_kwh`, one row per price change, the first "
                                            "at hour 0, relative to the scenario (or give `points`)."),
                       object_array_field("points", "The prices inline (or give `file`).",
                                          {required(number_field("hour", "Hour of the period (or since the start).",
                                                                 at_least(0))),
                                           required(quantity_field("price", "Price from this hour on.",
                                                                   QuantityKind::kEnergyPrice, at_least(0)))}),
                       with_default(quantity_field("start_offset",
                                                   "Repeating tariffs: where in the period the run starts (\"6 h\": "
                                                   "the run's time 0 is 06:00).",
                                                   QuantityKind::kDuration, at_least(0)),
                                    "0 s")}),
                  "flat: `electricity`"),
              with_default_note(enum_field("owned_egress",
                                           "Metered egress tariff the owned site pays on every byte that leaves, "
                                           "on top of the /uplink/ports' fees (a provider's table).",
                                           registries.egress_tariffs.kind(), registries.egress_tariffs.names()),
                                "none: traffic leaves through the unmetered /uplink/ports only"),
              preset_params("owned_egress_params", "egress tariff", registries.egress_tariffs),
              with_default(quantity_field("egress_per_month",
                                          "Traffic declared as leaving the site per billing month, spread evenly and "
                                          "billed on top of what /uplink carries out: the same bytes for owning and "
                                          "for each cloud option. A volume, not a transfer: it does not occupy the "
                                          "ports (declare /uplink/streams for that).",
                                          QuantityKind::kDataSize, at_least(0)),
                           "0 B"),
              with_default(quantity_field("stored", "Data kept in the cloud options' object storage throughout.",
                                          QuantityKind::kDataSize, at_least(0)),
                           "0 B"),
              with_default(number_field("spares_fraction", "Spare parts bought up front, a fraction of servers plus "
                                                           "fabric.",
                                        between(0, 1)),
                           0.05),
              object_field(
                  "depreciation", "How the hardware loses its value.",
                  {with_default(enum_field("method", "straight_line, or declining_balance (down to the straight line "
                                                     "when that is larger).",
                                           "depreciation method", {"straight_line", "declining_balance"}),
                                "straight_line"),
                   with_default(number_field("years", "Depreciation period (at least one month).", above(0)), 5.0),
                   with_default(number_field("residual_fraction", "Value left at the end of the period, a fraction "
                                                                  "of capex.",
                                             between(0, 1)),
                                0.0),
                   with_default(number_field("declining_factor", "declining_balance: 2 is double declining.",
                                             above(0)),
                                2.0)}),
              optional_section(object_field("financing",
                                            "A loan for the capex, repaid as an annuity (instead of paying it in "
                                            "month 1).",
                                            {required(number_field("rate_per_year", "Nominal annual rate, compounded "
                                                                                    "monthly (0.07 is 7%).",
                                                                   at_least(0))),
                                             required(number_field("years", "Repayment period.", above(0)))}),
                               "capex paid in month 1"),
              with_default(boolean_field("credit_book_value_at_horizon",
                                         "Owning's TCO subtracts the book value the hardware still has at the "
                                         "horizon (it can be sold or used on); false charges the whole capex."),
                           true),
              with_default_note(quantity_field("horizon", "The period priced, from time 0. Usage is what the run "
                                                          "simulated within it; fees and capital run to its end, and "
                                                          "past the run's end the site draws the run's last power. A "
                                                          "run that simulates under 1% of it is warned about "
                                                          "(cost/warning).",
                                               QuantityKind::kDuration, above(0)),
                                "the run's own span: /duration, or until its work is done"),
              with_default(object_array_field(
                               "repairs", "Part price charged per fault of a /reliability class.",
                               {required(non_empty(string_field("class", "Fault class name (/reliability)."))),
                                required(quantity_field("price", "Part price per fault.", QuantityKind::kMoney,
                                                        at_least(0)))}),
                           nlohmann::json::array()),
              with_default_note(quantity_field("repair_default", "Part price of a fault of any class `repairs` does "
                                                                 "not list.",
                                               QuantityKind::kMoney, at_least(0)),
                                "none: every class that can fire needs a price in `repairs`"),
              with_default(
                  object_array_field(
                      "cloud", "Cloud options to compare with owning, each billed for the GPU-hours the run delivered "
                               "(none: owning alone is priced).",
                      {required(enum_field("offer", "Cloud GPU offer preset; also the option's name in outputs.",
                                           registries.cloud_offers.kind(), registries.cloud_offers.names())),
                       preset_params("offer_params", "cloud offer", registries.cloud_offers),
                       with_default_note(enum_field("egress_tariff", "Egress tariff of this option.",
                                                    registries.egress_tariffs.kind(), registries.egress_tariffs.names()),
                                         "the offer's provider tariff"),
                       preset_params("egress_params", "egress tariff", registries.egress_tariffs),
                       with_default_note(number_field("committed_gpus", "Reserved offers: GPUs committed for the "
                                                                        "whole horizon, billed used or not.",
                                                      above(0)),
                                         "the cluster's GPUs"),
                       with_default_note(number_field("job_gpus", "Spot offers: GPUs one job spans (a preemption of "
                                                                  "any of its instances stops it).",
                                                      above(0)),
                                         "the node's GPUs"),
                       with_default_note(quantity_field("lost_work_per_preemption",
                                                        "Spot offers: work redone after a preemption.",
                                                        QuantityKind::kDuration, at_least(0)),
                                         "30 min")}),
                  nlohmann::json::array()),
          }),
      "the run prices nothing");
}

}  // namespace dcsim::tools::scenario
