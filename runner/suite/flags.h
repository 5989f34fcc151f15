/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler keys of a suite, cflags, nvcc_flags and
 * include_dirs (internal to suite/). What they mean is described at the
 * members of br_suite in suite.h. */
#ifndef BR_SUITE_FLAGS_H
#define BR_SUITE_FLAGS_H

#include <stddef.h>

#include "suite.h"
#include "yamltree.h"

/* `cflags:` or `nvcc_flags:` (`key`, for messages) v: a string or a list of
 * strings, each one argument of the compiler's command line, into
 * *out[0..*n) (owned by the suite, freed by br_suite_dispose also after a
 * failure). Refused, at the item: a null or a mapping, an empty or
 * multi-line string, and a flag that takes the output away from benchrun
 * (-o, -c, -E, -S, -M, -MM, -MF; for nvcc also --output-file, --compile,
 * --preprocess, -ptx, -cubin, -fatbin), with the reason. Returns 0, or -1
 * with the error set. */
int br_flags_load(br_located **out, size_t *n, const br_node *v, const char *key);

/* `include_dirs:` v: a path or a list of paths, each resolved against
 * s->dir, into s->include_dirs. Each must exist and be a directory
 * ("include directory 'x' does not exist", "... is not a directory", at the
 * item); none twice. Returns 0, or -1 with the error set. */
int br_include_dirs_load(br_suite *s, const br_node *v);

#endif
