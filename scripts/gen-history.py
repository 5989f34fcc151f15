#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate a results directory of nightly runs, as `benchrun --results-dir`
writes them (results documents, schema 4), for timing `benchrun history` and
`benchrun publish` and for their tests. Deterministic: the same arguments give
the same files.

    scripts/gen-history.py OUT_DIR --runs 365 --cases 1000 [--samples 50] [--seed 1]

The suite "nightly" (GB/s) sweeps kernels k00, k01, ... over n = 2^10, 2^11, ...
(10 kernels, or fewer for fewer cases; cases / kernels sizes each), one run a
day at a new commit on an H100, with 1% noise from run to run. Planted steps,
written to OUT_DIR/STEPS.txt (not a .json file: history ignores it):
    k00 at the largest n: 5% slower (time x1.05) from run runs/2 + 1 on
    k01 at the largest n: 4% faster (time x0.96) from run runs/4 + 1 on
Every other case has no step.
"""
import argparse
import json
import math
import os
import random
import sys

T0 = 1767225600  # 2026-01-01T00:00:00Z


def iso(t):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def sha_of(seed, i):
    r = random.Random(seed * 1000003 + i)
    return "".join("%08x" % r.getrandbits(32) for _ in range(5))


def plan(cases):
    kernels = min(10, max(1, cases // 10)) if cases >= 10 else 1
    sizes = max(1, cases // kernels)
    return kernels, sizes


def steps_of(runs, kernels, sizes):
    s = {(0, sizes - 1): (runs // 2 + 1, 1.05)}
    if kernels > 1:
        s[(1, sizes - 1)] = (runs // 4 + 1, 0.96)
    return s


def timing(rng, median, samples):
    xs = [median * (1 + 0.002 * rng.gauss(0, 1)) for _ in range(samples)]
    xs.sort()
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))

    def q(p):
        h = (len(xs) - 1) * p
        lo = int(h)
        return xs[lo] + (h - lo) * ((xs[lo + 1] if lo + 1 < len(xs) else xs[lo]) - xs[lo])

    med = q(0.5)
    return {
        "clock": "events", "n": len(xs), "min": xs[0], "max": xs[-1], "mean": mean,
        "median": med, "stddev": sd, "noise": sd / mean, "q1": q(0.25), "q3": q(0.75),
        "iqr": q(0.75) - q(0.25), "ci_low": xs[len(xs) // 2 - 7], "ci_high": xs[len(xs) // 2 + 6],
        "ci_level": 0.95, "outliers": 0, "n_throttled": 0, "throttled_min_mhz": None, "reps": 1,
        "graph": False, "warmup_runs": 40, "warmup_ns": 25e6, "measure_ns": med * len(xs),
        "stop_reason": "ci" if rng.random() < 0.9 else "timeout", "tick_ns": 32.0, "sm_mhz": 1980.0,
        "samples_ns": [round(x, 1) for x in rng.sample(xs, len(xs))],
        "sm_mhz_samples": [1980.0] * len(xs), "event_median_ns": None, "kernel_median_ns": None,
        "span_median_ns": None, "ops_median": None, "incomplete": 0, "other_stream_ops": None,
        "other_context_ops": None, "escaped_op": None, "event_ns": None, "kernel_ns": None,
        "span_ns": None, "ops": None, "breakdown": None,
    }, med


DEVICE = {
    "index": 0, "name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-5c1a2b3d-4e5f-6071-8293-a4b5c6d7e8f9",
    "cc": "9.0", "sm_count": 132, "sm_clock_max_mhz": 1980, "sm_clock_now_mhz": 1755,
    "mem_clock_mhz": 2619, "bus_width_bits": 5120, "peak_gbps": 3352.32,
    "measured_peak_gbps": None, "peak_gflops_fp32": 66908.16, "l2_bytes": 52428800,
    "global_mem_bytes": 85022736384, "ecc": True, "driver_version": 13000,
    "runtime_version": 12080,
}


def run_doc(i, a, kernels, sizes, steps, level_noise):
    """Run i (1-based) as a results document."""
    sha = sha_of(a.seed, i)
    commit_time = T0 + 86400 * (i - 1)
    date = iso(commit_time + 3 * 3600)
    rng = random.Random(a.seed * 7919 + i)
    cases = []
    for k in range(kernels):
        for s in range(sizes):
            n = 1 << (10 + s % 20)
            nbytes = 8.0 * n
            base = 2000.0 + nbytes / (3000.0 - 150.0 * k) * (1 + 0.02 * (s // 20))  # ns
            level = base
            st = steps.get((k, s))
            if st and i >= st[0]:
                level *= st[1]
            level *= 1 + 0.01 * level_noise[(k, s)][i - 1]
            cold, med = timing(rng, level, a.samples)
            gbps = nbytes / med
            cases.append({
                "kernel": "k%02d" % k, "params": {"n": n, "s": s // 20},
                "backend": "gpu", "status": "ok", "stage": None, "message": None,
                "bytes": nbytes, "flops": None, "gbps": gbps, "gflops": None,
                "pct_peak": 100 * gbps / DEVICE["peak_gbps"], "speedup": None, "roofline": None,
                "energy": None, "verified": True, "commit": sha, "date": date, "cold": cold,
                "batch": None,
            })
    run = {
        "benchrun_version": "0.1.0", "gpu_clock": "events", "clock_note": None, "date": date,
        "suite": {"name": "nightly", "description": "generated nightly sweep",
                  "path": "suites/nightly.yaml", "hash": "0" * 40, "metric": "GB/s"},
        "measure": {"cache": "flush", "warmup_ns": 25e6, "mode": "cold", "headline": "cold",
                    "hold": True, "throttle": 0.75, "min_samples": 10, "min_time_ns": 50e6,
                    "max_noise": 0.005, "timeout_ns": 1e10, "max_samples": 100000},
        "peak": {"kind": "theoretical", "gbps": DEVICE["peak_gbps"], "gflops": 66908.16},
        "regression": {"threshold": 0.02, "alpha": 0.01},
        "git": {"present": True, "unborn": False, "sha": sha, "short_sha": sha[:7],
                "branch": "main", "detached": False, "dirty": False,
                "commit_time": iso(commit_time)},
        "device": DEVICE, "gpu_skip_reason": None, "interrupted": None,
        "host": {"cpu_model": "Intel(R) Xeon(R) Platinum 8480+", "logical_cores": 224,
                 "governor": "performance", "hostname": "gpu-node-07", "cpu": None,
                 "freq_scaling": False, "turbo": False},
        "params": ["n", "s"],
        "kernels": [{"name": "k%02d" % k, "source": "kernels/k%02d.cu" % k, "backend": "gpu"}
                    for k in range(kernels)],
        "cases": cases,
    }
    return {"schema_version": 4, "benchrun_version": "0.1.0", "runs": [run]}, date, sha


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--cases", type=int, default=100)
    p.add_argument("--samples", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.runs < 1 or a.cases < 1 or a.samples < 14:
        sys.exit("gen-history: --runs and --cases >= 1, --samples >= 14")
    os.makedirs(a.out, exist_ok=True)
    kernels, sizes = plan(a.cases)
    steps = steps_of(a.runs, kernels, sizes)
    noise = random.Random(a.seed)
    level_noise = {(k, s): [noise.gauss(0, 1) for _ in range(a.runs)]
                   for k in range(kernels) for s in range(sizes)}
    for i in range(1, a.runs + 1):
        doc, date, sha = run_doc(i, a, kernels, sizes, steps, level_noise)
        name = "%s-%s.json" % (date.replace(":", "").replace("-", ""), sha[:7])
        tmp = os.path.join(a.out, "." + name + ".tmp")
        with open(tmp, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
        os.replace(tmp, os.path.join(a.out, name))
    with open(os.path.join(a.out, "STEPS.txt"), "w") as f:
        f.write("# kernel n run factor commit (generated by scripts/gen-history.py)\n")
        for (k, s), (at, factor) in sorted(steps.items()):
            f.write("k%02d %d %d %g %s\n" % (k, 1 << (10 + s % 20), at, factor,
                                           sha_of(a.seed, at)[:7]))
    print("gen-history: %d runs of %d cases (%d kernels x %d sizes) in %s"
          % (a.runs, kernels * sizes, kernels, sizes, a.out))


if __name__ == "__main__":
    main()
