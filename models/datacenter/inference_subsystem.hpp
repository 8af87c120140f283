#pragma once
// The datacenter's inference services (models/inference): each service's replicas are jobs of
// the cluster (ServiceJobHost), so they wait for the scheduler, hold real nodes' GPUs, draw
// power at the activity their engine iterations imply (gpu_phase_power.hpp: prefill GEMMs at
// compute power, decode at memory-bound power, idle between), and are interrupted by faults and
// requeued by the failover policy like any other job. Their requests are sent elsewhere meanwhile.
// At the end each service announces what it delivered (InferenceWork: tokens and its replicas'
// jobs), which economics prices per million output tokens.

#include <memory>
#include <string>
#include <vector>

#include "models/datacenter/subsystem.hpp"
#include "models/inference/inference_service.hpp"

namespace dcsim::models::datacenter {

class InferenceSubsystem final : public Subsystem {
 public:
  // Throws DatacenterConfigError("inference", "services[i].<field>", ...) for what a service
  // cannot serve.
  explicit InferenceSubsystem(const SubsystemContext& context);
  ~InferenceSubsystem() override;

  void start() override;
  void finish() override;

 private:
  class ClusterHost;
  sim::Simulator& simulator_;
  seams::DatacenterSignals& signals_;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<ClusterHost>> hosts_;
  std::vector<std::unique_ptr<inference::InferenceService>> services_;
};

}  // namespace dcsim::models::datacenter
