#include "tools/scenario/storage_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;

FieldSpec drive_latency_field(bool read) {
  return read ? with_default(quantity_field("read_latency",
                                            "The drive's own latency per read I/O (NVMe answers in 20-100 us; NAND "
                                            "reads near the top).",
                                            QuantityKind::kDuration, at_least(0)),
                             "80 us")
              : with_default(quantity_field("write_latency",
                                            "The drive's own latency per write I/O (into its power-protected "
                                            "buffer, the low end of 20-100 us).",
                                            QuantityKind::kDuration, at_least(0)),
                             "20 us");
}

FieldSpec drive_bandwidth_field(bool read) {
  return read ? with_default(quantity_field("read_bandwidth", "Sequential read bandwidth.", QuantityKind::kDataRate,
                                            above(0)),
                             "6.5 GB/s")
              : with_default(quantity_field("write_bandwidth", "Sequential write bandwidth.",
                                            QuantityKind::kDataRate, above(0)),
                             "3.5 GB/s");
}

Bindings<models::storage::StorageConfig> storage_bindings() {
  using C = models::storage::StorageConfig;
  namespace ms = models::storage;
  Bindings<ms::DriveSpec> drive(with_default(
      object_field("drive",
                   "One NVMe drive (defaults: a PCIe 4 15.36 TB data-centre drive; public-figures.md, "
                   "Storage components).",
                   {}),
      json::object()));
  drive.bind(drive_bandwidth_field(true), &ms::DriveSpec::read_bytes_per_s, "drive.read_bytes_per_s", 1.0 / 8.0)
      .bind(drive_bandwidth_field(false), &ms::DriveSpec::write_bytes_per_s, "drive.write_bytes_per_s", 1.0 / 8.0)
      .bind(number_field("read_iops", "Read operations per second.", above(0)), &ms::DriveSpec::read_iops,
            "drive.read_iops")
      .bind(number_field("write_iops", "Write operations per second.", above(0)), &ms::DriveSpec::write_iops,
            "drive.write_iops")
      .bind(with_default(quantity_field("capacity", "Usable capacity.", QuantityKind::kDataSize, above(0)), "15.36 TB"),
            &ms::DriveSpec::capacity_bytes, "drive.capacity_bytes")
      .bind(drive_latency_field(true), &ms::DriveSpec::read_latency_s, "drive.read_latency")
      .bind(drive_latency_field(false), &ms::DriveSpec::write_latency_s, "drive.write_latency");

  // replicas or ec (not both, map_storage_section checks): the pool's width.
  Bindings<ms::PoolConfig> ec(optional_section(
      object_field("ec", "Erasure-coded pool: k data + m parity chunks of object / k bytes.", {}), "replicated"));
  ec.bind(required(integer_field("k", "Data chunks.", at_least(1))), &ms::PoolConfig::ec_k, "ec.k")
      .bind(required(integer_field("m", "Parity chunks.", at_least(1))), &ms::PoolConfig::ec_m, "ec.m");
  Bindings<ms::PoolConfig> pool(with_default(
      min_items(object_array_field("pools",
                                   "Pools; a job's checkpoints go to the one its checkpoint config names (the first by "
                                   "default).",
                                   {}),
                1),
      json::array({json{{"name", "default"}}})));
  pool.bind(required(non_empty(string_field("name", "Pool name (unique)."))), &ms::PoolConfig::name, "name")
      .bind(with_default_note(integer_field("replicas",
                                            "Replicated pool: copies of each object (the primary "
                                            "forwards replicas - 1). Give replicas or ec.",
                                            at_least(1)),
                              "3 without ec"),
            &ms::PoolConfig::size, "size")
      .object(std::move(ec))
      .bind(with_default_note(integer_field("pg_count", "Placement groups.", at_least(1)),
                              "~100 per OSD / width, rounded up to a power of two"),
            &ms::PoolConfig::pg_count, "pg_count")
      .bind_enum(with_default(enum_field("failure_domain", "No two members of a placement group share one of these.",
                                         "failure domain", {"osd", "host", "rack"}),
                              "host"),
                 &ms::PoolConfig::failure_domain, "failure_domain",
                 {{"osd", ms::FailureDomain::kOsd}, {"host", ms::FailureDomain::kHost}, {"rack", ms::FailureDomain::kRack}});

  using models::storage::CheckpointIntegrity;
  Bindings<CheckpointIntegrity> integrity(with_default(
      object_field("integrity",
                   "End-to-end checksums of checkpoints (a checkpoint library's, above the store's own, which only "
                   "see their drives' rot), and corruption on the way in to test them against.",
                   {}),
      json::object()));
  integrity
      .bind(boolean_field("verify",
                          "Every rank hashes its shard before the write and after a restart "
                          "read (part of their times); a corrupted checkpoint is then found "
                          "when read and the job falls back to the one before. Without, the "
                          "job loads it, and only its loss checks "
                          "(/reliability/sdc_detection) can catch that."),
            &CheckpointIntegrity::verify, "integrity.verify")
      .bind(number_field("corruptions_per_pb",
                         "Silent corruptions per PB of checkpoint data written (host memory, "
                         "NIC or daemon faults no lower checksum sees): each checkpoint of B "
                         "bytes is corrupted with probability 1 - exp(-rate x B / 1 PB). 0: "
                         "none injected.",
                         at_least(0)),
            &CheckpointIntegrity::corruptions_per_pb, "integrity.corruptions_per_pb")
      .bind(with_default(quantity_field("hash_bandwidth",
                                        "Hashing rate of one rank (one CPU core per GPU): XXH64 runs at 19.4 "
                                        "GB/s on one core (xxHash's README benchmark, i7-9700K).",
                                        QuantityKind::kDataRate, above(0)),
                         "155.2 Gbps"),
            &CheckpointIntegrity::hash_bytes_per_s_per_gpu, "integrity.hash_bytes_per_s_per_gpu", 1.0 / 8.0);

  Bindings<C> storage(object_field(
      "storage",
      "A shared Ceph-like object store (models/storage/storage_subsystem.hpp): OSD hosts with NVMe drives on "
      "the front-end network (or the backend), pools replicated or erasure coded, placement by a weighted "
      "pseudo-random hash over failure domains. Training jobs whose checkpoint target is `store` write every "
      "checkpoint and read it back on restart through it, sharing drives, NICs and the network with "
      "replication and recovery traffic. Writes series storage/..., table storage/operations, summary "
      "storage/... (docs/models/storage.md).",
      {}));
  storage
      .bind(with_default(enum_field("network",
                                    "The network whose hosts the OSD hosts are: `frontend` (/frontend, the nodes' "
                                    "storage NICs) or `backend` (/fabric, sharing the GPU NICs).",
                                    "storage network", {"frontend", "backend"}),
                         "frontend"),
            "network", [](C& c, const json& v) { c.on_backend = v == "backend"; })
      // The hosts' ids follow the cluster's nodes (map_storage_section).
      .key(required(integer_field("hosts", "OSD hosts (storage servers).", at_least(1))), "hosts")
      .key(with_default_note(integer_field("first_host",
                                           "Host of the network that is OSD host 0 (the rest follow); a host "
                                           "beyond the cluster's nodes.",
                                           at_least(0)),
                             "the cluster's node count: the first host after the nodes"))
      .bind(integer_field("hosts_per_rack", "OSD hosts per rack (the rack failure domain).", at_least(1)), &C::store,
            &ms::StoreConfig::hosts_per_rack, "hosts_per_rack")
      .bind(integer_field("drives_per_host",
                          "NVMe drives per OSD host, one OSD each; at most 128 (a 2U server has 24 to "
                          "36 NVMe bays, a JBOF behind one host up to about 100; each placement group "
                          "weighs every OSD, so 1,000 took 14 s to place).",
                          between(1, 128)),
            &C::store, &ms::StoreConfig::drives_per_host, "drives_per_host")
      .object(
          std::move(drive), [](C& c) -> ms::DriveSpec& { return c.store.drive; }, "drive")
      .bind(with_default(quantity_field("io_size",
                                        "Bytes per I/O operation (RADOS's 4 MiB objects): a drive moves "
                                        "min(bandwidth, IOPS x io_size).",
                                        QuantityKind::kDataSize, above(0)),
                         "4 MiB"),
            &C::store, &ms::StoreConfig::io_bytes, "io_bytes")
      .array([](C& c) -> std::vector<ms::PoolConfig>& { return c.store.pools; }, "pools", std::move(pool))
      .bind(with_default_note(quantity_field("recovery_bandwidth",
                                             "Cap on all backfill traffic together (Ceph's recovery throttles).",
                                             QuantityKind::kDataRate, above(0)),
                              "unthrottled: drives and network alone limit it"),
            "recovery_bytes_per_s", [](C& c, const json& v) { c.store.recovery_bytes_per_s = v.get<double>() / 8.0; })
      .bind(with_default(quantity_field("down_out_interval",
                                        "A down host's OSDs are marked out (and backfill starts) after this long "
                                        "(mon_osd_down_out_interval).",
                                        QuantityKind::kDuration, at_least(0)),
                         "600 s"),
            &C::store, &ms::StoreConfig::down_out_interval, "down_out_interval")
      .bind(number_field("full_ratio", "An OSD this full refuses writes (mon_osd_full_ratio).", between(0.01, 1)),
            &C::store, &ms::StoreConfig::full_ratio, "full_ratio")
      .bind(with_default(
                enum_field("resolution",
                           "How an operation moves its bytes: `flows` (one flow per client and primary host, and per "
                           "primary and "
                           "member: the fabric, NICs and drives shape it; clients x hosts + hosts^2 flows each), "
                           "`aggregate` (one flow per OSD host of exactly its drives' bytes, under capacities for the "
                           "clients' NICs together, each OSD host's NIC and each OSD hosts' leaf's uplinks: the fabric "
                           "beyond the leaves is left out; hosts flows each, for site-scale checkpoints; "
                           "docs/models/storage.md) or `auto` (aggregate for operations of at least `aggregate_from` "
                           "flows).",
                           "store resolution", {"flows", "aggregate", "auto"}),
                "flows"),
            "resolution",
            [](C& c, const json& v) {
              c.store.resolution = v == "aggregate" ? ms::StoreResolution::kAggregate
                                   : v == "auto"    ? ms::StoreResolution::kAuto
                                                    : ms::StoreResolution::kFlows;
            })
      .bind(with_default(number_field("aggregate_from",
                                      "`auto` resolution: an operation whose flow form holds at least this many "
                                      "flows (clients x hosts + hosts^2) runs aggregated (20,000: a 200-node "
                                      "job's checkpoint into 96 hosts, about 0.4 s of CPU per save at flow level).",
                                      at_least(1)),
                         20000),
            &C::store, &ms::StoreConfig::aggregate_from_flows, "aggregate_from_flows")
      .bind(integer_field("keep_checkpoints",
                          "Checkpoints each job keeps: older ones are deleted once a newer one is saved.", at_least(1)),
            &C::keep_checkpoints, "keep_checkpoints")
      .bind(with_default(quantity_field("series_interval",
                                        "Sampling interval of the drives' and pools' load while the store works "
                                        "(tables storage/osd_host_load and storage/pool_load: bit/s and utilisation "
                                        "per OSD host, client bit/s per pool); 0 s: no samples.",
                                        QuantityKind::kDuration, at_least(0)),
                         "1 s"),
            &C::series_interval, "series_interval")
      .object(std::move(integrity), &C::integrity, "integrity");
  return storage;
}

FieldSpec storage_section() {
  return optional_section(storage_bindings().spec(), "no shared store: checkpoints go to NVMe, a store host or a rate");
}

}  // namespace dcsim::tools::scenario
