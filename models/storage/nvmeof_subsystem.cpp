#include "models/storage/nvmeof_subsystem.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::storage {

namespace {
double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }
double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

// One run's checkpoint writes: its nodes' shares to their namespaces, timed.
class NvmeofSubsystem::Writer final : public seams::CheckpointWriter {
 public:
  Writer(NvmeofSubsystem& owner, std::vector<int> nodes) : owner_(owner), nodes_(std::move(nodes)) {}
  void start(double bytes_per_node, std::function<void(bool)> on_done) override {
    const sim::Time started = owner_.sim_.now();
    // The writer may be gone when the write ends (the run stopped): the callback holds the owner.
    NvmeofSubsystem& owner = owner_;
    owner.targets_->write(nodes_, bytes_per_node,
                          [&owner, started, abandoned = abandoned_, done = std::move(on_done)](bool ok) {
                            if (!*abandoned) {
                              if (ok) owner.write_s_.push_back((owner.sim_.now() - started).seconds());
                              else ++owner.writes_failed_;
                            }
                            done(ok && !*abandoned);
                          });
  }
  void abandon() override { *abandoned_ = true; }

 private:
  NvmeofSubsystem& owner_;
  std::vector<int> nodes_;
  std::shared_ptr<bool> abandoned_ = std::make_shared<bool>(false);  // outlives the writer in callbacks
};

NvmeofSubsystem::NvmeofSubsystem(const NvmeofConfig& config, const NvmeofSite& site, sim::Simulator& simulator,
                                 sim::TraceSink& sink)
    : sim_(simulator), sink_(sink) {
  const std::size_t hosts = site.network.host_count();
  for (std::uint32_t t : config.targets) {
    if (t < static_cast<std::uint32_t>(site.cluster_nodes) || t >= hosts) {
      throw sim::ConfigError("targets", "NVMe-oF targets are hosts of their network beyond the cluster's nodes (" +
                                            std::to_string(site.cluster_nodes) + " to " +
                                            std::to_string(hosts == 0 ? 0 : hosts - 1) + "): host " +
                                            std::to_string(t) + " is not; give the network at least " +
                                            std::to_string(t + 1) + " hosts or start the targets lower");
    }
    if (std::find(site.store_hosts.begin(), site.store_hosts.end(), t) != site.store_hosts.end()) {
      throw sim::ConfigError("targets", "host " + std::to_string(t) + " is an OSD host of the store");
    }
  }
  targets_ = std::make_unique<NvmeofTargets>(site.network, config);
  site.jobs.attach_checkpoint_namespaces(*this);
}

NvmeofSubsystem::~NvmeofSubsystem() = default;

std::unique_ptr<seams::CheckpointWriter> NvmeofSubsystem::writer(const std::vector<int>& nodes) {
  return std::make_unique<Writer>(*this, nodes);
}

void NvmeofSubsystem::read(const std::vector<int>& nodes, double bytes_per_node, std::function<void(bool)> on_done) {
  const sim::Time started = sim_.now();
  targets_->read(nodes, bytes_per_node, [this, started, done = std::move(on_done)](bool ok) {
    if (ok) read_s_.push_back((sim_.now() - started).seconds());
    else ++reads_failed_;
    done(ok);
  });
}

void NvmeofSubsystem::finish() {
  const auto set = [this](const std::string& key, sim::SummaryValue v) { sink_.set_summary("nvmeof/" + key, v); };
  const NvmeofCounters c = targets_->counters();
  const NvmeofConfig& cfg = targets_->config();
  const bool tcp = cfg.transport == NvmeofTransport::kTcp;
  set("targets", {static_cast<std::int64_t>(cfg.targets.size()), "hosts", "NVMe-oF target hosts"});
  set("transport", {std::string(tcp ? "tcp" : "rdma"), "", "NVMe-oF transport"});
  set("queue_write_bytes_per_s",
      {targets_->queue_bytes_per_s(true), "B/s",
       "a namespace's write bound: queue_depth x io_size / (write latency + added latency)"});
  set("queue_read_bytes_per_s", {targets_->queue_bytes_per_s(false), "B/s",
                                 "a namespace's read bound: queue_depth x io_size / (read latency + added latency)"});
  set("bytes_written", {c.bytes_written, "B", "checkpoint bytes written to the namespaces"});
  set("bytes_read", {c.bytes_read, "B", "checkpoint bytes read back at restarts"});
  set("checkpoint_writes", {static_cast<std::int64_t>(write_s_.size()), "writes", "checkpoint writes saved"});
  set("checkpoint_write_s_p50", {median(write_s_), "s", "median checkpoint write time, all jobs"});
  set("checkpoint_write_s_max", {max_of(write_s_), "s", "longest checkpoint write, all jobs"});
  set("checkpoint_writes_failed", {writes_failed_, "writes", "a node could not reach its target: nothing saved"});
  set("checkpoint_reads", {static_cast<std::int64_t>(read_s_.size()), "reads", "restart reads completed"});
  set("checkpoint_read_s_max", {max_of(read_s_), "s", "longest restart read, all jobs"});
  set("checkpoint_reads_failed", {reads_failed_, "reads", "a node could not reach its target: the job started over"});
  set("host_core_s", {c.host_core_s, "core-s", "TCP: CPU time the nodes spent moving the bytes (0 over RDMA)"});
  set("target_core_s", {c.target_core_s, "core-s", "TCP: CPU time the targets spent moving the bytes (0 over RDMA)"});
}

}  // namespace dcsim::models::storage
