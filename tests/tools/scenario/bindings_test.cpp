// Issue 39, item 5: one key, one declaration. A binding (tools/scenario/binding.hpp) feeds a
// config member from its key, and maps a model's error about that member back to the key's exact
// JSON pointer; the defaults a binding spells resolve to the config header's.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario_test_support.hpp"
#include "sim/error.hpp"
#include "tools/run/build_datacenter.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/cloud_pool_spec.hpp"
#include "tools/scenario/cluster_spec.hpp"
#include "tools/scenario/economics_spec.hpp"
#include "tools/scenario/fabric_spec.hpp"
#include "tools/scenario/facility_spec.hpp"
#include "tools/scenario/faults_spec.hpp"
#include "tools/scenario/inference_spec.hpp"
#include "tools/scenario/nvmeof_spec.hpp"
#include "tools/scenario/reliability_spec.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/storage_spec.hpp"
#include "tools/scenario/uplink_spec.hpp"

using namespace dcsim;
using namespace dcsim::tools::scenario;
using nlohmann::json;

namespace {

// What loading and building the models (as `validate` and `run` do) report.
std::string refusal(const json& doc) {
  const auto registries = testing::make_registries();
  try {
    const Scenario s = load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
    tools::run::check_models_build(s, registries);
  } catch (const sim::InputErrors& e) {
    return e.messages().front();
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("a model's error about a config field is reported at its key's exact pointer", "[tools][scenario][bindings]") {
  // The facility model checks what no single key says and names its member (shutdown_c); the
  // binding that fed the member names the key.
  CHECK(refusal(testing::with_facility({{"throttle", {{"slowdown", "91 C"}, {"shutdown", "90 C"}}}})) ==
        "t.json:/facility/throttle/shutdown: must be above the slowdown temperature (91 C), got 90.0");
  CHECK(refusal(testing::with_facility({{"throttle", {{"restart_below", "95 C"}}}})) ==
        "t.json:/facility/throttle/restart_below: must be below the shutdown temperature (92 C), got 95.0");
  CHECK(refusal(testing::with_facility({{"throttle", {{"max_operating", "90 C"}}}})) ==
        "t.json:/facility/throttle/slowdown: must be above the max operating temperature (90 C), got 89.0");
  // An element of an array of an array: zones[1].racks[0].
  CHECK(refusal(testing::with_facility(
            {{"zones", json::parse(R"([{"name": "a", "racks": [0]}, {"name": "b", "racks": [0]}])")}})) ==
        "t.json:/facility/zones/1/racks/0: rack already belongs to a zone, got 0");
}

TEST_CASE("facility bindings locate every kind of field", "[tools][scenario][bindings]") {
  const auto bindings = facility_bindings(testing::make_registries());
  const auto at = [&](const std::string& field) { return bindings.pointer_of(field, "/facility").value_or("none"); };
  CHECK(at("rack_limit_w") == "/facility/rack_limit");
  CHECK(at("ups_capacity_w") == "/facility/ups/capacity");
  CHECK(at("plant.supply_c") == "/facility/plant/supply");
  CHECK(at("node.gpu.power_limit_w") == "/facility/gpu_power_limit");
  CHECK(at("shortfall_is_error") == "/facility/on_shortfall");
  CHECK(at("control_params.gain_per_k") == "/facility/cooling/control_params/gain_per_k");
  CHECK(at("zones[2].target_gpu_c") == "/facility/zones/2/target_gpu");
  CHECK(at("zones[2]") == "/facility/zones/2");
  CHECK(at("zones[0].racks[3]") == "/facility/zones/0/racks/3");
  CHECK(at("rdhx") == "/facility/cooling/rdhx");  // not rdhx_active: whole segments only
  CHECK(at("cdu_effectiveness") == "none");        // the model's own constant, no key
}

TEST_CASE("storage bindings locate every kind of field", "[tools][scenario][bindings]") {
  const auto bindings = storage_bindings();
  const auto at = [&](const std::string& field) { return bindings.pointer_of(field, "/storage").value_or("none"); };
  CHECK(at("hosts") == "/storage/hosts");
  CHECK(at("drives_per_host") == "/storage/drives_per_host");
  CHECK(at("drive") == "/storage/drive");  // the model names the whole drive
  CHECK(at("drive.capacity_bytes") == "/storage/drive/capacity");
  CHECK(at("drive.read_bytes_per_s") == "/storage/drive/read_bandwidth");
  CHECK(at("pools[1].ec.k") == "/storage/pools/1/ec/k");
  CHECK(at("pools[1].size") == "/storage/pools/1/replicas");
  CHECK(at("pools[0]") == "/storage/pools/0");
  CHECK(at("integrity.hash_bytes_per_s_per_gpu") == "/storage/integrity/hash_bandwidth");
  CHECK(at("faults[0].host") == "none");  // from /faults: the mapping records it
}

TEST_CASE("nvmeof bindings locate the model's key-named fields", "[tools][scenario][bindings]") {
  const auto bindings = nvmeof_bindings();
  const auto at = [&](const std::string& field) { return bindings.pointer_of(field, "/nvmeof").value_or("none"); };
  CHECK(at("targets") == "/nvmeof/targets");
  CHECK(at("drive.read_latency") == "/nvmeof/drive/read_latency");
  CHECK(at("tcp.host_cores") == "/nvmeof/tcp/host_cores");
  CHECK(at("io_size") == "/nvmeof/io_size");
  // Where the first host is given, a bad target host is its fault.
  const json given = {{"targets", 2}, {"first_host", 40}};
  CHECK(bindings.pointer_of("targets", "/nvmeof", &given) == "/nvmeof/first_host");
}

TEST_CASE("fabric and traffic bindings locate the network model's fields", "[tools][scenario][bindings]") {
  const auto registries = testing::make_registries();
  const auto fabric = fabric_bindings(registries, false);
  const auto at = [&](const std::string& field) { return fabric.pointer_of(field, "/fabric").value_or("none"); };
  CHECK(at("k") == "/fabric/k");
  CHECK(at("dims[1]") == "/fabric/dims/1");
  CHECK(at("fat_tree_nodes") == "/fabric/nodes");
  CHECK(at("switch_latency_ns") == "/fabric/switch_latency");
  CHECK(at("routing.qps_per_flow") == "/fabric/routing/qps_per_connection");
  CHECK(at("routing") == "/fabric/routing");
  CHECK(at("roce.mtu_bytes") == "/fabric/roce/mtu");
  CHECK(at("link_latency_ns") == "none");  // the model's own: no key feeds it
  CHECK(fabric_bindings(registries, true).pointer_of("nics_per_node", "/frontend") == "/frontend/nics_per_node");

  const auto traffic = traffic_bindings();
  const json lognormal = {{"size", {{"kind", "lognormal"}, {"median", 1e6}, {"sigma", 1.0}}}};
  CHECK(traffic.pointer_of("size.bytes", "/traffic", &lognormal) == "/traffic/size/median");
  CHECK(traffic.pointer_of("size.bytes", "/traffic") == "/traffic/size/value");
  CHECK(traffic.pointer_of("size.list[2]", "/traffic") == "/traffic/size_file");
  CHECK(traffic.pointer_of("hosts", "/traffic") == "/traffic/pattern");
}

TEST_CASE("a part's fault is its /faults entry", "[tools][scenario][bindings]") {
  const json faults = json::parse(R"([{"kind": "link", "link": 3}, {"kind": "cdu_failure", "zone": 1},
                                      {"kind": "osd", "host": 2, "drive": 1}, {"kind": "cdu_pump_failure", "zone": 0}])");
  CHECK(part_fault_pointer("faults[1].zone", faults, FaultTarget::kPlant) == "/faults/3/zone");
  CHECK(part_fault_pointer("faults[0].delta_c", faults, FaultTarget::kPlant) == "/faults/1");
  CHECK(part_fault_pointer("faults[0].drive", faults, FaultTarget::kStore) == "/faults/2/drive");
  CHECK(part_fault_pointer("faults[2]", faults, FaultTarget::kPlant) == std::nullopt);
}

TEST_CASE("inference bindings locate the engine's fields and the autoscaler's parameters",
          "[tools][scenario][bindings]") {
  const auto registries = testing::make_registries();
  const auto bindings = inference_bindings(registries);
  const auto at = [&](const std::string& field) { return bindings.pointer_of(field, "/inference").value_or("none"); };
  CHECK(at("services[1].engine.tp") == "/inference/services/1/engine/tp");
  CHECK(at("services[1].engine.memory") == "/inference/services/1/engine");  // no key: the engine
  CHECK(at("services[0].autoscaler_params.metric") == "/inference/services/0/autoscaler_params/metric");
  CHECK(at("services[0].requests.burst_length") == "/inference/services/0/requests/burst_length");
  CHECK(at("services[0].router") == "/inference/services/0/router");
}

TEST_CASE("uplink bindings locate the model's fields in arrays and optional objects", "[tools][scenario][bindings]") {
  const auto bindings = uplink_bindings();
  const auto at = [&](const std::string& field) { return bindings.pointer_of(field, "/uplink").value_or("none"); };
  CHECK(at("ports") == "/uplink/ports");  // the model's "at least one port"
  CHECK(at("ports[1].speed_bps") == "/uplink/ports/1/speed");
  CHECK(at("ports[0].count") == "/uplink/ports/0/count");
  CHECK(at("streams[2].bytes") == "/uplink/streams/2/size");  // rate feeds it too, through the mapping
  CHECK(at("streams[0].every") == "/uplink/streams/0/every");
  CHECK(at("gateway") == "/uplink/gateway");
  CHECK(at("gateway.host") == "/uplink/gateway/host");
  CHECK(at("checkpoint_copies.staging_slots") == "/uplink/checkpoint_copies/staging_slots");
}

TEST_CASE("economics bindings locate the ledger's fields, presets and options", "[tools][scenario][bindings]") {
  const auto bindings = economics_bindings(testing::make_registries());
  const json resolved = json::parse(R"({"electricity_tariff": {}, "repairs": [{"class": "gpu"}, {"class": "psu"}],
      "cloud": [{"offer": "a", "offer_params": {"usd_per_gpu_hour": 2}},
                {"offer": "b", "egress_tariff": "t", "committed_gpus": 8}]})");
  const auto at = [&](const std::string& field) {
    return bindings.pointer_of(field, "/economics", &resolved).value_or("none");
  };
  CHECK(at("cluster") == "/economics");  // what economics needs of the rest: the section's
  CHECK(at("capex.spares_fraction") == "/economics/spares_fraction");
  CHECK(at("capex.node_price.usd_per_node") == "/economics/node_price");  // a preset: its choice
  CHECK(at("capex.fabric.tiers") == "/economics/fabric_prices");
  CHECK(at("capex.gear.cdu_kw") == "/economics/contracted_power");
  CHECK(at("opex.contracted_kw") == "/economics/contracted_power");
  CHECK(at("opex.ports") == "/uplink/ports");
  CHECK(at("electricity.points[1].at_s") == "/economics/electricity_tariff");  // the one given
  CHECK(at("depreciation.years") == "/economics/depreciation/years");
  CHECK(at("financing.rate_per_year") == "/economics/financing/rate_per_year");
  CHECK(at("repairs.usd_per_fault.psu") == "/economics/repairs/1/price");  // by class name
  CHECK(at("repairs") == "/economics/repairs");
  CHECK(at("cloud[0].offer.usd_per_gpu_hour") == "/economics/cloud/0/offer_params/usd_per_gpu_hour");
  CHECK(at("cloud[0].offer.gpus_per_instance") == "/economics/cloud/0/offer");  // the preset's figure
  CHECK(at("cloud[0].egress.tiers") == "/economics/cloud/0/offer");             // the offer's own tariff
  CHECK(at("cloud[1].egress.tiers") == "/economics/cloud/1/egress_tariff");
  CHECK(at("cloud[1].committed_gpus") == "/economics/cloud/1/committed_gpus");
  CHECK(at("cloud[0].committed_gpus") == "/economics/cloud/0");  // defaulted: the option
  CHECK(at("opex.nodes") == "none");                             // the assembly's, no key
}

TEST_CASE("an economics model error is reported at its key's exact pointer", "[tools][scenario][bindings]") {
  // The spec takes any positive period; the ledger needs at least one month (a single key's
  // check the model alone can make: it rounds to months).
  auto doc = testing::with_facility(json::object());
  doc.erase("facility");
  doc["duration"] = "1 d";
  doc["economics"] = {{"depreciation", {{"years", 0.01}}}};
  CHECK(refusal(doc) ==
        "t.json:/economics/depreciation/years: expected a depreciation period of at least one "
        "month, got 0.01 years");
}

TEST_CASE("cloud pool bindings locate the pool's fields", "[tools][scenario][bindings]") {
  const auto bindings = cloud_pool_bindings(testing::make_registries());
  const json given = json::parse(R"({"offer_params": {"usd_per_gpu_hour": 2}})");
  const auto at = [&](const std::string& field, const json* resolved) {
    return bindings.pointer_of(field, "/cluster/cloud_pool", resolved).value_or("none");
  };
  CHECK(at("cloud_pool.max_instances", nullptr) == "/cluster/cloud_pool/max_instances");
  CHECK(at("cloud_pool.transfer.wan_bandwidth", nullptr) == "/cluster/cloud_pool/transfer/wan_bandwidth");
  CHECK(at("cloud_pool.transfer", nullptr) == "/cluster/cloud_pool/transfer");
  CHECK(at("cloud_pool.offer", nullptr) == "/cluster/cloud_pool/offer");
  CHECK(at("cloud_pool.offer_params.usd_per_gpu_hour", &given) == "/cluster/cloud_pool/offer_params/usd_per_gpu_hour");
  CHECK(at("cloud_pool.offer_params.gpus_per_instance", &given) == "/cluster/cloud_pool/offer_params");
  CHECK(at("cloud_pool.offer_params.gpus_per_instance", nullptr) == "/cluster/cloud_pool");
}

TEST_CASE("reliability bindings locate the fault model's fields", "[tools][scenario][bindings]") {
  const auto bindings = reliability_bindings();
  const auto at = [&](const std::string& field) { return bindings.pointer_of(field, "/reliability").value_or("none"); };
  CHECK(at("scale") == "/reliability/scale");
  CHECK(at("nic_bonding") == "/reliability/nic_bonding");
  CHECK(at("inventory.links") == "/reliability/links");
  CHECK(at("inventory.nodes") == "none");           // the cluster's
  CHECK(at("classes[0].rate_per_hour") == "none");  // numbered after the merge with the preset
}

TEST_CASE("an uplink stream's rate becomes one transfer per period", "[tools][scenario][bindings]") {
  // 8 Gb/s = 1 GB/s, every 10 min: 600 GB per transfer; without `every`, hourly: 3600 GB.
  auto doc = testing::with_facility(nlohmann::json::object());
  doc.erase("facility");
  doc["duration"] = "1 d";
  doc["uplink"] = {{"ports", {{{"speed", "100 Gb/s"}, {"count", 1}}}},
                   {"streams",
                    {{{"name", "a"}, {"rate", "8 Gb/s"}, {"every", "10 min"}}, {{"name", "b"}, {"rate", "8 Gb/s"}}}}};
  const auto scenario = testing::load_doc(doc);
  REQUIRE(scenario.uplink);
  CHECK(scenario.uplink->streams[0].bytes == Approx(600e9));
  CHECK(scenario.uplink->streams[1].bytes == Approx(3600e9));
  CHECK(scenario.uplink->streams[1].every == sim::Time::from_s(3600));
  CHECK(scenario.uplink->ports[0].speed_bps == 100e9);
}

TEST_CASE("defaults a binding spells are the config header's", "[tools][scenario][bindings]") {
  std::vector<std::string> mismatches;
  facility_bindings(testing::make_registries()).default_mismatches(mismatches);
  storage_bindings().default_mismatches(mismatches);
  nvmeof_bindings().default_mismatches(mismatches);
  inference_bindings(testing::make_registries()).default_mismatches(mismatches);
  uplink_bindings().default_mismatches(mismatches);
  economics_bindings(testing::make_registries()).default_mismatches(mismatches);
  cloud_pool_bindings(testing::make_registries()).default_mismatches(mismatches);
  reliability_bindings().default_mismatches(mismatches);
  cluster_bindings(testing::make_registries()).default_mismatches(mismatches);
  workload_bindings(testing::make_registries()).default_mismatches(mismatches);
  policies_bindings(testing::make_registries()).default_mismatches(mismatches);
  outputs_bindings().default_mismatches(mismatches);
  fabric_bindings(testing::make_registries(), false).default_mismatches(mismatches);
  traffic_bindings().default_mismatches(mismatches);
  CHECK(mismatches == std::vector<std::string>{});
}

TEST_CASE("a field's rest becomes pointer tokens", "[tools][scenario][bindings]") {
  CHECK(field_rest_as_pointer("") == "");
  CHECK(field_rest_as_pointer(".gain") == "/gain");
  CHECK(field_rest_as_pointer("[3]") == "/3");
  CHECK(field_rest_as_pointer("[3].name") == "/3/name");
  CHECK(field_rest_as_pointer(".a/b") == "/a~1b");
}
