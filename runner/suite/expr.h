/* SPDX-License-Identifier: Apache-2.0 */
/* Integer expressions over suite parameters: arithmetic (bytes,
 * flops) and conditions (`where:`).
 *
 * Grammar (C's precedence, lowest first; `^` binds tightest and is
 * right-associative):
 *   expr   := and ('||' and)*
 *   and    := cmp ('&&' cmp)*
 *   cmp    := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
 *   sum    := term  (('+' | '-') term)*
 *   term   := unary (('*' | '/' | '%') unary)*
 *   unary  := '-' unary | '!' unary | power
 *   power  := atom ('^' unary)?
 *   atom   := INTEGER | NAME | '(' expr ')'
 * Arithmetic is on signed 64-bit integers; `/` truncates toward zero.
 * Comparisons and logical operators give 1 or 0; `&&` and `||`
 * short-circuit (the operand they skip is checked, not computed).
 * Comparisons do not chain (`a < b < c` is an error).
 * Overflow, division (or `%`) by zero and negative exponents are errors.
 */
#ifndef BR_EXPR_H
#define BR_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A name and its value while an expression is evaluated (name borrowed). */
typedef struct br_binding {
    const char *name;
    int64_t value;
} br_binding;

/* Evaluate `text` with the given bindings into *out.
 * `pos` is where text[0] stands in its file; an error points at the column of
 * the offending token (pos.column + its offset, the text being one line).
 * Returns 0, or -1 with the last error set, e.g.
 *   suites/x.yaml:9:14: unknown name 'm' in expression (parameters: n)
 * With vars == NULL and n_vars == 0 only constants are allowed. */
int br_expr_eval(int64_t *out, const char *text, br_pos pos, const br_binding *vars, size_t n_vars);

/* Check that `text` parses and uses only the given names, without evaluating
 * (so no overflow or division errors). Returns 0 or -1 with the error set. */
int br_expr_check(const char *text, br_pos pos, const char *const *names, size_t n_names);

#ifdef __cplusplus
}
#endif
#endif
