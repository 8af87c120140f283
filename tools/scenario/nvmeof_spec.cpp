#include "tools/scenario/nvmeof_spec.hpp"

#include <string>
#include <vector>

#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/storage_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;

Bindings<models::datacenter::NvmeofNamespacesConfig> nvmeof_bindings() {
  using C = models::datacenter::NvmeofNamespacesConfig;
  namespace ms = models::storage;
  // The model names its fields after the keys ("drive.read_bandwidth", "tcp.host_cores").
  Bindings<ms::DriveSpec> drive(with_default(
      object_field("drive",
                   "One NVMe drive (defaults: a PCIe 4 data-centre drive; public-figures.md, Storage components).", {}),
      json::object()));
  drive.bind(drive_bandwidth_field(true), &ms::DriveSpec::read_bytes_per_s, "drive.read_bandwidth", 1.0 / 8.0)
      .bind(drive_bandwidth_field(false), &ms::DriveSpec::write_bytes_per_s, "drive.write_bandwidth", 1.0 / 8.0)
      .bind(drive_latency_field(true), &ms::DriveSpec::read_latency_s, "drive.read_latency")
      .bind(drive_latency_field(false), &ms::DriveSpec::write_latency_s, "drive.write_latency");

  // Only with transport tcp (map_nvmeof_section checks).
  Bindings<ms::NvmeofConfig> tcp(
      optional_section(object_field("tcp", "NVMe/TCP's CPU cost (transport `tcp` only).", {}),
                       "with transport tcp: the defaults above"));
  tcp.bind(with_default(quantity_field("core_bandwidth",
                                       "What one core moves: the Linux host reads 84 Gb/s with 8 jobs "
                                       "(nvme-tcp offload patch v12 cover letter, 2023), about 1.3 GB/s "
                                       "per core.",
                                       QuantityKind::kDataRate, above(0)),
                        "10.4 Gbps"),
           &ms::NvmeofConfig::tcp_bytes_per_s_per_core, "tcp.core_bandwidth", 1.0 / 8.0)
      .bind(integer_field("host_cores", "Cores a node gives its NVMe/TCP queues.", at_least(1)),
            &ms::NvmeofConfig::host_cores, "tcp.host_cores")
      .bind(integer_field("target_cores", "Cores a target gives its NVMe/TCP target.", at_least(1)),
            &ms::NvmeofConfig::target_cores, "tcp.target_cores")
      .bind(boolean_field("data_digest",
                          "CRC32C on every data PDU: each core moves 53/84 of its bytes "
                          "(same source: 84 -> 53 Gb/s)."),
            &ms::NvmeofConfig::data_digest, "tcp.data_digest");

  const auto targets = [](C& c) -> ms::NvmeofConfig& { return c.targets; };
  Bindings<C> nvmeof(object_field(
      "nvmeof",
      "NVMe over Fabrics targets (models/storage/nvmeof_subsystem.hpp): hosts of the front-end network (or "
      "the backend) exporting their drives as namespaces, one per cluster node (node i on target i mod "
      "targets). Training jobs whose checkpoint target is `nvmeof` write every checkpoint to their nodes' "
      "namespaces and read it back on restart, as flows through the namespace's queue (queue_depth x io_size / "
      "latency), the target's drives and, over TCP, the cores of both ends. Summary nvmeof/... "
      "(docs/models/storage.md).",
      {}));
  nvmeof
      .bind(with_default(enum_field("network",
                                    "The network whose hosts the targets are: `frontend` (/frontend, the nodes' "
                                    "storage NICs) or `backend` (/fabric, sharing the GPU NICs).",
                                    "NVMe-oF network", {"frontend", "backend"}),
                         "frontend"),
            "network", [](C& c, const json& v) { c.on_backend = v == "backend"; })
      // The targets' host ids follow the cluster's nodes and the store's hosts (map_nvmeof_section);
      // where the first host is given, a bad host is its fault.
      .given_first("targets", "first_host")
      .key(required(integer_field("targets", "Target hosts (JBOF heads or storage servers).", at_least(1))), "targets")
      .key(with_default_note(integer_field("first_host",
                                           "Host of the network that is target 0 (the rest follow); a host beyond "
                                           "the cluster's nodes and the store's OSD hosts.",
                                           at_least(0)),
                             "the first host after the cluster's nodes and, on the same network, /storage's hosts"))
      .bind(integer_field("drives_per_target", "NVMe drives per target.", at_least(1)), &C::targets,
            &ms::NvmeofConfig::drives_per_target, "drives_per_target")
      .object(
          std::move(drive), [](C& c) -> ms::DriveSpec& { return c.targets.drive; }, "drive")
      .bind(with_default(enum_field("transport",
                                    "`rdma` (RoCE: no CPU in the data path) or `tcp` (every byte through a core at "
                                    "both ends).",
                                    "NVMe-oF transport", {"rdma", "tcp"}),
                         "rdma"),
            "transport",
            [](C& c, const json& v) {
              c.targets.transport = v == "tcp" ? ms::NvmeofTransport::kTcp : ms::NvmeofTransport::kRdma;
            })
      .bind(with_default_note(quantity_field("added_latency",
                                             "What the fabric adds to each I/O over a local drive (vendor ranges "
                                             "RDMA 10-20 us, TCP 25-40 us; SPDK measures TCP 27-33 us).",
                                             QuantityKind::kDuration, at_least(0)),
                              "15 us over RDMA, 30 us over TCP"),
            &C::targets, &ms::NvmeofConfig::added_latency_s, "added_latency")
      .bind(integer_field("queue_depth", "I/Os a node keeps in flight on its namespace.", at_least(1)), &C::targets,
            &ms::NvmeofConfig::queue_depth, "queue_depth")
      .bind(with_default(quantity_field("io_size", "Bytes per I/O.", QuantityKind::kDataSize, above(0)), "128 KiB"),
            &C::targets, &ms::NvmeofConfig::io_bytes, "io_size")
      .object(std::move(tcp), targets);
  return nvmeof;
}

FieldSpec nvmeof_section() {
  return optional_section(nvmeof_bindings().spec(), "no NVMe-oF targets: checkpoint target nvmeof is refused");
}

std::optional<models::datacenter::NvmeofNamespacesConfig> map_nvmeof_section(const json* nvmeof, const Scenario& s) {
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
  models::datacenter::NvmeofNamespacesConfig out;
  models::storage::NvmeofConfig& t = out.targets;
  nvmeof_bindings().apply(*nvmeof, out);
  // What the bindings cannot say: the targets' host ids, and the added latency's default, which
  // depends on the transport.
  const int count = nvmeof->at("targets").get<int>();
  int first = s.cluster.nodes;
  if (nvmeof->contains("first_host")) {
    first = nvmeof->at("first_host").get<int>();
  } else if (s.storage && s.storage->on_backend == out.on_backend) {
    for (std::uint32_t h : s.storage->store.hosts) first = std::max(first, static_cast<int>(h) + 1);
  }
  for (int i = 0; i < count; ++i) t.targets.push_back(static_cast<std::uint32_t>(first + i));
  const bool tcp = t.transport == models::storage::NvmeofTransport::kTcp;
  if (!nvmeof->contains("added_latency")) t.added_latency_s = tcp ? 30e-6 : 15e-6;
  if (nvmeof->contains("tcp") && !tcp) {
    throw sim::InputError(s.source + ":" + base + "/tcp: applies to the tcp transport only (transport is \"rdma\", "
                          "whose data path uses no CPU): drop it or set transport \"tcp\"");
  }
  return out;
}

}  // namespace dcsim::tools::scenario
