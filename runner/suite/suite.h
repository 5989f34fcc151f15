/* suite.h - the suite model: a YAML suite file parsed with libyaml.
 *
 * Every value keeps the file:line:column it came from, so later stages can
 * report errors against the suite text. The model knows nothing of CUDA.
 */
#ifndef BR_SUITE_H
#define BR_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum br_metric {
    BR_METRIC_NONE = 0,  /* only times are reported */
    BR_METRIC_GBPS = 1,  /* "GB/s": bytes / time, 1 GB = 1e9 B */
    BR_METRIC_GFLOPS = 2 /* "GFLOP/s": flops / time, 1 GFLOP = 1e9 FLOP */
} br_metric;

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
    double max_noise;   /* stop once the relative standard deviation is under this, as a
                           fraction (0.005 = 0.5%) */
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
 *  - max_noise 10%: above the noise of every GPU reduction case at
 *    n >= 2^20 (the largest, reduce_cub at 2^20, about 6%: CUDA events carry
 *    a jitter of a few hundred ns), so healthy cases stop on noise and a
 *    disturbed one is flagged;
 *  - timeout 3 s: a slow host case costs at most that. */
#define BR_DEFAULT_WARMUP_NS   25e6 /* 25 ms */
#define BR_DEFAULT_WATCHDOG_NS 60e9 /* 1 min past a case's warmup and timeouts */
#define BR_DEFAULT_MIN_SAMPLES 6
#define BR_DEFAULT_MIN_TIME_NS 10e6 /* 10 ms */
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
} br_regression_cfg;

/* The largest max_samples accepted. */
#define BR_MAX_SAMPLES_LIMIT 10000000u

/* Most params a suite may declare (keeps a plan's value table bounded). */
#define BR_SUITE_MAX_PARAMS 32

/* A string value and where it stands in the file. */
typedef struct br_located {
    char *text; /* owned; NULL when the key is absent */
    br_pos pos; /* position of the value's first character (text[0]: one past an opening quote) */
} br_located;

/* One parameter: a name and the values it sweeps, in order.
 *
 * Forms in a suite's `params:` mapping:
 *   n: 4096                          one value
 *   n: [256, 1024, 2^20]             a list (constant expressions allowed)
 *   n: {from: 64, to: 1024, step: 64}  a linear range, both ends included
 *                                    (step defaults to 1)
 *   n: {pow2: [8, 13]}               powers of two 2^8 .. 2^13 ([lo, hi, step])
 *   shape: {zip: {m: [...], n: [...], k: [...]}}
 *                                    a zipped group: m, n and k advance
 *                                    together (the i-th values form one
 *                                    combination); each member takes any of
 *                                    the forms above and all have as many
 *                                    values (a one-value member repeats)
 * A parameter listed under `defines:` is also a compile-time constant: the
 * kernel sources are compiled once per distinct set of such values, with
 * `-D NAME=VALUE`. */
typedef struct br_param {
    char *name;      /* owned; a C identifier */
    br_pos pos;      /* position of the name */
    int64_t *values; /* owned; n_values >= 1 */
    size_t n_values;
    size_t zip;  /* 0: a parameter of its own; else the 1-based zipped group it belongs to */
    char *group; /* owned: the group's key in the suite (NULL when zip is 0) */
    int define;  /* 1: listed under `defines:` (a -D for the kernel compiles) */
} br_param;

/* A suite's `bytes` or `flops`: one expression for every kernel, or one
 * per kernel (a mapping kernel -> expression, e.g. STREAM's copy and triad
 * count different bytes). */
typedef struct br_work {
    br_located all;        /* the expression for every kernel; text NULL when per kernel */
    br_located *by_kernel; /* owned: n_kernels expressions in suite kernel order; NULL when
                              one expression (or none) */
} br_work;

typedef struct br_suite {
    char *path;    /* the suite file as given (owned); every br_pos.path in the model points here */
    char *dir;     /* directory that holds the suite file (owned) */
    char hash[41]; /* git blob id (SHA-1, hex) of the file's bytes: `git hash-object FILE` */

    br_located name;        /* required */
    br_located description; /* optional: text NULL when absent */

    /* Kernel sources: text is the path resolved against `dir`; pos is where
     * the path stands in the suite. Each source exists and is a regular file. */
    br_located *sources;
    size_t n_sources;

    br_located *kernels; /* kernel names, in suite order (the first is the speedup reference) */
    size_t n_kernels;

    br_param *params; /* in suite order; may be empty (one case per kernel) */
    size_t n_params;

    br_located where;   /* condition over the params; combinations where it is 0 are dropped
                           (text NULL: keep all) */
    br_pos defines_pos; /* where the `defines` list stands (line 0 when absent) */
    br_located *libs;   /* `link:` libraries each GPU/host source is linked with (-lNAME) */
    size_t n_libs;

    br_metric metric;
    br_work bytes; /* expression(s) over the params: bytes moved per execution; or absent */
    br_work flops; /* expression(s) over the params: FLOP per execution; or absent */
    /* expression(s) over the params: the bytes a case allocates (its
     * footprint), checked against the memory of the device (GPU kernels)
     * or of the host (host kernels) before anything runs; or absent */
    br_work memory;

    br_cache_policy cache;
    br_peak_kind peak;
    double warmup_ns; /* warmup time budget per case, ns */
    double budget_ns; /* `budget:` bound on the whole run's measuring time, ns; 0: none */
    /* `watchdog:` the time a case may run past its warmup and its timeout
     * (each measurement's) before it is killed and recorded as timed out, ns */
    double watchdog_ns;
    br_measure_cfg measure;
    br_regression_cfg regression;
} br_suite;

/* Parse the suite file at `path` into *out (which the caller disposes with
 * br_suite_dispose, also after a failure). Checks every key and value: types,
 * durations, expressions (parsed, names bound to params), ranges, that source
 * files exist. Returns 0, or -1 with the last error naming path:line:column,
 * what was expected, and for a misspelt key a suggestion. */
int br_suite_load(br_suite *out, const char *path);

/* The `bytes` (or `flops`) expression of kernel `kernel` (index into
 * kernels): the per-kernel one, else the common one; NULL when absent.
 * Borrowed from w. */
const br_located *br_work_expr(const br_work *w, size_t kernel);

/* Whether w has any expression. */
int br_work_present(const br_work *w);

/* Release what *s owns; accepts NULL and a zeroed or partly loaded suite. */
void br_suite_dispose(br_suite *s);

/* Fill *out with the defaults above (hold on, mode and headline cold). */
void br_measure_cfg_defaults(br_measure_cfg *out);

/* Parse a command-line value the way the suite parses the same key:
 * a duration ("25ms", "1.5s"; ns), a fraction ("0.5%" or 0.005) or a mode
 * ("cold", "batch", and "both" when both_ok). `option` names the option in
 * the error message ("--min-time: expected a duration ..."). Return 0, or -1
 * with the error set. */
int br_parse_duration(double *out_ns, const char *option, const char *text);
int br_parse_fraction(double *out, const char *option, const char *text);
int br_parse_mode(br_mode *out, const char *option, const char *text, int both_ok);

/* Name of a metric as written in suites and reports ("GB/s", "GFLOP/s", "none"). */
const char *br_metric_name(br_metric m);

#ifdef __cplusplus
}
#endif
#endif
