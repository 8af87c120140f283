#include "models/network/clos.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {

std::vector<int> divisors(int n) {
  std::vector<int> out;
  for (int d = 1; d <= n; ++d)
    if (n % d == 0) out.push_back(d);
  return out;
}

std::string num(double x) {
  std::string s = std::to_string(x);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

int tier_radix(const TopologyConfig& c, int tier) {
  const int own = c.tier_radix[static_cast<std::size_t>(tier - 1)];
  return own > 0 ? own : c.tier_radix[0];
}

bool radix_bound(const TopologyConfig& c) { return c.tier_radix[0] > 0 || c.tier_radix[1] > 0 || c.tier_radix[2] > 0; }

int leaf_uplinks(const TopologyConfig& c, double down_bps) {
  if (!(c.oversubscription >= 1.0)) {
    throw sim::ConfigError("oversubscription", "must be >= 1 (1 = non-blocking), got " + num(c.oversubscription));
  }
  const double exact = down_bps / (c.oversubscription * c.link_bandwidth_bps);
  const double rounded = std::round(exact);
  if (rounded < 1 || std::abs(exact - rounded) > 1e-9 * exact) {
    throw sim::ConfigError("oversubscription", "a leaf's " + num(down_bps / 1e9) + " Gb/s of host ports over " +
                                                   num(c.oversubscription) + " needs " + num(exact) +
                                                   " uplinks: not a whole number of ports");
  }
  return static_cast<int>(rounded);
}

ClosPlan plan_clos(const TopologyConfig& c, int leaves, int leaf_up, int pod_unit, int requested_leaves_per_pod,
                   double hosts_per_leaf, const char* size_field) {
  const int r2 = tier_radix(c, 2);
  const int r3 = tier_radix(c, 3);
  const double o2 = c.spine_oversubscription;
  if (!(o2 >= 1.0)) {
    throw sim::ConfigError("spine_oversubscription", "must be >= 1 (1 = non-blocking), got " + num(o2));
  }
  if (c.spines < 0) throw sim::ConfigError("spines", "must be >= 0 (0: derived), got " + std::to_string(c.spines));
  if (c.spines > 0 && leaf_up % c.spines != 0) {
    throw sim::ConfigError("spines", std::to_string(c.spines) + " spines do not divide a leaf's " +
                                         std::to_string(leaf_up) + " uplinks; try a divisor of " +
                                         std::to_string(leaf_up));
  }
  ClosPlan p;
  p.leaves = leaves;
  p.leaf_up = leaf_up;
  const auto spine_choices = [&] { return c.spines > 0 ? std::vector<int>{c.spines} : divisors(leaf_up); };
  const bool one_pod_requested = requested_leaves_per_pod == 0 || requested_leaves_per_pod == leaves;
  if (one_pod_requested) {
    for (int s : spine_choices()) {
      if (static_cast<double>(leaves) * (leaf_up / s) <= r2) {
        p.tiers = 2;
        p.leaves_per_pod = leaves;
        p.pods = 1;
        p.spines_per_pod = s;
        p.leaf_spine_cables = leaf_up / s;
        return p;
      }
    }
    if (requested_leaves_per_pod == leaves) {
      throw sim::ConfigError("nodes_per_pod", "one pod of " + std::to_string(leaves) + " leaves needs spines of " +
                                                  std::to_string(leaves) + " ports; the spine has " +
                                                  std::to_string(r2) + ": use smaller pods or 0 (derived)");
    }
  }
  // Three tiers. Candidate pod sizes, largest first.
  std::vector<int> pod_sizes;
  if (requested_leaves_per_pod > 0) {
    pod_sizes.push_back(requested_leaves_per_pod);
  } else {
    // A spine has a port per leaf of its pod at least, and a core one per pod: pods between
    // leaves / core radix and the spine radix leaves.
    for (int q = std::min(leaves - 1, r2); q >= 1 && static_cast<double>(leaves) / q <= r3; --q)
      if (leaves % q == 0 && q % pod_unit == 0) pod_sizes.push_back(q);
  }
  std::optional<std::string> fractional;  // why an otherwise fitting pod was refused
  for (int pod : pod_sizes) {
    for (int s : spine_choices()) {
      const int d2 = pod * (leaf_up / s);
      const double u2_exact = d2 / o2;
      const double u2 = std::round(u2_exact);
      if (d2 + u2_exact > r2 + 1e-9) continue;
      if (u2 < 1 || std::abs(u2 - u2_exact) > 1e-9 * u2_exact) {
        if (!fractional) {
          fractional = "a pod spine's " + std::to_string(d2) + " downlinks over " + num(o2) + " need " +
                       num(u2_exact) + " uplinks: not a whole number of ports; an oversubscription that divides " +
                       std::to_string(d2) + " would";
        }
        continue;
      }
      const int pods = leaves / pod;
      const int spine_up = static_cast<int>(u2);
      for (int cores : divisors(spine_up)) {
        if (static_cast<double>(pods) * (spine_up / cores) <= r3) {
          p.tiers = 3;
          p.leaves_per_pod = pod;
          p.pods = pods;
          p.spines_per_pod = s;
          p.leaf_spine_cables = leaf_up / s;
          p.spine_up = spine_up;
          p.cores_per_plane = cores;
          p.spine_core_cables = spine_up / cores;
          return p;
        }
      }
    }
  }
  if (fractional) throw sim::ConfigError("spine_oversubscription", *fractional);
  // What three tiers of these switches hold at most: the largest pod a spine can take (one cable
  // per leaf, d2 + d2/o2 <= r2) times one pod per core port.
  const int max_pod = static_cast<int>(std::floor(r2 * o2 / (o2 + 1.0) + 1e-9));
  const double max_hosts = static_cast<double>(max_pod) * r3 * hosts_per_leaf;
  if (requested_leaves_per_pod > 0) {
    throw sim::ConfigError("nodes_per_pod", "pods of " + std::to_string(requested_leaves_per_pod) +
                                                " leaves (" + std::to_string(leaf_up) + " uplinks each) do not fit " +
                                                std::to_string(r2) + "-port spines and " + std::to_string(r3) +
                                                "-port cores at spine oversubscription " + num(o2) +
                                                "; at most " + std::to_string(max_pod) + " leaves per pod would");
  }
  throw sim::ConfigError(size_field, std::to_string(leaves) + " leaves (" + num(leaves * hosts_per_leaf) +
                                       " hosts) need a fourth tier: three tiers of " + std::to_string(r2) + "-port spines and " +
                                       std::to_string(r3) + "-port cores at spine oversubscription " + num(o2) +
                                       " hold at most " + std::to_string(r3) + " pods of " + std::to_string(max_pod) +
                                       " leaves (" + num(max_hosts) +
                                       " hosts); choose a switch of higher radix, fewer hosts or more spine oversubscription");
}

void wire_clos(Topology& t, const std::vector<NodeId>& leaves, const ClosPlan& p, const TopologyConfig& c) {
  const int r2 = tier_radix(c, 2);
  const int r3 = tier_radix(c, 3);
  std::vector<NodeId> spine, core;
  spine.reserve(static_cast<std::size_t>(p.spines()));
  for (int s = 0; s < p.spines(); ++s) spine.push_back(t.add_switch(2, r2, c.tier_model[1]));
  for (int x = 0; x < p.cores(); ++x) core.push_back(t.add_switch(3, r3, c.tier_model[2]));
  for (int l = 0; l < p.leaves; ++l) {
    const int pod = l / p.leaves_per_pod;
    for (int s = 0; s < p.spines_per_pod; ++s)
      t.connect(leaves[static_cast<std::size_t>(l)], spine[static_cast<std::size_t>(pod * p.spines_per_pod + s)],
                c.link_bandwidth_bps, c.switch_cable_m, 1, p.leaf_spine_cables, true, c.switch_latency_ns,
                c.link_latency_ns);
  }
  if (p.tiers < 3) return;
  const double core_m = c.core_cable_m > 0 ? c.core_cable_m : c.switch_cable_m;
  for (int pod = 0; pod < p.pods; ++pod)
    for (int s = 0; s < p.spines_per_pod; ++s)
      for (int x = 0; x < p.cores_per_plane; ++x)
        t.connect(spine[static_cast<std::size_t>(pod * p.spines_per_pod + s)],
                  core[static_cast<std::size_t>(s * p.cores_per_plane + x)], c.link_bandwidth_bps, core_m, 2,
                  p.spine_core_cables, true, c.switch_latency_ns, c.link_latency_ns);
}

}  // namespace dcsim::models::network
