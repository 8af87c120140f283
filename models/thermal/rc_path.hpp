#pragma once
// One GPU's lumped thermal path, die -> cold plate (or heat sink) -> sink (coolant or air),
// advanced by backward Euler so that any step, however long, is stable:
//
//   C_d (T_d' - T_d) / dt = q - G_dp (T_d' - T_p')
//   C_p (T_p' - T_p) / dt = G_dp (T_d' - T_p') - G_ps (T_p' - T_s')
//
// q is the heat entering the die (W), G = 1/R conductances (W/K), C heat capacities (J/K), T_s'
// the sink temperature at the end of the step. The sink (the zone's coolant loop or air) is
// itself unknown, so the 2x2 system is solved for T' as an affine function of T_s':
//   [T_d'; T_p'] = A^-1 [C_d/dt T_d + q; C_p/dt T_p] + A^-1 [0; G_ps] T_s'
//   A = [[C_d/dt + G_dp, -G_dp], [-G_dp, C_p/dt + G_dp + G_ps]]
// and the sink's own equation, summed over its GPUs, closes the zone (Schur elimination): O(1)
// per GPU and step. Steady state: T_d = T_s + q (1/G_dp + 1/G_ps).

namespace dcsim::models::thermal {

struct RcPathParams {
  // Die + package + HBM + lid, ~50 g of copper/organic at ~0.4-0.8 J/(g K) (assumption).
  double die_capacity_j_per_k = 40.0;
  // Cold plate (copper, ~0.5 kg) plus the coolant it holds (assumption).
  double plate_capacity_j_per_k = 400.0;
  // Junction to cold plate through the TIM (assumption: 0.02-0.04 K/W for a ~800 mm2 die).
  double die_to_plate_k_per_w = 0.03;
  // Cold plate to coolant at rated flow (assumption: 0.02-0.03 K/W for micro-channel plates).
  double plate_to_coolant_k_per_w = 0.025;
  // Air-cooled heat sink to inlet air at full fan speed (assumption: 700 W GPUs run ~80 C air-cooled).
  double sink_to_air_k_per_w = 0.05;
};

// T_d' = die0 + die1 * T_s', T_p' = plate0 + plate1 * T_s'.
struct RcAffine {
  double die0, die1, plate0, plate1;
};

// Inline: the facility calls it for every GPU at every step (O(1), no allocation). The 2x2
// inverse is the closed form Eigen's Matrix2d::inverse() computes, operation for operation, so
// results are the same doubles (a test compares them).
inline RcAffine rc_backward_euler(double die_c, double plate_c, double heat_w, double g_die_plate, double g_plate_sink,
                                  double c_die, double c_plate, double dt_s) {
  const double a00 = c_die / dt_s + g_die_plate, a01 = -g_die_plate, a10 = -g_die_plate,
               a11 = c_plate / dt_s + g_die_plate + g_plate_sink;
  const double invdet = 1.0 / (a00 * a11 - a10 * a01);  // A is diagonally dominant: det > 0
  const double i00 = a11 * invdet, i10 = -a10 * invdet, i01 = -a01 * invdet, i11 = a00 * invdet;
  const double r0 = c_die / dt_s * die_c + heat_w, r1 = c_plate / dt_s * plate_c;
  return {i00 * r0 + i01 * r1, i01 * g_plate_sink, i10 * r0 + i11 * r1, i11 * g_plate_sink};
}

}  // namespace dcsim::models::thermal
