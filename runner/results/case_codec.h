/* SPDX-License-Identifier: Apache-2.0 */
/* One case's result as a typed message: what the worker
 * process sends its parent (measure/). Written and read by the same per-case
 * writer and reader as the results document (case_json.h), so a case crosses
 * the process boundary in the document's own form:
 *
 *   {"schema_version": BR_SCHEMA_VERSION, "case": <a case object of a results
 *    document (run_write.c), with "kernel": "" and "params": {}>}
 *
 * compact, reals with 17 significant digits (every double round-trips). */
#ifndef BR_CASE_CODEC_H
#define BR_CASE_CODEC_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Case *c, of a kernel of backend `backend`, as a message into a newly
 * allocated NUL-terminated text *out_text of *out_len bytes (without the
 * NUL; the caller frees it). Written: status, stage, message, bytes, flops,
 * commit and date (when set), and, for an OK case, its cold and batch timings
 * that are present (samples, SM clocks, the event/kernel/span/ops arrays,
 * breakdown, stop reason, counts and wall times; not-finite numbers as null).
 * c->kernel, params and combo are not written. Returns 0, or -1 with the
 * error set ("out of memory building JSON") and *out_text NULL. */
int br_case_encode(char **out_text, size_t *out_len, const br_case_result *c, br_backend backend);

/* The message of len bytes at text (from br_case_encode) into *out, which
 * the caller disposes with br_case_dispose (also after a failure). Read back:
 * status, stage, message, bytes, flops, commit, date, and the cold and batch
 * timings, checked as br_results_parse checks a case and with their
 * statistics (br_stats_compute) and medians recomputed from the samples;
 * out->kernel 0, combo 0, params an empty allocation, the derived figures
 * (gbps, gflops, pct_peak, speedup) NAN. *out_backend (may be NULL) gets the
 * case's backend. `name` stands for the message in errors (NULL:
 * "<input>"). Returns 0, or -1 with the error set ("NAME: PATH: expected
 * ..., found ...", "NAME:LINE:COLUMN: <jansson's message>"). */
int br_case_decode(br_case_result *out, br_backend *out_backend, const char *text, size_t len,
                   const char *name);

#ifdef __cplusplus
}
#endif
#endif
