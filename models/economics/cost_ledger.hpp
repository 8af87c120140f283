#pragma once
// CostLedger: what a simulation feeds as it runs (energy drawn, GPU time delivered, bytes sent
// off-site, data stored, faults, tokens, FLOPs) and, at the end, the cost of owning the cluster
// against renting the same delivered GPU-hours in each cloud option.
//
// Every add_* is O(1) plus O(months the interval crosses) plus, for energy, O(log tariff points);
// memory is O(months) per quantity whatever the number of calls. Calls may come in any time order
// (a job reports its energy when it ends), except set_stored_bytes, whose times must not go back.
//
// Owning, month by month (billing_month.hpp):
//   capital    capex in month 1, or with financing the annuity payment in each of its months
//   energy     the tariff over each reported interval                  (electricity_tariff.hpp)
//   fees       colocation, ports, support, staff, licences, pro rata in a partial last month (opex.hpp)
//   repairs    usd_per_fault of the class, in the month of each fault
//   egress     unmetered ports are in the fees; a metered tariff, if given, on each month's bytes
// TCO over the horizon = the cumulative series' last value + the loan still owed - the book value
// the hardware still has (credit_book_value_at_horizon; the depreciation schedule's residual once
// it is fully depreciated). The break-even month compares the cumulative series (cash out,
// without the credit), so it is the month owning has paid for itself.
// Renting (cloud_cost.hpp): per option, GPU-hours, egress and storage per month; its TCO is its
// cumulative total.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/economics/billing_month.hpp"
#include "models/economics/capex.hpp"
#include "models/economics/cloud_cost.hpp"
#include "models/economics/cost_series.hpp"
#include "models/economics/depreciation.hpp"
#include "models/economics/electricity_tariff.hpp"
#include "models/economics/opex.hpp"
#include "sim/time.hpp"

namespace dcsim::models::economics {

struct CostLedgerConfig {
  CapexConfig capex;  // its site_prices are the fees' prices too
  DepreciationConfig depreciation;
  std::optional<FinancingConfig> financing;  // none: capex paid in month 1
  // The hardware keeps its book value at the horizon (it can be sold or used on). Off: a horizon
  // shorter than the depreciation period charges owning the whole capex.
  bool credit_book_value_at_horizon = true;
  OpexConfig opex;
  // None: flat at capex.site_prices.electricity_usd_per_kwh.
  std::optional<ElectricityTariffConfig> electricity;
  // None: traffic leaves through the unmetered ports only (which must then exist if any leaves).
  std::optional<EgressTariff> owned_metered_egress;
  RepairPrices repairs;
  std::vector<CloudOption> cloud;
};

struct CostItem {
  std::string name;
  double usd = 0.0;
};

struct OptionResult {
  std::string name;  // "owned", or the cloud offer's name
  std::vector<double> monthly_usd;
  std::vector<double> cumulative_usd;  // at the end of each month
  double tco_usd = 0.0;
  std::vector<CostItem> items;  // what tco_usd is made of, in a fixed order; they sum to it
  double energy_usd = 0.0;
  double egress_usd = 0.0;
  double billed_gpu_hours = 0.0;  // cloud: the GPU-hours paid for (>= delivered)
  UnitCosts unit;                 // tco_usd per delivered GPU-hour, million tokens, PFLOP
};

struct EconomicsResult {
  std::size_t months = 0;
  double delivered_gpu_hours = 0.0;
  double tokens = 0.0;
  double flops = 0.0;
  double energy_j = 0.0;
  double egress_bytes = 0.0;
  std::vector<double> egress_bytes_per_month;
  double port_capacity_bytes_per_month = 0.0;  // the unmetered ports at full speed
  double peak_port_utilisation = 0.0;          // max over months of egress / capacity (0 without ports)
  std::vector<std::uint64_t> faults_per_class;  // in fault_class_names order
  std::vector<std::string> fault_class_names;
  Capex capex;
  OptionResult owned;
  std::vector<OptionResult> cloud;                         // in config order
  std::vector<std::optional<std::size_t>> break_even_month;  // per cloud option; none = never
};

class CostLedger {
 public:
  // Validates everything (sim::ConfigError naming the field: "capex.node_price.usd_per_node",
  // "depreciation.years", "cloud[1].committed_gpus", "electricity.points[0].usd_per_kwh", ...)
  // and prices the capex.
  explicit CostLedger(CostLedgerConfig config);

  // Energy drawn at constant power over [start, end) (a zero-length interval: all at start).
  void add_energy(sim::Time start, sim::Time end, double energy_j);
  // GPU time delivered (useful work) over [start, end), in GPU-seconds.
  void add_gpu_time(sim::Time start, sim::Time end, double gpu_seconds);
  void add_egress(sim::Time at, double bytes);
  // Bytes held in storage from `at` on (the level, not a change); times must not decrease.
  void set_stored_bytes(sim::Time at, double bytes);
  // The index of a fault class for add_fault; sim::ConfigError("repairs.usd_per_fault.<name>")
  // when it has no price (a fault with no price would quietly cost nothing).
  std::size_t fault_class(const std::string& name) const;
  void add_fault(sim::Time at, std::size_t fault_class);
  void add_tokens(sim::Time at, double tokens);
  void add_flops(sim::Time at, double flops);

  // The results over [0, horizon). Everything reported must lie before the horizon
  // (InternalError otherwise: a caller bug).
  EconomicsResult finish(sim::Time horizon) const;

  // Everything reported so far lies before this instant (a point at t occupies [t, t + 1 ns)).
  sim::Time reported_until() const { return latest_; }

  const Capex& capex() const { return capex_; }
  const CostLedgerConfig& config() const { return config_; }

 private:
  void note_time(sim::Time t);
  OptionResult owned_result(sim::Time horizon, std::size_t months, const std::vector<double>& fraction) const;
  OptionResult cloud_result(const CloudOption& option, std::size_t months, const std::vector<double>& fraction,
                            const std::vector<double>& gb_months) const;

  CostLedgerConfig config_;
  Capex capex_;
  ElectricityTariff tariff_;
  std::vector<std::string> fault_names_;  // sorted, as the repair prices
  std::vector<double> fault_usd_;
  std::vector<std::uint64_t> fault_counts_;

  MonthlySeries energy_j_;
  MonthlySeries energy_usd_;
  MonthlySeries gpu_hours_;
  MonthlySeries egress_bytes_;
  MonthlySeries stored_byte_seconds_;
  MonthlySeries repairs_usd_;
  MonthlySeries tokens_;
  MonthlySeries flops_;
  sim::Time stored_since_ = sim::Time::zero();
  double stored_bytes_ = 0.0;
  sim::Time latest_ = sim::Time::zero();
};

}  // namespace dcsim::models::economics
