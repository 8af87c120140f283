// The nodes' front-end network (datacenter.hpp, network_write.hpp): checkpoints to a store host
// go over it as flows, at the store's front-end link rate, and none of their bytes cross the
// backend fabric; a job that names the backend writes over the GPU fabric instead.

#include <catch2/catch.hpp>

#include <string>
#include <variant>

#include "models/datacenter/datacenter.hpp"
#include "models/hardware/node_presets.hpp"
#include "models/workload/training_job.hpp"
#include "tests/models/cluster/cluster_test_support.hpp"

using dcsim::models::datacenter::Datacenter;
using dcsim::models::datacenter::DatacenterConfig;
using dcsim::models::datacenter::DatacenterConfigError;
using dcsim::tests::builtin;
namespace mw = dcsim::models::workload;
namespace net = dcsim::models::network;

namespace {

// A non-blocking two-tier leaf-spine of `hosts` hosts (2 per leaf), each host's NIC cables
// bundled into one link of links x 400 Gb/s, packets sprayed: a flow gets its fair share of the
// host links and nothing else limits it.
net::FabricRunConfig leaf_spine(int hosts, int links) {
  net::FabricRunConfig f;
  f.topology = "leaf_spine";
  f.topology_config.leaves = (hosts + 1) / 2;
  f.topology_config.hosts_per_leaf = 2;
  f.topology_config.nics_per_node = 1;
  f.topology_config.links_per_node = links;
  f.topology_config.bundle_parallel_links = true;
  f.topology_config.link_bandwidth_bps = 400e9;
  f.topology_config.nic_bandwidth_bps = 400e9;
  f.options.routing.mode = net::RoutingMode::kSpray;
  return f;
}

// BERT-Large on 2 HGX H100 nodes, 3 steps, a checkpoint after steps 1 and 2 to a remote store.
mw::TrainingJobSpec bert_checkpointing(const dcsim::models::ModelRegistries& reg, mw::CheckpointNetwork network) {
  const auto node = dcsim::models::hardware::hgx_h100();
  mw::TrainingJobSpec t;
  t.job.name = "bert";
  t.job.model = reg.training_models.get("bert-large").factory();
  t.job.nodes = 2;
  t.job.micro_batch_size = 8;
  t.fabric.nics_per_node = node.compute_nics;
  t.fabric.nic_bandwidth_bps = node.compute_nic_bandwidth_bps;
  t.steps = 3;
  t.checkpoint.interval_steps = 1;
  t.checkpoint.target = mw::CheckpointTarget::kRemote;
  t.checkpoint.store_host = 2;
  t.checkpoint.network = network;
  return t;
}

DatacenterConfig two_nodes(const mw::TrainingJobSpec& job) {
  DatacenterConfig c;
  c.cluster.emplace();
  c.cluster->node = dcsim::models::hardware::hgx_h100();
  c.cluster->nodes = 2;
  c.cluster->nodes_per_rack = 2;
  c.cluster->training_jobs.push_back(job);
  return c;
}

struct Outcome {
  double checkpoint_s = 0.0;  // the job's total time writing checkpoints
  double checkpoints = 0.0;
  double backend_bytes = 0.0;   // delivered on /fabric
  double frontend_bytes = 0.0;  // delivered on /frontend
  int frontend_flows = 0;
  int frontend_flows_to_store = 0;
  int backend_flows_touching_store = 0;
};

double summary_number(const dcsim::sim::MemoryTraceSink& sink, const std::string& key) {
  const auto& s = sink.summary();
  const auto it = s.find(key);
  return it == s.end() ? 0.0 : std::get<double>(it->second.value);
}

double job_column(const dcsim::sim::MemoryTraceSink& sink, const std::string& name) {
  const auto& table = sink.table("summary/jobs");
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == name) return std::get<double>(table.rows.at(0)[i]);
  }
  FAIL("no column " << name);
  return 0.0;
}

// Flows of a network's flows table with src or dst equal to `host`, and to `host`.
std::pair<int, int> flows_at(const dcsim::sim::MemoryTraceSink& sink, const std::string& table_path, int host) {
  const auto& t = sink.table(table_path);
  int touching = 0, to = 0;
  for (const auto& row : t.rows) {
    const auto src = std::get<std::int64_t>(row[1]);
    const auto dst = std::get<std::int64_t>(row[2]);
    if (src == host || dst == host) ++touching;
    if (dst == host) ++to;
  }
  return {touching, to};
}

// What building the assembly says ("" when it builds).
std::string assembly_error(const dcsim::models::ModelRegistries& reg, DatacenterConfig config) {
  dcsim::sim::Simulator sim;
  dcsim::sim::MemoryTraceSink sink;
  try {
    Datacenter datacenter(std::move(config), reg, sim, sink);
  } catch (const DatacenterConfigError& e) {
    return e.field() + ": " + e.detail();
  }
  return "";
}

// Runs the assembly to its end, its outputs into `sink`.
void simulate(DatacenterConfig config, dcsim::sim::MemoryTraceSink& sink) {
  dcsim::sim::Simulator sim;
  const auto registries = builtin();
  Datacenter datacenter(std::move(config), registries, sim, sink);
  datacenter.start();
  sim.run();
  datacenter.finish();
}

Outcome run(DatacenterConfig config) {
  const bool has_frontend = config.frontend.has_value(), has_fabric = config.fabric.has_value();
  dcsim::sim::MemoryTraceSink sink;
  simulate(std::move(config), sink);
  Outcome o;
  o.checkpoint_s = job_column(sink, "checkpoint_s");
  o.checkpoints = job_column(sink, "checkpoints");
  o.backend_bytes = summary_number(sink, "network/bytes_delivered");
  o.frontend_bytes = summary_number(sink, "frontend/bytes_delivered");
  if (has_frontend) {
    o.frontend_flows = static_cast<int>(sink.table("frontend/flows").rows.size());
    o.frontend_flows_to_store = flows_at(sink, "frontend/flows", 2).second;
  }
  if (has_fabric) o.backend_flows_touching_store = flows_at(sink, "network/flows", 2).first;
  return o;
}

}  // namespace

TEST_CASE("checkpoints on the front-end network cross none of the backend's links, at the store's front-end rate",
          "[models][datacenter][frontend]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());

  // Backend: 8 x 400G per host. Front-end: 2 x 400G per host (the HGX node's two storage NICs).
  DatacenterConfig front = two_nodes(bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend));
  front.fabric = leaf_spine(3, 8);
  front.frontend = leaf_spine(3, 2);
  const Outcome f = run(front);

  // The same job writing to the store over the backend, and with its checkpoints on node NVMe
  // (no network traffic at all): the backend's bytes without any checkpoint.
  DatacenterConfig back = two_nodes(bert_checkpointing(reg, mw::CheckpointNetwork::kBackend));
  back.fabric = leaf_spine(3, 8);
  back.frontend = leaf_spine(3, 2);
  const Outcome b = run(back);
  mw::TrainingJobSpec local = bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend);
  local.checkpoint.target = mw::CheckpointTarget::kNvme;
  local.checkpoint.store_host = -1;
  DatacenterConfig nvme = two_nodes(local);
  nvme.fabric = leaf_spine(3, 8);
  const Outcome n = run(nvme);

  REQUIRE(f.checkpoints == 2.0);
  REQUIRE(b.checkpoints == 2.0);
  // Bytes in = bytes out: the front-end carries exactly the two checkpoints, one flow per node
  // each, all to the store; the backend carries exactly what it carries with no remote
  // checkpoint, and no flow of it touches the store.
  CHECK(f.frontend_flows == 4);
  CHECK(f.frontend_flows_to_store == 4);
  CHECK(f.frontend_bytes == Approx(2 * bytes));
  CHECK(f.backend_bytes == Approx(n.backend_bytes));
  CHECK(f.backend_flows_touching_store == 0);
  // Written over the backend instead: the front-end stays idle and the backend carries them.
  CHECK(b.frontend_bytes == 0.0);
  CHECK(b.backend_bytes == Approx(n.backend_bytes + 2 * bytes));
  // Each checkpoint converges on the store's link: 800 Gb/s on the front-end, 3.2 Tb/s on the
  // backend (plus a few microseconds of route latency).
  CHECK(f.checkpoint_s == Approx(2 * bytes * 8 / 800e9).epsilon(0.01));
  CHECK(b.checkpoint_s == Approx(2 * bytes * 8 / 3.2e12).epsilon(0.01));
}

TEST_CASE("without a backend fabric, checkpoints to a front-end store are still flows (analytic steps)",
          "[models][datacenter][frontend]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  DatacenterConfig c = two_nodes(bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend));
  // A slow front-end (1 x 400G per host): the store's 400 Gb/s sets the write time.
  c.frontend = leaf_spine(3, 1);
  const Outcome o = run(c);
  CHECK(o.frontend_flows == 4);
  CHECK(o.frontend_bytes == Approx(2 * bytes));
  CHECK(o.checkpoint_s == Approx(2 * bytes * 8 / 400e9).epsilon(0.01));
}

TEST_CASE("a store host must be a host of the network the checkpoints name, beyond the cluster's nodes",
          "[models][datacenter][frontend]") {
  const auto reg = builtin();
  const auto build_error = [&reg](DatacenterConfig config) { return assembly_error(reg, std::move(config)); };
  // Front-end named, only a backend given.
  DatacenterConfig no_frontend = two_nodes(bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend));
  no_frontend.fabric = leaf_spine(3, 8);
  CHECK_THAT(build_error(no_frontend), Catch::StartsWith("training[0].checkpoint.store_host: ") &&
                                           Catch::Contains("which needs the scenario's /frontend section"));
  // Backend named, only a front-end given.
  DatacenterConfig no_backend = two_nodes(bert_checkpointing(reg, mw::CheckpointNetwork::kBackend));
  no_backend.frontend = leaf_spine(3, 2);
  CHECK_THAT(build_error(no_backend), Catch::Contains("which needs the scenario's /fabric section"));
  // A store that is a cluster node.
  mw::TrainingJobSpec on_node = bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend);
  on_node.checkpoint.store_host = 1;
  DatacenterConfig store_is_node = two_nodes(on_node);
  store_is_node.frontend = leaf_spine(3, 2);
  CHECK(build_error(store_is_node) ==
        "training[0].checkpoint.store_host: must be a host of /frontend that is not a cluster node (2 to 3), got 1");
  // A front-end with fewer hosts than the cluster has nodes (node i is its host i).
  mw::TrainingJobSpec local = bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend);
  local.checkpoint.store_host = -1;
  DatacenterConfig small = two_nodes(local);
  small.frontend = leaf_spine(2, 2);  // one leaf of 2 hosts
  CHECK(build_error(small).empty());
  small.cluster->nodes = 3;
  CHECK_THAT(build_error(small), Catch::Contains("the front-end network has 2 hosts but the cluster has 3 nodes"));
}

TEST_CASE("the analytic checkpoint rate is the named network's NICs", "[models][workload][frontend]") {
  const auto reg = builtin();
  const auto node = dcsim::models::hardware::hgx_h100();
  mw::TrainingJobSpec t = bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend);
  t.checkpoint.store_host = -1;  // no store on a network: each node writes at its NICs' line rate
  const auto front = mw::plan_training_job(t, node, reg.collective_algorithms);
  t.checkpoint.network = mw::CheckpointNetwork::kBackend;
  const auto back = mw::plan_training_job(t, node, reg.collective_algorithms);
  // HGX H100: 2 storage NICs and 8 compute NICs, all 400 Gb/s.
  CHECK(front.checkpoint_rate_bytes_per_s == Approx(2 * 400e9 / 8));
  CHECK(back.checkpoint_rate_bytes_per_s == Approx(8 * 400e9 / 8));
  CHECK(front.checkpoint_s == Approx(front.checkpoint_bytes / 2 / (2 * 400e9 / 8)));
}

namespace {

// The site's ports (100 Gb/s) behind gateway host 3 of the named network, every checkpoint copied.
dcsim::models::network::UplinkConfig gateway_uplink(bool on_backend) {
  dcsim::models::network::UplinkConfig u;
  u.ports.push_back({100e9, 1});
  u.gateway = dcsim::models::network::UplinkGateway{on_backend, 3};
  u.checkpoint_copies = dcsim::models::network::CheckpointCopies{1, 0};
  return u;
}

struct UplinkOutcome {
  Outcome network;
  double out_bytes = 0.0;
  std::vector<double> copy_s;  // finish - start of each copy
  int frontend_flows_to_gateway = 0;
  int backend_flows_to_gateway = 0;
};

UplinkOutcome run_with_uplink(DatacenterConfig config) {
  const bool has_uplink = config.uplink.has_value();
  dcsim::sim::MemoryTraceSink sink;
  simulate(std::move(config), sink);
  UplinkOutcome o;
  o.network.backend_bytes = summary_number(sink, "network/bytes_delivered");
  o.network.frontend_bytes = summary_number(sink, "frontend/bytes_delivered");
  o.out_bytes = summary_number(sink, "uplink/out_bytes");
  if (has_uplink) {
    for (const auto& row : sink.table("uplink/transfers").rows) {
      o.copy_s.push_back(std::get<double>(row[5]) - std::get<double>(row[4]));
    }
  }
  o.frontend_flows_to_gateway = flows_at(sink, "frontend/flows", 3).second;
  o.backend_flows_to_gateway = flows_at(sink, "network/flows", 3).second;
  return o;
}

}  // namespace

TEST_CASE("off-site copies through a front-end gateway leave the backend alone, as fast as the ports",
          "[models][datacenter][frontend][uplink]") {
  const auto reg = builtin();
  const double bytes = mw::checkpoint_bytes(reg.training_models.get("bert-large").factory());
  // Hosts 0, 1: the nodes; host 2: the checkpoint store; host 3: the gateway, on both networks.
  const auto config = [&](bool gateway_on_backend) {
    DatacenterConfig c = two_nodes(bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend));
    c.fabric = leaf_spine(4, 8);
    c.frontend = leaf_spine(4, 2);
    c.uplink = gateway_uplink(gateway_on_backend);
    return c;
  };
  DatacenterConfig plain = config(false);
  plain.uplink.reset();
  const UplinkOutcome none = run_with_uplink(plain);
  const UplinkOutcome front = run_with_uplink(config(false));
  const UplinkOutcome back = run_with_uplink(config(true));

  // Bytes in = bytes out: two checkpoints leave whole. On the front-end each copy is one flow from
  // the store (host 2) to the gateway, on top of the two checkpoints' writes; the backend carries
  // exactly what it carries without an uplink.
  CHECK(front.out_bytes == Approx(2 * bytes));
  CHECK(front.frontend_flows_to_gateway == 2);
  CHECK(front.backend_flows_to_gateway == 0);
  CHECK(front.network.frontend_bytes == Approx(none.network.frontend_bytes + 2 * bytes));
  CHECK(front.network.backend_bytes == Approx(none.network.backend_bytes));
  // The ports (100 Gb/s) are slower than the store's two 400G NICs: each copy takes bytes x 8 /
  // 100e9 once it starts (plus the route's microseconds).
  REQUIRE(front.copy_s.size() == 2);
  for (double s : front.copy_s) CHECK(s == Approx(bytes * 8 / 100e9).epsilon(1e-3));
  // The gateway on the backend: the store is not on it, so the nodes send their shards over the
  // GPU fabric (one flow per node per copy), and the front-end carries only the writes.
  CHECK(back.out_bytes == Approx(2 * bytes));
  CHECK(back.backend_flows_to_gateway == 4);
  CHECK(back.frontend_flows_to_gateway == 0);
  CHECK(back.network.backend_bytes == Approx(none.network.backend_bytes + 2 * bytes));
  CHECK(back.network.frontend_bytes == Approx(none.network.frontend_bytes));
}

TEST_CASE("a gateway must be a free host of a network the scenario has", "[models][datacenter][frontend][uplink]") {
  const auto reg = builtin();
  const auto build_error = [&reg](DatacenterConfig config) { return assembly_error(reg, std::move(config)); };
  const auto config = [&](int gateway) {
    DatacenterConfig c = two_nodes(bert_checkpointing(reg, mw::CheckpointNetwork::kFrontend));
    c.frontend = leaf_spine(4, 2);
    c.uplink = gateway_uplink(false);
    c.uplink->gateway->host = gateway;
    return c;
  };
  CHECK(build_error(config(3)).empty());
  CHECK_THAT(build_error(config(1)), Catch::Contains("gateway.host: ") && Catch::Contains("host 1 is not"));
  CHECK_THAT(build_error(config(2)), Catch::Contains("host 2 is the checkpoint store of job 'bert'"));
  CHECK_THAT(build_error(config(4)), Catch::Contains("host 4 is not"));
  DatacenterConfig no_backend = config(3);
  no_backend.uplink->gateway->on_backend = true;
  CHECK_THAT(build_error(no_backend), Catch::Contains("gateway.network: ") && Catch::Contains("needs the scenario's /fabric"));
}
