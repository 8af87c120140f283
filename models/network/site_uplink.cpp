#include "models/network/site_uplink.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "models/network/wan_uplink.hpp"
#include "sim/error.hpp"

namespace dcsim::models::network {

namespace {

// An equal share on each host, no resources.
std::vector<UplinkSource> equal_shares(std::span<const NodeId> hosts) {
  std::vector<UplinkSource> sources;
  for (NodeId h : hosts) sources.push_back({h, 1.0 / static_cast<double>(hosts.size())});
  return sources;
}

constexpr std::int64_t kDayNs = 86'400LL * 1'000'000'000LL;

std::size_t dir_index(UplinkDirection d) { return static_cast<std::size_t>(d); }
const char* dir_name(UplinkDirection d) { return d == UplinkDirection::kOut ? "out" : "in"; }

void validate(const UplinkConfig& c, sim::Time duration, bool has_cluster, const seams::CheckpointGate* gate) {
  for (std::size_t i = 0; i < c.ports.size(); ++i) {
    const std::string f = "ports[" + std::to_string(i) + "].";
    if (!(c.ports[i].speed_bps > 0.0) || !std::isfinite(c.ports[i].speed_bps)) {
      throw sim::ConfigError(f + "speed_bps", "expected a positive port speed in bit/s");
    }
    if (c.ports[i].count < 1) throw sim::ConfigError(f + "count", "expected at least one port");
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < c.streams.size(); ++i) {
    const UplinkStream& s = c.streams[i];
    const std::string f = "streams[" + std::to_string(i) + "].";
    if (s.name.empty() || !names.insert(s.name).second) {
      throw sim::ConfigError(f + "name", "expected a unique, non-empty stream name, got '" + s.name + "'");
    }
    if (!(s.bytes > 0.0) || !std::isfinite(s.bytes)) throw sim::ConfigError(f + "bytes", "expected a positive size");
    if (!(s.grow_bytes >= 0.0) || !std::isfinite(s.grow_bytes)) {
      throw sim::ConfigError(f + "grow_bytes", "expected a non-negative growth per occurrence");
    }
    if (s.start < sim::Time::zero()) throw sim::ConfigError(f + "start", "expected a non-negative start");
    if (s.every <= sim::Time::zero()) throw sim::ConfigError(f + "every", "expected a positive period");
    if (!s.every.is_max() && duration.is_max()) {
      throw sim::ConfigError(f + "every", "a repeating stream never ends: give the run a /duration");
    }
  }
  if (c.checkpoint_copies) {
    if (c.checkpoint_copies->every_nth < 1) {
      throw sim::ConfigError("checkpoint_copies.every_nth", "expected a positive integer");
    }
    if (c.checkpoint_copies->staging_slots < 0) {
      throw sim::ConfigError("checkpoint_copies.staging_slots", "expected a positive integer (0: unlimited)");
    }
    if (!has_cluster) throw sim::ConfigError("checkpoint_copies", "needs a cluster whose training jobs checkpoint");
    if (c.checkpoint_copies->staging_slots > 0 && gate == nullptr) {
      throw sim::ConfigError("checkpoint_copies.staging_slots", "needs a cluster that can hold its jobs' checkpoints");
    }
  }
  if ((!c.streams.empty() || c.checkpoint_copies) && c.ports.empty()) {
    throw sim::ConfigError("ports",
                           "expected at least one port: transfers cross the site's uplink at the ports' "
                           "speed");
  }
}

// The network the gateway is a host of.
const UplinkNetwork& gateway_network(const UplinkGateway& g, const UplinkSite& site) {
  const UplinkNetwork& network = g.on_backend ? site.backend : site.frontend;
  if (network.simulation == nullptr) {
    throw sim::ConfigError("gateway.network", g.on_backend ? "a gateway on the backend needs the scenario's /fabric"
                                                           : "a gateway on the front-end network needs the "
                                                             "scenario's /frontend (or put it on the backend)");
  }
  return network;
}

}  // namespace

void SiteUplink::find_hosts(const UplinkSite& site, const UplinkNetwork& network, std::size_t network_hosts) {
  const UplinkGateway& g = *gateway_;
  const int nodes = site.cluster_nodes.value_or(0);
  const auto host_error = [&](const std::string& why) {
    throw sim::ConfigError("gateway.host",
                           "the gateway is a host of its network beyond the cluster's nodes (" + std::to_string(nodes) +
                               " to " + std::to_string(network_hosts == 0 ? 0 : network_hosts - 1) + "): " + why);
  };
  if (g.host < nodes || g.host < 0 || static_cast<std::size_t>(g.host) >= network_hosts) {
    host_error("host " + std::to_string(g.host) + " is not");
  }
  for (std::uint32_t h : network.store_hosts) {
    if (static_cast<int>(h) == g.host) host_error("host " + std::to_string(g.host) + " is an OSD host of the store");
    store_hosts_.push_back(h);
  }
  for (std::uint32_t t : network.nvmeof_targets) {
    if (static_cast<int>(t) == g.host) host_error("host " + std::to_string(g.host) + " is an NVMe-oF target");
  }
  for (const auto& [job, host] : network.checkpoint_hosts) {
    if (host == g.host) host_error("host " + std::to_string(g.host) + " is the checkpoint store of job '" + job + "'");
  }
  stream_hosts_ = store_hosts_;
  if (stream_hosts_.empty()) {
    for (int n = 0; n < nodes; ++n) stream_hosts_.push_back(static_cast<NodeId>(n));
  }
}

std::vector<UplinkSource> SiteUplink::checkpoint_sources(const seams::CheckpointWritten& c) const {
  if (!fabric_uplink_) return {};
  if (c.place == seams::CheckpointWritten::Place::kStore && !store_hosts_.empty()) {
    // Off the OSD hosts' drives, each host its share (the store on the gateway's network).
    if (!c.sources.empty()) return {c.sources.begin(), c.sources.end()};
    return equal_shares(store_hosts_);
  }
  if (c.place == seams::CheckpointWritten::Place::kNetworkHost && c.on_backend == gateway_->on_backend) {
    return {UplinkSource{static_cast<NodeId>(c.host), 1.0}};
  }
  // On the nodes, or on a network the gateway is not on: the nodes read their shards back and
  // send them (node i is host i of either network).
  std::vector<NodeId> hosts;
  for (int n : c.nodes) hosts.push_back(static_cast<NodeId>(n));
  return equal_shares(hosts);
}

double SiteUplink::capacity_bps(const std::vector<PortGroup>& ports) {
  double bps = 0.0;
  for (const auto& p : ports) bps += static_cast<double>(p.count) * p.speed_bps;
  return bps;
}

SiteUplink::SiteUplink(const UplinkConfig& config, const UplinkSite& site, sim::Simulator& simulator,
                       sim::TraceSink& sink, seams::DatacenterSignals& signals)
    : simulator_(simulator), sink_(sink), signals_(signals), duration_(site.duration) {
  seams::CheckpointGate* gate = site.gate;
  validate(config, duration_, site.cluster_nodes.has_value(), gate);
  if (config.checkpoint_copies && config.checkpoint_copies->staging_slots > 0) gate_ = gate;
  capacity_bps_ = capacity_bps(config.ports);
  copies_ = config.checkpoint_copies;
  gateway_ = config.gateway;
  auto on_carried_cb = [this](const UplinkCarried& c) { on_carried(c); };
  auto on_finished_cb = [this](const UplinkTransferDone& d) { on_finished(d); };
  if (gateway_ && capacity_bps_ > 0.0) {
    const UplinkNetwork& network = gateway_network(*gateway_, site);
    find_hosts(site, network, network.simulation->fabric().topology().host_count());
    auto uplink = std::make_unique<FabricUplink>(simulator_, *network.simulation, static_cast<NodeId>(gateway_->host),
                                                 capacity_bps_, on_carried_cb, on_finished_cb);
    fabric_uplink_ = uplink.get();
    uplink_ = std::move(uplink);
  } else if (capacity_bps_ > 0.0) {
    uplink_ = std::make_unique<WanUplink>(simulator_, capacity_bps_, on_carried_cb, on_finished_cb);
  }
  for (const UplinkStream& s : config.streams) {
    has_ingress_ = has_ingress_ || s.direction == UplinkDirection::kIn;
    streams_.push_back(Stream{s, uplink_->add_queue(s.direction), 0});
    if (gateway_ && stream_hosts_.empty()) {
      throw sim::ConfigError("gateway", "stream '" + s.name +
                                            "' has nowhere on the gateway's network to come "
                                            "from or go to: no store there and no cluster nodes");
    }
    queues_.push_back(QueueInfo{s.name, s.direction, std::nullopt});
  }
  out_bps_ = sink_.declare_series("uplink/out_bps", "bit/s",
                                  "rate leaving the site on its uplink: the mean between the uplink's reports (each "
                                  "start and end of a transfer)");
  out_backlog_ = sink_.declare_series("uplink/out_backlog_bytes", "B",
                                      "egress bytes due but not yet sent (in flight and queued), at each start, "
                                      "finish and submission; it falls linearly in between while anything is sent");
  if (has_ingress_) {
    in_bps_ = sink_.declare_series("uplink/in_bps", "bit/s", "rate entering the site on its uplink");
    in_backlog_ = sink_.declare_series("uplink/in_backlog_bytes", "B", "ingress bytes due but not yet received");
  }
  transfers_ = sink_.declare_table("uplink/transfers",
                                   {{"queue", sim::ColumnType::kString, "", "stream name, or checkpoint-copies/<job>"},
                                    {"direction", sim::ColumnType::kString, "", "out (egress, billed) or in (ingress)"},
                                    {"bytes", sim::ColumnType::kFloat64, "B", "size of the transfer"},
                                    {"due_s", sim::ColumnType::kFloat64, "s", "when it was due (submitted)"},
                                    {"start_s", sim::ColumnType::kFloat64, "s",
                                     "when it started (after its queue's earlier transfers)"},
                                    {"finish_s", sim::ColumnType::kFloat64, "s", "when its last byte left"},
                                    {"transfer_time_s", sim::ColumnType::kFloat64, "s", "finish - due"}});
  if (copies_) {
    signals_.checkpoint_written.connect([this](const seams::CheckpointWritten& c) { on_checkpoint(c); });
  }
  if (gate_) {
    // With finite staging the copies do not queue behind each other: the port binds when a job
    // first stalls for them instead.
    signals_.job_state.connect([this](const seams::JobStateChange& j) {
      if (j.to != "stalled" || binds_at_) return;
      binds_at_ = j.at;
      binding_queue_ = "checkpoint-copies/" + std::string(j.name);
    });
  }
}

SiteUplink::~SiteUplink() = default;

void SiteUplink::start() {
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    const sim::Time due = streams_[i].spec.start;
    if (due < duration_) simulator_.at(due, [this, i] { on_due(i); });
  }
}

void SiteUplink::on_due(std::size_t i) {
  Stream& s = streams_[i];
  const double bytes = s.spec.bytes + static_cast<double>(s.occurrence) * s.spec.grow_bytes;
  ++s.occurrence;
  submit(s.queue, bytes, equal_shares(stream_hosts_));
  if (s.spec.every.is_max()) return;
  // Due times from the start, not by accumulation: start + k x every, exactly.
  const std::int64_t every_ns = s.spec.every.ns();
  if (s.occurrence > (duration_.ns() - s.spec.start.ns()) / every_ns) return;  // beyond the run
  const sim::Time next = sim::Time::from_ns(s.spec.start.ns() + s.occurrence * every_ns);
  if (next < duration_) simulator_.at(next, [this, i] { on_due(i); });
}

void SiteUplink::on_checkpoint(const seams::CheckpointWritten& c) {
  if (c.job >= job_queue_.size()) {
    job_queue_.resize(c.job + 1);
    job_checkpoints_.resize(c.job + 1, 0);
    job_staged_.resize(c.job + 1, 0);
  }
  if (++job_checkpoints_[c.job] % copies_->every_nth != 0 || !(c.bytes > 0.0)) return;
  if (!job_queue_[c.job]) {
    job_queue_[c.job] = uplink_->add_queue(UplinkDirection::kOut);
    queues_.push_back(QueueInfo{"checkpoint-copies/" + std::string(c.name), UplinkDirection::kOut, c.job});
  }
  const std::vector<UplinkSource> sources = checkpoint_sources(c);
  submit(*job_queue_[c.job], c.bytes, sources);
  // The checkpoint stays staged until its copy is done; a full staging space holds the next one.
  const int staged = ++job_staged_[c.job];
  staged_max_ = std::max(staged_max_, staged);
  if (gate_ && staged >= copies_->staging_slots) gate_->hold_checkpoints(c.job);
}

void SiteUplink::submit(std::size_t queue, double bytes, std::span<const UplinkSource> sources) {
  if (uplink_->busy(queue) && !binds_at_) {
    binds_at_ = simulator_.now();
    binding_queue_ = queues_[queue].name;
  }
  ++transfers_submitted_;
  uplink_->submit(queue, bytes, sources);
  backlog_max_bytes_ = std::max(backlog_max_bytes_, uplink_->backlog_bytes(UplinkDirection::kOut));
  record();
}

void SiteUplink::record() {
  const sim::Time now = simulator_.now();
  sink_.append(out_backlog_, now, uplink_->backlog_bytes(UplinkDirection::kOut));
  if (has_ingress_) sink_.append(in_backlog_, now, uplink_->backlog_bytes(UplinkDirection::kIn));
  // A direction with nothing in flight carries nothing from now on (its last interval was
  // reported up to now).
  for (UplinkDirection d : {UplinkDirection::kOut, UplinkDirection::kIn}) {
    if (uplink_->in_flight(d) == 0) append_rate(d, now, 0.0);
  }
}

void SiteUplink::append_rate(UplinkDirection d, sim::Time at, double bps) {
  if (d == UplinkDirection::kIn && !has_ingress_) return;
  double& last = last_bps_[dir_index(d)];
  if (bps == last) return;
  last = bps;
  sink_.append(d == UplinkDirection::kOut ? out_bps_ : in_bps_, at, bps);
}

void SiteUplink::on_carried(const UplinkCarried& c) {
  bytes_[dir_index(c.direction)] += c.bytes;
  if (c.to > c.from) append_rate(c.direction, c.from, c.bytes * 8.0 / (c.to - c.from).seconds());
  signals_.uplink_carried.emit(c);
  if (c.direction != UplinkDirection::kOut || c.to <= c.from) return;
  // Constant rate over [from, to): each day gets the share of the interval it overlaps.
  const double per_ns = c.bytes / static_cast<double>((c.to - c.from).ns());
  for (std::int64_t t = c.from.ns(); t < c.to.ns();) {
    const auto day = static_cast<std::size_t>(t / kDayNs);
    const std::int64_t end = std::min(c.to.ns(), (static_cast<std::int64_t>(day) + 1) * kDayNs);
    if (out_bytes_per_day_.size() <= day) out_bytes_per_day_.resize(day + 1, 0.0);
    out_bytes_per_day_[day] += per_ns * static_cast<double>(end - t);
    t = end;
  }
}

void SiteUplink::on_finished(const UplinkTransferDone& d) {
  ++transfers_done_;
  const double transfer_s = (d.finished - d.submitted).seconds();
  transfer_time_max_s_ = std::max(transfer_time_max_s_, transfer_s);
  queue_wait_max_s_ = std::max(queue_wait_max_s_, (d.started - d.submitted).seconds());
  sink_.append_row(transfers_, {queues_[d.queue].name, std::string(dir_name(d.direction)), d.bytes,
                                d.submitted.seconds(), d.started.seconds(), d.finished.seconds(), transfer_s});
  record();
  if (const std::optional<std::size_t> job = queues_[d.queue].job) {
    // A staging slot frees: a job held for it may write again.
    if (--job_staged_[*job] < copies_->staging_slots && gate_) gate_->release_checkpoints(*job);
  }
}

void SiteUplink::finish() {
  const sim::Time end = simulator_.now();
  if (uplink_) uplink_->flush();
  const auto set = [this](const std::string& key, sim::SummaryValue v) { sink_.set_summary("uplink/" + key, v); };
  set("capacity_bps", {capacity_bps_, "bit/s", "the ports' total speed, in each direction (full duplex)"});
  if (fabric_uplink_) {
    set("network", {std::string(gateway_->on_backend ? "backend" : "frontend"), "",
                    "the network whose gateway host the ports terminate on"});
    set("gateway_host", {std::int64_t{gateway_->host}, "host", "the gateway's host on that network"});
    set("failed_flows", {fabric_uplink_->failed_flows(), "flows",
                         "uplink flows that found no path to or from the gateway (their bytes were not sent)"});
  }
  set("out_bytes", {bytes_[0], "B", "bytes that left the site on the uplink during the run (billed as egress)"});
  set("in_bytes", {bytes_[1], "B", "bytes that entered the site on the uplink during the run (ingress is free)"});
  set("transfers_done", {transfers_done_, "transfers", "transfers whose last byte crossed the uplink"});
  set("transfers_unfinished", {transfers_submitted_ - transfers_done_, "transfers",
                               "transfers due but still in flight or queued when the run ended"});
  set("out_backlog_max_bytes", {backlog_max_bytes_, "B", "most egress bytes due but not yet sent at any time"});
  set("out_backlog_end_bytes", {uplink_ ? uplink_->backlog_bytes(UplinkDirection::kOut) : 0.0, "B",
                                "egress bytes due but not yet sent when the run ended"});
  const double capacity_bytes_per_s = capacity_bps_ / 8.0;
  const double mean =
      end > sim::Time::zero() && capacity_bytes_per_s > 0.0 ? bytes_[0] / (capacity_bytes_per_s * end.seconds()) : 0.0;
  set("out_utilisation_mean", {mean, "", "egress bytes / (capacity x run time)"});
  double peak = 0.0;
  for (std::size_t d = 0; d < out_bytes_per_day_.size() && capacity_bytes_per_s > 0.0; ++d) {
    const std::int64_t from = static_cast<std::int64_t>(d) * kDayNs;
    const std::int64_t to = std::min(end.ns(), from + kDayNs);
    if (to > from)
      peak = std::max(peak, out_bytes_per_day_[d] / (capacity_bytes_per_s * 1e-9 * static_cast<double>(to - from)));
  }
  set("out_utilisation_peak_day", {peak, "", "the busiest day's egress bytes / what the ports carry in a day"});
  set("transfer_time_max_s", {transfer_time_max_s_, "s", "longest time from a transfer's due time to its last byte"});
  set("queue_wait_max_s", {queue_wait_max_s_, "s", "longest wait of a transfer behind its queue's earlier ones"});
  set("job_stall_s", {gate_ ? gate_->checkpoint_stall_s() : 0.0, "s",
                      "time training jobs stalled at checkpoints held for staging space, summed over jobs "
                      "(checkpoint_copies.staging_slots; 0 with unlimited staging)"});
  set("staged_checkpoints_max", {std::int64_t{staged_max_}, "checkpoints",
                                 "most checkpoints of one job waiting for or in their off-site copy at once (with "
                                 "unlimited staging: the staging_slots that would never stall it)"});
  const std::string binds =
      "first time a transfer was due while the previous one of its queue was still in flight "
      "or waiting, or a job stalled for staging space (the port's speed binds)";
  if (binds_at_) {
    set("binds_at_s", {binds_at_->seconds(), "s", binds + "; or never"});
    set("binds_day", {binds_at_->ns() / kDayNs + 1, "day", "1-based day of binds_at_s; or never"});
    set("binding_queue", {binding_queue_, "", "the queue that could not keep up first; or none"});
  } else {
    set("binds_at_s", {std::string("never"), "s", binds + "; or never"});
    set("binds_day", {std::string("never"), "day", "1-based day of binds_at_s; or never"});
    set("binding_queue", {std::string("none"), "", "the queue that could not keep up first; or none"});
  }
}

}  // namespace dcsim::models::network
