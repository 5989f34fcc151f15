/* SPDX-License-Identifier: Apache-2.0 */
/* One table per enum, read both ways: value -> the name suites,
 * the command line and results files use, and name -> value. The model is
 * libgit2's git_object_type2string / git_object_string2type (object.c).
 * A table is an array of br_name ended by an entry whose name is NULL. */
#ifndef BR_NAME_H
#define BR_NAME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_name {
    int value;
    const char *name; /* static; NULL ends the table */
} br_name;

/* The name of `value` in table t (static), or `otherwise` when the table
 * has no such value. */
const char *br_name_of(const br_name *t, int value, const char *otherwise);

/* The value named `text` (exact, case-sensitive) into *out. Returns 0, or
 * -1 when no entry has that name (*out untouched; no error is set: the
 * caller knows where the text stood). */
int br_name_find(int *out, const br_name *t, const char *text);

#ifdef __cplusplus
}
#endif
#endif
