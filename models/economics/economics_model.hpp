#pragma once
// The economics model: prices what the run simulated with a CostLedger (cost_ledger.hpp) and,
// at the end, compares owning the cluster with renting the same delivered GPU-hours from each
// cloud option. It is a subsystem (models/seams/subsystem.hpp); the assembly reads its site
// (models/datacenter/economics_site.hpp).
//
// Built from EconomicsConfig plus an EconomicsSite, the plain facts of the site the assembly
// knows: nodes and GPUs per node, the networks' bills of materials, the cooling gear (D2C cold
// plates and CDUs for the captured share, rear doors for the rest when the facility has them;
// air only without a facility), the uplink's ports, the fault classes, the cloud pool's offer.
//
// What it hears (models/seams/datacenter_signals.hpp), O(1) work per signal plus the ledger's O(months the
// interval crosses):
//   energy     with a facility, each FacilityStep's facility_j (IT + distribution losses +
//              cooling) over [from, to); without one, the cluster's IT power step function
//              (ItPowerChange) integrated exactly between changes
//   GPU time   every running interval of every job x the GPUs it holds (lost work included: a
//              cloud would bill it too); jobs still running at the end count up to it
//   repairs    each fault of the reliability model, at its class's part price
//   work       each training job's TrainingWork (tokens and model FLOPs of the steps it kept,
//              once per job: at completion, or at the end of the run), for $/million tokens and
//              $/PFLOP: each option's TCO x the training jobs' share of the delivered GPU-hours,
//              over the tokens (or FLOPs), so batch jobs sharing the cluster do not load their
//              cost onto the tokens; work reported after the horizon is not priced
//   serving    each inference service's InferenceWork (output tokens it answered and its replicas'
//              cluster jobs, once at the end), for $/million output tokens: each option's TCO x
//              the service's replicas' share of the delivered GPU-hours, over its output tokens
//              (tokens answered after the horizon are not priced)
//   egress     the bytes the site's uplink carried out (uplink_carried, site_uplink.hpp), in the
//              month they left (an interval crossing a month boundary is split pro rata), plus
//              the config's declared egress_per_month; the unmetered ports billed are the
//              uplink's (DatacenterConfig::uplink), so the fee and the speed cannot disagree
// Cloud storage is the config's declared volume.
//
// The period priced, [0, end): the horizon asked for (EconomicsConfig::horizon), else the run's own
// span (its /duration, as the run stops there; without one, until its work was done). Anything
// past a horizon is not priced (a constant-power interval crossing it is cut pro rata); a run that
// ends before the horizon asked for is taken to keep drawing its last power (IT, or the facility's
// last step) until it: the site stays on (cost/energy_after_run_kwh), and a run that simulated under
// 1% of it gets cost/warning (cost_summary.hpp).
//
// Outputs at finish, for each option (`owned` and each cloud offer's name):
//   series  cost/<option>/cumulative_usd   USD at the end of each billing month (at its end time)
//   summary cost/<option>/tco_usd, usd_per_gpu_hour, usd_per_million_tokens, usd_per_pflop,
//           energy_usd, egress_usd, energy_share, egress_share (of tco_usd; a unit cost is "none"
//           when nothing of that unit was delivered)
//           cost/<cloud option>/break_even_month   1-based month, or "never"
//           cost/<option>/inference/<service>/usd_per_million_output_tokens, and the owned
//           option's figure also as inference/<service>/usd_per_million_output_tokens
//   summary cost/<option>/breakdown/<item>_usd (the TCO item by item; cost_summary.hpp)
//   summary cost/break_even_month (against the first cloud option), cost/capex_usd and
//           cost/capex/<category>_usd, cost/priced_period_s and the period's other keys,
//           cost/delivered_gpu_hours, cost/training_tokens, cost/model_pflop,
//           cost/training_gpu_hours, cost/energy_kwh, cost/egress_bytes, cost/uplink_egress_bytes,
//           cost/months
// With a cloud pool (a hybrid run) the owned side and the cloud options price the GPU time jobs
// held on the owned nodes only; the cloud side is a BurstAccount (burst_account.hpp), fed by the
// pool's signals (instances, transfers) and the cloud runs of jobs: summary cost/burst/*,
// cost/onprem/gpu_hours, cost/hybrid/*.

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/economics/burst_account.hpp"
#include "models/economics/cost_ledger.hpp"
#include "models/economics/cost_summary.hpp"
#include "models/economics/economics_config.hpp"
#include "models/economics/site_capex.hpp"
#include "models/network/bill_of_materials.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/subsystem.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::economics {

// What the economics price besides their own config: the site as the assembly built it.
struct EconomicsSite {
  SiteShape shape;                 // nodes and cooling gear (site_capex.hpp)
  int gpus_per_node = 0;
  std::optional<network::BillOfMaterials> fabric;    // the backend network, when there is one
  std::optional<network::BillOfMaterials> frontend;  // the front-end network, when there is one
  std::vector<PortGroup> ports;    // the uplink's ports: the ones billed are the ones carrying
  struct FaultClass {
    std::string name;
    bool can_fire = false;         // a positive rate at a positive scale: it needs a part price
  };
  std::vector<FaultClass> fault_classes;  // the reliability model's
  bool facility = false;           // facility steps carry the site's energy (else IT power)
  sim::Time duration = sim::Time::max();  // /duration
  bool has_work = false;           // jobs, generators, traces, training or services to run
  struct Cloud {                   // a cloud pool: the offer it rents and its egress tariff
    CloudGpuOffer offer;
    EgressTariff egress;
  };
  std::optional<Cloud> cloud;
};

class EconomicsModel final : public seams::Subsystem {
 public:
  // sim::ConfigError naming the field: the ledger's ("depreciation.years", "cloud[0].committed_gpus",
  // "capex.fabric_prices.switches", ...), "horizon" (not positive, or no period to price), "cluster"
  // (no nodes), "repairs" (a fault class that can fire without a price). Listens on `signals`.
  EconomicsModel(const EconomicsConfig& config, EconomicsSite site, sim::Simulator& simulator, sim::TraceSink& sink,
                 seams::DatacenterSignals& signals);
  EconomicsModel(const EconomicsModel&) = delete;
  EconomicsModel& operator=(const EconomicsModel&) = delete;

  // Closes the accounts at the engine's time and writes the outputs.
  void finish() override;

  // The ledger as configured (capex priced): for tests and reports.
  const CostLedger& ledger() const { return *ledger_; }

 private:
  struct Running {
    sim::Time since;
    double gpus = 0.0;
    bool cloud = false;
  };
  void on_job(const seams::JobStateChange& change);
  void on_it_power(const seams::ItPowerChange& change);
  void on_facility_step(const seams::FacilityStep& step);
  void on_fault(const seams::FaultNotice& notice);
  void on_training_work(const seams::TrainingWork& work);
  void on_inference_work(const seams::InferenceWork& work);
  void on_uplink(const network::UplinkCarried& carried);
  // Ends the run's accounts at its end and, with a horizon asked for, extends its last power to it;
  // adds the declared egress. The period priced.
  PricedPeriod close_period();
  void add_declared_egress(sim::Time end);
  // Cuts [start, end) at the horizon (pro rata for energy) and reports what lies before it.
  void add_energy(sim::Time start, sim::Time end, double energy_j);
  void add_gpu_time(std::size_t job, sim::Time start, sim::Time end, double gpus, bool cloud);

  sim::Simulator& simulator_;
  sim::TraceSink& sink_;
  // The latest instant priced: the horizon asked for, else /duration, else max() (until the run
  // ends). Whether a horizon was asked for: then it is the period priced, else the run's span.
  sim::Time horizon_;
  bool horizon_asked_ = false;
  std::unique_ptr<CostLedger> ledger_;
  double egress_bytes_per_month_ = 0.0;
  double uplink_bytes_ = 0.0;  // egress the uplink carried, within the horizon
  double stored_bytes_ = 0.0;
  bool facility_energy_ = false;
  sim::Time power_since_ = sim::Time::zero();
  double power_w_ = 0.0;
  std::vector<std::optional<Running>> running_;  // by job index
  // GPU-seconds each job held within the horizon, and whether it trained (sent TrainingWork): the
  // training jobs' share of the delivered GPU-hours is the share of each option's TCO that the
  // tokens and FLOPs carry (batch jobs on the same cluster carry the rest).
  // In a hybrid run only the owned GPU time is priced by these options, so the tokens they carry
  // are each job's tokens x its owned share of its GPU time (cloud_gpu_s_by_job_ the rest).
  std::vector<double> gpu_s_by_job_;
  std::vector<double> cloud_gpu_s_by_job_;
  std::vector<bool> trained_;
  std::vector<double> tokens_by_job_;
  std::vector<double> flops_by_job_;
  struct Served {
    std::string service;
    std::vector<std::size_t> jobs;
    double output_tokens = 0.0;
  };
  std::vector<Served> served_;  // inference services, in announcement order
  std::map<std::string, std::size_t, std::less<>> fault_index_;  // reliability class -> ledger index
  std::unique_ptr<BurstAccount> burst_;  // with a cloud pool
};

}  // namespace dcsim::models::economics
