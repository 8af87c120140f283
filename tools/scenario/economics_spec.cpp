#include "tools/scenario/economics_spec.hpp"

#include <string>

#include "models/economics/electricity_tariff.hpp"
#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;
namespace econ = models::economics;

namespace {

// "repairs.usd_per_fault.<class>": the price of that class in /economics/repairs (the model keys
// its prices by class name, the scenario lists them).
std::optional<std::string> locate_repair(std::string_view field, const std::string& at, const json* repairs) {
  if (!names_field(field, {"repairs"})) return std::nullopt;
  const std::string_view prefix = "repairs.usd_per_fault.";
  if (repairs != nullptr && field.substr(0, prefix.size()) == prefix) {
    const std::string name(field.substr(prefix.size()));
    for (std::size_t i = 0; i < repairs->size(); ++i) {
      if ((*repairs)[i].value("class", "") == name) return at + "/" + std::to_string(i) + "/price";
    }
  }
  return at;
}

// "cloud[i].<field>": the option's key, the preset's params key when given, else the key that
// chose the preset (an offer's own egress tariff is the offer's choice).
std::optional<std::string> locate_cloud(std::string_view field, const std::string& at, const json* cloud) {
  if (field == "cloud") return at;
  if (field.substr(0, 6) != "cloud[") return std::nullopt;
  const auto close = field.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const std::string index(field.substr(6, close - 6));
  if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const std::string item_at = at + "/" + index;
  const std::size_t i = std::stoul(index);
  if (cloud == nullptr || i >= cloud->size() || close + 1 == field.size() || field[close + 1] != '.') return item_at;
  const json& item = (*cloud)[i];
  const std::string_view rest = field.substr(close + 2);
  const auto given = [&](const std::string& key) { return item.is_object() && item.contains(key); };
  // The preset chosen by `choice` with its params object `params`: "offer.usd_per_gpu_hour".
  const auto preset = [&](std::string_view name, const std::string& choice, const std::string& params) {
    const std::string_view sub = rest.substr(name.size());
    if (sub.size() > 1 && sub[0] == '.') {
      const std::string key(sub.substr(1, sub.find_first_of(".[", 1) - 1));
      if (given(params) && item[params].is_object() && item[params].contains(key)) {
        return item_at + "/" + params + "/" + key;
      }
    }
    return item_at + "/" + choice;
  };
  if (names_field(rest, {"offer"})) return preset("offer", "offer", "offer_params");
  if (names_field(rest, {"egress"})) {
    return preset("egress", given("egress_tariff") ? "egress_tariff" : "offer", "egress_params");
  }
  for (const auto& [model, key] : {std::pair<std::string, std::string>{"committed_gpus", "committed_gpus"},
                                   {"job_gpus", "job_gpus"},
                                   {"lost_work_per_preemption_s", "lost_work_per_preemption"}}) {
    if (names_field(rest, {model})) return given(key) ? item_at + "/" + key : item_at;
  }
  return item_at;
}

}  // namespace

Bindings<econ::EconomicsConfig> economics_bindings(const models::ModelRegistries& registries) {
  using C = econ::EconomicsConfig;
  const auto preset_params = [](const std::string& key, const std::string& what, const auto& registry) {
    return params_object_field(key,
                               "Prices of the chosen " + what + " preset to override (`dcsim list \"" +
                                   registry.kind() + "\"` lists each with its source); keys it does not document are "
                                   "errors, keys left out keep the preset's figure.",
                               entry_params(registry));
  };

  Bindings<econ::DepreciationConfig> depreciation(
      object_field("depreciation", "How the hardware loses its value.", {}));
  depreciation
      .bind_enum(with_default(enum_field("method",
                                         "straight_line, or declining_balance (down to the straight line "
                                         "when that is larger).",
                                         "depreciation method", {"straight_line", "declining_balance"}),
                              "straight_line"),
                 &econ::DepreciationConfig::method, "depreciation.method",
                 {{"straight_line", econ::DepreciationMethod::kStraightLine},
                  {"declining_balance", econ::DepreciationMethod::kDecliningBalance}})
      .bind(number_field("years", "Depreciation period (at least one month).", above(0)),
            &econ::DepreciationConfig::years, "depreciation.years")
      .bind(number_field("residual_fraction", "Value left at the end of the period, a fraction of capex.",
                         between(0, 1)),
            &econ::DepreciationConfig::residual_fraction, "depreciation.residual_fraction")
      .bind(number_field("declining_factor", "declining_balance: 2 is double declining.", above(0)),
            &econ::DepreciationConfig::declining_factor, "depreciation.declining_factor");

  Bindings<econ::FinancingConfig> financing(optional_section(
      object_field("financing", "A loan for the capex, repaid as an annuity (instead of paying it in month 1).", {}),
      "capex paid in month 1"));
  financing
      .bind(required(
                number_field("rate_per_year", "Nominal annual rate, compounded monthly (0.07 is 7%).", at_least(0))),
            &econ::FinancingConfig::rate_per_year, "financing.rate_per_year")
      .bind(required(number_field("years", "Repayment period.", above(0))), &econ::FinancingConfig::years,
            "financing.years");

  Bindings<C> economics(object_field(
      "economics",
      "Prices the run (models/economics): owning the cluster (capex with depreciation or financing, electricity "
      "for the energy the run drew, fees (the /uplink/ports' included), repairs per fault, egress the uplink "
      "carried) against renting the GPU-hours the run delivered from "
      "each cloud option (none: capex and the cost of owning alone). Writes series cost/<option>/cumulative_usd "
      "and summary cost/... (docs/models/economics.md). Needs /cluster. Prices the run's own span unless `horizon` "
      "asks for another period.",
      {}));
  // What economics needs of the rest of the scenario (a cluster to price) is the section's.
  economics.names_object("cluster");
  // The presets are built by map_economics_section (their registries' factories with the params
  // written over them); the model names their prices "capex.node_price.usd_per_node".
  economics
      .key(with_default(enum_field("currency",
                                   "The currency every price in this file is written in. dcsim's presets and "
                                   "its *_usd outputs are in US dollars, so USD is the one it takes: a price in "
                                   "another currency (\"100 EUR\") is an error, never converted silently.",
                                   "currency", {"USD"}),
                        "USD"))
      .key(with_default_note(enum_field("node_price", "Server price preset.", registries.node_prices.kind(),
                                        registries.node_prices.names()),
                             "the price preset named as /cluster/node/preset"),
           at_key_for({"capex.node_price"}))
      .key(preset_params("node_price_params", "node price", registries.node_prices))
      .key(with_default(enum_field("fabric_prices",
                                   "Switch, cable, optics and NIC prices for /fabric's bill of "
                                   "materials (unused without /fabric).",
                                   registries.fabric_prices.kind(), registries.fabric_prices.names()),
                        "ethernet"),
           at_key_for({"capex.fabric_prices", "capex.fabric"}))  // and the bill of materials it prices
      .key(preset_params("fabric_prices_params", "fabric prices", registries.fabric_prices))
      .key(with_default(enum_field("site_prices",
                                   "Per-kW gear, colocation, building, ports, support, staff and "
                                   "licence prices, and the default electricity price.",
                                   registries.site_prices.kind(), registries.site_prices.names()),
                        "us"),
           [](std::string_view field, const std::string& at, const json*) -> std::optional<std::string> {
             // The ports billed at these prices are the uplink's (one list, so they cannot differ).
             if (names_field(field, {"opex.ports"})) return "/uplink/ports";
             if (names_field(field, {"site_prices", "capex.site_prices"})) return at;
             return std::nullopt;
           })
      .key(preset_params("site_prices_params", "site prices", registries.site_prices))
      .bind_enum(with_default(enum_field("site",
                                         "colocation: a colocation fee per kW-month covers the hall, UPS and heat "
                                         "rejection; own_building: the building's per-kW price is capex.",
                                         "site kind", {"colocation", "own_building"}),
                              "colocation"),
                 &C::site, "opex.site",
                 {{"colocation", econ::SiteKind::kColocation}, {"own_building", econ::SiteKind::kOwnBuilding}})
      // The IT power contracted sizes the cooling gear bought and the colocation bill.
      .bind(with_default_note(quantity_field("contracted_power",
                                             "IT power contracted (colocation) or built (own building): the basis "
                                             "of per-kW gear, colocation and staff.",
                                             QuantityKind::kPower, above(0)),
                              "nodes x the node's nameplate power (/cluster/node/rated_power)"),
            at_key_for({"opex.contracted_kw", "capex.gear"}),
            [](C& c, const json& v) { c.contracted_kw = v.get<double>() / 1e3; })
      .bind(with_default_note(quantity_field("electricity",
                                             "Flat electricity price for the energy the run drew "
                                             "(the facility's total with /facility, else IT).",
                                             QuantityKind::kEnergyPrice, at_least(0)),
                              "the site prices' electricity_usd_per_kwh"),
            at_given_key_for({"electricity"}),  // else by time, or the site prices' figure
            [](C& c, const json& v) {
              c.ledger.electricity = econ::flat_tariff(v.get<double>() * econ::kJoulesPerKwh);
            })
      .key(optional_section(
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
                    string_field("file",
                                 "CSV with header `hour,usd_per_kwh`, one row per price change, the first "
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
           at_given_key_for({"electricity"}))
      .key(with_default_note(enum_field("owned_egress",
                                        "Metered egress tariff the owned site pays on every byte that leaves, "
                                        "on top of the /uplink/ports' fees (a provider's table).",
                                        registries.egress_tariffs.kind(), registries.egress_tariffs.names()),
                             "none: traffic leaves through the unmetered /uplink/ports only"),
           at_given_key_for({"owned_metered_egress"}))
      .key(preset_params("owned_egress_params", "egress tariff", registries.egress_tariffs))
      .bind(with_default(quantity_field("egress_per_month",
                                        "Traffic declared as leaving the site per billing month, spread evenly and "
                                        "billed on top of what /uplink carries out: the same bytes for owning and "
                                        "for each cloud option. A volume, not a transfer: it does not occupy the "
                                        "ports (declare /uplink/streams for that).",
                                        QuantityKind::kDataSize, at_least(0)),
                         "0 B"),
            &C::egress_bytes_per_month, "egress_per_month")
      .bind(with_default(quantity_field("stored", "Data kept in the cloud options' object storage throughout.",
                                        QuantityKind::kDataSize, at_least(0)),
                         "0 B"),
            &C::stored_bytes, "stored")
      .bind(with_default(number_field("spares_fraction",
                                      "Spare parts bought up front, a fraction of servers plus fabric.", between(0, 1)),
                         econ::CapexConfig{}.spares_fraction),
            "capex.spares_fraction", [](C& c, const json& v) { c.ledger.capex.spares_fraction = v.get<double>(); })
      .object(
          std::move(depreciation), [](C& c) -> econ::DepreciationConfig& { return c.ledger.depreciation; },
          "depreciation")
      .object(
          std::move(financing), [](C& c) -> econ::FinancingConfig& { return c.ledger.financing.emplace(); },
          "financing")
      .bind(boolean_field("credit_book_value_at_horizon",
                          "Owning's TCO subtracts the book value the hardware still has at the "
                          "horizon (it can be sold or used on); false charges the whole capex."),
            &C::ledger, &econ::CostLedgerConfig::credit_book_value_at_horizon, "credit_book_value_at_horizon")
      // Without a horizon the run's own span is priced: its /duration, or until its work is done
      // (a run with neither is refused by the subsystem, where the work is known).
      .bind(with_default_note(quantity_field("horizon",
                                             "The period priced, from time 0. Usage is what the run "
                                             "simulated within it; fees and capital run to its end, and "
                                             "past the run's end the site draws the run's last power. A "
                                             "run that simulates under 1% of it is warned about "
                                             "(cost/warning).",
                                             QuantityKind::kDuration, above(0)),
                              "the run's own span: /duration, or until its work is done"),
            &C::horizon, "horizon")
      .key(with_default(object_array_field("repairs", "Part price charged per fault of a /reliability class.",
                                           {required(
                                                non_empty(string_field("class", "Fault class name (/reliability)."))),
                                            required(quantity_field("price", "Part price per fault.",
                                                                    QuantityKind::kMoney, at_least(0)))}),
                        json::array()),
           locate_repair)
      .bind(with_default_note(quantity_field("repair_default",
                                             "Part price of a fault of any class `repairs` does not list.",
                                             QuantityKind::kMoney, at_least(0)),
                              "none: every class that can fire needs a price in `repairs`"),
            &C::repair_default_usd, "repair_default_usd")
      .key(with_default(object_array_field(
                            "cloud",
                            "Cloud options to compare with owning, each billed for the GPU-hours the run delivered "
                            "(none: owning alone is priced).",
                            {required(enum_field("offer", "Cloud GPU offer preset; also the option's name in outputs.",
                                                 registries.cloud_offers.kind(), registries.cloud_offers.names())),
                             preset_params("offer_params", "cloud offer", registries.cloud_offers),
                             with_default_note(enum_field("egress_tariff", "Egress tariff of this option.",
                                                          registries.egress_tariffs.kind(),
                                                          registries.egress_tariffs.names()),
                                               "the offer's provider tariff"),
                             preset_params("egress_params", "egress tariff", registries.egress_tariffs),
                             with_default_note(number_field("committed_gpus",
                                                            "Reserved offers: GPUs committed for the "
                                                            "whole horizon, billed used or not.",
                                                            above(0)),
                                               "the cluster's GPUs"),
                             with_default_note(number_field("job_gpus",
                                                            "Spot offers: GPUs one job spans (a preemption of "
                                                            "any of its instances stops it).",
                                                            above(0)),
                                               "the node's GPUs"),
                             with_default_note(quantity_field("lost_work_per_preemption",
                                                              "Spot offers: work redone after a preemption.",
                                                              QuantityKind::kDuration, at_least(0)),
                                               "30 min")}),
                        json::array()),
           locate_cloud);
  return economics;
}

FieldSpec economics_section(const models::ModelRegistries& registries) {
  return optional_section(economics_bindings(registries).spec(), "the run prices nothing");
}

}  // namespace dcsim::tools::scenario
