/* SPDX-License-Identifier: Apache-2.0 */
/* opt_usage.c - what an option table says to people and shells: the
 * --help text, a roff man page and a bash completion script (opt.h). */
#include "opt.h"

#include <string.h>

enum { HELP_COLUMN = 24, COMPACT_WIDTH = 79 };

/* The environment variables benchrun reads (every getenv of runner/ and
 * reporters/), for the main command's --help and the man page's
 * ENVIRONMENT section. A "\n" in help continues under the first line. */
typedef struct env_var {
    const char *name, *help;
} env_var;

static const env_var env_vars[] = {
    {"CC", "C compiler for .c kernel sources (default cc; a value\n"
           "with a space, such as \"ccache gcc\", is not used)"},
    {"CXX", "C++ compiler for .cpp, .cc and .cxx kernel sources\n"
            "(default c++; a value with a space is not used)"},
    {"BENCHRUN_NVCC", "nvcc for .cu sources (default: the one benchrun was\n"
                      "built with, else nvcc on PATH)"},
    {"BENCHRUN_INCLUDE_DIR", "directory holding benchrun_kernel.h (default: the\n"
                             "one of this benchrun)"},
    {"XDG_CACHE_HOME", "compile cache in $XDG_CACHE_HOME/benchrun (an absolute\n"
                       "path; --cache-dir overrides)"},
    {"HOME", "compile cache in $HOME/.cache/benchrun without\n"
             "XDG_CACHE_HOME (else /tmp/benchrun-cache)"},
    {"NO_COLOR", "set and not empty: no colour on a terminal"},
    {"BENCHRUN_NCU", "Nsight Compute's ncu for benchrun profile (default:\n"
                     "ncu on PATH, else /usr/local/cuda/bin/ncu)"},
    {"CUDA_VISIBLE_DEVICES", "with --devices, the GPUs the indices count (the\n"
                             "N-th listed is device N); each worker gets its own"},
    {"BENCHRUN_FAKE_DEVICES", "test-only: N (or models A,A,B) fake devices for\n"
                              "--devices, host cases only, no GPU queried"},
    {"PATH", "where nvcc, cc, c++, gnuplot and ncu are found"},
    {"TMPDIR", "where history --plot writes its gnuplot script and\n"
               "benchrun profile its scratch files (default /tmp)"},
};

#define N_ENV_VARS (sizeof env_vars / sizeof env_vars[0])

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

/* The accepted names of an enum row, separated by sep. */
static void put_names(FILE *f, const br_opt_spec *o, const char *sep) {
    int first = 1;
    for (const br_name *e = o->names; e->name; e++) {
        if (accepted(o, e))
            fprintf(f, "%s%s", first ? "" : sep, e->name);
        first = first && !accepted(o, e);
    }
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

/* The "environment:" rows of env_vars. */
static void help_env(FILE *f) {
    fputs("\nenvironment:\n", f);
    for (size_t i = 0; i < N_ENV_VARS; i++) {
        int n = fprintf(f, "  %s", env_vars[i].name);
        fprintf(f, "%*s", n <= HELP_COLUMN - 2 ? HELP_COLUMN - n : 2, "");
        put_indented(f, env_vars[i].help, HELP_COLUMN);
        fputc('\n', f);
    }
}

void br_opt_help(FILE *f, const br_opt_cmd *cmd) {
    fputs(cmd->head, f);
    if (cmd->compact)
        help_compact(f, cmd->opts);
    else
        help_rows(f, cmd->opts);
    if (cmd->foot)
        fputs(cmd->foot, f);
    /* The main command ("benchrun", not "benchrun compare") lists them. */
    if (!strchr(cmd->prog, ' '))
        help_env(f);
}

/* roff text: a leading '.' or '\'' escaped, backslashes doubled, '-' as \-. */
static void put_roff(FILE *f, const char *text) {
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

static void man_options(FILE *f, const br_opt_spec *opts) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (o->kind == BR_OPT_SECTION) {
            fputs(".PP\n", f);
            put_roff(f, o->help + (o->help[0] == '\n'));
            continue;
        }
        fputs(".TP\n", f);
        if (o->short_name)
            fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
        fputs("\\fB\\-\\-", f);
        put_roff(f, o->name);
        fputs("\\fR", f);
        if (o->value_name) {
            fputs(" \\fI", f);
            put_roff(f, o->value_name);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        put_roff(f, o->help);
        fputc('\n', f);
    }
}

void br_opt_man(FILE *f, const br_opt_cmd *const *cmds, size_t n, const char *version) {
    fprintf(f, ".TH BENCHRUN 1 \"\" \"benchrun %s\" \"User Commands\"\n", version);
    fputs(".SH NAME\nbenchrun \\- compile, verify and measure GPU kernels\n", f);
    for (size_t i = 0; i < n; i++) {
        const br_opt_cmd *c = cmds[i];
        fputs(".SH ", f);
        put_roff(f, i == 0 ? "DESCRIPTION" : c->prog);
        fputs("\n.nf\n", f);
        put_roff(f, c->head);
        fputs(".fi\n", f);
        man_options(f, c->opts);
        if (c->foot) {
            fputs(".PP\n", f);
            put_roff(f, c->foot + (c->foot[0] == '\n'));
        }
    }
    fputs(".SH ENVIRONMENT\n", f);
    for (size_t i = 0; i < N_ENV_VARS; i++) {
        fputs(".TP\n\\fB", f);
        put_roff(f, env_vars[i].name);
        fputs("\\fR\n", f);
        char line[512]; /* the help on one line: each "\n" a space */
        snprintf(line, sizeof line, "%s", env_vars[i].help);
        for (char *c = line; *c; c++)
            if (*c == '\n')
                *c = ' ';
        put_roff(f, line);
        fputc('\n', f);
    }
}

static void completion_words(FILE *f, const br_opt_spec *opts, int first) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (o->kind == BR_OPT_SECTION || o->hidden)
            continue;
        fprintf(f, "%s--%s", first ? "" : " ", o->name);
        if (o->short_name)
            fprintf(f, " -%c", o->short_name);
        first = 0;
    }
}

/* case arms on the previous word: an enum option completes its names, a
 * FILE or DIR value file names (-f), any other value nothing (-n). */
static void completion_values(FILE *f, const br_opt_spec *opts) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (o->kind == BR_OPT_SECTION || !o->value_name)
            continue;
        fprintf(f, "        --%s", o->name);
        if (o->short_name)
            fprintf(f, "|-%c", o->short_name);
        fputs(") vals=\"", f);
        if (o->kind == BR_OPT_ENUM) {
            put_names(f, o, " ");
        } else {
            int file = strstr(o->value_name, "FILE") || strstr(o->value_name, "DIR");
            fputs(file ? "-f" : "-n", f);
        }
        fputs("\" ;;\n", f);
    }
}

static void completion_arm(FILE *f, const char *pattern, const br_opt_cmd *c, const char *extra) {
    fprintf(f, "    %s)\n        opts=\"%s", pattern, extra);
    completion_words(f, c->opts, !extra[0]);
    fputs("\"\n        case $prev in\n", f);
    completion_values(f, c->opts);
    fputs("        esac ;;\n", f);
}

void br_opt_completion_bash(FILE *f, const br_opt_cmd *const *cmds, size_t n) {
    char subs[256] = "";
    fputs("# bash completion for benchrun (benchrun --completion bash)\n"
          "_benchrun() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts vals=\n"
          "    case ${COMP_WORDS[1]} in\n",
          f);
    for (size_t i = 1; i < n; i++) {
        const char *sub = strrchr(cmds[i]->prog, ' ');
        sub = sub ? sub + 1 : cmds[i]->prog;
        completion_arm(f, sub, cmds[i], "");
        size_t k = strlen(subs);
        snprintf(subs + k, sizeof subs - k, "%s%s", k ? " " : "", sub);
    }
    if (n > 0)
        completion_arm(f, "*", cmds[0], subs);
    fputs("    esac\n"
          "    if [[ $vals == -f ]]; then\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    elif [[ $vals == -n ]]; then\n"
          "        COMPREPLY=()\n"
          "    elif [[ -n $vals ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$vals\" -- \"$cur\"))\n"
          "    elif [[ $cur == -* || $COMP_CWORD == 1 ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -F _benchrun benchrun\n",
          f);
}
