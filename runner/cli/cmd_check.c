/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun check [options] SUITE.yaml...`: the options, then
 * drive/check_suites.h (load, plan and build every suite as a run would,
 * and measure nothing). For editors and pre-commit hooks: what --list does
 * not find (a kernel that no source defines, a compile error) shows here,
 * with the run's own messages. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common.h"
#include "drive/check_suites.h"
#include "msg.h"
#include "signals.h"

#define PROG "benchrun check"
#define AT   BR_CLI_AT

const br_opt_cmd br_cmd_check_spec = {
    .prog = PROG,
    .synopsis = "[options] SUITE.yaml...",
    .about = "Load, plan and compile every suite and find its kernels, as a run does,\n"
             "without measuring anything: bad keys, unknown kernels and compile errors\n"
             "show with the run's messages (file:line:column, the compiler's\n"
             "diagnostics). One line per suite on standard output.\n",
    .exit_status = "0 every suite would run; 2 a suite has bad input, a kernel\n"
                   "no source defines, or a source that does not compile; 130 (128 + the\n"
                   "signal) interrupted.\n",
    .compact = 1,
    .min_args = 1,
    .args_bad = "no suite file given (usage: benchrun check SUITE.yaml...)",
    .opts =
        (const br_opt_spec[]){
            BR_CLI_ROW_KERNEL(AT(patterns),
                              "check only kernels whose name matches the glob (repeatable)"),
            BR_CLI_ROW_PARAM(AT(params), "set a parameter, as benchrun -p does (repeatable)"),
            BR_CLI_ROW_CACHE_DIR(AT(p.run.cache_dir)),
            BR_CLI_ROW_JOBS,
            BR_CLI_ROW_QUIET,
            BR_CLI_ROW_HELP,
            {BR_OPT_END},
        },
};

static int check_go(br_cli_opts *o, const br_opt_parsed *a) {
    (void)a;
    o->p.before_measure = br_cli_signals_arm; /* an interrupt is said as a run says it */
    return br_check_suites(&o->p);
}

int br_cmd_check(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    return br_cli_run(&o, &br_cmd_check_spec, argc, argv, check_go);
}
