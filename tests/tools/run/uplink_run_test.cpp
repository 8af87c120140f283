// /uplink through the whole stack: scenario JSON -> UplinkConfig -> the uplink subsystem's
// transfers on the ports' speed -> the economics subsystem billing the bytes that left.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tests/tools/run/run_test_support.hpp"

using dcsim::tools::run::simulate;
using dcsim::tools::scenario::load_scenario_json;

namespace {

constexpr double kTol = 1e-9;
constexpr double kDayS = 86'400.0;
// One 100 Gb/s port: 12.5e9 B/s, 1.08e15 B a day.
constexpr double kPortBytesPerDay = 1.08e15;
// The `us` site prices' flat fee of one 100 Gb/s port a month (site_prices.hpp).
constexpr double kPort100gUsdPerMonth = 26'556.18946656368;

// One idle HGX H100 node for 10 days with one 100 Gb/s port; economics with round prices.
nlohmann::json uplink_scenario() {
  return nlohmann::json::parse(R"({
    "name": "uplink", "seed": 1, "duration": "10 d",
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 1, "nodes_per_rack": 1 },
    "uplink": { "ports": [ { "speed": "100 Gb/s", "count": 1 } ], "streams": [] },
    "economics": {
      "node_price": "hgx-h100", "electricity": "0.10 USD/kWh",
      "cloud": [ { "offer": "aws-p5-on-demand" } ]
    } })");
}

struct Run : dcsim::test::RunOutputs {
  std::string text(const std::string& path) const { return std::get<std::string>(sink.summary(path).value); }
  const dcsim::sim::MemoryTraceSink::Table& transfers() const { return sink.table("uplink/transfers"); }
  double column_sum(std::size_t column) const {
    double sum = 0.0;
    for (const auto& row : transfers().rows) sum += std::get<double>(row[column]);
    return sum;
  }
};

std::unique_ptr<Run> run(nlohmann::json doc, const std::vector<std::string>& sets = {}) {
  return dcsim::test::run_scenario_json<Run>(std::move(doc), sets);
}

std::string error_of(nlohmann::json doc, const std::vector<std::string>& sets) {
  return dcsim::test::input_error_of(std::move(doc), sets);
}

const std::string kCloud = "aws-p5-on-demand";

}  // namespace

TEST_CASE("every byte of every transfer is carried by the uplink and billed once as egress", "[run][uplink]") {
  // 3e14 B daily from day 0 (10 transfers in 10 d; each 3e14 / 12.5e9 = 24,000 s alone, so each is
  // done long before the next): 3e15 B leave, all inside the one billing month.
  auto doc = uplink_scenario();
  doc["uplink"]["streams"] = nlohmann::json::parse(R"([{ "name": "copy", "size": "300 TB", "every": "1 d" }])");
  const auto r = run(doc);
  REQUIRE(r->transfers().rows.size() == 10);
  const double sent = r->column_sum(2);  // bytes
  CHECK(sent == Approx(3e15).epsilon(kTol));
  CHECK(r->number("uplink/out_bytes") == Approx(sent).epsilon(kTol));
  CHECK(r->number("cost/egress_bytes") == Approx(sent).epsilon(kTol));
  CHECK(r->number("cost/uplink_egress_bytes") == Approx(sent).epsilon(kTol));
  CHECK(r->number("uplink/in_bytes") == 0.0);
  CHECK(r->number("uplink/transfers_done") == 10);
  CHECK(r->number("uplink/transfers_unfinished") == 0);
  CHECK(r->number("uplink/transfer_time_max_s") == Approx(24'000.0).epsilon(kTol));
  CHECK(r->number("uplink/queue_wait_max_s") == 0.0);
  CHECK(r->text("uplink/binds_day") == "never");
  // Each day carries 3e14 of the 1.08e15 B a day the port can.
  CHECK(r->number("uplink/out_utilisation_peak_day") == Approx(3e14 / kPortBytesPerDay).epsilon(kTol));
  CHECK(r->number("uplink/out_utilisation_mean") == Approx(3e15 / (10 * kPortBytesPerDay)).epsilon(kTol));
}

TEST_CASE("a transfer still in flight at the end is billed for the bytes that left, the rest is backlog",
          "[run][uplink]") {
  // 2.16e15 B due at 9 d: 1 d of the 2 d it needs fits in the run, 1.08e15 B leave.
  auto doc = uplink_scenario();
  doc["uplink"]["streams"] = nlohmann::json::parse(R"([{ "name": "big", "size": "2.16 PB", "start": "9 d" }])");
  const auto r = run(doc);
  CHECK(r->transfers().rows.empty());
  CHECK(r->number("uplink/out_bytes") == Approx(kPortBytesPerDay).epsilon(kTol));
  CHECK(r->number("cost/egress_bytes") == Approx(kPortBytesPerDay).epsilon(kTol));
  CHECK(r->number("uplink/out_backlog_end_bytes") == Approx(kPortBytesPerDay).epsilon(kTol));
  CHECK(r->number("uplink/out_backlog_max_bytes") == Approx(2.16e15).epsilon(kTol));
  CHECK(r->number("uplink/transfers_unfinished") == 1);
}

TEST_CASE("a stream that grows binds the port on the day its previous transfer no longer fits in a period",
          "[run][uplink]") {
  // Transfer k (due at k days) sends 5e14 + k x 1e14 B and needs (5 + k) / 10.8 days alone. Up to
  // k = 5 (1.0e15 B, 0.93 d) each is done before the next; k = 6 (1.1e15 B) needs 1.019 d, so the
  // one due at 7 d finds it still in flight: the port binds at 604,800 s, on day 8 (1-based).
  auto doc = uplink_scenario();
  doc["uplink"]["streams"] =
      nlohmann::json::parse(R"([{ "name": "results", "size": "500 TB", "grow_by": "100 TB", "every": "1 d" }])");
  const auto r = run(doc);
  CHECK(r->number("uplink/binds_at_s") == Approx(7 * kDayS).epsilon(kTol));
  CHECK(r->number("uplink/binds_day") == 8);
  CHECK(r->text("uplink/binding_queue") == "results");
  CHECK(r->number("uplink/queue_wait_max_s") > 0.0);
  // A day later the same stream fits: it never binds.
  const auto slower = run(doc, {"uplink.streams.0.grow_by=10 TB"});
  CHECK(slower->text("uplink/binds_at_s") == "never");
  CHECK(slower->text("uplink/binding_queue") == "none");
}

TEST_CASE("doubling the ports halves the transfer times and doubles the flat fee", "[run][uplink]") {
  auto doc = uplink_scenario();
  doc["uplink"]["streams"] = nlohmann::json::parse(R"([{ "name": "copy", "size": "540 TB", "every": "1 d" }])");
  const auto one = run(doc);
  const auto two = run(doc, {"uplink.ports.0.count=2"});
  // 5.4e14 B: 43,200 s on one port (12.5e9 B/s), 21,600 s on two.
  CHECK(one->number("uplink/transfer_time_max_s") == Approx(43'200.0).epsilon(kTol));
  CHECK(two->number("uplink/transfer_time_max_s") == Approx(21'600.0).epsilon(kTol));
  CHECK(two->number("uplink/capacity_bps") == 2 * one->number("uplink/capacity_bps"));
  // Owned egress is the ports' flat fee only (no metered tariff): 10 d of a 30.4375 d month.
  const double fee = kPort100gUsdPerMonth * 10.0 / 30.4375;
  CHECK(one->number("cost/owned/egress_usd") == Approx(fee).epsilon(kTol));
  CHECK(two->number("cost/owned/egress_usd") == Approx(2 * fee).epsilon(kTol));
  // The cloud bills the same bytes whatever the ports.
  CHECK(two->number("cost/" + kCloud + "/egress_usd") == Approx(one->number("cost/" + kCloud + "/egress_usd")).epsilon(kTol));
}

TEST_CASE("metered egress at the tier edges: the owned tariff and the cloud bill the bytes that left",
          "[run][uplink]") {
  // aws-internet: the first 100 GB of a month free, then $0.09/GB to 10 TB, $0.085/GB to 50 TB.
  //   10 TB: 9,900 GB x 0.09 = 891 USD;   50 TB: 891 + 40,000 GB x 0.085 = 4,291 USD.
  for (const auto& [size, usd] : std::vector<std::pair<std::string, double>>{{"10 TB", 891.0}, {"50 TB", 4'291.0}}) {
    INFO(size);
    auto doc = uplink_scenario();
    doc["uplink"]["streams"] = nlohmann::json::array({{{"name", "once"}, {"size", size}}});
    doc["economics"]["owned_egress"] = "aws-internet";
    const auto r = run(doc);
    const double fee = kPort100gUsdPerMonth * 10.0 / 30.4375;
    CHECK(r->number("cost/owned/egress_usd") == Approx(fee + usd).epsilon(kTol));
    CHECK(r->number("cost/" + kCloud + "/egress_usd") == Approx(usd).epsilon(kTol));
  }
}

TEST_CASE("egress is billed in the month it left: a transfer across a month boundary is split at its rate",
          "[run][uplink]") {
  // 2.16e15 B from 29.4375 d to 31.4375 d: half before the month's end (30.4375 d), half after.
  auto doc = uplink_scenario();
  doc["duration"] = "40 d";
  doc["uplink"]["streams"] = nlohmann::json::parse(R"([{ "name": "big", "size": "2.16 PB", "start": "29.4375 d" }])");
  doc["economics"]["owned_egress"] = "aws-internet";
  doc["economics"]["owned_egress_params"] = {{"free_bytes_per_month", 0}, {"tier_1_usd_per_gb", 1},
                                             {"tier_2_usd_per_gb", 1},    {"tier_3_usd_per_gb", 1},
                                             {"tier_4_usd_per_gb", 0.5}};
  const auto r = run(doc);
  // Each month: 1.08e15 B = 1,080,000 GB: 150,000 GB at 1 USD + 930,000 GB at 0.5 USD = 615,000 USD;
  // both in one month would be 150,000 + 2,010,000 x 0.5 = 1,155,000.
  const double fees = kPort100gUsdPerMonth * 40.0 / 30.4375;
  CHECK(r->number("cost/owned/egress_usd") == Approx(fees + 2 * 615'000.0).epsilon(kTol));
}

TEST_CASE("a job whose checkpoint copies take longer than its checkpoint interval binds the port at its next copy",
          "[run][uplink]") {
  // llama3-8b on one node, a checkpoint every 5 steps, each copied off-site whole. On a 1 Gb/s port a
  // copy (14 B x 8e9 parameters ~ 112 GB, ~900 s) outlasts the few minutes between checkpoints: the
  // second copy is due while the first is in flight. On 10 Tb/s (90 ms a copy) it never binds.
  const auto doc = nlohmann::json::parse(R"({
    "name": "copies", "seed": 1,
    "cluster": { "node": { "preset": "hgx-h100" }, "nodes": 1, "nodes_per_rack": 1 },
    "workload": { "training": [ { "name": "llama", "model": "llama3-8b", "nodes": 1, "steps": 20,
                                  "parallelism": { "tp": 8 }, "checkpoint": { "interval": 5 } } ] },
    "uplink": { "ports": [ { "speed": "1 Gb/s", "count": 1 } ], "checkpoint_copies": { "every_nth": 1 } } })");
  const auto slow = run(doc);
  const auto& rows = slow->transfers().rows;
  // Checkpoints after steps 5, 10 and 15 (none after the last step); the run ends when the copies do.
  REQUIRE(rows.size() == 3);
  CHECK(std::get<std::string>(rows[0][0]) == "checkpoint-copies/llama");
  const double first_due = std::get<double>(rows[0][3]), second_due = std::get<double>(rows[1][3]);
  const double first_done = std::get<double>(rows[0][5]);
  REQUIRE(first_done > second_due);
  CHECK(slow->number("uplink/binds_at_s") == Approx(second_due).epsilon(kTol));
  CHECK(slow->text("uplink/binding_queue") == "checkpoint-copies/llama");
  // The copies queue: the second starts when the first is done.
  CHECK(std::get<double>(rows[1][4]) == Approx(first_done).epsilon(kTol));
  CHECK(first_due > 0.0);
  // Every copy is the whole checkpoint: 14 B per parameter.
  CHECK(std::get<double>(rows[0][2]) == std::get<double>(rows[2][2]));
  CHECK(slow->number("uplink/out_bytes") == Approx(slow->column_sum(2)).epsilon(kTol));

  const auto fast = run(doc, {"uplink.ports.0.speed=10 Tb/s"});
  CHECK(fast->text("uplink/binds_at_s") == "never");
  // Every other checkpoint only: copies of checkpoints 2 (after step 10) only.
  const auto every_second = run(doc, {"uplink.checkpoint_copies.every_nth=2"});
  CHECK(every_second->transfers().rows.size() == 1);
  // Training itself does not wait for its copies.
  CHECK(fast->number("workload/jobs_completed") == slow->number("workload/jobs_completed"));
}

TEST_CASE("ports without transfers add no event; files with /economics/ports still load, with a notice",
          "[run][uplink]") {
  auto without = uplink_scenario();
  without.erase("uplink");
  auto legacy = uplink_scenario();
  legacy.erase("uplink");
  legacy["economics"]["ports"] = nlohmann::json::parse(R"([{ "speed": "100 Gb/s", "count": 1 }])");
  const auto a = run(without);
  const auto b = run(uplink_scenario());
  const auto c = run(legacy);
  CHECK(a->text("engine/fingerprint") == b->text("engine/fingerprint"));
  CHECK(a->number("engine/events") == b->number("engine/events"));
  REQUIRE(c->notices.size() == 1);
  CHECK_THAT(c->notices[0], Catch::Contains("/economics/ports") && Catch::Contains("/uplink/ports"));
  CHECK(c->number("cost/owned/egress_usd") == Approx(b->number("cost/owned/egress_usd")).epsilon(kTol));
  CHECK(b->number("cost/owned/egress_usd") > 0.0);
  CHECK(a->number("cost/owned/egress_usd") == 0.0);
}

TEST_CASE("bad uplink input exits with the JSON pointer, the value and what was expected", "[run][uplink]") {
  auto doc = uplink_scenario();
  doc["uplink"]["streams"] = nlohmann::json::parse(R"([{ "name": "copy", "size": "1 TB", "every": "1 d" }])");
  CHECK(error_of(doc, {}) == "no error");
  struct Case {
    std::vector<std::string> sets;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"uplink.streams.0.size=-1 TB"}, R"(<test>:/uplink/streams/0/size: expected a positive data size)"},
      {{"uplink.streams.0.every=0 s"}, R"(<test>:/uplink/streams/0/every: expected a positive duration)"},
      {{"uplink.streams.0.direction=sideways"}, "<test>:/uplink/streams/0/direction: "},
      {{"uplink.streams.0.rate=1 Gb/s"}, "<test>:/uplink/streams/0/rate: expected either size"},
      {{R"(uplink.streams=[{"name": "x", "every": "1 d"}])"}, "<test>:/uplink/streams/0: expected size"},
      {{R"(uplink.streams.1={"name": "copy", "size": "1 TB"})"}, "<test>:/uplink/streams/1/name: expected each"},
      {{"uplink.ports=[]"}, "<test>:/uplink/ports: expected at least one port"},
      {{"uplink.ports.0.count=0"}, "<test>:/uplink/ports/0/count: expected a positive integer, got 0"},
      {{R"(uplink.checkpoint_copies={"every_nth": 1})"}, "<test>:/uplink/checkpoint_copies: no training job"},
      // The site prices have no 1 Gb/s port: the price list is where it is missing.
      {{"uplink.ports.0.speed=1 Gb/s"}, "<test>:/economics/site_prices: no unmetered port price for 1 Gb/s"},
  };
  for (const auto& c : cases) {
    INFO(c.sets.front());
    CHECK_THAT(error_of(doc, c.sets), Catch::Contains(c.message));
  }
  // A repeating stream with no end.
  auto endless = doc;
  endless.erase("duration");
  endless["economics"]["horizon"] = "30 d";
  CHECK_THAT(error_of(endless, {}), Catch::Contains("<test>:/uplink/streams/0/every: a repeating stream needs"));
}
