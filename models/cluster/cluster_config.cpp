#include "models/cluster/cluster_config.hpp"

#include <string>

#include "models/hardware/nvlink_domain.hpp"
#include "sim/error.hpp"

namespace dcsim::models::cluster {

namespace {

void require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw sim::ConfigError(field, message);
}

}  // namespace

void validate(const ClusterConfig& c) {
  require(c.nodes >= 1, "nodes", "must be at least 1");
  require(c.nodes_per_rack >= 1, "nodes_per_rack", "must be at least 1");
  require(c.racks_per_power_series >= 0, "racks_per_power_series", "must not be negative");
  require(c.training_sample_every >= sim::Time::zero(), "training_sample_every", "must not be negative");
  require(c.node.gpus >= 1, "node.gpus", "must be at least 1");
  require(c.node.gpu.idle_power_w >= 0, "node.gpu_idle_power", "must not be negative");
  require(c.node.gpu.max_power_w >= c.node.gpu.idle_power_w, "node.gpu_max_power",
          "must be at least the GPU idle power");
  // An NVLink domain is whole nodes (NVL72: 18 trays of 4), and the cluster whole domains, so
  // every domain-aligned group (closed-form collectives, collective_estimator.hpp) exists.
  const int domain = hardware::nvlink_domain(c.node);
  require(domain >= c.node.gpus && domain % c.node.gpus == 0, "node.nvlink_domain_gpus",
          "must be a multiple of the node's " + std::to_string(c.node.gpus) + " GPUs (a domain is whole nodes), got " +
              std::to_string(domain));
  require(c.nodes % hardware::nodes_per_nvlink_domain(c.node) == 0, "nodes",
          "must be whole NVLink domains of " + std::to_string(hardware::nodes_per_nvlink_domain(c.node)) + " nodes (" +
              std::to_string(domain) + " GPUs), got " + std::to_string(c.nodes));
  require(c.node.other_idle_power_w >= 0, "node.other_idle_power", "must not be negative");
  require(c.node.other_max_power_w >= c.node.other_idle_power_w, "node.other_max_power",
          "must be at least the idle power of the rest of the node");
  // A nameplate below what the node draws at full load cannot be: overriding the GPUs or their
  // power on a preset needs its rating set too.
  require(c.node.rated_power_w == 0.0 || c.node.rated_power_w >= c.node.max_power_w() - 0.5, "node.rated_power",
          "must be at least the node's full-load draw, gpus x gpu_max_power + other_max_power (" +
              std::to_string(static_cast<long long>(c.node.max_power_w())) + " W), or 0 for that draw");
  for (std::size_t i = 0; i < c.jobs.size(); ++i) {
    const auto& j = c.jobs[i];
    const std::string at = "jobs[" + std::to_string(i) + "]";
    require(j.nodes >= 1 && j.nodes <= c.nodes, at + ".nodes",
            "must be between 1 and the cluster's " + std::to_string(c.nodes) + " nodes");
    require(j.gpus_per_node >= 0 && j.gpus_per_node <= c.node.gpus, at + ".gpus_per_node",
            "must be between 0 (whole nodes) and the node's " + std::to_string(c.node.gpus) + " GPUs");
    require(j.estimate >= sim::Time::zero(), at + ".estimate", "must not be negative");
    require(j.work > sim::Time::zero(), at + ".work", "must be positive");
    require(j.gpu_utilization >= 0 && j.gpu_utilization <= 1, at + ".gpu_utilization", "must be between 0 and 1");
    require(j.arrival >= sim::Time::zero(), at + ".arrival", "must not be negative");
    for (std::size_t k = 0; k < j.utilization_profile.size(); ++k) {
      const auto& phase = j.utilization_profile[k];
      const std::string p = at + ".utilization_profile[" + std::to_string(k) + "]";
      require(phase.work > sim::Time::zero(), p + ".work", "must be positive");
      require(phase.gpu_utilization >= 0 && phase.gpu_utilization <= 1, p + ".gpu_utilization",
              "must be between 0 and 1");
    }
  }
  for (std::size_t g = 0; g < c.generators.size(); ++g) {
    for (std::size_t k = 0; k < c.generators[g].node_choices.size(); ++k) {
      const int n = c.generators[g].node_choices[k];
      require(n >= 1 && n <= c.nodes, "generators[" + std::to_string(g) + "].nodes[" + std::to_string(k) + "]",
              "must be between 1 and the cluster's " + std::to_string(c.nodes) + " nodes");
    }
  }
  if (c.sdc_detection) {
    require(c.sdc_detection->probability >= 0 && c.sdc_detection->probability <= 1, "sdc_detection.probability",
            "must be between 0 and 1");
    require(c.sdc_detection->latency_steps >= 0, "sdc_detection.latency_steps", "must be 0 or more");
  }
}

}  // namespace dcsim::models::cluster
