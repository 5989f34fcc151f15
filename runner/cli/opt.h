/* SPDX-License-Identifier: Apache-2.0 */
/* A command's options as data: one row per option (long name,
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
    const char *values;     /* the fixed words the value may be, space-separated, for the
                               completion of a row that is no BR_OPT_ENUM ("all" of
                               --devices); NULL: none (an open value: br_opt_unvalued) */
    int output;             /* 1: the value (a const char * at offset) is a file an output is
                               written to, refused before the command runs when it cannot be
                               written (br_cli_parse) */
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

/* A name and what it is: a row of the environment variables, files or
 * commands a help text lists ("\n" in help continues it on another line). */
typedef struct br_opt_note {
    const char *name, *help;
} br_opt_note;

/* A command's texts around its table, for --help and the man page. Its
 * --help is: "usage: <prog> <synopsis>", about, more(), "options:" and the
 * rows (or the compact "options: ..." lines), foot, "exit status: ...",
 * and the environment. */
typedef struct br_opt_cmd {
    const char *prog;     /* "benchrun", "benchrun compare": messages start "<prog>: " */
    const char *synopsis; /* what follows prog on the usage line: "[options] OLD.json NEW.json";
                             a "\n" continues it on the next line, under the first word */
    const char *about;    /* what the command does: paragraphs, each line ending in "\n" */
    const br_opt_spec *opts;
    const char *foot;        /* paragraphs after the options, or NULL */
    const char *exit_status; /* "0 ...; 2 ...": the exit statuses, each line ending in "\n" */
    int compact;             /* 1: --help lists the options on "options:" lines, not one per row */
    const br_opt_note *env;  /* the environment variables read ({NULL} ends), or NULL */
    void (*more)(FILE *f);   /* writes a section after about (the commands), or NULL */
    /* How many positionals: min_args to max_args (0: no upper bound); any
     * other count is a usage error that br_cli_parse says as args_bad after
     * "<prog>: ", a "%zu" in it replaced by the count.
     * args_bad NULL: the count is not checked here. */
    size_t min_args, max_args;
    const char *args_bad;
    /* The checks that need every option and the positionals, over the
     * struct parsed into (dst): 0, or -1 after a message on stderr. NULL:
     * none. Run by br_cli_parse before the output rows are checked. */
    int (*check)(void *dst, const br_opt_parsed *a);
    /* A hidden action row's work (--man, --completion): the exit status.
     * NULL: the command has no action rows. */
    int (*action)(const br_opt_parsed *a);
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

/* Whether name[0..len) (a long option without its dashes) is a flag of a
 * tool benchrun users know (Google Benchmark, hyperfine, pytest-benchmark,
 * NVBench): 1 with *tool ("hyperfine's") and *here (benchrun's way to the
 * same end; both static), else 0. */
int br_opt_foreign(const char *name, size_t len, const char **tool, const char **here);

/* Write cmd's --help text to f (the layout of br_opt_cmd); the option rows
 * with their continuations aligned at column 24. */
void br_opt_help(FILE *f, const br_opt_cmd *cmd);

/* Write "usage: <prog> <synopsis>" to f, its continuation lines aligned
 * under the synopsis's first word. */
void br_opt_usage(FILE *f, const br_opt_cmd *cmd);

/* Write the rows of notes[] ({NULL} ends) as --help lists them: the name at
 * column 2, the help at column 24 (further lines under it). */
void br_opt_notes(FILE *f, const br_opt_note *notes);

/* roff text (a man page's): a line-leading '.' or '\'' escaped, backslashes
 * as \e, '-' as \-. */
void br_opt_roff(FILE *f, const char *text);

/* Write cmd's usage as roff: a paragraph, "<prog> <synopsis>" on one
 * line, prog in bold. */
void br_opt_man_synopsis(FILE *f, const br_opt_cmd *cmd);

/* Write text as roff paragraphs: its lines as they are (escaped), each
 * blank line a ".PP". */
void br_opt_man_text(FILE *f, const char *text);

/* Write the rows of opts as roff: a ".TP" paragraph per option (the hidden
 * ones too), a ".PP" with the heading of each section. */
void br_opt_man_options(FILE *f, const br_opt_spec *opts);

/* Write the roff of cmd for a man page: with `heading` (NULL: none) a
 * ".SS" heading, then its synopsis, about, options (".TP" per row, the
 * sections as ".PP") and foot; each blank line of a text a ".PP". */
void br_opt_man_command(FILE *f, const br_opt_cmd *cmd, const char *heading);

/* Write the roff rows of notes[] ({NULL} ends) as ".TP" paragraphs, each
 * help on one line; the names bold. */
void br_opt_man_notes(FILE *f, const br_opt_note *notes);

/* Write the completion words (the accepted values, space-separated) of the
 * value of row o to f: an enum's names, else o->values, else "-f" for a
 * FILE or DIR value (file names) or "-n" (nothing to offer). */
void br_opt_completion_values(FILE *f, const br_opt_spec *o);

/* The first row of opts that takes a value with fixed words but offers none
 * to the completion: neither an enum nor a row with values, and whose
 * value name is not one of the open kinds (a FILE or DIR, a number N, a
 * DUR, a PCT or P, a PATTERN or GLOB, a NAME, NAME=VALUE or N=V, I/N).
 * NULL when every row is accounted for. */
const br_opt_spec *br_opt_unvalued(const br_opt_spec *opts);

/* Write a bash completion script for the commands cmds[0..n) to f: cmds[0]
 * is the main command (completed after "benchrun", with the subcommands'
 * names), cmds[i] (i > 0) is completed after names[i]; names[0] unused. */
void br_opt_completion_bash(FILE *f, const br_opt_cmd *const *cmds, const char *const *names,
                            size_t n);

#endif
