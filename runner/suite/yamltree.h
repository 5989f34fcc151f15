/* SPDX-License-Identifier: Apache-2.0 */
/* A YAML suite file as a small tree of nodes that keep their
 * file positions (internal to suite/).
 *
 * br_yaml_read turns the libyaml event stream into the tree and refuses on
 * the way what a suite never uses: anchors, aliases, tags, nesting deeper
 * than BR_YAML_MAX_DEPTH and a second document. Errors are set with
 * br_error_at at the line and column of the offending text.
 */
#ifndef BR_SUITE_YAMLTREE_H
#define BR_SUITE_YAMLTREE_H

#include "base/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <yaml.h>

/* Deepest nesting of mappings and lists accepted. */
#define BR_YAML_MAX_DEPTH 32

typedef enum br_node_kind { BR_NODE_SCALAR, BR_NODE_SEQ, BR_NODE_MAP } br_node_kind;
typedef struct br_node {
    br_node_kind kind;
    br_pos pos;   /* where the node starts: first character, quote, '[', '{', '-' or first key */
    int end_line; /* scalars: line where the scalar ends */
    yaml_scalar_style_t style; /* scalars */
    char *text;                /* scalars: owned, NUL-terminated, may hold NULs */
    size_t len;                /* scalars: length of text */
    struct br_node **items;    /* seq: elements; map: key, value, key, value, ... */
    size_t n_items;
    size_t cap_items;
} br_node;

/* Parse buf[0..len) (UTF-8, no byte order mark) into a tree; `path` names
 * the file in positions and must outlive the tree. *out is the root, owned
 * by the caller (br_node_free), or NULL for a stream with no document.
 * Returns 0, or -1 with the error set (*out NULL). */
int br_yaml_read(br_node **out, const char *path, const unsigned char *buf, size_t len);

/* Free a node and everything under it; accepts NULL. */
void br_node_free(br_node *n);

/* A mapping's entries: key and value of entry i < br_map_size(m). */
static inline size_t br_map_size(const br_node *m) {
    return m->n_items / 2;
}
static inline br_node *br_map_key(const br_node *m, size_t i) {
    return m->items[2 * i];
}
static inline br_node *br_map_value(const br_node *m, size_t i) {
    return m->items[2 * i + 1];
}

/* Whether the scalar key k is exactly `name`. */
static inline bool br_key_is(const br_node *k, const char *name) {
    return strlen(name) == k->len && memcmp(k->text, name, k->len) == 0;
}

/* The value of key `key` in mapping m, or NULL. */
const br_node *br_map_find(const br_node *m, const char *key);

#endif
