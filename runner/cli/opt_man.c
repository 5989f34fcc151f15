/* SPDX-License-Identifier: Apache-2.0 */
/* An option table as roff, the pieces of a man page (opt.h);
 * cli/manual.c puts benchrun's page together from them. */
#include "opt.h"

#include <string.h>

void br_opt_roff(FILE *f, const char *text) {
    int bol = 1;
    for (const char *c = text; *c; c++) {
        if (bol && (*c == '.' || *c == '\''))
            fputs("\\&", f);
        if (*c == '\\')
            fputs("\\e", f);
        else if (*c == '-')
            fputs("\\-", f);
        else
            fputc(*c, f);
        bol = *c == '\n';
    }
}

/* text on one line: each "\n" but a last one a space. */
static void roff_joined(FILE *f, const char *text) {
    char line[1024];
    snprintf(line, sizeof line, "%s", text);
    for (char *c = line; *c; c++)
        if (*c == '\n' && c[1])
            *c = ' ';
    br_opt_roff(f, line);
}

void br_opt_man_text(FILE *f, const char *text) {
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        if (len == 0) {
            fputs(".PP\n", f);
        } else {
            char line[256];
            snprintf(line, sizeof line, "%.*s\n", (int)len, text);
            br_opt_roff(f, line);
        }
        text += len + (nl != NULL);
    }
}

static void man_option(FILE *f, const br_opt_spec *o) {
    fputs(".TP\n", f);
    if (o->short_name)
        fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", f);
    br_opt_roff(f, o->name);
    fputs("\\fR", f);
    if (o->value_name) {
        fputs(" \\fI", f);
        br_opt_roff(f, o->value_name);
        fputs("\\fR", f);
    }
    fputc('\n', f);
    roff_joined(f, o->help);
    fputc('\n', f);
}

void br_opt_man_options(FILE *f, const br_opt_spec *opts) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (o->kind != BR_OPT_SECTION) {
            man_option(f, o);
            continue;
        }
        /* A section's heading: "\nmeasurement (...):\n" */
        fputs(".PP\n", f);
        br_opt_roff(f, o->help + (o->help[0] == '\n'));
    }
}

void br_opt_man_synopsis(FILE *f, const br_opt_cmd *cmd) {
    fputs(".PP\n\\fB", f);
    br_opt_roff(f, cmd->prog);
    fputs("\\fR ", f);
    roff_joined(f, cmd->synopsis);
    fputc('\n', f);
}

void br_opt_man_command(FILE *f, const br_opt_cmd *cmd, const char *heading) {
    if (heading) {
        fputs(".SS ", f);
        br_opt_roff(f, heading);
        fputc('\n', f);
    }
    br_opt_man_synopsis(f, cmd);
    fputs(".PP\n", f);
    br_opt_man_text(f, cmd->about);
    br_opt_man_options(f, cmd->opts);
    if (cmd->foot) {
        fputs(".PP\n", f);
        br_opt_man_text(f, cmd->foot);
    }
}

void br_opt_man_notes(FILE *f, const br_opt_note *notes) {
    for (const br_opt_note *e = notes; e->name; e++) {
        fputs(".TP\n\\fB", f);
        br_opt_roff(f, e->name);
        fputs("\\fR\n", f);
        roff_joined(f, e->help);
        fputc('\n', f);
    }
}
