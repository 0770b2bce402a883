#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the links between the repository's Markdown files.

    python3 scripts/check_links.py [--root DIR] [FILE.md ...]

Every relative link of every Markdown file outside build trees ([text](path),
[text](path#anchor), [text](#anchor)) must name a file or folder that
exists, and an anchor must be one that the target's headings give, as
GitHub makes them: the heading's text in lower case, inline code and
emphasis marks dropped, punctuation other than hyphens and underscores
removed, spaces made hyphens; a repeated heading gets -1, -2, ...
Links to other sites (http:, https:, mailto:) are not followed.  A broken
link is printed as "FILE:LINE: LINK: REASON", and the exit status is 1.
"""
import argparse
import os
import re
import sys

LINK_RE = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE_RE = re.compile(r"^\s*(```|~~~)")
SKIP_DIRS = {".git", "node_modules"}


def slug(text):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"<[^>]+>", "", text)                  # inline HTML
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = text.replace("`", "")
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)                  # punctuation, not - or _
    return text.replace(" ", "-")


def lines_outside_fences(path):
    """(line number, line) of a Markdown file, fenced code blocks left out."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE_RE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield n, line


def anchors_of(path, cache):
    if path not in cache:
        seen = {}
        found = set()
        for _, line in lines_outside_fences(path):
            m = HEADING_RE.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            k = seen.get(base, 0)
            seen[base] = k + 1
            found.add(base if k == 0 else f"{base}-{k}")
        for_html = re.compile(r'<a\s+(?:name|id)="([^"]+)"')
        with open(path, encoding="utf-8") as f:
            found |= set(for_html.findall(f.read()))
        cache[path] = found
    return cache[path]


def markdown_files(root):
    for d, dirs, names in os.walk(root):
        # results/ at the top is the harness's output (git ignores it);
        # docs/results/ is documentation and is checked.
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")
                         and not (d == root and x == "results"))
        for n in sorted(names):
            if n.endswith(".md"):
                yield os.path.join(d, n)


def check_file(root, path, cache):
    bad = []
    for n, line in lines_outside_fences(path):
        # Inline code is not a link.
        for m in LINK_RE.finditer(re.sub(r"`[^`]*`", "", line)):
            link = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", link, re.I):
                continue
            target, _, anchor = link.partition("#")
            if target:
                full = os.path.normpath(os.path.join(os.path.dirname(path), target))
                if not os.path.exists(full):
                    bad.append((n, link, "no such file"))
                    continue
            else:
                full = path
            if anchor and full.endswith(".md") and anchor not in anchors_of(full, cache):
                bad.append((n, link, f"no heading gives #{anchor} in "
                                     f"{os.path.relpath(full, root)}"))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    files = [os.path.abspath(f) for f in args.files] or list(markdown_files(root))
    cache = {}
    broken = 0
    for path in files:
        for n, link, why in check_file(root, path, cache):
            print(f"{os.path.relpath(path, root)}:{n}: {link}: {why}")
            broken += 1
    if broken:
        print(f"check_links: {broken} broken link(s)", file=sys.stderr)
        return 1
    print(f"check_links: the links of {len(files)} Markdown files resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
