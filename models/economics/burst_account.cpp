#include "models/economics/burst_account.hpp"

#include <algorithm>
#include <string>

#include "models/economics/billing_month.hpp"

namespace dcsim::models::economics {


BurstAccount::BurstAccount(CloudGpuOffer offer, EgressTariff egress, sim::Time horizon)
    : offer_(std::move(offer)), egress_(std::move(egress)), horizon_(horizon) {}

void BurstAccount::add_instance_time(sim::Time from, sim::Time to, int gpus) {
  to = std::min(to, horizon_);
  if (to <= from) return;
  const double s = (to - from).seconds();
  instance_s_ += s;
  billed_gpu_s_ += s * gpus;
}

void BurstAccount::on_instance(const seams::CloudInstanceChange& c) {
  const auto i = static_cast<std::size_t>(c.instance);  // a node id: after the on-prem nodes
  if (i >= ready_since_.size()) ready_since_.resize(i + 1, sim::Time::max());
  using Kind = seams::CloudInstanceChange::Kind;
  switch (c.kind) {
    case Kind::kRequested: break;
    case Kind::kReady: ready_since_[i] = c.at; break;
    case Kind::kPreempted:
      if (c.at < horizon_) lost_gpu_s_ += c.lost_gpu_s;
      [[fallthrough]];
    case Kind::kReleased:
      if (ready_since_[i] != sim::Time::max()) add_instance_time(ready_since_[i], c.at, c.gpus);
      ready_since_[i] = sim::Time::max();
      break;
  }
}

void BurstAccount::on_transfer(const seams::CloudTransfer& t) {
  if (!t.leaves_cloud || t.at >= horizon_) return;  // ingress is free
  const std::size_t m = billing_month_of(t.at);
  if (m >= egress_bytes_by_month_.size()) egress_bytes_by_month_.resize(m + 1, 0.0);
  egress_bytes_by_month_[m] += t.bytes;
}

void BurstAccount::add_gpu_time(sim::Time start, sim::Time end, double gpus) {
  end = std::min(end, horizon_);
  if (end > start) held_gpu_s_ += gpus * (end - start).seconds();
}

void BurstAccount::close(sim::Time end) {
  for (auto& since : ready_since_) {
    if (since != sim::Time::max()) add_instance_time(since, end, offer_.gpus_per_instance);
    since = sim::Time::max();
  }
}

double BurstAccount::egress_usd() const {
  double usd = 0.0;
  for (double bytes : egress_bytes_by_month_) usd += egress_cost_usd(egress_, bytes);
  return usd;
}

void BurstAccount::emit(sim::TraceSink& sink, double owned_tco_usd, double owned_gpu_hours) const {
  const auto put = [&sink](const std::string& path, double v, const std::string& unit, const std::string& what) {
    sink.set_summary(path, sim::SummaryValue{v, unit, what});
  };
  const std::string offer = " (" + offer_.name + ")";
  put("cost/burst/usd", usd(), "USD", "the cloud side of the hybrid run: instance_usd + egress_usd" + offer);
  put("cost/burst/instance_usd", instance_usd(), "USD",
      "instances billed while provisioned, busy or idle: billed_gpu_hours x the offer's price");
  put("cost/burst/egress_usd", egress_usd(), "USD", "results leaving the cloud, at the offer's egress tariff");
  put("cost/burst/spot_lost_usd", spot_lost_usd(), "USD",
      "part of instance_usd paid for work spot preemptions threw away (lost GPU-hours x price)");
  put("cost/burst/instance_hours", instance_hours(), "instance-h", "instance time billed within the horizon");
  put("cost/burst/billed_gpu_hours", billed_gpu_hours(), "GPU-h", "instance_hours x GPUs per instance");
  put("cost/burst/gpu_hours", gpu_hours(), "GPU-h", "GPU-hours jobs held on cloud instances (work done there)");
  if (gpu_hours() > 0) {
    put("cost/burst/usd_per_gpu_hour", usd() / gpu_hours(), "USD/GPU-h", "usd per GPU-hour jobs held in the cloud");
  }
  put("cost/onprem/gpu_hours", owned_gpu_hours, "GPU-h", "GPU-hours jobs held on the owned nodes (work done there)");
  put("cost/hybrid/tco_usd", owned_tco_usd + usd(), "USD", "cost/owned/tco_usd + cost/burst/usd");
  put("cost/hybrid/gpu_hours", owned_gpu_hours + gpu_hours(), "GPU-h", "GPU-hours delivered on both sides");
  if (owned_gpu_hours + gpu_hours() > 0) {
    put("cost/hybrid/usd_per_gpu_hour", (owned_tco_usd + usd()) / (owned_gpu_hours + gpu_hours()), "USD/GPU-h",
        "hybrid TCO per GPU-hour delivered on both sides");
  }
}

}  // namespace dcsim::models::economics
