// ObjectStore's aggregate resolution (object_store.hpp, store_config.hpp): an operation as one
// local flow per OSD host of exactly its drives' bytes, under capacities for the clients' NICs
// together and, per pool, each OSD host's NIC and each OSD hosts' leaf's uplinks.

#include <vector>

#include "models/storage/object_store.hpp"

namespace dcsim::models::storage {

bool ObjectStore::aggregates(std::size_t clients) const {
  switch (config_.resolution) {
    case StoreResolution::kFlows: return false;
    case StoreResolution::kAggregate: return true;
    case StoreResolution::kAuto: {
      const double hosts = static_cast<double>(hosts_.size());
      return static_cast<double>(clients) * hosts + hosts * hosts >= config_.aggregate_from_flows;
    }
  }
  return false;
}

void ObjectStore::take_clients_resource(Op& op, const std::vector<ClientShare>& clients, double bytes_per_client_byte) {
  // O(clients) once per operation; the capacity is reused by later operations (at most as many
  // as ever ran at once exist).
  double nics_bps = 0.0;
  for (const ClientShare& c : clients) nics_bps += net_.host_bandwidth_bps(c.host);
  const double capacity_bps = nics_bps * bytes_per_client_byte;
  if (spare_clients_.empty()) {
    op.clients = net_.add_resource(capacity_bps);
  } else {
    op.clients = spare_clients_.back();
    spare_clients_.pop_back();
    net_.set_resource_capacity(op.clients, capacity_bps);
  }
}

void ObjectStore::plan_aggregate_write(Op& op, double total) {
  // O(hosts^2) over the pool's shares, hosts flows.
  Pool& pool = pools_[static_cast<std::size_t>(op.pool)];
  if (!pool.aggregate_write) pool.aggregate_write = net_.add_resource(kUnboundedBps);
  const std::size_t n = hosts_.size();
  const double member = pool.config.member_fraction();
  const bool replicated = pool.config.ec_k == 0;
  std::vector<double> drive_share(n, 0.0), nic_share(n, 0.0), external_share(n, 0.0);
  for (std::size_t h = 0; h < n; ++h) {
    // As primary: the client's bytes on its drive (replicated) or its own chunk (EC), all of
    // them through its NIC (and its leaf: clients are elsewhere); as a member, the copies or
    // chunks forwarded to it.
    drive_share[h] = replicated ? pool.primary[h] : pool.primary[h] * member;
    nic_share[h] = external_share[h] = pool.primary[h];
    for (std::size_t p = 0; p < n; ++p) {
      const double forwarded = pool.pair[p * n + h] * member;
      drive_share[h] += forwarded;
      if (p == h) continue;
      nic_share[h] += forwarded;
      if (!same_edge(p, h)) external_share[h] += forwarded;
      counters_.back_bytes += total * forwarded;
    }
  }
  set_aggregate_nics(pool.aggregate_nic_in, drive_share, nic_share);
  set_aggregate_edges(pool.aggregate_edge_in, drive_share, external_share);
  for (std::size_t h = 0; h < n; ++h) {
    start_piece(&op, Piece::kAggregateWrite, static_cast<int>(h), static_cast<int>(h), 0, total * drive_share[h]);
  }
}

void ObjectStore::set_aggregate_edges(std::vector<network::ResourceId>& edges, const std::vector<double>& piece_share,
                                      const std::vector<double>& external_share) {
  // O(hosts) sums, O(leaves) capacity updates per operation. A leaf's pieces together carry
  // sum(piece) per sum(external) byte over its uplinks.
  std::vector<double> pieces(edge_uplink_bps_.size(), 0.0), external(edge_uplink_bps_.size(), 0.0);
  for (std::size_t h = 0; h < hosts_.size(); ++h) {
    pieces[static_cast<std::size_t>(edge_of_[h])] += piece_share[h];
    external[static_cast<std::size_t>(edge_of_[h])] += external_share[h];
  }
  for (std::size_t e = 0; e < edge_uplink_bps_.size(); ++e) {
    const double ratio = external[e] > 0 ? pieces[e] / external[e] : 1.0;
    // A single-switch network has no uplinks: nothing beyond the NICs to share.
    const double capacity_bps = edge_uplink_bps_[e] > 0 ? edge_uplink_bps_[e] * ratio : kUnboundedBps;
    if (edges.size() <= e) {
      edges.push_back(net_.add_resource(capacity_bps));
    } else if (net_.resource_capacity_bps(edges[e]) != capacity_bps) {
      net_.set_resource_capacity(edges[e], capacity_bps);
    }
  }
}

void ObjectStore::set_aggregate_nics(std::vector<network::ResourceId>& nics, const std::vector<double>& piece_share,
                                     const std::vector<double>& nic_share) {
  // O(hosts) capacity updates per operation.
  const std::size_t n = hosts_.size();
  for (std::size_t h = 0; h < n; ++h) {
    const double ratio = nic_share[h] > 0 ? piece_share[h] / nic_share[h] : 1.0;
    const double capacity_bps = net_.host_bandwidth_bps(config_.hosts[h]) * ratio;
    if (nics.size() <= h) {
      nics.push_back(net_.add_resource(capacity_bps));
    } else if (net_.resource_capacity_bps(nics[h]) != capacity_bps) {
      net_.set_resource_capacity(nics[h], capacity_bps);
    }
  }
}

void ObjectStore::plan_aggregate_read(Op& op, double total) {
  // O(hosts^2) over the pool's shares, hosts flows.
  Pool& pool = pools_[static_cast<std::size_t>(op.pool)];
  if (pool.unavailable > 0.0) {
    op.ok = false;
    return;
  }
  const std::size_t n = hosts_.size();
  // Host h's NIC (and leaf) sends its primary share to the clients and, EC, the chunks it
  // gives others (its leaf, those it gives other leaves).
  std::vector<double> nic_share = pool.primary, external_share = pool.primary;
  if (pool.config.ec_k > 0) {
    const double member = pool.config.member_fraction();
    for (std::size_t s = 0; s < n; ++s) {
      for (std::size_t p = 0; p < n; ++p) {
        if (s == p) continue;
        const double gathered = pool.shard[s * n + p] * member;
        counters_.back_bytes += total * gathered;
        nic_share[s] += gathered;
        if (!same_edge(s, p)) external_share[s] += gathered;
      }
    }
  }
  const std::vector<double> shares = read_shares(op.pool);
  set_aggregate_nics(pool.aggregate_nic_out, shares, nic_share);
  set_aggregate_edges(pool.aggregate_edge_out, shares, external_share);
  for (std::size_t h = 0; h < n; ++h) {
    start_piece(&op, Piece::kAggregateRead, static_cast<int>(h), static_cast<int>(h), 0, total * shares[h]);
  }
}

}  // namespace dcsim::models::storage
