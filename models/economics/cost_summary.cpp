#include "models/economics/cost_summary.hpp"

#include <cstdio>

#include "models/economics/billing_month.hpp"
#include "models/economics/electricity_tariff.hpp"

namespace dcsim::models::economics {

namespace {

void put(sim::TraceSink& sink, const std::string& path, double usd, const std::string& what) {
  sink.set_summary(path, sim::SummaryValue{usd, "USD", what});
}

// What an option's TCO item is, for its summary description.
std::string item_description(const std::string& option, const std::string& item) {
  if (option != "owned") {
    if (item == "gpu_hours") return "GPU-hours billed x the offer's price (reserved: the commitment, used or not)";
    if (item == "egress") return "the provider's egress tariff on the bytes that left";
    if (item == "storage") return "object storage of `stored`";
  }
  if (item == "capex") return "capital: the capex (cost/capex_usd)";
  if (item == "interest") return "financing interest paid within the period (the principal still owed at its end is in capex)";
  if (item == "book_value_credit") return "minus the book value the hardware still has at the end of the period";
  if (item == "energy") return "electricity for the energy priced";
  if (item == "colocation") return "colocation fee per contracted kW-month";
  if (item == "ports") return "unmetered internet ports' flat fees (/uplink/ports)";
  if (item == "support") return "hardware support per node-year (maintenance)";
  if (item == "staff") return "operations staff per MW-year and node-year";
  if (item == "licences") return "software licences per GPU-year";
  if (item == "repairs") return "part prices of the faults that fired";
  if (item == "metered_egress") return "a metered egress tariff on the bytes that left (owned_egress)";
  return item;
}

}  // namespace

std::optional<std::string> priced_period_warning(const PricedPeriod& p) {
  if (!p.horizon_asked || p.priced.ns() <= 0) return std::nullopt;
  const double fraction = p.simulated.seconds() / p.priced.seconds();
  if (!(fraction < kMinSimulatedFraction)) return std::nullopt;
  // Models do not link fmt: snprintf for the figures.
  const auto figure = [](const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return std::string(buf);
  };
  return "the run simulated " + sim::format_duration(p.simulated) + ", " + figure("%.3g", 100 * fraction) +
         "% of the " + sim::format_duration(p.priced) +
         " horizon priced: capital and fees run over the whole horizon and past the run the site draws its last "
         "power, while GPU-hours, tokens and faults are only the run's, so per-unit costs are not a long run's; "
         "leave the horizon out to price the run's own span, or simulate at least " +
         figure("%g", 100 * kMinSimulatedFraction) + "% of it";
}

void emit_capex_breakdown(sim::TraceSink& sink, const Capex& capex) {
  for (std::size_t i = 0; i < kCapexCategories; ++i) {
    const auto c = static_cast<CapexCategory>(i);
    put(sink, std::string("cost/capex/") + capex_category_name(c) + "_usd", capex.by_category[i],
        std::string(capex_category_description(c)) + "; the categories sum to cost/capex_usd");
  }
}

void emit_option_breakdown(sim::TraceSink& sink, const OptionResult& option) {
  for (const CostItem& item : option.items) {
    put(sink, "cost/" + option.name + "/breakdown/" + item.name + "_usd", item.usd,
        item_description(option.name, item.name) + "; the items sum to tco_usd");
  }
}

void emit_priced_period(sim::TraceSink& sink, const PricedPeriod& p) {
  sink.set_summary("cost/priced_period_s",
                   {p.priced.seconds(), "s", "the period priced, from time 0: capital and fees run over all of it"});
  sink.set_summary("cost/priced_period_basis",
                   {std::string(p.horizon_asked ? "horizon" : "run"), "",
                    "horizon: /economics/horizon asked for it; run: the run's own span (its /duration, or until "
                    "its work was done)"});
  sink.set_summary("cost/simulated_s", {p.simulated.seconds(), "s", "of priced_period_s, the span the run simulated"});
  sink.set_summary("cost/simulated_fraction",
                   {p.priced.ns() > 0 ? p.simulated.seconds() / p.priced.seconds() : 0.0, "",
                    "simulated_s / priced_period_s"});
  sink.set_summary("cost/energy_after_run_kwh",
                   {p.energy_after_run_j / kJoulesPerKwh, "kWh",
                    "of energy_kwh, the energy priced after the run ended (its last power held to the horizon); 0 "
                    "when the run's own span is priced"});
  if (const auto warning = priced_period_warning(p)) {
    sink.set_summary("cost/warning", {*warning, "", "the priced period is mostly not simulated"});
  }
}

}  // namespace dcsim::models::economics
