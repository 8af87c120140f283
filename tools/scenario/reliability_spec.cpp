#include "tools/scenario/reliability_spec.hpp"

#include "models/reliability/fault_class.hpp"

namespace dcsim::tools::scenario {

using sim::QuantityKind;

Bindings<models::reliability::FaultModelConfig> reliability_bindings() {
  namespace rel = models::reliability;
  using C = rel::FaultModelConfig;
  const auto from_preset = [](FieldSpec f, const char* otherwise) {
    return with_default_note(std::move(f), std::string("from the preset's class of the same name; ") + otherwise);
  };
  Bindings<C> reliability(object_field(
      "reliability",
      "Random component faults (models/reliability): every class fails instances of one component kind at a rate "
      "per instance, each fault lasting a drawn repair time. The run lists every fault (events/faults) and counts "
      "them (summary reliability/...); node, GPU and NIC faults take nodes down and interrupt their jobs, crashes "
      "interrupt jobs, cable and switch faults go to the fabric; /policies/failover decides how jobs come back. "
      "Needs /duration when any class can fire.",
      {}));
  reliability
      .bind(with_default(enum_field("faults",
                                    "Preset classes: llama3_405b (the 18 root causes of Llama 3 405B's 419 unexpected "
                                    "interruptions in 54 days on 16,384 H100; models/reliability/llama3_faults.hpp) or "
                                    "none. `classes` adds to them or overrides them by name.",
                                    "fault preset", {"none", "llama3_405b"}),
                         "none"),
            &C::preset, "preset")
      .bind(number_field("scale", "Multiplies every class's rate (what-if: 2 = twice as many faults).", at_least(0)),
            &C::scale, "scale")
      .bind(with_default(enum_field("operations",
                                    "How the site's operations detect and diagnose a fault that interrupts a job, "
                                    "before the failover policy's restart (models/reliability/recovery_stages.hpp; "
                                    "figures and sources in docs/models/reliability.md). automated: in-job fault "
                                    "tolerance, a failed rank declared after a 5-minute heartbeat timeout and the "
                                    "faulty node found by self-checks in 5 more (NVIDIA NVRx's default, ByteDance "
                                    "MegaScale's measured under 10 minutes); a crash is seen at once. manual: "
                                    "PyTorch's 10-minute NCCL watchdog and an hourly job monitor (10-70 min), then "
                                    "hours to find and replace the node (lognormal, 2 h median); a crash is requeued "
                                    "after 5 min (the BLOOM and OPT-175B logbooks). none: the policy acts the "
                                    "instant the fault happens. A class's own detection and diagnosis override "
                                    "these. The job holds its GPUs for what is left of them when it starts again "
                                    "(summary goodput/restart_gpu_h_by_stage/...).",
                                    "operations", rel::operations_names()),
                         "automated"),
            "operations",
            [](C& c, const nlohmann::json& v) { c.operations = *rel::parse_operations(v.get<std::string>()); })
      .bind(boolean_field("nic_bonding",
                          "false: each compute NIC is a GPU's rail (rail-optimised, as the Llama 3 "
                          "cluster, whose table counts NIC faults as interruptions): a NIC fault takes "
                          "the node's jobs down until its repair. true: a node's NICs are bonded: "
                          "traffic fails over to the surviving NICs (with /fabric the port goes down and "
                          "flows re-route), and only a node whose every NIC is down stops its jobs."),
            &C::nic_bonding, "nic_bonding")
      // Given, they replace the counts the mapping takes from /fabric (inventory_of).
      .bind(with_default_note(wide_integer(
                                  integer_field("links", "Fabric cables that link classes fail.", at_least(0))),
                              "the /fabric topology's cables; without /fabric, 23/7 per compute NIC (the Llama 3 "
                              "fabric's, so that the preset's cable rate gives its published count)"),
            &C::inventory, &rel::Inventory::links, "inventory.links")
      .bind(with_default_note(wide_integer(
                                  integer_field("switches", "Fabric switches that switch classes fail.", at_least(0))),
                              "the /fabric topology's switches; without /fabric, 0"),
            &C::inventory, &rel::Inventory::switches, "inventory.switches")
      // Classes merge with the preset's by name (map_reliability_section); the model numbers
      // them after the merge, so no key feeds "classes[i]".
      .key(with_default(
          object_array_field(
              "classes",
              "Fault classes. A name the preset has overrides the keys given and keeps the others; a new name "
              "needs component, effect, rate_per_hour or mtbf, and repair.",
              {
                  required(non_empty(string_field("name",
                                                  "Class name, unique; names its random stream and "
                                                  "its counters (summary reliability/faults/NAME)."))),
                  from_preset(enum_field("component",
                                         "What fails: gpu, node (host parts: CPU, memory, PSU, chassis, SSD, "
                                         "host software), nic (compute NIC), link (fabric cable), switch, zone "
                                         "(cooling zone), osd_host (a host of /storage with its OSDs), osd (one "
                                         "drive of /storage: hosts x drives_per_host instances).",
                                         "component", rel::component_names()),
                              "required for a new class"),
                  from_preset(number_field("rate_per_hour",
                                           "Faults per hour per instance (for Weibull: 1 / mean time to "
                                           "failure). Give this or mtbf.",
                                           at_least(0)),
                              "required (or mtbf) for a new class"),
                  quantity_field("mtbf", "Mean time between faults of one instance (1 / rate_per_hour).",
                                 QuantityKind::kDuration, above(0)),
                  from_preset(number_field("weibull_shape",
                                           "Lifetime shape: 1 exponential, < 1 infant mortality, > 1 "
                                           "wear-out; the scale keeps the mean time to failure at 1 / rate.",
                                           above(0)),
                              "else 1"),
                  from_preset(distribution_field("repair", "Time until the component is back in service.",
                                                 QuantityKind::kDuration, at_least(0)),
                              "required for a new class"),
                  with_default_note(distribution_field("detection",
                                                       "Time from the fault to the interrupted job's stop being "
                                                       "noticed (the job hangs on its peers meanwhile).",
                                                       QuantityKind::kDuration, at_least(0)),
                                    "/reliability/operations's for the class's effect"),
                  with_default_note(distribution_field("diagnosis",
                                                       "Time to find and exclude the faulty part once the failure "
                                                       "is noticed, before the failover policy's restart.",
                                                       QuantityKind::kDuration, at_least(0)),
                                    "/reliability/operations's for the class's effect"),
                  from_preset(enum_field("effect",
                                         "What the fault does: node_down (node unusable until repaired), "
                                         "job_crash (the job dies, the node is back after the repair), "
                                         "silent_data_corruption (the node's training jobs run on wrong "
                                         "numbers until caught, /reliability/sdc_detection; the repair is the "
                                         "quarantine once caught), osd_host_down (a store host, /storage: "
                                         "degraded reads, backfill once marked out), osd_down (one drive of "
                                         "the store, its host up), nic_down, link_down, "
                                         "switch_down, "
                                         "zone_cooling_loss. node_down, job_crash and silent_data_corruption "
                                         "need a gpu, node or nic; the others their own component.",
                                         "effect", rel::effect_names()),
                              "required for a new class"),
              }),
          nlohmann::json::array()))
      // The cluster's, mapped by map_sdc_detection.
      .key(optional_section(
          object_field("sdc_detection",
                       "How training jobs catch silent data corruption (classes with effect silent_data_corruption, "
                       "/faults of kind silent_data_corruption): their loss checks (loss spikes, NaN/Inf, "
                       "gradient-norm jumps) see a corruption with `probability`, `latency_steps` steps after it; the "
                       "job then rolls back to its latest kept checkpoint from before it (the store keeps "
                       "/storage/keep_checkpoints) and the node is quarantined for the fault's repair time. A missed "
                       "corruption runs on to a wrong result (integrity/wrong_results). Batch and inference jobs have "
                       "no such checks. Required whenever a corruption can happen.",
                       {
                           required(number_field("probability",
                                                 "Share of corruptions the checks catch (their recall): 0 none, 1 "
                                                 "all. Few GPU corruptions are NaN/Inf (about 1%, arXiv 2605.04213): "
                                                 "catching the rest takes loss and gradient checks.",
                                                 between(0, 1))),
                           with_default(integer_field("latency_steps",
                                                      "Steps between the corruption and the check that sees it (0: at "
                                                      "once), at the job's nominal step time.",
                                                      at_least(0)),
                                        1),
                       }),
          "no corruption can happen"));
  return reliability;
}

FieldSpec reliability_section() { return optional_section(reliability_bindings().spec(), "no random faults"); }

}  // namespace dcsim::tools::scenario
