/* SPDX-License-Identifier: Apache-2.0 */
/* Typed scalars of a suite file (internal to suite/).
 *
 * Each reader takes a node of the tree (yamltree.h), checks it and stores
 * the value; on a wrong value it sets the error at the node's position with
 * a message that says what was expected and what was found, and returns -1.
 * The command line reads its values through the same readers (suite.h:
 * br_parse_duration, br_parse_fraction, br_parse_mode).
 */
#ifndef BR_SUITE_SCALAR_H
#define BR_SUITE_SCALAR_H

#include "base/name.h"
#include "base/text.h"
#include "suite.h"
#include "yamltree.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest user text quoted in a message, bytes. */
#define BR_SHOW_MAX 48

/* --- messages --- */

/* Quote user text s[0..len) into dst[0..cap): 'text', control bytes escaped,
 * text beyond BR_SHOW_MAX bytes cut at a character boundary with "...".
 * A dst of BR_SHOW_MAX + 16 bytes always holds it. */
void br_show(char *dst, size_t cap, const char *s, size_t len);

/* Like br_show for a scalar, but a plain number-like value (25, 1.5e9, 25ms,
 * 150%) is left unquoted. */
void br_show_node(char *dst, size_t cap, const br_node *n);

/* Sets "expected WHAT, found <what n is>" at n. Returns -1. */
int br_expected(const br_node *n, const char *what);

/* Into dst[0..cap): " (did you mean 'x'?)" when one of valid[0..n_valid) is
 * close to s[0..len) (edit distance), else " (expected one of: a, b, c)". */
void br_suggest(char *dst, size_t cap, const char *s, size_t len, const char *const *valid,
                size_t n_valid);

/* The names of table t, in its order, into out[0..cap); returns how many. */
size_t br_names_of(const char **out, size_t cap, const br_name *t);

/* --- what a scalar is --- */

/* A null: empty, ~, null, Null or NULL (plain style). */
bool br_is_null(const br_node *n);

/* A plain scalar YAML reads as a float: 1.5, 1e6, .inf, .nan */
bool br_looks_like_float(const br_node *n);

/* A C identifier: [A-Za-z_][A-Za-z0-9_]*. */
bool br_is_identifier(const char *s);

/* 0 when `text` (read from scalar n) is a good name (base/text.h,
 * br_name_check): not empty, at most BR_NAME_MAX bytes, without control
 * characters, bidirectional controls or bytes that are not UTF-8; else -1
 * with "WHAT 'x' is 300 bytes long (at most 128)" or
 * "WHAT 'x' holds a control character (U+009B) at byte 3" set at n. */
int br_check_name(const char *text, const br_node *n, const char *what);

/* 0 when `text` (read from scalar n) is a C identifier of at most
 * BR_NAME_MAX bytes; else -1 with "WHAT 'x' is not a C identifier (...)"
 * (or br_check_name's message) set at n. */
int br_check_identifier(const char *text, const br_node *n, const char *what);

/* Position of a scalar's text[0]: one past an opening quote. */
br_pos br_text_pos(const br_node *n);

/* A one-line scalar without NUL bytes (for an expression, so that columns
 * can be counted); `what` names it in the message. Returns 0 or -1. */
int br_check_one_line(const br_node *n, const char *what);

/* --- readers: 0, or -1 with the error set at the node --- */

/* A string (a non-null scalar without NUL bytes); `what` says what was
 * expected ("a string"). *out is a copy owned by the caller (NULL on error). */
int br_get_text(char **out, const br_node *n, const char *what);

/* A name of table t (br_get_text, `expected` as its what) into *out, its
 * value; a name whose value is `refused` (-1: none is) counts as unknown:
 * "unknown WHAT 'x'" at the node, with the closest name or the list of them
 * (br_suggest). */
int br_get_name(int *out, const br_node *n, const br_name *t, int refused, const char *what,
                const char *expected);

/* br_get_text with the position of the text (br_text_pos). */
int br_get_located(br_located *out, const br_node *n, const char *what);

/* An integer: a literal within int64_t, or a constant expression ("2^20"). */
int br_get_int(int64_t *out, const br_node *n);

/* A duration such as 25ms or 1.5s (ns, us, ms, s, m/min, h), into ns;
 * not negative, at most 1e9 s. */
int br_get_duration(double *out, const br_node *n);

/* "0.5%" or a plain number, strictly between 0 and 1 once read as a
 * fraction. `name` (the key or option) names it in the message. */
int br_get_fraction(double *out, const br_node *n, const char *name);

/* true/false, also yes/no and on/off as YAML 1.1 spells them; *out 1 or 0. */
int br_get_bool(int *out, const br_node *n);

/* cold or batch, or also both when `both_ok` (then the key is "mode", else
 * "headline" in messages). */
int br_get_mode(br_mode *out, const br_node *n, bool both_ok);

#endif
