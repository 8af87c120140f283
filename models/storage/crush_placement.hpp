#pragma once
// Where a pool's placement groups live: a deterministic, weighted pseudo-random choice of OSDs in
// the spirit of Ceph's CRUSH straw2 buckets. Each candidate item draws ln(u) / weight with u a
// hash of (seed, pool, PG, item) in (0, 1]; the largest draws win. A PG takes the `width` failure
// domains (racks, hosts or OSDs) with the largest draws, then in each the host and OSD with the
// largest draw. Taking an item out changes only the PGs it held (every other draw is unchanged),
// so a failed host's data, and only it, moves: the property recovery relies on. The first member
// is the primary.
//
// Hosts are "in" (placement counts them) or "out"; "up" or "down" (a down host that is still in
// keeps its place: its PGs are degraded, served by the members left, until it is marked out).
// OSDs (drives) are in or out, up or down, on their own too. An OSD out keeps its host's weight
// (Ceph's `osd out` sets a reweight, not the CRUSH weight): a PG that drew it takes the next
// best OSD in on the same host (on another host only when none is left there), so exactly the
// out OSD's PGs move, and they stay in their failure domain.

#include <cstdint>
#include <span>
#include <vector>

#include "models/storage/store_config.hpp"

namespace dcsim::models::storage {

class CrushPlacement {
 public:
  // OSD i is drive i % drives_per_host of host i / drives_per_host; host h is in rack
  // h / hosts_per_rack. Throws sim::ConfigError when the pool's width exceeds its failure domains.
  CrushPlacement(int hosts, int drives_per_host, int hosts_per_rack, const PoolConfig& pool, int pool_index,
                 std::uint64_t seed);

  int pg_count() const { return pg_count_; }
  int width() const { return width_; }
  int osd_count() const { return hosts_ * drives_per_host_; }
  int host_of(int osd) const { return osd / drives_per_host_; }
  // Members of the PG on hosts that are in (primary first); fewer than width when too few
  // failure domains are in.
  std::span<const int> members(int pg) const {
    return {acting_.data() + static_cast<std::size_t>(pg) * width_, static_cast<std::size_t>(sizes_[pg])};
  }
  bool host_in(int host) const { return in_[static_cast<std::size_t>(host)] != 0; }
  bool host_up(int host) const { return up_[static_cast<std::size_t>(host)] != 0; }
  bool osd_in(int osd) const { return osd_in_[static_cast<std::size_t>(osd)] != 0; }
  bool osd_up(int osd) const { return osd_up_[static_cast<std::size_t>(osd)] != 0; }
  // A member can serve: its host and the OSD itself are up.
  bool member_up(int osd) const { return host_up(host_of(osd)) && osd_up(osd); }
  // Marks a host (an OSD) in or out and recomputes the placement.
  void set_host_in(int host, bool in);
  void set_osd_in(int osd, bool in);
  void set_host_up(int host, bool up) { up_[static_cast<std::size_t>(host)] = up ? 1 : 0; }
  void set_osd_up(int osd, bool up) { osd_up_[static_cast<std::size_t>(osd)] = up ? 1 : 0; }
  // PG member slots on each OSD (placement balance). O(PGs x width) after a host or OSD went in
  // or out, O(1) otherwise: every write asks it (the fullest OSD decides a refusal).
  const std::vector<int>& slots_per_osd() const;

 private:
  void place(int pg);
  // The host counts for placement: it is in and has an OSD in.
  bool host_usable(int host) const;
  double draw(int pg, int kind, int item, double weight) const;

  int hosts_;
  int drives_per_host_;
  int hosts_per_rack_;
  FailureDomain domain_;
  int width_;
  int pg_count_;
  std::uint64_t salt_;
  std::vector<std::uint8_t> in_;
  std::vector<std::uint8_t> up_;
  std::vector<std::uint8_t> osd_in_;
  std::vector<std::uint8_t> osd_up_;
  std::vector<int> acting_;  // pg-major, width_ slots each
  std::vector<int> sizes_;
  mutable std::vector<int> slots_;  // slots_per_osd's, counted again when empty
};

// The default PG count: ~100 PGs per OSD / width, rounded up to a power of two.
int default_pg_count(int osds, int width);

}  // namespace dcsim::models::storage
