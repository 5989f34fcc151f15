/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun compare [options] OLD.json NEW.json`: the
 * options, then drive/compare_files.h. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common.h"
#include "drive/compare_files.h"
#include "msg.h"

#define PROG "benchrun compare"

const br_opt_cmd br_cmd_compare_spec = {
    .prog = PROG,
    .synopsis = "[options] OLD.json NEW.json",
    .about = "Compare two results files (--json output or baselines) with the baseline\n"
             "rules and print NEW's table with the comparison.\n",
    .exit_status = "0 nothing slower; 2 bad input; 3 a case is slower.\n",
    .compact = 1,
    .min_args = 2,
    .max_args = 2,
    .args_bad = "expected two results files, OLD.json NEW.json",
    .opts =
        (const br_opt_spec[]){
            BR_CLI_ROW_THRESHOLD,
            BR_CLI_ROW_ALPHA,
            BR_CLI_ROW_FAIL_ON,
            BR_CLI_ROW_FORCE_DEVICE,
            BR_CLI_ROW_MARKDOWN,
            BR_CLI_ROW_JSON,
            BR_CLI_ROW_ASCII,
            BR_CLI_ROW_QUIET,
            BR_CLI_ROW_HELP,
            {BR_OPT_END},
        },
};

static int compare_go(br_cli_opts *o, const br_opt_parsed *a) {
    br_outcome out;
    br_compare_files(&out, a->args[0], a->args[1], &o->p);
    return br_exit_status(&out);
}

int br_cmd_compare(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    return br_cli_run(&o, &br_cmd_compare_spec, argc, argv, compare_go);
}
