#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check README.md and docs/*.md: every relative link points at an existing
file (and, with #anchor, at a heading of a Markdown file), every fenced
block announced by <!-- file: PATH --> is PATH's text, byte for byte, and
README.md and docs/install.md name every Debian package scripts/setup.sh
installs.

    check_docs.py [SOURCE_DIR]

Prints one line per problem; exits 0 when there is none, else 1.
"""
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FILE_MARK = re.compile(r"^<!-- file: (\S+) -->$")


def pages(root):
    docs = os.path.join(root, "docs")
    return [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def blocks(text):
    """(fence line index, info string, body) of each fenced block; and the
    text with code (blocks and `spans`) blanked out, line for line."""
    lines, out, found = text.split("\n"), [], []
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(```+)(.*)$", lines[i])
        if not m:
            out.append(re.sub(r"`[^`]*`", "", lines[i]))
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(m.group(2)):
            j += 1
        found.append((i, m.group(3).strip(), "\n".join(lines[i + 1:j]) + "\n"))
        out.extend([""] * (j + 1 - i))
        i = j + 1
    return found, "\n".join(out)


def slugs(path):
    """GitHub's anchors for the headings of a Markdown file."""
    _, prose = blocks(open(path, encoding="utf-8").read())
    seen, out = {}, set()
    for line in prose.split("\n"):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        s = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def check(root):
    problems = []
    for page in pages(root):
        text = open(page, encoding="utf-8").read()
        rel = os.path.relpath(page, root)
        found, prose = blocks(text)
        for n, line in enumerate(prose.split("\n"), 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue  # http:, https:, mailto:
                path, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                if not os.path.exists(dest):
                    problems.append(f"{rel}:{n}: link to {target}: {path} does not exist")
                elif anchor and dest.endswith(".md") and anchor not in slugs(dest):
                    problems.append(f"{rel}:{n}: link to {target}: no heading #{anchor} there")
        lines = text.split("\n")
        for start, _, body in found:
            mark = next((lines[k] for k in range(start - 1, -1, -1) if lines[k].strip()), "")
            m = FILE_MARK.match(mark.strip())
            if not m:
                continue
            path = os.path.join(root, m.group(1))
            if not os.path.isfile(path):
                problems.append(f"{rel}:{start + 1}: the block shows {m.group(1)}, which does not exist")
            elif open(path, encoding="utf-8").read() != body:
                problems.append(f"{rel}:{start + 1}: the block is not the text of {m.group(1)} "
                                "(copy the file into it again)")
    n_readme = open(os.path.join(root, "README.md"), encoding="utf-8").read().count("\n")
    if n_readme > 250:
        problems.append(f"README.md: {n_readme} lines; the front page stays under 250 (move "
                        "details to docs/)")
    return problems


def setup_packages(root):
    """The Debian packages scripts/setup.sh installs when missing."""
    text = open(os.path.join(root, "scripts", "setup.sh"), encoding="utf-8").read()
    found = []
    for group in re.findall(r"missing\+=\(([^)]*)\)", text):
        found += [w for w in group.split() if w not in found]
    return found


def check_packages(root):
    """README.md and docs/install.md name each package setup.sh installs."""
    problems, pkgs = [], setup_packages(root)
    if len(pkgs) < 5:
        problems.append(f"scripts/setup.sh: only {pkgs} found as packages it installs")
    for page in ("README.md", os.path.join("docs", "install.md")):
        text = open(os.path.join(root, page), encoding="utf-8").read()
        for pkg in pkgs:
            if not re.search(r"(?<![\w-])" + re.escape(pkg) + r"(?![\w-])", text):
                problems.append(f"{page}: does not name {pkg}, which scripts/setup.sh installs")
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.getcwd()
    problems = check(root) + check_packages(root)
    for p in problems:
        print(p)
    print(f"{len(pages(root))} page(s), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
