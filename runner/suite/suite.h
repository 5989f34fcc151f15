/* SPDX-License-Identifier: Apache-2.0 */
/* The suite model: a YAML suite file parsed with libyaml.
 *
 * Every value keeps the file:line:column it came from, so later stages can
 * report errors against the suite text. The model knows nothing of CUDA.
 */
#ifndef BR_SUITE_H
#define BR_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "model/settings.h"
#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

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

    /* Compiler flags the suite adds, each one argument of the compiler's
     * command line as written (no shell splitting), after benchrun's own
     * flags (so -O2 or -std=gnu11 there overrides benchrun's -O3 or
     * -std=c11): `cflags:` for host sources (.c, .cpp, .cc, .cxx),
     * `nvcc_flags:` for GPU sources (.cu). A string or a list of strings;
     * never empty strings, never a flag that takes the output away from
     * benchrun (-o, -c, -E, -S, -M, -MM, -MF, and nvcc's long forms). */
    br_located *cflags;
    size_t n_cflags;
    br_located *nvcc_flags;
    size_t n_nvcc_flags;
    /* `include_dirs:` directories every source is compiled with (-IDIR,
     * after benchrun's kernels/ directory and the source's own directory):
     * text is the path resolved against `dir`, and each is a directory. */
    br_located *include_dirs;
    size_t n_include_dirs;

    br_metric metric;
    br_work bytes; /* expression(s) over the params: bytes moved per execution; or absent */
    br_work flops; /* expression(s) over the params: FLOP per execution; or absent */
    /* expression(s) over the params: the bytes a case allocates (its
     * footprint), checked against the memory of the device (GPU kernels)
     * or of the host (host kernels) before anything runs; or absent */
    br_work memory;

    /* `precision:` what each kernel's FLOPs are (owned: n_kernels, suite
     * kernel order; BR_PRECISION_NONE for a kernel the key does not name,
     * read as FP32 on the CUDA cores); NULL when the suite has no
     * `precision` key. Read it through br_suite_precision. */
    br_precision *precision;

    br_cache_policy cache;
    br_peak_kind peak;
    double warmup_ns; /* warmup time budget per case, ns */
    double budget_ns; /* `budget:` bound on the whole run's measuring time, ns; 0: none */
    /* `watchdog:` the time a case may run past its warmup and its timeout
     * (each measurement's) before it is killed and recorded as timed out, ns */
    double watchdog_ns;
    br_measure_cfg measure;
    /* where measure, cache, warmup_ns and watchdog_ns came from (the
     * suite's keys or the defaults; path borrowed from `path`), for the
     * command line's layer and the one check (br_suite_load_over) */
    br_measure_origins measure_from;
    br_regression_cfg regression;
} br_suite;

/* Most flags of cflags (or nvcc_flags) and include_dirs together
 * (build.h's BR_BUILD_MAX_USER_FLAGS is the same). */
#define BR_SUITE_MAX_USER_FLAGS 64

/* Parse the suite file at `path` into *out (which the caller disposes with
 * br_suite_dispose, also after a failure). Checks every key and value: types,
 * durations, expressions (parsed, names bound to params), ranges, that source
 * files exist. Returns 0, or -1 with the last error naming path:line:column,
 * what was expected, and for a misspelt key a suggestion. */
int br_suite_load(br_suite *out, const char *path);

/* br_suite_load with the command line's measurement settings: the layer
 * `over` (NULL, or an empty layer: none) laid over the suite's (measure,
 * warmup_ns, cache, watchdog_ns; br_measure_settings_apply, origins into
 * s->measure_from). The settings of every layer are checked once, here, at
 * load (br_measure_settings_check: a rule the suite breaks alone is named
 * at its key and said first; one an option breaks names the suite file and
 * the options). Returns 0, or -1 with the error set; *out is disposed by
 * the caller either way. */
int br_suite_load_over(br_suite *out, const char *path, const br_measure_layer *over);

/* The `bytes` (or `flops`) expression of kernel `kernel` (index into
 * kernels): the per-kernel one, else the common one; NULL when absent.
 * Borrowed from w. */
const br_located *br_work_expr(const br_work *w, size_t kernel);

/* Whether w has any expression. */
int br_work_present(const br_work *w);

/* The declared precision of kernel `kernel` (index into s->kernels):
 * s->precision's, or BR_PRECISION_NONE when the suite declares none for it
 * or the index is out of range. */
br_precision br_suite_precision(const br_suite *s, size_t kernel);

/* Release what *s owns; accepts NULL and a zeroed or partly loaded suite. */
void br_suite_dispose(br_suite *s);

/* Parse a command-line value the way the suite parses the same key:
 * a duration ("25ms", "1.5s"; ns), a fraction ("0.5%" or 0.005) or a mode
 * ("cold", "batch", and "both" when both_ok). `option` names the option in
 * the error message ("--min-time: expected a duration ..."). Return 0, or -1
 * with the error set. */
/* (defined in scalar.c) */
int br_parse_duration(double *out_ns, const char *option, const char *text);
int br_parse_fraction(double *out, const char *option, const char *text);
int br_parse_mode(br_mode *out, const char *option, const char *text, int both_ok);

#ifdef __cplusplus
}
#endif
#endif
