#include "tools/scenario/economics_mapping.hpp"

#include <set>
#include <string>
#include <vector>

#include "models/economics/electricity_tariff.hpp"
#include "sim/error.hpp"
#include "tools/scenario/electricity_tariff_mapping.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
namespace econ = models::economics;

namespace {

const json* find_at(const json& j, const std::string& pointer) {
  const json::json_pointer p(pointer);
  return j.contains(p) ? &j.at(p) : nullptr;
}

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
                                            const models::ModelRegistries& registries, FieldOrigins& origins) {
  Mapper m(s);
  econ::EconomicsConfig out;
  econ::CostLedgerConfig& l = out.ledger;
  const std::string base = "/economics";
  // The ledger's fields are named by what they price ("capex.node_price.usd_per_node"); each is
  // recorded at the key that chose or set it, so the ledger's own checks point there.
  const OriginReader e(economics, base, "", origins);
  origins.record("cluster", base);
  if (!s.has_cluster) m.error(base, "needs /cluster: economics prices the nodes the run simulates");

  // Node price: by default the price preset named as the cluster's node preset.
  const bool node_named = e.contains("node_price");
  e.record("capex.node_price", "node_price");
  const std::string node_name = node_named ? e.json().at("node_price").get<std::string>() : s.cluster.node.preset;
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
  e.record("capex.fabric", "fabric_prices");  // the bill of materials it prices
  if (auto p = m.preset(registries.fabric_prices, e.at("fabric_prices", "capex.fabric_prices").get<std::string>(),
                        base + "/fabric_prices", base + "/fabric_prices_params")) {
    l.capex.fabric_prices = *p;
  }
  e.record("site_prices", "site_prices");  // the unmetered ports' prices the opex bills come from it too
  if (auto p = m.preset(registries.site_prices, e.at("site_prices", "capex.site_prices").get<std::string>(),
                        base + "/site_prices", base + "/site_prices_params")) {
    l.capex.site_prices = *p;
  }
  out.site = e.at("site", "opex.site").get<std::string>() == "own_building" ? econ::SiteKind::kOwnBuilding
                                                                            : econ::SiteKind::kColocation;
  // The IT power contracted sizes the cooling gear bought and the colocation bill.
  for (const char* field : {"opex.contracted_kw", "capex.gear"}) e.record(field, "contracted_power");
  if (e.contains("contracted_power")) out.contracted_kw = e.json().at("contracted_power").get<double>() / 1e3;
  // The ports billed are the uplink's (one list, so they cannot differ).
  origins.record("opex.ports", "/uplink/ports");
  if (e.contains("electricity")) {
    l.electricity = econ::flat_tariff(e.at("electricity", "electricity").get<double>() * econ::kJoulesPerKwh);
  }
  if (e.contains("electricity_tariff")) {
    if (e.contains("electricity")) {
      m.error(base + "/electricity_tariff", "given with /economics/electricity: the price is flat or by time, not both");
    }
    try {
      l.electricity =
          map_electricity_tariff(e.at("electricity_tariff", "electricity"), base + "/electricity_tariff", s.source);
    } catch (const sim::InputErrors& errors) {
      for (const auto& message : errors.messages()) m.raw_error(message);
    } catch (const sim::InputError& error) {  // the file cannot be opened
      m.raw_error(error.what());
    }
  }
  if (e.contains("owned_egress")) {
    l.owned_metered_egress = m.preset(registries.egress_tariffs,
                                      e.at("owned_egress", "owned_metered_egress").get<std::string>(),
                                      base + "/owned_egress", base + "/owned_egress_params");
  } else if (find_at(s.given, base + "/owned_egress_params") != nullptr) {
    m.error(base + "/owned_egress_params", "given without /economics/owned_egress: it would change nothing");
  }
  out.egress_bytes_per_month = e.at("egress_per_month", "egress_per_month").get<double>();
  out.stored_bytes = e.at("stored", "stored").get<double>();
  l.capex.spares_fraction = e.at("spares_fraction", "capex.spares_fraction").get<double>();

  const OriginReader d = e.object("depreciation", "depreciation.");
  l.depreciation.method = d.at("method", "method").get<std::string>() == "declining_balance"
                              ? econ::DepreciationMethod::kDecliningBalance
                              : econ::DepreciationMethod::kStraightLine;
  l.depreciation.years = d.at("years", "years").get<double>();
  l.depreciation.residual_fraction = d.at("residual_fraction", "residual_fraction").get<double>();
  l.depreciation.declining_factor = d.at("declining_factor", "declining_factor").get<double>();
  if (l.depreciation.method != econ::DepreciationMethod::kDecliningBalance &&
      find_at(s.given, base + "/depreciation/declining_factor") != nullptr) {
    m.error(base + "/depreciation/declining_factor", "applies to method declining_balance only");
  }
  if (e.contains("financing")) {
    const OriginReader f = e.object("financing", "financing.");
    l.financing = econ::FinancingConfig{f.at("rate_per_year", "rate_per_year").get<double>(),
                                        f.at("years", "years").get<double>()};
  }
  l.credit_book_value_at_horizon = e.at("credit_book_value_at_horizon", "credit_book_value_at_horizon").get<bool>();
  // Without a horizon the run's own span is priced: its /duration, or until its work is done
  // (a run with neither is refused by the subsystem, where the work is known).
  e.record("horizon", "horizon");
  if (e.contains("horizon")) out.horizon = sim::Time::from_seconds(e.json().at("horizon").get<double>());

  const json& repairs = e.at("repairs", "repairs");
  for (std::size_t i = 0; i < repairs.size(); ++i) {
    const auto name = repairs[i].at("class").get<std::string>();
    const std::string ptr = base + "/repairs/" + std::to_string(i) + "/class";
    origins.record("repairs.usd_per_fault." + name, base + "/repairs/" + std::to_string(i) + "/price");
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
  if (e.contains("repair_default")) {
    if (!s.reliability) m.error(base + "/repair_default", "given without /reliability: no fault would be priced");
    out.repair_default_usd = e.json().at("repair_default").get<double>();
  }

  const double cluster_gpus = s.has_cluster ? static_cast<double>(s.cluster.nodes) * s.cluster.node.gpus : 0.0;
  std::set<std::string> names;
  const json& cloud = e.at("cloud", "cloud");
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    const std::string index = std::to_string(i);
    const OriginReader c(cloud[i], base + "/cloud/" + index, "cloud[" + index + "].", origins);
    const std::string& ptr = c.pointer();
    auto offer = m.preset(registries.cloud_offers, c.at("offer", "offer").get<std::string>(), ptr + "/offer",
                          ptr + "/offer_params");
    if (!offer) continue;
    if (!names.insert(offer->name).second) {
      m.error(ptr + "/offer", "expected each offer once (it names the option's outputs), got '" + offer->name +
                                  "' again");
      continue;
    }
    econ::CloudOption option;
    option.offer = *offer;
    // The offer's and tariff's prices are their params' names (the preset's own where not given).
    if (c.contains("offer_params")) c.object("offer_params", "offer.").record_each_key();
    const bool tariff_named = c.contains("egress_tariff");
    const std::string tariff =
        tariff_named ? c.at("egress_tariff", "egress").get<std::string>() : offer->egress_tariff;
    if (!tariff_named) c.record("egress", "offer");  // the offer's provider tariff
    if (c.contains("egress_params")) c.object("egress_params", "egress.").record_each_key();
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
      option.committed_gpus =
          c.contains("committed_gpus") ? c.at("committed_gpus", "committed_gpus").get<double>() : cluster_gpus;
    }
    if (offer->purchase == econ::CloudPurchase::kSpot) {
      option.job_gpus = c.contains("job_gpus") ? c.at("job_gpus", "job_gpus").get<double>()
                                               : static_cast<double>(s.cluster.node.gpus);
      if (c.contains("lost_work_per_preemption")) {
        option.lost_work_per_preemption_s = c.at("lost_work_per_preemption", "lost_work_per_preemption_s").get<double>();
      }
    }
    l.cloud.push_back(std::move(option));
  }
  m.flush();
  return out;
}

}  // namespace dcsim::tools::scenario
