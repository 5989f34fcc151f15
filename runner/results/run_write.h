/* SPDX-License-Identifier: Apache-2.0 */
/* Write runs as the versioned results document (schema
 * BR_SCHEMA_VERSION; layout at the top of run_write.c). It is the "json"
 * reporter's output (reporters/json.c is an adapter over it) and the format
 * of baselines; run_read.h reads it back. */
#ifndef BR_JSON_WRITE_H
#define BR_JSON_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write one JSON document holding the n_runs runs to f (2-space indent, an
 * array of numbers on one line, keys in the documented order, reals with 17
 * significant digits, not-finite numbers and absent values as null), ending
 * in a newline. Cases are built and written one at a time. Returns 0, or -1
 * with the error set ("out of memory building JSON", "cannot write JSON:
 * <strerror>"). */
int br_results_write(FILE *f, const br_run *const *runs, size_t n_runs);

#ifdef __cplusplus
}
#endif
#endif
