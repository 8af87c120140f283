#include "models/facility/power_delivery.hpp"

#include <algorithm>

namespace dcsim::models::facility {

double ups_loss_w(const UpsLossCurve& ups, double output_w) {
  if (ups.rated_w <= 0.0) return 0.0;
  const double x = std::max(output_w, 0.0) / ups.rated_w;
  return ups.rated_w * (ups.no_load + ups.proportional * x + ups.square_law * x * x);
}

double distribution_loss_w(const UpsLossCurve& ups, double pdu_efficiency, double it_w) {
  const double ups_out_w = it_w / pdu_efficiency;
  return ups_out_w - it_w + ups_loss_w(ups, ups_out_w);
}

}  // namespace dcsim::models::facility
