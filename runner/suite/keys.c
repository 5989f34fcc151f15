/* SPDX-License-Identifier: Apache-2.0 */
/* keys.c - reading a mapping through a key table (see keys.h). */
#include "keys.h"

#include "scalar.h"

#include <stdbool.h>
#include <string.h>

int br_keys_check(const br_node *m, const char *const *valid, size_t n_valid, const char *where) {
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
        for (size_t j = 0; j < i; j++) {
            const br_node *o = br_map_key(m, j);
            if (o->kind == BR_NODE_SCALAR && o->len == k->len &&
                memcmp(o->text, k->text, k->len) == 0)
                return br_error_at(k->pos, "duplicate key %s%s (first at %d:%d)", q, where,
                                   o->pos.line, o->pos.column);
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
