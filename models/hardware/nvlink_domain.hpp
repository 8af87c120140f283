#pragma once
// The NVLink domain of a node preset: the GPUs that reach each other over NVLink. One node on
// HGX/DGX; on GB200 NVL72 a node is one compute tray (4 GPUs) and the domain is the rack's 72
// GPUs = 18 trays. A domain is whole nodes (models/cluster validates it). O(1).

#include "models/hardware/node_spec.hpp"

namespace dcsim::models::hardware {

// GPUs of one NVLink domain (nvlink_domain_gpus 0: the node's).
inline int nvlink_domain(const NodeSpec& node) {
  return node.nvlink_domain_gpus > 0 ? node.nvlink_domain_gpus : node.gpus;
}

// Whole nodes one domain spans: 1 on HGX/DGX, 18 on gb200-nvl72.
inline int nodes_per_nvlink_domain(const NodeSpec& node) { return node.gpus > 0 ? nvlink_domain(node) / node.gpus : 1; }

// A group of `ranks` GPUs (a TP group) that fits one domain: it divides a node, or it is whole
// nodes, at most the domain. Where it does not divide the domain (TP 16 of 72) a domain holds
// floor(domain / ranks) groups; the closed form takes every group as inside one domain and does
// not check how a job's nodes fall into domains.
inline bool group_fits_nvlink_domain(const NodeSpec& node, int ranks) {
  return ranks >= 1 && ranks <= nvlink_domain(node) && (node.gpus % ranks == 0 || ranks % node.gpus == 0);
}

}  // namespace dcsim::models::hardware
