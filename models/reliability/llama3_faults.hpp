#pragma once
// Fault classes derived from Llama 3 405B pre-training (the preset "llama3_405b"): 419 unexpected
// interruptions in 54 days on 16,384 H100 GPUs (2,048 nodes of 8), by root cause. Source: Llama 3
// paper ("The Llama 3 Herd of Models", 2024) table 5, via glennklockwood.com/garden/component-
// reliability; ../shared/reference/public-figures.md, "Failures".
//
// Rate per instance = cause count / (54 d x 24 h x instances of the cause's component kind in that
// cluster), e.g. faulty GPU: 148 / (1,296 h x 16,384 GPUs) = 6.97e-6 per GPU-hour. So on the
// reference inventory (llama3_405b_inventory) the expected faults in 54 days are exactly the
// table's counts, 419 in all: one every 3.09 h.
//
// Instances in the reference cluster: 16,384 GPUs, 2,048 nodes, 16,384 compute NICs (8 x 400G
// per node, one per GPU), and 53,833 fabric cables. The cable count is an ASSUMPTION built from
// the fabric's published shape (public-figures.md, "Llama 3 405B fabric": 400 Gb/s per GPU,
// T0-T1 2:1 undersubscribed, T1-T2 7:1 oversubscribed) with every cable at 400 Gb/s: per GPU one
// host-T0 cable, two T0-T1, 2/7 T1-T2 = 23/7 cables; 16,384 + 32,768 + 4,681.
//
// Mapping of causes (component kind, effect):
//  - GPU parts (faulty GPU incl. NVLink, HBM3, SRAM, system processor, thermal interface/sensor):
//    gpu, node_down. Silent data corruption: gpu, job_crash (the job dies; the GPU passes
//    diagnostics and returns).
//  - Host parts (PSU, CPU, system memory, SSD, chassis, IO board) and unplanned host maintenance:
//    node, node_down. Software, NCCL watchdog, dependency: node, job_crash.
//  - NIC: nic, nic_down. Network switch/cable: link, link_down (the table does not split switches
//    from cables; cables and their optics are by far the more numerous part, so the whole count
//    goes to cables and the preset has no switch class: add one in /reliability/classes).
//  - No cause is a cooling zone: the preset has no zone class.
// gpus_per_node: host-level rates are per node of 8 GPUs in the table. A node with g GPUs is
// given g/8 of that rate (ASSUMPTION: host parts - PSUs, DIMMs, IO boards - and the host software
// serving the GPUs grow with the GPUs a host carries); at 8 it is the table. Rates per GPU, NIC
// and cable do not depend on it.
//
// Repair times are not in the table. ASSUMPTIONS, each a lognormal (median, sigma 1: a long tail
// of parts that wait for an RMA) or a fixed time:
//  - GPU hardware: median 24 h (drain, swap the GPU or baseboard from on-site spares, burn-in);
//  - host field-replaceable units: median 8 h; unplanned host maintenance: median 4 h;
//  - NIC: median 4 h (swap the card or its transceiver); cable: median 2 h (reseat or replace);
//  - software, NCCL watchdog, dependency: fixed 10 min (restart the job's processes, reboot);
//  - silent data corruption: fixed 1 h (GPU diagnostics before the node returns).
// All classes are exponential (shape 1): the table gives counts, not ages.
//
// Planned interruptions (47 in the same 54 days: firmware and configuration rollouts) are NOT
// modelled: operators schedule them, they are not random component faults. A scripted fault or
// maintenance window (issue 12's scripted `faults`) is where they belong.

#include <vector>

#include "models/reliability/fault_class.hpp"

namespace dcsim::models::reliability {

inline constexpr double kLlama3Hours = 54.0 * 24.0;  // 1,296 h
inline constexpr double kLlama3Gpus = 16384.0;
inline constexpr double kLlama3Nodes = 2048.0;
inline constexpr double kLlama3Nics = 16384.0;
inline constexpr double kLlama3CablesPerGpu = 23.0 / 7.0;  // ASSUMPTION, see above
inline constexpr double kLlama3Cables = 53833.0;          // 16,384 + 32,768 + floor(32,768 / 7)
inline constexpr int kLlama3UnexpectedInterruptions = 419;

std::vector<FaultClass> llama3_fault_classes(int gpus_per_node = 8);
// The cluster the rates were measured on: 2,048 nodes x 8 GPUs, 8 NICs each, 53,833 cables.
Inventory llama3_405b_inventory();

// The table's cause counts, in table order, with the class each maps to (for tests and docs).
struct Llama3Cause {
  const char* cause;
  const char* class_name;
  int count;
};
const std::vector<Llama3Cause>& llama3_causes();

}  // namespace dcsim::models::reliability
