#pragma once
// What the economics subsystem writes besides each option's totals (economics_model.hpp):
// where the money goes and which period it covers.
//
//   cost/capex/<category>_usd       the capex by category (capex.hpp, CapexCategory), all eight
//                                   every time; they sum to cost/capex_usd exactly
//   cost/<option>/breakdown/<item>_usd   each option's TCO item by item (cost_ledger.hpp,
//                                   OptionResult::items); they sum to cost/<option>/tco_usd exactly
//   cost/priced_period_s, priced_period_basis, simulated_s, simulated_fraction,
//   energy_after_run_kwh            the period priced and how it was chosen: the horizon asked
//                                   for, or the run's own span
//   cost/warning                    only when the run simulated under kMinSimulatedFraction of
//                                   the horizon: its per-unit costs are not a long run's
//
// O(categories + items) per call.

#include <optional>
#include <string>

#include "models/economics/capex.hpp"
#include "models/economics/cost_ledger.hpp"
#include "sim/time.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::economics {

// Below this share of the horizon the simulated span is too short for the horizon's unit costs:
// capital and fees run over the whole horizon while GPU-hours, tokens and faults are the run's.
inline constexpr double kMinSimulatedFraction = 0.01;

struct PricedPeriod {
  sim::Time priced;     // [0, priced) is priced
  sim::Time simulated;  // of it, what the run simulated (<= priced)
  bool horizon_asked = false;        // /economics/horizon; otherwise the run's own span
  double energy_after_run_j = 0.0;  // priced after the run ended, at its last power (horizon only)
};

// The warning for a horizon the run covers under kMinSimulatedFraction of; none otherwise.
std::optional<std::string> priced_period_warning(const PricedPeriod& period);

void emit_capex_breakdown(sim::TraceSink& sink, const Capex& capex);
void emit_option_breakdown(sim::TraceSink& sink, const OptionResult& option);
void emit_priced_period(sim::TraceSink& sink, const PricedPeriod& period);

}  // namespace dcsim::models::economics
