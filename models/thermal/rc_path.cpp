#include "models/thermal/rc_path.hpp"

#include <Eigen/Dense>

namespace dcsim::models::thermal {

RcAffine rc_backward_euler(double die_c, double plate_c, double heat_w, double g_die_plate,
                           double g_plate_sink, double c_die, double c_plate, double dt_s) {
  Eigen::Matrix2d a;
  a << c_die / dt_s + g_die_plate, -g_die_plate, -g_die_plate, c_plate / dt_s + g_die_plate + g_plate_sink;
  const Eigen::Matrix2d inv = a.inverse();  // closed form for 2x2; A is diagonally dominant
  const Eigen::Vector2d r0(c_die / dt_s * die_c + heat_w, c_plate / dt_s * plate_c);
  const Eigen::Vector2d x0 = inv * r0;
  const Eigen::Vector2d x1 = inv.col(1) * g_plate_sink;
  return {x0(0), x1(0), x0(1), x1(1)};
}

}  // namespace dcsim::models::thermal
