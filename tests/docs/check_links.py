#!/usr/bin/env python3
"""Every relative link in the documentation leads somewhere.

Checks each Markdown link and image in README.md, docs/**/*.md, scenarios/README.md,
scenarios/data/README.md, notebooks/README.md and tools/output/LAYOUT.md, outside code blocks and
code spans: a relative target must be a file or folder of the checkout, and a `#fragment` (on a
.md target or on the page itself) must be one of that page's headings as GitHub and GitLab name
them (lower case, punctuation dropped, spaces to hyphens, -1, -2, ... for repeats). Web links are
not fetched.
Usage: check_links.py SOURCE_DIR
"""
import pathlib
import re
import sys

PAGES = ["README.md", "docs/**/*.md", "scenarios/README.md", "scenarios/data/README.md",
         "notebooks/README.md", "tools/output/LAYOUT.md"]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for _, line in prose_lines(path.read_text()):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            for a in re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", line):
                found.add(a)
        cache[path] = found
    return cache[path]


def problems(root):
    pages = sorted({p for pattern in PAGES for p in root.glob(pattern)})
    for page in pages:
        for number, line in prose_lines(page.read_text()):
            for target in LINK.findall(CODE_SPAN.sub("", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                    continue  # https:, mailto:
                path, _, fragment = target.partition("#")
                dest = (page.parent / path).resolve() if path else page.resolve()
                where = f"{page.relative_to(root)}:{number}: {target}"
                if not dest.exists():
                    yield f"{where}: no such file"
                elif root.resolve() not in [dest, *dest.parents]:
                    yield f"{where}: outside the checkout"
                elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                    yield f"{where}: {dest.name} has no heading #{fragment}"
    if not pages:
        yield "no pages found: wrong SOURCE_DIR?"


def main():
    root = pathlib.Path(sys.argv[1])
    found = list(problems(root))
    for p in found:
        print(p)
    if found:
        print(f"{len(found)} broken links")
        return 1
    print("every relative link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
