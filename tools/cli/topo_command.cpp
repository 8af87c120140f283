#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "models/network/bill_of_materials.hpp"
#include "models/network/bisection.hpp"
#include "sim/error.hpp"
#include "tools/cli/command.hpp"
#include "tools/cli/scenario_args.hpp"
#include "tools/scenario/fabric_mapping.hpp"
#include "tools/topo/bom_export.hpp"
#include "tools/topo/topology_export.hpp"

namespace dcsim::tools::cli {

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
                            "the bill of materials: switches by tier and preset (power), cables by speed and media, optics by reach, NIC ports; and the bisection bandwidth");
  cmd->add_flag("--json", args->json, "with --bom: print it as JSON")->needs(bom_flag);
  cmd->add_option("--network", args->network,
                  "backend (default: /fabric, the GPUs' compute NICs) or frontend (/frontend, the storage NICs)")
      ->check(CLI::IsMember({"backend", "frontend"}));
  cmd->add_option("-o,--output", args->output, "write to FILE instead of stdout");
  return {cmd, [args, &context] {
            const auto scenario = args->scenario.load(context.registries);
            const bool frontend = args->network == "frontend";
            const auto& network = frontend ? scenario.frontend : scenario.fabric;
            if (!network) {
              throw sim::InputError(scenario.source + ": has no " + (frontend ? "/frontend" : "/fabric") +
                                    " section to export");
            }
            const auto topology = scenario::build_topology(*network, context.registries, scenario.source);
            const std::string format = args->bom ? "bom" : args->links ? "links" : args->format;
            const auto write = [&](std::ostream& out) {
              if (format == "bom") {
                const auto bom = models::network::bill_of_materials(topology);
                const double bisection = models::network::bisection_bandwidth_bps(topology);
                if (args->json) {
                  auto j = topo::bom_json(bom);
                  j["bisection_bps"] = bisection;
                  j["tiers"] = topology.max_tier();
                  if (scenario.has_cluster) j["cluster_nodes"] = scenario.cluster.nodes;
                  out << j.dump(2) << "\n";
                } else {
                  topo::write_bom_table(bom, out);
                  if (bisection > 0) {
                    out << "bisection: " << bisection / 1e12 << " Tb/s (" << topology.max_tier()
                        << " switch tiers; lower vs upper half of the hosts, one direction)\n";
                  }
                  if (scenario.has_cluster && bom.hosts > scenario.cluster.nodes) {
                    out << "hosts: built for " << bom.hosts << ", " << scenario.cluster.nodes
                        << " of them cluster nodes: the other " << bom.hosts - scenario.cluster.nodes
                        << " are priced as built\n";
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
