/* SPDX-License-Identifier: Apache-2.0 */
/* Checked access to a jansson document: every value read is
 * type-checked, and an error names the file, the JSON path of the bad value
 * (runs[0].cases[3].cold.samples_ns[7]) and what was expected. Errors in the
 * structure (a missing key) name the path of the object that lacks it. The
 * reader holds the path it is at in a small buffer (br_json_ctx.path) that
 * grows and shrinks as it descends. Used by the results reader (run_read.c)
 * and the case codec (case_codec.c). Every function returning int returns 0,
 * or -1 with the error set ("NAME: PATH: message"). */
#ifndef BR_JSONREAD_H
#define BR_JSONREAD_H

#include <stddef.h>

#include <jansson.h>

#include "base/name.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a key must be present (and not null). */
enum { BR_JSON_OPT = 0, BR_JSON_REQ = 1 };

/* Reading state: the file name for messages, the JSON path of the value being
 * read (truncated when very deep or long), the schema version of the file. */
typedef struct br_json_ctx {
    const char *name;
    char path[512];
    size_t len;
    long long schema;
} br_json_ctx;

/* Append ".key" ("key" at the root); returns the length to restore with pop. */
size_t br_json_push_key(br_json_ctx *c, const char *key);

/* Append "[i]"; returns the length to restore with pop. */
size_t br_json_push_index(br_json_ctx *c, size_t i);

/* Cut the path back to the length `old` that a push returned. */
void br_json_pop(br_json_ctx *c, size_t old);

/* Set the error "NAME: PATH: message" ("NAME: message" at the root). Returns -1. */
__attribute__((format(printf, 2, 3))) int br_json_fail(const br_json_ctx *c, const char *fmt, ...);

/* br_json_fail() with `key` appended to the path. */
__attribute__((format(printf, 3, 4))) int br_json_fail_key(br_json_ctx *c, const char *key,
                                                           const char *fmt, ...);

/* What kind of JSON value v is, for "found ..." (an article included). */
const char *br_json_kind(const json_t *v);

/* `s` quoted for a message: at most 60 bytes (cut at a character boundary,
 * "..." added), control characters and quotes shown as '?'. */
void br_json_quoted(char *buf, size_t size, const char *s);

/* obj[key] in *out; NULL when absent, or null and the key is optional. A
 * required key that is absent is an error naming obj's path. */
int br_json_member(br_json_ctx *c, const json_t *obj, const char *key, int req, json_t **out);

/* obj[key] as an object or array (`type`); *out NULL when optional and
 * absent or null. */
int br_json_get_container(br_json_ctx *c, const json_t *obj, const char *key, int req,
                          json_type type, json_t **out);

/* obj[key] as a string borrowed from the document; NULL when optional and
 * absent or null. */
int br_json_get_string(br_json_ctx *c, const json_t *obj, const char *key, int req,
                       const char **out);

/* obj[key] as a newly allocated string (NULL when optional and absent or null). */
int br_json_get_dup(br_json_ctx *c, const json_t *obj, const char *key, int req, char **out);

/* The string v as a name (a suite's, a kernel's, a param's): not empty,
 * without control characters, bidirectional controls or bytes that are not
 * UTF-8 (base/text.h), a NUL included; a newly allocated copy into *out.
 * The error names c's current path. */
int br_json_name_value(br_json_ctx *c, const json_t *v, char **out);

/* obj[key] (required) as a name, as br_json_name_value reads it. */
int br_json_get_label(br_json_ctx *c, const json_t *obj, const char *key, char **out);

/* obj[key] copied into buf[size] ("" when absent or null). */
int br_json_get_text(br_json_ctx *c, const json_t *obj, const char *key, char *buf, size_t size);

/* A number (integer or real) in *out, with what was found for a message. */
int br_json_number_value(br_json_ctx *c, const json_t *v, double *out);

/* obj[key] as a number; NAN when optional and absent or null. */
int br_json_get_number(br_json_ctx *c, const json_t *obj, const char *key, int req, double *out);

/* The integer v in [lo, hi] into *out; the error names c's current path. */
int br_json_int_value(br_json_ctx *c, const json_t *v, long long lo, long long hi, long long *out);

/* obj[key] as an integer in [lo, hi]; `dflt` when optional and absent or null. */
int br_json_get_int(br_json_ctx *c, const json_t *obj, const char *key, int req, long long lo,
                    long long hi, long long dflt, long long *out);

/* obj[key] as an int in [lo, hi] (0 when absent or null). */
int br_json_get_cint(br_json_ctx *c, const json_t *obj, const char *key, int lo, int hi, int *out);

/* obj[key] as a count (a non-negative integer that fits size_t; 0 when
 * optional and absent or null). */
int br_json_get_size(br_json_ctx *c, const json_t *obj, const char *key, int req, size_t *out);

/* obj[key] as a count; 0 when absent or null. */
int br_json_get_count(br_json_ctx *c, const json_t *obj, const char *key, size_t *out);

/* obj[key] as a boolean: 1 / 0, or `if_null` when absent or null. */
int br_json_get_bool(br_json_ctx *c, const json_t *obj, const char *key, int if_null, int *out);

/* obj[key] as one of n names (names[i] stands for values[i]); `dflt` when
 * optional and absent or null. */
int br_json_get_enum(br_json_ctx *c, const json_t *obj, const char *key, int req,
                     const char *const *names, const int *values, size_t n, int dflt, int *out);

/* Most names br_json_get_name reads from one table. */
#define BR_JSON_MAX_NAMES 16

/* obj[key] as one of the names of table t (base/name.h), its value into
 * *out; `dflt` when optional and absent or null. `only` (NULL: every entry
 * of t, in table order) lists the n_only values accepted, in the order a
 * message lists their names (at most BR_JSON_MAX_NAMES), as br_json_get_enum
 * does. */
int br_json_get_name(br_json_ctx *c, const json_t *obj, const char *key, int req, const br_name *t,
                     const int *only, size_t n_only, int dflt, int *out);

#ifdef __cplusplus
}
#endif
#endif
