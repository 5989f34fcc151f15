/* SPDX-License-Identifier: Apache-2.0 */
/* A mapping of a suite read through a key table (internal to
 * suite/), the way curl reads its options through aliases[]:
 *
 *   static const br_key_spec root_keys[] = {{"name", load_name, 1}, ...};
 *   br_keys_load(&ctx, root, root_keys, COUNT(root_keys), "");
 *
 * The table's order is the order the "expected one of" message lists the keys.
 */
#ifndef BR_SUITE_KEYS_H
#define BR_SUITE_KEYS_H

#include "yamltree.h"

#include <stddef.h>

/* Most keys one table may hold. */
#define BR_KEYS_MAX 32

/* Reads one key's value into ctx. Returns 0, or -1 with the error set. */
typedef int (*br_key_fn)(void *ctx, const br_node *value);

typedef struct br_key_spec {
    const char *name; /* the key, static */
    br_key_fn load;   /* NULL: accepted, read by the caller */
    int required;     /* 1: "missing required key" when absent */
} br_key_spec;

/* Check mapping m's keys: each a scalar, one of valid[0..n_valid) (any key
 * when valid is NULL), none twice. `where` names the mapping in messages
 * (" in measure"; "" at the top level). Returns 0, or -1 with the error set
 * at the key: "unknown key 'x'WHERE (did you mean 'y'?)" or "... (expected
 * one of: ...)", "duplicate key 'x'WHERE (first at L:C)", "expected a key
 * name, found ...". */
int br_keys_check(const br_node *m, const char *const *valid, size_t n_valid, const char *where);

/* Read mapping m through keys[0..n_keys) (n_keys <= BR_KEYS_MAX): check its
 * keys as br_keys_check does, then that every required key is there
 * ("missing required key 'x'" at the mapping), then call each present key's
 * load with ctx, in the file's order. Returns 0, or -1 with the error set. */
int br_keys_load(void *ctx, const br_node *m, const br_key_spec *keys, size_t n_keys,
                 const char *where);

#endif
