/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a mapping through a key table (see keys.h). */
#include "keys.h"

#include "base/sort.h"
#include "scalar.h"

#include <stdbool.h>
#include <string.h>

/* br_item_cmp of two keys of a mapping (ctx): by their text; a key that is
 * not a scalar sorts first, equal to none. */
static int cmp_key(size_t i, size_t j, void *ctx) {
    const br_node *a = br_map_key(ctx, i), *b = br_map_key(ctx, j);
    int sa = a->kind == BR_NODE_SCALAR, sb = b->kind == BR_NODE_SCALAR;
    if (!sa || !sb)
        return sa - sb ? sa - sb : (i > j) - (i < j);
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->text, b->text, n);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

int br_keys_check(const br_node *m, const char *const *valid, size_t n_valid, const char *where) {
    /* The first key that repeats an earlier one, found by sorting (a
     * mapping of 100,000 keys is checked in milliseconds); the errors are
     * still those of the first bad key in the file's order. */
    size_t again = (size_t)-1, first = 0;
    int rep = br_find_repeat(&again, &first, br_map_size(m), cmp_key, (void *)m);
    if (rep < 0)
        return br_error_at(m->pos, "out of memory");
    if (!rep)
        again = (size_t)-1;
    for (size_t i = 0; i < br_map_size(m); i++) {
        const br_node *k = br_map_key(m, i);
        if (k->kind != BR_NODE_SCALAR)
            return br_expected(k, "a key name");
        char q[BR_SHOW_MAX + 16];
        br_show(q, sizeof q, k->text, k->len);
        if (valid) {
            bool known = false;
            for (size_t j = 0; j < n_valid && !known; j++)
                known = br_key_is(k, valid[j]);
            if (!known) {
                char hint[512];
                br_suggest(hint, sizeof hint, k->text, k->len, valid, n_valid);
                return br_error_at(k->pos, "unknown key %s%s%s", q, where, hint);
            }
        }
        if (i == again) {
            const br_node *o = br_map_key(m, first);
            return br_error_at(k->pos, "duplicate key %s%s (first at %d:%d)", q, where, o->pos.line,
                               o->pos.column);
        }
    }
    return 0;
}

int br_keys_load(void *ctx, const br_node *m, const br_key_spec *keys, size_t n_keys,
                 const char *where) {
    const char *names[BR_KEYS_MAX] = {0};
    if (n_keys > BR_KEYS_MAX)
        return br_error_at(m->pos, "internal error: key table too long");
    for (size_t i = 0; i < n_keys; i++)
        names[i] = keys[i].name;
    if (br_keys_check(m, names, n_keys, where) < 0)
        return -1;
    for (size_t i = 0; i < n_keys; i++)
        if (keys[i].required && !br_map_find(m, keys[i].name))
            return br_error_at(m->pos, "missing required key '%s'", keys[i].name);
    for (size_t i = 0; i < br_map_size(m); i++) {
        const br_node *k = br_map_key(m, i);
        for (size_t j = 0; j < n_keys; j++)
            if (br_key_is(k, keys[j].name) && keys[j].load &&
                keys[j].load(ctx, br_map_value(m, i)) < 0)
                return -1;
    }
    return 0;
}
