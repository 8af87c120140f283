// /economics through the whole stack: scenario JSON -> DatacenterConfig -> the economics subsystem
// listening to the run's signals -> summary keys and cost series.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tools/run/run_scenario.hpp"

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

struct Run {
  dcsim::sim::MemoryTraceSink sink;
  double number(const std::string& path) const {
    const auto& v = sink.summary(path).value;
    if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
    return std::get<double>(v);
  }
};

std::unique_ptr<Run> run(nlohmann::json doc, const std::vector<std::string>& sets = {}) {
  dcsim::models::ModelRegistries registries;
  dcsim::models::register_builtin_models(registries);
  const auto scenario = load_scenario_json(std::move(doc), "<test>", sets, {}, registries);
  auto r = std::make_unique<Run>();
  simulate(scenario, registries, r->sink);
  return r;
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
  // No /duration and no horizon: nothing says what period to price.
  auto no_duration = doc;
  no_duration.erase("duration");
  CHECK_THAT(error_of(no_duration, {}), Catch::Contains("<test>:/economics/horizon: "));
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
