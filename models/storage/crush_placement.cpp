#include "models/storage/crush_placement.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/error.hpp"

namespace dcsim::models::storage {

namespace {

std::uint64_t mix(std::uint64_t x) {  // SplitMix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

int default_pg_count(int osds, int width) {
  const double want = 100.0 * osds / std::max(1, width);
  int pgs = 1;
  while (pgs < want && pgs < (1 << 20)) pgs *= 2;
  return pgs;
}

CrushPlacement::CrushPlacement(int hosts, int drives_per_host, int hosts_per_rack, const PoolConfig& pool,
                               int pool_index, std::uint64_t seed)
    : hosts_(hosts),
      drives_per_host_(drives_per_host),
      hosts_per_rack_(std::max(1, hosts_per_rack)),
      domain_(pool.failure_domain),
      width_(pool.width()),
      pg_count_(pool.pg_count > 0 ? pool.pg_count : default_pg_count(hosts * drives_per_host, pool.width())),
      salt_(mix(seed ^ mix(static_cast<std::uint64_t>(pool_index) + 0x5bd1e995ULL))),
      in_(static_cast<std::size_t>(std::max(0, hosts)), 1),
      up_(static_cast<std::size_t>(std::max(0, hosts)), 1),
      osd_in_(static_cast<std::size_t>(std::max(0, hosts * drives_per_host)), 1),
      osd_up_(static_cast<std::size_t>(std::max(0, hosts * drives_per_host)), 1) {
  if (hosts <= 0 || drives_per_host <= 0) throw sim::ConfigError("hosts", "a store needs hosts with drives");
  const int domains = domain_ == FailureDomain::kOsd    ? hosts * drives_per_host
                      : domain_ == FailureDomain::kHost ? hosts
                                                        : (hosts + hosts_per_rack_ - 1) / hosts_per_rack_;
  if (width_ < 1 || width_ > domains) {
    const char* what = domain_ == FailureDomain::kOsd ? "OSDs" : domain_ == FailureDomain::kHost ? "hosts" : "racks";
    throw sim::ConfigError(pool.ec_k > 0 ? "ec" : "size",
                           "pool '" + pool.name + "' needs " + std::to_string(width_) + " " + what +
                               " (one per member of a placement group) but the store has " + std::to_string(domains));
  }
  acting_.assign(static_cast<std::size_t>(pg_count_) * width_, -1);
  sizes_.assign(static_cast<std::size_t>(pg_count_), 0);
  for (int pg = 0; pg < pg_count_; ++pg) place(pg);
}

double CrushPlacement::draw(int pg, int kind, int item, double weight) const {
  const std::uint64_t h = mix(salt_ ^ mix((static_cast<std::uint64_t>(pg) << 34) ^
                                          (static_cast<std::uint64_t>(kind) << 32) ^ static_cast<std::uint32_t>(item)));
  const double u = (static_cast<double>(h >> 11) + 1.0) / 9007199254740992.0;  // (0, 1]
  return std::log(u) / weight;
}

bool CrushPlacement::host_usable(int host) const {
  if (!host_in(host)) return false;
  for (int k = 0; k < drives_per_host_; ++k) {
    if (osd_in(host * drives_per_host_ + k)) return true;
  }
  return false;
}

void CrushPlacement::place(int pg) {
  // Candidates: the failure domains with at least one host in, weighted by their OSDs.
  struct Candidate {
    double draw;
    int item;
  };
  std::vector<Candidate> cands;
  if (domain_ == FailureDomain::kOsd) {
    for (int osd = 0; osd < osd_count(); ++osd) {
      if (host_in(host_of(osd)) && osd_in(osd)) cands.push_back({draw(pg, 0, osd, 1.0), osd});
    }
  } else if (domain_ == FailureDomain::kHost) {
    for (int h = 0; h < hosts_; ++h) {
      if (host_usable(h)) cands.push_back({draw(pg, 1, h, drives_per_host_), h});
    }
  } else {
    for (int r = 0; r * hosts_per_rack_ < hosts_; ++r) {
      int weight = 0;
      for (int h = r * hosts_per_rack_; h < std::min(hosts_, (r + 1) * hosts_per_rack_); ++h) {
        weight += host_usable(h) ? drives_per_host_ : 0;
      }
      if (weight > 0) cands.push_back({draw(pg, 2, r, weight), r});
    }
  }
  const auto n = std::min<std::size_t>(cands.size(), static_cast<std::size_t>(width_));
  std::partial_sort(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(n), cands.end(),
                    [](const Candidate& a, const Candidate& b) { return a.draw > b.draw || (a.draw == b.draw && a.item < b.item); });
  int* out = acting_.data() + static_cast<std::size_t>(pg) * width_;
  for (std::size_t i = 0; i < n; ++i) {
    int host = cands[i].item;
    if (domain_ == FailureDomain::kOsd) {
      out[i] = cands[i].item;
      continue;
    }
    if (domain_ == FailureDomain::kRack) {
      double best = -INFINITY;
      for (int h = cands[i].item * hosts_per_rack_; h < std::min(hosts_, (cands[i].item + 1) * hosts_per_rack_); ++h) {
        if (!host_usable(h)) continue;
        const double d = draw(pg, 1, h, drives_per_host_);
        if (d > best) best = d, host = h;
      }
    }
    double best = -INFINITY;
    int osd = host * drives_per_host_;
    for (int k = 0; k < drives_per_host_; ++k) {
      if (!osd_in(host * drives_per_host_ + k)) continue;  // the local retry past an out OSD
      const double d = draw(pg, 0, host * drives_per_host_ + k, 1.0);
      if (d > best) best = d, osd = host * drives_per_host_ + k;
    }
    out[i] = osd;
  }
  sizes_[static_cast<std::size_t>(pg)] = static_cast<int>(n);
}

void CrushPlacement::set_host_in(int host, bool in) {
  slots_.clear();
  if (host_in(host) == in) return;
  in_[static_cast<std::size_t>(host)] = in ? 1 : 0;
  for (int pg = 0; pg < pg_count_; ++pg) place(pg);
}

void CrushPlacement::set_osd_in(int osd, bool in) {
  slots_.clear();
  if (osd_in(osd) == in) return;
  osd_in_[static_cast<std::size_t>(osd)] = in ? 1 : 0;
  for (int pg = 0; pg < pg_count_; ++pg) place(pg);
}

const std::vector<int>& CrushPlacement::slots_per_osd() const {
  if (slots_.empty()) {
    slots_.assign(static_cast<std::size_t>(osd_count()), 0);
    for (int pg = 0; pg < pg_count_; ++pg) {
      for (int osd : members(pg)) ++slots_[static_cast<std::size_t>(osd)];
    }
  }
  return slots_;
}

}  // namespace dcsim::models::storage
