#pragma once
// Config of the foundation's cluster model: H100 nodes running a job list under a scheduler.
// Plain data; the scenario layer (tools/scenario) fills it from JSON and models validate it
// (ConfigError names the field, which the scenario layer maps back to a JSON pointer).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/economics/cloud_offer.hpp"
#include "models/hardware/node_spec.hpp"
#include "models/power/gpu_phase_power.hpp"
#include "models/workload/job_generator.hpp"
#include "models/workload/job_spec.hpp"
#include "models/workload/training_job.hpp"
#include "sim/params.hpp"
#include "sim/time.hpp"

namespace dcsim::models::cluster {

// A cloud pool (cloud_pool.hpp): instances of one cloud offer that exist only while provisioned,
// for a bursting scheduler (Scheduler::uses_cloud_pool) to send waiting work to.
struct CloudPoolConfig {
  economics::CloudGpuOffer offer;  // shape (GPUs per instance = the node's), purchase, preemption rate
  int max_instances = 1;
  sim::Time provisioning_delay = sim::Time::from_s(600);  // from a request until the instance is usable (and billed)
  sim::Time idle_release = sim::Time::from_s(600);        // an instance idle this long is released
  // Per job moved: the dataset sent on-prem -> cloud before it starts there (each start: a
  // fresh instance has nothing), the results sent back when it finishes there; the WAN rate of
  // one transfer (transfers are not shared: each gets the whole rate).
  double dataset_bytes = 0.0;
  double results_bytes = 0.0;
  double wan_bits_per_s = 10e9;
};

// How training jobs catch silent data corruption (cluster_hosts.cpp): the framework's loss
// checks (loss spikes, NaN/Inf, gradient-norm jumps) notice a corruption of a job's state with
// `probability`, `latency_steps` steps after it happened; a missed one runs on to a wrong
// result. Only a small share of GPU SDC outcomes are NaN/Inf (about 1%, arXiv 2605.04213), so
// the probability is the checks' recall, a property of the job's monitoring, not of the GPU.
struct SdcDetection {
  double probability = 1.0;  // in [0, 1]
  int latency_steps = 1;     // >= 0; at the job's nominal step time
};

struct ClusterConfig {
  hardware::NodeSpec node;
  int nodes = 1;
  int nodes_per_rack = 1;
  std::vector<workload::JobSpec> jobs;  // in any order; the model sorts by (arrival, index)
  std::vector<workload::JobGeneratorConfig> generators;  // expanded at start, after `jobs`
  // Jobs imported from trace files (tools/scenario/job_trace_import.hpp), run after the generated
  // ones; like them summarised by statistics, with no headline row. The loader has checked each
  // against the cluster.
  std::vector<workload::JobSpec> trace_jobs;
  // Training jobs (named, after `jobs`): planned by the analytic step model, then run as steps
  // and checkpoints (training_job_run.hpp). ConfigError fields read "training[i].<field>".
  std::vector<workload::TrainingJobSpec> training_jobs;
  // With a training fabric (ClusterConnections::training_fabric): zero runs every step as its
  // step graph; positive, sampled (training_job_run.hpp): one step of each run as flows at its
  // start, again every this long and after a fabric change, analytic segments at the measured
  // step time between.
  sim::Time training_sample_every = sim::Time::zero();
  // GPU power by phase (gpu_phase_power.hpp): a training job's utilisation is the time-weighted
  // mean activity of its step's compute, memory-bound, exposed-communication and bubble phases.
  power::GpuPhasePowerConfig gpu_phase_power;
  std::uint64_t seed = 1;
  std::string scheduler = "fifo";
  // The scheduler's parameters (its registry entry documents them); missing ones take their
  // documented defaults, undocumented ones are a ConfigError ("scheduler_params.<name>").
  sim::Params scheduler_params;
  // What happens to a job a fault interrupts (models/policy/failover_policy.hpp), with its
  // parameters (as scheduler_params).
  std::string failover = "checkpoint_restart";
  sim::Params failover_params;
  // Faults per hour that take one node or its job down, from the reliability model: what
  // checkpoint intervals are optimised against. 0 = no fault model.
  double node_fault_rate_per_hour = 0.0;
  // Set when the scenario can corrupt jobs silently (a silent_data_corruption fault class or
  // scripted fault): the cluster then logs integrity_events and the integrity/... summary.
  std::optional<SdcDetection> sdc_detection;
  // Log integrity_events and the integrity/... summary: set with sdc_detection, or when the
  // checkpoint store checks or corrupts checkpoints (storage_config.hpp, CheckpointIntegrity).
  bool integrity_events = false;

  // Cloud instances a bursting scheduler may use; none by default (on-prem only).
  std::optional<CloudPoolConfig> cloud_pool;

  // Simulated time limit; Time::max() = until every job has finished.
  sim::Time duration = sim::Time::max();
  // Sampling period of the telemetry series (power, running jobs); zero = record only changes.
  sim::Time telemetry_interval = sim::Time::zero();
  // Rack power series: 1 writes one per rack (power/rack/<r>_w); k > 1 one per group of k
  // consecutive racks (power/rack_group/<g>_w, their sum); 0 none (the cluster's total only).
  // What a run writes and keeps grows with the series: 250,000 rack series took 9 GB and most of
  // a 1,000,000-node run's 397 s (the scenario layer groups large clusters, /outputs/rack_power).
  int racks_per_power_series = 1;
};

// The fields' own ranges (ConfigError names the field, e.g. "jobs[2].nodes"); what needs the
// registries (scheduler and failover parameters) the cluster checks as it builds them.
void validate(const ClusterConfig& c);

}  // namespace dcsim::models::cluster
