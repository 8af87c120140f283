#include "models/datacenter/inference_subsystem.hpp"

#include <string>

#include "models/datacenter/datacenter_config_error.hpp"
#include "sim/error.hpp"

namespace dcsim::models::datacenter {

// A service's replicas as cluster jobs, named "<service>/replica-<k>".
class InferenceSubsystem::ClusterHost final : public inference::ReplicaHost {
 public:
  ClusterHost(ServiceJobHost& jobs, std::string service, int priority)
      : jobs_(jobs), service_(std::move(service)), priority_(priority) {}

  std::size_t acquire(int gpus, Callbacks callbacks) override {
    return jobs_of_service_.emplace_back(jobs_.submit_service_job(service_ + "/replica-" + std::to_string(next_++), gpus, priority_,
                                    {std::move(callbacks.allocated), std::move(callbacks.lost),
                                     std::move(callbacks.clock)}));
  }
  void release(std::size_t handle) override { jobs_.end_service_job(handle); }
  void set_activity(std::size_t handle, double activity) override { jobs_.set_service_job_activity(handle, activity); }
  // The cluster jobs of every replica asked for, in order.
  const std::vector<std::size_t>& jobs() const { return jobs_of_service_; }

 private:
  ServiceJobHost& jobs_;
  std::string service_;
  int priority_;
  int next_ = 0;
  std::vector<std::size_t> jobs_of_service_;
};

InferenceSubsystem::InferenceSubsystem(const SubsystemContext& c) : simulator_(c.simulator), signals_(c.signals) {
  if (c.parts.service_jobs == nullptr || !c.config.cluster) {
    throw DatacenterConfigError("inference", "", "needs the cluster: a service's replicas are jobs on its nodes");
  }
  const inference::ServiceRegistries registries{c.registries.collective_algorithms, c.registries.inference_routers,
                                                c.registries.autoscalers};
  for (std::size_t i = 0; i < c.config.inference.size(); ++i) {
    const inference::ServiceConfig& service = c.config.inference[i];
    names_.push_back(service.name);
    hosts_.push_back(std::make_unique<ClusterHost>(*c.parts.service_jobs, service.name, service.priority));
    try {
      services_.push_back(std::make_unique<inference::InferenceService>(
          service, c.config.cluster->node, c.config.cluster->gpu_phase_power, registries, c.config.seed, c.simulator,
          c.sink, *hosts_.back()));
    } catch (const sim::ConfigError& e) {
      throw DatacenterConfigError("inference", "services[" + std::to_string(i) + "]." + e.field(), e.detail());
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
    signals_.inference_work.emit(InferenceWork{simulator_.now(), names_[i], hosts_[i]->jobs(), st.output_tokens,
                                               st.input_tokens});
  }
}

}  // namespace dcsim::models::datacenter
