#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include <CLI/CLI.hpp>

#include "models/datacenter/economics_site.hpp"
#include "models/economics/site_capex.hpp"
#include "models/network/bill_of_materials.hpp"
#include "models/network/bisection.hpp"
#include "sim/error.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/scenario/binding.hpp"
#include "tools/scenario/economics_spec.hpp"
#include "tools/scenario/fabric_mapping.hpp"
#include "tools/topo/bom_export.hpp"
#include "tools/topo/topology_export.hpp"

namespace dcsim::tools::cli {

namespace {

namespace econ = models::economics;

// The sections `topo` reads: the networks and, to price them, the cluster, the facility's cooling
// gear and /economics (without its repair prices, which price faults). The rest (traffic,
// workload, reliability, storage, ...) is left out before the scenario is loaded, so a file is never
// refused for a section topo does not use: a traffic pattern too large to generate, a trace file
// that is not there, a run too long for the step guard. Kept: /policies (a cloud pool needs its
// scheduler), /frontend when exported or priced.
nlohmann::json topo_document(nlohmann::json doc, bool frontend) {
  if (!doc.is_object()) return doc;  // refused by the loader as it is
  const bool priced = doc.contains("economics");
  nlohmann::json out = nlohmann::json::object();
  for (const char* key : {"name", "description", "seed", "cluster", "policies", "fabric"}) {
    if (doc.contains(key)) out[key] = std::move(doc[key]);
  }
  if (doc.contains("frontend") && (frontend || priced)) out["frontend"] = std::move(doc["frontend"]);
  if (priced) {
    if (doc.contains("facility")) out["facility"] = std::move(doc["facility"]);
    out["economics"] = std::move(doc["economics"]);
    if (out["economics"].is_object()) {
      out["economics"].erase("repairs");
      out["economics"].erase("repair_default");
    }
  }
  return out;
}

scenario::Scenario load_for_topo(const ScenarioArgs& args, bool frontend, const models::ModelRegistries& registries) {
  std::ifstream in(args.file, std::ios::binary);
  if (std::filesystem::is_directory(args.file) || !in) {
    throw sim::InputError(args.file + ": cannot open scenario file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json doc = scenario::parse_json_text(text.str(), args.file);
  // The overrides first, as `run` applies them; then what topo does not read goes.
  std::vector<std::string> sets = args.overrides;
  if (args.seed) sets.push_back("seed=" + *args.seed);
  for (const auto& set : sets) scenario::apply_override(doc, set);
  auto loaded = scenario::load_scenario_json(topo_document(std::move(doc), frontend), args.file, {}, std::nullopt,
                                             registries, resource_limits(args.max_memory));
  for (const auto& notice : loaded.notices) std::cerr << "dcsim: note: " << notice << "\n";
  return loaded;
}

// The site's capex config as a run builds it (nodes, both networks, cooling gear), or none without
// /economics. `exported`: the bill of materials of the network being exported (built once); the
// other network, if any, is built here.
std::optional<econ::CapexConfig> site_capex(const scenario::Scenario& s, const models::ModelRegistries& registries,
                                            const models::network::BillOfMaterials& exported, bool frontend) {
  if (!s.economics) return std::nullopt;
  const auto bom_of = [&](const std::optional<scenario::FabricScenario>& network, bool is_exported)
      -> std::optional<models::network::BillOfMaterials> {
    if (!network) return std::nullopt;
    if (is_exported) return exported;
    return models::network::bill_of_materials(scenario::build_topology(*network, registries, s.source));
  };
  return econ::site_capex_config(*s.economics, models::datacenter::site_shape(s.cluster, s.facility),
                                 bom_of(s.fabric, !frontend), bom_of(s.frontend, frontend));
}

// capex() with its ConfigError located at the scenario key it came from (as `run` reports it).
econ::Capex priced(const scenario::Scenario& s, const models::ModelRegistries& registries,
                   const std::function<econ::Capex()>& price) {
  try {
    return price();
  } catch (const sim::ConfigError& e) {
    if (!s.resolved.contains("economics")) throw;
    const sim::ConfigError error("capex." + e.field(), e.detail());
    const auto pointer =
        scenario::economics_bindings(registries).pointer_of(error.field(), "/economics", &s.resolved["economics"]);
    if (!pointer) throw sim::InputError(s.source + ": " + error.field() + ": " + error.detail());
    throw scenario::config_error_at(s.source, *pointer, error, &s.resolved);
  }
}

}  // namespace

Command add_topo_command(CLI::App& app, const CommandContext& context) {
  struct Args {
    ScenarioArgs scenario;
    std::string format = "dot";
    std::string output;
    bool links = false;
    bool bom = false;
    bool json = false;
    std::string network = "backend";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("topo", "export a scenario's fabric (or its front-end network): Graphviz dot, GraphML, its link table or its bill of materials");
  args->scenario.add_to(*cmd);
  cmd->add_option("--format", args->format, "dot (default), graphml, or links (CSV: link,src,dst,bandwidth_bps,...)")
      ->check(CLI::IsMember({"dot", "graphml", "links"}));
  cmd->add_flag("--links", args->links, "same as --format links: the link ids the flows table's routes use");
  auto* bom_flag = cmd->add_flag("--bom", args->bom,
                            "the bill of materials: switches by tier and preset (power), cables by speed and media, optics by reach, NIC ports; and the bisection bandwidth; with /economics, each line's price, the network's total and the site's capex by category");
  cmd->add_flag("--json", args->json, "with --bom: print it as JSON")->needs(bom_flag);
  cmd->add_option("--network", args->network,
                  "backend (default: /fabric, the GPUs' compute NICs) or frontend (/frontend, the storage NICs)")
      ->check(CLI::IsMember({"backend", "frontend"}));
  cmd->add_option("-o,--output", args->output, "write to FILE instead of stdout");
  return {cmd, [args, &context] {
            const bool frontend = args->network == "frontend";
            const auto scenario = load_for_topo(args->scenario, frontend, context.registries);
            const auto& network = frontend ? scenario.frontend : scenario.fabric;
            if (!network) {
              throw sim::InputError(scenario.source + ": has no " + (frontend ? "/frontend" : "/fabric") +
                                    " section to export");
            }
            const auto topology = scenario::build_topology(*network, context.registries, scenario.source);
            const std::string format = args->bom ? "bom" : args->links ? "links" : args->format;
            // Priced before anything is written, so a missing price leaves no half a table.
            std::optional<models::network::BillOfMaterials> bom;
            std::optional<std::pair<econ::Capex, econ::Capex>> prices;  // the network's, the site's
            if (format == "bom") {
              bom = models::network::bill_of_materials(topology);
              if (const auto site = site_capex(scenario, context.registries, *bom, frontend)) {
                prices.emplace(priced(scenario, context.registries, [&] { return econ::network_capex(*site, *bom); }),
                               priced(scenario, context.registries, [&] { return econ::capex(*site); }));
              }
            }
            const auto write = [&](std::ostream& out) {
              if (format == "bom") {
                const double bisection = models::network::bisection_bandwidth_bps(topology);
                if (args->json) {
                  auto j = topo::bom_json(*bom);
                  j["bisection_bps"] = bisection;
                  j["tiers"] = topology.max_tier();
                  if (scenario.has_cluster) j["cluster_nodes"] = scenario.cluster.nodes;
                  if (prices) {
                    j.update(topo::price_json(prices->first, prices->second,
                                              scenario.economics->ledger.capex.fabric_prices.name));
                  }
                  out << j.dump(2) << "\n";
                } else {
                  topo::write_bom_table(*bom, out);
                  if (bisection > 0) {
                    out << "bisection: " << bisection / 1e12 << " Tb/s (" << topology.max_tier()
                        << " switch tiers; lower vs upper half of the hosts, one direction)\n";
                  }
                  if (scenario.has_cluster && bom->hosts > scenario.cluster.nodes) {
                    out << "hosts: built for " << bom->hosts << ", " << scenario.cluster.nodes
                        << " of them cluster nodes: the other " << bom->hosts - scenario.cluster.nodes
                        << " are priced as built\n";
                  }
                  if (prices) {
                    topo::write_price_table(prices->first, prices->second,
                                            scenario.economics->ledger.capex.fabric_prices.name, out);
                  }
                }
              } else if (format == "graphml") {
                topo::write_graphml(topology, out);
              } else if (format == "links") {
                topo::write_link_table(topology, out);
              } else {
                topo::write_dot(topology, out);
              }
            };
            if (args->output.empty()) {
              write(std::cout);
              return 0;
            }
            // Written under a temporary name, so a failed export leaves no file that looks complete.
            const std::string tmp = args->output + ".tmp";
            {
              std::ofstream out(tmp, std::ios::binary);
              if (!out) throw sim::InputError(args->output + ": cannot write");
              write(out);
              if (!out) throw sim::InputError(args->output + ": cannot write");
            }
            if (std::rename(tmp.c_str(), args->output.c_str()) != 0) {
              throw sim::InputError(args->output + ": cannot write");
            }
            return 0;
          }};
}

}  // namespace dcsim::tools::cli
