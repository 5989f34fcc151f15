/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun ab [options] OLD [NEW] SUITE.yaml...`: the options
 * table, its checks, and the hand-over to the driver (drive/ab.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drive/ab.h"
#include "base/error.h"
#include "base/util.h"
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
} ab_cli;

#define AT BR_CLI_AT

/* --blocks N: an even count from 2 to AB_MAX_BLOCKS. */
static int blocks_opt(void *dst, const char *option, const char *arg) {
    return br_cli_even_count(dst, option, arg, AB_MAX_BLOCKS, "the blocks pair up A B, B A");
}

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec ab_opts[] = {
    {BR_OPT_FN, "blocks", 0, offsetof(ab_cli, blocks), "N",
     "measure each build of each case N times (even; default 6),\n"
     "alternating A B B A ...; more blocks, a narrower interval",
     blocks_opt},
    {BR_OPT_LIST, "kernel", 'k', AT(patterns), "PATTERN",
     "compare only kernels whose name matches the glob (repeatable)"},
    {BR_OPT_FN, "param", 'p', AT(params), "NAME=VALUE",
     "set a parameter in every suite that has it, on both sides\n"
     "(as for benchrun; repeatable)",
     br_cli_param_unique},
    {BR_OPT_FN, "threshold", 0, AT(p.gate.threshold), "PCT",
     "smallest change that counts (default 0.5%): slower when the\n"
     "whole interval lies above 1 + PCT",
     br_cli_fraction_or_zero},
    {BR_OPT_FN, "alpha", 0, AT(p.gate.alpha), "P",
     "1 - the intervals' confidence level (default 0.05: 95%)", br_cli_fraction},
    BR_CLI_ROW_FAIL_ON,
    BR_CLI_ROW_JSON,
    BR_CLI_ROW_MARKDOWN,
    {BR_OPT_VALUE, "gbench", 0, AT(p.outputs.gbench), "FILE",
     "also write both runs in Google Benchmark's JSON format"},
    {BR_OPT_FN, "cache-dir", 0, AT(p.run.cache_dir), "DIR",
     "compile cache (default as for benchrun); OLD's files are\n"
     "checked out into DIR/ab/<commit> while the command runs",
     br_cli_dir},
    {BR_OPT_FN, "jobs", 'j', AT(p.run.jobs), "N",
     "compile at most N kernel sources at once (default: CPUs)", br_cli_jobs},
    BR_CLI_ROW_ASCII,
    BR_CLI_ROW_QUIET,
    BR_CLI_ROW_HELP,
    {BR_OPT_SECTION, NULL, 0, 0, NULL,
     "\nmeasurement of every block (each replaces the suite's setting on both sides):\n"},
    BR_CLI_ROWS_BLOCK_MEASURE,
    {BR_OPT_END}};
#pragma GCC diagnostic pop

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
    .opts = ab_opts,
    .exit_status = "0 nothing slower; 1 a case failed; 2 bad input or usage (an\n"
                   "unknown revision, a suite or source missing at a commit, a kernel on one side\n"
                   "only); 3 a case is slower (see --fail-on); 130 / 143 interrupted.\n",
};

/* Whether positional `arg` is a suite file rather than a revision. */
static int is_suite_arg(const char *arg) {
    struct stat st;
    return br_has_suffix(arg, ".yaml") || br_has_suffix(arg, ".yml") ||
           (stat(arg, &st) == 0 && S_ISREG(st.st_mode));
}

/* OLD [NEW] SUITE... into o. Returns 0, or -1 after a message. */
static int split_args(br_ab_opts *o, const char **args, size_t n) {
    if (n >= 1 && is_suite_arg(args[0])) {
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
    if (!is_suite_arg(args[1]))
        o->new_rev = args[first++];
    if (first == n) {
        br_msg_error(PROG, "no suite file given (after OLD%s)", o->new_rev ? " and NEW" : "");
        return -1;
    }
    o->suites = args + first;
    o->n_suites = n - first;
    return 0;
}

/* The checks that need every option: 0, or -1 after a message. */
static int check_ab(const br_cli_opts *c) {
    const br_pipeline_opts *p = &c->p;
    if (br_output_check("--json", p->outputs.json) != 0 ||
        br_output_check("--markdown", p->outputs.markdown) != 0 ||
        br_output_check("--gbench", p->outputs.gbench) != 0) {
        fprintf(stderr, "%s\n", br_error_get());
        return -1;
    }
    return 0;
}

/* Parse, check and run. Returns the exit status. */
static int ab_main(ab_cli *x, br_opt_parsed *a, int argc, char **argv) {
    switch (br_opt_parse(a, &br_cmd_ab_spec, x, argc, argv)) {
    case BR_PARSE_OK:
        break;
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_ab_spec);
        return 0;
    default:
        return 2;
    }
    br_ab_opts o = {0};
    if (split_args(&o, a->args, a->n_args) != 0 || check_ab(&x->c) != 0)
        return 2;
    br_pipeline_opts *p = &x->c.p;
    o.blocks = x->blocks;
    o.run = p->run;
    o.run.patterns = x->c.patterns.items;
    o.run.n_patterns = x->c.patterns.n;
    o.run.params = x->c.params.items;
    o.run.n_params = x->c.params.n;
    o.run.progress = !p->run.quiet && isatty(STDERR_FILENO);
    o.gate = p->gate;
    o.outputs = p->outputs;
    o.outputs.color = br_cli_use_color(STDOUT_FILENO);
    o.before_measure = br_cli_signals_arm;
    br_outcome out;
    br_ab_run(&out, &o);
    return br_exit_status(&out);
}

int br_cmd_ab(int argc, char **argv) {
    ab_cli x;
    br_cli_opts_init(&x.c);
    x.c.p.outputs.ascii = br_cli_locale();
    x.blocks = AB_DEFAULT_BLOCKS;
    br_opt_parsed a = {0};
    int status = ab_main(&x, &a, argc, argv);
    free(a.args);
    br_cli_opts_dispose(&x.c);
    return status;
}
