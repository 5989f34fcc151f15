/* SPDX-License-Identifier: Apache-2.0 */
/* The per-sample columns of a case (its timings' samples_ns, sm_mhz_samples
 * and the like), lifted out of the case's text before jansson parses it:
 * they are most of a results document's numbers, and jansson makes a json_t
 * (a malloc) of each (issue 43). A column is lifted only when it is an array
 * of plain JSON numbers, read here to the same double jansson reads (an
 * integer converted from its long long, a real by strtod or by Clinger's
 * exact fast path); any other value in it, a number jansson would reject or
 * one too long, and it stays in the text for jansson. The members that the
 * case's reader does not read (its timings' statistics, recomputed from the
 * samples; its rates, derived from the run) are left out of the text too,
 * when their value is a number or a literal. */
#ifndef BR_RESULTS_CASE_COLUMNS_H
#define BR_RESULTS_CASE_COLUMNS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The columns that can be lifted: the keys of a timing's member arrays. */
typedef enum br_case_column {
    BR_COLUMN_SAMPLES_NS,
    BR_COLUMN_SM_MHZ,
    BR_COLUMN_CPU_MHZ,
    BR_COLUMN_SWITCHES,
    BR_COLUMN_EVENT_NS,
    BR_COLUMN_KERNEL_NS,
    BR_COLUMN_SPAN_NS,
    BR_COLUMN_OPS,
    BR_COLUMN_RUN_MEDIANS,
    BR_COLUMN_COUNT
} br_case_column;

/* The key of each column ("samples_ns", ...). */
extern const char *const br_case_column_keys[BR_COLUMN_COUNT];

/* The timings whose columns are lifted: the case's "cold" and "batch". */
enum { BR_COLUMN_COLD, BR_COLUMN_BATCH, BR_COLUMN_TIMINGS };

/* One case's text with its lifted columns: `text` (len bytes) is the case's
 * text with each lifted array written as [] and the unread members left out
 * (or the case's text itself when nothing was changed); the numbers of column k of timing t are
 * v[at[t][k], at[t][k] + n[t][k]) (n 0: not lifted). Reused from case to
 * case; zero-initialise, free with br_case_columns_free. */
typedef struct br_case_columns {
    const char *text;
    size_t len;
    size_t at[BR_COLUMN_TIMINGS][BR_COLUMN_COUNT], n[BR_COLUMN_TIMINGS][BR_COLUMN_COUNT];
    double *v; /* owned */
    size_t n_v, v_cap;
    char *buf; /* owned: the text when something was lifted */
    size_t buf_cap;
} br_case_columns;

/* Lift the columns of the case text[0..len) (one JSON value; borrowed, and
 * c->text may point into it) into *c: the arrays of plain numbers that are
 * members of its top-level members "cold" and "batch" (objects) under the
 * keys of br_case_column_keys, at most one per key; and leave out the
 * members the reader does not read (never an object's last). When the text
 * is not an object of that shape (or not JSON), or a key of the case or of a
 * timing has an escape, or an unread key comes twice, nothing is changed and
 * jansson reports what is wrong. The text as changed is JSON exactly when
 * the case's text is, and jansson reads the same document from it but for
 * the lifted arrays (empty) and the members left out. Returns 0, or -1 out
 * of memory (error set). */
int br_case_columns_lift(br_case_columns *c, const char *text, size_t len);

/* The lifted numbers of column k of timing t, their count in *n (NULL and 0
 * when that column was not lifted). */
const double *br_case_columns_get(const br_case_columns *c, int t, br_case_column k, size_t *n);

/* Free what c owns (c itself is the caller's); accepts NULL. */
void br_case_columns_free(br_case_columns *c);

#ifdef __cplusplus
}
#endif
#endif
