/* SPDX-License-Identifier: Apache-2.0 */
/* Read a results document (run_write.h: the json
 * reporter's output, also the format of baselines) back into the in-memory
 * model of model/run.h. Implemented in run_read.c. */
#ifndef BR_RESULTSFILE_H
#define BR_RESULTSFILE_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest results document read, bytes (1 GiB). */
#define BR_RESULTS_MAX_BYTES ((size_t)1 << 30)

/* Read the results document at `path` (written by the json reporter,
 * run_write.c; schema BR_SCHEMA_VERSION_MIN to BR_SCHEMA_VERSION) into a
 * newly allocated array of runs, one per element of "runs", in file order.
 * Files over BR_RESULTS_MAX_BYTES are refused. See br_results_parse for what
 * is checked and rebuilt. On success *out_runs (owned by the caller: release
 * it with br_results_free(*out_runs, *out_n)) and *out_n are set and 0 is
 * returned; a document with no runs gives *out_runs NULL and *out_n 0. On
 * failure returns -1 with the error set ("PATH: cannot open: ...",
 * "PATH:LINE:COLUMN: <jansson's message>" for a syntax error, "PATH: JSON.PATH:
 * expected ..., found ..." for a bad value), *out_runs NULL and *out_n 0.
 * Memory: the runs, the file's text and the jansson tree of one case (the
 * document is parsed without its cases, then case by case: case_spans.h,
 * each case's per-sample columns lifted out of its text first:
 * case_columns.h; a document of another shape, or with an error, is parsed
 * whole). */
int br_results_load(br_run **out_runs, size_t *out_n, const char *path);

/* Same as br_results_load from `len` bytes at `text` (NUL-terminated; at most
 * BR_RESULTS_MAX_BYTES); `name` stands for the file in error messages (NULL:
 * "<input>").
 *
 * Parsed with jansson (duplicate keys rejected). Checked: schema_version (an
 * integer in BR_SCHEMA_VERSION_MIN .. BR_SCHEMA_VERSION), the type of every
 * value read, integer ranges of the C fields, enum names (the inverses of
 * br_metric_name, br_cache_name, br_mode_name, br_peak_kind_name,
 * br_backend_name, br_status_name, br_stop_name), that param and kernel names
 * are unique, that each case names a kernel of its run and gives every run
 * param as an integer, that samples are finite numbers > 0 and SM clocks
 * parallel to them. From schema 4 on: a timing's "clock" is required
 * (br_clock_name's names); its "event_ns", "kernel_ns", "span_ns" and "ops"
 * are optional but, when present, hold one value per sample (event_ns finite
 * numbers, the others numbers or null, read as NAN); each "breakdown" entry
 * has a string "name", a "kind" of br_op_kind_name's names and a count
 * (per_execution, median_ns and share numbers or null); the run's
 * "gpu_clock" ("events" or "kernel") and "clock_note" are optional (events,
 * NULL). In a schema-2 or -3 document these keys are not read: its runs get
 * BR_CLOCK_EVENTS and no note, its timings BR_CLOCK_EVENTS in a GPU case and
 * BR_CLOCK_MONOTONIC in a host one, and no GPU-clock data. The FP32 peak
 * (the device's "peak_gflops_fp32" and the run's "peak"."gflops", GFLOP/s)
 * is optional at every schema version (older files lack it): absent or null,
 * it is NAN, and br_run_derive then gives the run the device's. Statistics are
 * recomputed from the samples (br_stats_compute), the medians of the GPU-clock
 * arrays from their finite values (br_stats_finite_median), combos numbered by
 * first appearance of each param vector, and gbps / gflops / pct_peak /
 * speedup recomputed (br_run_derive); the written figures are not read. Clocks written in MHz
 * become kHz where the model keeps kHz. A case's commit and date are kept only where they differ
 * from the run's git.sha and date. Null and absent optional values become NAN
 * (numbers), NULL or "" (strings), 0 (counts, flags), has_device 0 (device),
 * and a schema-2 run (no "regression") gets BR_DEFAULT_REGRESSION_THRESHOLD /
 * _ALPHA. Unknown keys (e.g. "comparison") are ignored: the loaded runs have
 * comparison NULL. Returns and owns as br_results_load. */
int br_results_parse(br_run **out_runs, size_t *out_n, const char *text, size_t len,
                     const char *name);

/* br_results_parse of the whole document at once, never case by case: the
 * same runs, or the same error, as br_results_parse gives (for the tests
 * and the fuzz target that check the case-by-case reader against it). */
int br_results_parse_whole(br_run **out_runs, size_t *out_n, const char *text, size_t len,
                           const char *name);

/* Dispose each of the n runs (br_run_dispose) and free the array; accepts
 * NULL. */
void br_results_free(br_run *runs, size_t n);

#ifdef __cplusplus
}
#endif
#endif
