#!/usr/bin/python3
"""Structure check of a dcsim timeline (Chrome / Perfetto trace-event JSON), standard library only.

    check_timeline.py FILE.json [--summary]

Checks what a viewer relies on: the top-level keys, the fields every event of its phase type
needs, non-negative times, and that each job's phases (cat waiting / running / interrupted) are
contiguous and each step's compute + communication + bubble children add up to it. Exit 0 when
the file passes, 1 with the problems listed otherwise. --summary prints event counts by kind.
"""
import collections
import json
import sys

REQUIRED = {
    "M": ("name", "pid", "tid", "args"),
    "X": ("name", "cat", "ts", "dur", "pid", "tid"),
    "i": ("name", "ts", "pid", "tid", "s"),
    "C": ("name", "ts", "pid", "args"),
}
TOLERANCE_US = 0.002  # times are printed with three decimals (nanoseconds)


def tolerance(ts):
    # A double holds ~16 significant digits: beyond ~1e12 us (11 days) the last printed decimal
    # is rounded when parsed, by up to a few ulps once added.
    return TOLERANCE_US + 8e-16 * abs(ts)


def check(doc):
    problems = []
    for key in ("traceEvents", "displayTimeUnit", "otherData"):
        if key not in doc:
            problems.append(f"missing top-level key {key}")
    for key in ("scenario", "seed", "dcsim_version"):
        if key not in doc.get("otherData", {}):
            problems.append(f"otherData lacks {key}")
    events = doc.get("traceEvents", [])
    phases = collections.defaultdict(list)
    steps = collections.defaultdict(list)
    for n, e in enumerate(events):
        ph = e.get("ph")
        if ph not in REQUIRED:
            problems.append(f"event {n}: unknown ph {ph!r}")
            continue
        for field in REQUIRED[ph]:
            if field not in e:
                problems.append(f"event {n} ({ph}): no {field}")
        if "ts" in e and (not isinstance(e["ts"], (int, float)) or e["ts"] < 0):
            problems.append(f"event {n}: bad ts {e['ts']!r}")
        if ph == "X" and (not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0):
            problems.append(f"event {n}: bad dur {e.get('dur')!r}")
        if ph == "i" and e.get("s") not in ("g", "p", "t"):
            problems.append(f"event {n}: bad instant scope {e.get('s')!r}")
        if ph == "C":
            for k, v in e.get("args", {}).items():
                if not isinstance(v, (int, float)):
                    problems.append(f"event {n}: counter {k} is not a number")
        if ph == "X" and e.get("cat") in ("waiting", "running", "interrupted"):
            phases[(e["pid"], e["tid"])].append(e)
        if ph == "X" and e.get("cat") in ("step", "compute", "communication", "bubble", "checkpointing"):
            steps[(e["pid"], e["tid"])].append(e)
    for track, list_ in phases.items():
        list_.sort(key=lambda e: e["ts"])
        for a, b in zip(list_, list_[1:]):
            if abs(a["ts"] + a["dur"] - b["ts"]) > tolerance(b["ts"]):
                problems.append(f"job track {track}: phases not contiguous at ts {b['ts']}")
    for track, list_ in steps.items():
        parent = None
        total = 0.0
        for e in list_ + [None]:
            if e is None or e["cat"] == "step":
                if parent is not None and total > 0 and abs(total - parent["dur"]) > 3 * tolerance(parent["dur"]):
                    problems.append(f"{parent['name']} on {track}: parts add up to {total}, not {parent['dur']}")
                parent, total = e, 0.0
            else:
                total += e["dur"]
    return problems


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    problems = check(doc)
    if "--summary" in sys.argv:
        kinds = collections.Counter((e.get("ph"), e.get("cat", "")) for e in doc.get("traceEvents", []))
        for (ph, cat), n in sorted(kinds.items()):
            print(f"{ph} {cat:16} {n}")
        print(json.dumps(doc.get("otherData", {}).get("sampling", {})))
    for p in problems[:50]:
        print("problem:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
