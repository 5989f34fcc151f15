/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun report [options] RESULTS.json`: the options,
 * then drive/report_file.h (the gate, the table, the output files and
 * --save-baseline for a results file read back). */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common.h"
#include "drive/report_file.h"
#include "msg.h"

#define PROG "benchrun report"
#define AT   BR_CLI_AT

const br_opt_cmd br_cmd_report_spec = {
    .prog = PROG,
    .synopsis = "[options] RESULTS.json",
    .about = "Do for a results file what a run does once it has measured: compare each run\n"
             "with its baseline, print the table, write the output files and, with\n"
             "--save-baseline, save the baselines. For the merge of a sharded plan's parts\n"
             "(benchrun merge), or any --json output.\n",
    .exit_status = "0 every case measured (and none slower than the baseline); 1 a\n"
                   "case failed or an output could not be written; 2 bad input or usage; 3 a case\n"
                   "is slower than the baseline (see --fail-on).\n",
    .min_args = 1,
    .max_args = 1,
    .args_bad = "expected one results file, RESULTS.json",
    .opts =
        (const br_opt_spec[]){
            /* the reporters' rows end in commas of their own */
            /* clang-format off */
            BR_CLI_ROWS_REPORTERS_REPORT
            BR_CLI_ROW_ROOFLINE,
            /* clang-format on */
            {BR_OPT_FLAG, "energy", 0, AT(p.outputs.energy), NULL,
             "show the energy columns (cases measured with --energy)", .flag_value = 1},
            BR_CLI_ROW_ASCII,
            BR_CLI_ROW_QUIET,
            BR_CLI_ROW_HELP,
            {BR_OPT_SECTION, NULL, 0, 0, NULL,
             "\nbaselines (baselines/<suite>/<device>.json found as a run finds them, from "
             "the\nsuite path "
             "the file records, read from the current directory):\n"},
            BR_CLI_ROWS_BASELINE("save these results as the baseline (updates only the cases\n"
                                 "measured; the comparison is shown, never exit 3)",
                                 "compare with (and save to) FILE"),
            BR_CLI_ROW_NO_COMPARE,
            BR_CLI_ROW_THRESHOLD,
            BR_CLI_ROW_ALPHA,
            BR_CLI_ROW_FAIL_ON,
            BR_CLI_ROW_FORCE_DEVICE,
            {BR_OPT_END},
        },
};

static int report_go(br_cli_opts *o, const br_opt_parsed *a) {
    br_outcome out;
    br_report_file(&out, a->args[0], &o->p);
    return br_exit_status(&out);
}

int br_cmd_report(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    return br_cli_run(&o, &br_cmd_report_spec, argc, argv, report_go);
}
