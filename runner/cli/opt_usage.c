/* SPDX-License-Identifier: Apache-2.0 */
/* What an option table says to people: the --help text
 * (opt.h). The man page is opt_man.c's, the completion opt_complete.c's. */
#include "opt.h"

#include <string.h>

enum { HELP_COLUMN = 24, COMPACT_WIDTH = 79 };

static int shown(const br_opt_spec *o) {
    return o->kind != BR_OPT_END && o->kind != BR_OPT_SECTION && !o->hidden;
}

/* "  -k, --kernel PATTERN" into buf; returns its length. */
static size_t left_column(char *buf, size_t len, const br_opt_spec *o) {
    char s[8] = "    ";
    if (o->short_name)
        snprintf(s, sizeof s, "-%c, ", o->short_name);
    int n = snprintf(buf, len, "  %s--%s%s%s", s, o->name, o->value_name ? " " : "",
                     o->value_name ? o->value_name : "");
    return n < 0 ? 0 : (size_t)n;
}

/* text with every "\n" followed by `indent` spaces. */
static void put_indented(FILE *f, const char *text, int indent) {
    for (const char *c = text; *c; c++) {
        fputc(*c, f);
        if (*c == '\n' && c[1])
            fprintf(f, "%*s", indent, "");
    }
}

static void help_rows(FILE *f, const br_opt_spec *opts) {
    fputs("options:\n", f);
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (o->kind == BR_OPT_SECTION) {
            fputs(o->help, f);
            continue;
        }
        if (!shown(o))
            continue;
        char left[96];
        size_t n = left_column(left, sizeof left, o);
        fprintf(f, "%s%*s", left, n < HELP_COLUMN ? (int)(HELP_COLUMN - n) : 2, "");
        put_indented(f, o->help, HELP_COLUMN);
        fputc('\n', f);
    }
}

static int accepted(const br_opt_spec *o, const br_name *e) {
    return !o->accept || (o->accept & (1u << e->value));
}

/* "-q", "--ascii", "--alpha P", "--fail-on slower|any-change|never". */
static void compact_item(char *buf, size_t len, const br_opt_spec *o) {
    if (o->short_name) {
        snprintf(buf, len, "-%c", o->short_name);
        return;
    }
    int n = snprintf(buf, len, "--%s", o->name);
    if (o->kind == BR_OPT_ENUM) {
        int first = 1;
        for (const br_name *e = o->names; e->name && n > 0 && (size_t)n < len; e++) {
            if (accepted(o, e))
                n += snprintf(buf + n, len - (size_t)n, "%c%s", first ? ' ' : '|', e->name);
            first = first && !accepted(o, e);
        }
    } else if (o->value_name) {
        snprintf(buf + n, len - (size_t)n, " %s", o->value_name);
    }
}

/* "options: A, B, C," wrapped under the first item. */
static void help_compact(FILE *f, const br_opt_spec *opts) {
    static const char lead[] = "options: ";
    size_t col = 0;
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (!shown(o) || o->kind == BR_OPT_HELP)
            continue;
        char item[128];
        compact_item(item, sizeof item, o);
        size_t len = strlen(item);
        if (col == 0) {
            fputs(lead, f);
            col = sizeof lead - 1;
        } else if (col + 2 + len + 1 > COMPACT_WIDTH) {
            fprintf(f, ",\n%*s", (int)(sizeof lead - 1), "");
            col = sizeof lead - 1;
        } else {
            fputs(", ", f);
            col += 2;
        }
        fputs(item, f);
        col += len;
    }
    if (col)
        fputc('\n', f);
}

void br_opt_notes(FILE *f, const br_opt_note *notes) {
    for (const br_opt_note *e = notes; e->name; e++) {
        int n = fprintf(f, "  %s", e->name);
        fprintf(f, "%*s", n <= HELP_COLUMN - 2 ? HELP_COLUMN - n : 2, "");
        put_indented(f, e->help, HELP_COLUMN);
        fputc('\n', f);
    }
}

void br_opt_usage(FILE *f, const br_opt_cmd *cmd) {
    int n = fprintf(f, "usage: %s ", cmd->prog);
    put_indented(f, cmd->synopsis, n);
    fputc('\n', f);
}

void br_opt_help(FILE *f, const br_opt_cmd *cmd) {
    br_opt_usage(f, cmd);
    fprintf(f, "\n%s\n", cmd->about);
    if (cmd->more) {
        cmd->more(f);
        fputc('\n', f);
    }
    if (cmd->compact)
        help_compact(f, cmd->opts);
    else
        help_rows(f, cmd->opts);
    if (cmd->foot)
        fprintf(f, "\n%s", cmd->foot);
    fputs("\nexit status: ", f);
    fputs(cmd->exit_status, f);
    if (cmd->env) {
        fputs("\nenvironment:\n", f);
        br_opt_notes(f, cmd->env);
    }
}
