/* suite.h - the suite model: a YAML suite file parsed with libyaml.
 *
 * Every value keeps the file:line:column it came from, so later stages can
 * report errors against the suite text. The model knows nothing of CUDA.
 */
#ifndef BR_SUITE_H
#define BR_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum br_metric {
    BR_METRIC_NONE = 0,  /* only times are reported */
    BR_METRIC_GBPS = 1,  /* "GB/s": bytes / time, 1 GB = 1e9 B */
    BR_METRIC_GFLOPS = 2 /* "GFLOP/s": flops / time, 1 GFLOP = 1e9 FLOP */
} br_metric;

typedef enum br_cache_policy {
    BR_CACHE_FLUSH = 0, /* clear L2 between samples, outside the timed region */
    BR_CACHE_WARM = 1   /* leave caches as the previous execution left them */
} br_cache_policy;

/* The stopping criterion of the timing core (suite key `measure`). */
typedef struct br_measure_cfg {
    size_t min_samples; /* at least this many samples */
    double min_time_ns; /* at least this much measured (timed) time, ns */
    double max_noise;   /* relative standard deviation to reach, as a fraction (0.005 = 0.5%) */
    double timeout_ns;  /* never measure one case for longer than this (wall time), ns */
} br_measure_cfg;

/* Defaults, used when the suite does not say. */
#define BR_DEFAULT_WARMUP_NS   25e6 /* 25 ms */
#define BR_DEFAULT_MIN_SAMPLES 10
#define BR_DEFAULT_MIN_TIME_NS 50e6  /* 50 ms */
#define BR_DEFAULT_MAX_NOISE   0.005 /* 0.5 % */
#define BR_DEFAULT_TIMEOUT_NS  10e9  /* 10 s */

/* Most params a suite may declare (keeps a plan's value table bounded). */
#define BR_SUITE_MAX_PARAMS 32

/* A string value and where it stands in the file. */
typedef struct br_located {
    char *text; /* owned; NULL when the key is absent */
    br_pos pos; /* position of the value's first character (text[0]: one past an opening quote) */
} br_located;

/* One parameter: a name and the values it sweeps, in order. */
typedef struct br_param {
    char *name;      /* owned; a C identifier */
    br_pos pos;      /* position of the name */
    int64_t *values; /* owned; n_values >= 1 */
    size_t n_values;
} br_param;

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

    br_metric metric;
    br_located bytes; /* expression over the params: bytes moved per execution; or absent */
    br_located flops; /* expression over the params: FLOP per execution; or absent */

    br_cache_policy cache;
    double warmup_ns; /* warmup time budget per case, ns */
    br_measure_cfg measure;
} br_suite;

/* Parse the suite file at `path` into *out (which the caller disposes with
 * br_suite_dispose, also after a failure). Checks every key and value: types,
 * durations, expressions (parsed, names bound to params), ranges, that source
 * files exist. Returns 0, or -1 with the last error naming path:line:column,
 * what was expected, and for a misspelt key a suggestion. */
int br_suite_load(br_suite *out, const char *path);

/* Release what *s owns; accepts NULL and a zeroed or partly loaded suite. */
void br_suite_dispose(br_suite *s);

/* Name of a metric as written in suites and reports ("GB/s", "GFLOP/s", "none"). */
const char *br_metric_name(br_metric m);

#ifdef __cplusplus
}
#endif
#endif
