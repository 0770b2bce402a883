#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the comments of the public headers into Doxygen comments, without
changing a word of them (docs/api/README.md).

    python3 scripts/doc_comments.py [--check] [FILE...]

With no FILE: the headers the API reference is built from (docs/api/
Doxyfile.in's INPUT).  The rules, applied to comments outside function
bodies only (class, struct, enum, namespace and extern "C" bodies are
looked into; a function's body is not):

* the file's first comment (after the SPDX line) becomes the file's
  description: ``/* text`` -> ``/** @file`` + `` * text`` (``//`` comments:
  ``/// @file`` + ``/// text``);
* a comment directly above a line of code (no blank line between)
  documents it: ``/*`` -> ``/**``, ``//`` -> ``///``;
* a comment after code on the same line documents that code:
  ``/*`` -> ``/**<``, ``//`` -> ``///<``.

Section rules (``/* ----``, ``// ----``) and comments followed by a blank
line stay as they are.  Running it again changes nothing.  --check changes
nothing and exits 1, listing the files, if it would change any.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = [
    "include/weft/weft.h", "include/weft/pool.h", "include/weft/dist.h",
    "include/weft/profile.h", "include/weft/trace.h", "include/weft/short.h",
    "include/weft/version.h", "include/weft/config.h.in", "include/weft/weft.hpp",
    "include/weft/bits/cpp_core.hpp", "include/weft/bits/cpp_parallel.hpp",
    "include/weft/bits/cpp_sort.hpp", "include/weft/bits/cpp_task_group.hpp",
]

SCOPE = re.compile(r'\b(struct|class|union|enum|namespace)\b|extern\s+"C?"')
RULE = re.compile(r'^\s*(/\*|//)\s*[-=]{3,}')


def code_part(line):
    """The line without strings, character literals and comments (rough:
    enough to count braces and to see whether code precedes a comment)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split('//')[0].split('/*')[0]


def convert(text):
    lines = text.split('\n')
    out = list(lines)
    stack = []          # 'scope' or 'func' per open brace
    prev_code = ''      # the last line of code seen (for a brace on its own line)
    in_block = False    # inside a /* */ comment that started on an earlier line
    first_seen = False  # the file's description comment has been handled
    i = 0
    n = len(lines)

    def in_function():
        return 'func' in stack

    def next_is_code(j):
        """Line j (after a comment) is code: not blank, not a comment."""
        if j >= n:
            return False
        s = lines[j].strip()
        return s != '' and not s.startswith('/*') and not s.startswith('//')

    while i < n:
        line = lines[i]
        s = line.strip()
        if in_block:
            if '*/' in line:
                in_block = False
            i += 1
            continue
        if 'SPDX-License-Identifier' in line or s.startswith('#!'):
            i += 1
            continue
        # A comment that starts the line.
        if s.startswith('/*') or s.startswith('//'):
            block = s.startswith('/*')
            # its extent: [i, end]
            if block:
                end = i
                while '*/' not in lines[end][lines[end].find('/*') + 2 if end == i else 0:]:
                    end += 1
                    if end >= n:
                        end = n - 1
                        break
            else:
                end = i
                while end + 1 < n and lines[end + 1].strip().startswith('//') \
                        and not RULE.match(lines[end + 1]):
                    end += 1
            documented = s.startswith('/**') or s.startswith('/*!') or s.startswith('///') \
                or s.startswith('//!')
            if not first_seen and not in_function():
                first_seen = True
                if not documented and not RULE.match(line):
                    indent = line[:len(line) - len(line.lstrip())]
                    if block:
                        rest = line.lstrip()[2:].lstrip()
                        out[i] = indent + '/** @file\n' + indent + ' * ' + rest if rest \
                            else indent + '/** @file'
                    else:
                        for k in range(i, end + 1):
                            out[k] = lines[k].replace('//', '///', 1)
                        out[i] = indent + '/// @file\n' + out[i]
                i = end + 1
                continue
            if not documented and not RULE.match(line) and not in_function() \
                    and next_is_code(end + 1):
                if block:
                    out[i] = line.replace('/*', '/**', 1)
                else:
                    for k in range(i, end + 1):
                        out[k] = lines[k].replace('//', '///', 1)
            i = end + 1
            continue
        code = code_part(line)
        # A comment after code on the same line.
        if not in_function() and code.strip() and not s.startswith('#if') \
                and not s.startswith('#include'):
            m = re.search(r'(/\*\*?<?|//[/!]?<?)', line[len(code):]) if len(code) < len(line) \
                else None
            if m and not line[len(code):].lstrip().startswith('"'):
                tok = m.group(1)
                pos = len(code) + m.start(1)
                if tok == '/*':
                    out[i] = line[:pos] + '/**<' + line[pos + 2:]
                elif tok == '//':
                    out[i] = line[:pos] + '///<' + line[pos + 2:]
        # A block comment opened here and not closed here.
        rest = line[len(code):]
        if '/*' in rest and '*/' not in rest[rest.find('/*'):]:
            in_block = True
        # Braces.
        for ch in code:
            if ch == '{':
                before = code[:code.find('{')] if code.find('{') >= 0 else ''
                ctx = before if before.strip() else prev_code
                stack.append('scope' if SCOPE.search(ctx) else 'func')
            elif ch == '}':
                if stack:
                    stack.pop()
        if code.strip():
            prev_code = code
        i += 1
    return '\n'.join(out)


def main(argv):
    check = '--check' in argv
    files = [a for a in argv if a != '--check'] or [os.path.join(ROOT, f) for f in DEFAULT]
    changed = []
    for f in files:
        if not os.path.exists(f):
            continue
        with open(f) as fh:
            text = fh.read()
        new = convert(text)
        if new != text:
            changed.append(f)
            if not check:
                with open(f, 'w') as fh:
                    fh.write(new)
    for f in changed:
        print(('would change ' if check else 'converted ') + os.path.relpath(f, ROOT))
    return 1 if check and changed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
