/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun init [DIR]`: the options, then drive/scaffold.h
 * with the templates embedded at build time (init_templates.h). */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common.h"
#include "drive/scaffold.h"
#include "init_templates.h"
#include "msg.h"

#define PROG "benchrun init"

static const br_opt_spec init_opts[] = {BR_CLI_ROW_HELP, {BR_OPT_END}};

/* The directory, when given, is a name: 0, or -1 after a message. */
static int init_check(void *dst, const br_opt_parsed *a) {
    (void)dst;
    if (a->n_args == 0 || a->args[0][0])
        return 0;
    br_msg_error(PROG, "expected a directory name, found ''");
    return -1;
}

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
    .max_args = 1,
    .args_bad = "expected at most one directory, found %zu arguments",
    .check = init_check,
};

int br_cmd_init(int argc, char **argv) {
    br_opt_parsed a;
    int nothing = 0; /* init has no option but --help */
    int status = br_cli_parse(&a, &br_cmd_init_spec, &nothing, argc, argv);
    if (status == BR_CLI_GO_ON)
        status =
            br_scaffold_write(a.n_args ? a.args[0] : ".", br_init_templates, br_init_n_templates);
    free(a.args);
    return status;
}
