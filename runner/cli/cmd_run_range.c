/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun run-range [options] A..B SUITE.yaml...`: the options
 * table, its checks, and the hand-over to the driver (drive/range.h).
 *
 * The name: asv measures a range with `asv run A..B`; benchrun's run is
 * `benchrun SUITE.yaml` itself, so the range is the run's own word with the
 * git range it takes: run-range. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "drive/range.h"
#include "msg.h"
#include "signals.h"

#define PROG "benchrun run-range"

/* The results directory when --results-dir is not given: the one the
 * docs' examples and `benchrun init`'s .gitignore name. */
#define RANGE_DEFAULT_DIR "results"
#define RANGE_MAX_STEP    1000000

/* What `benchrun run-range` parses into: the shared options first, so
 * that the shared rows (BR_CLI_AT) fit it too. */
typedef struct range_cli {
    br_cli_opts c;
    br_range_opts range;
    char spec[4096]; /* A..B, split */
} range_cli;

#define AT BR_CLI_AT

/* --step N: a count from 1 to RANGE_MAX_STEP. */
static int step_opt(void *dst, const char *option, const char *arg) {
    char *end;
    long n = strtol(arg, &end, 10);
    if (!arg[0] || *end || n < 1 || n > RANGE_MAX_STEP)
        return br_error_set("%s expects a number from 1 to %d, got '%s'", option, RANGE_MAX_STEP,
                            arg);
    *(size_t *)dst = (size_t)n;
    return 0;
}

/* The range first, then the suites: split A..B into the options. */
static int range_check(void *dst, const br_opt_parsed *a) {
    range_cli *x = dst;
    br_range_opts *o = &x->range;
    if (br_cli_is_suite_arg(a->args[0])) {
        br_msg_error(PROG,
                     "'%s' is a suite file: give the range first (benchrun run-range "
                     "HEAD~20..HEAD %s)",
                     a->args[0], a->args[0]);
        return -1;
    }
    if (br_range_split(x->spec, sizeof x->spec, a->args[0], &o->from, &o->to) != 0) {
        br_msg_error(PROG, "%s", br_error_get());
        return -1;
    }
    o->suites = a->args + 1;
    o->n_suites = a->n_args - 1;
    return 0;
}

const br_opt_cmd br_cmd_run_range_spec = {
    .prog = PROG,
    .synopsis = "[options] A..B SUITE.yaml...",
    .about = "Measure the suites at each commit of B's first-parent line after A (git's\n"
             "A..B: A itself is not measured; A.. is A..HEAD), as `asv run A..B` does, to\n"
             "backfill a history: one results file per commit in DIR, as if the run had\n"
             "been made at that commit (its git record), for benchrun history DIR --changes\n"
             "and benchrun publish DIR. Each commit's files are checked out as bisect does\n"
             "(the work tree, the index and HEAD are not touched) and built into the compile\n"
             "cache; a commit whose suites do not load or whose kernels do not build is\n"
             "skipped, as git bisect skip does. A commit DIR already has a results file of\n"
             "is not measured again, so an interrupted range resumes where it stopped.\n",
    .exit_status = "0 every commit measured, measured before or skipped; 1 a case failed\n"
                   "at a commit, or a results file could not be written; 2 bad input or usage\n"
                   "(not a range, an unknown revision, A not an ancestor of B); 130 / 143\n"
                   "interrupted (the commits measured keep their files).\n",
    .check = range_check,
    .min_args = 2,
    .args_bad = "expected A..B SUITE.yaml...: a range of commits and a suite file "
                "(try 'benchrun run-range --help')",
    .opts =
        (const br_opt_spec[]){
            {BR_OPT_FN, "results-dir", 0, offsetof(range_cli, range.results_dir), "DIR",
             "write each commit's results as DIR/<date>-<commit>.json\n"
             "(default: " RANGE_DEFAULT_DIR ")",
             br_cli_dir},
            {BR_OPT_FN, "step", 0, offsetof(range_cli, range.step), "N",
             "measure every Nth commit, counted back from B (B always)", step_opt},
            BR_CLI_ROW_KERNEL(AT(patterns), "run only kernels whose name matches the glob "
                                            "(repeatable)"),
            BR_CLI_ROW_PARAM(AT(params), "set a parameter, at every commit (as for benchrun; "
                                         "repeatable)"),
            BR_CLI_ROW_CACHE_DIR_CHECKOUT(
                "compile cache (default as for benchrun); each commit's files\n"
                "are checked out into DIR/run-range/<commit> while it is measured"),
            BR_CLI_ROW_JOBS,
            BR_CLI_ROW_QUIET,
            BR_CLI_ROW_HELP,
            {BR_OPT_SECTION, NULL, 0, 0, NULL,
             "\nmeasurement (each replaces the suite's setting at every commit):\n"},
            BR_CLI_ROWS_MODE(AT(p.run.measure)),
            BR_CLI_MEASURE("warmup", "DUR", "warmup time budget per case, e.g. 25ms"),
            BR_CLI_MEASURE("min-samples", "N", "at least N samples"),
            BR_CLI_MEASURE("min-time", "DUR", "at least DUR of measured time"),
            BR_CLI_MEASURE("max-noise", "PCT", "precision, e.g. 10% (as for benchrun)"),
            BR_CLI_MEASURE("timeout", "DUR", "never sample one case for longer than DUR"),
            BR_CLI_MEASURE("max-samples", "N", "never take more than N samples"),
            {BR_OPT_END},
        },
};

/* A..B SUITE... into x->range: 0, or -1 after a message. */

static int range_go(br_cli_opts *c, const br_opt_parsed *a) {
    (void)a;
    range_cli *x = (range_cli *)c;
    br_range_opts *o = &x->range;
    o->run = c->p.run;
    o->run.progress = !c->p.run.quiet && isatty(STDERR_FILENO);
    if (!o->results_dir)
        o->results_dir = RANGE_DEFAULT_DIR;
    o->before_measure = br_cli_signals_arm;
    br_outcome out;
    br_range_run(&out, o);
    return br_exit_status(&out);
}

int br_cmd_run_range(int argc, char **argv) {
    range_cli x = {.range = {.step = 1}};
    br_cli_opts_init(&x.c);
    return br_cli_run(&x.c, &br_cmd_run_range_spec, argc, argv, range_go);
}
