#include "tools/scenario/cloud_pool_spec.hpp"

#include <string>

#include "sim/error.hpp"
#include "tools/scenario/registry_params.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;

Bindings<models::cluster::CloudPoolConfig> cloud_pool_bindings(const models::ModelRegistries& registries) {
  using C = models::cluster::CloudPoolConfig;
  Bindings<C> transfer(object_field("transfer", "Data a job's move to the cloud carries over the WAN.", {}));
  transfer
      .bind(with_default(quantity_field("dataset",
                                        "Sent on-prem -> cloud before a job starts on instances (at each "
                                        "start: a fresh instance has nothing); ingress, free at the "
                                        "providers, but the job holds its instances while it arrives.",
                                        QuantityKind::kDataSize, at_least(0)),
                         "0 B"),
            &C::dataset_bytes, "cloud_pool.transfer.dataset")
      .bind(with_default(quantity_field("results",
                                        "Sent cloud -> on-prem when a job finishes on instances: egress, "
                                        "billed at the offer's provider tariff.",
                                        QuantityKind::kDataSize, at_least(0)),
                         "0 B"),
            &C::results_bytes, "cloud_pool.transfer.results")
      .bind(with_default(quantity_field("wan_bandwidth", "Rate of one transfer (each gets the whole rate; not shared).",
                                        QuantityKind::kDataRate, above(0)),
                         "10 Gbps"),
            &C::wan_bits_per_s, "cloud_pool.transfer.wan_bandwidth");

  Bindings<C> pool(object_field(
      "cloud_pool",
      "Cloud instances that a bursting scheduler (/policies/scheduler cloud_burst) rents when on-prem capacity "
      "runs short; they exist only while provisioned, are billed while they exist, draw no on-prem power and, "
      "for a spot offer, are preempted at its rate, interrupting their jobs (docs/models/scheduling.md; "
      "models/cluster/cloud_pool.hpp). Needs a scheduler that uses it.",
      {}));
  pool.names_object("cloud_pool");
  // The offer is built by map_cloud_pool, from the preset and the params written over it; the
  // model names a figure of it "cloud_pool.offer_params.<param>".
  pool.key(required(enum_field("offer",
                               "Cloud GPU offer of the instances (`dcsim list \"cloud offer\"`): GPUs per instance "
                               "(must be the node's), price, purchase (spot: preempted), provider egress tariff.",
                               registries.cloud_offers.kind(), registries.cloud_offers.names())),
           "cloud_pool.offer")
      .key(params_object_field("offer_params",
                               "Figures of the chosen offer to override (`dcsim list \"cloud offer\"`); keys it "
                               "does not document are errors, keys left out keep the preset's figure.",
                               entry_params(registries.cloud_offers)),
           at_given_params_for("cloud_pool.offer_params"))
      .bind(required(integer_field("max_instances", "Most instances provisioned at once.", at_least(1))),
            &C::max_instances, "cloud_pool.max_instances")
      .bind(with_default(quantity_field("provisioning_delay",
                                        "From a request until the instance is usable: capacity, boot, image "
                                        "(assumption; not billed: AWS bills from the running state).",
                                        QuantityKind::kDuration, at_least(0)),
                         "10 min"),
            &C::provisioning_delay, "cloud_pool.provisioning_delay")
      .bind(with_default(quantity_field("idle_release",
                                        "An instance no job has held for this long is released (billed until "
                                        "then).",
                                        QuantityKind::kDuration, at_least(0)),
                         "10 min"),
            &C::idle_release, "cloud_pool.idle_release")
      .object(
          std::move(transfer), [](C& c) -> C& { return c; }, "cloud_pool.transfer");
  return pool;
}

FieldSpec cloud_pool_field(const models::ModelRegistries& registries) {
  return optional_section(cloud_pool_bindings(registries).spec(), "(absent: on-prem nodes only)");
}

void check_cloud_pool_cross_field(const json& given, const json& resolved, const models::ModelRegistries& registries,
                                  ErrorList& errors) {
  const json* pool = find_at(resolved, "/cluster/cloud_pool");
  const json* scheduler = find_at(resolved, "/policies/scheduler");
  if (scheduler != nullptr && scheduler->is_string()) {
    if (const auto* entry = registries.schedulers.find(scheduler->get<std::string>())) {
      const auto policy = entry->factory(sim::Params::defaults(entry->params));
      const bool bursts = policy != nullptr && policy->uses_cloud_pool();
      if (pool != nullptr && !bursts) {
        errors.add("/cluster/cloud_pool", "expected /policies/scheduler to send work to the pool (cloud_burst), got " +
                                              scheduler->dump() + ", which would never use it");
      } else if (pool == nullptr && bursts) {
        errors.add("/policies/scheduler", "expected a /cluster/cloud_pool for " + scheduler->dump() +
                                              " to send work to, got none");
      }
    }
  }
  if (pool == nullptr || !pool->contains("offer")) return;
  const std::string name = pool->at("offer").get<std::string>();
  const auto* entry = registries.cloud_offers.find(name);
  if (entry == nullptr) return;  // the enum reported it
  const std::string params_pointer = "/cluster/cloud_pool/offer_params";
  const std::size_t before = errors.errors().size();
  check_params_of_entry(find_at(given, params_pointer), params_pointer, registries.cloud_offers.kind(), name,
                        entry_params(registries.cloud_offers), errors);
  if (errors.errors().size() != before) return;
  const json* resolved_params = find_at(resolved, params_pointer);
  models::economics::CloudGpuOffer offer;
  try {
    offer = entry->factory(params_from_resolved(resolved_params));
  } catch (const sim::ConfigError& e) {
    const bool named = resolved_params != nullptr && resolved_params->contains(e.field());
    errors.add(named ? pointer_append(params_pointer, e.field()) : "/cluster/cloud_pool/offer",
               (named ? "" : e.field() + ": ") + e.detail());
    return;
  }
  if (const json* gpus = find_at(resolved, "/cluster/node/gpus"); gpus != nullptr && gpus->is_number_integer()) {
    if (offer.gpus_per_instance != gpus->get<int>()) {
      errors.add("/cluster/cloud_pool/offer",
                 "expected an offer whose instances have the node's " + gpus->dump() +
                     " GPUs (a job holds whole instances as it holds whole nodes), got \"" + name + "\" with " +
                     std::to_string(offer.gpus_per_instance));
    }
  }
}

std::optional<models::cluster::CloudPoolConfig> map_cloud_pool(const json& cluster,
                                                               const models::ModelRegistries& registries) {
  if (!cluster.contains("cloud_pool")) return std::nullopt;
  const json& pool = cluster.at("cloud_pool");
  models::cluster::CloudPoolConfig out;
  cloud_pool_bindings(registries).apply(pool, out);
  const auto& entry = registries.cloud_offers.get(pool.at("offer").get<std::string>());
  out.offer = entry.factory(params_from_resolved(pool.contains("offer_params") ? &pool.at("offer_params") : nullptr));
  return out;
}

}  // namespace dcsim::tools::scenario
