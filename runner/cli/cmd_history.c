/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_history.c - `benchrun history`: options, then results/history.c's
 * load and reporters' views. */
#include "cmd_history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "msg.h"
#include "reporters/history_plot.h"
#include "reporters/history_table.h"
#include "history/history.h"

#define PROG "benchrun history"

/* What `benchrun history` parses into. */
typedef struct history_opts {
    br_opt_list globs;    /* -k */
    br_cli_params params; /* -p */
    const char *suite;    /* --suite */
    size_t last;          /* --last */
    const char *plot;     /* --plot */
    int changes;          /* --changes */
    int neighbours;       /* --neighbours */
    int ascii;
} history_opts;

static int parse_last(void *dst, const char *option, const char *arg) {
    char *end;
    errno = 0;
    long long n = strtoll(arg, &end, 10);
    if (errno || end == arg || *end || n < 1)
        return br_error_set("%s expects a number of runs >= 1, got '%s'", option, arg);
    *(size_t *)dst = (size_t)n;
    return 0;
}

#define AT(field) offsetof(history_opts, field)

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec history_opts_spec[] = {
    {BR_OPT_LIST, "kernel", 'k', AT(globs), "GLOB",
     "only kernels matching the fnmatch(3) glob (repeatable)"},
    {BR_OPT_FN, "param", 'p', AT(params), "N=V",
     "only cases with parameter N = V, or one of N=[A,B,...]", br_cli_param},
    {BR_OPT_VALUE, "suite", 0, AT(suite), "NAME", "only runs of suite NAME"},
    {BR_OPT_FN, "last", 0, AT(last), "N", "only the newest N runs of each suite", parse_last},
    {BR_OPT_FLAG, "changes", 0, AT(changes), NULL,
     "list the change points of each case (E-divisive split,\n"
     "t test) instead of the table",
     .flag_value = 1},
    {BR_OPT_FLAG, "neighbours", 0, AT(neighbours), NULL,
     "mark each run against the previous run (the baseline\n"
     "rules; reads every file's samples)",
     .flag_value = 1},
    {BR_OPT_VALUE, "plot", 0, AT(plot), "FILE.svg",
     "also draw the newest run against problem size and every\n"
     "case across commits, change points circled, with gnuplot\n"
     "(one suite)"},
    {BR_OPT_FLAG, "ascii", 0, AT(ascii), NULL,
     "plain ASCII (the default when the locale is not UTF-8)", .flag_value = 1},
    {BR_OPT_HELP, "help", 'h', 0, NULL, "show this help", .hidden = 1},
    {BR_OPT_END}};
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_history_spec = {
    PROG,
    "usage: benchrun history DIR [-k GLOB]... [-p NAME=VALUE]... [--suite NAME]\n"
    "                        [--last N] [--changes | --neighbours] [--plot FILE.svg]\n"
    "                        [--ascii]\n"
    "\n"
    "Show the results documents in DIR (the files --results-dir writes, or any --json\n"
    "output) as one table per suite: each case's headline metric across commits.\n"
    "--changes lists where a case's level shifted: the change points over all its runs\n"
    "of one device (E-divisive split, Student's t test: Hunter, Fleming et al. 2023).\n"
    "The summaries are read once into DIR/.benchrun-index.sqlite (SQLite), kept\n"
    "up to date with the files, and safe to delete.\n"
    "\n",
    "\n"
    "exit status: 0 ok; 1 the plot could not be drawn; 2 bad input or usage.\n",
    history_opts_spec, 0};

/* Parse; returns -1 to go on, else the exit status. */
static int parse_history(history_opts *o, br_opt_parsed *a, int argc, char **argv) {
    switch (br_opt_parse(a, &br_cmd_history_spec, o, argc, argv)) {
    case BR_PARSE_OK:
        break;
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_history_spec);
        return 0;
    default:
        return 2;
    }
    if (a->n_args != 1) {
        br_msg_error(PROG, "expected one directory of results files%s",
                     a->n_args > 1 ? ", got several" : "");
        br_opt_help(stderr, &br_cmd_history_spec);
        return 2;
    }
    if (o->plot && !*o->plot) {
        br_msg_error(PROG, "--plot expects a file name");
        return 2;
    }
    if (o->changes && o->neighbours) {
        br_msg_error(PROG, "--changes lists change points and --neighbours marks the table: "
                           "choose one");
        return 2;
    }
    return -1;
}

/* Load dir, print, plot. Returns the exit status. */
static int history_show(br_history *h, const history_opts *o, const char *dir) {
    /* The index holds the summaries; --neighbours judges with the samples. */
    br_history_filter flt = {o->suite,    o->globs.items, o->globs.n,     o->params.items,
                             o->params.n, o->last,        !o->neighbours, 0};
    if (br_history_load(h, dir, &flt) != 0) {
        br_msg_error(PROG, "%s", br_error_get());
        return 2;
    }
    if (o->plot && br_history_suite_runs(h, 0) != h->n_runs) {
        char suites[512];
        br_history_suite_list(suites, sizeof suites, h);
        br_msg_error(PROG,
                     "--plot draws one suite and %s holds several (%s): choose one with "
                     "--suite NAME",
                     dir, suites);
        return 2;
    }
    int printed = o->changes ? br_history_print_changes(stdout, h, o->ascii)
                             : br_history_print(stdout, h, o->ascii,
                                                o->neighbours ? BR_HISTORY_MARK_NEIGHBOURS
                                                              : BR_HISTORY_MARK_NONE);
    if (printed != 0 || fflush(stdout) != 0) {
        br_msg_error(PROG, "%s", br_error_get());
        return 2;
    }
    if (!o->plot)
        return 0;
    if (br_history_plot(h, o->plot) != 0) {
        const char *e = br_error_get(); /* one that names the command already stands alone */
        fprintf(stderr, "%s%s\n", strncmp(e, "benchrun ", 9) ? "benchrun history: " : "", e);
        return 1;
    }
    br_msg_error(PROG, "drew %s", o->plot);
    return 0;
}

int br_history_main(int argc, char **argv) {
    history_opts o = {.ascii = br_cli_locale()};
    br_history h = {0};
    br_opt_parsed a;
    int status = parse_history(&o, &a, argc, argv);
    if (status < 0)
        status = history_show(&h, &o, a.args[0]);
    br_history_dispose(&h);
    free(a.args);
    br_opt_list_free(&o.globs);
    br_cli_params_dispose(&o.params);
    return status;
}
