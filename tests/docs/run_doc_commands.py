#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run the shell commands of README.md and docs/*.md, so the docs cannot rot.

    run_doc_commands.py SOURCE_DIR BUILD_DIR

Every fenced ```sh block is run, page by page in order, as one bash script
(set -e) in a scratch copy of SOURCE_DIR whose build/ is BUILD_DIR, with a
scratch compile cache; scripts/setup.sh there only says it uses BUILD_DIR.
Not run: a line ending in '# needs a GPU', a line that runs ctest (this
runs inside ctest), a block right after '<!-- docs-test: skip (WHY) -->';
the files such commands name (words with a '/') must exist all the same.
A fenced block right after '<!-- docs-test: output of: COMMAND -->' is
COMMAND's output: COMMAND is run (bash, in the same scratch copy, its exit
status not looked at) and what it writes to standard output and error must
be the block's text, line for line (trailing blanks aside).
Exits 0 when every block exited 0 within its time and every output is as
shown, else 1.
"""
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

BLOCK_SECONDS = 240
COPY = ["README.md", "docs", "schema", "suites", "kernels", "baselines", "scripts",
        os.path.join("tests", "docs"), os.path.join("tests", "fixtures")]
SETUP_STUB = """#!/bin/sh
echo "setup.sh: using the tested build tree (docs test)" >&2
"""


def sh_blocks(page):
    """(line number, commands run, commands not run) of each ```sh block."""
    lines = open(page, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() != "```sh":
            i += 1
            continue
        before = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        body = "\n".join(lines[i + 1:j]).replace("\\\n", " ")
        cmds = [c for c in body.split("\n") if c.strip() and not c.strip().startswith("#")]
        if before.startswith("<!-- docs-test: skip"):
            run, held = [], cmds
        else:
            held = [c for c in cmds if re.search(r"#\s*needs a GPU\s*$", c)
                    or re.search(r"(^|&&|\|\||;)\s*ctest\b", c)]
            run = [c for c in cmds if c not in held]
        out.append((i + 1, run, held))
        i = j + 1
    return out


OUTPUT_MARK = re.compile(r"^<!-- docs-test: output of: (.+) -->$")


def output_blocks(page):
    """(line number, command, shown text) of each block after an output mark."""
    lines = open(page, encoding="utf-8").read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = OUTPUT_MARK.match(line.strip())
        if not m or i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            continue
        j = i + 2
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        out.append((i + 2, m.group(1), "\n".join(lines[i + 2:j])))
    return out


def trimmed(text):
    return [l.rstrip() for l in text.rstrip("\n").split("\n")]


def check_output(rel, line, cmd, shown, tmp, env):
    """Run cmd; 0 when its output is the shown text, else 1 (said)."""
    print(f"{rel}:{line}: output of $ {cmd}", flush=True)
    try:
        p = subprocess.run(["bash", "-c", cmd], cwd=tmp, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=BLOCK_SECONDS)
        got = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        print(f"{rel}:{line}: FAILED: timed out")
        return 1
    if trimmed(got) == trimmed(shown):
        return 0
    print(f"{rel}:{line}: FAILED: the block is not what the command writes (copy it again):")
    for d in difflib.unified_diff(trimmed(shown), trimmed(got), "shown", "written", lineterm=""):
        print("    " + d)
    return 1


def workspace(src, build):
    tmp = tempfile.mkdtemp(prefix="br-docs-")
    for p in COPY:
        s, d = os.path.join(src, p), os.path.join(tmp, p)
        if os.path.isdir(s):
            shutil.copytree(s, d, symlinks=True)
        elif os.path.exists(s):
            shutil.copy2(s, d)
    os.symlink(os.path.abspath(build), os.path.join(tmp, "build"))
    stub = os.path.join(tmp, "scripts", "setup.sh")
    with open(stub, "w") as f:
        f.write(SETUP_STUB)
    os.chmod(stub, 0o755)
    return tmp


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip())
        return 2
    src, build = argv[1], argv[2]
    pages = [os.path.join(src, "README.md")] + sorted(
        os.path.join(src, "docs", f) for f in os.listdir(os.path.join(src, "docs"))
        if f.endswith(".md"))
    tmp = workspace(src, build)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, ".cache"), LC_ALL="C.UTF-8")
    failed = ran = 0
    try:
        for page in pages:
            rel = os.path.relpath(page, src)
            for line, cmds, held in sh_blocks(page):
                for c in held:  # not run, but the files they name must exist
                    for word in re.sub(r"#.*", "", c).split():
                        if "/" in word and not word.startswith("-") and not glob.glob(
                                os.path.join(tmp, word)):
                            failed += 1
                            print(f"{rel}:{line}: {word} (in a command not run) does not exist")
                if not cmds:
                    continue
                ran += 1
                script = "set -e\n" + "\n".join(cmds) + "\n"
                print(f"{rel}:{line}: $ " + "\n    $ ".join(cmds), flush=True)
                try:
                    p = subprocess.run(["bash", "-c", script], cwd=tmp, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       timeout=BLOCK_SECONDS)
                    rc, out = p.returncode, p.stdout.decode("utf-8", "replace")
                except subprocess.TimeoutExpired as e:
                    rc, out = "timeout", (e.stdout or b"").decode("utf-8", "replace")
                if rc != 0:
                    failed += 1
                    print(f"{rel}:{line}: FAILED (exit {rc}); the last of its output:")
                    print("\n".join("    " + l for l in out.splitlines()[-40:]))
            for line, cmd, shown in output_blocks(page):
                ran += 1
                failed += check_output(rel, line, cmd, shown, tmp, env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{ran} block(s) run, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
