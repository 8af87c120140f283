#!/usr/bin/env python3
"""The folder-level include graph of sim/, models/ and tools/, as a Mermaid diagram.

A node is a folder: sim/, models/<part>/, tools/<part>/ (files directly in models/ or tools/ are
the node models/ or tools/). An edge A -> B, labelled n, says that files in A include files in B
n times (#include "..." lines, counted once per including file and included header). Writes the
diagram into docs/architecture.md between its "include graph" markers; GitHub and GitLab draw
Mermaid blocks as pictures.

Usage: include_graph.py [--check] SOURCE_DIR
  (no flag)  rewrite the diagram in SOURCE_DIR/docs/architecture.md
  --check    exit 1 when the committed diagram differs from the include graph now; with
             DCSIM_UPDATE_GOLDEN=1 it rewrites it instead, as the C++ golden tests do
Debian's python3 only; nothing to install.
"""
import collections
import os
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LAYERS = ("tools", "models", "sim")  # top to bottom: arrows point down
BEGIN = "<!-- BEGIN GENERATED: include graph (tools/include_graph.py) -->\n"
END = "<!-- END GENERATED: include graph -->"
PAGE = "docs/architecture.md"
REGENERATE = "python3 tools/include_graph.py ."


def folder(path):
    """The node of a source path such as models/network/fabric.hpp: models/network."""
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def edges(root):
    """{(from folder, to folder): include count}, and every folder with a source file."""
    counts = collections.Counter()
    nodes = set()
    for layer in LAYERS:
        for path in sorted((root / layer).glob("**/*.[ch]pp")):
            src = path.relative_to(root).as_posix()
            nodes.add(folder(src))
            for inc in sorted(set(INCLUDE.findall(path.read_text()))):
                if inc.split("/")[0] in LAYERS and (root / inc).exists():
                    a, b = folder(src), folder(inc)
                    if a != b:
                        counts[(a, b)] += 1
    return counts, nodes


def node_id(name):
    return name.replace("/", "_").replace("*", "all")


def block(nodes, counts):
    """One Mermaid flowchart: a subgraph per layer, edges by source, the heaviest first."""
    out = ["```mermaid", "flowchart TD"]
    for layer in LAYERS:
        members = sorted(n for n in nodes if n.split("/")[0] == layer)
        if not members:
            continue
        out.append(f"  subgraph {layer}_layer[\"{layer}/\"]")
        for n in members:
            label = n if n.endswith("*") else f"{n}/" if n != layer else f"{n}/ (top level)"
            out.append(f"    {node_id(n)}[\"{label}\"]")
        out.append("  end")
    order = lambda e: (LAYERS.index(e[0][0].split("/")[0]), e[0][0], -e[1], e[0][1])
    for (a, b), n in sorted(counts.items(), key=order):
        out.append(f"  {node_id(a)} -->|{n}| {node_id(b)}")
    out.append("```")
    return out


def mermaid(root):
    """Two pictures, so that each stays legible: models/ and sim/ in full; tools/ with models/
    drawn as one node, models/* (the sum of its folders' edges)."""
    counts, nodes = edges(root)
    lower = {n for n in nodes if not n.startswith("tools")}
    inner = {e: n for e, n in counts.items() if e[0] in lower}
    upper = collections.Counter()
    for (a, b), n in counts.items():
        if a.startswith("tools"):
            upper[(a, "models/*" if b.startswith("models") else b)] += n
    out = ["models/ and sim/ (an edge A -->|n| B: files in A include files in B n times):", ""]
    out += block(lower, inner)
    out += ["", "tools/, with every folder of models/ drawn as one node, `models/*`:", ""]
    out += block({n for n in nodes if n.startswith("tools")} | {"models/*", "sim"}, upper)
    out += ["", f"{len(nodes)} folders, {len(counts)} folder-to-folder edges, "
            f"{sum(counts.values())} includes across folders."]
    return "\n".join(out) + "\n"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 1:
        print(__doc__)
        return 2
    root = pathlib.Path(args[0])
    page = root / PAGE
    text = page.read_text()
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < b:
        print(f"{PAGE}: the include graph markers are missing ({BEGIN.strip()} ... {END})")
        return 1
    body = b + len(BEGIN)
    generated = mermaid(root)
    if check and os.environ.get("DCSIM_UPDATE_GOLDEN") != "1":
        if text[body:e] != generated:
            print(f"{PAGE}: the include graph is not what the includes give now; regenerate it"
                  f" with\n  {REGENERATE}\n(or DCSIM_UPDATE_GOLDEN=1 ctest --test-dir build"
                  " -R include_graph) and commit the diff")
            return 1
        print(f"{PAGE}: the include graph is current")
        return 0
    if text[body:e] != generated:
        page.write_text(text[:body] + generated + text[e:])
        print(f"{PAGE}: include graph rewritten")
    else:
        print(f"{PAGE}: include graph unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
