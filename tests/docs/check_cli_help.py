#!/usr/bin/env python3
"""docs/cli.md's command reference is what `dcsim COMMAND --help` prints now.

Runs `dcsim --help`, `dcsim COMMAND --help` for every subcommand it lists and `dcsim bench
CASE --help` for every bench case (as `dcsim`, whatever the binary's path, so the usage lines do
not name the build folder), and compares the text with docs/cli.md between its "command
reference" markers. DCSIM_UPDATE_GOLDEN=1 writes it there instead, as the C++ golden tests do:
  DCSIM_UPDATE_GOLDEN=1 ctest --test-dir build -R check_cli_help
Usage: check_cli_help.py DCSIM SOURCE_DIR
"""
import os
import pathlib
import re
import subprocess
import sys

BEGIN = "<!-- BEGIN GENERATED: command reference (dcsim COMMAND --help) -->\n"
END = "<!-- END GENERATED: command reference -->"
PAGE = "docs/cli.md"


def help_text(dcsim, args):
    done = subprocess.run(["dcsim", *args, "--help"], executable=dcsim, capture_output=True,
                          text=True, check=True)
    # CLI11 pads some option groups' descriptions with a trailing space; Markdown keeps none.
    return "\n".join(line.rstrip() for line in done.stdout.strip("\n").split("\n"))


def subcommands(text):
    """The names listed under "Subcommands:" in a help text."""
    names, inside = [], False
    for line in text.split("\n"):
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and re.match(r"^  \S", line):
            names.append(line.split()[0])
        elif inside and line and not line.startswith(" "):
            inside = False
    return names


def reference(dcsim):
    top = help_text(dcsim, [])
    parts = [("dcsim", top)]
    for cmd in subcommands(top):
        text = help_text(dcsim, [cmd])
        parts.append((f"dcsim {cmd}", text))
        for sub in subcommands(text):
            parts.append((f"dcsim {cmd} {sub}", help_text(dcsim, [cmd, sub])))
    out = []
    for title, text in parts:
        out += [f"### `{title}`", "", "```text", text, "```", ""]
    return "\n".join(out)


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    dcsim, root = argv[0], pathlib.Path(argv[1])
    page = root / PAGE
    text = page.read_text()
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < b:
        print(f"{PAGE}: the command reference markers are missing")
        return 1
    body = b + len(BEGIN)
    generated = reference(dcsim)
    if os.environ.get("DCSIM_UPDATE_GOLDEN") == "1":
        page.write_text(text[:body] + generated + text[e:])
        print(f"{PAGE}: command reference rewritten")
        return 0
    if text[body:e] != generated:
        old, new = text[body:e].split("\n"), generated.split("\n")
        first = next((i for i, (x, y) in enumerate(zip(old, new)) if x != y),
                     min(len(old), len(new)))
        line = lambda lines: lines[first] if first < len(lines) else "(end)"
        print(f"{PAGE}: the command reference is not what `dcsim --help` prints now; first "
              f"difference in its line {first + 1}:\n  committed: {line(old)}\n"
              f"  dcsim:     {line(new)}\nRegenerate it with\n"
              f"  DCSIM_UPDATE_GOLDEN=1 ctest --test-dir build -R check_cli_help\n"
              f"and commit the diff.")
        return 1
    print(f"{PAGE}: the command reference is current")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
