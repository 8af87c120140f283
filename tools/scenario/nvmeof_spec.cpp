#include "tools/scenario/nvmeof_spec.hpp"

#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/storage_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;

FieldSpec nvmeof_section() {
  return optional_section(
      object_field(
          "nvmeof",
          "NVMe over Fabrics targets (models/datacenter/nvmeof_subsystem.hpp): hosts of the front-end network (or "
          "the backend) exporting their drives as namespaces, one per cluster node (node i on target i mod "
          "targets). Training jobs whose checkpoint target is `nvmeof` write every checkpoint to their nodes' "
          "namespaces and read it back on restart, as flows through the namespace's queue (queue_depth x io_size / "
          "latency), the target's drives and, over TCP, the cores of both ends. Summary nvmeof/... (README, "
          "Storage).",
          {with_default(enum_field("network",
                                   "The network whose hosts the targets are: `frontend` (/frontend, the nodes' "
                                   "storage NICs) or `backend` (/fabric, sharing the GPU NICs).",
                                   "NVMe-oF network", {"frontend", "backend"}),
                        "frontend"),
           required(integer_field("targets", "Target hosts (JBOF heads or storage servers).", at_least(1))),
           with_default_note(integer_field("first_host",
                                           "Host of the network that is target 0 (the rest follow); a host beyond "
                                           "the cluster's nodes and the store's OSD hosts.",
                                           at_least(0)),
                             "the first host after the cluster's nodes and, on the same network, /storage's hosts"),
           with_default(integer_field("drives_per_target", "NVMe drives per target.", at_least(1)), 24),
           with_default(
               object_field("drive",
                            "One NVMe drive (defaults: a PCIe 4 data-centre drive; public-figures.md, Storage "
                            "components).",
                            {drive_bandwidth_field(true), drive_bandwidth_field(false), drive_latency_field(true),
                             drive_latency_field(false)}),
               json::object()),
           with_default(enum_field("transport",
                                   "`rdma` (RoCE: no CPU in the data path) or `tcp` (every byte through a core at "
                                   "both ends).",
                                   "NVMe-oF transport", {"rdma", "tcp"}),
                        "rdma"),
           with_default_note(quantity_field("added_latency",
                                            "What the fabric adds to each I/O over a local drive (vendor ranges "
                                            "RDMA 10-20 us, TCP 25-40 us; SPDK measures TCP 27-33 us).",
                                            QuantityKind::kDuration, at_least(0)),
                             "15 us over RDMA, 30 us over TCP"),
           with_default(integer_field("queue_depth", "I/Os a node keeps in flight on its namespace.", at_least(1)),
                        32),
           with_default(quantity_field("io_size", "Bytes per I/O.", QuantityKind::kDataSize, above(0)), "128 KiB"),
           optional_section(
               object_field(
                   "tcp", "NVMe/TCP's CPU cost (transport `tcp` only).",
                   {with_default(quantity_field("core_bandwidth",
                                                "What one core moves: the Linux host reads 84 Gb/s with 8 jobs "
                                                "(nvme-tcp offload patch v12 cover letter, 2023), about 1.3 GB/s "
                                                "per core.",
                                                QuantityKind::kDataRate, above(0)),
                                 "10.4 Gbps"),
                    with_default(integer_field("host_cores", "Cores a node gives its NVMe/TCP queues.", at_least(1)),
                                 8),
                    with_default(integer_field("target_cores", "Cores a target gives its NVMe/TCP target.",
                                               at_least(1)),
                                 16),
                    with_default(boolean_field("data_digest",
                                               "CRC32C on every data PDU: each core moves 53/84 of its bytes "
                                               "(same source: 84 -> 53 Gb/s)."),
                                 false)}),
               "with transport tcp: the defaults above")}),
      "no NVMe-oF targets: checkpoint target nvmeof is refused");
}

std::optional<models::datacenter::NvmeofNamespacesConfig> map_nvmeof_section(const json* nvmeof, const Scenario& s,
                                                                             FieldOrigins& origins) {
  std::vector<std::string> errors;
  const auto job_ptr = [](std::size_t i) { return "/workload/training/" + std::to_string(i); };
  if (nvmeof == nullptr) {
    for (std::size_t i = 0; s.has_cluster && i < s.cluster.training_jobs.size(); ++i) {
      if (s.cluster.training_jobs[i].checkpoint.target == models::workload::CheckpointTarget::kNvmeof) {
        errors.push_back(s.source + ":" + job_ptr(i) + "/checkpoint/target: \"nvmeof\" needs the scenario's /nvmeof "
                         "section (the targets), which it lacks: add one, or use \"store\", \"remote\" or \"nvme\"");
      }
    }
    if (!errors.empty()) throw sim::InputErrors(std::move(errors));
    return std::nullopt;
  }
  const std::string base = "/nvmeof";
  if (!s.has_cluster) {
    throw sim::InputError(s.source + ":" + base + ": needs /cluster: the namespaces keep the cluster's checkpoints");
  }
  const OriginReader n(*nvmeof, base, "", origins);
  models::datacenter::NvmeofNamespacesConfig out;
  models::storage::NvmeofConfig& t = out.targets;
  out.on_backend = n.at("network", "network").get<std::string>() == "backend";
  const int count = n.at("targets", "targets").get<int>();
  int first = s.cluster.nodes;
  if (n.contains("first_host")) {
    first = n.at("first_host", "targets").get<int>();  // a bad host is the first host's fault
  } else {
    if (s.storage && s.storage->on_backend == out.on_backend) {
      for (std::uint32_t h : s.storage->store.hosts) first = std::max(first, static_cast<int>(h) + 1);
    }
    n.record("targets", "targets");
  }
  for (int i = 0; i < count; ++i) t.targets.push_back(static_cast<std::uint32_t>(first + i));
  t.drives_per_target = n.at("drives_per_target", "drives_per_target").get<int>();
  const OriginReader drive = n.object("drive", "drive.");
  t.drive.read_bytes_per_s = drive.at("read_bandwidth", "read_bandwidth").get<double>() / 8.0;
  t.drive.write_bytes_per_s = drive.at("write_bandwidth", "write_bandwidth").get<double>() / 8.0;
  const bool tcp = n.at("transport", "transport").get<std::string>() == "tcp";
  t.transport = tcp ? models::storage::NvmeofTransport::kTcp : models::storage::NvmeofTransport::kRdma;
  t.added_latency_s = n.contains("added_latency") ? n.at("added_latency", "added_latency").get<double>()
                                                  : (tcp ? 30e-6 : 15e-6);
  t.drive.read_latency_s = drive.at("read_latency", "read_latency").get<double>();
  t.drive.write_latency_s = drive.at("write_latency", "write_latency").get<double>();
  t.queue_depth = n.at("queue_depth", "queue_depth").get<int>();
  t.io_bytes = n.at("io_size", "io_size").get<double>();
  if (n.contains("tcp")) {
    if (!tcp) {
      throw sim::InputError(s.source + ":" + base + "/tcp: applies to the tcp transport only (transport is \"rdma\", "
                            "whose data path uses no CPU): drop it or set transport \"tcp\"");
    }
    const OriginReader c = n.object("tcp", "tcp.");
    t.tcp_bytes_per_s_per_core = c.at("core_bandwidth", "core_bandwidth").get<double>() / 8.0;
    t.host_cores = c.at("host_cores", "host_cores").get<int>();
    t.target_cores = c.at("target_cores", "target_cores").get<int>();
    t.data_digest = c.at("data_digest", "data_digest").get<bool>();
  }
  return out;
}

}  // namespace dcsim::tools::scenario
