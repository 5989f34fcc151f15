/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun bisect [options] GOOD BAD SUITE.yaml`: the
 * options table, its checks, and the hand-over to the driver
 * (drive/bisect.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/files.h"
#include "commands.h"
#include "common.h"
#include "drive/bisect.h"
#include "msg.h"
#include "signals.h"

#define PROG "benchrun bisect"

/* The default rounds per look and per step: 6 as benchrun ab's blocks;
 * up to 4 looks. */
#define BISECT_DEFAULT_BLOCKS     6
#define BISECT_DEFAULT_MAX_BLOCKS 24
#define BISECT_MAX_BLOCKS         1000

/* What `benchrun bisect` parses into: the shared options first, so that
 * the shared rows (BR_CLI_AT) fit it too. */
typedef struct bisect_cli {
    br_cli_opts c;
    size_t blocks, max_blocks;
    br_bisect_opts bisect; /* GOOD BAD SUITE, split by bisect_check */
} bisect_cli;

#define AT BR_CLI_AT

/* --blocks N / --max-blocks N: an even count from 2 to BISECT_MAX_BLOCKS. */
static int blocks_opt(void *dst, const char *option, const char *arg) {
    return br_cli_even_count(dst, option, arg, BISECT_MAX_BLOCKS,
                             "the rounds pair up G M B, B M G");
}

static int bisect_check(void *dst, const br_opt_parsed *a);

const br_opt_cmd br_cmd_bisect_spec = {
    .prog = PROG,
    .synopsis = "[options] GOOD BAD SUITE.yaml",
    .about = "Which commit made a kernel slower? Measure BAD against GOOD (git revisions;\n"
             "GOOD an ancestor of BAD) as benchrun ab does; if they differ, binary-search\n"
             "the commits of BAD's first-parent line after GOOD: each step builds the commit\n"
             "in the middle of the range left and measures it against the range's two ends\n"
             "in one worker, interleaved, and classes it with the end it is closer to\n"
             "(docs/bisect.md). A commit that does not build or verify is skipped, as git\n"
             "bisect skip does. Prints the first bad commit with the ratio of its step and\n"
             "the steps taken. Several cases (-k, -p select them): their geometric mean.\n",
    .exit_status = "0 found, or no change between GOOD and BAD; 1 the case fails at\n"
                   "GOOD or BAD, or an output could not be written; 2 bad input or usage (an\n"
                   "unknown commit, GOOD not an ancestor of BAD, the suite or a source missing at\n"
                   "one end, no case selected); 130 / 143 interrupted.\n",
    .check = bisect_check,
    .opts =
        (const br_opt_spec[]){
            BR_CLI_ROW_KERNEL(AT(patterns),
                              "search only kernels whose name matches the glob (repeatable)"),
            BR_CLI_ROW_PARAM(AT(params),
                             "set a parameter, at every commit (as for benchrun; repeatable)"),
            {BR_OPT_FN, "blocks", 0, offsetof(bisect_cli, blocks), "N",
             "measure each commit of a step N times per look (even;\n"
             "default 6), in rounds G M B, B M G ...",
             blocks_opt},
            {BR_OPT_FN, "max-blocks", 0, offsetof(bisect_cli, max_blocks), "N",
             "while a commit cannot be classed, measure N blocks of it\n"
             "at most (even; default 24), then skip it as undecided",
             blocks_opt},
            BR_CLI_ROW_THRESHOLD_AS("smallest change between GOOD and BAD that is searched\n"
                                    "(default 0.5%)"),
            BR_CLI_ROW_ALPHA_INTERVAL,
            BR_CLI_ROW_JSON,
            BR_CLI_ROW_MARKDOWN,
            BR_CLI_ROW_CACHE_DIR_CHECKOUT(
                "compile cache (default as for benchrun); each commit's files\n"
                "are checked out into DIR/bisect/<commit> while it is needed"),
            BR_CLI_ROW_JOBS,
            BR_CLI_ROW_ASCII,
            BR_CLI_ROW_QUIET,
            BR_CLI_ROW_HELP,
            {BR_OPT_SECTION, NULL, 0, 0, NULL,
             "\nmeasurement of every block (each replaces the suite's setting at every commit):\n"},
            BR_CLI_ROWS_BLOCK_MEASURE,
            {BR_OPT_END},
        },
};

/* GOOD BAD SUITE into o. Returns 0, or -1 after a message. */
static int split_args(br_bisect_opts *o, const char **args, size_t n) {
    for (size_t i = 0; i < n && i < 2; i++)
        if (br_cli_is_suite_arg(args[i])) {
            br_msg_error(PROG,
                         "'%s' is a suite file: give GOOD and BAD first (benchrun bisect "
                         "HEAD~20 HEAD %s)",
                         args[i], args[i]);
            return -1;
        }
    if (n != 3) {
        br_msg_error(PROG, "expected GOOD BAD SUITE.yaml: two revisions and one suite file "
                           "(try 'benchrun bisect --help')");
        return -1;
    }
    o->good_rev = args[0];
    o->bad_rev = args[1];
    o->suite = args[2];
    return 0;
}

/* GOOD BAD SUITE into x->bisect, and the outputs and blocks: 0, or -1
 * after a message. */
static int bisect_check(void *dst, const br_opt_parsed *a) {
    bisect_cli *x = dst;
    const br_outputs *out = &x->c.p.outputs;
    if (split_args(&x->bisect, a->args, a->n_args) != 0)
        return -1;
    if (br_path_is_stdout(out->json) && br_path_is_stdout(out->markdown)) {
        br_msg_error(PROG, "--json - and --markdown - cannot both take standard output");
        return -1;
    }
    if (x->max_blocks != 0 && x->max_blocks < x->blocks) {
        br_msg_error(PROG, "--max-blocks %zu is below --blocks %zu", x->max_blocks, x->blocks);
        return -1;
    }
    return 0;
}

static int bisect_go(br_cli_opts *c, const br_opt_parsed *a) {
    (void)a;
    bisect_cli *x = (bisect_cli *)c;
    br_bisect_opts *o = &x->bisect;
    const br_pipeline_opts *p = &c->p;
    o->blocks = x->blocks;
    o->max_blocks = x->max_blocks                           ? x->max_blocks
                    : x->blocks > BISECT_DEFAULT_MAX_BLOCKS ? x->blocks
                                                            : BISECT_DEFAULT_MAX_BLOCKS;
    o->threshold = p->gate.threshold;
    o->alpha = p->gate.alpha;
    o->run = p->run;
    o->run.progress = !p->run.quiet && isatty(STDERR_FILENO);
    o->json = p->outputs.json;
    o->markdown = p->outputs.markdown;
    o->ascii = p->outputs.ascii;
    o->before_measure = br_cli_signals_arm;
    br_bisect_outcome got;
    br_bisect_run(&got, o);
    br_outcome out = {.error = got.error,
                      .failed = got.failed ? 1 : 0,
                      .stopped = got.stopped,
                      .write_failed = got.write_failed};
    return br_exit_status(&out);
}

int br_cmd_bisect(int argc, char **argv) {
    /* max_blocks 0: given, or BISECT_DEFAULT_MAX_BLOCKS (at least --blocks) */
    bisect_cli x = {.blocks = BISECT_DEFAULT_BLOCKS};
    br_cli_opts_init(&x.c);
    return br_cli_run(&x.c, &br_cmd_bisect_spec, argc, argv, bisect_go);
}
