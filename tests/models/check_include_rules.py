#!/usr/bin/env python3
"""The layering of ../shared/DESIGN.md as a test: what each folder may include.

  sim/                 nothing of models/ or tools/ (the engine knows nothing of datacenters)
  models/              nothing of tools/ (models know nothing of JSON or files)
  models/seams/        sim/, models/seams/ and the value headers below only
  models/<part>/       not models/datacenter/ (the assembly), no other part's concrete
                       simulation class (models/<other>/*_simulation.hpp), and not the registry
                       hub models/model_registries.hpp: a part takes the registries it uses

KNOWN would list violations accepted for a while: each must still be there, so that fixing one
means taking it off the list; nothing else may appear. It is empty.
Usage: check_include_rules.py SOURCE_DIR
"""
import pathlib
import re
import sys

VALUE_HEADERS = {
    "models/network/finished_flow.hpp",
    "models/network/network_ids.hpp",
    "models/network/uplink_values.hpp",
    "models/reliability/precursor_config.hpp",
}
KNOWN = set()  # none left: issue 39 moved the seams, economics' adapter and storage's network
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def violations(root):
    found = set()
    for path in sorted(list(root.glob("sim/**/*.[ch]pp")) + list(root.glob("models/**/*.[ch]pp"))):
        src = path.relative_to(root).as_posix()
        top = src.split("/")[0]
        part = src.split("/")[1] if top == "models" and src.count("/") >= 2 else None
        for inc in INCLUDE.findall(path.read_text()):
            why = None
            if top == "sim" and (inc.startswith("models/") or inc.startswith("tools/")):
                why = "the engine includes a model or a tool"
            elif top == "models" and inc.startswith("tools/"):
                why = "a model includes a tool"
            elif part == "seams" and not (inc.startswith("sim/") or inc.startswith("models/seams/") or inc in VALUE_HEADERS):
                why = "a seam includes more than sim/, seams and value headers"
            elif part not in (None, "datacenter", "seams") and inc.startswith("models/"):
                other = inc.split("/")[1]
                if inc == "models/model_registries.hpp":
                    why = "a part includes the registry hub (take the registries it uses)"
                elif other == "datacenter":
                    why = "a part includes the assembly"
                elif other != part and re.search(r"_simulation\.hpp$", inc):
                    why = "a part includes another part's simulation class"
            if why:
                found.add((src, inc, why))
    return found


def main():
    root = pathlib.Path(sys.argv[1])
    found = violations(root)
    new = sorted(v for v in found if (v[0], v[1]) not in KNOWN)
    gone = sorted(KNOWN - {(v[0], v[1]) for v in found})
    for src, inc, why in new:
        print(f"{src}: includes {inc}: {why}")
    for src, inc in gone:
        print(f"{src} no longer includes {inc}: take it off KNOWN in {pathlib.Path(__file__).name}")
    if new or gone:
        return 1
    print(f"include rules hold ({len(KNOWN)} known violations left)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
