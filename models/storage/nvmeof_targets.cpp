#include "models/storage/nvmeof_targets.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::storage {

namespace {
void require_positive(double v, const char* field, const char* what) {
  if (!(v > 0.0) || !std::isfinite(v)) {
    throw sim::ConfigError(field, std::string("expected ") + what + " above 0, got " + std::to_string(v));
  }
}
}  // namespace

NvmeofTargets::NvmeofTargets(seams::FlowNetwork& network, NvmeofConfig config)
    : network_(network), config_(std::move(config)) {
  const std::size_t hosts = network_.host_count();
  if (config_.targets.empty()) throw sim::ConfigError("targets", "expected at least one target host");
  for (std::uint32_t t : config_.targets) {
    if (t >= hosts) {
      throw sim::ConfigError("targets", "target " + std::to_string(t) + " is not a host of the network (0 to " +
                                            std::to_string(hosts - 1) + ")");
    }
  }
  if (config_.drives_per_target < 1) throw sim::ConfigError("drives_per_target", "expected at least 1");
  require_positive(config_.drive.read_bytes_per_s, "drive.read_bandwidth", "a read bandwidth");
  require_positive(config_.drive.write_bytes_per_s, "drive.write_bandwidth", "a write bandwidth");
  if (!(config_.added_latency_s >= 0.0)) throw sim::ConfigError("added_latency", "expected 0 or more");
  // A host's queue moves queue_depth x io_size per (drive + added) latency (queue_bytes_per_s): the
  // sum must be positive; either part alone may be 0 (a drive modelled by bandwidth only).
  for (const bool write : {false, true}) {
    if (!((write ? config_.drive.write_latency_s : config_.drive.read_latency_s) + config_.added_latency_s > 0.0)) {
      throw sim::ConfigError(write ? "drive.write_latency" : "drive.read_latency",
                             "expected a latency above 0 with added_latency 0: a queue of I/Os with no latency "
                             "would move data at an unbounded rate");
    }
  }
  if (config_.queue_depth < 1) throw sim::ConfigError("queue_depth", "expected at least 1");
  require_positive(config_.io_bytes, "io_size", "an I/O size");
  const bool tcp = config_.transport == NvmeofTransport::kTcp;
  if (tcp) {
    require_positive(config_.tcp_bytes_per_s_per_core, "tcp.core_bandwidth", "a per-core rate");
    if (config_.host_cores < 1) throw sim::ConfigError("tcp.host_cores", "expected at least 1");
    if (config_.target_cores < 1) throw sim::ConfigError("tcp.target_cores", "expected at least 1");
  }
  // Resources take bit/s, as links do.
  const double drives = config_.drives_per_target;
  for (std::size_t i = 0; i < config_.targets.size(); ++i) {
    Target t;
    t.drives_write = network_.add_resource(drives * config_.drive.write_bytes_per_s * 8.0);
    t.drives_read = network_.add_resource(drives * config_.drive.read_bytes_per_s * 8.0);
    if (tcp) t.cores = network_.add_resource(config_.target_cores * tcp_core_bytes_per_s(config_) * 8.0);
    targets_.push_back(t);
  }
}

double NvmeofTargets::write_bound_s(int nodes, double bytes_per_node) const {
  if (nodes <= 0 || !(bytes_per_node > 0.0)) return 0.0;
  const double core = tcp_core_bytes_per_s(config_);
  const auto t = static_cast<int>(config_.targets.size());
  const int busiest = (nodes + t - 1) / t;  // nodes on the busiest target
  double target_rate = config_.drives_per_target * config_.drive.write_bytes_per_s;
  double node_rate = queue_bytes_per_s(true);
  if (core > 0.0) {
    target_rate = std::min(target_rate, config_.target_cores * core);
    node_rate = std::min(node_rate, config_.host_cores * core);
  }
  return std::max(busiest * bytes_per_node / target_rate, bytes_per_node / node_rate);
}

network::NodeId NvmeofTargets::target_of(int node) const {
  return config_.targets[static_cast<std::size_t>(node) % config_.targets.size()];
}

double NvmeofTargets::queue_bytes_per_s(bool write) const {
  const double latency = (write ? config_.drive.write_latency_s : config_.drive.read_latency_s) + config_.added_latency_s;
  return config_.queue_depth * config_.io_bytes / latency;
}

NvmeofTargets::NodeSide& NvmeofTargets::side_of(int node) {
  if (nodes_.size() <= static_cast<std::size_t>(node)) nodes_.resize(static_cast<std::size_t>(node) + 1);
  NodeSide& s = nodes_[static_cast<std::size_t>(node)];
  if (s.queue_write == kNone) {
    s.queue_write = network_.add_resource(queue_bytes_per_s(true) * 8.0);
    s.queue_read = network_.add_resource(queue_bytes_per_s(false) * 8.0);
    if (config_.transport == NvmeofTransport::kTcp) {
      s.cores = network_.add_resource(config_.host_cores * tcp_core_bytes_per_s(config_) * 8.0);
    }
  }
  return s;
}

void NvmeofTargets::write(const std::vector<int>& nodes, double bytes_per_node, OnDone on_done) {
  transfer(true, nodes, bytes_per_node, std::move(on_done));
}

void NvmeofTargets::read(const std::vector<int>& nodes, double bytes_per_node, OnDone on_done) {
  transfer(false, nodes, bytes_per_node, std::move(on_done));
}

void NvmeofTargets::transfer(bool write, const std::vector<int>& nodes, double bytes_per_node, OnDone on_done) {
  ++counters_.operations;
  const double bytes = bytes_per_node * static_cast<double>(nodes.size());
  (write ? counters_.bytes_written : counters_.bytes_read) += bytes;
  if (const double core = tcp_core_bytes_per_s(config_); core > 0.0) {
    counters_.host_core_s += bytes / core;
    counters_.target_core_s += bytes / core;
  }
  ops_.push_back(Op{nodes.size(), true, std::move(on_done)});
  auto op = std::prev(ops_.end());
  if (nodes.empty() || !(bytes_per_node > 0.0)) {
    // Nothing to move: done as an event, as every other completion.
    op->left = 1;
    network_.start_flow(
        0, 0, 0.0,
        [this, op](const network::FinishedFlow&) {
          auto done = std::move(op->done);
          ops_.erase(op);
          done(true);
        },
        -1, {});
    return;
  }
  for (int node : nodes) {
    const NodeSide& side = side_of(node);
    const std::size_t ti = static_cast<std::size_t>(node) % config_.targets.size();
    const Target& t = targets_[ti];
    network::ResourceId crossed[4] = {write ? side.queue_write : side.queue_read, write ? t.drives_write : t.drives_read,
                                      side.cores, t.cores};
    const std::size_t count = side.cores == kNone ? 2 : 4;
    const auto host = static_cast<network::NodeId>(node);
    const network::NodeId target = config_.targets[ti];
    network_.start_flow(write ? host : target, write ? target : host, bytes_per_node,
                        [this, op](const network::FinishedFlow& f) {
                          if (f.failed) {
                            op->ok = false;
                            ++counters_.failed_flows;
                          }
                          if (--op->left > 0) return;
                          auto done = std::move(op->done);
                          const bool ok = op->ok;
                          ops_.erase(op);
                          done(ok);
                        },
                        -1, std::span<const network::ResourceId>(crossed, count));
  }
}

}  // namespace dcsim::models::storage
