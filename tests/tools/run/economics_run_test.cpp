// /economics through the whole stack: scenario JSON -> DatacenterConfig -> the economics subsystem
// listening to the run's signals -> summary keys and cost series.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
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

// One HGX H100 node with round power figures (idle 8 x 100 + 1,000 = 1,800 W; full load
// 8 x 700 + 2,000 = 7,600 W), one billing month (730.5 h), one job holding its 8 GPUs at full load
// for the first half of it; round prices.
nlohmann::json one_node_scenario() {
  return nlohmann::json::parse(R"({
    "name": "one node, one month", "seed": 1, "duration": "730.5 h",
    "cluster": { "node": { "preset": "hgx-h100", "gpu_idle_power": "100 W", "gpu_max_power": "700 W",
                           "other_idle_power": "1000 W", "other_max_power": "2000 W" },
                 "nodes": 1, "nodes_per_rack": 1 },
    "workload": { "jobs": [ { "name": "train", "nodes": 1, "work": "365.25 h", "gpu_utilization": 1.0 } ] },
    "economics": {
      "node_price": "hgx-h100", "node_price_params": { "usd_per_node": 300000 },
      "site_prices": "us",
      "site_prices_params": { "colocation_usd_per_kw_month": 200, "pdu_usd_per_kw": 100,
                              "support_usd_per_node_year": 12000, "staff_usd_per_mw_year": 120000,
                              "staff_usd_per_node_year": 0, "licence_usd_per_gpu_year": 0 },
      "contracted_power": "10 kW",
      "electricity": "0.10 USD/kWh",
      "spares_fraction": 0.05,
      "depreciation": { "method": "straight_line", "years": 5 },
      "cloud": [ { "offer": "aws-p5-on-demand",
                   "offer_params": { "usd_per_gpu_hour": 4, "storage_usd_per_gb_month": 0 } } ]
    } })");
}

using Run = dcsim::test::RunOutputs;

std::unique_ptr<Run> run(nlohmann::json doc, const std::vector<std::string>& sets = {}) {
  return dcsim::test::run_scenario_json(std::move(doc), sets);
}

const std::string kCloud = "aws-p5-on-demand";

}  // namespace

TEST_CASE("one node for one month: the TCO of owning and renting by hand", "[run][economics]") {
  const auto r = run(one_node_scenario());
  // Capex: server 300,000 + PDUs 10 kW x 100 + spares 5% of 300,000 = 316,000 (no fabric, air only:
  // no cold plates, CDUs or doors; colocation: no building).
  CHECK(r->number("cost/capex_usd") == Approx(316'000.0).epsilon(kTol));
  // GPU time: 8 GPUs x 365.25 h = 2,922 GPU-h.
  CHECK(r->number("cost/delivered_gpu_hours") == Approx(2'922.0).epsilon(kTol));
  // Energy (no facility: the IT power step function): 365.25 h x 7.6 kW + 365.25 h x 1.8 kW
  // = 2,775.9 + 657.45 = 3,433.35 kWh, at 0.10 USD/kWh = 343.335 USD; the same kWh as energy/it_kwh.
  CHECK(r->number("cost/energy_kwh") == Approx(3'433.35).epsilon(kTol));
  CHECK(r->number("cost/energy_kwh") == Approx(r->number("energy/it_kwh")).epsilon(kTol));
  CHECK(r->number("cost/owned/energy_usd") == Approx(343.335).epsilon(kTol));
  // Owned TCO = cash out (316,000 + fees + energy) - book value after one month of a 60-month
  // straight line (316,000 x 59/60): 316,000 / 60 + fees + energy. Fees: colocation 10 kW x 200
  // + support 12,000 / 12 + staff 0.01 MW x 120,000 / 12 = 2,000 + 1,000 + 100 = 3,100.
  const double owned = 316'000.0 / 60.0 + 3'100.0 + 343.335;  // 8,710.0017
  CHECK(r->number("cost/owned/tco_usd") == Approx(owned).epsilon(kTol));
  CHECK(r->number("cost/owned/usd_per_gpu_hour") == Approx(owned / 2'922.0).epsilon(kTol));
  CHECK(r->number("cost/owned/egress_usd") == 0.0);
  // Renting: 2,922 GPU-h x 4 USD = 11,688 USD, 4 USD per delivered GPU-hour.
  CHECK(r->number("cost/" + kCloud + "/tco_usd") == Approx(11'688.0).epsilon(kTol));
  CHECK(r->number("cost/" + kCloud + "/usd_per_gpu_hour") == Approx(4.0).epsilon(kTol));
  CHECK(r->number("cost/" + kCloud + "/energy_usd") == 0.0);
  // Cash out after month 1: 319,443 owned vs 11,688 rented: owning has not paid for itself.
  CHECK(std::get<std::string>(r->sink.summary("cost/break_even_month").value) == "never");
  const auto& owned_series = r->sink.series("cost/owned/cumulative_usd");
  REQUIRE(owned_series.value.size() == 1);
  CHECK(owned_series.value[0] == Approx(316'000.0 + 3'100.0 + 343.335).epsilon(kTol));
  CHECK(owned_series.time_ns[0] == std::int64_t{2'629'800} * 1'000'000'000);
  CHECK(r->sink.summary("cost/owned/tco_usd").unit == "USD");
  CHECK(r->sink.summary("cost/owned/usd_per_gpu_hour").unit == "USD/GPU-h");
}

TEST_CASE("energy and egress shares are their parts of the TCO", "[run][economics]") {
  const auto r = run(one_node_scenario());
  for (const std::string& option : {std::string("owned"), kCloud}) {
    INFO(option);
    const double tco = r->number("cost/" + option + "/tco_usd");
    REQUIRE(tco > 0);
    CHECK(r->number("cost/" + option + "/energy_share") == Approx(r->number("cost/" + option + "/energy_usd") / tco));
    CHECK(r->number("cost/" + option + "/egress_share") == Approx(r->number("cost/" + option + "/egress_usd") / tco));
  }
  // The cloud's price includes its power: renting has no energy bill of its own.
  CHECK(r->number("cost/" + kCloud + "/energy_share") == 0.0);
  CHECK(r->number("cost/owned/energy_share") > 0.0);
}

TEST_CASE("doubling the electricity price doubles the energy cost and changes nothing else", "[run][economics]") {
  const auto base = run(one_node_scenario());
  const auto twice = run(one_node_scenario(), {"economics.electricity=0.20 USD/kWh"});
  const double energy = base->number("cost/owned/energy_usd");
  CHECK(energy > 0);
  CHECK(twice->number("cost/owned/energy_usd") == Approx(2 * energy).epsilon(kTol));
  CHECK(twice->number("cost/owned/tco_usd") == Approx(base->number("cost/owned/tco_usd") + energy).epsilon(kTol));
  for (const std::string& key : std::vector<std::string>{"cost/capex_usd", "cost/delivered_gpu_hours", "cost/energy_kwh",
                                "cost/owned/egress_usd", "cost/" + kCloud + "/tco_usd",
                                "cost/" + kCloud + "/usd_per_gpu_hour", "energy/it_kwh"}) {
    INFO(key);
    CHECK(twice->number(key) == base->number(key));
  }
}

// One node training Llama 3 8B for 1,000 steps of 64 sequences x 4,096 tokens, no checkpoints.
nlohmann::json one_node_training(const std::string& duration) {
  auto doc = one_node_scenario();
  doc["duration"] = duration;
  doc["workload"] = nlohmann::json::parse(R"({ "training": [ { "name": "llama", "model": "llama3-8b", "nodes": 1,
      "parallelism": { "tp": 1, "zero_stage": 1 }, "global_batch": 64, "sequence_length": 4096, "steps": 1000 } ] })");
  return doc;
}

TEST_CASE("a training job's tokens and model FLOPs price a million tokens and a PFLOP", "[run][economics]") {
  const auto r = run(one_node_training("730.5 h"));
  // Every step kept: 1,000 steps x 64 x 4,096 tokens = 262,144,000 tokens.
  CHECK(r->number("cost/training_tokens") == Approx(262'144'000.0).epsilon(kTol));
  const double pflop = r->number("cost/model_pflop");
  // Model FLOPs are at least the 6 N D of the dense weights (Llama 3 8B: 8.03e9 parameters,
  // embeddings included, so within the attention term's share of it).
  CHECK(pflop > 6 * 7.0e9 * 262'144'000.0 / 1e15);
  CHECK(pflop < 6 * 8.1e9 * 262'144'000.0 / 1e15 * 1.2);
  for (const std::string& option : {std::string("owned"), kCloud}) {
    INFO(option);
    const double tco = r->number("cost/" + option + "/tco_usd");
    CHECK(r->number("cost/" + option + "/usd_per_million_tokens") == Approx(tco / 262.144).epsilon(kTol));
    CHECK(r->number("cost/" + option + "/usd_per_pflop") == Approx(tco / pflop).epsilon(kTol));
  }
  CHECK(r->sink.summary("cost/owned/usd_per_million_tokens").unit == "USD/Mtoken");
}

TEST_CASE("batch jobs on the same cluster carry their share of the cost, not the tokens", "[run][economics]") {
  // A 100-hour batch job first, then the training job, on the one node: the tokens carry the
  // training job's share of each option's TCO, 8 x its hours over 8 x (100 h + its hours).
  auto doc = one_node_training("730.5 h");
  doc["workload"]["jobs"] = nlohmann::json::parse(R"([ { "name": "batch", "nodes": 1, "work": "100 h" } ])");
  doc["workload"]["training"][0]["arrival"] = "1 s";
  const auto r = run(doc);
  const double train_h = r->number("makespan_s") / 3600 - 100;
  REQUIRE(train_h > 0);
  CHECK(r->number("cost/training_gpu_hours") == Approx(8 * train_h).epsilon(1e-9));
  CHECK(r->number("cost/delivered_gpu_hours") == Approx(8 * (100 + train_h)).epsilon(1e-9));
  const double share = train_h / (100 + train_h);
  for (const std::string& option : {std::string("owned"), kCloud}) {
    INFO(option);
    const double tco = r->number("cost/" + option + "/tco_usd");
    CHECK(r->number("cost/" + option + "/usd_per_million_tokens") == Approx(tco * share / 262.144).epsilon(kTol));
  }
  // Renting on demand bills GPU-hours, so the tokens' share is exactly their GPU-hours at the price.
  CHECK(r->number("cost/" + kCloud + "/usd_per_million_tokens") == Approx(4.0 * 8 * train_h / 262.144).epsilon(1e-9));
}

TEST_CASE("a run cut before a training job ends prices the whole steps it did", "[run][economics]") {
  // The job alone from time 0 without checkpoints: its makespan is 1,000 step times, so a run cut
  // at 1,000 s has done floor(1,000 s / step time) whole steps (the step in flight is not work).
  const auto whole = run(one_node_training("730.5 h"));
  const double step_s = whole->number("makespan_s") / 1000;
  const auto cut = run(one_node_training("1000 s"));
  const double steps = std::floor(1000 / step_s);
  REQUIRE(steps > 0);
  CHECK(cut->number("cost/training_tokens") == Approx(steps * 64 * 4096).epsilon(kTol));
  CHECK(cut->number("cost/model_pflop") == Approx(whole->number("cost/model_pflop") * steps / 1000).epsilon(kTol));
}

TEST_CASE("batch jobs deliver no tokens: the per-token cost is none, not zero", "[run][economics]") {
  const auto r = run(one_node_scenario());
  CHECK(r->number("cost/training_tokens") == 0.0);
  const auto& v = r->sink.summary("cost/owned/usd_per_million_tokens").value;
  REQUIRE(std::holds_alternative<std::string>(v));
  CHECK(std::get<std::string>(v) == "none");
}

// The one-node scenario with its job busy the whole month (7.6 kW for 730.5 h = 30 days + 10.5 h)
// under a daily time-of-use tariff: 0.06 USD/kWh, 0.20 from 16:00 to 21:00.
nlohmann::json one_node_time_of_use() {
  auto doc = one_node_scenario();
  doc["workload"]["jobs"][0]["work"] = "730.5 h";
  doc["economics"].erase("electricity");
  doc["economics"]["electricity_tariff"] = nlohmann::json::parse(R"({ "repeat": "daily", "points": [
      { "hour": 0, "price": "0.06 USD/kWh" }, { "hour": 16, "price": "0.20 USD/kWh" },
      { "hour": 21, "price": "0.06 USD/kWh" } ] })");
  return doc;
}

TEST_CASE("a time-of-use tariff prices energy at the price of the hour it was drawn", "[run][economics]") {
  // A day integrates to 19 h x 0.06 + 5 h x 0.20 = 2.14 USD per kW; the run is 30 days and then
  // 10.5 h from midnight, all at 0.06: 0.63; at 7.6 kW: (64.2 + 0.63) x 7.6 = 492.708 USD.
  const auto r = run(one_node_time_of_use());
  CHECK(r->number("cost/owned/energy_usd") == Approx(492.708).epsilon(kTol));
  // Starting at 16:00 the last 10.5 h take the 5 expensive hours: 1.0 + 5.5 x 0.06 = 1.33 USD/kW,
  // (64.2 + 1.33) x 7.6 = 498.028 USD; the energy and everything but its price stay.
  const auto late = run(one_node_time_of_use(), {"economics.electricity_tariff.start_offset=16 h"});
  CHECK(late->number("cost/owned/energy_usd") == Approx(498.028).epsilon(kTol));
  CHECK(late->number("cost/energy_kwh") == r->number("cost/energy_kwh"));
}

TEST_CASE("a time-of-use tariff from a CSV file prices like the same points inline", "[run][economics]") {
  const auto dir = std::filesystem::temp_directory_path() / "dcsim-test-tou-tariff";
  std::filesystem::create_directories(dir);
  {
    std::ofstream csv(dir / "tariff.csv");
    csv << "# summer weekday, illustrative\nhour,usd_per_kwh\n0,0.06\n16,0.20\n21,0.06\n";
  }
  auto doc = one_node_time_of_use();
  doc["economics"]["electricity_tariff"] = {{"file", (dir / "tariff.csv").string()}};
  const auto from_file = run(doc);
  const auto inline_points = run(one_node_time_of_use());
  CHECK(from_file->number("cost/owned/energy_usd") == Approx(inline_points->number("cost/owned/energy_usd")).epsilon(kTol));

  // Problems name the file and line (or the pointer), all at once.
  const auto error_of = [&](const std::string& rows, const std::vector<std::string>& sets = {}) -> std::string {
    {
      std::ofstream csv(dir / "bad.csv");
      csv << rows;
    }
    auto bad = one_node_time_of_use();
    bad["economics"]["electricity_tariff"] = {{"file", (dir / "bad.csv").string()}};
    try {
      run(bad, sets);
    } catch (const dcsim::sim::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string file = (dir / "bad.csv").string();
  CHECK_THAT(error_of("time,price\n0,0.1\n"), Catch::Contains(file + ":1: expected the header `hour,usd_per_kwh`"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n5,-0.1\n"), Catch::Contains(file + ":3: column usd_per_kwh:"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n5,x\n6,0.1,2\n"),
             Catch::Contains(file + ":3: column usd_per_kwh:") && Catch::Contains(file + ":4: expected two columns"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n8,0.2\n7,0.1\n"),
             Catch::Contains(file + ":4: column hour: expected hours that start at 0, strictly increase") &&
                 Catch::Contains("got 7 after 8"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n1,0.1\n"), Catch::Contains(file + ":2: column hour:"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n25,0.2\n"), Catch::Contains(file + ":3: column hour:"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n25,0.2\n", {"economics.electricity_tariff.repeat=weekly"}),
             Catch::Equals("no error"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n"), Catch::Contains(file + ": no prices after the header"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n", {"economics.electricity=0.1 USD/kWh"}),
             Catch::Contains("<test>:/economics/electricity_tariff: given with /economics/electricity"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n", {"economics.electricity_tariff.repeat=none",
                                                    "economics.electricity_tariff.start_offset=1 h"}),
             Catch::Contains("<test>:/economics/electricity_tariff/start_offset: only for a repeating tariff"));
  CHECK_THAT(error_of("hour,usd_per_kwh\n0,0.1\n", {"economics.electricity_tariff.start_offset=25 h"}),
             Catch::Contains("<test>:/economics/electricity_tariff/start_offset: expected an offset within the period"));
  auto neither = one_node_time_of_use();
  neither["economics"]["electricity_tariff"].erase("points");
  CHECK_THROWS_WITH(run(neither), Catch::Contains("<test>:/economics/electricity_tariff: expected exactly one of"));
  CHECK_THROWS_WITH(run(one_node_time_of_use(), {"economics.electricity_tariff.points.1.price=-1 USD/kWh"}),
                    Catch::Contains("<test>:/economics/electricity_tariff/points/1/price: "));
  CHECK_THROWS_WITH(run(one_node_time_of_use(), {"economics.electricity_tariff.points.2.hour=10"}),
                    Catch::Contains("<test>:/economics/electricity_tariff/points/2/hour: expected hours"));
}

TEST_CASE("the break-even month is the first month the owned cumulative series falls below the rented",
          "[run][economics]") {
  // Two years of one node busy the whole time at a low node price: month 1 owned = 22,000 capex +
  // 3,100 fees + 555.18 energy = 25,655 > 23,376 rented (8 x 730.5 h x 4 USD); month 2 owned =
  // 29,310 < 46,752: break-even in month 2.
  auto doc = one_node_scenario();
  doc["duration"] = "17532 h";
  doc["workload"]["jobs"][0]["work"] = "17532 h";
  doc["economics"]["node_price_params"]["usd_per_node"] = 20000;
  const auto r = run(doc);
  const auto& own = r->sink.series("cost/owned/cumulative_usd").value;
  const auto& rent = r->sink.series("cost/" + kCloud + "/cumulative_usd").value;
  REQUIRE(own.size() == 24);
  REQUIRE(rent.size() == 24);
  std::size_t first = 0;
  while (first < own.size() && !(own[first] < rent[first])) ++first;
  REQUIRE(first < own.size());
  CHECK(r->number("cost/break_even_month") == static_cast<double>(first + 1));
  CHECK(r->number("cost/" + kCloud + "/break_even_month") == static_cast<double>(first + 1));
  CHECK(first + 1 == 2);
  CHECK(rent[0] == Approx(23'376.0).epsilon(kTol));
}

TEST_CASE("bad economics input exits with the JSON pointer", "[run][economics]") {
  const auto error_of = [](nlohmann::json doc, const std::vector<std::string>& sets) -> std::string {
    try {
      run(std::move(doc), sets);
    } catch (const dcsim::sim::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  const auto doc = one_node_scenario();
  struct Case {
    std::vector<std::string> sets;
    std::string pointer;
  };
  const std::vector<Case> cases{
      {{"economics.node_price_params.usd_per_node=-1"}, "<test>:/economics/node_price_params/usd_per_node: "},
      {{"economics.depreciation.years=0"}, "<test>:/economics/depreciation/years: "},
      {{"economics.depreciation.years=0.01"}, "<test>:/economics/depreciation/years: "},
      {{"economics.cloud.0.offer=nope"}, "<test>:/economics/cloud/0/offer: "},
      {{"economics.cloud.0.committed_gpus=8"}, "<test>:/economics/cloud/0/committed_gpus: "},
      {{"economics.electricity=-0.1 USD/kWh"}, "<test>:/economics/electricity: "},
      {{"economics.bogus=1"}, "<test>:/economics/bogus: "},
      {{"economics.egress_per_month=1 TB"}, "<test>:/economics/egress_per_month: "},
      {{R"(economics.repairs=[{"class": "gpu", "price": "1 USD"}])"}, "<test>:/economics/repairs/0/class: "},
      {{"economics.fabric_prices=ethernet"}, "<test>:/economics/fabric_prices: "},
      {{"economics.site_prices_params.nope=1"}, "<test>:/economics/site_prices_params/nope: "},
  };
  for (const auto& c : cases) {
    INFO(c.sets.front());
    CHECK_THAT(error_of(doc, c.sets), Catch::Contains(c.pointer));
  }
  // No /duration, no horizon and no work: the run would simulate no time, so nothing to price.
  auto no_duration = doc;
  no_duration.erase("duration");
  no_duration["workload"]["jobs"] = nlohmann::json::array();
  CHECK_THAT(error_of(no_duration, {}), Catch::Contains("<test>:/economics/horizon: missing; without /duration and "
                                                        "without work"));
  // Random faults need a part price per class (or repair_default).
  CHECK_THAT(error_of(doc, {"reliability.faults=llama3_405b"}), Catch::Contains("<test>:/economics/repairs: "));
  CHECK_NOTHROW(run(doc, {"reliability.faults=llama3_405b", "economics.repair_default=1000 USD"}));
}

TEST_CASE("pricing a run adds no event: the same event sequence with and without /economics", "[run][economics]") {
  auto without = one_node_scenario();
  without.erase("economics");
  const auto a = run(without, {R"(reliability={"faults": "llama3_405b", "scale": 20000})"});
  const auto b = run(one_node_scenario(),
                     {R"(reliability={"faults": "llama3_405b", "scale": 20000})", "economics.repair_default=5000 USD"});
  CHECK(std::get<std::string>(a->sink.summary("engine/fingerprint").value) ==
        std::get<std::string>(b->sink.summary("engine/fingerprint").value));
  CHECK(a->number("engine/events") == b->number("engine/events"));
  // The faults are priced: at least one fired, and owning costs more than without repairs.
  const double faults = b->number("reliability/faults_total");
  REQUIRE(faults > 0);
  const auto c = run(one_node_scenario(),
                     {R"(reliability={"faults": "llama3_405b", "scale": 20000})", "economics.repair_default=0 USD"});
  CHECK(b->number("cost/owned/tco_usd") - c->number("cost/owned/tco_usd") == Approx(5000.0 * faults).epsilon(kTol));
}

TEST_CASE("the summary breaks capex into categories and each TCO into items, each summing exactly",
          "[run][economics][breakdown]") {
  const auto r = run(one_node_scenario());
  // Capex by hand (the first test): the server 300,000; power gear: PDUs 10 kW x 100 = 1,000;
  // spares 5% of 300,000 = 15,000; no fabric, air only, colocation: the rest 0.
  const std::vector<std::pair<std::string, double>> capex{
      {"servers", 300'000.0}, {"switches", 0.0}, {"cables_optics", 0.0}, {"nics", 0.0},
      {"cooling", 0.0},       {"power", 1'000.0}, {"building", 0.0},     {"spares", 15'000.0}};
  double sum = 0.0;
  for (const auto& [category, usd] : capex) {
    INFO(category);
    CHECK(r->number("cost/capex/" + category + "_usd") == Approx(usd).epsilon(kTol));
    CHECK(r->sink.summary("cost/capex/" + category + "_usd").unit == "USD");
    sum += r->number("cost/capex/" + category + "_usd");
  }
  CHECK(sum == r->number("cost/capex_usd"));
  // Owning, item by item: capex 316,000 in month 1, minus the book value left after one month of
  // 60 (316,000 x 59/60), electricity 343.335, colocation 2,000, support 1,000, staff 100.
  const std::vector<std::pair<std::string, double>> owned{
      {"capex", 316'000.0},  {"interest", 0.0},    {"book_value_credit", -316'000.0 * 59.0 / 60.0},
      {"energy", 343.335},   {"colocation", 2'000.0}, {"ports", 0.0},
      {"support", 1'000.0},  {"staff", 100.0},     {"licences", 0.0},
      {"repairs", 0.0},      {"metered_egress", 0.0}};
  sum = 0.0;
  for (const auto& [item, usd] : owned) {
    INFO(item);
    CHECK(r->number("cost/owned/breakdown/" + item + "_usd") == Approx(usd).epsilon(kTol));
    sum += r->number("cost/owned/breakdown/" + item + "_usd");
  }
  CHECK(sum == r->number("cost/owned/tco_usd"));
  // Renting: 2,922 GPU-hours x 4 USD, no egress, no storage.
  CHECK(r->number("cost/" + kCloud + "/breakdown/gpu_hours_usd") == Approx(11'688.0).epsilon(kTol));
  CHECK(r->number("cost/" + kCloud + "/breakdown/gpu_hours_usd") + r->number("cost/" + kCloud + "/breakdown/egress_usd") +
            r->number("cost/" + kCloud + "/breakdown/storage_usd") ==
        r->number("cost/" + kCloud + "/tco_usd"));
}

TEST_CASE("without contracted power the contract is the nodes' nameplate, not their full-load draw",
          "[run][economics]") {
  // The same node without /economics/contracted_power: colocation at 200 USD per kW-month on the
  // hgx-h100 preset's 10.2 kW rating (what its PSUs are sized for) = 2,040 USD; a rating set by
  // hand moves it; 0 falls back to the full-load draw, 8 x 700 + 2,000 = 7.6 kW = 1,520 USD.
  auto doc = one_node_scenario();
  doc["economics"].erase("contracted_power");
  CHECK(run(doc)->number("cost/owned/breakdown/colocation_usd") == Approx(2'040.0).epsilon(kTol));
  CHECK(run(doc, {"cluster.node.rated_power=12 kW"})->number("cost/owned/breakdown/colocation_usd") ==
        Approx(2'400.0).epsilon(kTol));
  CHECK(run(doc, {"cluster.node.rated_power=0 W"})->number("cost/owned/breakdown/colocation_usd") ==
        Approx(1'520.0).epsilon(kTol));
}

TEST_CASE("without a horizon the run's own span is priced, and the summary says so", "[run][economics][period]") {
  // With /duration the run stops there: 730.5 h, all of it simulated.
  const auto r = run(one_node_scenario());
  CHECK(r->number("cost/priced_period_s") == 730.5 * 3600);
  CHECK(std::get<std::string>(r->sink.summary("cost/priced_period_basis").value) == "run");
  CHECK(r->number("cost/simulated_s") == 730.5 * 3600);
  CHECK(r->number("cost/simulated_fraction") == 1.0);
  CHECK(r->number("cost/energy_after_run_kwh") == 0.0);
  CHECK(r->sink.summary().count("cost/warning") == 0);

  // Without /duration (refused before: "no period to price"), until the job's end at 365.25 h:
  // half a billing month. Energy 365.25 h x 7.6 kW = 2,775.9 kWh; fees pro rata: colocation 1,000,
  // support 500, staff 50; capital: 316,000 / 120 (half a month of a 60-month straight line).
  auto doc = one_node_scenario();
  doc.erase("duration");
  const auto own = run(doc);
  CHECK(own->number("cost/priced_period_s") == Approx(365.25 * 3600).epsilon(kTol));
  CHECK(std::get<std::string>(own->sink.summary("cost/priced_period_basis").value) == "run");
  CHECK(own->number("cost/months") == 1);
  CHECK(own->number("cost/energy_kwh") == Approx(2'775.9).epsilon(kTol));
  CHECK(own->number("cost/owned/breakdown/colocation_usd") == Approx(1'000.0).epsilon(kTol));
  CHECK(own->number("cost/owned/breakdown/support_usd") == Approx(500.0).epsilon(kTol));
  CHECK(own->number("cost/owned/tco_usd") ==
        Approx(316'000.0 / 120.0 + 1'000.0 + 500.0 + 50.0 + 277.59).epsilon(kTol));
}

TEST_CASE("a horizon far past a short run is priced as asked, with the energy after the run and a warning",
          "[run][economics][period]") {
  // One hour simulated (the job busy at 7.6 kW), a billing month (730.5 h) asked for: the site
  // draws 7.6 kW for the other 729.5 h, 5,544.2 kWh, 7.6 of the 5,551.8 kWh priced simulated.
  const auto r = run(one_node_scenario(), {"duration=1 h", "economics.horizon=730.5 h"});
  CHECK(r->number("cost/priced_period_s") == 730.5 * 3600);
  CHECK(std::get<std::string>(r->sink.summary("cost/priced_period_basis").value) == "horizon");
  CHECK(r->number("cost/simulated_s") == 3600.0);
  CHECK(r->number("cost/simulated_fraction") == Approx(1.0 / 730.5).epsilon(kTol));
  CHECK(r->number("cost/energy_after_run_kwh") == Approx(5'544.2).epsilon(kTol));
  CHECK(r->number("cost/energy_kwh") == Approx(5'551.8).epsilon(kTol));
  CHECK(r->number("cost/delivered_gpu_hours") == Approx(8.0).epsilon(kTol));
  // 0.137% of the horizon simulated: under 1%, so the summary warns, naming both spans.
  const auto& warning = r->sink.summary("cost/warning").value;
  REQUIRE(std::holds_alternative<std::string>(warning));
  CHECK_THAT(std::get<std::string>(warning),
             Catch::Contains("the run simulated 1 h, 0.137% of the 30 d 10 h 30 min horizon priced") &&
                 Catch::Contains("past the run the site draws its last power"));
  // A tenth of it simulated: priced the same way, no warning.
  const auto tenth = run(one_node_scenario(), {"duration=73.05 h", "economics.horizon=730.5 h"});
  CHECK(tenth->number("cost/simulated_fraction") == Approx(0.1).epsilon(kTol));
  CHECK(tenth->sink.summary().count("cost/warning") == 0);
}

TEST_CASE("economics prices capex alone: no cloud option, no horizon", "[run][economics]") {
  auto doc = one_node_scenario();
  doc["economics"].erase("cloud");  // refused before: at least one cloud option was required
  doc.erase("duration");
  const auto r = run(doc);
  CHECK(r->number("cost/capex_usd") == Approx(316'000.0).epsilon(kTol));
  CHECK(r->number("cost/owned/tco_usd") > 0);
  CHECK(r->sink.summary().count("cost/break_even_month") == 0);
  CHECK(r->sink.summary().count("cost/" + kCloud + "/tco_usd") == 0);
}
