#include "models/storage/object_store.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::storage {

ObjectStore::ObjectStore(sim::Simulator& sim, seams::FlowNetwork& network, StoreConfig config)
    : sim_(sim), net_(network), config_(std::move(config)) {
  const auto n = static_cast<int>(config_.hosts.size());
  if (n == 0) throw sim::ConfigError("hosts", "a store needs at least one OSD host");
  // Single-key ranges (drives, drive speeds and size, io_size, full_ratio) are the scenario
  // format's (tools/scenario/storage_spec.cpp); here only what spans keys.
  if (config_.pools.empty()) throw sim::ConfigError("pools", "a store needs a pool");
  for (std::size_t i = 0; i < config_.pools.size(); ++i) {
    const PoolConfig& pc = config_.pools[i];
    if (pc.ec_k < 0 || pc.ec_m < 0 || (pc.ec_k == 0 && pc.size < 1) || (pc.ec_k > 0 && pc.ec_m < 1)) {
      throw sim::ConfigError("pools[" + std::to_string(i) + "]", "replication size >= 1, or EC k >= 1 and m >= 1");
    }
    Pool pool;
    pool.config = pc;
    pool.placement = std::make_unique<CrushPlacement>(n, config_.drives_per_host, config_.hosts_per_rack, pc,
                                                      static_cast<int>(i), config_.seed);
    pool.client_write = net_.add_resource(kUnboundedBps);
    pool.client_read = net_.add_resource(kUnboundedBps);
    pools_.push_back(std::move(pool));
  }
  hosts_.resize(static_cast<std::size_t>(n));
  std::map<network::NodeId, int> edges;
  for (const std::uint32_t host : config_.hosts) {
    const seams::FlowNetwork::EdgeSwitch edge = net_.edge_switch(host);
    const auto [it, added] = edges.emplace(edge.node, static_cast<int>(edge_uplink_bps_.size()));
    if (added) edge_uplink_bps_.push_back(edge.uplink_bps);
    edge_of_.push_back(it->second);
  }
  for (Host& h : hosts_) {
    h.read = net_.add_resource(1.0);  // capacities set from the placement's balance below
    h.write = net_.add_resource(1.0);
  }
  if (config_.recovery_bytes_per_s > 0) {
    recovery_throttle_ = net_.add_resource(config_.recovery_bytes_per_s * 8.0);
    has_throttle_ = true;
  }
  out_events_.resize(static_cast<std::size_t>(n));
  osd_out_events_.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(config_.drives_per_host));
  for (Pool& p : pools_) refresh_shares(p);
  refresh_drive_capacity();
}

ObjectStore::~ObjectStore() {
  for (sim::EventHandle& e : out_events_) sim_.cancel(e);
  for (sim::EventHandle& e : osd_out_events_) sim_.cancel(e);
}

int ObjectStore::pool_index(const std::string& name) const {
  for (std::size_t i = 0; i < pools_.size(); ++i) {
    if (pools_[i].config.name == name) return static_cast<int>(i);
  }
  return -1;
}

void ObjectStore::refresh_shares(Pool& pool) {
  const std::size_t n = hosts_.size();
  const CrushPlacement& pl = *pool.placement;
  const double w = 1.0 / pl.pg_count();
  const int k = pool.config.ec_k;
  pool.primary.assign(n, 0.0);
  pool.pair.assign(n * n, 0.0);
  pool.shard.assign(k > 0 ? n * n : 0, 0.0);
  pool.unavailable = 0.0;
  std::vector<std::size_t> up;
  for (int pg = 0; pg < pl.pg_count(); ++pg) {
    up.clear();
    for (int osd : pl.members(pg)) {
      if (pl.member_up(osd)) up.push_back(static_cast<std::size_t>(pl.host_of(osd)));
    }
    if (up.empty() || (k > 0 && up.size() < static_cast<std::size_t>(k))) {
      pool.unavailable += w;
      continue;
    }
    const std::size_t p = up[0];
    pool.primary[p] += w;
    for (std::size_t j = 1; j < up.size(); ++j) pool.pair[p * n + up[j]] += w;
    for (std::size_t j = 0; k > 0 && j < static_cast<std::size_t>(k); ++j) pool.shard[up[j] * n + p] += w;
  }
}

void ObjectStore::refresh_drive_capacity() {
  std::vector<int> slots(static_cast<std::size_t>(hosts_.size()) * config_.drives_per_host, 0);
  for (const Pool& p : pools_) {
    const std::vector<int>& s = p.placement->slots_per_osd();
    for (std::size_t i = 0; i < s.size(); ++i) slots[i] += s[i];
  }
  const DriveSpec& d = config_.drive;
  const double read = std::min(d.read_bytes_per_s, d.read_iops * config_.io_bytes);
  const double write = std::min(d.write_bytes_per_s, d.write_iops * config_.io_bytes);
  const CrushPlacement& pl = *pools_.front().placement;
  for (std::size_t h = 0; h < hosts_.size(); ++h) {
    int most = 0, drives = 0;
    long sum = 0;
    for (int k = 0; k < config_.drives_per_host; ++k) {
      const std::size_t osd = h * static_cast<std::size_t>(config_.drives_per_host) + static_cast<std::size_t>(k);
      if (!pl.osd_up(static_cast<int>(osd))) continue;  // a failed drive serves nothing
      most = std::max(most, slots[osd]);
      sum += slots[osd];
      ++drives;
    }
    // The host's bytes spread over its drives as their PG slots do: the fullest sets the pace.
    // A host with every drive down keeps a nominal rate: no member on it serves, no flow crosses.
    if (drives == 0) drives = config_.drives_per_host;
    const double balance = most > 0 ? static_cast<double>(sum) / drives / most : 1.0;
    net_.set_resource_capacity(hosts_[h].read, drives * read * balance * 8.0);
    net_.set_resource_capacity(hosts_[h].write, drives * write * balance * 8.0);
  }
}

double ObjectStore::write_bound_s(int pool, double bytes) const {
  const DriveSpec& d = config_.drive;
  const double drive_rate = std::min(d.write_bytes_per_s, d.write_iops * config_.io_bytes);
  const double drives = static_cast<double>(config_.hosts.size()) * config_.drives_per_host;
  return bytes * config_.pools[static_cast<std::size_t>(pool)].amplification() / (drives * drive_rate);
}

double ObjectStore::osd_bytes(int pool, int osd) const {
  const Pool& p = pools_[static_cast<std::size_t>(pool)];
  const std::vector<int>& slots = p.placement->slots_per_osd();
  return p.stored_bytes * p.config.member_fraction() * slots[static_cast<std::size_t>(osd)] / p.placement->pg_count();
}

std::vector<double> ObjectStore::read_shares(int pool_id) const {
  const Pool& pool = pools_.at(static_cast<std::size_t>(pool_id));
  const int k = pool.config.ec_k;
  if (k == 0) return pool.primary;
  const std::size_t n = hosts_.size();
  std::vector<double> share(n, 0.0);
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t p = 0; p < n; ++p) share[s] += pool.shard[s * n + p] / k;
  }
  return share;
}

void ObjectStore::write(int pool_id, std::vector<ClientShare> clients, OnDone on_done) {
  Pool& pool = pools_.at(static_cast<std::size_t>(pool_id));
  double total = 0.0;
  for (const ClientShare& c : clients) total += c.bytes;
  const std::vector<int>& slots = pool.placement->slots_per_osd();
  const int most = slots.empty() ? 0 : *std::max_element(slots.begin(), slots.end());
  const double fullest = (pool.stored_bytes + total) * pool.config.member_fraction() * most / pool.placement->pg_count();
  if (fullest > config_.full_ratio * config_.drive.capacity_bytes || pool.unavailable > 0.0) {
    if (pool.unavailable > 0.0) {
      ++counters_.ops_failed;
    } else {
      ++counters_.writes_refused;
    }
    sim_.at(sim_.now(), [cb = std::move(on_done)] { cb(false); });
    return;
  }
  auto op = std::make_unique<Op>();
  op->pool = pool_id;
  op->latency = sim::Time::from_seconds(config_.drive.write_latency_s);
  op->aggregate = aggregates(clients.size());
  op->on_done = [this, pool_id, total, cb = std::move(on_done)](bool ok) {
    if (ok) pools_[static_cast<std::size_t>(pool_id)].stored_bytes += total;
    cb(ok);
  };
  Op& ref = *op;
  ops_.push_back(std::move(op));
  note_op_started();
  ++ref.pending;  // held while planning, so a piece finishing at once cannot end the op
  plan_write(ref, clients);
  --ref.pending;
  if (ref.pending == 0) finish_op(&ref);
}

void ObjectStore::read(int pool_id, std::vector<ClientShare> clients, OnDone on_done) {
  Pool& pool = pools_.at(static_cast<std::size_t>(pool_id));
  if (pool.unavailable > 0.0) {
    ++counters_.ops_failed;
    sim_.at(sim_.now(), [cb = std::move(on_done)] { cb(false); });
    return;
  }
  auto op = std::make_unique<Op>();
  op->pool = pool_id;
  op->latency = sim::Time::from_seconds(config_.drive.read_latency_s);
  op->aggregate = aggregates(clients.size());
  op->on_done = std::move(on_done);
  Op& ref = *op;
  ops_.push_back(std::move(op));
  note_op_started();
  ++ref.pending;
  plan_read(ref, clients);
  --ref.pending;
  if (ref.pending == 0) finish_op(&ref);
}

void ObjectStore::hold(int pool, double bytes) {
  pools_.at(static_cast<std::size_t>(pool)).stored_bytes += std::max(0.0, bytes);
}

double ObjectStore::client_capacity_bytes(int pool_id) const {
  const Pool& pool = pools_.at(static_cast<std::size_t>(pool_id));
  const std::vector<int>& slots = pool.placement->slots_per_osd();
  const int most = slots.empty() ? 0 : *std::max_element(slots.begin(), slots.end());
  if (most == 0) return 0.0;
  return config_.full_ratio * config_.drive.capacity_bytes * pool.placement->pg_count() /
         (pool.config.member_fraction() * most);
}

void ObjectStore::remove(int pool, double bytes) {
  Pool& p = pools_.at(static_cast<std::size_t>(pool));
  p.stored_bytes = std::max(0.0, p.stored_bytes - bytes);
}

void ObjectStore::plan_write(Op& op, const std::vector<ClientShare>& clients) {
  const Pool& pool = pools_[static_cast<std::size_t>(op.pool)];
  if (pool.unavailable > 0.0) {
    op.ok = false;
    return;
  }
  const std::size_t n = hosts_.size();
  double total = 0.0;
  if (op.aggregate) {
    for (const ClientShare& c : clients) total += c.bytes;
    counters_.client_bytes_written += total;
    take_clients_resource(op, clients, pool.config.amplification());
    plan_aggregate_write(op, total);
    return;
  }
  for (const ClientShare& c : clients) {
    total += c.bytes;
    counters_.client_bytes_written += c.bytes;
    for (std::size_t h = 0; h < n; ++h) {
      if (pool.primary[h] > 0) start_piece(&op, Piece::kClientWrite, -1, static_cast<int>(h), c.host, c.bytes * pool.primary[h]);
    }
  }
  const double member = pool.config.member_fraction();
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t m = 0; m < n; ++m) {
      const double share = pool.pair[p * n + m];
      if (share > 0) start_piece(&op, Piece::kForward, static_cast<int>(p), static_cast<int>(m), 0, total * share * member);
    }
    if (pool.config.ec_k > 0 && pool.primary[p] > 0) {
      start_piece(&op, Piece::kLocalChunk, static_cast<int>(p), static_cast<int>(p), 0, total * pool.primary[p] * member);
    }
  }
}

void ObjectStore::plan_read(Op& op, const std::vector<ClientShare>& clients) {
  const Pool& pool = pools_[static_cast<std::size_t>(op.pool)];
  if (pool.unavailable > 0.0) {
    op.ok = false;
    return;
  }
  const std::size_t n = hosts_.size();
  double total = 0.0;
  if (op.aggregate) {
    for (const ClientShare& c : clients) total += c.bytes;
    counters_.client_bytes_read += total;
    take_clients_resource(op, clients, 1.0);
    plan_aggregate_read(op, total);
    return;
  }
  for (const ClientShare& c : clients) {
    total += c.bytes;
    counters_.client_bytes_read += c.bytes;
    for (std::size_t h = 0; h < n; ++h) {
      if (pool.primary[h] > 0) start_piece(&op, Piece::kReadToClient, static_cast<int>(h), -1, c.host, c.bytes * pool.primary[h]);
    }
  }
  if (pool.config.ec_k == 0) return;
  const double member = pool.config.member_fraction();
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t p = 0; p < n; ++p) {
      const double share = pool.shard[s * n + p];
      if (share > 0) start_piece(&op, Piece::kShard, static_cast<int>(s), static_cast<int>(p), 0, total * share * member);
    }
  }
}

void ObjectStore::plan_row(Op& op, Piece piece, int p, double bytes) {
  // What host p forwards (or gathers) goes where its current PGs put it.
  const Pool& pool = pools_[static_cast<std::size_t>(op.pool)];
  const std::size_t n = hosts_.size();
  double sum = 0.0;
  for (std::size_t o = 0; o < n; ++o) {
    sum += piece == Piece::kForward ? pool.pair[static_cast<std::size_t>(p) * n + o] : pool.shard[o * n + static_cast<std::size_t>(p)];
  }
  if (!(sum > 0)) return;  // nothing of it is p's any more: the client's re-issue carries it
  for (std::size_t o = 0; o < n; ++o) {
    const double share = piece == Piece::kForward ? pool.pair[static_cast<std::size_t>(p) * n + o]
                                                  : pool.shard[o * n + static_cast<std::size_t>(p)];
    if (share <= 0) continue;
    if (piece == Piece::kForward) {
      start_piece(&op, piece, p, static_cast<int>(o), 0, bytes * share / sum);
    } else {
      start_piece(&op, piece, static_cast<int>(o), p, 0, bytes * share / sum);
    }
  }
}

void ObjectStore::start_piece(Op* op, Piece piece, int src_host, int dst_host, network::NodeId client, double bytes) {
  if (!(bytes > 0)) return;
  const bool replicated = pools_[static_cast<std::size_t>(op->pool)].config.ec_k == 0;
  network::NodeId src = client;
  network::NodeId dst = client;
  std::vector<network::ResourceId> res;
  const auto host = [&](int h) { return config_.hosts[static_cast<std::size_t>(h)]; };
  const auto& hs = [&](int h) -> const Host& { return hosts_[static_cast<std::size_t>(h)]; };
  switch (piece) {
    case Piece::kClientWrite:
      dst = host(dst_host);
      if (replicated) res.push_back(hs(dst_host).write);
      res.push_back(pools_[static_cast<std::size_t>(op->pool)].client_write);
      break;
    case Piece::kForward:
    case Piece::kLocalChunk:
      src = host(src_host);
      dst = host(dst_host);
      res.push_back(hs(dst_host).write);
      if (piece == Piece::kForward && src_host != dst_host) counters_.back_bytes += bytes;
      break;
    case Piece::kReadToClient:
      src = host(src_host);
      if (replicated) res.push_back(hs(src_host).read);
      res.push_back(pools_[static_cast<std::size_t>(op->pool)].client_read);
      break;
    case Piece::kShard:
      src = host(src_host);
      dst = host(dst_host);
      res.push_back(hs(src_host).read);
      if (src_host != dst_host) counters_.back_bytes += bytes;
      break;
    case Piece::kRecovery:
      src = host(src_host);
      dst = host(dst_host);
      res.push_back(hs(src_host).read);
      res.push_back(hs(dst_host).write);
      if (has_throttle_) res.push_back(recovery_throttle_);
      ++recovery_flows_;
      break;
    case Piece::kAggregateWrite:
    case Piece::kAggregateRead: {
      // Local to its OSD host (header): its drives, its NIC and its leaf as the pool's aggregate
      // pieces share them, the op's clients, and the pool's counter.
      const bool write = piece == Piece::kAggregateWrite;
      const Pool& pool = pools_[static_cast<std::size_t>(op->pool)];
      const auto h = static_cast<std::size_t>(src_host);
      const auto edge = static_cast<std::size_t>(edge_of_[h]);
      src = dst = host(src_host);
      res = {write ? hs(src_host).write : hs(src_host).read,
             (write ? pool.aggregate_nic_in : pool.aggregate_nic_out)[h],
             (write ? pool.aggregate_edge_in : pool.aggregate_edge_out)[edge], op->clients,
             write ? *pool.aggregate_write : pool.client_read};
      break;
    }
  }
  ++op->pending;
  net_.start_flow(
      src, dst, bytes,
      [this, op, piece, src_host, dst_host, client](const network::FinishedFlow& f) {
        piece_done(op, piece, src_host, dst_host, client, f);
      },
      -1, res);
}

void ObjectStore::piece_done(Op* op, Piece piece, int src_host, int dst_host, network::NodeId client,
                             const network::FinishedFlow& f) {
  if (piece == Piece::kRecovery) --recovery_flows_;
  if (f.failed) {
    // Re-issue what was left on the members still up (degraded), where the piece's source or
    // driver survives; a piece whose own host died is carried by its client's re-issue.
    const double left = std::max(0.0, f.bytes - f.delivered_bytes);
    const CrushPlacement& pl = *pools_[static_cast<std::size_t>(op->pool)].placement;
    switch (piece) {
      case Piece::kClientWrite:
        counters_.client_bytes_written -= left;  // counted again by the re-issue
        plan_write(*op, {{client, left}});
        break;
      case Piece::kReadToClient:
        counters_.client_bytes_read -= left;
        plan_read(*op, {{client, left}});
        break;
      case Piece::kForward:
        if (pl.host_up(src_host)) plan_row(*op, piece, src_host, left);  // shares count OSDs up
        break;
      case Piece::kShard:
        if (pl.host_up(dst_host)) plan_row(*op, piece, dst_host, left);
        break;
      case Piece::kAggregateRead:
        plan_aggregate_read(*op, left);  // from the members up now
        break;
      case Piece::kLocalChunk:
      case Piece::kRecovery:
      case Piece::kAggregateWrite:  // degraded: the host's copies are not written
        break;
    }
  }
  if (--op->pending == 0) finish_op(op);
  if (piece == Piece::kRecovery) note_degraded();
}

void ObjectStore::finish_op(Op* op) {
  const auto it = std::find_if(ops_.begin(), ops_.end(), [op](const auto& p) { return p.get() == op; });
  if (it == ops_.end()) return;
  std::unique_ptr<Op> owned = std::move(*it);
  ops_.erase(it);
  if (owned->aggregate) spare_clients_.push_back(owned->clients);
  if (!owned->ok) ++counters_.ops_failed;
  if (owned->on_done) {
    if (owned->ok && owned->latency > sim::Time::zero()) {
      sim_.at(sim_.now() + owned->latency, [cb = std::move(owned->on_done)] { cb(true); });
    } else {
      owned->on_done(owned->ok);
    }
  }
  if (ops_.empty() && busy_reported_) {  // on_done may have started the next op
    busy_reported_ = false;
    if (on_busy_) on_busy_(false);
  }
}

void ObjectStore::note_op_started() {
  if (busy_reported_) return;
  busy_reported_ = true;
  if (on_busy_) on_busy_(true);
}

void ObjectStore::relocate(const std::function<void(CrushPlacement&)>& change) {
  --down_in_;
  std::map<std::pair<int, int>, double> moves;  // (source host, destination host) -> bytes
  for (Pool& pool : pools_) {
    CrushPlacement& pl = *pool.placement;
    const int width = pl.width();
    std::vector<int> before(static_cast<std::size_t>(pl.pg_count()) * width, -1);
    for (int pg = 0; pg < pl.pg_count(); ++pg) {
      const auto m = pl.members(pg);
      std::copy(m.begin(), m.end(), before.begin() + static_cast<std::ptrdiff_t>(pg) * width);
    }
    change(pl);
    const double per_member = pool.stored_bytes / pl.pg_count() * pool.config.member_fraction();
    const int k = pool.config.ec_k;
    for (int pg = 0; pg < pl.pg_count() && per_member > 0; ++pg) {
      const auto old_begin = before.begin() + static_cast<std::ptrdiff_t>(pg) * width;
      std::vector<int> sources;
      for (auto it = old_begin; it != old_begin + width; ++it) {
        if (*it >= 0 && pl.member_up(*it)) sources.push_back(pl.host_of(*it));
      }
      for (int osd : pl.members(pg)) {
        if (std::find(old_begin, old_begin + width, osd) != old_begin + width) continue;
        const std::size_t needed = k > 0 ? static_cast<std::size_t>(k) : 1;
        if (sources.size() < needed) continue;  // nothing left to rebuild it from: lost
        counters_.recovery_bytes += per_member;
        for (std::size_t j = 0; j < needed; ++j) {
          moves[{sources[j], pl.host_of(osd)}] += per_member;
          counters_.recovery_read_bytes += per_member;
        }
      }
    }
    refresh_shares(pool);
  }
  refresh_drive_capacity();
  if (!moves.empty()) {
    auto op = std::make_unique<Op>();
    op->recovery = true;
    Op& ref = *op;
    ops_.push_back(std::move(op));
    note_op_started();
    ++ref.pending;
    for (const auto& [pair, bytes] : moves) start_piece(&ref, Piece::kRecovery, pair.first, pair.second, 0, bytes);
    --ref.pending;
    if (ref.pending == 0) finish_op(&ref);
  }
  note_degraded();
}

StoreCounters ObjectStore::counters() const {
  StoreCounters c = counters_;
  if (degraded_since_ != sim::Time::max()) c.degraded_s += (sim_.now() - degraded_since_).seconds();
  return c;
}

}  // namespace dcsim::models::storage
