/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun init [DIR]`: the options, then drive/scaffold.h
 * with the templates embedded at build time (init_templates.h). */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "drive/scaffold.h"
#include "init_templates.h"
#include "msg.h"

#define PROG "benchrun init"

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec init_opts[] = {{BR_OPT_HELP, "help", 'h', 0, NULL, "show this help"},
                                        {BR_OPT_END}};
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_init_spec = {
    .prog = PROG,
    .synopsis = "[DIR]",
    .about = "Write what a kernel repository needs into DIR (default: the current\n"
             "directory): suites/example.yaml, kernels/example_cpu.c (a host kernel),\n"
             "kernels/example.cu (a GPU kernel), schema/suite.schema.json (the suite\n"
             "format, for editors), baselines/README.md and\n"
             ".github/workflows/benchrun.yml (GitHub Actions on a self-hosted GPU\n"
             "runner). Nothing is overwritten: when any of these exists, init names it\n"
             "and writes nothing.\n",
    .opts = init_opts,
    .exit_status = "0 written; 2 a file exists, or bad usage.\n",
};

int br_cmd_init(int argc, char **argv) {
    br_opt_parsed a;
    int dummy = 0, status = 2;
    switch (br_opt_parse(&a, &br_cmd_init_spec, &dummy, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_init_spec);
        status = 0;
        break;
    case BR_PARSE_OK:
        if (a.n_args > 1)
            br_msg_error(PROG, "expected at most one directory, found %zu arguments", a.n_args);
        else if (a.n_args == 1 && !a.args[0][0])
            br_msg_error(PROG, "expected a directory name, found ''");
        else
            status = br_scaffold_write(a.n_args ? a.args[0] : ".", br_init_templates,
                                       br_init_n_templates);
        break;
    default:
        break;
    }
    free(a.args);
    return status;
}
