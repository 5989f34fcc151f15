#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check docs/kernel-api.md against kernels/benchrun_kernel.h: every struct
and enum of the header has a section (a '## ' heading naming it in
backquotes) whose table lists each of its members or values in the first
column, in backquotes, and nothing else; a 'declaration' cell, when the
table has one, is the member's declaration as the header writes it (white
space aside); the section of the other names (a heading without a type)
lists exactly the header's macros and inline functions.

    check_kernel_api.py [SOURCE_DIR]

Prints one line per problem and a summary; exits 0 when there is none, else 1.
"""
import os
import re
import sys

HEADER = os.path.join("kernels", "benchrun_kernel.h")
PAGE = os.path.join("docs", "kernel-api.md")
GUARD = "BENCHRUN_KERNEL_H"


def squash(text):
    return " ".join(text.split())


def header_api(text):
    """({type: [members]}, [macros and inline functions], code without comments)."""
    macros = [m for m in re.findall(r"^#define (\w+)", text, re.M) if m != GUARD]
    code = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    code = re.sub(r"//[^\n]*", " ", code)
    funcs = re.findall(r"^static inline [\w ]+?\**\s*(\w+)\(", code, re.M)
    nopp = "\n".join(l for l in code.split("\n") if not l.lstrip().startswith("#"))
    types = {}
    for kind, name, body in re.findall(r"(?:typedef )?(struct|enum) (\w+) \{(.*?)\}", nopp, re.S):
        if kind == "enum":
            types[name] = [v.split("=")[0].strip() for v in body.split(",") if v.strip()]
            continue
        members = []
        for decl in body.split(";"):
            if not decl.strip():
                continue
            fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
            members.append(fp.group(1) if fp else re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*$",
                                                              decl.strip())[0])
        types[name] = members
    return types, macros + funcs, squash(code)


def page_api(text):
    """[(heading, line, [(first cell, declaration cell or None, line)])] of the page."""
    sections, cur, cols = [], None, None
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("## "):
            cur = (line[3:], n, [])
            sections.append(cur)
            cols = None
            continue
        if cur is None or not line.startswith("|"):
            cols = None if not line.startswith("|") else cols
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cols is None:
            cols = [c.lower() for c in cells]
            continue
        if set(line) <= set("|-: "):
            continue
        m = re.fullmatch(r"`(\w+)`", cells[0])
        if m:
            decl = cells[cols.index("declaration")] if "declaration" in cols else None
            cur[2].append((m.group(1), decl.strip("`") if decl else None, n))
    return sections


def check(root):
    with open(os.path.join(root, HEADER), encoding="utf-8") as f:
        types, others, code = header_api(f.read())
    with open(os.path.join(root, PAGE), encoding="utf-8") as f:
        sections = page_api(f.read())
    problems, seen = [], set()
    for heading, line, rows in sections:
        named = [t for t in re.findall(r"`(\w+)`", heading) if t in types]
        if not rows:
            continue
        want = types[named[0]] if named else others
        what = f"`{named[0]}`" if named else "the macros and inline functions"
        if named:
            seen.add(named[0])
        got = [r[0] for r in rows]
        for m in want:
            if m not in got:
                problems.append(f"{PAGE}:{line}: {what}: {m} is in {HEADER} but not here")
        for name, decl, n in rows:
            if name not in want:
                problems.append(f"{PAGE}:{n}: {what}: {name} is not in {HEADER}")
            elif decl is not None and squash(decl) not in code:
                problems.append(f"{PAGE}:{n}: the declaration '{decl}' is not {HEADER}'s")
    for t in types:
        if t not in seen:
            problems.append(f"{PAGE}: no section for `{t}` of {HEADER}")
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.getcwd()
    problems = check(root)
    for p in problems:
        print(p)
    print(f"{PAGE}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
