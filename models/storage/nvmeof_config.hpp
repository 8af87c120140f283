#pragma once
// NVMe over Fabrics (nvmeof_targets.hpp) as a plain config: target hosts that export their drives
// as namespaces to the cluster's nodes over RDMA or TCP, and what each transport costs per I/O.
// Figures: ../shared/reference/public-figures.md ("Storage components") and the sources below.

#include <cstdint>
#include <vector>

#include "models/storage/store_config.hpp"

namespace dcsim::models::storage {

enum class NvmeofTransport : std::uint8_t { kRdma, kTcp };

struct NvmeofConfig {
  // Hosts of the network that export namespaces (JBOF heads, storage servers); node i's namespace
  // is on targets[i mod targets.size()], striped over that target's drives.
  std::vector<std::uint32_t> targets;
  int drives_per_target = 24;
  DriveSpec drive;  // bandwidths and latencies of one drive (store_config.hpp)
  NvmeofTransport transport = NvmeofTransport::kRdma;
  // What the fabric adds to each I/O over a local drive: vendor ranges RDMA 10-20 us, TCP
  // 25-40 us (public-figures.md, "NVMe-oF added latency"); SPDK's own 4 KiB QD1 reads over TCP:
  // 27 us (SPDK initiator), 33 us (kernel initiator) (spdk/spdk issue 2326).
  double added_latency_s = 15e-6;
  // Outstanding I/Os of io_bytes a node keeps on its namespace: with the drive's latency and the
  // added one they cap its rate at queue_depth x io_bytes / (drive + added latency), Little's law.
  int queue_depth = 32;
  double io_bytes = 128.0 * 1024;
  // NVMe/TCP moves every byte through a CPU core on both ends (each I/O queue is served by one
  // core: the Linux host's io_cpu per queue, SPDK's poll group per core): the kernel host reads
  // 84 Gb/s at 64 KiB with 8 fio jobs, 53 Gb/s with data digests on ("nvme-tcp receive
  // offloads" patch v12 cover letter, NVIDIA, 2023), about 1.3 GB/s per job, 0.63x with
  // digests. RDMA moves the data without the CPU (one SPDK target core fills 100 Gb/s from
  // 16 KiB I/Os, spdk/spdk issue 321), so none of this applies to it.
  double tcp_bytes_per_s_per_core = 1.3e9;
  int host_cores = 8;     // cores a node gives its NVMe/TCP queues
  int target_cores = 16;  // cores a target host gives its NVMe/TCP target
  bool data_digest = false;  // CRC32C on every data PDU: each core moves 53/84 of its bytes
};

// The per-core rate of the config's transport (0 for RDMA: no CPU in the data path).
inline double tcp_core_bytes_per_s(const NvmeofConfig& c) {
  if (c.transport != NvmeofTransport::kTcp) return 0.0;
  return c.data_digest ? c.tcp_bytes_per_s_per_core * 53.0 / 84.0 : c.tcp_bytes_per_s_per_core;
}

}  // namespace dcsim::models::storage
