/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun compare [options] OLD.json NEW.json`: the
 * options, then drive/compare_files.h. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "drive/compare_files.h"
#include "msg.h"

#define PROG "benchrun compare"

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
/* clang-format off */
static const br_opt_spec compare_opts[] = {
    BR_CLI_ROW_THRESHOLD,
    BR_CLI_ROW_ALPHA,
    BR_CLI_ROW_FAIL_ON,
    BR_CLI_ROW_FORCE_DEVICE,
    BR_CLI_ROW_MARKDOWN,
    BR_CLI_ROW_JSON,
    BR_CLI_ROW_ASCII,
    BR_CLI_ROW_QUIET,
    BR_CLI_ROW_HELP,
    {BR_OPT_END}};
/* clang-format on */
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_compare_spec = {
    .prog = PROG,
    .synopsis = "[options] OLD.json NEW.json",
    .about = "Compare two results files (--json output or baselines) with the baseline\n"
             "rules and print NEW's table with the comparison.\n",
    .opts = compare_opts,
    .exit_status = "0 nothing slower; 2 bad input; 3 a case is slower.\n",
    .compact = 1,
};

int br_cmd_compare(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    o.p.outputs.ascii = br_cli_locale();
    br_opt_parsed a;
    int status = 2;
    switch (br_opt_parse(&a, &br_cmd_compare_spec, &o, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_compare_spec);
        status = 0;
        break;
    case BR_PARSE_OK:
        if (a.n_args != 2) {
            br_msg_error(PROG, "expected two results files, OLD.json NEW.json");
        } else if (br_output_check("--markdown", o.p.outputs.markdown) != 0 ||
                   br_output_check("--json", o.p.outputs.json) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
        } else {
            o.p.outputs.color = br_cli_use_color(STDOUT_FILENO);
            br_outcome out;
            br_compare_files(&out, a.args[0], a.args[1], &o.p);
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
