// /storage/integrity: checksums and injected corruption reach the store's config, with their
// documented defaults, and a store that corrupts checkpoints it does not verify needs the loss
// checks that are then the only defence (/reliability/sdc_detection). A training job's
// /dataset: its input read from a pool of the store.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

using namespace dcsim::tools::scenario;
using nlohmann::json;

namespace {

json shipped_store_scenario() {
  std::ifstream in(testing::source_dir() / "scenarios/osd-failure-restart.json");
  return json::parse(in);
}

Scenario load(const json& doc) {
  const auto registries = testing::make_registries();
  return load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
}

}  // namespace

TEST_CASE("storage integrity keys map to the store, with defaults that inject nothing and verify nothing",
          "[tools][scenario][storage]") {
  json doc = shipped_store_scenario();
  const Scenario plain = load(doc);
  REQUIRE(plain.storage);
  CHECK_FALSE(plain.storage->integrity.verify);
  CHECK(plain.storage->integrity.corruptions_per_pb == 0.0);
  CHECK(plain.storage->integrity.hash_bytes_per_s_per_gpu == Approx(19.4e9));  // XXH64, one core
  CHECK_FALSE(plain.cluster.sdc_detection);

  doc["storage"]["integrity"] = {{"verify", true}, {"corruptions_per_pb", 3.5}, {"hash_bandwidth", "80 Gbps"}};
  const Scenario checked = load(doc);
  CHECK(checked.storage->integrity.verify);
  CHECK(checked.storage->integrity.corruptions_per_pb == 3.5);
  CHECK(checked.storage->integrity.hash_bytes_per_s_per_gpu == Approx(10e9));
  CHECK_FALSE(checked.cluster.sdc_detection);  // verified: nothing corrupt is ever loaded
}

TEST_CASE("a store that corrupts checkpoints without verifying them needs sdc_detection",
          "[tools][scenario][storage]") {
  json doc = shipped_store_scenario();
  doc["storage"]["integrity"] = {{"corruptions_per_pb", 1}};
  try {
    load(doc);
    FAIL("loaded without sdc_detection");
  } catch (const dcsim::sim::InputErrors& e) {
    REQUIRE(e.messages().size() == 1);
    CHECK(e.messages()[0] ==
          "t.json:/reliability/sdc_detection: missing; /storage/integrity (corruptions_per_pb without verify: jobs "
          "load corrupted checkpoints) corrupts jobs silently, and how their loss checks catch it decides what "
          "follows: give {\"probability\": 0..1, \"latency_steps\": N}");
  }
  doc["reliability"] = {{"sdc_detection", {{"probability", 0.5}}}};
  CHECK(load(doc).cluster.sdc_detection->probability == 0.5);
}

TEST_CASE("a training job's dataset maps to its input read from the store", "[tools][scenario][storage]") {
  json doc = shipped_store_scenario();
  json& job = doc["workload"]["training"][0];
  CHECK_FALSE(load(doc).cluster.training_jobs[0].dataset.from_store);
  job["dataset"] = json::object();
  // Copies: a reference into the Scenario that load() returned would dangle once it is destroyed at
  // the end of the statement (AddressSanitizer: heap-use-after-free).
  const auto text = load(doc).cluster.training_jobs[0].dataset;
  CHECK(text.from_store);
  CHECK(text.pool.empty());            // the first pool
  CHECK(text.bytes_per_token == 4.0);  // 32-bit token ids
  CHECK(text.bytes_per_sample == 0.0);
  CHECK(text.prefetch_steps == 32);
  job["dataset"] = {{"pool", "rep3"}, {"bytes_per_sample", "2 MB"}, {"prefetch_steps", 8}};
  const auto images = load(doc).cluster.training_jobs[0].dataset;
  CHECK(images.pool == "rep3");
  CHECK(images.bytes_per_sample == Approx(2e6));
  CHECK(images.prefetch_steps == 8);
  job["dataset"]["pool"] = "nope";
  try {
    load(doc);
    FAIL("loaded with an unknown pool");
  } catch (const dcsim::sim::InputErrors& e) {
    REQUIRE(e.messages().size() == 1);
    CHECK(e.messages()[0] == "t.json:/workload/training/0/dataset/pool: expected a pool of /storage/pools, got 'nope'");
  }
}

TEST_CASE("OSD host faults are /faults of kind osd_host; the earlier /storage/faults still load, with a notice",
          "[tools][scenario][storage]") {
  json doc = shipped_store_scenario();
  doc["faults"] = json::parse(R"([{"kind": "osd_host", "host": 3, "at": "1 h", "duration": "20 min"},
                                   {"kind": "osd_host", "host": 1, "at": "10 min"}])");
  const Scenario s = load(doc);
  REQUIRE(s.storage->faults.size() == 2);  // in time order
  CHECK(s.storage->faults[0].host == 1);
  CHECK(s.storage->faults[0].repair.is_max());
  CHECK(s.storage->faults[1].host == 3);
  CHECK(s.storage->faults[1].at == dcsim::sim::Time::from_seconds(3600));
  CHECK(s.storage->faults[1].repair == dcsim::sim::Time::from_seconds(3600 + 1200));

  doc.erase("faults");
  doc["storage"]["faults"] = json::parse(R"([{"host": 3, "at": "1 h", "repair": "80 min"}])");
  const Scenario legacy = load(doc);
  REQUIRE(legacy.storage->faults.size() == 1);
  CHECK(legacy.storage->faults[0].repair == dcsim::sim::Time::from_seconds(80 * 60));
  REQUIRE(legacy.notices.size() == 1);
  CHECK(legacy.notices[0] == "t.json: /storage/faults is the format before /faults: its entry is /faults/0 now, kind "
                             "osd_host, its repair time a duration (move them there to silence this)");
}

TEST_CASE("random OSD host faults count the store's hosts and need a store", "[tools][scenario][storage]") {
  json doc = shipped_store_scenario();
  doc["duration"] = "1 d";
  doc["reliability"] = json::parse(R"({"classes": [{"name": "osd", "component": "osd_host", "effect": "osd_host_down",
                                        "rate_per_hour": 0.01, "repair": {"kind": "fixed", "value": "2 h"}}]})");
  const Scenario s = load(doc);
  CHECK(s.reliability->inventory.osd_hosts == 12);
  doc.erase("storage");
  doc.erase("faults");
  doc["workload"]["training"][0]["checkpoint"]["target"] = "nvme";
  try {
    load(doc);
    FAIL("loaded osd_host faults without a store");
  } catch (const dcsim::sim::InputErrors& e) {
    REQUIRE(e.messages().size() == 1);
    CHECK(e.messages()[0] == "t.json:/reliability/classes/0/component: osd_host classes fail parts of the shared "
                             "store, and the scenario has no /storage");
  }
}

TEST_CASE("single OSD faults are /faults of kind osd and reliability classes of component osd",
          "[tools][scenario][storage]") {
  json doc = shipped_store_scenario();  // 12 OSD hosts of 8 drives
  doc["faults"] = json::parse(R"([{"kind": "osd", "host": 5, "drive": 7, "at": "40 min", "duration": "1 h"}])");
  const Scenario s = load(doc);
  REQUIRE(s.storage->faults.size() == 1);
  CHECK(s.storage->faults[0].host == 5);
  CHECK(s.storage->faults[0].drive == 7);
  CHECK(s.storage->faults[0].repair == dcsim::sim::Time::from_seconds(100 * 60));
  doc["faults"][0]["drive"] = 8;  // drives 0-7
  try {
    load(doc);
    FAIL("loaded a fault of drive 8 of 8");
  } catch (const dcsim::sim::InputErrors& e) {
    REQUIRE(e.messages().size() == 1);
    CHECK(e.messages()[0] == "t.json:/faults/0/drive: expected a drive index below 8 (/storage/drives_per_host), got 8");
  }
  doc.erase("faults");
  doc["duration"] = "1 d";
  // Random drive failures: 12 hosts x 8 drives = 96 instances.
  doc["reliability"] = json::parse(R"({"classes": [{"name": "ssd", "component": "osd", "effect": "osd_down",
                                        "rate_per_hour": 1e-5, "repair": {"kind": "fixed", "value": "4 h"}}]})");
  const Scenario r = load(doc);
  CHECK(r.reliability->inventory.count(dcsim::models::reliability::ComponentKind::kOsd) == 96);
  CHECK(r.reliability->inventory.path(dcsim::models::reliability::ComponentKind::kOsd, 95) ==
        "storage/osd_host/11/osd/7");
  doc["reliability"]["classes"][0]["effect"] = "osd_host_down";
  try {
    load(doc);
    FAIL("loaded osd_host_down on an osd");
  } catch (const dcsim::sim::InputErrors& e) {
    CHECK_THAT(e.messages()[0], Catch::Contains("effect osd_host_down does not apply to component osd"));
  }
}

TEST_CASE("an inference service's weights_pool makes its new replicas read their weights from the store",
          "[tools][scenario][storage]") {
  std::ifstream in(testing::source_dir() / "scenarios/inference-autoscaling-diurnal.json");
  json doc = json::parse(in);
  doc["frontend"] = json::parse(R"({"topology": "leaf_spine", "leaves": 2, "hosts_per_leaf": 8, "spines": 2,
                                   "link_bandwidth_bps": "400 Gbps"})");
  doc["storage"] = json::parse(R"({"hosts": 4, "drives_per_host": 4, "pools": [{"name": "models", "replicas": 3}]})");
  json& service = doc["inference"]["services"][0];
  service["weights_pool"] = "models";
  const Scenario s = load(doc);
  REQUIRE(s.inference.size() == 1);
  CHECK(s.inference[0].weights_from_store);
  CHECK(s.inference[0].weights_pool == "models");

  const auto message = [](const json& d) {
    try {
      load(d);
    } catch (const dcsim::sim::InputErrors& e) {
      return e.messages().at(0);
    }
    return std::string("(loaded)");
  };
  service["weights_pool"] = "nope";
  CHECK(message(doc) ==
        "t.json:/inference/services/0/weights_pool: expected a pool of /storage/pools, got 'nope'");
  service["weights_pool"] = "models";
  service["load_rate"] = "10 GB/s";
  CHECK(message(doc) == "t.json:/inference/services/0/load_rate: expected load_rate or weights_pool, not both "
                        "(weights from the store take the store's time)");
  service.erase("load_rate");
  doc.erase("storage");
  CHECK(message(doc) == "t.json:/inference/services/0/weights_pool: needs the scenario's /storage section (the "
                        "store it is read from), which it lacks: add one, or give load_rate");
}
