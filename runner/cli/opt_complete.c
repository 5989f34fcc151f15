/* SPDX-License-Identifier: Apache-2.0 */
/* An option table as a bash completion script: the
 * options of each command, and the values of each option (opt.h). */
#include "opt.h"

#include <string.h>

static int accepted(const br_opt_spec *o, const br_name *e) {
    return !o->accept || (o->accept & (1u << e->value));
}

/* A value name of a file or a folder: completed with file names. */
static int names_a_file(const char *value_name) {
    return strstr(value_name, "FILE") || strstr(value_name, "DIR") || strstr(value_name, "SITE");
}

/* The value names of open values: any number, duration, pattern or name. */
static int names_an_open_value(const char *value_name) {
    static const char *const open[] = {"N",    "DUR",        "PCT", "P",   "PATTERN", "GLOB",
                                       "NAME", "NAME=VALUE", "N=V", "I/N", "COMMIT"};
    for (size_t i = 0; i < sizeof open / sizeof *open; i++)
        if (strcmp(value_name, open[i]) == 0)
            return 1;
    return 0;
}

static int takes_value(const br_opt_spec *o) {
    return o->kind != BR_OPT_SECTION && o->kind != BR_OPT_END && o->value_name;
}

void br_opt_completion_values(FILE *f, const br_opt_spec *o) {
    if (o->kind == BR_OPT_ENUM) {
        int first = 1;
        for (const br_name *e = o->names; e->name; e++)
            if (accepted(o, e)) {
                fprintf(f, "%s%s", first ? "" : " ", e->name);
                first = 0;
            }
    } else if (o->values) {
        fputs(o->values, f);
    } else {
        fputs(names_a_file(o->value_name) ? "-f" : "-n", f);
    }
}

const br_opt_spec *br_opt_unvalued(const br_opt_spec *opts) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++)
        if (takes_value(o) && o->kind != BR_OPT_ENUM && !o->values &&
            !names_a_file(o->value_name) && !names_an_open_value(o->value_name))
            return o;
    return NULL;
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

/* case arms on the previous word: the option's values (br_opt_completion_values). */
static void completion_values(FILE *f, const br_opt_spec *opts) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (!takes_value(o))
            continue;
        fprintf(f, "        --%s", o->name);
        if (o->short_name)
            fprintf(f, "|-%c", o->short_name);
        fputs(") vals=\"", f);
        br_opt_completion_values(f, o);
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

void br_opt_completion_bash(FILE *f, const br_opt_cmd *const *cmds, const char *const *names,
                            size_t n) {
    char subs[512] = "";
    fputs("# bash completion for benchrun (benchrun --completion bash)\n"
          "_benchrun() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts vals=\n"
          "    case ${COMP_WORDS[1]} in\n",
          f);
    for (size_t i = 1; i < n; i++) {
        completion_arm(f, names[i], cmds[i], "");
        size_t k = strlen(subs);
        snprintf(subs + k, sizeof subs - k, "%s%s", k ? " " : "", names[i]);
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
