#pragma once
// GPU power by what the GPU is doing (issue 15, item 11): an activity per kind of phase, each a
// fraction of the board's dynamic range dP = P_max - P_idle, so that gpu_power.hpp's
//   P(a, f) = P_idle + dP * a * f^k
// gives the phase's power, and a job's utilisation is the time-weighted mean activity of its
// phases (P is linear in a at a given clock, so the mean power is P of the mean activity).
//
// Mechanism. dP splits into HBM power and the rest (SMs, L2, NVLink, board):
//   P_hbm  = HBM bandwidth x 8 bit/B x E_bit      HBM traffic power at full bandwidth
//   P_core = dP - P_hbm
// and each phase draws:
//   compute        compute_activity x dP                    tensor-core GEMMs and attention
//   memory-bound   P_hbm + memory_sm_activity x P_core      HBM-bound ops (optimizer step, norms)
//   communication  comm_sm_fraction x P_core                NCCL kernels on their channels' SMs
//                  + comm_hbm_fraction x P_hbm              and the HBM traffic they move
//   bubble         bubble_activity x dP                     waiting on another stage: near idle
// The NICs and NVSwitches draw their own power outside the GPU (node_power_model.hpp).
//
// H100 SXM (defaults): dP = 700 - 84 = 616 W; P_hbm = 3.35 TB/s x 8 x 3.9 pJ/bit = 104.5 W;
// P_core = 511.5 W. Compute 700 W, memory-bound 84 + 104.5 + 0.25 x 511.5 = 316.4 W,
// communication 84 + (32/132) x 511.5 + 0.4 x 104.5 = 249.8 W, bubble 84 W.
//
// Limits: the SM clock factor scales every phase's dynamic power alike (gpu_power.hpp), though
// HBM and link power do not follow the SM clock; overlapped communication adds nothing to a
// compute phase already at the limit.

#include "models/hardware/node_spec.hpp"

namespace dcsim::models::power {

struct GpuPhasePowerConfig {
  // Dense GEMM phases run H100 SXM at its 700 W limit (assumption: large GEMMs are power-bound on
  // Hopper SXM; the measured FP8 GEMM, 1382 of 1979 dense TFLOP/s at 32768^3, public-figures.md,
  // runs below the peak clock).
  double compute_activity = 1.0;
  // HBM access energy: 3.9 pJ/bit for HBM2 (O'Connor et al., "Fine-Grained DRAM", MICRO 2017);
  // HBM3 is taken at the same figure (assumption).
  double hbm_energy_pj_per_bit = 3.9;
  // SMs issuing loads and stores with idle tensor cores (assumption: a quarter of core power).
  double memory_sm_activity = 0.25;
  // NCCL runs one CUDA block per channel (NCCL docs, NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS);
  // 32 channels on an NVSwitch H100 node (assumption) = 32 of 132 SMs.
  double comm_sm_fraction = 32.0 / 132.0;
  // A ring step reads the local chunk and the received one and writes the result: ~3 HBM
  // accesses per byte on the link, 3 x 450 GB/s over 3.35 TB/s = 0.4 (derived; NVLink 4 rate,
  // public-figures.md).
  double comm_hbm_fraction = 0.4;
  // A stage waiting on another's compute spins in a receive on one SM (1 of 132): neglected.
  double bubble_activity = 0.0;
};

// Activities (fractions of P_max - P_idle, in [0, 1]) of each kind of phase on `gpu`.
struct PhaseActivities {
  double compute = 1.0;
  double memory = 1.0;
  double communication = 1.0;
  double bubble = 1.0;
};
PhaseActivities phase_activities(const GpuPhasePowerConfig& config, const hardware::GpuSpec& gpu);

// Seconds of each kind of phase in one period (a training step, a job's run).
struct PhaseTimes {
  double compute_s = 0.0;
  double memory_s = 0.0;
  double communication_s = 0.0;
  double bubble_s = 0.0;
};
// Time-weighted mean activity over the period (1 when it has no time: a job that does nothing
// measurable is charged as busy, the conservative reading).
double mean_activity(const PhaseActivities& activities, const PhaseTimes& times);

}  // namespace dcsim::models::power
