/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun ab [options] OLD [NEW] SUITE.yaml...`: the options
 * table, its checks, and the hand-over to the driver (drive/ab.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "drive/ab.h"
#include "commands.h"
#include "common.h"
#include "msg.h"
#include "signals.h"

#define PROG "benchrun ab"

/* The default blocks of each build per case: 6 pairs give a t interval
 * with 5 degrees of freedom (t = 2.57 at 95%). */
#define AB_DEFAULT_BLOCKS 6
#define AB_MAX_BLOCKS     1000

/* What `benchrun ab` parses into: the shared options first, so that the
 * shared rows (BR_CLI_AT, offsets into br_cli_opts) fit it too. */
typedef struct ab_cli {
    br_cli_opts c;
    size_t blocks;
    br_ab_opts ab; /* OLD [NEW] SUITE..., split by ab_check */
} ab_cli;

#define AT BR_CLI_AT

/* --blocks N: an even count from 2 to AB_MAX_BLOCKS. */
static int blocks_opt(void *dst, const char *option, const char *arg) {
    return br_cli_even_count(dst, option, arg, AB_MAX_BLOCKS, "the blocks pair up A B, B A");
}

static int ab_check(void *dst, const br_opt_parsed *a);

const br_opt_cmd br_cmd_ab_spec = {
    .prog = PROG,
    .synopsis = "[options] OLD [NEW] SUITE.yaml...",
    .about = "Did a change make a kernel slower? Build the suites' kernels as they are at\n"
             "git commit OLD (any revision: HEAD~1, a SHA, a branch) and at NEW (another\n"
             "revision; by default the work tree as it is), measure the two builds of each\n"
             "case in one worker, alternating in blocks (A B B A ...) so that drift hits\n"
             "both alike, and print per case the ratio NEW/OLD with its confidence interval\n"
             "and the verdict of a paired t test on the blocks (docs/baselines.md).\n"
             "The second argument is NEW unless it ends in .yaml or .yml or names a file.\n",
    .exit_status = "0 nothing slower; 1 a case failed; 2 bad input or usage (an\n"
                   "unknown revision, a suite or source missing at a commit, a kernel on one side\n"
                   "only); 3 a case is slower (see --fail-on); 130 / 143 interrupted.\n",
    .check = ab_check,
    .opts =
        (const br_opt_spec[]){
            {BR_OPT_FN, "blocks", 0, offsetof(ab_cli, blocks), "N",
             "measure each build of each case N times (even; default 6),\n"
             "alternating A B B A ...; more blocks, a narrower interval",
             blocks_opt},
            BR_CLI_ROW_KERNEL(AT(patterns),
                              "compare only kernels whose name matches the glob (repeatable)"),
            BR_CLI_ROW_PARAM(AT(params),
                             "set a parameter in every suite that has it, on both sides\n"
                             "(as for benchrun; repeatable)"),
            BR_CLI_ROW_THRESHOLD_AS("smallest change that counts (default 0.5%): slower when the\n"
                                    "whole interval lies above 1 + PCT"),
            BR_CLI_ROW_ALPHA_INTERVAL,
            BR_CLI_ROW_FAIL_ON,
            BR_CLI_ROW_JSON,
            BR_CLI_ROW_MARKDOWN,
            BR_CLI_ROW_GBENCH_AS("also write both runs in Google Benchmark's JSON format"),
            BR_CLI_ROW_CACHE_DIR_CHECKOUT(
                "compile cache (default as for benchrun); OLD's files are\n"
                "checked out into DIR/ab/<commit> while the command runs"),
            BR_CLI_ROW_JOBS,
            BR_CLI_ROW_ASCII,
            BR_CLI_ROW_QUIET,
            BR_CLI_ROW_HELP,
            {BR_OPT_SECTION, NULL, 0, 0, NULL,
             "\nmeasurement of every block (each replaces the suite's setting on both sides):\n"},
            BR_CLI_ROWS_BLOCK_MEASURE,
            {BR_OPT_END},
        },
};

/* OLD [NEW] SUITE... into o. Returns 0, or -1 after a message. */
static int split_args(br_ab_opts *o, const char **args, size_t n) {
    if (n >= 1 && br_cli_is_suite_arg(args[0])) {
        br_msg_error(PROG,
                     "'%s' is a suite file: give the revision to compare with first "
                     "(benchrun ab HEAD~1 %s)",
                     args[0], args[0]);
        return -1;
    }
    if (n < 2) {
        br_msg_error(PROG, "expected OLD [NEW] SUITE.yaml...: a revision and a suite file "
                           "(try 'benchrun ab --help')");
        return -1;
    }
    o->old_rev = args[0];
    size_t first = 1;
    if (!br_cli_is_suite_arg(args[1]))
        o->new_rev = args[first++];
    if (first == n) {
        br_msg_error(PROG, "no suite file given (after OLD%s)", o->new_rev ? " and NEW" : "");
        return -1;
    }
    o->suites = args + first;
    o->n_suites = n - first;
    return 0;
}

/* OLD [NEW] SUITE... into x->ab: 0, or -1 after a message. */
static int ab_check(void *dst, const br_opt_parsed *a) {
    ab_cli *x = dst;
    return split_args(&x->ab, a->args, a->n_args);
}

static int ab_go(br_cli_opts *c, const br_opt_parsed *a) {
    (void)a;
    ab_cli *x = (ab_cli *)c;
    br_ab_opts *o = &x->ab;
    o->blocks = x->blocks;
    o->run = c->p.run;
    o->run.progress = !c->p.run.quiet && isatty(STDERR_FILENO);
    o->gate = c->p.gate;
    o->outputs = c->p.outputs;
    o->before_measure = br_cli_signals_arm;
    br_outcome out;
    br_ab_run(&out, o);
    return br_exit_status(&out);
}

int br_cmd_ab(int argc, char **argv) {
    ab_cli x = {.blocks = AB_DEFAULT_BLOCKS};
    br_cli_opts_init(&x.c);
    return br_cli_run(&x.c, &br_cmd_ab_spec, argc, argv, ab_go);
}
