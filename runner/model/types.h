/* SPDX-License-Identifier: Apache-2.0 */
/* The vocabulary every stage shares: the enums of suites,
 * measurements and results (each with its name table, read both ways through
 * base/name.h), the measurement and regression settings, and the records of
 * the device and host. The model is libgit2's git2/types.h. It includes
 * nothing of the project but base/, so any stage may include it. */
#ifndef BR_TYPES_H
#define BR_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "base/name.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- suites and settings ------------------------------------------------- */

/* What a run reports beside the times (suite key `metric`); what each is
 * (unit, scale, direction, amount, peak) is its row in the metric table
 * (metric.h). */
typedef enum br_metric {
    BR_METRIC_NONE = 0,   /* only times are reported */
    BR_METRIC_GBPS = 1,   /* "GB/s": bytes / time, 1 GB = 1e9 B */
    BR_METRIC_GFLOPS = 2, /* "GFLOP/s": flops / time, 1 GFLOP = 1e9 FLOP */
    BR_METRIC_TFLOPS = 3, /* "TFLOP/s": flops / time, 1 TFLOP = 1e12 FLOP */
    BR_METRIC_TOPS = 4    /* "TOP/s": integer operations (`flops`) / time, 1 TOP = 1e12 */
} br_metric;

/* What a kernel's FLOPs are (suite key `precision`): the data type and the
 * unit that executes them, which decides the compute peak its % of peak and
 * roofline ceiling are relative to. Dense figures; the `-sparse` values are
 * the 2:4 structured-sparse Tensor Core rates. FP8 covers E4M3 and E5M2 (the
 * same rate on every GPU that has it). BR_PRECISION_NONE: not declared, which
 * reads as FP32 on the CUDA cores (benchrun's one peak before precisions). */
typedef enum br_precision {
    BR_PRECISION_NONE = 0,
    BR_PRECISION_FP64 = 1,                /* "fp64": CUDA cores */
    BR_PRECISION_FP32 = 2,                /* "fp32": CUDA cores */
    BR_PRECISION_FP16 = 3,                /* "fp16": CUDA cores (half2 FMA) */
    BR_PRECISION_BF16 = 4,                /* "bf16": CUDA cores (bfloat162 FMA) */
    BR_PRECISION_FP64_TENSOR = 5,         /* "fp64-tensor" */
    BR_PRECISION_TF32_TENSOR = 6,         /* "tf32-tensor" */
    BR_PRECISION_FP16_TENSOR = 7,         /* "fp16-tensor" (FP32 accumulate) */
    BR_PRECISION_BF16_TENSOR = 8,         /* "bf16-tensor" (FP32 accumulate) */
    BR_PRECISION_FP8_TENSOR = 9,          /* "fp8-tensor" (E4M3 or E5M2, FP32 accumulate) */
    BR_PRECISION_INT8_TENSOR = 10,        /* "int8-tensor": integer operations (TOP/s) */
    BR_PRECISION_TF32_TENSOR_SPARSE = 11, /* "tf32-tensor-sparse": 2:4 sparse */
    BR_PRECISION_FP16_TENSOR_SPARSE = 12, /* "fp16-tensor-sparse" */
    BR_PRECISION_BF16_TENSOR_SPARSE = 13, /* "bf16-tensor-sparse" */
    BR_PRECISION_FP8_TENSOR_SPARSE = 14,  /* "fp8-tensor-sparse" */
    BR_PRECISION_INT8_TENSOR_SPARSE = 15  /* "int8-tensor-sparse" */
} br_precision;
#define BR_PRECISION_COUNT 16

/* p as a peak reads it: BR_PRECISION_NONE (not declared) is FP32 on the
 * CUDA cores. */
static inline br_precision br_precision_effective(br_precision p) {
    return p == BR_PRECISION_NONE ? BR_PRECISION_FP32 : p;
}

typedef enum br_cache_policy {
    BR_CACHE_FLUSH = 0,       /* clear L2 between samples by reading unrelated data (clean lines),
                                 outside the timed region */
    BR_CACHE_WARM = 1,        /* leave caches as the previous execution left them */
    BR_CACHE_FLUSH_MEMSET = 2 /* "flush-memset": clear L2 by writing a buffer (NVBench's and
                                 Triton's method; leaves dirty lines), for comparison only */
} br_cache_policy;

/* Which measurements a case gets (suite key `measure: {mode: ...}`). */
typedef enum br_mode {
    BR_MODE_COLD = 1,  /* one execution per sample, cache policy applied before each */
    BR_MODE_BATCH = 2, /* many back-to-back executions per sample, no flush between them */
    BR_MODE_BOTH = 3   /* both, cold first */
} br_mode;

/* What % of peak is relative to (suite key `peak`). */
typedef enum br_peak_kind {
    BR_PEAK_THEORETICAL = 0, /* the device's datasheet DRAM bandwidth (device.h) */
    BR_PEAK_MEASURED = 1     /* a device-to-device copy measured once per device (peak.h) */
} br_peak_kind;

/* How the timing core measures (suite key `measure`; see measure.h for the
 * stopping rules). */
typedef struct br_measure_cfg {
    size_t min_samples; /* at least this many samples */
    double min_time_ns; /* at least this much measured (timed) time, ns */
    double max_noise;   /* the precision asked for, as a fraction (0.10 = 10%): sampling stops
                           once the median's 95% confidence interval is within
                           +-max_noise / 20 of it (measure.h) */
    double timeout_ns;  /* never sample one case for longer than this (wall time), ns */
    size_t max_samples; /* never take more samples than this */
    double throttle;    /* discard GPU samples whose SM clock is below this fraction of the
                           device's maximum clock (0.75 = 75%); 0 turns the check off */
    int hold;           /* 1: a blocking kernel holds the stream while a GPU sample is enqueued,
                           so launch latency stays out of the time; 0: no hold (comparison) */
    br_mode mode;       /* cold, batch or both */
    br_mode headline;   /* BR_MODE_COLD or BR_MODE_BATCH: which time the metric uses */
} br_measure_cfg;

/* Defaults, used when the suite does not say. Chosen by measurement on an
 * H100 (README, "Measurement defaults"):
 *  - min_samples 6: the fewest samples for which a distribution-free 95%
 *    confidence interval of the median exists (stats.h);
 *  - min_time 10 ms: gives a 5 us kernel about 2000 samples, enough for a
 *    median that repeats within 1% between runs;
 *  - max_noise 10%: the median to +-0.5% (max_noise / 20) at 95%
 *    confidence; the reduction suite's cases (noise up to about 6%, CUDA
 *    events carrying a jitter of a few hundred ns) get there within
 *    min_time, and a disturbed one is flagged;
 *  - timeout 3 s: a slow host case costs at most that. */
#define BR_DEFAULT_WARMUP_NS   25e6 /* 25 ms */
#define BR_DEFAULT_WATCHDOG_NS 60e9 /* 1 min past a case's warmup and timeouts */
#define BR_DEFAULT_MIN_SAMPLES 6
#define BR_DEFAULT_MIN_TIME_NS 2e6  /* 2 ms */
#define BR_DEFAULT_MAX_NOISE   0.10 /* 10 % */
#define BR_DEFAULT_TIMEOUT_NS  3e9  /* 3 s */
#define BR_DEFAULT_MAX_SAMPLES 100000
#define BR_DEFAULT_THROTTLE    0.75 /* NVBench's default throttle threshold */

/* Regression rules for comparing a run with its baseline (suite key
 * `regression: {threshold, alpha}`): a case is slower or faster only when the
 * two-sided Mann-Whitney U test on the two sample sets is significant at
 * alpha AND the medians differ by more than threshold. Defaults: 2% (above
 * the 0.85% run-to-run spread of the reduction medians measured on an H100,
 * README "Baselines") and 0.01. */
#define BR_DEFAULT_REGRESSION_THRESHOLD 0.02
#define BR_DEFAULT_REGRESSION_ALPHA     0.01

typedef struct br_regression_cfg {
    double threshold; /* minimum effect: |median change| as a fraction of the baseline median */
    double alpha;     /* significance level of the two-sided test, in (0, 1) */
    size_t keep;      /* run medians a baseline keeps per case (suite key regression.keep);
                         0: BR_DEFAULT_REGRESSION_KEEP */
} br_regression_cfg;
#define BR_DEFAULT_REGRESSION_KEEP 10
#define BR_REGRESSION_KEEP_MAX     100

/* The largest max_samples accepted. */
#define BR_MAX_SAMPLES_LIMIT 10000000u

/* Most params a suite may declare (keeps a plan's value table bounded). */
#define BR_SUITE_MAX_PARAMS 32

/* Most compiler flags a suite's defines and link give together (the build
 * passes them with its own; build.h's BR_BUILD_MAX_EXTRA_FLAGS is the same). */
#define BR_SUITE_MAX_EXTRA_FLAGS 40

/* --- results ----------------------------------------------------------------- */

typedef enum br_case_status {
    BR_STATUS_OK = 0,     /* verified and measured */
    BR_STATUS_FAILED = 1, /* compile, setup, verify or run failed: no figures */
    BR_STATUS_SKIPPED = 2 /* not run (e.g. a GPU case on a machine without a GPU) */
} br_case_status;

typedef enum br_backend {
    BR_BACKEND_HOST = 0, /* .c module, timed with CLOCK_MONOTONIC */
    BR_BACKEND_GPU = 1   /* .cu module, timed with CUDA events */
} br_backend;

/* What a timing's samples measure. */
typedef enum br_clock {
    BR_CLOCK_MONOTONIC = 0, /* host: CLOCK_MONOTONIC around the executions */
    BR_CLOCK_EVENTS = 1, /* GPU: CUDA events recorded on the stream around the executions; includes
                            the front end's work between them (MEASUREMENT.md point 3) */
    BR_CLOCK_KERNEL = 2  /* GPU: CUPTI activity records: the summed durations of the GPU
                            operations the executions enqueued (activity.h) */
} br_clock;

/* How a case compares with its baseline (baseline.h has the rules). */
typedef enum br_change {
    BR_CHANGE_SAME = 0,    /* no change beyond the threshold that the test can see */
    BR_CHANGE_FASTER = 1,  /* significantly faster by more than the threshold */
    BR_CHANGE_SLOWER = 2,  /* significantly slower by more than the threshold */
    BR_CHANGE_UNKNOWN = 3, /* too few samples, too noisy to tell, or not measured in one of them */
    BR_CHANGE_NEW = 4,     /* in this run, not in the baseline */
    BR_CHANGE_MISSING = 5  /* in the baseline, not in this run */
} br_change;
#define BR_CHANGE_COUNT 6

/* When a comparison fails the run (exit status 3). */
typedef enum br_fail_on {
    BR_FAIL_ON_SLOWER = 0, /* a case is slower (the default) */
    BR_FAIL_ON_ANY = 1,    /* a case is slower or faster */
    BR_FAIL_ON_NEVER = 2   /* report only */
} br_fail_on;

/* Whether the regression gate confirms what its screen flagged by an
 * interleaved A/B against the baseline's own commit (gate/confirm.h). */
typedef enum br_confirm_mode {
    BR_CONFIRM_AUTO = 0,  /* when the baseline's commit can be checked out (the default) */
    BR_CONFIRM_NEVER = 1, /* the screen alone decides, at the suite's alpha */
    BR_CONFIRM_ALWAYS = 2 /* as auto; a baseline whose commit cannot be had is an error */
} br_confirm_mode;

/* Which stage of the regression gate decided a case of a comparison. */
typedef enum br_gate_stage {
    BR_GATE_SCREEN = 0,       /* the screen against the baseline alone */
    BR_GATE_CONFIRMED = 1,    /* flagged by the screen, confirmed by the A/B */
    BR_GATE_NOT_CONFIRMED = 2 /* flagged by the screen, not confirmed by the A/B: same */
} br_gate_stage;

/* Why sampling stopped (measure.h has the rules). */
typedef enum br_stop {
    BR_STOP_NONE = 0,
    BR_STOP_NOISE,
    BR_STOP_PLATEAU,
    BR_STOP_TIMEOUT,
    BR_STOP_MAX_SAMPLES,
    BR_STOP_CI,  /* the median's confidence interval is as tight as asked (measure.h) */
    BR_STOP_CI_T /* a slow, steady case: the t-interval of its log times is as tight as asked
                    and its samples lie within it (measure.h) */
} br_stop;

/* How a timing's confidence interval of the median was computed (br_stats.ci_method). */
typedef enum br_ci_method {
    BR_CI_ORDER = 0, /* order statistics, distribution-free (Conover 1999; stats.h) */
    BR_CI_LOG_T = 1  /* Student's t on the log times: exp(mean +- t s / sqrt(n)) (stats.h) */
} br_ci_method;

/* Where a case failed, or why it was not run (br_case_result.stage). */
typedef enum br_stage {
    BR_STAGE_NONE = 0,    /* none: the case was measured */
    BR_STAGE_COMPILE,     /* failed: its module did not build */
    BR_STAGE_INIT,        /* a fresh worker starting the backend (CUDA, CUPTI) */
    BR_STAGE_SETUP,       /* the module's setup; or no worker could be started */
    BR_STAGE_RUN,         /* an execution or the samples */
    BR_STAGE_VERIFY,      /* the module's verify */
    BR_STAGE_ENERGY,      /* the energy windows (platform/energy.h) */
    BR_STAGE_TEARDOWN,    /* the module's teardown */
    BR_STAGE_NO_GPU,      /* skipped: a GPU case without a usable GPU */
    BR_STAGE_BUDGET,      /* skipped: the time budget was spent */
    BR_STAGE_INTERRUPTED, /* skipped: an interrupt stopped the run first */
    BR_STAGE_AB,          /* benchrun ab: not measured or not compared (the other side) */
    BR_STAGE_MISSING,     /* benchrun merge: in none of the parts */
    BR_STAGE_PRECISION    /* skipped: the GPU lacks the kernel's declared precision
                             (platform/flops.h) */
} br_stage;

/* --- a -p setting (plan/plan.h parses and applies it) ------------------ */

/* A command-line parameter setting (`-p NAME=VALUE` or `-p NAME=[a,b,c]`):
 * the values replace the suite's values of that parameter (benchrun), or
 * select the cases that have one of them (benchrun history). */
typedef struct br_param_override {
    char *name;      /* owned; a C identifier */
    int64_t *values; /* owned; n_values >= 1, distinct, in the order given */
    size_t n_values;
} br_param_override;

/* --- the GPU operations of a measurement (measure/activity.h) -------------- */

typedef enum br_op_kind {
    BR_OP_KERNEL = 0, /* CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL */
    BR_OP_MEMCPY = 1, /* CUPTI_ACTIVITY_KIND_MEMCPY */
    BR_OP_MEMSET = 2  /* CUPTI_ACTIVITY_KIND_MEMSET */
} br_op_kind;

/* One distinct GPU operation of a measurement, over its kept samples. */
typedef struct br_op_stat {
    char *name; /* owned; the operation's name (a demangled kernel name, "memcpy DtoD",
                   "memset") */
    br_op_kind kind;
    size_t count;     /* operations over all the kept samples */
    double per_exec;  /* count / (samples x executions per sample) */
    double median_ns; /* median over the samples of its mean duration within a sample, ns
                         (a cold sample has one execution, so this is the median duration) */
    double share;     /* its summed duration / the kernel time summed over the samples, a
                         fraction in [0, 1] */
} br_op_stat;

/* --- the machine ------------------------------------------------------------ */

/* One CUDA device. */
typedef struct br_device {
    int index;
    char name[256];
    char uuid[48];          /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
    int cc_major, cc_minor; /* compute capability */
    int sm_count;
    int sm_clock_khz;          /* maximum SM clock, kHz (cudaDevAttrClockRate) */
    int sm_clock_now_mhz;      /* current SM clock, MHz, read through NVML when the run starts;
                                  0 when NVML cannot be read */
    int ecc;                   /* ECC: 1 on, 0 off, -1 unknown */
    int mem_clock_khz;         /* peak memory clock, kHz */
    int bus_width_bits;        /* memory bus width, bits */
    size_t l2_bytes;           /* L2 cache size, bytes */
    size_t global_mem_bytes;   /* device memory, bytes */
    double peak_gbps;          /* theoretical peak DRAM bandwidth, GB/s (1e9 B/s); see device.c */
    double measured_peak_gbps; /* device-to-device copy bandwidth measured by benchrun, GB/s;
                                  NAN when not measured (suite without `peak: measured`) */
    double peak_gflops;        /* FP32 theoretical peak, GFLOP/s (1e9 FLOP/s):
                                  br_device_peak_gflops_fp32 of this device; NAN when its
                                  compute capability is not in the table */
    int driver_version;        /* CUDA driver API version, e.g. 13000 */
    int runtime_version;       /* CUDA runtime version benchrun was linked with */
} br_device;

/* The host CPU. Fields that cannot be read are left empty (0 / ""). */
typedef struct br_host {
    char cpu_model[256];
    int logical_cores;
    char governor[64]; /* cpufreq governor of the host cases' CPU (CPU 0 when not pinned),
                          e.g. "performance" */
    char hostname[256];
    int pinned;       /* 1: host cases were measured pinned to CPU `cpu` (platform/cpupin.h) */
    int cpu;          /* that CPU; meaningful when pinned */
    int freq_scaling; /* 1: some CPU's governor is not "performance" (frequency scaling on),
                         0: none is, -1 unknown (platform/cpufreq.h) */
    int turbo;        /* turbo / boost: 1 on, 0 off, -1 unknown */
} br_host;

/* --- name tables (names.c): value <-> the name suites, the command line and
 *     results files use. Each is ended by {0, NULL}. --- */
/* "GB/s", "GFLOP/s", "TFLOP/s", "TOP/s", "none" (the order messages list them in) */
extern const br_name br_metric_names[];
/* The key of a case's value in a results file, for the metrics whose value
 * is not one of the file's "gbps" and "gflops": "tflops", "tops" */
extern const br_name br_metric_value_keys[];
extern const br_name br_cache_names[];     /* "flush", "warm", "flush-memset" */
extern const br_name br_precision_names[]; /* "none", "fp64", "fp32", ..., "int8-tensor-sparse" */
extern const br_name br_mode_names[];      /* "cold", "batch", "both" */
extern const br_name br_peak_names[];      /* "theoretical", "measured" */
extern const br_name br_status_names[];    /* "ok", "failed", "skipped" */
extern const br_name br_backend_names[];   /* "host", "gpu" */
extern const br_name br_clock_names[];     /* "monotonic", "events", "kernel" */
extern const br_name
    br_change_names[]; /* "same", "faster", "slower", "unknown", "new", "missing" */
extern const br_name br_fail_on_names[];      /* "slower", "any-change", "never" */
extern const br_name br_confirm_mode_names[]; /* "auto", "never", "always" */
extern const br_name br_gate_stage_names[];   /* "screen", "confirmed", "not-confirmed" */
/* "ci", "ci_t", "noise" (files before the CI rule), "plateau", "timeout", "max_samples" */
extern const br_name br_stop_names[];
extern const br_name br_ci_method_names[]; /* "order-statistics", "log-t" */
extern const br_name br_op_kind_names[];   /* "kernel", "memcpy", "memset" */
/* "compile", "init", "setup", "run", "verify", "energy", "teardown", "no-gpu", "budget",
 * "interrupted", "ab", "missing", "precision" (the results file's and the reporters' only) */
extern const br_name br_stage_names[];

/* Each enum's name as reports write it (static), through its table; a
 * value outside the enum reads "unknown" ("?" for changes and operation
 * kinds, "none" for metrics, NULL for BR_STOP_NONE). */
const char *br_metric_name(br_metric m);
const char *br_cache_name(br_cache_policy p);
const char *br_precision_name(br_precision p); /* "none" for BR_PRECISION_NONE */
const char *br_mode_name(br_mode m);
const char *br_peak_kind_name(br_peak_kind k);
const char *br_status_name(br_case_status s);
const char *br_backend_name(br_backend b);
const char *br_clock_name(br_clock c);
const char *br_change_name(br_change c);
const char *br_gate_stage_name(br_gate_stage s);
const char *br_stop_name(br_stop s);
const char *br_ci_method_name(br_ci_method m);
const char *br_op_kind_name(br_op_kind k);
const char *br_stage_name(br_stage s); /* NULL for BR_STAGE_NONE */

/* The git commit a suite was run at (read through libgit2 by results/gitinfo.h). */
typedef struct br_gitinfo {
    int present;        /* 0: the path is in no git repository (other fields empty) */
    int unborn;         /* 1: a repository with no commit yet (sha empty) */
    char sha[41];       /* full commit SHA-1, hex */
    char short_sha[41]; /* abbreviated as `git rev-parse --short` would (>= 7 hex digits) */
    char branch[256];   /* current branch name ("main"); "" when detached */
    int detached;       /* 1 when HEAD is detached */
    int dirty; /* 1 when tracked files differ from HEAD (index or work tree); untracked files do not
                  count */
    int64_t commit_time;   /* committer time, seconds since the epoch (UTC) */
    int commit_tz_minutes; /* committer's UTC offset, minutes */
    char workdir[4096];    /* the repository's work tree */
} br_gitinfo;

#ifdef __cplusplus
}
#endif
#endif
