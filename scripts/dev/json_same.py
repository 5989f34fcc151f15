#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""json_same.py BEFORE.json AFTER.json: are two results documents of the same
suite the same apart from what timing and the commit decide? For a change
that must not change behaviour (a refactor): every key at every path is in
both, and every value that is not timing-derived is equal.

Timing-derived (compared by kind only: number, null, string, list):
  the timings (cases[].cold, cases[].batch, their samples and figures),
  gbps, gflops, pct_peak, speedup, roofline, energy, compile_ns, dates,
  the git commit, the chosen CPU, the clock read at the start and the
  comparison with a baseline (its figures come from the timings). Exit 0 when the same, 1 with the
  differences listed."""
import json
import sys

VOLATILE = {"date", "compile_ns", "commit", "gbps", "gflops", "pct_peak", "speedup",
            "roofline", "energy", "cold", "batch", "git", "cpu", "hostname", "wall",
            "comparison", "sm_clock_now_mhz"}


def kind(v):
    return "null" if v is None else type(v).__name__.replace("int", "number").replace("float", "number")


def walk(a, b, path, volatile, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'after' if k not in a else 'before'}")
                continue
            walk(a[k], b[k], f"{path}.{k}", volatile or k in VOLATILE, out)
    elif isinstance(a, list) and isinstance(b, list):
        if volatile:
            return  # samples: their number is timing-derived
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items before, {len(b)} after")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]", volatile, out)
    elif volatile:
        if kind(a) != kind(b) and not (path.endswith("stop_reason") or "null" in (kind(a), kind(b))):
            out.append(f"{path}: {kind(a)} before, {kind(b)} after")
    elif a != b:
        out.append(f"{path}: {a!r} before, {b!r} after")


def main():
    before, after = (json.load(open(p)) for p in sys.argv[1:3])
    out = []
    walk(before, after, "", False, out)
    for line in out:
        print(line)
    n = sum(len(r.get("cases", [])) for r in after.get("runs", []))
    print(f"json_same: {len(out)} difference(s) over {n} case(s) apart from timing-derived fields")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
