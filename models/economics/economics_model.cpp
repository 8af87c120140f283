#include "models/economics/economics_model.hpp"

#include <algorithm>
#include <cstdint>

#include "models/economics/billing_month.hpp"
#include "models/economics/cost_summary.hpp"
#include "models/economics/site_capex.hpp"
#include "sim/error.hpp"

namespace dcsim::models::economics {

namespace {

// The ledger's config completed with the site.
CostLedgerConfig ledger_config(const EconomicsConfig& e, const EconomicsSite& site) {
  if (site.shape.nodes <= 0) {
    throw sim::ConfigError("cluster", "needs a cluster: economics prices the nodes the run simulates");
  }
  CostLedgerConfig l = e.ledger;
  const double it_kw = contracted_kw(e, site.shape);
  l.capex = site_capex_config(e, site.shape, site.fabric, site.frontend);
  l.opex.site = e.site;
  l.opex.contracted_kw = it_kw;
  l.opex.nodes = site.shape.nodes;
  l.opex.gpus_per_node = site.gpus_per_node;
  // The ports the uplink carries transfers on are the ones billed: one list, so they cannot differ.
  l.opex.ports = site.ports;

  // Every reliability class that can fire needs a part price.
  std::string missing;
  for (const auto& fc : site.fault_classes) {
    if (!fc.can_fire || l.repairs.usd_per_fault.count(fc.name) > 0) continue;
    if (e.repair_default_usd) {
      l.repairs.usd_per_fault[fc.name] = *e.repair_default_usd;
    } else {
      missing += (missing.empty() ? "" : ", ") + fc.name;
    }
  }
  if (!missing.empty()) {
    throw sim::ConfigError("repairs", "expected a part price for every fault class that can fire; none for " +
                                          missing + " (price each, or give repair_default_usd)");
  }
  return l;
}

// The latest instant priced while the run goes on: the horizon asked for, else /duration (the
// run's span, as the run stops there), else open until the run ends.
sim::Time price_limit(const EconomicsConfig& e, const EconomicsSite& site) {
  if (e.horizon.is_max()) {
    // The run's own span: without /duration, until its work is done, so there must be work.
    if (site.shape.nodes <= 0) {
      throw sim::ConfigError("cluster", "needs a cluster: economics prices the nodes the run simulates");
    }
    if (site.duration.is_max() && !site.has_work) {
      throw sim::ConfigError("horizon", "missing; without /duration and without work the run simulates no time, so "
                                        "there is no period to price: give a horizon (\"1095.75 d\") or a /duration");
    }
    return site.duration;
  }
  if (e.horizon <= sim::Time::zero()) throw sim::ConfigError("horizon", "expected a positive period");
  return e.horizon;
}

}  // namespace

EconomicsModel::EconomicsModel(const EconomicsConfig& e, EconomicsSite site, sim::Simulator& simulator,
                               sim::TraceSink& sink, seams::DatacenterSignals& signals)
    : simulator_(simulator), sink_(sink), horizon_(price_limit(e, site)), horizon_asked_(!e.horizon.is_max()) {
  ledger_ = std::make_unique<CostLedger>(ledger_config(e, site));
  if (e.egress_bytes_per_month > 0 && port_capacity_bytes_per_month(ledger_->config().opex) == 0.0 &&
      !ledger_->config().owned_metered_egress) {
    // Found now, not when the run ends (the ledger would refuse at finish).
    throw sim::ConfigError("egress_per_month", "traffic leaves the site but it has neither unmetered ports nor a "
                                               "metered egress tariff; give /uplink/ports or owned_egress");
  }
  egress_bytes_per_month_ = e.egress_bytes_per_month;
  stored_bytes_ = e.stored_bytes;
  for (const auto& fc : site.fault_classes) {
    if (ledger_->config().repairs.usd_per_fault.count(fc.name) > 0) {
      fault_index_.emplace(fc.name, ledger_->fault_class(fc.name));
    }
  }
  // Cost per signal, whatever the site's size: O(1) for jobs, faults and work (a job's slot looked
  // up by index); an energy or uplink interval also pays O(months and tariff periods it spans).
  // The facility announces one step per facility step (ticks and threshold steps), the cluster
  // one IT-power change per settled instant, never one per node.
  // With a facility its steps carry the whole site's energy; otherwise the cluster's IT power.
  facility_energy_ = site.facility;
  if (facility_energy_) {
    signals.facility_step.connect([this](const seams::FacilityStep& s) { on_facility_step(s); });
  } else {
    signals.it_power.connect([this](const seams::ItPowerChange& p) { on_it_power(p); });
  }
  signals.job_state.connect([this](const seams::JobStateChange& j) { on_job(j); });
  signals.fault.connect([this](const seams::FaultNotice& f) { on_fault(f); });
  signals.training_work.connect([this](const seams::TrainingWork& w) { on_training_work(w); });
  signals.inference_work.connect([this](const seams::InferenceWork& w) { on_inference_work(w); });
  signals.uplink_carried.connect([this](const network::UplinkCarried& u) { on_uplink(u); });
  if (site.cloud) {
    // The cloud side bills at the pool's offer and its provider's egress tariff.
    burst_ = std::make_unique<BurstAccount>(site.cloud->offer, site.cloud->egress, horizon_);
    signals.cloud_instance.connect([this](const seams::CloudInstanceChange& i) { burst_->on_instance(i); });
    signals.cloud_transfer.connect([this](const seams::CloudTransfer& t) { burst_->on_transfer(t); });
  }
  // Stored throughout; the declared egress is added at finish, once the period priced is known.
  if (stored_bytes_ > 0) ledger_->set_stored_bytes(sim::Time::zero(), stored_bytes_);
}

void EconomicsModel::add_declared_egress(sim::Time end) {
  // At the middle of each month (pro rata in a partial last month). O(months).
  if (egress_bytes_per_month_ <= 0) return;
  for (std::size_t m = 0; m < billing_months(end); ++m) {
    const sim::Time from = billing_month_start(m);
    const sim::Time to = std::min(end, billing_month_start(m + 1));
    const double fraction = month_fraction_before(m, end);
    ledger_->add_egress(from + sim::Time::from_ns((to - from).ns() / 2), egress_bytes_per_month_ * fraction);
  }
}

void EconomicsModel::add_energy(sim::Time start, sim::Time end, double energy_j) {
  if (start >= horizon_ || (end == start && energy_j == 0.0)) return;
  if (end > horizon_) {
    energy_j *= static_cast<double>((horizon_ - start).ns()) / static_cast<double>((end - start).ns());
    end = horizon_;
  }
  ledger_->add_energy(start, end, energy_j);
}

void EconomicsModel::add_gpu_time(std::size_t job, sim::Time start, sim::Time end, double gpus, bool cloud) {
  if (job >= gpu_s_by_job_.size()) {
    gpu_s_by_job_.resize(job + 1, 0.0);
    cloud_gpu_s_by_job_.resize(job + 1, 0.0);
  }
  if (cloud) {
    burst_->add_gpu_time(start, end, gpus);
    const sim::Time cut = std::min(end, horizon_);
    if (cut > start) cloud_gpu_s_by_job_[job] += gpus * (cut - start).seconds();
    return;
  }
  end = std::min(end, horizon_);
  if (end <= start) return;
  const double gpu_s = gpus * (end - start).seconds();
  ledger_->add_gpu_time(start, end, gpu_s);
  gpu_s_by_job_[job] += gpu_s;
}

void EconomicsModel::on_job(const seams::JobStateChange& j) {
  if (j.job >= running_.size()) running_.resize(j.job + 1);
  auto& slot = running_[j.job];
  if (slot) {
    add_gpu_time(j.job, slot->since, j.at, slot->gpus, slot->cloud);
    slot.reset();
  }
  // A job stalled at a held checkpoint still holds (and would rent) its GPUs.
  if (j.to == "running" || j.to == "stalled") slot = Running{j.at, static_cast<double>(j.gpus), j.cloud};
}

void EconomicsModel::on_it_power(const seams::ItPowerChange& p) {
  if (p.at > power_since_) add_energy(power_since_, p.at, power_w_ * (p.at - power_since_).seconds());
  power_since_ = std::max(power_since_, p.at);
  power_w_ = p.power_w;
}

void EconomicsModel::on_facility_step(const seams::FacilityStep& s) {
  add_energy(s.from, s.to, s.facility_j);
  if (s.to > s.from) power_w_ = s.facility_j / (s.to - s.from).seconds();
  power_since_ = std::max(power_since_, s.to);
}

void EconomicsModel::on_uplink(const network::UplinkCarried& u) {
  if (u.direction != network::UplinkDirection::kOut || u.from >= horizon_) return;
  // Constant rate over [from, to): the horizon and each month take their share.
  const sim::Time end = std::min(u.to, horizon_);
  if (u.to <= u.from) {
    ledger_->add_egress(u.from, u.bytes);
    uplink_bytes_ += u.bytes;
    return;
  }
  const double per_ns = u.bytes / static_cast<double>((u.to - u.from).ns());
  for_each_month_piece(u.from, end, [&](std::size_t, sim::Time from, sim::Time to) {
    const double bytes = per_ns * static_cast<double>((to - from).ns());
    ledger_->add_egress(from, bytes);
    uplink_bytes_ += bytes;
  });
}

void EconomicsModel::on_fault(const seams::FaultNotice& f) {
  if (f.repaired || f.at >= horizon_) return;
  // Classes of the reliability model only: scripted /faults entries are what-if events with no part.
  if (const auto it = fault_index_.find(f.fault_class); it != fault_index_.end()) ledger_->add_fault(f.at, it->second);
}

void EconomicsModel::on_training_work(const seams::TrainingWork& w) {
  // Work reported at t was done before t (a run that stops reports its unfinished jobs' work at
  // its last instant): booked 1 ns earlier, so it lies inside a period that ends at t.
  if (w.at > horizon_) return;
  const sim::Time at = w.at > sim::Time::zero() ? w.at - sim::Time::from_ns(1) : w.at;
  if (w.job >= trained_.size()) {
    trained_.resize(w.job + 1, false);
    tokens_by_job_.resize(w.job + 1, 0.0);
    flops_by_job_.resize(w.job + 1, 0.0);
  }
  trained_[w.job] = true;
  tokens_by_job_[w.job] += w.tokens;
  flops_by_job_[w.job] += w.model_flops;
  ledger_->add_tokens(at, w.tokens);
  ledger_->add_flops(at, w.model_flops);
}

void EconomicsModel::on_inference_work(const seams::InferenceWork& w) {
  // Announced at the end of the run: a run past the horizon priced none of it (the requests'
  // completion times are not kept, so the tokens are not cut pro rata).
  served_.push_back({std::string(w.service), w.jobs, w.at > horizon_ ? 0.0 : w.output_tokens});
}

PricedPeriod EconomicsModel::close_period() {
  // The run's span within the limit: its /duration (the run stops there), or until its work was done.
  const sim::Time run_end = std::min(simulator_.now(), horizon_);
  for (std::size_t job = 0; job < running_.size(); ++job) {
    if (running_[job]) add_gpu_time(job, running_[job]->since, run_end, running_[job]->gpus, running_[job]->cloud);
    running_[job].reset();
  }
  if (burst_) burst_->close(run_end);
  if (run_end > power_since_) {
    add_energy(power_since_, run_end, power_w_ * (run_end - power_since_).seconds());
    power_since_ = run_end;
  }
  PricedPeriod p;
  p.horizon_asked = horizon_asked_;
  p.simulated = run_end;
  // The run's own span unless a horizon was asked for. A point (a fault, a transfer) reported at
  // the run's last instant occupies its nanosecond, so that span can end 1 ns after the last event.
  p.priced = horizon_asked_ ? horizon_ : std::max(run_end, ledger_->reported_until());
  if (p.priced <= sim::Time::zero()) {
    throw sim::ConfigError("horizon", "the run simulated no time (no /duration and nothing to do), so there is no "
                                      "period to price; give a horizon or a /duration");
  }
  // A horizon past the run: the site stays powered, drawing the run's last power (IT, or the
  // facility's last step) until it ends. Said in cost/energy_after_run_kwh.
  if (horizon_asked_ && p.priced > power_since_) {
    p.energy_after_run_j = power_w_ * (p.priced - power_since_).seconds();
    add_energy(power_since_, p.priced, p.energy_after_run_j);
    power_since_ = p.priced;
  }
  add_declared_egress(p.priced);
  return p;
}

void EconomicsModel::finish() {
  const PricedPeriod period = close_period();
  const sim::Time horizon = period.priced;
  const EconomicsResult r = ledger_->finish(horizon);
  double training_gpu_s = 0.0;
  double owned_tokens = 0.0;  // what the owned GPU time trained (all of it without a cloud pool)
  double owned_flops = 0.0;
  for (std::size_t job = 0; job < std::min(trained_.size(), gpu_s_by_job_.size()); ++job) {
    if (!trained_[job]) continue;
    training_gpu_s += gpu_s_by_job_[job];
    const double held_s = gpu_s_by_job_[job] + cloud_gpu_s_by_job_[job];
    const double owned_share = held_s > 0 ? gpu_s_by_job_[job] / held_s : 0.0;
    owned_tokens += tokens_by_job_[job] * owned_share;
    owned_flops += flops_by_job_[job] * owned_share;
  }
  const double training_gpu_h = training_gpu_s / 3600.0;
  const double training_share = r.delivered_gpu_hours > 0 ? training_gpu_h / r.delivered_gpu_hours : 0.0;

  const auto emit_option = [&](const OptionResult& o) {
    const std::string base = "cost/" + o.name + "/";
    const auto series = sink_.declare_series(base + "cumulative_usd", "USD",
                                             "cumulative cost of this option at the end of each billing month "
                                             "(30.4375 d; the last point at the end of the period priced)");
    for (std::size_t m = 0; m < o.cumulative_usd.size(); ++m) {
      sink_.append(series, std::min(horizon, billing_month_start(m + 1)), o.cumulative_usd[m]);
    }
    sink_.set_summary(base + "tco_usd", {o.tco_usd, "USD", "total cost of ownership over the period priced"});
    const auto per_unit = [&](const std::string& key, const std::optional<double>& v, const char* unit,
                              const std::string& what) {
      if (v) {
        sink_.set_summary(base + key, {*v, unit, "tco_usd per " + what});
      } else {
        sink_.set_summary(base + key, {std::string("none"), unit, "tco_usd per " + what + ": none delivered"});
      }
    };
    per_unit("usd_per_gpu_hour", o.unit.usd_per_gpu_hour, "USD/GPU-h",
             "delivered GPU-hour (idle, failures and lost work included)");
    // The training jobs' share of the TCO over what they delivered.
    const UnitCosts training = unit_costs(o.tco_usd * training_share, training_gpu_h, owned_tokens, owned_flops);
    per_unit("usd_per_million_tokens", training.usd_per_million_tokens, "USD/Mtoken",
             "million training tokens delivered (steps kept x tokens per step), on the training jobs' share of "
             "the delivered GPU-hours");
    per_unit("usd_per_pflop", training.usd_per_pflop, "USD/PFLOP",
             "1e15 model FLOPs delivered (PaLM definition, recomputation excluded), on the training jobs' share");
    for (const Served& s : served_) {
      double gpu_s = 0.0;
      for (const std::size_t job : s.jobs) gpu_s += job < gpu_s_by_job_.size() ? gpu_s_by_job_[job] : 0.0;
      const double share = r.delivered_gpu_hours > 0 ? gpu_s / 3600.0 / r.delivered_gpu_hours : 0.0;
      const UnitCosts serving = unit_costs(o.tco_usd * share, gpu_s / 3600.0, s.output_tokens, 0.0);
      per_unit("inference/" + s.service + "/usd_per_million_output_tokens", serving.usd_per_million_tokens,
               "USD/Mtoken",
               "million output tokens the service answered, on its replicas' share of the delivered GPU-hours");
      if (o.name == r.owned.name) {
        const std::string key = "inference/" + s.service + "/usd_per_million_output_tokens";
        if (serving.usd_per_million_tokens) {
          sink_.set_summary(key, {*serving.usd_per_million_tokens, "USD/Mtoken",
                                  "owning the cluster: its TCO x the replicas' share of the delivered GPU-hours, per "
                                  "million output tokens answered (cost/<option>/inference/... for the others)"});
        } else {
          sink_.set_summary(key, {std::string("none"), "USD/Mtoken", "no output token answered"});
        }
      }
    }
    sink_.set_summary(base + "energy_usd", {o.energy_usd, "USD", "electricity in tco_usd"});
    sink_.set_summary(base + "egress_usd", {o.egress_usd, "USD",
                                          "traffic leaving the site in tco_usd: unmetered port fees plus any metered "
                                          "tariff (owned), the provider's egress tariff (cloud)"});
    // What share of the option's cost each is: where the money goes, the first thing a TCO
    // review asks. A TCO of 0 (nothing priced) has no shares.
    const double tco = o.tco_usd;
    sink_.set_summary(base + "energy_share", {tco > 0 ? o.energy_usd / tco : 0.0, "", "energy_usd / tco_usd"});
    sink_.set_summary(base + "egress_share", {tco > 0 ? o.egress_usd / tco : 0.0, "", "egress_usd / tco_usd"});
  };
  const auto month_value = [](const std::optional<std::size_t>& m) -> sim::SummaryValue {
    if (m) return {static_cast<std::int64_t>(*m), "month", "first billing month (1-based) whose end finds owning's "
                                                             "cumulative cost below renting's; or never"};
    return {std::string("never"), "month",
            "first billing month (1-based) whose end finds owning's cumulative cost below renting's; or never"};
  };
  emit_option(r.owned);
  emit_option_breakdown(sink_, r.owned);
  for (std::size_t i = 0; i < r.cloud.size(); ++i) {
    emit_option(r.cloud[i]);
    emit_option_breakdown(sink_, r.cloud[i]);
    sink_.set_summary("cost/" + r.cloud[i].name + "/break_even_month", month_value(r.break_even_month[i]));
  }
  if (!r.cloud.empty()) {
    auto v = month_value(r.break_even_month[0]);
    v.description += " (against " + r.cloud[0].name + ", the first cloud option)";
    sink_.set_summary("cost/break_even_month", v);
  }
  sink_.set_summary("cost/capex_usd", {r.capex.total_usd, "USD",
                                       "servers, network, facility gear and spares: the sum of cost/capex/*_usd"});
  emit_capex_breakdown(sink_, r.capex);
  emit_priced_period(sink_, period);
  sink_.set_summary("cost/delivered_gpu_hours",
                    {r.delivered_gpu_hours, "GPU-h", "GPU-hours jobs held while running, within the period priced"});
  sink_.set_summary("cost/training_tokens",
                    {r.tokens, "token", "tokens of the training steps jobs kept, within the period priced"});
  sink_.set_summary("cost/model_pflop", {r.flops / 1e15, "PFLOP", "model FLOPs of those steps / 1e15"});
  sink_.set_summary("cost/training_gpu_hours",
                    {training_gpu_h, "GPU-h", "GPU-hours training jobs held within the period priced: their share of "
                                              "delivered_gpu_hours carries the per-token and per-PFLOP costs"});
  sink_.set_summary("cost/energy_kwh", {r.energy_j / kJoulesPerKwh, "kWh",
                                        "energy priced over the period: the facility's total with /facility, else "
                                        "the IT energy; energy_after_run_kwh of it after the run ended"});
  sink_.set_summary("cost/egress_bytes", {r.egress_bytes, "B",
                                          "bytes billed as leaving the site within the period priced: the uplink's egress "
                                          "transfers plus egress_per_month"});
  sink_.set_summary("cost/uplink_egress_bytes", {uplink_bytes_, "B",
                                                 "of egress_bytes, the bytes the uplink carried out (in the month they "
                                                 "left)"});
  sink_.set_summary("cost/months", {static_cast<std::int64_t>(r.months), "month",
                                    "billing months in the period priced (a partial last month counts)"});
  if (burst_) burst_->emit(sink_, r.owned.tco_usd, r.delivered_gpu_hours);
}

}  // namespace dcsim::models::economics
