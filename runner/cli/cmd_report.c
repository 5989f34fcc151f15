/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun report [options] RESULTS.json`: the options,
 * then drive/report_file.h (the gate, the table, the output files and
 * --save-baseline for a results file read back). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "drive/report_file.h"
#include "msg.h"

#define PROG "benchrun report"
#define AT   BR_CLI_AT

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec report_opts[] = {
    {BR_OPT_VALUE, "csv", 0, AT(p.outputs.csv), "FILE",
     "also write the results as CSV ('-': standard output)"},
    BR_CLI_ROW_JSON,
    BR_CLI_ROW_MARKDOWN,
    {BR_OPT_VALUE, "gbench", 0, AT(p.outputs.gbench), "FILE",
     "also write the results in Google Benchmark's JSON format"},
    {BR_OPT_FN, "roofline", 0, AT(p.outputs.roofline), "FILE.svg",
     "also draw the roofline chart of the GPU cases with both\n"
     "bytes and flops (needs gnuplot)",
     br_cli_file},
    {BR_OPT_FLAG, "energy", 0, AT(p.outputs.energy), NULL,
     "show the energy columns (cases measured with --energy)", .flag_value = 1},
    BR_CLI_ROW_ASCII,
    BR_CLI_ROW_QUIET,
    BR_CLI_ROW_HELP,
    {BR_OPT_SECTION, NULL, 0, 0, NULL,
     "\nbaselines (baselines/<suite>/<device>.json found as a run finds them, from the\nsuite path "
     "the file records, read from the current directory):\n"},
    {BR_OPT_FLAG, "save-baseline", 0, AT(p.gate.save), NULL,
     "save these results as the baseline (updates only the cases\n"
     "measured; the comparison is shown, never exit 3)",
     .flag_value = 1},
    {BR_OPT_FN, "baseline", 0, AT(p.gate.baseline), "FILE", "compare with (and save to) FILE",
     br_cli_file},
    {BR_OPT_FN, "baseline-dir", 0, AT(p.gate.dir), "DIR",
     "keep baselines under DIR/<suite>/<device>.json", br_cli_dir},
    {BR_OPT_FLAG, "no-compare", 0, AT(p.gate.no_compare), NULL, "do not compare with the baseline",
     .flag_value = 1},
    BR_CLI_ROW_THRESHOLD,
    BR_CLI_ROW_ALPHA,
    BR_CLI_ROW_FAIL_ON,
    BR_CLI_ROW_FORCE_DEVICE,
    {BR_OPT_END}};
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_report_spec = {
    .prog = PROG,
    .synopsis = "[options] RESULTS.json",
    .about = "Do for a results file what a run does once it has measured: compare each run\n"
             "with its baseline, print the table, write the output files and, with\n"
             "--save-baseline, save the baselines. For the merge of a sharded plan's parts\n"
             "(benchrun merge), or any --json output.\n",
    .opts = report_opts,
    .exit_status = "0 every case measured (and none slower than the baseline); 1 a\n"
                   "case failed or an output could not be written; 2 bad input or usage; 3 a case\n"
                   "is slower than the baseline (see --fail-on).\n",
};

int br_cmd_report(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    o.p.outputs.ascii = br_cli_locale();
    br_opt_parsed a;
    int status = 2;
    switch (br_opt_parse(&a, &br_cmd_report_spec, &o, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_report_spec);
        status = 0;
        break;
    case BR_PARSE_OK:
        if (a.n_args != 1) {
            br_msg_error(PROG, "expected one results file, RESULTS.json");
        } else if (br_output_check("--csv", o.p.outputs.csv) != 0 ||
                   br_output_check("--json", o.p.outputs.json) != 0 ||
                   br_output_check("--markdown", o.p.outputs.markdown) != 0 ||
                   br_output_check("--gbench", o.p.outputs.gbench) != 0 ||
                   br_output_check("--roofline", o.p.outputs.roofline) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
        } else {
            o.p.outputs.color = br_cli_use_color(STDOUT_FILENO);
            br_outcome out;
            br_report_file(&out, a.args[0], &o.p);
            status = br_exit_status(&out);
        }
        break;
    default:
        break;
    }
    free(a.args);
    br_cli_opts_dispose(&o);
    return status;
}
