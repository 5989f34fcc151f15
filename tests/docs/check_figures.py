#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check figures of README.md and docs/*.md that the suites decide, against
the plan this build makes of them (`benchrun --list`):

- "SUITE's N host cases" (SUITE a path such as suites/reduction.yaml): N is
  the number of SUITE's planned cases whose kernel is a host kernel (named
  in one of its C or C++ sources; the others are in .cu sources);
- a fenced block right after `<!-- docs-test: cases of: SUITE -->`: every
  table row in it (cells split by │, ║ or |) whose first cell is one of SUITE's
  kernels names a case of SUITE's plan (its second cell, "n=2^12 ...", is
  that case's parameters as --list prints them).

    check_figures.py SOURCE_DIR BUILD_DIR

Prints one line per problem and a summary; exits 0 when there is none, else 1.
"""
import os
import re
import subprocess
import sys

import yaml

HOST_SUFFIXES = (".c", ".cc", ".cpp", ".cxx")
CASES_MARK = re.compile(r"^<!-- docs-test: cases of: (\S+) -->$")
HOST_FIGURE = re.compile(r"(\S+\.ya?ml)'s (\d+) host cases")


def pages(root):
    docs = os.path.join(root, "docs")
    return [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def plan(root, build, suite):
    """[(kernel, params text)] of the suite's planned cases."""
    p = subprocess.run([os.path.join(build, "benchrun"), "--list", suite], cwd=root,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        raise RuntimeError(f"benchrun --list {suite} exited {p.returncode}: {out}")
    cases = []
    for line in out.splitlines()[1:]:
        words = line.split(None, 1)
        if words:
            cases.append((words[0], " ".join(words[1].split()) if len(words) > 1 else ""))
    return cases


def host_kernels(root, suite):
    """Names of the suite's kernels that a C or C++ source of it defines."""
    with open(os.path.join(root, suite), encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    sources = doc.get("source", [])
    sources = [sources] if isinstance(sources, str) else sources
    text = ""
    for s in sources:
        if s.endswith(HOST_SUFFIXES):
            with open(os.path.join(root, os.path.dirname(suite), s), encoding="utf-8") as f:
                text += f.read()
    return {k for k in doc.get("kernels", []) if f'"{k}"' in text}


def check_host_figures(root, build, rel, text):
    problems = []
    for n, line in enumerate(text.split("\n"), 1):
        for suite, figure in HOST_FIGURE.findall(line):
            hosts = host_kernels(root, suite)
            count = sum(1 for k, _ in plan(root, build, suite) if k in hosts)
            if count != int(figure):
                problems.append(f"{rel}:{n}: says {suite}'s {figure} host cases; its plan has "
                                f"{count}")
    return problems


def check_case_rows(root, build, rel, text):
    problems = []
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        m = CASES_MARK.match(line.strip())
        if not m:
            continue
        suite = m.group(1)
        cases = plan(root, build, suite)
        kernels = {k for k, _ in cases}
        j = n  # the line after the marker (0-based n) is the fence
        if j >= len(lines) or not lines[j].startswith("```"):
            problems.append(f"{rel}:{n}: 'cases of' is not right before a fenced block")
            continue
        rows = 0
        for k in range(j + 1, len(lines)):
            if lines[k].startswith("```"):
                break
            cells = [c.strip() for c in re.split(r"[│║|]", lines[k])[1:]]
            if len(cells) < 2 or cells[0] not in kernels:
                continue
            rows += 1
            if (cells[0], " ".join(cells[1].split())) not in cases:
                problems.append(f"{rel}:{k + 1}: {cells[0]} {cells[1]} is not a case of {suite} "
                                f"(its cases: {', '.join(p for q, p in cases if q == cells[0])})")
        if rows == 0:
            problems.append(f"{rel}:{n}: the block after 'cases of: {suite}' shows none of its "
                            "kernels")
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip())
        return 2
    root, build = argv[1], argv[2]
    problems = []
    for page in pages(root):
        rel = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        problems += check_host_figures(root, build, rel, text)
        problems += check_case_rows(root, build, rel, text)
    for p in problems:
        print(p)
    print(f"{len(pages(root))} page(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
