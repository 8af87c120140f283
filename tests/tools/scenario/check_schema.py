#!/usr/bin/python3
"""Validates scenario files against the committed scenarios/schema.json with python3-jsonschema,
so the schema that editors and other tools use is checked by an implementation other than ours.

- every scenarios/*.json and tests/data/scenarios/*.json must be valid;
- every tests/data/bad_scenarios/*.json must be invalid, except the ones listed below whose
  mistake is beyond JSON Schema (ranges on strings with units, checks across keys) or that are
  not JSON at all; those must be *valid*, which shows the schema is not stricter than the loader.

Usage: check_schema.py [SOURCE_DIR]   (default: the repository containing this file)
"""

import json
import pathlib
import sys

import jsonschema

# Bad scenarios that the schema cannot catch, and why. The loader (and its corpus test) does.
NOT_SCHEMA_DETECTABLE = {
    "duplicate_job_names": "uniqueness across array elements",
    "generated_name_clash": "job names against generator names",
    "generator_larger_than_cluster": "node counts against /cluster/nodes",
    "idle_power_above_max": "compares two quantities",
    "job_larger_than_cluster": "node counts against /cluster/nodes",
    "uniform_low_above_high": "compares two quantities",
    "zero_work": "range of a quantity string",
    "facility_rack_limit_below_idle": "a power against the node model's idle power",
    "fabric_odd_k": "evenness, judged by the topology builder",
    "fabric_nics_cannot_wire": "NICs against the switch radix, judged by the topology builder",
    "fabric_fault_unknown_link": "link ids and switch names of the built topology",
    "traffic_without_fabric": "one section requiring another",
    "traffic_incast_target_missing": "host ids of the built topology",
    "neither_cluster_nor_fabric": "one of two sections required",
    "training_plan_does_not_divide": "tp x pp against the job's GPUs, judged by the step model",
    "training_does_not_fit": "memory per GPU, judged by the step model",
    "training_auto_plan_does_not_fit": "memory per GPU of every plan, judged by the plan search",
    "training_auto_plan_without_batch": "a key another key's value requires (auto needs global_batch)",
    "software_profile_with_stack": "two keys that exclude each other (a profile names its own stack)",
    "closed_loop_without_clients": "a key another key's value requires (closed_loop needs clients)",
    "training_larger_than_cluster": "node counts against /cluster/nodes; names across two arrays",
    "economics_tariff_out_of_order": "order across array elements; two keys that exclude each other",
    "uplink_stream_without_size": "one of two keys required; a period against /duration; ports for streams",
    "fabric_leaf_radix_exceeded": "ports a tier needs against the chosen switch preset's radix",
    "fabric_needs_fourth_tier": "fabric size against what three tiers of the chosen switches reach",
    "fabric_spine_oversubscription_not_whole": "whole ports from a ratio and the switch radix",
    "fabric_switch_speed_not_offered": "the link rate against the preset's port speeds",
    "training_cp_sequence": "sequence length against 2 x cp, judged by the step model",
    "training_tp_beyond_nvlink_domain": "tensor parallelism against the node's NVLink domain, judged by the step plan",
    "training_flow_mode_across_nvl72_trays": "a job's nodes against the node preset's NVLink domain when a fabric is given",
    "training_flow_mode_ep_across_partial_domains": "parallelism.ep against the node's GPUs and NVLink domain when a fabric is given",
    "training_interleaving_batch": "micro-batches against pp for interleaving, judged by the step model",
    "training_tp_overlap_without_sp": "tp_comm_overlap against sequence_parallel, judged by the step model",
    "training_distributed_optimizer_with_zero": "distributed_optimizer against zero_stage, judged by the step model",
    "training_lora_no_target": "LoRA targets all off, judged by the step model",
    "training_stage_split": "stage layer counts against the model's layers, judged by the step model",
    "frontend_nics_exceed_node": "front-end NICs against the node's storage NICs",
    "frontend_without_cluster": "one section requiring another",
    "checkpoint_network_with_nvme": "a key that applies to one value of another",
}
NOT_JSON = {"invalid_json", "empty_file"}
# Valid JSON to Python too (which keeps the last of repeated keys), but the loader rejects it.
NOT_SCHEMA_DETECTABLE.update({
    "rated_power_below_draw": "the preset's rating against its GPUs' count and power (the preset's own figures)",
    "inference_model_does_not_fit": "weights and KV cache against HBM (the model's own arithmetic)",
    "inference_tp_does_not_divide_heads": "tp against the model preset's heads",
    "inference_min_above_max": "compares two keys",
    "inference_fluid_disaggregated": "compares two keys (resolution and prefill_replicas)",
    "inference_trace_negative_tokens": "the contents of a CSV file",
    "inference_needs_cluster": "a section that needs another section",
    "inference_never_ends": "a stream without stop needs /duration",
    "inference_lengths_list_and_file": "two keys of which exactly one is needed",
})
NOT_SCHEMA_DETECTABLE.update({
    "storage_ec_wider_than_hosts": "k + m against /storage/hosts",
    "storage_replicas_above_hosts": "replicas against /storage/hosts",
    "storage_pool_key_without_store_target": "a key that applies to one value of another",
    "storage_pool_smaller_than_checkpoint": "pool capacity against the model's checkpoint size",
    "storage_target_without_storage": "a value that needs another section",
    "storage_unknown_pool": "names against /storage/pools, hosts against /storage/hosts",
    "storage_zero_drive_bandwidth": "ranges on quantities (strings with units)",
    "sdc_without_detection": "a section that a class's effect needs",
    "storage_dataset_without_storage": "a value that needs another section",
    "sdc_fault_without_quarantine": "a key that one fault kind needs",
    "nvmeof_target_without_nvmeof": "a value that needs another section",
    "nvmeof_tcp_keys_on_rdma": "a key that applies to one value of another",
})
NOT_SCHEMA_DETECTABLE["duplicate_key"] = "JSON Schema sees the parsed object, with one key"
NOT_SCHEMA_DETECTABLE.update({
    "duration_beyond_100_years": "the range of a quantity string",
    "quantity_of_5000_digits": "the range of a quantity string",
    "many_duplicate_job_names": "uniqueness across array elements",
    "reliability_fault_storm": "the run's estimated wall time (the resource guard)",
    "trace_path_is_a_device": "what a path names on disk",
    "trace_path_is_a_directory": "what a path names on disk",
})


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[3])
    schema = json.loads((root / "scenarios/schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []

    good = sorted(p for p in (root / "scenarios").glob("*.json") if p.name != "schema.json")
    good += sorted((root / "scenarios/site").glob("*.json"))
    good += sorted((root / "tests/data/scenarios").glob("*.json"))
    if not good:
        failures.append("no good scenarios found")
    for path in good:
        errors = list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
        for e in errors:
            failures.append(f"{path}: /{'/'.join(map(str, e.absolute_path))}: {e.message}")

    bad = sorted((root / "tests/data/bad_scenarios").glob("*.json"))
    if len(bad) < 15:
        failures.append(f"only {len(bad)} bad scenarios found")
    for path in bad:
        name = path.stem
        if name in NOT_JSON:
            try:
                json.loads(path.read_text(encoding="utf-8"))
                failures.append(f"{path}: expected invalid JSON, but it parses")
            except json.JSONDecodeError:
                pass
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        errors = list(validator.iter_errors(doc))
        if name in NOT_SCHEMA_DETECTABLE and errors:
            failures.append(f"{path}: the schema rejects it ({errors[0].message}); it should accept "
                            f"it and leave the check to the loader ({NOT_SCHEMA_DETECTABLE[name]})")
        if name not in NOT_SCHEMA_DETECTABLE and not errors:
            failures.append(f"{path}: the schema accepts it, but it is invalid")

    for f in failures:
        print(f)
    print(f"checked {len(good)} good and {len(bad)} bad scenarios: "
          f"{'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
