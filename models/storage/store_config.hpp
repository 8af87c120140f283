#pragma once
// What a shared object store (Ceph-like, object_store.hpp) is built from, as plain configs.
// Component figures are per drive and per host; cluster totals emerge from them, the placement
// and the fabric (../shared/reference/public-figures.md, "Storage components").

#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::storage {

// A data-centre NVMe drive, one OSD each (Ceph runs one OSD per drive).
struct DriveSpec {
  // PCIe 4 15.36 TB class: ~6.5-7 GB/s sequential read, ~3-4 GB/s write (vendor data sheets);
  // one tuned Ceph OSD on such a drive reaches ~5.7-6.6 GB/s read and ~4.0 GB/s write at 4 MB
  // I/O (ceph.io, "Ceph: a journey to 1 TiB/s", 2024), so the drive, not the OSD, is the limit.
  double read_bytes_per_s = 6.5e9;
  double write_bytes_per_s = 3.5e9;
  // Random-I/O operation rates of the same class (data sheets: ~1M read, ~200k write IOPS at
  // 4 KiB); with io_bytes per operation a drive moves min(bandwidth, iops x io_bytes).
  double read_iops = 1.0e6;
  double write_iops = 2.0e5;
  double capacity_bytes = 15.36e12;
  // The drive's own latency per I/O: NVMe SSDs answer in 20-100 us (Pure Storage, "What is
  // NVMe"); writes land in the drive's power-protected buffer (low end), reads go to NAND (about
  // 100 us raw, high end).
  double read_latency_s = 80e-6;
  double write_latency_s = 20e-6;
};

enum class FailureDomain { kOsd, kHost, kRack };

// How a client operation moves its bytes (object_store.hpp):
//  - kFlows: one fabric flow per (client, primary host) and per (primary, member) pair: the
//    fabric, the NICs and the drives all shape it; costs clients x hosts + hosts^2 flows per
//    operation (a 2,048-node job's checkpoint into 96 hosts: 206k flows).
//  - kAggregate: one flow per OSD host, local to it, carrying exactly the bytes its drives take
//    for the operation, all crossing one capacity for the clients' NICs together: the drives
//    (with the placement's imbalance) and the clients' NICs bind, the fabric and the OSD hosts'
//    NICs are left out; costs hosts flows per operation, whatever the clients.
//  - kAuto: kAggregate for an operation whose kFlows form would hold at least
//    aggregate_from_flows flows, else kFlows.
enum class StoreResolution { kFlows, kAggregate, kAuto };

struct PoolConfig {
  std::string name = "default";
  // Replicated (ec_k == 0): `size` copies, a client write goes to the primary, which forwards
  // size - 1 copies (Ceph architecture docs). Erasure coded (ec_k > 0): k data + m parity chunks
  // of object / k bytes each, written by the primary to k + m OSDs; a read gathers k chunks.
  int size = 3;
  int ec_k = 0;
  int ec_m = 0;
  // Placement groups; 0: ~100 per OSD divided by the width, rounded up to a power of two (the
  // Ceph docs' rule of thumb).
  int pg_count = 0;
  FailureDomain failure_domain = FailureDomain::kHost;  // no two members of a PG share one
  int width() const { return ec_k > 0 ? ec_k + ec_m : size; }
  // Bytes one member of a PG holds per byte of client data (1 replicated, 1/k erasure coded).
  double member_fraction() const { return ec_k > 0 ? 1.0 / ec_k : 1.0; }
  // Raw bytes per client byte: size, or (k + m) / k.
  double amplification() const { return ec_k > 0 ? static_cast<double>(ec_k + ec_m) / ec_k : size; }
};

struct StoreConfig {
  std::string name = "store";
  // OSD nodes: their hosts on the network the store lives on, and their racks (failure domains).
  std::vector<std::uint32_t> hosts;
  int hosts_per_rack = 1;
  int drives_per_host = 8;
  DriveSpec drive;
  double io_bytes = 4.0 * 1024 * 1024;  // per operation: RADOS's default 4 MiB object
  std::vector<PoolConfig> pools = {PoolConfig{}};
  // Backfill after a host is marked out: every recovery flow of the store shares this rate
  // (Ceph throttles recovery: osd_recovery_max_active, osd_max_backfills); 0: the drives and
  // the network alone limit it.
  double recovery_bytes_per_s = 0.0;
  // A down host's OSDs are marked out (and its data re-replicated) after this long: Ceph's
  // mon_osd_down_out_interval default.
  sim::Time down_out_interval = sim::Time::from_seconds(600.0);
  // An OSD at this share of its drive refuses writes (Ceph's mon_osd_full_ratio default).
  double full_ratio = 0.95;
  std::uint64_t seed = 1;  // placement hash salt (same seed, same placement)
  StoreResolution resolution = StoreResolution::kFlows;
  // kAuto's threshold, in flows (clients x hosts + hosts^2): 20,000 is a 200-node job on 96
  // hosts, about 0.4 s of CPU per operation at flow level (a 256-node job's saves: 33.6k flows,
  // 3 s each on this project's 2-core CI machine).
  double aggregate_from_flows = 20000.0;
};

}  // namespace dcsim::models::storage
