#pragma once
// ObjectStore: a Ceph-like shared object store whose OSD hosts are hosts of a fabric, so its
// traffic shares links with everything else and saturates where the real one does: a drive, a
// NIC, the fabric, or the primary's forwarding.
//
// Devices. Each host's drives are two fabric resources (network/fabric.hpp), one for reads and
// one for writes, of capacity drives x min(bandwidth, iops x io_bytes) x balance, where balance =
// mean / max PG slots over the host's OSDs: the host's bytes spread over its drives as its PG
// slots do, so its most loaded drive sets the pace. Reads and writes do not contend on a drive
// (an approximation: NVMe drives interleave both, with some interference).
//
// Data path, per pool (store_config.hpp), as fluid aggregates: a client's bytes spread over the
// pool's PGs evenly (large writes stripe over many objects), so a client sends each host the
// share of PGs whose primary it is, and the flows are one per (client, primary host) and one per
// (primary host, member host) per operation, not one per object.
//   replicated write: client -> primary (crosses the primary's drives), primary -> each other
//                     member (its drives): size x the bytes on drives, (size - 1) x on back links
//   EC k+m write:     client -> primary; the primary writes its chunk (bytes / k, a local flow)
//                     and sends one chunk to each other member: (k + m) / k x on drives
//   replicated read:  primary -> client (its drives)
//   EC read:          the first k members' chunks: k - 1 to the primary plus its own, then
//                     primary -> client: a read touches k OSDs
// The pieces of one operation run concurrently (a streaming pipeline as a fluid: the slowest
// piece sets the end); the operation ends when the last piece has, plus the drive's latency for
// its kind (the last write's commit into the drive's buffer, a read's first access to NAND).
//
// Aggregate resolution (StoreConfig::resolution, store_config.hpp). An operation too large for
// flows (a site's checkpoint: clients x hosts of them) runs as one flow per OSD host, local to
// it (no links), of exactly the bytes its drives take: a write's host h takes total x (its
// primary share, times 1/k for EC, plus 1/k, or 1 replicated, times the PG members it holds as
// a non-primary), which sums over hosts to total x amplification; a read's host h gives total x
// read_shares()[h]. Every piece of the op also crosses one capacity of the clients' NICs
// together (sum of their hosts' bandwidth, scaled to the pieces' bytes per client byte), made
// for the op and reused after it. So the drives with their imbalance and the clients' NICs bind
// as at flow level, in hosts flows whatever the clients; left out: the fabric between clients
// and hosts, and fairness per client (concurrent operations share a drive per operation). Each
// OSD host's NIC binds as well, as a capacity per pool and host that the pool's aggregate pieces
// share (its bandwidth x the piece's bytes per byte the NIC carries: a write's host receives its
// primary share of the client bytes plus the chunks or copies forwarded to it; a read's sends
// its primary share to the clients plus, EC, the chunks it gives other primaries), apart from
// flow-level traffic on the same NIC; and so does each OSD hosts' leaf's uplink capacity, for
// what comes from outside it (the clients' bytes, chunks or copies from other leaves' members),
// likewise per pool. Beyond the leaves the fabric is left out. A failed write piece (its host down) is dropped,
// degraded, as a failed forward is; a failed read piece is read again from the members up.
//
// Faults. A host going down fails its flows now; the pieces re-issue what they had left on the
// members still up (degraded: fewer copies written, reads from the survivors or k other chunks).
// A single OSD (drive) going down takes its members out of the shares and its bandwidth out of
// its host's drives, and fails the flows crossing those drives, which re-issue likewise; marked
// out, exactly its PGs move (crush_placement.hpp) and are backfilled.
// After down_out_interval the host is marked out: placement moves exactly its PGs to other
// hosts (crush_placement.hpp), and backfill copies each moved member's bytes from a surviving
// member (EC: k chunks read per chunk rebuilt) through the drives and the fabric, sharing the
// optional recovery throttle. A write that would fill any OSD past full_ratio is refused.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/seams/flow_network.hpp"
#include "models/storage/crush_placement.hpp"
#include "models/storage/store_config.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::storage {

struct StoreCounters {
  double client_bytes_written = 0.0;
  double client_bytes_read = 0.0;
  double back_bytes = 0.0;        // primary -> member forwards and EC chunk gathers
  double recovery_bytes = 0.0;    // written to new members by backfill
  double recovery_read_bytes = 0.0;
  double degraded_s = 0.0;        // time with a host down or its backfill in progress
  int writes_refused = 0;         // a pool too full
  int ops_failed = 0;             // data unavailable (every member of some PG down)
  int host_failures = 0;
  int osd_failures = 0;           // single OSDs (drives) that went down
};

class ObjectStore {
 public:
  struct ClientShare {
    network::NodeId host;
    double bytes;
  };
  using OnDone = std::function<void(bool ok)>;

  // `network` must outlive the store; config.hosts are hosts of it.
  ObjectStore(sim::Simulator& sim, seams::FlowNetwork& network, StoreConfig config);
  ~ObjectStore();
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  const StoreConfig& config() const { return config_; }
  int pool_index(const std::string& name) const;  // -1 when unknown
  const CrushPlacement& placement(int pool) const { return *pools_[static_cast<std::size_t>(pool)].placement; }

  // Every client writes its bytes into the pool; on_done(true) when all are on the members up,
  // on_done(false) at once when the pool is too full, or when some PG has no member up.
  void write(int pool, std::vector<ClientShare> clients, OnDone on_done);
  // Every client reads its bytes back.
  void read(int pool, std::vector<ClientShare> clients, OnDone on_done);
  // Client data dropped (an old checkpoint deleted).
  void remove(int pool, double bytes);
  // Client data already in the pool (a dataset loaded before the run): it takes room, no traffic.
  void hold(int pool, double bytes);
  // The most client bytes the pool can keep before its fullest OSD passes full_ratio (what a write
  // is refused against), given today's placement.
  double client_capacity_bytes(int pool) const;

  // The host (an index into config.hosts) fails now / comes back (its data is gone once out).
  void set_host_down(int host);
  void set_host_up(int host);
  // One OSD (drive `drive` of host `host`) fails now / comes back: its PG members are degraded,
  // its host's drive bandwidth loses it, and after down_out_interval exactly its PGs move to
  // other OSDs (of the same host where one is in) and are backfilled.
  void set_osd_down(int host, int drive);
  void set_osd_up(int host, int drive);

  double stored_bytes(int pool) const { return pools_[static_cast<std::size_t>(pool)].stored_bytes; }
  // The shortest time a write of `bytes` into the pool can take with every drive writing at its
  // rate and nothing else binding: bytes x amplification / (drives x drive rate). A bound, not a
  // prediction (placement imbalance, NICs and the fabric only add).
  double write_bound_s(int pool, double bytes) const;
  // Client bytes on each OSD of the pool's members (stored x member fraction x PG slots / PGs).
  double osd_bytes(int pool, int osd) const;
  // Where a read of the pool's data comes off the drives, per host (an index into config.hosts),
  // over the members up as of now: replicated, the PGs whose primary it is; EC, the data chunks
  // it holds (1/k of a PG each). Sums to 1 less the share of PGs with no member up.
  std::vector<double> read_shares(int pool) const;
  network::ResourceId drive_write_resource(int host) const { return hosts_[static_cast<std::size_t>(host)].write; }
  network::ResourceId drive_read_resource(int host) const { return hosts_[static_cast<std::size_t>(host)].read; }
  // Not a limit (unbounded): counts the pool's client bytes, written and read, as they move;
  // aggregate writes (header) count their drive bytes apart, in aggregate_write_resource,
  // client bytes x the pool's amplification.
  network::ResourceId client_write_resource(int pool) const { return pools_[static_cast<std::size_t>(pool)].client_write; }
  network::ResourceId client_read_resource(int pool) const { return pools_[static_cast<std::size_t>(pool)].client_read; }
  // None until the pool's first aggregate write (so a store at flow level has the same resources).
  std::optional<network::ResourceId> aggregate_write_resource(int pool) const {
    return pools_[static_cast<std::size_t>(pool)].aggregate_write;
  }
  // Operations (client or backfill) in flight.
  bool busy() const { return !ops_.empty(); }
  // Called with true when an operation starts on an idle store, false when the last one ends.
  void set_on_busy(std::function<void(bool)> on_busy) { on_busy_ = std::move(on_busy); }
  // Counters as of now (degraded time closed at now).
  StoreCounters counters() const;
  bool recovering() const { return recovery_flows_ > 0; }

 private:
  struct Op {
    int pool = 0;
    bool recovery = false;
    bool aggregate = false;  // one piece per OSD host (header); clients: its clients' NICs
    network::ResourceId clients = 0;
    bool ok = true;
    std::size_t pending = 0;
    OnDone on_done;
    // The drive's latency for the op's kind: its last I/O completes this long after its last bytes
    // arrive (a write into the drive's buffer), or its first bytes leave NAND this long after the
    // request (a read: the fluid's end moves by as much).
    sim::Time latency;
  };
  struct Pool {
    PoolConfig config;
    std::unique_ptr<CrushPlacement> placement;
    double stored_bytes = 0.0;
    // Shares of the pool's PGs, by host (index into config.hosts), over the members up:
    std::vector<double> primary;  // [h]: PGs whose primary is on h
    std::vector<double> pair;     // [p * n + m]: (PG, member on m) with primary on p, writes
    std::vector<double> shard;    // [s * n + p]: EC reads: data chunk on s gathered by primary p
    double unavailable = 0.0;     // PGs with no member up
    network::ResourceId client_write = 0, client_read = 0;  // counters, not limits
    std::optional<network::ResourceId> aggregate_write;     // likewise, made when first used
    // Aggregate resolution: each OSD host's NIC, inbound for writes and outbound for reads, as
    // the pool's aggregate pieces there see it (capacity x drive bytes per NIC byte), by host.
    std::vector<network::ResourceId> aggregate_nic_in, aggregate_nic_out;
    // Likewise each OSD hosts' leaf's uplinks, by edge group (edge_of_): what comes from or goes
    // to outside the leaf (the clients, other leaves' members).
    std::vector<network::ResourceId> aggregate_edge_in, aggregate_edge_out;
  };
  struct Host {
    network::ResourceId read = 0;
    network::ResourceId write = 0;
  };
  static constexpr double kUnboundedBps = 1e18;  // a resource that counts bytes and never binds
  enum class Piece : std::uint8_t {
    kClientWrite,
    kForward,
    kLocalChunk,
    kReadToClient,
    kShard,
    kRecovery,
    kAggregateWrite,
    kAggregateRead
  };

  void refresh_shares(Pool& pool);
  void refresh_drive_capacity();
  void plan_write(Op& op, const std::vector<ClientShare>& clients);
  void plan_read(Op& op, const std::vector<ClientShare>& clients);
  // Aggregate resolution (header): whether an operation of `clients` clients runs aggregated;
  // the capacity of its clients' NICs; its pieces, one per OSD host.
  bool aggregates(std::size_t clients) const;
  void take_clients_resource(Op& op, const std::vector<ClientShare>& clients, double bytes_per_client_byte);
  void plan_aggregate_write(Op& op, double total);
  // Sets the pool's per-host NIC capacities for its aggregate pieces from its shares as of now:
  // host h's NIC carries nic_share[h] bytes per client byte while its piece carries
  // piece_share[h].
  void set_aggregate_nics(std::vector<network::ResourceId>& nics, const std::vector<double>& piece_share,
                          const std::vector<double>& nic_share);
  // And the leaves' uplinks: host h's leaf carries external_share[h] bytes per client byte for it.
  void set_aggregate_edges(std::vector<network::ResourceId>& edges, const std::vector<double>& piece_share,
                           const std::vector<double>& external_share);
  // Whether OSD hosts a and b hang on one leaf.
  bool same_edge(std::size_t a, std::size_t b) const { return edge_of_[a] == edge_of_[b]; }
  void plan_aggregate_read(Op& op, double total);
  // Spreads `bytes` of a forward (or shard gather) at host `p` over its current row.
  void plan_row(Op& op, Piece piece, int p, double bytes);
  void start_piece(Op* op, Piece piece, int src_host, int dst_host, network::NodeId client, double bytes);
  void piece_done(Op* op, Piece piece, int src_host, int dst_host, network::NodeId client,
                  const network::FinishedFlow& f);
  void finish_op(Op* op);
  // An op was added: tells the listener when the store was idle.
  void note_op_started();
  void mark_out(int host);
  void mark_osd_out(int osd);
  // Backfill after a placement change (`change` marks a host or an OSD out): every PG member the
  // new placement adds gets its bytes from a member that survived.
  void relocate(const std::function<void(CrushPlacement&)>& change);
  int osd_index(int host, int drive) const;
  void note_degraded();

  sim::Simulator& sim_;
  seams::FlowNetwork& net_;
  StoreConfig config_;
  std::vector<Host> hosts_;
  std::vector<Pool> pools_;
  std::vector<std::unique_ptr<Op>> ops_;
  network::ResourceId recovery_throttle_ = 0;
  bool has_throttle_ = false;
  std::size_t recovery_flows_ = 0;
  std::vector<network::ResourceId> spare_clients_;  // clients' NIC capacities of ended aggregate ops
  std::vector<int> edge_of_;                        // by OSD host: its leaf's index in edge_uplink_bps_
  std::vector<double> edge_uplink_bps_;
  std::vector<sim::EventHandle> out_events_;      // by host
  std::vector<sim::EventHandle> osd_out_events_;  // by OSD
  StoreCounters counters_;
  int down_in_ = 0;  // hosts and OSDs down and not yet out
  std::function<void(bool)> on_busy_;
  bool busy_reported_ = false;
  sim::Time degraded_since_ = sim::Time::max();
};

}  // namespace dcsim::models::storage
