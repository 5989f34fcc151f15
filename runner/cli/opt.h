/* SPDX-License-Identifier: Apache-2.0 */
/* opt.h - a command's options as data: one row per option (long name,
 * short letter, kind, where the value goes, value name, help). Parsing,
 * the --help text, the man page and the bash completion all read the same
 * table. The models are libgit2's src/cli/opt.c + opt_usage.c and curl's
 * tool_getparam.c. */
#ifndef BR_OPT_H
#define BR_OPT_H

#include <stddef.h>
#include <stdio.h>

#include "base/name.h"

typedef enum br_opt_kind {
    BR_OPT_END = 0, /* ends a table */
    BR_OPT_FLAG,    /* no value: stores flag_value in the int at offset */
    BR_OPT_VALUE,   /* a string: stores the argument in the const char * at offset */
    BR_OPT_LIST,    /* repeatable string: appends to the br_opt_list at offset */
    BR_OPT_ENUM,    /* one of names[] (within accept, when set): stores the int value */
    BR_OPT_FN,      /* fn(dst + offset, arg) converts and checks the argument */
    BR_OPT_HELP,    /* -h, --help: parsing stops with BR_PARSE_HELP */
    BR_OPT_VERSION, /* -V, --version: parsing stops with BR_PARSE_VERSION */
    BR_OPT_SECTION, /* not an option: a heading of the help text (help = its text) */
    BR_OPT_ACTION   /* hidden: parsing stops with BR_PARSE_ACTION (out->action = row) */
} br_opt_kind;

/* What parsing a command line came to. */
typedef enum br_parse_result {
    BR_PARSE_OK = 0,  /* options stored; positionals in out->args */
    BR_PARSE_HELP,    /* --help asked for */
    BR_PARSE_VERSION, /* --version asked for */
    BR_PARSE_ACTION,  /* a hidden action row (--man, --completion) was given */
    BR_PARSE_BAD      /* usage error: already said on stderr */
} br_parse_result;

/* Converts and checks one argument into dst (the field at the row's
 * offset); option is "--name" as messages name it. Returns 0, or -1 with
 * the error set (br_error_set), naming the option (the parser prefixes
 * "<prog>: "). */
typedef int (*br_opt_fn)(void *dst, const char *option, const char *arg);

typedef struct br_opt_spec {
    br_opt_kind kind;
    const char *name;       /* long name without "--"; NULL for a section */
    char short_name;        /* 0: none */
    size_t offset;          /* where the value goes in the command's options struct */
    const char *value_name; /* "FILE", "DUR", ...; NULL for flags */
    const char *help;       /* help text; "\n" starts a continuation line */
    br_opt_fn fn;           /* BR_OPT_FN; also a BR_OPT_FLAG or BR_OPT_ENUM row's converter
                               when set (a flag's arg is NULL; an enum's names then only
                               serve the help and the completion) */
    const br_name *names;   /* BR_OPT_ENUM: the vocabulary's table */
    const char *bad;        /* BR_OPT_ENUM: "expected ..., found '%s'" after "--name: "; the
                               argument replaces its one "%s" */
    int flag_value;         /* BR_OPT_FLAG: the value stored (1, or 0 for --no-x) */
    unsigned accept;        /* BR_OPT_ENUM: bit v set = value v accepted; 0: every value */
    int hidden;             /* 1: left out of --help (still in the man page) */
} br_opt_spec;

/* A repeatable option's values (pointers into argv). */
typedef struct br_opt_list {
    const char **items;
    size_t n;
} br_opt_list;

/* The outcome of br_opt_parse: the positionals, and the action row. */
typedef struct br_opt_parsed {
    const char **args; /* positionals in order (into argv); free() it */
    size_t n_args;
    const br_opt_spec *action; /* BR_PARSE_ACTION: the row given */
    const char *action_arg;    /* its value, or NULL */
} br_opt_parsed;

/* A command's text around its table, for --help and the man page. */
typedef struct br_opt_cmd {
    const char *prog; /* "benchrun", "benchrun compare": messages start "<prog>: " */
    const char *head; /* help text before the options (usage lines, description) */
    const char *foot; /* help text after them, or NULL */
    const br_opt_spec *opts;
    int compact; /* 1: --help lists the options on "options:" lines, not one per row */
} br_opt_cmd;

/* Parse argv[1..argc) (argv[0] is the command's name) by cmd->opts into
 * the struct at dst. Options and positionals may mix ("--" ends options);
 * long options may be given as --name=value or --name value and by a
 * unique prefix; short ones as -kVALUE, -k VALUE or grouped flags (-qh).
 * On BR_PARSE_BAD the message is already on stderr: an unknown option is
 * one line with a suggestion when one is close ("did you mean"), then
 * "try '<prog> --help'"; a bad value is "<prog>: <error>". BR_OPT_LIST
 * items are allocated here: free them with br_opt_list_free. out->args is
 * allocated on every outcome (free it). */
br_parse_result br_opt_parse(br_opt_parsed *out, const br_opt_cmd *cmd, void *dst, int argc,
                             char **argv);

/* Free a list's items array (not the strings, which are argv's). */
void br_opt_list_free(br_opt_list *l);

/* The closest long option of opts to `text` (without dashes) within a
 * small edit distance, or NULL. */
const char *br_opt_suggest(const br_opt_spec *opts, const char *text);

/* Write cmd's --help text to f: head, one line per option (continuations
 * aligned at column 24) or the compact "options:" form, and foot. */
void br_opt_help(FILE *f, const br_opt_cmd *cmd);

/* Write a man page (roff, section 1) for the commands cmds[0..n) to f:
 * the first is the main command, the others subcommands. */
void br_opt_man(FILE *f, const br_opt_cmd *const *cmds, size_t n, const char *version);

/* Write a bash completion script for the commands cmds[0..n) to f (the
 * first is the main command; the others are completed after their name,
 * which is cmds[i]->prog's last word). */
void br_opt_completion_bash(FILE *f, const br_opt_cmd *const *cmds, size_t n);

#endif
