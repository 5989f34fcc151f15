/* SPDX-License-Identifier: Apache-2.0 */
/* Integer arithmetic expressions over suite parameters (see expr.h).
 *
 * A recursive-descent parser that evaluates as it parses (or only checks, for
 * br_expr_check). Every error names the column of the offending token.
 */
#include "expr.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Deepest nesting of '(', unary '-' and '^' accepted (bounds the recursion). */
#define EXPR_MAX_DEPTH 200

typedef enum tok_kind { TOK_END, TOK_NUM, TOK_NAME, TOK_OP } tok_kind;

typedef struct parser {
    const char *text;
    size_t len;
    br_pos pos; /* where text[0] stands */
    bool eval;  /* compute values (br_expr_eval) or only check (br_expr_check) */
    const br_binding *vars;
    size_t n_vars;
    const char *const *names;
    size_t n_names;
    int depth;
    int skip; /* > 0 inside an operand that && or || has short-circuited */
    /* the current token */
    tok_kind kind;
    size_t start; /* offset of its first byte */
    size_t tlen;  /* its length in bytes */
} parser;

static br_pos pos_at(const parser *p, size_t offset) {
    br_pos q = p->pos;
    if (q.column > 0) {
        size_t col = (size_t)q.column + offset;
        q.column = col > 1000000000u ? 1000000000 : (int)col;
    }
    return q;
}

static bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Advance to the next token. Returns -1 on a character that starts none. */
static int next(parser *p) {
    size_t i = p->start + p->tlen;
    while (i < p->len && (p->text[i] == ' ' || p->text[i] == '\t'))
        i++;
    p->start = i;
    p->tlen = 0;
    if (i >= p->len) {
        p->kind = TOK_END;
        return 0;
    }
    char c = p->text[i];
    if (is_digit(c)) {
        size_t j = i;
        while (j < p->len && is_digit(p->text[j]))
            j++;
        p->kind = TOK_NUM;
        p->tlen = j - i;
        return 0;
    }
    if (is_name_start(c)) {
        size_t j = i;
        while (j < p->len && (is_name_start(p->text[j]) || is_digit(p->text[j])))
            j++;
        p->kind = TOK_NAME;
        p->tlen = j - i;
        return 0;
    }
    if (i + 1 < p->len) {
        static const char *const two[] = {"<=", ">=", "==", "!=", "&&", "||"};
        for (size_t t = 0; t < sizeof two / sizeof two[0]; t++) {
            if (c == two[t][0] && p->text[i + 1] == two[t][1]) {
                p->kind = TOK_OP;
                p->tlen = 2;
                return 0;
            }
        }
    }
    if (strchr("+-*/%^()<>!", c) != NULL) {
        p->kind = TOK_OP;
        p->tlen = 1;
        return 0;
    }
    unsigned char u = (unsigned char)c;
    if (u >= 0x80)
        return br_error_at(pos_at(p, i), "unexpected non-ASCII character in expression");
    if (u < 0x20 || u == 0x7f)
        return br_error_at(pos_at(p, i), "unexpected control character 0x%02X in expression",
                           (unsigned)u);
    return br_error_at(pos_at(p, i), "unexpected character '%c' in expression", c);
}

static bool is_op(const parser *p, char op) {
    return p->kind == TOK_OP && p->tlen == 1 && p->text[p->start] == op;
}

/* The current token is the two-character operator op ("<=", "&&", ...). */
static bool is_op2(const parser *p, const char *op) {
    return p->kind == TOK_OP && p->tlen == 2 && p->text[p->start] == op[0] &&
           p->text[p->start + 1] == op[1];
}

/* Values are computed: evaluating, and not in the operand that a && or ||
 * has already decided (which is parsed, its names bound, but not computed,
 * so `n > 0 && 64 / n > 1` never divides by zero). */
static bool computing(const parser *p) {
    return p->eval && p->skip == 0;
}

/* Longest token text shown in a message. */
#define SHOW_MAX 40

/* Describe the current token for "found ..." in a message. */
static void describe(char *dst, size_t cap, const parser *p) {
    if (p->kind == TOK_END)
        snprintf(dst, cap, "end of expression");
    else if (p->tlen > SHOW_MAX)
        snprintf(dst, cap, "'%.*s...'", SHOW_MAX, p->text + p->start);
    else
        snprintf(dst, cap, "'%.*s'", (int)p->tlen, p->text + p->start);
}

static int parse_expr(parser *p, int64_t *out);
static int parse_unary(parser *p, int64_t *out);

static int overflow(const parser *p, size_t at) {
    return br_error_at(pos_at(p, at), "integer overflow in '%c'", p->text[at]);
}

/* Value of a name: from the bindings (eval) or only its existence (check). */
static int lookup(parser *p, int64_t *out) {
    const char *tok = p->text + p->start;
    size_t n = p->eval ? p->n_vars : p->n_names;
    for (size_t i = 0; i < n; i++) {
        const char *name = p->eval ? p->vars[i].name : p->names[i];
        if (name && strncmp(name, tok, p->tlen) == 0 && name[p->tlen] == '\0') {
            *out = p->eval ? p->vars[i].value : 0;
            return 0;
        }
    }
    char list[1024];
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *name = p->eval ? p->vars[i].name : p->names[i];
        if (!name)
            continue;
        int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", name);
        if (w < 0 || (size_t)w >= sizeof list - used) {
            /* Too many to list: end with an ellipsis. */
            snprintf(list + sizeof list - 5, 5, "...");
            break;
        }
        used += (size_t)w;
    }
    char shown[SHOW_MAX + 8];
    describe(shown, sizeof shown, p);
    if (used == 0)
        return br_error_at(pos_at(p, p->start),
                           "unknown name %s in expression (only constants are allowed here)",
                           shown);
    return br_error_at(pos_at(p, p->start), "unknown name %s in expression (parameters: %s)", shown,
                       list);
}

/* atom := INTEGER | NAME | '(' expr ')' */
static int parse_atom(parser *p, int64_t *out) {
    char shown[SHOW_MAX + 8];
    if (p->kind == TOK_NUM) {
        int64_t v = 0;
        for (size_t i = 0; i < p->tlen; i++) {
            int d = p->text[p->start + i] - '0';
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v)) {
                describe(shown, sizeof shown, p);
                return br_error_at(pos_at(p, p->start),
                                   "integer %s is too large (the largest is 2^63-1)", shown);
            }
        }
        *out = v;
        return next(p);
    }
    if (p->kind == TOK_NAME) {
        if (lookup(p, out) < 0)
            return -1;
        return next(p);
    }
    if (is_op(p, '(')) {
        size_t open = p->start;
        if (next(p) < 0 || parse_expr(p, out) < 0)
            return -1;
        if (!is_op(p, ')')) {
            describe(shown, sizeof shown, p);
            return br_error_at(pos_at(p, p->start),
                               "expected ')' to close the '(' at column %d, found %s",
                               pos_at(p, open).column, shown);
        }
        return next(p);
    }
    describe(shown, sizeof shown, p);
    return br_error_at(pos_at(p, p->start), "expected a number, a name or '(', found %s", shown);
}

/* base ^ exp with overflow detection; exp >= 0. */
static bool ipow(int64_t base, int64_t exp, int64_t *out) {
    int64_t result = 1;
    while (exp > 0) {
        if ((exp & 1) && __builtin_mul_overflow(result, base, &result))
            return false;
        exp >>= 1;
        if (exp > 0 && __builtin_mul_overflow(base, base, &base))
            return false;
    }
    *out = result;
    return true;
}

/* power := atom ('^' unary)? */
static int parse_power(parser *p, int64_t *out) {
    int64_t base = 0;
    if (parse_atom(p, &base) < 0)
        return -1;
    if (!is_op(p, '^')) {
        *out = base;
        return 0;
    }
    size_t at = p->start;
    int64_t exp = 0;
    if (next(p) < 0 || parse_unary(p, &exp) < 0)
        return -1;
    if (!computing(p)) {
        *out = 0;
        return 0;
    }
    if (exp < 0)
        return br_error_at(pos_at(p, at), "negative exponent in '^'");
    if (!ipow(base, exp, out))
        return overflow(p, at);
    return 0;
}

/* unary := '-' unary | '!' unary | power */
static int parse_unary(parser *p, int64_t *out) {
    if (++p->depth > EXPR_MAX_DEPTH) {
        p->depth--;
        return br_error_at(pos_at(p, p->start),
                           "expression is nested too deeply (more than %d levels)", EXPR_MAX_DEPTH);
    }
    int rc = 0;
    if (is_op(p, '-')) {
        size_t at = p->start;
        int64_t v = 0;
        rc = next(p);
        if (rc == 0)
            rc = parse_unary(p, &v);
        if (rc == 0 && computing(p) && __builtin_sub_overflow((int64_t)0, v, out))
            rc = overflow(p, at);
        else if (rc == 0 && !computing(p))
            *out = 0;
    } else if (is_op(p, '!')) {
        int64_t v = 0;
        rc = next(p);
        if (rc == 0)
            rc = parse_unary(p, &v);
        if (rc == 0)
            *out = computing(p) ? v == 0 : 0;
    } else {
        rc = parse_power(p, out);
    }
    p->depth--;
    return rc;
}

/* term := unary (('*' | '/' | '%') unary)* */
static int parse_term(parser *p, int64_t *out) {
    int64_t acc = 0;
    if (parse_unary(p, &acc) < 0)
        return -1;
    while (is_op(p, '*') || is_op(p, '/') || is_op(p, '%')) {
        size_t at = p->start;
        char op = p->text[at];
        int64_t rhs = 0;
        if (next(p) < 0 || parse_unary(p, &rhs) < 0)
            return -1;
        if (!computing(p))
            continue;
        if (op == '*') {
            if (__builtin_mul_overflow(acc, rhs, &acc))
                return overflow(p, at);
        } else if (rhs == 0) {
            return br_error_at(pos_at(p, at), "division by zero");
        } else if (rhs == -1) {
            /* INT64_MIN / -1 overflows; INT64_MIN % -1 is undefined in C. */
            if (op == '/' && __builtin_sub_overflow((int64_t)0, acc, &acc))
                return overflow(p, at);
            if (op == '%')
                acc = 0;
        } else {
            acc = op == '/' ? acc / rhs : acc % rhs;
        }
    }
    *out = acc;
    return 0;
}

/* sum := term (('+' | '-') term)* */
static int parse_sum(parser *p, int64_t *out) {
    int64_t acc = 0;
    if (parse_term(p, &acc) < 0)
        return -1;
    while (is_op(p, '+') || is_op(p, '-')) {
        size_t at = p->start;
        char op = p->text[at];
        int64_t rhs = 0;
        if (next(p) < 0 || parse_term(p, &rhs) < 0)
            return -1;
        if (!computing(p))
            continue;
        bool ovf = op == '+' ? __builtin_add_overflow(acc, rhs, &acc)
                             : __builtin_sub_overflow(acc, rhs, &acc);
        if (ovf)
            return overflow(p, at);
    }
    *out = acc;
    return 0;
}

/* The comparison operator at the current token (0 when none): one of
 * '<' '>' 'l' (<=) 'g' (>=) 'e' (==) 'n' (!=). */
static char relop(const parser *p) {
    if (is_op(p, '<') || is_op(p, '>'))
        return p->text[p->start];
    return is_op2(p, "<=")   ? 'l'
           : is_op2(p, ">=") ? 'g'
           : is_op2(p, "==") ? 'e'
           : is_op2(p, "!=") ? 'n'
                             : 0;
}

/* cmp := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?  (1 or 0; no
 * chaining: `a < b < c` is an error, as its C meaning is never meant) */
static int parse_cmp(parser *p, int64_t *out) {
    int64_t a = 0, b = 0;
    if (parse_sum(p, &a) < 0)
        return -1;
    char op = relop(p);
    if (!op) {
        *out = a;
        return 0;
    }
    if (next(p) < 0 || parse_sum(p, &b) < 0)
        return -1;
    if (relop(p))
        return br_error_at(pos_at(p, p->start),
                           "comparisons do not chain: write 'a < b && b < c', not 'a < b < c'");
    *out = op == '<'   ? a < b
           : op == '>' ? a > b
           : op == 'l' ? a <= b
           : op == 'g' ? a >= b
           : op == 'e' ? a == b
                       : a != b;
    if (!computing(p))
        *out = 0;
    return 0;
}

/* and := cmp ('&&' cmp)*   or := and ('||' and)*   (1 or 0, short-circuit) */
static int parse_logic(parser *p, int64_t *out, int is_or) {
    int64_t acc = 0;
    if ((is_or ? parse_logic(p, &acc, 0) : parse_cmp(p, &acc)) < 0)
        return -1;
    const char *op = is_or ? "||" : "&&";
    if (!is_op2(p, op)) {
        *out = acc;
        return 0;
    }
    bool truth = acc != 0;
    while (is_op2(p, op)) {
        /* || decided by a true operand, && by a false one */
        bool decided = is_or ? truth : !truth;
        int64_t rhs = 0;
        if (decided)
            p->skip++;
        int rc = next(p);
        if (rc == 0)
            rc = is_or ? parse_logic(p, &rhs, 0) : parse_cmp(p, &rhs);
        if (decided)
            p->skip--;
        if (rc < 0)
            return -1;
        if (!decided)
            truth = rhs != 0;
    }
    *out = computing(p) ? truth : 0;
    return 0;
}

/* expr := or */
static int parse_expr(parser *p, int64_t *out) {
    return parse_logic(p, out, 1);
}

/* Parse all of p->text; the whole text must be one expression. */
static int parse_all(parser *p, int64_t *out) {
    if (!p->text)
        return br_error_at(p->pos, "expected an expression, found nothing");
    p->len = strlen(p->text);
    if (next(p) < 0)
        return -1;
    if (p->kind == TOK_END)
        return br_error_at(pos_at(p, p->start),
                           "empty expression: expected a number, a name or '('");
    if (parse_expr(p, out) < 0)
        return -1;
    if (p->kind == TOK_END)
        return 0;
    if (is_op(p, ')'))
        return br_error_at(pos_at(p, p->start), "unexpected ')'");
    char shown[SHOW_MAX + 8];
    describe(shown, sizeof shown, p);
    return br_error_at(pos_at(p, p->start),
                       "trailing input %s: expected an operator or the end of the expression",
                       shown);
}

/* Evaluate text with the bindings; see expr.h. Returns 0, or -1 with the
 * error set at the offending token's column. */
int br_expr_eval(int64_t *out, const char *text, br_pos pos, const br_binding *vars,
                 size_t n_vars) {
    parser p = {.text = text, .pos = pos, .eval = true, .vars = vars, .n_vars = vars ? n_vars : 0};
    int64_t v = 0;
    if (parse_all(&p, &v) < 0)
        return -1;
    if (out)
        *out = v;
    return 0;
}

/* Parse text and bind its names without evaluating; see expr.h. Returns 0,
 * or -1 with the error set. */
int br_expr_check(const char *text, br_pos pos, const char *const *names, size_t n_names) {
    parser p = {
        .text = text, .pos = pos, .eval = false, .names = names, .n_names = names ? n_names : 0};
    int64_t v = 0;
    return parse_all(&p, &v);
}
