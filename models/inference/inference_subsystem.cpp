#include "models/inference/inference_subsystem.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "sim/error.hpp"

namespace dcsim::models::inference {

// A service's replicas as cluster jobs, named "<service>/replica-<k>", and the way their KV moves
// between them (disaggregated serving): on the backend fabric as flows when the datacenter has one
// that reaches both nodes (each of the replica's min(tp, NICs) NICs sends its share, pinned to its
// rail), over NVLink when both replicas share a node, else at the NICs' line rate.
class InferenceSubsystem::ClusterHost final : public ReplicaHost, public KvTransport {
 public:
  ClusterHost(seams::ServiceJobHost& jobs, std::string service, int priority, const hardware::NodeSpec& node, int tp,
              sim::Simulator& sim, seams::FlowNetwork* fabric, std::size_t fabric_hosts)
      : jobs_(jobs),
        service_(std::move(service)),
        priority_(priority),
        node_(node),
        tp_(tp),
        sim_(sim),
        fabric_(fabric),
        fabric_hosts_(fabric_hosts) {}

  std::size_t acquire(int gpus, Callbacks callbacks) override {
    return jobs_of_service_.emplace_back(
        jobs_.submit_service_job(service_ + "/replica-" + std::to_string(next_++), gpus, priority_,
                                 {std::move(callbacks.allocated), std::move(callbacks.lost),
                                  std::move(callbacks.clock)}));
  }
  void release(std::size_t handle) override { jobs_.end_service_job(handle); }
  void set_activity(std::size_t handle, double activity) override { jobs_.set_service_job_activity(handle, activity); }
  void load_weights(std::size_t handle, double bytes, std::function<void()> done) override {
    jobs_.read_from_store(handle, weights_pool_, bytes, std::move(done));
  }
  void set_weights_pool(std::string pool) { weights_pool_ = std::move(pool); }
  // The cluster jobs of every replica asked for, in order.
  const std::vector<std::size_t>& jobs() const { return jobs_of_service_; }

  void transfer(std::size_t from, std::size_t to, double bytes, std::function<void()> done) override {
    const std::vector<int>& src = jobs_.service_job_nodes(from);
    const std::vector<int>& dst = jobs_.service_job_nodes(to);
    const int nics = std::min(tp_, std::max(1, node_.compute_nics));
    if (src.empty() || dst.empty() || src.front() == dst.front()) {
      // Same node (or a replica gone meanwhile): GPU to GPU over NVLink, each shard on its own GPU.
      sim_.after(sim::Time::ceil_from_seconds(bytes / (tp_ * node_.gpu.nvlink_bandwidth_bytes_per_s)), std::move(done));
      return;
    }
    const auto a = static_cast<std::size_t>(src.front()), b = static_cast<std::size_t>(dst.front());
    if (fabric_ == nullptr || a >= fabric_hosts_ || b >= fabric_hosts_) {
      sim_.after(sim::Time::ceil_from_seconds(bytes / (nics * node_.compute_nic_bandwidth_bytes_per_s())),
                 std::move(done));
      return;
    }
    // Cluster node i is fabric host i; one flow per NIC rail, done when the last arrives (a flow
    // that fails for want of a path counts as arrived then, as checkpoint writes do).
    auto left = std::make_shared<int>(nics);
    auto on_done = std::make_shared<std::function<void()>>(std::move(done));
    for (int c = 0; c < nics; ++c) {
      fabric_->start_flow(static_cast<network::NodeId>(a), static_cast<network::NodeId>(b), bytes / nics,
                          [left, on_done](const network::FinishedFlow&) {
                            if (--*left == 0) (*on_done)();
                          },
                          c, {});
    }
  }

 private:
  seams::ServiceJobHost& jobs_;
  std::string service_;
  int priority_;
  hardware::NodeSpec node_;
  int tp_;
  sim::Simulator& sim_;
  seams::FlowNetwork* fabric_;
  std::size_t fabric_hosts_;
  int next_ = 0;
  std::vector<std::size_t> jobs_of_service_;
  std::string weights_pool_;
};

InferenceSubsystem::InferenceSubsystem(const std::vector<ServiceConfig>& services, const InferenceSite& site,
                                       sim::Simulator& simulator, sim::TraceSink& sink,
                                       seams::DatacenterSignals& signals)
    : simulator_(simulator), signals_(signals) {
  for (std::size_t i = 0; i < services.size(); ++i) {
    const ServiceConfig& service = services[i];
    names_.push_back(service.name);
    hosts_.push_back(std::make_unique<ClusterHost>(site.jobs, service.name, service.priority, site.node,
                                                   service.engine.tp, simulator, site.fabric, site.fabric_hosts));
    hosts_.back()->set_weights_pool(service.weights_pool);
    try {
      services_.push_back(std::make_unique<InferenceService>(service, site.node, site.gpu_power, site.registries,
                                                             site.seed, simulator, sink, *hosts_.back(),
                                                             hosts_.back().get(), &curves_));
    } catch (const sim::ConfigError& e) {
      throw sim::ConfigError("services[" + std::to_string(i) + "]." + e.field(), e.detail());
    }
  }
}

InferenceSubsystem::~InferenceSubsystem() = default;

void InferenceSubsystem::start() {
  for (auto& s : services_) s->start();
}

void InferenceSubsystem::finish() {
  for (std::size_t i = 0; i < services_.size(); ++i) {
    services_[i]->finish();
    const inference::ServiceStats& st = services_[i]->stats();
    signals_.inference_work.emit(
        seams::InferenceWork{simulator_.now(), names_[i], hosts_[i]->jobs(), st.output_tokens, st.input_tokens});
  }
}

}  // namespace dcsim::models::inference
