#pragma once
// How a collective's bandwidth ramps with message size: what NCCL's execution does with size
// that its own cost model (latency + bytes / bandwidth at full channels, which it minimises to
// pick the algorithm and protocol) leaves out. Read from NCCL 2.30.7 (NVIDIA/nccl 5067397):
//
// 1. Channels (src/enqueue.cc, topoGetAlgoInfo). A ring or tree collective starts from the
//    communicator's nChannels (C, 24 on 8 x H100) and drops one channel while
//      bytes < channels x threads x threshold(p)
//    (threads 512 / 640 / 512 for LL / LL128 / Simple, threshold 8 / 8 / 64 bytes, ring LL x
//    ranks); at one channel it halves the threads the same way, down to 3 warps. Each channel is
//    one thread block moving an equal share, so the bandwidth is
//      B(S) = B_full x f(S),  f(S) = clamp(S / (C x threads x threshold), f_min, 1)
//      f_min = (1 / C) x (min_threads / threads)
//    (continuous: NCCL steps one channel at a time, we interpolate so that time never falls as
//    the size grows). The caps that do not scale with channels (LL's llMaxBw) stay caps.
// 2. Ring pipeline fill. A ring moves each channel's data through 2(n-1) dependent steps; NCCL's
//    per-step hardware latency (hwLat x steps) already is that fill, so the ring adds nothing.
// 3. NVLS (single node, src/device/all_reduce.h, runRing of NVLS): per channel, warp groups
//    scatter the input to the switch buffers, reduce/broadcast with multimem, and gather the
//    output: a D = 3 stage pipeline over loops of heads x chunk bytes (heads = GPUs). The chunk
//    starts at 128 KiB (NCCL_NVLS_CHUNKSIZE) and is halved for smaller messages
//    (enqueue.cc calcCollChunking, W = channels x heads concurrent chunks):
//      128 KiB -> 64 KiB if S < 64 W chunk; -> 32 KiB if S < 8 W chunk; -> 16 KiB if S < 2 W chunk
//    A pipeline of L loops takes L + D - 1 loop times, so on top of the bandwidth term
//      fill = (D - 1) x min(S, W x chunk) x (1 + 1/n) / B_nvls
//    (a message smaller than one loop crosses the three stages one after the other). On
//    8 x H100 (W = 128) that is 2 S extra below 2 MiB, 8 MiB of 16 MiB at 16 MiB, 16 MiB at
//    128 MiB, 32 MiB at 1 GiB: the NVLS ramp.

#include "models/collective/collective_types.hpp"

namespace dcsim::models::collective {

// f(S) of item 1 for a ring (ring = true) or tree collective with protocol p on `ranks` ranks;
// 1 when tuning.size_ramp is off.
double channel_fraction(double bytes, int ranks, Protocol p, const CollectiveTuning& tuning,
                        bool ring);

// The NVLS chunk NCCL uses for `bytes` with `heads` GPUs per node (item 3).
double nvls_chunk_bytes(double bytes, int heads, const CollectiveTuning& tuning);

// Bytes of the all_reduce buffer that the NVLS pipeline fill costs on top of `bytes` (item 3;
// 0 when tuning.size_ramp is off).
double nvls_fill_bytes(double bytes, int heads, const CollectiveTuning& tuning);

// tuning.tree_correction for `bytes` (log2(bytes / 64) rounded down; 1 outside the table or
// when tuning.size_ramp is off). NCCL's own mid-size correction of its tree model
// (tuning.cc ncclTopoGetAlgoTime), so it enters the choice as well as the time.
double tree_correction(Protocol p, double bytes, const CollectiveTuning& tuning);

// Index of NCCL's per-node-count tables: 0 for one node, 1 for two, 2 for more.
inline int node_count_index(int nodes) { return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2; }

}  // namespace dcsim::models::collective
