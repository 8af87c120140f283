#include "tools/scenario/uplink_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;

Bindings<models::network::UplinkConfig> uplink_bindings() {
  using C = models::network::UplinkConfig;
  using S = models::network::UplinkStream;
  using P = models::network::PortGroup;
  Bindings<P> port(with_default(object_array_field("ports",
                                                   "Unmetered internet ports: their total speed caps the transfers, "
                                                   "and /economics bills each a flat monthly fee by speed (site "
                                                   "prices' port list).",
                                                   {}),
                                json::array()));
  port.bind(required(quantity_field("speed", "Port speed.", QuantityKind::kDataRate, above(0))), &P::speed_bps,
            "speed_bps")
      .bind(required(wide_integer(integer_field("count", "Ports of this speed.", at_least(1)))), &P::count, "count");

  // size or rate (not both, not neither: map_uplink_section checks): rate x every is the size.
  Bindings<S> stream(with_default(
      object_array_field("streams",
                         "Transfers the scenario declares: occurrence k is due at start + k x every and sends size + "
                         "k x grow_by (or rate x every), after the stream's earlier transfers.",
                         {}),
      json::array()));
  stream.bind(required(non_empty(string_field("name", "Stream name (unique); names its transfers."))), &S::name, "name")
      .bind_enum(with_default(enum_field("direction",
                                         "out: leaves the site (billed egress); in: enters it (ingress, free, its own "
                                         "capacity).",
                                         "direction", {"out", "in"}),
                              "out"),
                 &S::direction, "direction",
                 {{"out", models::network::UplinkDirection::kOut}, {"in", models::network::UplinkDirection::kIn}})
      .bind(with_default_note(quantity_field("size", "Bytes of each transfer (give size or rate).",
                                             QuantityKind::kDataSize, above(0)),
                              "none: give size or rate"),
            &S::bytes, "bytes")
      .key(with_default_note(quantity_field("rate",
                                            "A steady flow, sent as one transfer of rate x every each period (give "
                                            "size or rate).",
                                            QuantityKind::kDataRate, above(0)),
                             "none: give size or rate"))
      .bind(with_default_note(quantity_field("every", "Period between transfers; a repeating stream needs /duration.",
                                             QuantityKind::kDuration, above(0)),
                              "size: once; rate: 1 h"),
            &S::every, "every")
      .bind(with_default(quantity_field("start", "When the first transfer is due.", QuantityKind::kDuration,
                                        at_least(0)),
                         "0 s"),
            &S::start, "start")
      .bind(with_default(quantity_field("grow_by", "Added to each later transfer (data that grows).",
                                        QuantityKind::kDataSize, at_least(0)),
                         "0 B"),
            &S::grow_bytes, "grow_bytes");

  Bindings<models::network::UplinkGateway> gateway(optional_section(
      object_field("gateway",
                   "Where the ports terminate: a host of a network (the border routers), beyond the cluster's nodes "
                   "and the store's OSD hosts. Every transfer then travels that network as flows between the hosts "
                   "its data is on and the gateway, sharing links with everything else there, the ports' speed a "
                   "capacity in the same solve (models/network/fabric_uplink.hpp): a checkpoint copy from the "
                   "store's OSD hosts (store checkpoints), the remote store host, or the job's nodes; a stream from "
                   "the store's OSD hosts on that network, else from every cluster node. Summary uplink/network, "
                   "gateway_host, failed_flows.",
                   {}),
      "no network in between: the ports alone carry the transfers, shared equally"));
  gateway
      .bind_enum(with_default(enum_field("network",
                                         "frontend: the nodes' storage NICs (/frontend), as sites keep internet "
                                         "traffic off the GPU rails; backend: the GPU fabric (/fabric).",
                                         "network", {"frontend", "backend"}),
                              "frontend"),
                 &models::network::UplinkGateway::on_backend, "gateway.network",
                 {{"frontend", false}, {"backend", true}})
      .bind(required(integer_field("host", "The gateway's host on that network.", at_least(0))),
            &models::network::UplinkGateway::host, "gateway.host");

  Bindings<models::network::CheckpointCopies> copies(optional_section(
      object_field("checkpoint_copies",
                   "Copies of the training jobs' checkpoints sent off-site, whole (14 B per parameter), one queue "
                   "per job; jobs wait for them only with staging_slots.",
                   {}),
      "no checkpoint leaves the site"));
  copies
      .bind(integer_field("every_nth", "Copy every nth checkpoint of each job (1: all of them).", at_least(1)),
            &models::network::CheckpointCopies::every_nth, "checkpoint_copies.every_nth")
      .bind(with_default_note(integer_field("staging_slots",
                                            "Local staging space for checkpoints awaiting their copy, in checkpoints "
                                            "per job: while this many of a job's checkpoints wait for or are in their "
                                            "copy, the job cannot write another and stalls (GPUs held and idle) until "
                                            "a copy finishes (summary uplink/job_stall_s, goodput/stalled_gpu_h).",
                                            at_least(1)),
                              "unlimited: jobs never wait for their copies, the port's bound shows as copies that "
                              "queue (uplink/staged_checkpoints_max says how many slots that took)"),
            &models::network::CheckpointCopies::staging_slots, "checkpoint_copies.staging_slots");

  Bindings<C> uplink(object_field(
      "uplink",
      "The site's internet uplink (models/network/site_uplink.hpp): its ports, and the transfers that cross it, "
      "sharing the ports' total speed equally (full duplex: egress and ingress each have it all). Economics bills "
      "these ports' flat fee and the egress bytes in the month they left. Writes series uplink/..., table "
      "uplink/transfers, summary uplink/... (docs/models/economics.md).",
      {}));
  uplink.array(&C::ports, "ports", std::move(port))
      .array(&C::streams, "streams", std::move(stream))
      .object(
          std::move(gateway), [](C& c) -> models::network::UplinkGateway& { return c.gateway.emplace(); }, "gateway")
      .object(
          std::move(copies), [](C& c) -> models::network::CheckpointCopies& { return c.checkpoint_copies.emplace(); },
          "checkpoint_copies");
  return uplink;
}

FieldSpec uplink_section() {
  return optional_section(uplink_bindings().spec(), "no uplink: nothing crosses it and no port is billed");
}

std::vector<std::string> migrate_legacy_ports(json& doc) {
  std::vector<std::string> notices;
  if (!doc.is_object() || !doc.contains("economics") || !doc["economics"].is_object()) return notices;
  json& economics = doc["economics"];
  if (!economics.contains("ports")) return notices;
  if (doc.contains("uplink") && (!doc["uplink"].is_object() || doc["uplink"].contains("ports"))) return notices;
  doc["uplink"]["ports"] = economics["ports"];
  economics.erase("ports");
  notices.push_back(
      "/economics/ports is the format before /uplink: the ports are /uplink/ports now (their speed "
      "carries the transfers, economics bills their fee; move them there to silence this)");
  return notices;
}

}  // namespace dcsim::tools::scenario
