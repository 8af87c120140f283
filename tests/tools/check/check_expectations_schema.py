#!/usr/bin/python3
"""Validates expectations files against the committed scenarios/ci/expectations.schema.json with
python3-jsonschema, so the schema editors and CI linters use is checked by an implementation other
than ours: the shipped expectations files and one check of each form are valid; checks that mix
forms, miss a key or carry a key of another form are not (the loader refuses each of them too:
tests/tools/check/check_verdict_test.cpp).

Usage: check_expectations_schema.py [SOURCE_DIR]   (default: the repository containing this file)
"""

import json
import pathlib
import sys

import jsonschema

GOOD_CHECKS = [
    {"path": "network/fct_p99_s", "max": 0.03},
    {"path": "network/fct_p99_s", "min": 0.01, "max": 0.03},
    {"path": "network/switches", "equals": 20},
    {"path": "scenario", "equals": "a name"},
    {"path": "network/makespan_s", "baseline": "b.json", "rel_tol": 0.02},
    {"path": "network/makespan_s", "baseline": "b.json", "rel_tol": 0.02, "abs_tol": 0.001},
    {"path": "jobs/llama/step_time_s", "baseline": "b.json", "max_increase": "2%"},
    {"path": "jobs/llama/step_time_s", "baseline": "b.json", "max_increase": 0.05, "max_decrease": "10 %"},
    {"path": "jobs/0/tokens_per_s", "baseline": "b.json", "max_decrease": "5%"},
    {"fingerprint": "a0ed4e9d378e35b1"},
    {"no_failed_flows": True},
    {"no_unfinished_jobs": True},
]

BAD_CHECKS = [
    {},                                                          # no form
    {"path": "a"},                                               # a path and nothing to check
    {"path": "a", "max": 1, "equals": 2},                        # two forms
    {"path": "a", "max": 1, "rel_tol": 0.1},                     # a key of another form
    {"path": "a", "baseline": "b.json"},                         # no tolerance
    {"path": "a", "baseline": "b.json", "rel_tol": 0.1, "max_increase": "2%"},  # two-sided and one-sided
    {"path": "a", "baseline": "b.json", "max_increase": "-2%"},  # a negative allowance
    {"path": "a", "baseline": "b.json", "max_increase": "2"},    # neither a number nor a percentage
    {"path": "a", "baseline": "b.json", "rel_tol": -0.1},        # a negative tolerance
    {"path": "a", "maxx": 1},                                    # a misspelt key
    {"no_failed_flows": False},                                  # leave it out instead
    {"fingerprint": "ab", "path": "a", "max": 1},                # two forms
    {"path": "", "max": 1},                                      # an empty path
]


def document(checks):
    return {"name": "t", "runs": [{"name": "r", "scenario": "s.json", "checks": checks}]}


def main():
    source = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[3]
    ci = source / "scenarios" / "ci"
    schema = json.loads((ci / "expectations.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []
    shipped = [p for p in sorted(ci.glob("*.json")) if "schema" not in p.name and "baseline" not in p.name]
    if not shipped:
        failures.append("no expectations file in scenarios/ci")
    for path in shipped:
        for error in validator.iter_errors(json.loads(path.read_text())):
            failures.append(f"{path.name}: {error.message}")
    for check in GOOD_CHECKS:
        for error in validator.iter_errors(document([check])):
            failures.append(f"valid check refused: {json.dumps(check)}: {error.message}")
    for check in BAD_CHECKS:
        if validator.is_valid(document([check])):
            failures.append(f"invalid check accepted: {json.dumps(check)}")
    for doc in [{"name": "t", "runs": []}, {"runs": [{"name": "r", "scenario": "s", "checks": GOOD_CHECKS}]},
                {"name": "t", "runs": [{"name": "r", "scenario": "s", "checks": GOOD_CHECKS, "sett": []}]}]:
        if validator.is_valid(doc):
            failures.append(f"invalid document accepted: {json.dumps(doc)[:120]}")
    summary = (f"check_expectations_schema: {len(shipped)} shipped files, {len(GOOD_CHECKS)} good and "
               f"{len(BAD_CHECKS)} bad checks")
    if failures:
        sys.exit("\n".join(failures + [summary + ": FAILED"]))
    print(summary + ": ok")


if __name__ == "__main__":
    main()
