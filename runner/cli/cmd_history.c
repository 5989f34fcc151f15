/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun history DIR`: the options, then
 * drive/history_show.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "drive/history_show.h"
#include "msg.h"

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

/* One directory, and the options that cannot go together: 0, or -1 after
 * a message. */
static int history_check(void *dst, const br_opt_parsed *a) {
    const history_opts *o = dst;
    if (a->n_args != 1) {
        br_msg_error(PROG, "expected one directory of results files%s",
                     a->n_args > 1 ? ", got several" : "");
        br_opt_help(stderr, &br_cmd_history_spec);
    } else if (o->plot && !*o->plot) {
        br_msg_error(PROG, "--plot expects a file name");
    } else if (o->changes && o->neighbours) {
        br_msg_error(PROG, "--changes lists change points and --neighbours marks the table: "
                           "choose one");
    } else {
        return 0;
    }
    return -1;
}

const br_opt_cmd br_cmd_history_spec = {
    .prog = PROG,
    .synopsis = "DIR [-k GLOB]... [-p NAME=VALUE]... [--suite NAME]\n"
                "[--last N] [--changes | --neighbours] [--plot FILE.svg]\n"
                "[--ascii]",
    .about = "Show the results documents in DIR (the files --results-dir writes, or any --json\n"
             "output) as one table per suite: each case's headline metric across commits.\n"
             "--changes lists where a case's level shifted: the change points over all its runs\n"
             "of one device (E-divisive split, Student's t test: Hunter, Fleming et al. 2023).\n"
             "The summaries are read once into DIR/.benchrun-index.sqlite (SQLite), kept\n"
             "up to date with the files, and safe to delete.\n",
    .exit_status = "0 ok; 1 the plot could not be drawn; 2 bad input or usage.\n",
    .check = history_check,
    .opts =
        (const br_opt_spec[]){
            {BR_OPT_LIST, "kernel", 'k', AT(globs), "GLOB",
             "only kernels matching the fnmatch(3) glob (repeatable)"},
            {BR_OPT_FN, "param", 'p', AT(params), "N=V",
             "only cases with parameter N = V, or one of N=[A,B,...]", br_cli_param},
            {BR_OPT_VALUE, "suite", 0, AT(suite), "NAME", "only runs of suite NAME"},
            {BR_OPT_FN, "last", 0, AT(last), "N", "only the newest N runs of each suite",
             parse_last},
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
            BR_CLI_ROW_HELP_AS(1),
            {BR_OPT_END},
        },
};

int br_cmd_history(int argc, char **argv) {
    history_opts o = {.ascii = br_cli_locale()};
    br_opt_parsed a;
    int status = br_cli_parse(&a, &br_cmd_history_spec, &o, argc, argv);
    if (status == BR_CLI_GO_ON) {
        br_history_show_opts so = {
            /* The index holds the summaries; --neighbours judges with the samples. */
            .filter = {o.suite, o.globs.items, o.globs.n, o.params.items, o.params.n, o.last,
                       !o.neighbours, 0},
            .plot = o.plot,
            .changes = o.changes,
            .neighbours = o.neighbours,
            .ascii = o.ascii};
        status = br_history_show(a.args[0], &so);
    }
    free(a.args);
    br_opt_list_free(&o.globs);
    br_cli_params_dispose(&o.params);
    return status;
}
