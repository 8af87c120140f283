#include "tools/scenario/cluster_spec.hpp"

#include <algorithm>
#include <cstdint>

#include "sim/error.hpp"
#include "tools/scenario/cloud_pool_spec.hpp"
#include "tools/scenario/job_trace_import.hpp"
#include "tools/scenario/registry_params.hpp"
#include "tools/scenario/training_spec.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;
using sim::QuantityKind;
namespace mc = models::cluster;
namespace mw = models::workload;
using C = mc::ClusterConfig;

namespace {

// /outputs/rack_power and /outputs/max_rack_series -> racks a power series covers (0: none).
// `auto` keeps one series per rack up to `max_series` racks, above that the fewest consecutive
// racks a group that keeps the series at `max_series` or under: ceil(racks / max_series).
int racks_per_power_series(const C& c, const std::string& mode, int max_series) {
  if (mode == "none") return 0;
  if (mode == "racks") return 1;
  if (mode != "auto") throw sim::InternalError("unknown /outputs/rack_power '" + mode + "' after validation (a bug)");
  const std::int64_t racks = (static_cast<std::int64_t>(c.nodes) + c.nodes_per_rack - 1) / c.nodes_per_rack;
  return static_cast<int>(std::max<std::int64_t>(1, (racks + max_series - 1) / max_series));
}

}  // namespace

Bindings<models::hardware::NodeSpec> node_bindings(const models::ModelRegistries& registries) {
  using N = models::hardware::NodeSpec;
  using G = models::hardware::GpuSpec;
  const auto from_preset = [](FieldSpec f) { return with_default_note(std::move(f), "from the preset"); };
  // The preset first: the other keys override its figures.
  Bindings<N> node(
      object_field("node", "The node type: a preset, optionally with some of its figures overridden.", {}));
  node.bind(with_default(enum_field("preset", "Named node preset (`dcsim list \"node preset\"` describes each).",
                                    registries.node_presets.kind(), registries.node_presets.names()),
                         "hgx-h100"),
            "node.preset",
            [&registries](N& n, const json& v) { n = registries.node_presets.get(v.get<std::string>()).factory(); })
      .bind(from_preset(integer_field("gpus", "GPUs per node.", between(1, 64))), &N::gpus, "node.gpus")
      .bind(from_preset(
                quantity_field("gpu_idle_power", "Power of one GPU at idle clock, no work.", QuantityKind::kPower)),
            &N::gpu, &G::idle_power_w, "node.gpu_idle_power")
      .bind(from_preset(quantity_field("gpu_max_power", "Power of one GPU at full utilisation (its limit).",
                                       QuantityKind::kPower)),
            &N::gpu, &G::max_power_w, "node.gpu_max_power")
      .bind(from_preset(quantity_field("other_idle_power",
                                       "Power of everything in the node but the GPUs (CPUs, DRAM, NICs, fans, PSU "
                                       "losses) at idle.",
                                       QuantityKind::kPower)),
            &N::other_idle_power_w, "node.other_idle_power")
      .bind(from_preset(quantity_field("other_max_power",
                                       "Power of everything but the GPUs (PSU losses included) with every GPU at "
                                       "full load running a GPU job (the host at that job's load, fans at full "
                                       "speed; not the nameplate, rated_power); scales linearly with GPU "
                                       "utilisation in between.",
                                       QuantityKind::kPower)),
            &N::other_max_power_w, "node.other_max_power")
      .bind(from_preset(quantity_field("rated_power",
                                       "The node's maximum system power, what its PSUs are sized for (DGX H100: "
                                       "10.2 kW): the contracted power when /economics gives none. Not a draw: a "
                                       "node's full-load draw is gpus x gpu_max_power + other_max_power; 0 means "
                                       "that draw.",
                                       QuantityKind::kPower)),
            &N::rated_power_w, "node.rated_power");
  bind_node_hardware(node);
  return node;
}

Bindings<C> cluster_bindings(const models::ModelRegistries& registries) {
  using P = models::power::GpuPhasePowerConfig;
  Bindings<P> phases(
      object_field("gpu_phase_power",
                   "GPU power by what the GPU does (models/power/gpu_phase_power.hpp): each kind of phase draws "
                   "idle power plus an activity times (max - idle); a training job's GPU utilisation is the "
                   "time-weighted mean activity of its step's phases (compute, optimizer, exposed communication, "
                   "bubble). Defaults are H100 SXM figures, each cited in the header.",
                   {}));
  phases
      .bind(number_field("compute_activity",
                         "Activity of compute (tensor-core) phases: 1 runs the GPU at its "
                         "max power.",
                         between(0, 1)),
            &P::compute_activity, "gpu_phase_power.compute_activity")
      .bind(number_field("hbm_pj_per_bit",
                         "HBM access energy in pJ per bit; with the GPU's HBM bandwidth it gives "
                         "the HBM power of memory-bound phases (3.9: HBM2, O'Connor et al. 2017).",
                         between(0, 100)),
            &P::hbm_energy_pj_per_bit, "gpu_phase_power.hbm_energy_pj_per_bit")
      .bind(number_field("memory_sm_activity",
                         "Share of the non-HBM dynamic power drawn in memory-bound phases "
                         "(optimizer step).",
                         between(0, 1)),
            &P::memory_sm_activity, "gpu_phase_power.memory_sm_activity")
      .bind(number_field("comm_sm_fraction",
                         "Share of the non-HBM dynamic power drawn by communication kernels "
                         "(NCCL channels' SMs: 32 of 132).",
                         between(0, 1)),
            &P::comm_sm_fraction, "gpu_phase_power.comm_sm_fraction")
      .bind(number_field("comm_hbm_fraction",
                         "Share of HBM power drawn while communicating (3 accesses per link byte "
                         "at 450 GB/s of 3.35 TB/s).",
                         between(0, 1)),
            &P::comm_hbm_fraction, "gpu_phase_power.comm_hbm_fraction")
      .bind(number_field("bubble_activity", "Activity while a pipeline stage waits on another (bubble).",
                         between(0, 1)),
            &P::bubble_activity, "gpu_phase_power.bubble_activity");

  Bindings<C> cluster(optional_section(object_field("cluster", "The compute nodes and their racks.", {}),
                                       "(absent: no compute nodes; a scenario needs /cluster or /fabric)"));
  cluster.object(node_bindings(registries), &C::node, "node")
      .bind(required(integer_field("nodes", "Number of nodes in the cluster.", at_least(1))), &C::nodes, "nodes")
      // The scenario's racks hold 4 nodes; the model's default is 1.
      .bind(with_default(integer_field("nodes_per_rack", "Nodes per rack (for per-rack power).", at_least(1)), 4),
            "nodes_per_rack", [](C& c, const json& v) { c.nodes_per_rack = v.get<int>(); })
      // Mapped with the checks across its keys (map_cloud_pool).
      .key(cloud_pool_field(registries),
           [pool = cloud_pool_bindings(registries)](std::string_view f, const std::string& at, const json* value) {
             return pool.pointer_of(f, at, value);
           })
      .object(std::move(phases), &C::gpu_phase_power, "gpu_phase_power");
  return cluster;
}

Bindings<C> workload_bindings(const models::ModelRegistries& registries) {
  using J = mw::JobSpec;
  const auto utilization = [] {
    return number_field("gpu_utilization", "Mean utilisation of the job's GPUs while it runs.", between(0, 1));
  };
  using U = mw::UtilizationPhase;
  Bindings<U> phase(
      with_default(object_array_field("utilization_profile",
                                      "Phases of GPU utilisation that repeat in order until the job's work is done (a "
                                      "load / compute / write cycle), so its nodes' power follows them; instead of "
                                      "gpu_utilization. Empty: gpu_utilization throughout.",
                                      {}),
                   json::array()));
  phase
      .bind(required(quantity_field("work",
                                    "Nominal run time of the phase (a throttled "
                                    "clock stretches it like the rest of the work).",
                                    QuantityKind::kDuration, above(0))),
            &U::work, "work")
      .bind(required(number_field("gpu_utilization", "GPU utilisation during the phase.", between(0, 1))),
            &U::gpu_utilization, "gpu_utilization");

  Bindings<J> job(with_default(object_array_field("jobs", "Explicit jobs.", {}), json::array()));
  job.bind(required(non_empty(string_field("name", "Job name, unique in the scenario."))), &J::name, "name")
      .bind(with_default(quantity_field("arrival", "Arrival time, from the start of the run.", QuantityKind::kDuration,
                                        at_least(0)),
                         "0 s"),
            &J::arrival, "arrival")
      .bind(integer_field("nodes", "Whole nodes the job needs (at most /cluster/nodes).", at_least(1)), &J::nodes,
            "nodes")
      .bind(required(quantity_field("work", "Run time at nominal GPU clock.", QuantityKind::kDuration, above(0))),
            &J::work, "work")
      .bind(with_default_note(quantity_field("estimate",
                                             "Run time the user asked for: what easy_backfill plans "
                                             "with. It may be wrong both ways (a short one can delay "
                                             "the reserved job).",
                                             QuantityKind::kDuration, above(0)),
                              "the job's work"),
            &J::estimate, "estimate")
      .bind(integer_field("priority",
                          "Queue priority: higher waits ahead of lower, then arrival "
                          "order. No policy preempts a running job.",
                          between(-1000000, 1000000)),
            &J::priority, "priority")
      .bind(integer_field("gpus_per_node",
                          "GPUs the job uses on each node; 0 = all of them. A 1-node job "
                          "asking fewer shares its node with other such jobs.",
                          at_least(0)),
            &J::gpus_per_node, "gpus_per_node")
      .bind(utilization(), &J::gpu_utilization, "gpu_utilization")
      .array(&J::utilization_profile, "utilization_profile", std::move(phase));

  using Gen = mw::JobGeneratorConfig;
  Bindings<Gen> generator(
      with_default(object_array_field("generators",
                                      "Synthetic job streams; generator NAME's jobs are named NAME-0, NAME-1, ...", {}),
                   json::array()));
  generator
      .bind(required(non_empty(string_field("name", "Generator name, unique in the scenario."))), &Gen::name, "name")
      .bind(required(integer_field("count", "Number of jobs to generate.", at_least(1))), &Gen::count, "count")
      .bind(with_default(quantity_field("start", "Arrival time of the first job.", QuantityKind::kDuration,
                                        at_least(0)),
                         "0 s"),
            &Gen::start, "start")
      .bind(required(
                distribution_field("interarrival", "Time between arrivals.", QuantityKind::kDuration, at_least(0))),
            &Gen::interarrival_s, "interarrival_s")
      .bind(required(distribution_field("work", "Run time of each job at nominal GPU clock.", QuantityKind::kDuration,
                                        above(0))),
            &Gen::work_s, "work_s")
      .bind(with_default(min_items(integer_array_field("nodes",
                                                       "Node counts, drawn uniformly for each job (each "
                                                       "at most /cluster/nodes).",
                                                       at_least(1)),
                                   1),
                         json::array({1})),
            &Gen::node_choices, "nodes")
      .bind(utilization(), &Gen::gpu_utilization, "gpu_utilization");

  Bindings<C> workload(
      object_field("workload", "The jobs to run: an explicit list, synthetic generators and/or job traces.", {}));
  workload.array(&C::jobs, "jobs", std::move(job))
      .array(&C::generators, "generators", std::move(generator))
      // Read by map_job_traces, which checks each trace's jobs against the names above.
      .key(with_default(
               object_array_field(
                   "traces",
                   "Job traces to replay (docs/scenarios.md, \"Job traces\": formats, field mapping, rows "
                   "skipped). Trace NAME's jobs are named NAME-<job id in the trace, or file line>; like generated "
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
                       required(
                           non_empty(string_field("path",
                                                  "The trace file (a regular file); a relative path is taken from the "
                                                  "scenario file's folder."))),
                       with_default_note(wide_integer(integer_field("limit",
                                                                    "At most this many jobs: the earliest by "
                                                                    "arrival (file order among equal arrivals).",
                                                                    at_least(1))),
                                         "every job"),
                       with_default(quantity_field("start", "Offset added to every arrival (after time_scale).",
                                                   QuantityKind::kDuration, at_least(0)),
                                    "0 s"),
                       with_default(number_field("time_scale",
                                                 "Multiplies arrivals, run times and estimates, to "
                                                 "compress a long trace: 0.01 replays 100 days in one, "
                                                 "arrivals and run times shrinking together so that the "
                                                 "load keeps its shape.",
                                                 above(0)),
                                    1),
                       with_default_note(integer_field("processors_per_node",
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
               json::array()),
           at_key_for({"trace_jobs"}))
      .array(&C::training_jobs, "training", training_job_bindings(registries));
  return workload;
}

Bindings<C> policies_bindings(const models::ModelRegistries& registries) {
  Bindings<C> policies(object_field("policies", "Policies, each chosen by name from its registry.", {}));
  policies
      .bind(with_default(enum_field("scheduler",
                                    "Which waiting jobs start when nodes free up "
                                    "(`dcsim list scheduler` describes each).",
                                    registries.schedulers.kind(), registries.schedulers.names()),
                         "fifo"),
            &C::scheduler, "scheduler")
      .bind(params_object_field("scheduler_params",
                                "Parameters of the chosen scheduler (`dcsim list scheduler`); "
                                "keys it does not document are errors, keys left out take "
                                "its defaults.",
                                entry_params(registries.schedulers)),
            &C::scheduler_params, "scheduler_params")
      .bind(with_default(enum_field("failover",
                                    "What happens to a job a fault interrupts (`dcsim list \"failover "
                                    "policy\"` describes each).",
                                    registries.failover_policies.kind(), registries.failover_policies.names()),
                         "checkpoint_restart"),
            &C::failover, "failover")
      .bind(params_object_field("failover_params",
                                "Parameters of the chosen failover policy; keys it does not document "
                                "are errors, keys left out take its defaults.",
                                entry_params(registries.failover_policies)),
            &C::failover_params, "failover_params");
  return policies;
}

Bindings<C> outputs_bindings() {
  Bindings<C> outputs(object_field("outputs", "What the run records.", {}));
  outputs
      .bind(with_default(quantity_field("telemetry_interval",
                                        "Sampling period of the telemetry series; 0 "
                                        "records a point only when a value changes. "
                                        "Otherwise at least 1 us: the runs it samples "
                                        "(power, jobs) change on microsecond scales at "
                                        "the fastest, and each sample is an event.",
                                        QuantityKind::kDuration, at_least(0)),
                         "0 s"),
            &C::telemetry_interval, "telemetry_interval")
      // Why 1,024 and what a rack series costs: docs/outputs.md; measured in
      // docs/resource-guards.md. Both become racks_per_power_series (map_cluster_sections).
      .key(with_default(enum_field("rack_power",
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
           "rack_power")
      .key(with_default(integer_field("max_rack_series",
                                      "The most rack series `auto` writes. 1,024: as rows of a heat "
                                      "map, one pixel row each, they fill a screen; each costs about "
                                      "0.2 ms to write and 6 kB of the trace, so 1,024 take a quarter "
                                      "of a second and 6 MB, 250,000 a minute and 1.5 GB "
                                      "(docs/outputs.md).",
                                      at_least(1)),
                        1024),
           "max_rack_series");
  return outputs;
}

std::vector<std::pair<std::size_t, mw::PlanSearchOutcome>> map_cluster_sections(
    const json& r, const json& given, const models::ModelRegistries& registries,
    const std::vector<mw::SoftwareStack>& software, C& c) {
  cluster_bindings(registries).apply(r.at("cluster"), c);
  // A preset whose NVLink domain is its node keeps it the node when gpus is overridden (HGX with
  // fewer GPUs); a domain of several nodes (NVL72's 72) stays unless given.
  if (find_at(given, "/cluster/node/nvlink_domain_gpus") == nullptr &&
      registries.node_presets.contains(c.node.preset)) {
    const auto preset = registries.node_presets.get(c.node.preset).factory();
    if (preset.nvlink_domain_gpus == preset.gpus) c.node.nvlink_domain_gpus = c.node.gpus;
  }
  c.cloud_pool = map_cloud_pool(r.at("cluster"), registries);
  workload_bindings(registries).apply(r.at("workload"), c);
  policies_bindings(registries).apply(r.at("policies"), c);
  outputs_bindings().apply(r.at("outputs"), c);
  // What no single key says.
  for (auto& job : c.jobs) {
    if (!job.utilization_profile.empty()) job.gpu_utilization = job.utilization_profile.front().gpu_utilization;
  }
  const json& outputs = r.at("outputs");
  c.racks_per_power_series =
      racks_per_power_series(c, outputs.at("rack_power").get<std::string>(), outputs.at("max_rack_series").get<int>());
  for (std::size_t i = 0; i < c.training_jobs.size() && i < software.size(); ++i) {
    c.training_jobs[i].software = software[i];
  }
  return finish_training_jobs(r.at("workload").at("training"), find_at(given, "/workload/training"), registries, c);
}

std::optional<std::string> cluster_pointer(std::string_view field, const models::ModelRegistries& registries,
                                           const json& resolved) {
  if (field == "seed" || field == "duration") return "/" + std::string(field);
  // A training job's plan checks the cluster's node: its figures are /cluster/node's keys.
  if (const auto close = field.find("]."); field.substr(0, 9) == "training[" && close != std::string_view::npos) {
    const std::string_view rest = field.substr(close + 2);
    if (rest == "fabric.nics_per_node") return "/cluster/node/compute_nics";
    if (names_field(rest, {"node"})) field = rest;
  }
  const auto section = [&resolved](const char* key) { return resolved.contains(key) ? &resolved.at(key) : nullptr; };
  if (auto at = cluster_bindings(registries).pointer_of(field, "/cluster", section("cluster"))) return at;
  if (auto at = workload_bindings(registries).pointer_of(field, "/workload", section("workload"))) return at;
  if (auto at = policies_bindings(registries).pointer_of(field, "/policies", section("policies"))) return at;
  return outputs_bindings().pointer_of(field, "/outputs");
}

}  // namespace dcsim::tools::scenario
