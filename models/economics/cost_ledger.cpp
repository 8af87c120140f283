#include "models/economics/cost_ledger.hpp"

#include <algorithm>
#include <cmath>

#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

// Runs f; a ConfigError it throws gets `prefix` in front of its field.
template <class F>
auto prefixed(const std::string& prefix, F&& f) {
  try {
    return f();
  } catch (const sim::ConfigError& e) {
    throw sim::ConfigError(prefix + e.field(), e.detail());
  }
}

ElectricityTariff make_tariff(const CostLedgerConfig& c) {
  return prefixed("electricity.", [&] {
    return ElectricityTariff(c.electricity.value_or(flat_tariff(c.capex.site_prices.electricity_usd_per_kwh)));
  });
}

void require_amount(double v, const char* what) {
  if (!(v >= 0.0) || !std::isfinite(v)) {
    throw sim::InternalError(std::string("economics: a negative or non-finite ") + what + " was reported (this is a bug)");
  }
}

// In the items' order: the TCO is this sum, so its items add up to it exactly.
double sum_of(const std::vector<CostItem>& items) {
  double usd = 0.0;
  for (const CostItem& item : items) usd += item.usd;
  return usd;
}

void require_interval(sim::Time start, sim::Time end) {
  if (start.ns() < 0 || end < start) throw sim::InternalError("economics: a bad interval was reported (this is a bug)");
}

}  // namespace

CostLedger::CostLedger(CostLedgerConfig config)
    : config_(std::move(config)), capex_(prefixed("capex.", [&] { return economics::capex(config_.capex); })),
      tariff_(make_tariff(config_)) {
  validate(config_.depreciation, "depreciation.");
  if (config_.financing) validate(*config_.financing, "financing.");
  validate(config_.opex, config_.capex.site_prices, "opex.");
  if (config_.opex.nodes != config_.capex.nodes) {
    throw sim::ConfigError("opex.nodes", "expected the node count of the capex (" + std::to_string(config_.capex.nodes) +
                                             "), got " + std::to_string(config_.opex.nodes));
  }
  if (config_.owned_metered_egress) validate(*config_.owned_metered_egress, "owned_metered_egress.");
  validate(config_.repairs, "repairs.");
  for (const auto& [name, usd] : config_.repairs.usd_per_fault) {
    fault_names_.push_back(name);
    fault_usd_.push_back(usd);
  }
  fault_counts_.assign(fault_names_.size(), 0);
  for (std::size_t i = 0; i < config_.cloud.size(); ++i) validate(config_.cloud[i], "cloud[" + std::to_string(i) + "].");
}

void CostLedger::note_time(sim::Time t) { latest_ = std::max(latest_, t); }

void CostLedger::add_energy(sim::Time start, sim::Time end, double energy_j) {
  require_interval(start, end);
  require_amount(energy_j, "energy");
  energy_j_.add_spread(start, end, energy_j);
  if (end == start) {
    energy_usd_.add_at(start, tariff_.cost_usd(start, end, energy_j));
    note_time(start + sim::Time::from_ns(1));
    return;
  }
  const double length_ns = static_cast<double>(end.ns() - start.ns());
  for_each_month_piece(start, end, [&](std::size_t m, sim::Time from, sim::Time to) {
    const double share = static_cast<double>(to.ns() - from.ns()) / length_ns;
    energy_usd_.add_to_month(m, tariff_.cost_usd(from, to, energy_j * share));
  });
  note_time(end);
}

void CostLedger::add_gpu_time(sim::Time start, sim::Time end, double gpu_seconds) {
  require_interval(start, end);
  require_amount(gpu_seconds, "GPU time");
  gpu_hours_.add_spread(start, end, gpu_seconds / 3600.0);
  note_time(end == start ? start + sim::Time::from_ns(1) : end);
}

void CostLedger::add_egress(sim::Time at, double bytes) {
  require_interval(at, at);
  require_amount(bytes, "egress volume");
  egress_bytes_.add_at(at, bytes);
  note_time(at + sim::Time::from_ns(1));
}

void CostLedger::set_stored_bytes(sim::Time at, double bytes) {
  require_interval(stored_since_, at);
  require_amount(bytes, "stored volume");
  stored_byte_seconds_.add_spread(stored_since_, at, stored_bytes_ * (at - stored_since_).seconds());
  stored_since_ = at;
  stored_bytes_ = bytes;
  note_time(at);
}

std::size_t CostLedger::fault_class(const std::string& name) const {
  const auto it = std::lower_bound(fault_names_.begin(), fault_names_.end(), name);
  if (it == fault_names_.end() || *it != name) {
    throw sim::ConfigError("repairs.usd_per_fault." + name,
                           "fault class '" + name + "' has no repair price (give 0 if its repairs cost nothing)");
  }
  return static_cast<std::size_t>(it - fault_names_.begin());
}

void CostLedger::add_fault(sim::Time at, std::size_t c) {
  require_interval(at, at);
  if (c >= fault_usd_.size()) throw sim::InternalError("economics: unknown fault class index (this is a bug)");
  repairs_usd_.add_at(at, fault_usd_[c]);
  ++fault_counts_[c];
  note_time(at + sim::Time::from_ns(1));
}

void CostLedger::add_tokens(sim::Time at, double tokens) {
  require_interval(at, at);
  require_amount(tokens, "token count");
  tokens_.add_at(at, tokens);
  note_time(at + sim::Time::from_ns(1));
}

void CostLedger::add_flops(sim::Time at, double flops) {
  require_interval(at, at);
  require_amount(flops, "FLOP count");
  flops_.add_at(at, flops);
  note_time(at + sim::Time::from_ns(1));
}

OptionResult CostLedger::owned_result(sim::Time horizon, std::size_t months, const std::vector<double>& fraction) const {
  OptionResult r;
  r.name = "owned";
  r.monthly_usd.assign(months, 0.0);
  const double capex_usd = capex_.total_usd;

  double paid_usd = capex_usd;  // capital paid within the horizon
  double owed_usd = 0.0;        // loan principal still owed at the horizon
  if (config_.financing) {
    const FinancingConfig& f = *config_.financing;
    const double payment = annuity_payment_usd(capex_usd, f);
    const std::size_t payments = std::min(financing_months(f), months);
    for (std::size_t m = 0; m < payments; ++m) r.monthly_usd[m] += payment;
    paid_usd = payment * static_cast<double>(payments);
    owed_usd = loan_balance_usd(capex_usd, f, payments);
  } else {
    r.monthly_usd[0] += capex_usd;
  }
  const double interest_usd = paid_usd - (capex_usd - owed_usd);
  const double months_elapsed = static_cast<double>(horizon.ns()) / static_cast<double>(kBillingMonthNs);
  const double credit_usd =
      config_.credit_book_value_at_horizon ? book_value_usd(capex_usd, config_.depreciation, months_elapsed) : 0.0;

  const MonthlyFees fees = monthly_fees(config_.opex, config_.capex.site_prices);
  MonthlyFees fees_total;
  double energy_usd = 0.0;
  double repairs_usd = 0.0;
  double metered_usd = 0.0;
  for (std::size_t m = 0; m < months; ++m) {
    const double f = fraction[m];
    fees_total.colocation_usd += fees.colocation_usd * f;
    fees_total.ports_usd += fees.ports_usd * f;
    fees_total.support_usd += fees.support_usd * f;
    fees_total.staff_usd += fees.staff_usd * f;
    fees_total.licences_usd += fees.licences_usd * f;
    const double metered =
        config_.owned_metered_egress ? egress_cost_usd(*config_.owned_metered_egress, egress_bytes_.month(m)) : 0.0;
    r.monthly_usd[m] += energy_usd_.month(m) + fees.total_usd() * f + repairs_usd_.month(m) + metered;
    energy_usd += energy_usd_.month(m);
    repairs_usd += repairs_usd_.month(m);
    metered_usd += metered;
  }
  r.cumulative_usd = cumulative(r.monthly_usd);
  // The cumulative series' last value + the loan still owed - the book value left, summed item
  // by item so that the items add up to it exactly.
  r.items = {{"capex", capex_usd},
             {"interest", interest_usd},
             {"book_value_credit", -credit_usd},
             {"energy", energy_usd},
             {"colocation", fees_total.colocation_usd},
             {"ports", fees_total.ports_usd},
             {"support", fees_total.support_usd},
             {"staff", fees_total.staff_usd},
             {"licences", fees_total.licences_usd},
             {"repairs", repairs_usd},
             {"metered_egress", metered_usd}};
  r.tco_usd = sum_of(r.items);
  r.energy_usd = energy_usd;
  r.egress_usd = fees_total.ports_usd + metered_usd;
  return r;
}

OptionResult CostLedger::cloud_result(const CloudOption& option, std::size_t months, const std::vector<double>& fraction,
                                      const std::vector<double>& gb_months) const {
  OptionResult r;
  r.name = option.offer.name;
  r.monthly_usd.assign(months, 0.0);
  CloudMonthCost total;
  for (std::size_t m = 0; m < months; ++m) {
    const CloudMonthCost c = cloud_month_cost(
        option, {gpu_hours_.month(m), egress_bytes_.month(m), gb_months[m], fraction[m] * kBillingMonthHours});
    r.monthly_usd[m] = c.total_usd();
    total.billed_gpu_hours += c.billed_gpu_hours;
    total.gpu_usd += c.gpu_usd;
    total.egress_usd += c.egress_usd;
    total.storage_usd += c.storage_usd;
  }
  r.cumulative_usd = cumulative(r.monthly_usd);
  r.items = {{"gpu_hours", total.gpu_usd}, {"egress", total.egress_usd}, {"storage", total.storage_usd}};
  r.tco_usd = sum_of(r.items);  // the cumulative series' last value, item by item
  r.egress_usd = total.egress_usd;
  r.billed_gpu_hours = total.billed_gpu_hours;
  return r;
}

EconomicsResult CostLedger::finish(sim::Time horizon) const {
  if (horizon.ns() <= 0) throw sim::InternalError("economics: the horizon must be positive (this is a bug)");
  if (latest_ > horizon) throw sim::InternalError("economics: costs were reported after the horizon (this is a bug)");
  EconomicsResult out;
  out.months = billing_months(horizon);
  std::vector<double> fraction(out.months);
  for (std::size_t m = 0; m < out.months; ++m) fraction[m] = month_fraction_before(m, horizon);

  MonthlySeries stored = stored_byte_seconds_;
  stored.add_spread(stored_since_, horizon, stored_bytes_ * (horizon - stored_since_).seconds());
  std::vector<double> gb_months = stored.values(out.months);
  for (double& v : gb_months) v /= 1e9 * kBillingMonthS;

  out.delivered_gpu_hours = gpu_hours_.total();
  out.tokens = tokens_.total();
  out.flops = flops_.total();
  out.energy_j = energy_j_.total();
  out.egress_bytes = egress_bytes_.total();
  out.egress_bytes_per_month = egress_bytes_.values(out.months);
  out.port_capacity_bytes_per_month = port_capacity_bytes_per_month(config_.opex);
  if (out.egress_bytes > 0.0 && out.port_capacity_bytes_per_month == 0.0 && !config_.owned_metered_egress) {
    throw sim::ConfigError("opex.ports", "the site sends " + format_number(out.egress_bytes) +
                                             " bytes off-site but has neither unmetered ports nor a metered egress tariff");
  }
  if (out.port_capacity_bytes_per_month > 0.0) {
    for (std::size_t m = 0; m < out.months; ++m) {
      const double capacity = out.port_capacity_bytes_per_month * fraction[m];
      out.peak_port_utilisation = std::max(out.peak_port_utilisation, out.egress_bytes_per_month[m] / capacity);
    }
  }
  out.fault_class_names = fault_names_;
  out.faults_per_class = fault_counts_;
  out.capex = capex_;

  out.owned = owned_result(horizon, out.months, fraction);
  out.owned.unit = unit_costs(out.owned.tco_usd, out.delivered_gpu_hours, out.tokens, out.flops);
  for (const CloudOption& option : config_.cloud) {
    OptionResult r = cloud_result(option, out.months, fraction, gb_months);
    r.unit = unit_costs(r.tco_usd, out.delivered_gpu_hours, out.tokens, out.flops);
    out.break_even_month.push_back(break_even_month(out.owned.cumulative_usd, r.cumulative_usd));
    out.cloud.push_back(std::move(r));
  }
  return out;
}

}  // namespace dcsim::models::economics
