#pragma once
// How loaded the shared store's drives and pools are over time (issue 18's per-OSD and per-pool
// throughput and utilisation), sampled every `interval` while the store works and never
// otherwise: sampling starts when an operation starts on an idle store (ObjectStore::set_on_busy)
// and ends with a last, shorter interval when the last one ends, so an idle store schedules
// nothing and a sampler never keeps a run alive.
//
// A sample over [t0, t1) reads the bytes each fabric resource carried up to t1
// (FlowNetwork::resource_bytes_at: flows in flight included at their rates, exact) and reports, per
// OSD host, what its drives wrote and read and that as a fraction of their capacity at t1 (all
// drives up at their rate, times the placement's balance: ObjectStore's drive resources), and per
// pool the client bytes written and read. An OSD's own load is its host's, shared by its PG
// slots: the host's drives are one resource.
//
// Emits
//   table    storage/osd_host_load: t_s, host, write_bps, read_bps, write_utilisation,
//            read_utilisation (one row per OSD host per sample)
//            storage/pool_load: t_s, pool, client_write_bps, client_read_bps (one row per pool per
//            sample)
//   summary  storage/load_samples, drive_utilisation_peak, drive_utilisation_peak_host,
//            drive_utilisation_peak_s
// Costs: per sample O(OSD hosts + pools) plus the live flows that cross a resource.

#include <cstdint>
#include <vector>

#include "models/seams/flow_network.hpp"
#include "models/storage/object_store.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_sink.hpp"

namespace dcsim::models::storage {

class StoreLoadSampler {
 public:
  // `store` and `network` (the store's) must outlive the sampler. interval > 0.
  StoreLoadSampler(const ObjectStore& store, const seams::FlowNetwork& network, sim::Time interval,
                   sim::Simulator& simulator, sim::TraceSink& sink);
  ~StoreLoadSampler();
  StoreLoadSampler(const StoreLoadSampler&) = delete;
  StoreLoadSampler& operator=(const StoreLoadSampler&) = delete;

  // The store's operations started (true) or all ended (false).
  void on_busy(bool busy);
  void finish();

 private:
  void sample();

  const ObjectStore& store_;
  const seams::FlowNetwork& network_;
  sim::Time interval_;
  sim::Simulator& simulator_;
  sim::TraceSink& sink_;
  sim::TableId hosts_table_ = 0, pools_table_ = 0;
  std::vector<double> bytes_, last_bytes_;  // per fabric resource
  sim::Time last_;
  sim::EventHandle next_;
  bool sampling_ = false;
  std::int64_t samples_ = 0;
  double peak_ = 0.0;
  std::int64_t peak_host_ = -1;
  double peak_s_ = 0.0;
};

}  // namespace dcsim::models::storage
