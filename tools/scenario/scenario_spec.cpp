// The dcsim scenario format. Adding a section means adding its FieldSpec here and its mapping in
// scenario_loader.cpp; validation, the schema and the reference follow.

#include <map>
#include <set>

#include "tools/scenario/cloud_pool_spec.hpp"
#include "tools/scenario/economics_spec.hpp"
#include "tools/scenario/inference_spec.hpp"
#include "tools/scenario/nvmeof_spec.hpp"
#include "tools/scenario/storage_spec.hpp"
#include "tools/scenario/uplink_spec.hpp"
#include "tools/scenario/fabric_spec.hpp"
#include "tools/scenario/facility_spec.hpp"
#include "tools/scenario/faults_spec.hpp"
#include "tools/scenario/job_trace_import.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/reliability_spec.hpp"
#include "tools/scenario/scenario_loader.hpp"
#include "tools/scenario/training_spec.hpp"

namespace dcsim::tools::scenario {

namespace {

using sim::QuantityKind;

FieldSpec cluster_section(const models::ModelRegistries& registries) {
  const auto from_preset = [](FieldSpec f) { return with_default_note(std::move(f), "from the preset"); };
  return optional_section(object_field(
      "cluster", "The compute nodes and their racks.",
      {
          object_field(
              "node", "The node type: a preset, optionally with some of its figures overridden.",
              {
                  with_default(enum_field("preset", "Named node preset (`dcsim list \"node preset\"` describes each).",
                                          registries.node_presets.kind(),
                                          registries.node_presets.names()),
                               "hgx-h100"),
                  from_preset(integer_field("gpus", "GPUs per node.", between(1, 64))),
                  from_preset(quantity_field("gpu_idle_power",
                                             "Power of one GPU at idle clock, no work.",
                                             QuantityKind::kPower)),
                  from_preset(quantity_field("gpu_max_power",
                                             "Power of one GPU at full utilisation (its limit).",
                                             QuantityKind::kPower)),
                  from_preset(quantity_field(
                      "other_idle_power",
                      "Power of everything in the node but the GPUs (CPUs, DRAM, NICs, fans, PSU "
                      "losses) at idle.",
                      QuantityKind::kPower)),
                  from_preset(quantity_field(
                      "other_max_power",
                      "Power of everything but the GPUs at full load; scales linearly with GPU "
                      "utilisation in between.",
                      QuantityKind::kPower)),
              }),
          required(integer_field("nodes", "Number of nodes in the cluster.", at_least(1))),
          with_default(integer_field("nodes_per_rack", "Nodes per rack (for per-rack power).",
                                     at_least(1)),
                       4),
          cloud_pool_field(registries),
          object_field(
              "gpu_phase_power",
              "GPU power by what the GPU does (models/power/gpu_phase_power.hpp): each kind of phase draws "
              "idle power plus an activity times (max - idle); a training job's GPU utilisation is the "
              "time-weighted mean activity of its step's phases (compute, optimizer, exposed communication, "
              "bubble). Defaults are H100 SXM figures, each cited in the header.",
              {
                  with_default(number_field("compute_activity",
                                            "Activity of compute (tensor-core) phases: 1 runs the GPU at its "
                                            "max power.",
                                            between(0, 1)),
                               1.0),
                  with_default(number_field("hbm_pj_per_bit",
                                            "HBM access energy in pJ per bit; with the GPU's HBM bandwidth it gives "
                                            "the HBM power of memory-bound phases (3.9: HBM2, O'Connor et al. 2017).",
                                            between(0, 100)),
                               3.9),
                  with_default(number_field("memory_sm_activity",
                                            "Share of the non-HBM dynamic power drawn in memory-bound phases "
                                            "(optimizer step).",
                                            between(0, 1)),
                               0.25),
                  with_default(number_field("comm_sm_fraction",
                                            "Share of the non-HBM dynamic power drawn by communication kernels "
                                            "(NCCL channels' SMs: 32 of 132).",
                                            between(0, 1)),
                               32.0 / 132.0),
                  with_default(number_field("comm_hbm_fraction",
                                            "Share of HBM power drawn while communicating (3 accesses per link byte "
                                            "at 450 GB/s of 3.35 TB/s).",
                                            between(0, 1)),
                               0.4),
                  with_default(number_field("bubble_activity",
                                            "Activity while a pipeline stage waits on another (bubble).",
                                            between(0, 1)),
                               0.0),
              }),
      }), "(absent: no compute nodes; a scenario needs /cluster or /fabric)");
}

FieldSpec workload_section() {
  const auto utilization = [] {
    return with_default(number_field("gpu_utilization",
                                     "Mean utilisation of the job's GPUs while it runs.",
                                     between(0, 1)),
                        1.0);
  };
  return object_field(
      "workload", "The jobs to run: an explicit list, synthetic generators and/or job traces.",
      {
          with_default(
              object_array_field(
                  "jobs", "Explicit jobs.",
                  {
                      required(non_empty(string_field("name", "Job name, unique in the scenario."))),
                      with_default(quantity_field("arrival", "Arrival time, from the start of the run.",
                                                  QuantityKind::kDuration, at_least(0)),
                                   "0 s"),
                      with_default(integer_field("nodes",
                                                 "Whole nodes the job needs (at most /cluster/nodes).",
                                                 at_least(1)),
                                   1),
                      required(quantity_field("work", "Run time at nominal GPU clock.",
                                              QuantityKind::kDuration, above(0))),
                      with_default_note(quantity_field("estimate",
                                                       "Run time the user asked for: what easy_backfill plans "
                                                       "with. It may be wrong both ways (a short one can delay "
                                                       "the reserved job).",
                                                       QuantityKind::kDuration, above(0)),
                                        "the job's work"),
                      with_default(integer_field("priority",
                                                 "Queue priority: higher waits ahead of lower, then arrival "
                                                 "order. No policy preempts a running job.",
                                                 between(-1000000, 1000000)),
                                   0),
                      with_default(integer_field("gpus_per_node",
                                                 "GPUs the job uses on each node; 0 = all of them. A 1-node job "
                                                 "asking fewer shares its node with other such jobs.",
                                                 at_least(0)),
                                   0),
                      utilization(),
                      with_default(
                          object_array_field(
                              "utilization_profile",
                              "Phases of GPU utilisation that repeat in order until the job's work is done (a "
                              "load / compute / write cycle), so its nodes' power follows them; instead of "
                              "gpu_utilization. Empty: gpu_utilization throughout.",
                              {
                                  required(quantity_field("work", "Nominal run time of the phase (a throttled "
                                                          "clock stretches it like the rest of the work).",
                                                          QuantityKind::kDuration, above(0))),
                                  required(number_field("gpu_utilization", "GPU utilisation during the phase.",
                                                        between(0, 1))),
                              }),
                          nlohmann::json::array()),
                  }),
              nlohmann::json::array()),
          with_default(
              object_array_field(
                  "generators",
                  "Synthetic job streams; generator NAME's jobs are named NAME-0, NAME-1, ...",
                  {
                      required(non_empty(string_field("name", "Generator name, unique in the scenario."))),
                      required(integer_field("count", "Number of jobs to generate.", at_least(1))),
                      with_default(quantity_field("start", "Arrival time of the first job.",
                                                  QuantityKind::kDuration, at_least(0)),
                                   "0 s"),
                      required(distribution_field("interarrival", "Time between arrivals.",
                                                  QuantityKind::kDuration, at_least(0))),
                      required(distribution_field("work",
                                                  "Run time of each job at nominal GPU clock.",
                                                  QuantityKind::kDuration, above(0))),
                      with_default(min_items(integer_array_field(
                                                 "nodes",
                                                 "Node counts, drawn uniformly for each job (each "
                                                 "at most /cluster/nodes).",
                                                 at_least(1)),
                                             1),
                                   nlohmann::json::array({1})),
                      utilization(),
                  }),
              nlohmann::json::array()),
          with_default(
              object_array_field(
                  "traces",
                  "Job traces to replay (docs/scenarios.md, \"Job traces\": formats, field mapping, rows skipped). "
                  "Trace NAME's jobs are named NAME-<job id in the trace, or file line>; like generated "
                  "jobs they are summarised by statistics, with no headline row. Each job must fit the "
                  "cluster (nodes, GPUs per node).",
                  {
                      required(non_empty(string_field(
                          "name", "Trace name, unique among traces and generators; prefixes its jobs' names."))),
                      required(enum_field("format",
                                          "swf: Standard Workload Format (Parallel Workloads Archive); "
                                          "alibaba_openb: Alibaba cluster-trace-gpu-v2023 pod list; csv: "
                                          "dcsim's job list (name,arrival_s,nodes,gpus_per_node,work_s,"
                                          "estimate_s,gpu_utilization,priority).",
                                          "job trace format", job_trace_format_names())),
                      required(non_empty(string_field(
                          "path", "The trace file (a regular file); a relative path is taken from the "
                                  "scenario file's folder."))),
                      with_default_note(wide_integer(integer_field("limit",
                                                                   "At most this many jobs: the earliest by arrival "
                                                                   "(file order among equal arrivals).",
                                                                   at_least(1))),
                                        "every job"),
                      with_default(quantity_field("start",
                                                  "Offset added to every arrival (after time_scale).",
                                                  QuantityKind::kDuration, at_least(0)),
                                   "0 s"),
                      with_default(number_field("time_scale",
                                                "Multiplies arrivals, run times and estimates, to "
                                                "compress a long trace: 0.01 replays 100 days in one, "
                                                "arrivals and run times shrinking together so that the "
                                                "load keeps its shape.",
                                                above(0)),
                                   1),
                      with_default_note(
                          integer_field("processors_per_node",
                                        "swf only: processors per dcsim node; a job takes "
                                        "ceil(processors / this) whole nodes. The default counts each "
                                        "processor as a node, since SWF logs are of CPU machines whose "
                                        "processors are not GPUs: set it to the logged machine's cores "
                                        "per node to keep its job shapes.",
                                        at_least(1)),
                          "1 (swf only)"),
                      with_default_note(number_field("gpu_utilization",
                                                     "Each job's GPU utilisation where the file has none "
                                                     "(swf; csv without the column). Not for "
                                                     "alibaba_openb, whose gpu_milli gives it.",
                                                     between(0, 1)),
                                        "1"),
                  }),
              nlohmann::json::array()),
      });
}

}  // namespace

FieldSpec scenario_spec(const models::ModelRegistries& registries) {
  FieldSpec root = object_field(
      "", "A dcsim scenario.",
      {
          required(non_empty(string_field("name", "Scenario name, shown in outputs."))),
          free_text(string_field("description", "Free text.")),
          with_default(wide_integer(integer_field("seed",
                                                  "Scenario seed; every random stream derives from it. 0 to "
                                                  "2^64 - 1, recorded exactly in the outputs.",
                                                  at_least(0))),
                       1),
          with_default_note(quantity_field("duration",
                                           "Simulated time limit, at most 100 years (a site's life is 10 to 30; "
                                           "a longer span is a typo, and its periodic work never ends).",
                                           QuantityKind::kDuration, above(0)),
                            "run until every job has finished"),
          cluster_section(registries),
          workload_section(),
          fabric_section(registries),
          frontend_section(registries),
          traffic_section(),
          facility_section(registries),
          reliability_section(),
          faults_section(),
          uplink_section(),
          storage_section(),
          nvmeof_section(),
          economics_section(registries),
          inference_section(registries),
          object_field("policies", "Policies, each chosen by name from its registry.",
                       {with_default(enum_field("scheduler",
                                                "Which waiting jobs start when nodes free up "
                                                "(`dcsim list scheduler` describes each).",
                                                registries.schedulers.kind(),
                                                registries.schedulers.names()),
                                     "fifo"),
                        params_object_field("scheduler_params",
                                            "Parameters of the chosen scheduler (`dcsim list scheduler`); "
                                            "keys it does not document are errors, keys left out take "
                                            "its defaults.",
                                            entry_params(registries.schedulers)),
                        with_default(enum_field("failover",
                                                "What happens to a job a fault interrupts (`dcsim list \"failover "
                                                "policy\"` describes each).",
                                                registries.failover_policies.kind(),
                                                registries.failover_policies.names()),
                                     "checkpoint_restart"),
                        params_object_field("failover_params",
                                            "Parameters of the chosen failover policy; keys it does not document "
                                            "are errors, keys left out take its defaults.",
                                            entry_params(registries.failover_policies))}),
          object_field("outputs", "What the run records.",
                       {with_default(quantity_field("telemetry_interval",
                                                    "Sampling period of the telemetry series; 0 "
                                                    "records a point only when a value changes. "
                                                    "Otherwise at least 1 us: the runs it samples "
                                                    "(power, jobs) change on microsecond scales at "
                                                    "the fastest, and each sample is an event.",
                                                    QuantityKind::kDuration, at_least(0)),
                                     "0 s"),
                        // Why 1,024 and what a rack series costs: docs/outputs.md; measured in
                        // docs/resource-guards.md.
                        with_default(enum_field("rack_power",
                                                "Rack power series in the trace: `auto` writes one per rack "
                                                "(`power/rack/<r>_w`) up to `max_rack_series` racks and, above, "
                                                "the sums of groups of consecutive racks "
                                                "(`power/rack_group/<g>_w`, at most `max_rack_series` of them); "
                                                "`racks` one per rack however many (the resource guard estimates "
                                                "what they cost); `none` the cluster's total only "
                                                "(`power/cluster_w`). The summary's `power/peak_rack_w` is per "
                                                "rack in every case.",
                                                "rack power mode", {"auto", "racks", "none"}),
                                     "auto"),
                        with_default(integer_field("max_rack_series",
                                                   "The most rack series `auto` writes. 1,024: as rows of a heat "
                                                   "map, one pixel row each, they fill a screen; each costs about "
                                                   "0.2 ms to write and 6 kB of the trace, so 1,024 take a quarter "
                                                   "of a second and 6 MB, 250,000 a minute and 1.5 GB "
                                                   "(docs/outputs.md).",
                                                   at_least(1)),
                                     1024)}),
      });
  add_training_fields(root, registries);
  return root;
}

}  // namespace dcsim::tools::scenario
