#include "models/storage/store_load_sampler.hpp"

#include <algorithm>
#include <string>

#include "sim/error.hpp"

namespace dcsim::models::storage {

StoreLoadSampler::StoreLoadSampler(const ObjectStore& store, const seams::FlowNetwork& network, sim::Time interval,
                                   sim::Simulator& simulator, sim::TraceSink& sink)
    : store_(store), network_(network), interval_(interval), simulator_(simulator), sink_(sink) {
  if (interval <= sim::Time::zero()) throw sim::ConfigError("series_interval", "must be positive");
  hosts_table_ = sink_.declare_table(
      "storage/osd_host_load",
      {{"t_s", sim::ColumnType::kFloat64, "s", "end of the sample"},
       {"host", sim::ColumnType::kInt64, "", "OSD host index of the store"},
       {"write_bps", sim::ColumnType::kFloat64, "bit/s", "written to its drives, mean over the sample"},
       {"read_bps", sim::ColumnType::kFloat64, "bit/s", "read from its drives, mean over the sample"},
       {"write_utilisation", sim::ColumnType::kFloat64, "", "write_bps / its drives' write capacity"},
       {"read_utilisation", sim::ColumnType::kFloat64, "", "read_bps / its drives' read capacity"}});
  pools_table_ = sink_.declare_table("storage/pool_load", {{"t_s", sim::ColumnType::kFloat64, "s", "end of the sample"},
                                                           {"pool", sim::ColumnType::kString, "", "pool name"},
                                                           {"client_write_bps", sim::ColumnType::kFloat64, "bit/s",
                                                            "client bytes written into the pool, mean"},
                                                           {"client_read_bps", sim::ColumnType::kFloat64, "bit/s",
                                                            "client bytes read from the pool, mean"}});
}

StoreLoadSampler::~StoreLoadSampler() { simulator_.cancel(next_); }

void StoreLoadSampler::on_busy(bool busy) {
  if (busy) {
    if (sampling_) return;
    sampling_ = true;
    last_ = simulator_.now();
    network_.resource_bytes_at(last_, last_bytes_);
    next_ = simulator_.at(
        last_ + interval_, [this] { sample(); }, sim::Priority::kTelemetry);
    return;
  }
  if (!sampling_) return;
  simulator_.cancel(next_);
  sample();  // the last, shorter interval: nothing is left pending
  sampling_ = false;
}

void StoreLoadSampler::sample() {
  const sim::Time now = simulator_.now();
  if (now > last_) {
    network_.resource_bytes_at(now, bytes_);
    const double dt = (now - last_).seconds();
    // (a resource made since the last sample, an aggregate op's, carried nothing before it)
    const auto delta = [&](network::ResourceId r) {
      return std::max(0.0, bytes_[r] - (r < last_bytes_.size() ? last_bytes_[r] : 0.0));
    };
    const auto hosts = static_cast<int>(store_.config().hosts.size());
    for (int h = 0; h < hosts; ++h) {
      const network::ResourceId w = store_.drive_write_resource(h), r = store_.drive_read_resource(h);
      const double write_bps = delta(w) * 8.0 / dt, read_bps = delta(r) * 8.0 / dt;
      const double write_cap = network_.resource_capacity_bps(w), read_cap = network_.resource_capacity_bps(r);
      const double write_util = write_cap > 0 ? write_bps / write_cap : 0.0;
      const double read_util = read_cap > 0 ? read_bps / read_cap : 0.0;
      sink_.append_row(hosts_table_, {now.seconds(), std::int64_t{h}, write_bps, read_bps, write_util, read_util});
      if (std::max(write_util, read_util) > peak_) {
        peak_ = std::max(write_util, read_util);
        peak_host_ = h;
        peak_s_ = now.seconds();
      }
    }
    for (std::size_t p = 0; p < store_.config().pools.size(); ++p) {
      const int pool = static_cast<int>(p);
      // Aggregate writes count their drive bytes: client bytes x amplification.
      const auto aggregate = store_.aggregate_write_resource(pool);
      const double written = delta(store_.client_write_resource(pool)) +
                             (aggregate ? delta(*aggregate) / store_.config().pools[p].amplification() : 0.0);
      sink_.append_row(pools_table_, {now.seconds(), store_.config().pools[p].name, written * 8.0 / dt,
                                      delta(store_.client_read_resource(pool)) * 8.0 / dt});
    }
    ++samples_;
    last_ = now;
    std::swap(last_bytes_, bytes_);
  }
  if (store_.busy())
    next_ = simulator_.at(
        now + interval_, [this] { sample(); }, sim::Priority::kTelemetry);
}

void StoreLoadSampler::finish() {
  const auto set = [this](const std::string& key, sim::SummaryValue v) { sink_.set_summary("storage/" + key, v); };
  set("load_samples", {samples_, "samples",
                       "samples of storage/osd_host_load and pool_load (taken while the store "
                       "worked)"});
  set("drive_utilisation_peak", {peak_, "",
                                 "highest sampled read or write load of an OSD host's drives, as a "
                                 "fraction of their capacity"});
  set("drive_utilisation_peak_host", {peak_host_, "host", "the OSD host where it was (-1: no sample)"});
  set("drive_utilisation_peak_s", {peak_s_, "s", "the end of that sample"});
}

}  // namespace dcsim::models::storage
