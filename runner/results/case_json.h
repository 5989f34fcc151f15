/* SPDX-License-Identifier: Apache-2.0 */
/* Inside results/: the per-case writer and reader that the
 * results document (run_write.c, run_read.c) and the worker's case message
 * (case_codec.c) share, so that one codec writes and reads a case. */
#ifndef BR_JSON_CASE_H
#define BR_JSON_CASE_H

#include <stddef.h>

#include <jansson.h>

#include "case_columns.h"
#include "json_checked.h"
#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the results document is dumped: 2-space indent, keys in the order
 * written, reals with 17 significant digits. */
#define BR_JSON_DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/* Building state: `failed` is set when jansson could not allocate. */
typedef struct br_json_builder {
    int failed;
} br_json_builder;

/* A kernel name and its index in br_run.kernels; the reader looks a case's
 * kernel up in an array of these sorted by name (strcmp). */
typedef struct br_json_name_index {
    const char *name;
    size_t index;
} br_json_name_index;

/* Case *c of run *r as the JSON object of a results document's "cases"
 * (layout in run_write.c): new reference, or NULL (and b->failed set) when
 * out of memory. Reads r's kernels, param names, git SHA and date. */
json_t *br_json_case_write(br_json_builder *b, const br_run *r, const br_case_result *c);

/* The case object o into *k (zeroed by the caller; partly filled on failure,
 * for the caller to dispose with r): its kernel is looked up in `sorted`
 * (r->n_kernels entries), its params are r's, its timings recomputed from the
 * samples (c->schema says which keys are read). `cols` (NULL: none) holds
 * the per-sample columns lifted out of the text o was parsed from: where o
 * has an empty array in a lifted column's place, the column's numbers are
 * read instead. Returns 0, or -1 with the error set (json_checked.h). */
int br_json_case_read(br_json_ctx *c, const json_t *o, br_run *r, const br_json_name_index *sorted,
                      const br_case_columns *cols, br_case_result *k);

#ifdef __cplusplus
}
#endif
#endif
