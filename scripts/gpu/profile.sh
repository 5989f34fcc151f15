#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU check of issue 18 items 1-2 (NVTX ranges, benchrun profile). Run from the
# repository root on the GPU machine after benchrun is built with CUDA into
# build/. Logs go to $OUT/profile/; a summary is printed last. About 3-4 min.
#   (a) benchrun profile of reduce_vec at n=2^28: ncu's DRAM bytes vs the declared
#       1 GiB (should be within 2%), ncu's duration beside benchrun's kernel clock
#   (b) one sgemm case (sgemm_reg at 4096^3): occupancy and SM throughput
#   (c) a copy of reduction.yaml with bytes doubled: the warning must appear
#   (d) ncu's raw output of (a) kept as $OUT/profile/ncu_raw.csv (the CI fixture,
#       tests/fixtures/profile/ncu_raw.csv, is to be replaced by it)
#   (e) NVTX on vs off: the reduction suite's GPU kernels run twice (--json each,
#       with and without --no-nvtx); max |median_on / median_off - 1| over cases
set -u
OUT=${OUT:-/tmp/out}
LOG="$OUT/profile"
mkdir -p "$LOG"
BR=build/benchrun
[ -x "$BR" ] || { echo "profile.sh: build benchrun with CUDA into build/ first"; exit 2; }
summary=()

NCU=${BENCHRUN_NCU:-$(command -v ncu || true)}
[ -n "$NCU" ] || { [ -x /usr/local/cuda/bin/ncu ] && NCU=/usr/local/cuda/bin/ncu; }
if [ -z "$NCU" ]; then
  summary+=("(a)-(d) SKIPPED: no ncu on this machine (set BENCHRUN_NCU)")
else
  "$NCU" --version > "$LOG/ncu_version.txt" 2>&1
  # (a) + (d)
  timeout 150 "$BR" profile suites/reduction.yaml -k reduce_vec -p n=2^28 --ascii \
    --json "$LOG/reduce_vec.json" --raw "$LOG/ncu_raw.csv" > "$LOG/a_reduce_vec.txt" 2>&1
  summary+=("(a) reduce_vec n=2^28: exit $?")
  if [ -f "$LOG/reduce_vec.json" ]; then
    summary+=("$(python3 - "$LOG/reduce_vec.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1])); n = p["ncu"]; b = p["benchrun"]
dram = n["dram_bytes"]; decl = p["declared_bytes"]
print("    DRAM %.4g B vs declared %.4g B: %+.2f%% (want within 2%%); ncu %.1f us/exec vs "
      "benchrun %s %s us; kernels: %s" % (dram, decl, 100 * (dram / decl - 1),
      n["duration_ns"] / 1e3, b["clock"], "%.1f" % (b["median_ns"] / 1e3) if b["median_ns"] else "-",
      ", ".join("%s x%d" % (k["name"][:40], k["launches"]) for k in n["kernels"])))
PY
)")
  fi
  # (b)
  timeout 150 "$BR" profile suites/sgemm.yaml -k sgemm_reg -p m=4096 -p n=4096 -p k=4096 \
    --ascii --json "$LOG/sgemm.json" > "$LOG/b_sgemm.txt" 2>&1
  summary+=("(b) sgemm_reg 4096^3: exit $?")
  if [ -f "$LOG/sgemm.json" ]; then
    summary+=("$(python3 - "$LOG/sgemm.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1])); n = p["ncu"]; b = p["benchrun"]
for k in n["kernels"]:
    print("    %s: %.3f ms, occupancy %s%%, SM %s%%, memory %s%%, L2 hit %s%%; benchrun %s ms (%s)"
          % (k["name"][:50], k["duration_ns"] / 1e6, k["occupancy_pct"], k["sm_pct"],
             k["mem_pct"], k["l2_hit_pct"],
             "%.3f" % (b["median_ns"] / 1e6) if b["median_ns"] else "-", b["clock"]))
PY
)")
  fi
  # (c)
  sed -e "s|\.\./kernels/|$PWD/kernels/|g" -e 's|^bytes: 4 \* n|bytes: 8 * n|' \
    suites/reduction.yaml > "$LOG/reduction_wrong_bytes.yaml"
  timeout 150 "$BR" profile "$LOG/reduction_wrong_bytes.yaml" -k reduce_vec -p n=2^28 --ascii \
    > "$LOG/c_wrong_bytes.txt" 2>&1
  rc=$?
  w=$(grep -o "warning: the suite's bytes.*DRAM moved ([^)]*)" "$LOG/c_wrong_bytes.txt" | head -1)
  summary+=("(c) bytes doubled: exit $rc; ${w:-NO WARNING (unexpected)}")
  summary+=("(d) ncu raw CSV: $(wc -l < "$LOG/ncu_raw.csv" 2>/dev/null || echo missing) lines in $LOG/ncu_raw.csv")
fi

# (e) NVTX on vs off (GPU kernels only: the CPU reference is left out to save time)
K=(-k reduce_naive -k reduce_smem -k reduce_warp -k reduce_vec -k reduce_cub)
timeout 200 "$BR" suites/reduction.yaml "${K[@]}" --no-compare -q --json "$LOG/nvtx_on.json" \
  > "$LOG/e_nvtx_on.txt" 2>&1
timeout 200 "$BR" suites/reduction.yaml "${K[@]}" --no-compare -q --no-nvtx \
  --json "$LOG/nvtx_off.json" > "$LOG/e_nvtx_off.txt" 2>&1
summary+=("$(python3 - "$LOG/nvtx_on.json" "$LOG/nvtx_off.json" <<'PY'
import json, sys
def medians(path):
    r = json.load(open(path))["runs"][0]; out = {}
    for c in r["cases"]:
        name = c["kernel"]
        for mode in ("cold", "batch"):
            t = c.get(mode)
            if c.get("backend") == "gpu" and t and t.get("median"):
                out[(name, json.dumps(c["params"], sort_keys=True), mode)] = t["median"]
    return out
try:
    on, off = medians(sys.argv[1]), medians(sys.argv[2])
    keys = sorted(set(on) & set(off))
    dev = sorted(((on[k] / off[k] - 1, k) for k in keys), key=lambda x: -abs(x[0]))
    worst = dev[0] if dev else (float("nan"), None)
    mean = sum(d for d, _ in dev) / len(dev) if dev else float("nan")
    print("(e) NVTX on vs off: %d GPU medians; max |on/off - 1| = %.2f%% at %s; mean on/off - 1 = %+.2f%%"
          % (len(keys), 100 * abs(worst[0]), worst[1], 100 * mean))
except Exception as e:
    print("(e) NVTX on vs off: could not compare: %s" % e)
PY
)")

echo "== profile.sh summary (logs in $LOG) =="
printf '%s\n' "${summary[@]}"
