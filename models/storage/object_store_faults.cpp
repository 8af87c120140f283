// ObjectStore's faults (object_store.hpp): hosts and single OSDs going down and back, marked
// out after down_out_interval (the backfill itself is the data path's relocate()), and the
// degraded time they leave.

#include <string>

#include "models/storage/object_store.hpp"
#include "sim/error.hpp"

namespace dcsim::models::storage {

void ObjectStore::set_host_down(int host) {
  if (host < 0 || static_cast<std::size_t>(host) >= hosts_.size()) throw sim::ConfigError("host", "no such OSD host");
  CrushPlacement& first = *pools_.front().placement;
  if (!first.host_up(host)) return;
  ++counters_.host_failures;
  for (Pool& p : pools_) {
    p.placement->set_host_up(host, false);
    refresh_shares(p);
  }
  if (first.host_in(host)) {
    ++down_in_;
    sim_.cancel(out_events_[static_cast<std::size_t>(host)]);
    out_events_[static_cast<std::size_t>(host)] =
        sim_.at(sim_.now() + config_.down_out_interval, [this, host] { mark_out(host); });
  }
  note_degraded();
  net_.fail_host_flows(config_.hosts[static_cast<std::size_t>(host)], "OSD host " + std::to_string(host) + " down");
}

void ObjectStore::set_host_up(int host) {
  CrushPlacement& first = *pools_.front().placement;
  if (first.host_up(host)) return;
  for (Pool& p : pools_) {
    p.placement->set_host_up(host, true);
    refresh_shares(p);
  }
  if (first.host_in(host)) {  // back before it was marked out: its data is still there
    sim_.cancel(out_events_[static_cast<std::size_t>(host)]);
    --down_in_;
  }
  note_degraded();
}

int ObjectStore::osd_index(int host, int drive) const {
  if (host < 0 || static_cast<std::size_t>(host) >= hosts_.size() || drive < 0 || drive >= config_.drives_per_host) {
    throw sim::ConfigError("drive", "no such OSD: host " + std::to_string(host) + ", drive " + std::to_string(drive));
  }
  return host * config_.drives_per_host + drive;
}

void ObjectStore::set_osd_down(int host, int drive) {
  const int osd = osd_index(host, drive);
  CrushPlacement& first = *pools_.front().placement;
  if (!first.osd_up(osd)) return;
  ++counters_.osd_failures;
  for (Pool& p : pools_) {
    p.placement->set_osd_up(osd, false);
    refresh_shares(p);
  }
  refresh_drive_capacity();
  if (first.osd_in(osd)) {
    ++down_in_;
    sim_.cancel(osd_out_events_[static_cast<std::size_t>(osd)]);
    osd_out_events_[static_cast<std::size_t>(osd)] =
        sim_.at(sim_.now() + config_.down_out_interval, [this, osd] { mark_osd_out(osd); });
  }
  note_degraded();
  // The host's flows crossed the drive with the rest (shares are per host): they re-issue what
  // they had left on the members up, the failed drive's share going elsewhere.
  const std::string why = "OSD " + std::to_string(drive) + " of host " + std::to_string(host) + " down";
  net_.fail_resource_flows(hosts_[static_cast<std::size_t>(host)].read, why);
  net_.fail_resource_flows(hosts_[static_cast<std::size_t>(host)].write, why);
}

void ObjectStore::set_osd_up(int host, int drive) {
  const int osd = osd_index(host, drive);
  CrushPlacement& first = *pools_.front().placement;
  if (first.osd_up(osd)) return;
  for (Pool& p : pools_) {
    p.placement->set_osd_up(osd, true);
    refresh_shares(p);
  }
  refresh_drive_capacity();
  if (first.osd_in(osd)) {  // back before it was marked out: its data is still there
    sim_.cancel(osd_out_events_[static_cast<std::size_t>(osd)]);
    --down_in_;
  }
  note_degraded();
}

void ObjectStore::mark_out(int host) {
  relocate([host](CrushPlacement& pl) { pl.set_host_in(host, false); });
}

void ObjectStore::mark_osd_out(int osd) {
  relocate([osd](CrushPlacement& pl) { pl.set_osd_in(osd, false); });
}

void ObjectStore::note_degraded() {
  const bool degraded = down_in_ > 0 || recovery_flows_ > 0;
  if (degraded && degraded_since_ == sim::Time::max()) degraded_since_ = sim_.now();
  if (!degraded && degraded_since_ != sim::Time::max()) {
    counters_.degraded_s += (sim_.now() - degraded_since_).seconds();
    degraded_since_ = sim::Time::max();
  }
}

}  // namespace dcsim::models::storage
