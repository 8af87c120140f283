#pragma once
// Optimal checkpoint intervals: how much compute time to run between two checkpoints, given the
// time a checkpoint takes (C, delta) and the mean time between interruptions of the job (M).
// Units are the caller's, the same for every argument (seconds, or minutes for hand checks).
//
// Young (1974), "A first order approximation to the optimum checkpoint interval", CACM 17(9):
//   T = sqrt(2 C M)
// first order in C / M: good when checkpoints are much shorter than the MTBF.
//
// Daly (2006), "A higher order estimate of the optimum checkpoint interval for restart dumps",
// Future Generation Computer Systems 22, doi 10.1016/j.future.2004.11.016, eq. (37):
//   T = sqrt(2 C M) [1 + (1/3) sqrt(C / (2M)) + (1/9) (C / (2M))] - C   for C < 2M
//   T = M                                                               for C >= 2M
// Checked by simulation in that paper (R = 10 min, C = 5 min): M = 24 h -> 117 min, 6 h -> 57 min,
// 15 min -> 9.1 min (public-figures.md, "Checkpointing"). The restart time does not enter the
// optimum. As C / M -> 0 the bracket tends to 1 and the "- C" is negligible: Daly -> Young.

namespace dcsim::models::reliability {

// Both throw sim::ConfigError for C <= 0 or M <= 0 (or not finite).
double checkpoint_interval_young(double checkpoint_cost, double mtbf);
double checkpoint_interval_daly(double checkpoint_cost, double mtbf);

}  // namespace dcsim::models::reliability
