#pragma once
// The datacenter's inference services (models/inference): each service's replicas are jobs of
// the cluster (ServiceJobHost), so they wait for the scheduler, hold real nodes' GPUs, draw
// power at the activity their engine iterations imply (gpu_phase_power.hpp: prefill GEMMs at
// compute power, decode at memory-bound power, idle between), and are interrupted by faults and
// requeued by the failover policy like any other job. Their requests are sent elsewhere meanwhile.
// At the end each service announces what it delivered (InferenceWork: tokens and its replicas'
// jobs), which economics prices per million output tokens. A subsystem of the datacenter
// (models/datacenter/subsystems.cpp hands it its services and the seams below).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/hardware/node_spec.hpp"
#include "models/inference/inference_service.hpp"
#include "models/power/gpu_phase_power.hpp"
#include "models/seams/datacenter_signals.hpp"
#include "models/seams/flow_network.hpp"
#include "models/seams/service_job_host.hpp"
#include "models/seams/subsystem.hpp"

namespace dcsim::models::inference {

// What the services read beyond their own configs: the cluster that runs their replicas, its
// nodes, the seed, and the backend fabric their KV moves on (cluster node i is host i).
struct InferenceSite {
  seams::ServiceJobHost& jobs;
  const hardware::NodeSpec& node;
  const power::GpuPhasePowerConfig& gpu_power;
  std::uint64_t seed = 1;
  seams::FlowNetwork* fabric = nullptr;  // null: KV at the NICs' line rate
  std::size_t fabric_hosts = 0;          // hosts a node can send from (0 when hosts route themselves)
  ServiceRegistries registries;
};

class InferenceSubsystem final : public seams::Subsystem {
 public:
  // Throws sim::ConfigError("services[i].<field>", ...) for what a service cannot serve.
  InferenceSubsystem(const std::vector<ServiceConfig>& services, const InferenceSite& site, sim::Simulator& simulator,
                     sim::TraceSink& sink, seams::DatacenterSignals& signals);
  ~InferenceSubsystem() override;

  void start() override;
  void finish() override;

 private:
  class ClusterHost;
  sim::Simulator& simulator_;
  seams::DatacenterSignals& signals_;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<ClusterHost>> hosts_;
  ServingCurveCache curves_;  // fluid services of the same configuration share one curve
  std::vector<std::unique_ptr<InferenceService>> services_;
};

}  // namespace dcsim::models::inference
