/* SPDX-License-Identifier: Apache-2.0 */
/* The libyaml event stream as a tree of positioned nodes (see
 * yamltree.h). */
#include "yamltree.h"

#include <stdio.h>
#include <stdlib.h>

void br_node_free(br_node *n) {
    if (!n)
        return;
    for (size_t i = 0; i < n->n_items; i++)
        br_node_free(n->items[i]);
    free(n->items);
    free(n->text);
    free(n);
}

static int append(br_node *parent, br_node *child) {
    if (parent->n_items == parent->cap_items) {
        size_t cap = parent->cap_items ? 2 * parent->cap_items : 8;
        br_node **items = realloc(parent->items, cap * sizeof *items);
        if (!items)
            return -1;
        parent->items = items;
        parent->cap_items = cap;
    }
    parent->items[parent->n_items++] = child;
    return 0;
}

const br_node *br_map_find(const br_node *m, const char *key) {
    for (size_t i = 0; i < br_map_size(m); i++)
        if (br_key_is(br_map_key(m, i), key))
            return br_map_value(m, i);
    return NULL;
}

/* ---------------------------------------------------------------------------
 * Reading the file and building the tree
 */

static br_pos mark_pos(const char *path, yaml_mark_t m) {
    br_pos p = {path, 0, 0};
    p.line = m.line >= 1000000000u ? 1000000000 : (int)m.line + 1;
    p.column = m.column >= 1000000000u ? 1000000000 : (int)m.column + 1;
    return p;
}

/* Line and column (in characters, like libyaml's marks) of byte `offset`. */
static br_pos offset_pos(const char *path, const unsigned char *buf, size_t len, size_t offset) {
    br_pos p = {path, 1, 1};
    if (offset > len)
        offset = len;
    for (size_t i = 0; i < offset; i++) {
        unsigned char c = buf[i];
        if (c == '\n' || (c == '\r' && !(i + 1 < len && buf[i + 1] == '\n'))) {
            p.line++;
            p.column = 1;
        } else if ((c & 0xC0) != 0x80 && c != '\r') {
            p.column++;
        }
    }
    return p;
}

/* Report the parser's error. Returns -1. */
static int yaml_failure(const char *path, const yaml_parser_t *yp, const unsigned char *buf,
                        size_t len) {
    const char *problem = yp->problem ? yp->problem : "invalid YAML";
    br_pos at = {path, 1, 1};
    switch (yp->error) {
    case YAML_MEMORY_ERROR:
        return br_error_at(at, "out of memory while parsing");
    case YAML_READER_ERROR:
        at = offset_pos(path, buf, len, yp->problem_offset);
        if (strstr(problem, "octet") && yp->problem_value >= 0)
            return br_error_at(at, "%s (byte 0x%02X): a suite must be UTF-8", problem,
                               (unsigned)yp->problem_value & 0xFFu);
        if (yp->problem_value >= 0)
            return br_error_at(at, "%s (U+%04X)", problem, (unsigned)yp->problem_value);
        return br_error_at(at, "%s", problem);
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
    default:
        at = mark_pos(path, yp->problem_mark);
        if (yp->context) {
            br_pos c = mark_pos(path, yp->context_mark);
            if (c.line != at.line || c.column != at.column)
                return br_error_at(at, "%s (%s at %d:%d)", problem, yp->context, c.line, c.column);
        }
        return br_error_at(at, "%s", problem);
    }
}

/* Reject what a suite does not use: anchors, aliases and tags. */
static int check_props(const char *path, const yaml_event_t *ev) {
    const yaml_char_t *anchor = NULL, *tag = NULL;
    if (ev->type == YAML_SCALAR_EVENT) {
        anchor = ev->data.scalar.anchor;
        tag = ev->data.scalar.tag;
    } else if (ev->type == YAML_SEQUENCE_START_EVENT) {
        anchor = ev->data.sequence_start.anchor;
        tag = ev->data.sequence_start.tag;
    } else if (ev->type == YAML_MAPPING_START_EVENT) {
        anchor = ev->data.mapping_start.anchor;
        tag = ev->data.mapping_start.tag;
    }
    if (anchor || ev->type == YAML_ALIAS_EVENT)
        return br_error_at(mark_pos(path, ev->start_mark),
                           "anchors and aliases are not supported in suites");
    if (tag)
        return br_error_at(mark_pos(path, ev->start_mark), "tags are not supported in suites");
    return 0;
}

/* The tree under construction: the open mappings and lists, innermost last. */
typedef struct reader {
    const char *path;
    br_node *root;
    br_node *stack[BR_YAML_MAX_DEPTH + 1];
    int depth;
    int documents;
} reader;

/* A node for a scalar, sequence-start or mapping-start event, appended to
 * the innermost open collection (or made the root). */
static int add_node(reader *r, const yaml_event_t *ev, br_pos at) {
    if (ev->type != YAML_SCALAR_EVENT && r->depth >= BR_YAML_MAX_DEPTH)
        return br_error_at(at, "nesting deeper than %d levels", BR_YAML_MAX_DEPTH);
    br_node *n = calloc(1, sizeof *n);
    if (!n)
        return br_error_at(at, "out of memory");
    n->pos = at;
    if (ev->type == YAML_SCALAR_EVENT) {
        n->kind = BR_NODE_SCALAR;
        n->style = ev->data.scalar.style;
        n->len = ev->data.scalar.length;
        n->end_line = mark_pos(r->path, ev->end_mark).line;
        n->text = malloc(n->len + 1);
        if (n->text) {
            memcpy(n->text, ev->data.scalar.value, n->len);
            n->text[n->len] = '\0';
        }
    } else {
        n->kind = ev->type == YAML_MAPPING_START_EVENT ? BR_NODE_MAP : BR_NODE_SEQ;
    }
    if ((n->kind == BR_NODE_SCALAR && !n->text) ||
        (r->depth > 0 && append(r->stack[r->depth - 1], n) < 0)) {
        br_node_free(n);
        return br_error_at(at, "out of memory");
    }
    if (r->depth == 0)
        r->root = n;
    if (n->kind != BR_NODE_SCALAR)
        r->stack[r->depth++] = n;
    return 0;
}

/* One event into the tree. Returns 1 at the end of the stream, 0 to go on,
 * -1 with the error set. */
static int take_event(reader *r, const yaml_event_t *ev) {
    br_pos at = mark_pos(r->path, ev->start_mark);
    if (check_props(r->path, ev) < 0)
        return -1;
    switch (ev->type) {
    case YAML_STREAM_END_EVENT:
        return 1;
    case YAML_DOCUMENT_START_EVENT:
        if (++r->documents > 1)
            return br_error_at(at, "a suite file holds one YAML document, found a second one");
        return 0;
    case YAML_SCALAR_EVENT:
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        return add_node(r, ev, at);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (r->depth > 0)
            r->depth--;
        return 0;
    default:
        return 0;
    }
}

/* See yamltree.h. */
int br_yaml_read(br_node **out, const char *path, const unsigned char *buf, size_t len) {
    reader r = {.path = path};
    yaml_parser_t yp;
    yaml_event_t ev;
    int rc = 0;

    *out = NULL;
    if (!yaml_parser_initialize(&yp))
        return br_error_at((br_pos){path, 0, 0}, "out of memory");
    yaml_parser_set_encoding(&yp, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&yp, buf, len);
    while (rc == 0) {
        if (!yaml_parser_parse(&yp, &ev)) {
            rc = yaml_failure(path, &yp, buf, len);
            break;
        }
        rc = take_event(&r, &ev);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&yp);
    if (rc < 0) {
        br_node_free(r.root);
        return -1;
    }
    *out = r.root;
    return 0;
}
