#pragma once
// The cloud side of a hybrid run (a cluster with a cloud pool, models/cluster/cloud_pool.hpp):
// what bursting cost, from the pool's signals; the economics subsystem owns one and reports it
// beside owning (economics_model.hpp).
//
//   instance_usd   = sum over instances of (gone - ready) x gpus_per_instance x usd_per_gpu_hour
//                    (clouds bill an instance while it exists, busy or idle; the provisioning
//                    delay is not billed), cut at the horizon
//   egress_usd     = sum over billing months of egress_cost_usd(offer's tariff, results that left
//                    the cloud that month); datasets sent to the cloud are ingress: free
//   spot_lost_usd  = GPU-hours of work preempted jobs lost x usd_per_gpu_hour (part of
//                    instance_usd: paid for, then thrown away)
//   usd            = instance_usd + egress_usd
// Work done there: the GPU-hours jobs held on instances (transfers, restarts and lost work
// included, as the owned side's delivered GPU-hours are).
//
// O(1) per signal plus O(months) memory.

#include <vector>

#include "models/seams/datacenter_signals.hpp"
#include "models/economics/cloud_offer.hpp"
#include "models/economics/egress_tariff.hpp"
#include "sim/time.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::economics {

class BurstAccount {
 public:
  BurstAccount(CloudGpuOffer offer, EgressTariff egress, sim::Time horizon);

  void on_instance(const seams::CloudInstanceChange& change);
  void on_transfer(const seams::CloudTransfer& transfer);
  // GPU time jobs held on cloud instances over [start, end).
  void add_gpu_time(sim::Time start, sim::Time end, double gpus);
  // Closes the instances still provisioned at `end` (the end of the run, or the horizon).
  void close(sim::Time end);

  double instance_hours() const { return instance_s_ / 3600.0; }
  double billed_gpu_hours() const { return billed_gpu_s_ / 3600.0; }
  double instance_usd() const { return billed_gpu_hours() * offer_.usd_per_gpu_hour; }
  double egress_usd() const;
  double spot_lost_usd() const { return lost_gpu_s_ / 3600.0 * offer_.usd_per_gpu_hour; }
  double usd() const { return instance_usd() + egress_usd(); }
  double gpu_hours() const { return held_gpu_s_ / 3600.0; }

  // cost/burst/*, and cost/hybrid/* with the owned side's TCO and delivered GPU-hours.
  void emit(sim::TraceSink& sink, double owned_tco_usd, double owned_gpu_hours) const;

 private:
  void add_instance_time(sim::Time from, sim::Time to, int gpus);

  CloudGpuOffer offer_;
  EgressTariff egress_;
  sim::Time horizon_;
  std::vector<sim::Time> ready_since_;  // by instance node id; max() while not ready
  double instance_s_ = 0.0;
  double billed_gpu_s_ = 0.0;
  double held_gpu_s_ = 0.0;
  double lost_gpu_s_ = 0.0;
  std::vector<double> egress_bytes_by_month_;
};

}  // namespace dcsim::models::economics
