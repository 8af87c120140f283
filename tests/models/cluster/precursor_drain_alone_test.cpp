// The precursor drain alone (models/cluster/precursor_drain.hpp): a host written by hand that
// records the drains, the saves and the moves it is asked for; no cluster, no failover policy.
// The response under a real cluster is in predictive_migration_test.cpp.

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/cluster/precursor_drain.hpp"
#include "sim/simulator.hpp"

using dcsim::models::cluster::PrecursorDrain;
using dcsim::sim::Time;

namespace {

Time s(double seconds) { return Time::from_seconds(seconds); }

struct RecordingHost final : PrecursorDrain::Host {
  dcsim::sim::Simulator* sim = nullptr;
  std::vector<std::pair<double, bool>> drains;        // (time, drained) of node 3
  std::vector<std::function<void()>> pending;         // saves in flight, by job
  std::vector<std::pair<std::size_t, double>> moves;  // (job, relaunch s)
  bool save_at_once = false;
  void set_drained(int node, bool drained) override {
    REQUIRE(node == 3);
    drains.emplace_back(sim->now().seconds(), drained);
  }
  void save_for_move(std::size_t, const std::string& cause, std::function<void()> saved) override {
    CHECK(cause == "ecc_precursor");
    if (save_at_once) {
      saved();
    } else {
      pending.push_back(std::move(saved));
    }
  }
  void move(std::size_t job, Time relaunch) override { moves.emplace_back(job, relaunch.seconds()); }
};

struct Fixture {
  dcsim::sim::Simulator sim;
  RecordingHost host;
  PrecursorDrain drain{8, host, sim};
  Fixture() { host.sim = &sim; }
};

}  // namespace

TEST_CASE("a warning drains the node until its drain ends, and a later warning extends it",
          "[models][cluster][precursor_drain]") {
  Fixture f;
  f.drain.drain(3, s(100));
  f.sim.at(s(50), [&] { f.drain.drain(3, s(300)); });   // still drained: no second drain, ends later
  f.sim.at(s(400), [&] { f.drain.drain(3, s(400)); });  // ends now: nothing
  f.sim.run();
  REQUIRE(f.host.drains.size() == 2);
  CHECK(f.host.drains[0] == std::pair{0.0, true});
  CHECK(f.host.drains[1] == std::pair{300.0, false});
}

TEST_CASE("a job moves once its checkpoint is saved, once however many warnings reach it",
          "[models][cluster][precursor_drain]") {
  Fixture f;
  f.drain.migrate(7, s(30), "ecc_precursor");
  CHECK(f.drain.migrating(7));
  f.drain.migrate(7, s(90), "ecc_precursor");  // its save is under way: not again
  REQUIRE(f.host.pending.size() == 1);
  f.host.pending[0]();
  CHECK_FALSE(f.drain.migrating(7));
  REQUIRE(f.host.moves.size() == 1);
  CHECK(f.host.moves[0] == std::pair<std::size_t, double>{7, 30.0});
  // A job in its restart delay saves nothing: it moves at once.
  f.host.save_at_once = true;
  f.drain.migrate(8, s(10), "ecc_precursor");
  CHECK(f.host.moves.size() == 2);
  // Interrupted while saving: the move is off; a later warning starts a new one.
  f.host.save_at_once = false;
  f.drain.migrate(9, s(10), "ecc_precursor");
  f.drain.cancel(9);
  CHECK_FALSE(f.drain.migrating(9));
  f.drain.migrate(9, s(20), "ecc_precursor");
  CHECK(f.host.pending.size() == 3);
}
