#include "tools/scenario/economics_mapping.hpp"

#include <set>
#include <string>
#include <vector>

#include "models/economics/electricity_tariff.hpp"
#include "sim/error.hpp"
#include "tools/scenario/economics_spec.hpp"
#include "tools/scenario/electricity_tariff_mapping.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace econ = models::economics;

namespace {

class Mapper {
 public:
  explicit Mapper(const Scenario& s) : s_(s) {}

  void error(const std::string& pointer, const std::string& message) {
    messages_.push_back(s_.source + ":" + pointer + ": " + message);
  }
  // A message that already says where (a CSV file and line).
  void raw_error(const std::string& message) { messages_.push_back(message); }
  void flush() {
    for (const auto& e : errors_.errors()) error(e.pointer, e.message);
    errors_ = ErrorList();
    if (!messages_.empty()) throw sim::InputErrors(std::move(messages_));
  }

  // The preset `name` of `registry` with the params object at `params_pointer` written over it.
  // `name_pointer` is where the choice was made (or defaulted).
  template <class T>
  std::optional<T> preset(const sim::Registry<econ::PricePresetFactory<T>>& registry, const std::string& name,
                          const std::string& name_pointer, const std::string& params_pointer) {
    const auto* entry = registry.find(name);
    if (entry == nullptr) {
      error(name_pointer, "no " + registry.kind() + " named '" + name + "'; valid: " + registry.names_joined());
      return std::nullopt;
    }
    const json* given = find_at(s_.given, params_pointer);
    const std::size_t before = errors_.errors().size();
    check_params_of_entry(given, params_pointer, registry.kind(), name, entry_params(registry), errors_);
    if (errors_.errors().size() != before) return std::nullopt;
    try {
      return entry->factory(params_from_resolved(find_at(s_.resolved, params_pointer)));
    } catch (const sim::ConfigError& e) {
      const json* resolved = find_at(s_.resolved, params_pointer);
      const bool named = resolved != nullptr && resolved->contains(e.field());
      error(named ? pointer_append(params_pointer, e.field()) : name_pointer,
            (named ? "" : e.field() + ": ") + e.detail());
      return std::nullopt;
    }
  }

 private:
  const Scenario& s_;
  ErrorList errors_;
  std::vector<std::string> messages_;
};

}  // namespace

econ::EconomicsConfig map_economics_section(const json& economics, const Scenario& s,
                                            const models::ModelRegistries& registries) {
  Mapper m(s);
  econ::EconomicsConfig out;
  economics_bindings(registries).apply(economics, out);
  // What no single key says: the presets with their params written over them, the choices that
  // depend on the cluster, /reliability or /fabric, and the keys that exclude each other.
  econ::CostLedgerConfig& l = out.ledger;
  const std::string base = "/economics";
  if (!s.has_cluster) m.error(base, "needs /cluster: economics prices the nodes the run simulates");

  // Node price: by default the price preset named as the cluster's node preset.
  const bool node_named = economics.contains("node_price");
  const std::string node_name = node_named ? economics.at("node_price").get<std::string>() : s.cluster.node.preset;
  if (!node_named && !registries.node_prices.contains(node_name)) {
    m.error(base + "/node_price", "missing; no node price preset for the node preset '" + node_name +
                                      "' (/cluster/node/preset); choose one of " +
                                      registries.node_prices.names_joined() + " and override its prices");
  } else if (auto p = m.preset(registries.node_prices, node_name, base + "/node_price", base + "/node_price_params")) {
    l.capex.node_price = *p;
  }
  if (!s.fabric) {
    for (const char* key : {"fabric_prices", "fabric_prices_params"}) {
      if (find_at(s.given, base + "/" + key) != nullptr) {
        m.error(base + "/" + key, "given without /fabric: there is no bill of materials to price");
      }
    }
  }
  if (auto p = m.preset(registries.fabric_prices, economics.at("fabric_prices").get<std::string>(),
                        base + "/fabric_prices", base + "/fabric_prices_params")) {
    l.capex.fabric_prices = *p;
  }
  if (auto p = m.preset(registries.site_prices, economics.at("site_prices").get<std::string>(), base + "/site_prices",
                        base + "/site_prices_params")) {
    l.capex.site_prices = *p;
  }
  if (economics.contains("electricity_tariff")) {
    if (economics.contains("electricity")) {
      m.error(base + "/electricity_tariff", "given with /economics/electricity: the price is flat or by time, not both");
    }
    try {
      l.electricity =
          map_electricity_tariff(economics.at("electricity_tariff"), base + "/electricity_tariff", s.source);
    } catch (const sim::InputErrors& errors) {
      for (const auto& message : errors.messages()) m.raw_error(message);
    } catch (const sim::InputError& error) {  // the file cannot be opened
      m.raw_error(error.what());
    }
  }
  if (economics.contains("owned_egress")) {
    l.owned_metered_egress = m.preset(registries.egress_tariffs, economics.at("owned_egress").get<std::string>(),
                                      base + "/owned_egress", base + "/owned_egress_params");
  } else if (find_at(s.given, base + "/owned_egress_params") != nullptr) {
    m.error(base + "/owned_egress_params", "given without /economics/owned_egress: it would change nothing");
  }
  if (l.depreciation.method != econ::DepreciationMethod::kDecliningBalance &&
      find_at(s.given, base + "/depreciation/declining_factor") != nullptr) {
    m.error(base + "/depreciation/declining_factor", "applies to method declining_balance only");
  }

  const json& repairs = economics.at("repairs");
  for (std::size_t i = 0; i < repairs.size(); ++i) {
    const auto name = repairs[i].at("class").get<std::string>();
    const std::string ptr = base + "/repairs/" + std::to_string(i) + "/class";
    bool known = false;
    if (s.reliability) {
      for (const auto& c : s.reliability->classes) known = known || c.name == name;
    }
    if (!known) {
      m.error(ptr, "no /reliability class named '" + name + "': its price would never be charged");
    } else if (!l.repairs.usd_per_fault.emplace(name, repairs[i].at("price").get<double>()).second) {
      m.error(ptr, "expected each class once, got '" + name + "' again");
    }
  }
  if (economics.contains("repair_default") && !s.reliability) {
    m.error(base + "/repair_default", "given without /reliability: no fault would be priced");
  }

  const double cluster_gpus = s.has_cluster ? static_cast<double>(s.cluster.nodes) * s.cluster.node.gpus : 0.0;
  std::set<std::string> names;
  const json& cloud = economics.at("cloud");
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    const json& c = cloud[i];
    const std::string ptr = base + "/cloud/" + std::to_string(i);
    auto offer =
        m.preset(registries.cloud_offers, c.at("offer").get<std::string>(), ptr + "/offer", ptr + "/offer_params");
    if (!offer) continue;
    if (!names.insert(offer->name).second) {
      m.error(ptr + "/offer", "expected each offer once (it names the option's outputs), got '" + offer->name +
                                  "' again");
      continue;
    }
    econ::CloudOption option;
    option.offer = *offer;
    const bool tariff_named = c.contains("egress_tariff");
    const std::string tariff = tariff_named ? c.at("egress_tariff").get<std::string>() : offer->egress_tariff;
    if (auto t = m.preset(registries.egress_tariffs, tariff, ptr + (tariff_named ? "/egress_tariff" : "/offer"),
                          ptr + "/egress_params")) {
      option.egress = *t;
    }
    const auto only_for = [&](const char* key, econ::CloudPurchase purchase, const char* what) {
      if (c.contains(key) && offer->purchase != purchase) {
        m.error(ptr + "/" + key, std::string("applies to ") + what + " offers only; '" + offer->name + "' is " +
                                     econ::purchase_name(offer->purchase));
      }
    };
    only_for("committed_gpus", econ::CloudPurchase::kReserved, "reserved");
    only_for("job_gpus", econ::CloudPurchase::kSpot, "spot");
    only_for("lost_work_per_preemption", econ::CloudPurchase::kSpot, "spot");
    if (offer->purchase == econ::CloudPurchase::kReserved) {
      option.committed_gpus = c.contains("committed_gpus") ? c.at("committed_gpus").get<double>() : cluster_gpus;
    }
    if (offer->purchase == econ::CloudPurchase::kSpot) {
      option.job_gpus =
          c.contains("job_gpus") ? c.at("job_gpus").get<double>() : static_cast<double>(s.cluster.node.gpus);
      if (c.contains("lost_work_per_preemption")) {
        option.lost_work_per_preemption_s = c.at("lost_work_per_preemption").get<double>();
      }
    }
    l.cloud.push_back(std::move(option));
  }
  m.flush();
  return out;
}

}  // namespace dcsim::tools::scenario
