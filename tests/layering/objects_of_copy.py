#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The objects of a copy of the tree that differs from the source tree in
one file, for scripts/check_layers.py --objects (tests/layering/planted.sh):
the file is compiled with the build's own command for it (from
compile_commands.json, the source tree's paths turned into the copy's),
and the build's object list is written with that object in place of the
file's own.

    objects_of_copy.py SOURCE COPY OBJECTS COMPILE_COMMANDS FILE OUT

SOURCE, COPY: the source tree and the copy; OBJECTS: the build's object
list; FILE: the changed file (a path under src/); OUT: a fresh folder for
the object and the list.  Prints the new list's path.
"""
import json
import os
import re
import shlex
import subprocess
import sys


def main():
    given, copy, objects, commands, rel, out = sys.argv[1:7]
    source, copy = os.path.realpath(given), os.path.realpath(copy)
    with open(commands, encoding="utf-8") as f:
        entries = json.load(f)
    want = os.path.join(source, rel)
    entry = next((e for e in entries
                  if os.path.realpath(os.path.join(e["directory"], e["file"])) == want), None)
    if entry is None:
        sys.exit(f"objects_of_copy: {commands} has no command for {rel}")
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    # The copy's sources and headers for the tree's (not the build tree's:
    # weft/config.h and the scheduler's forwarding headers stay the build's).
    roots = "|".join(re.escape(r) for r in {source, os.path.abspath(given)})
    tree = re.compile(r"(?:" + roots + r")/(src|include)(?=/|$)")
    obj = os.path.join(out, "copy.dir", rel + ".o")
    cmd, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-MD", "-MMD") or a.startswith(("-MF", "-MT", "-MQ")):
            continue
        cmd.append(tree.sub(lambda m: os.path.join(copy, m.group(1)), a))
    if os.path.join(copy, rel) not in cmd:
        sys.exit(f"objects_of_copy: the command for {rel} does not name it: {shlex.join(args)}")
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    run = subprocess.run(cmd + ["-o", obj], cwd=entry["directory"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"objects_of_copy: {rel} of the copy does not compile:\n{shlex.join(cmd)}\n"
                 f"{run.stderr}")
    suffix = "/" + rel + ".o"
    lines, replaced = [], 0
    with open(objects, encoding="utf-8") as f:
        for line in f:
            if line.strip().replace(os.sep, "/").endswith(suffix) and ".dir/" in line:
                # The copy's object in each library built from the file.
                lines.append(obj + "\n")
                replaced += 1
            else:
                lines.append(line)
    if not replaced:
        sys.exit(f"objects_of_copy: {objects} lists no object of {rel}")
    listed = os.path.join(out, "objects.txt")
    with open(listed, "w", encoding="utf-8") as f:
        f.writelines(lines)
    print(listed)


if __name__ == "__main__":
    main()
