/* SPDX-License-Identifier: Apache-2.0 */
/* Parse a command line by an option table (opt.h). The help text,
 * man page and completion are in opt_usage.c. */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strdist.h"

static void *field(void *dst, const br_opt_spec *o) {
    return (char *)dst + o->offset;
}

static int takes_value(const br_opt_spec *o) {
    return o->kind == BR_OPT_VALUE || o->kind == BR_OPT_LIST || o->kind == BR_OPT_ENUM ||
           o->kind == BR_OPT_FN || (o->kind == BR_OPT_ACTION && o->value_name);
}

static int is_option(const br_opt_spec *o) {
    return o->kind != BR_OPT_SECTION;
}

const char *br_opt_suggest(const br_opt_spec *opts, const char *text) {
    const char *best = NULL;
    size_t best_d = (size_t)-1, limit = strlen(text) > 4 ? 2 : 1;
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (!is_option(o) || !o->name)
            continue;
        size_t d = br_strdist(text, strlen(text), o->name, strlen(o->name));
        if (d <= limit && d < best_d)
            best = o->name, best_d = d;
    }
    return best;
}

/* The row named by `name` (len chars; exact, else a unique prefix).
 * *ambiguous is set when several rows start with it. */
static const br_opt_spec *find_long(const br_opt_spec *opts, const char *name, size_t len,
                                    int *ambiguous) {
    const br_opt_spec *hit = NULL;
    *ambiguous = 0;
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (!is_option(o) || !o->name || strncmp(o->name, name, len) != 0)
            continue;
        if (o->name[len] == '\0')
            return o;
        if (hit)
            *ambiguous = 1;
        hit = o;
    }
    return *ambiguous ? NULL : hit;
}

static const br_opt_spec *find_short(const br_opt_spec *opts, char c) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++)
        if (is_option(o) && o->short_name && o->short_name == c)
            return o;
    return NULL;
}

static int list_add(br_opt_list *l, const char *v) {
    const char **items = realloc(l->items, (l->n + 1) * sizeof *items);
    if (!items)
        return br_error_nomem();
    l->items = items;
    l->items[l->n++] = v;
    return 0;
}

void br_opt_list_free(br_opt_list *l) {
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

static int set_enum(void *p, const br_opt_spec *o, const char *arg) {
    int v;
    if (br_name_find(&v, o->names, arg) != 0 || (o->accept && !(o->accept & (1u << v))))
        return -1;
    *(int *)p = v;
    return 0;
}

/* Store one option's value. Returns the parse result. */
static br_parse_result apply(br_opt_parsed *out, const br_opt_cmd *cmd, void *dst,
                             const br_opt_spec *o, const char *arg) {
    void *p = field(dst, o);
    int rc = 0;
    if (o->fn) { /* a BR_OPT_FN row, or a flag or enum row with its own converter */
        char option[64];
        snprintf(option, sizeof option, "--%s", o->name);
        rc = o->fn(p, option, o->kind == BR_OPT_FLAG ? NULL : arg);
    } else
        switch (o->kind) {
        case BR_OPT_FLAG:
            *(int *)p = o->flag_value;
            break;
        case BR_OPT_VALUE:
            *(const char **)p = arg;
            break;
        case BR_OPT_LIST:
            rc = list_add(p, arg);
            break;
        case BR_OPT_ENUM:
            if ((rc = set_enum(p, o, arg)) != 0) {
                const char *at = strstr(o->bad, "%s"); /* where the argument goes */
                int before = at ? (int)(at - o->bad) : (int)strlen(o->bad);
                fprintf(stderr, "%s: --%s: %.*s%s%s\n", cmd->prog, o->name, before, o->bad,
                        at ? arg : "", at ? at + 2 : "");
                return BR_PARSE_BAD;
            }
            break;
        case BR_OPT_HELP:
            return BR_PARSE_HELP;
        case BR_OPT_VERSION:
            return BR_PARSE_VERSION;
        case BR_OPT_ACTION:
            out->action = o;
            out->action_arg = arg;
            return BR_PARSE_ACTION;
        default:
            break;
        }
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", cmd->prog, br_error_get());
        return BR_PARSE_BAD;
    }
    return BR_PARSE_OK;
}

/* An unknown option, said in one line: a close name (in the form given,
 * "--json=x.json" for "--jsn=x.json"), or the benchrun way to what another
 * tool's flag does. */
static br_parse_result unknown(const br_opt_cmd *cmd, const char *arg) {
    const char *name = arg[1] == '-' ? arg + 2 : NULL, *eq = name ? strchr(name, '=') : NULL;
    size_t len = name ? (eq ? (size_t)(eq - name) : strlen(name)) : 0;
    char typed[128];
    snprintf(typed, sizeof typed, "%.*s", (int)len, name ? name : "");
    const char *s = name ? br_opt_suggest(cmd->opts, typed) : NULL, *tool, *here;
    fprintf(stderr, "%s: unknown option '%s'", cmd->prog, arg);
    if (s)
        fprintf(stderr, "; did you mean '--%s%s'?", s, eq ? eq : "");
    else if (name && br_opt_foreign(name, len, &tool, &here))
        fprintf(stderr, "; --%s is %s: here, %s", typed, tool, here);
    fprintf(stderr, "\ntry '%s --help'\n", cmd->prog);
    return BR_PARSE_BAD;
}

static br_parse_result missing(const br_opt_cmd *cmd, const char *shown) {
    fprintf(stderr, "%s: option '%s' requires an argument\ntry '%s --help'\n", cmd->prog, shown,
            cmd->prog);
    return BR_PARSE_BAD;
}

/* One "--name[=value]" at argv[*i]. */
static br_parse_result parse_long(br_opt_parsed *out, const br_opt_cmd *cmd, void *dst, int argc,
                                  char **argv, int *i) {
    const char *a = argv[*i] + 2, *eq = strchr(a, '=');
    int ambiguous;
    const br_opt_spec *o = find_long(cmd->opts, a, eq ? (size_t)(eq - a) : strlen(a), &ambiguous);
    if (ambiguous) {
        fprintf(stderr, "%s: option '%s' is ambiguous\ntry '%s --help'\n", cmd->prog, argv[*i],
                cmd->prog);
        return BR_PARSE_BAD;
    }
    if (!o)
        return unknown(cmd, argv[*i]);
    if (!takes_value(o)) {
        if (eq) {
            fprintf(stderr, "%s: option '--%s' doesn't allow an argument\n", cmd->prog, o->name);
            return BR_PARSE_BAD;
        }
        return apply(out, cmd, dst, o, NULL);
    }
    if (eq)
        return apply(out, cmd, dst, o, eq + 1);
    if (*i + 1 >= argc) {
        char shown[80];
        snprintf(shown, sizeof shown, "--%s", o->name);
        return missing(cmd, shown);
    }
    return apply(out, cmd, dst, o, argv[++*i]);
}

/* One "-abc" or "-kVALUE" at argv[*i]. */
static br_parse_result parse_short(br_opt_parsed *out, const br_opt_cmd *cmd, void *dst, int argc,
                                   char **argv, int *i) {
    for (const char *c = argv[*i] + 1; *c; c++) {
        const br_opt_spec *o = find_short(cmd->opts, *c);
        if (!o) {
            char shown[3] = {'-', *c, 0};
            return unknown(cmd, shown);
        }
        br_parse_result r;
        if (!takes_value(o)) {
            if ((r = apply(out, cmd, dst, o, NULL)) != BR_PARSE_OK)
                return r;
            continue;
        }
        if (c[1])
            return apply(out, cmd, dst, o, c + 1);
        if (*i + 1 >= argc) {
            char shown[3] = {'-', *c, 0};
            return missing(cmd, shown);
        }
        return apply(out, cmd, dst, o, argv[++*i]);
    }
    return BR_PARSE_OK;
}

br_parse_result br_opt_parse(br_opt_parsed *out, const br_opt_cmd *cmd, void *dst, int argc,
                             char **argv) {
    memset(out, 0, sizeof *out);
    out->args = calloc((size_t)argc + 1, sizeof *out->args);
    if (!out->args) {
        fprintf(stderr, "%s: out of memory\n", cmd->prog);
        return BR_PARSE_BAD;
    }
    int only_args = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        br_parse_result r = BR_PARSE_OK;
        if (only_args || a[0] != '-' || a[1] == '\0')
            out->args[out->n_args++] = a;
        else if (strcmp(a, "--") == 0)
            only_args = 1;
        else if (a[1] == '-')
            r = parse_long(out, cmd, dst, argc, argv, &i);
        else
            r = parse_short(out, cmd, dst, argc, argv, &i);
        if (r != BR_PARSE_OK)
            return r;
    }
    return BR_PARSE_OK;
}
