#pragma once
// Power delivery losses between the utility and the IT loads: a UPS whose losses depend on its
// load, then PDUs/transformers at a fixed efficiency.
//
//   UPS output   P_ups = P_IT / eta_pdu
//   UPS loss     L = rated (k0 + k1 x + k2 x^2),  x = P_ups / rated
//   distribution = (P_ups - P_IT) + L
// The no-load term k0 makes a lightly loaded UPS inefficient: at full load the defaults lose
// 4.2% of rating (about 96% efficient), at a quarter load 8.9% of the load (about 92%).

namespace dcsim::models::facility {

struct UpsLossCurve {
  double rated_w = 0.0;
  double no_load = 0.0, proportional = 0.0, square_law = 0.0;  // fractions of rated_w
};

double ups_loss_w(const UpsLossCurve& ups, double output_w);
// UPS and PDU losses for `it_w` of IT load.
double distribution_loss_w(const UpsLossCurve& ups, double pdu_efficiency, double it_w);

}  // namespace dcsim::models::facility
