#include <catch2/catch.hpp>

#include "models/network/topology.hpp"
#include "models/power/switch_power.hpp"

using namespace dcsim::models;

TEST_CASE("switch power: base plus each active port by speed", "[models][power]") {
  power::SwitchPowerConfig c;
  // A fully cabled 64 x 400G switch: 400 W + 64 x 11 W (switch_power.hpp).
  CHECK(power::switch_power_w(c, 64, 400e9) == Approx(1104.0));
  CHECK(power::switch_power_w(c, 0, 400e9) == Approx(c.base_w));   // no cable, no port power
  CHECK(power::switch_power_w(c, 32, 400e9) < power::switch_power_w(c, 64, 400e9));
  CHECK(power::switch_power_w(c, 64, 100e9) < power::switch_power_w(c, 64, 400e9));  // fewer lanes lit
}

TEST_CASE("switch power of a topology counts its cabled ports", "[models][power]") {
  // Two hosts on one switch, one host with two bundled cables: 3 cabled ports on the switch.
  network::Topology t;
  const auto h0 = t.add_host();
  const auto h1 = t.add_host();
  const auto s = t.add_switch(1, 64);
  t.connect(h0, s, 400e9, 2.0, 1, 1, true, 600, -1);
  t.connect(h1, s, 400e9, 2.0, 1, 2, true, 600, -1);
  t.finalize(false);
  power::SwitchPowerConfig c;
  const auto p = power::fabric_switch_power(c, t);
  CHECK(p.switches == 1);
  CHECK(p.active_ports == 3);
  CHECK(p.power_w == Approx(power::switch_power_w(c, 3, 400e9)));
}
