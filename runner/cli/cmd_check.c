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

#define PROG "benchrun check"
#define AT   BR_CLI_AT

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec check_opts[] = {
    {BR_OPT_LIST, "kernel", 'k', AT(patterns), "PATTERN",
     "check only kernels whose name matches the glob (repeatable)"},
    {BR_OPT_FN, "param", 'p', AT(params), "NAME=VALUE",
     "set a parameter, as benchrun -p does (repeatable)", br_cli_param_unique},
    {BR_OPT_VALUE, "cache-dir", 0, AT(p.run.cache_dir), "DIR",
     "compile cache (default $XDG_CACHE_HOME/benchrun,\n"
     "else ~/.cache/benchrun)"},
    {BR_OPT_FN, "jobs", 'j', AT(p.run.jobs), "N",
     "compile at most N kernel sources at once (default: CPUs)", br_cli_jobs},
    BR_CLI_ROW_QUIET,
    BR_CLI_ROW_HELP,
    {BR_OPT_END}};
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_check_spec = {
    .prog = PROG,
    .synopsis = "[options] SUITE.yaml...",
    .about = "Load, plan and compile every suite and find its kernels, as a run does,\n"
             "without measuring anything: bad keys, unknown kernels and compile errors\n"
             "show with the run's messages (file:line:column, the compiler's\n"
             "diagnostics). One line per suite on standard output.\n",
    .opts = check_opts,
    .exit_status = "0 every suite would run; 2 a suite has bad input, a kernel\n"
                   "no source defines, or a source that does not compile.\n",
    .compact = 1,
};

int br_cmd_check(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    br_opt_parsed a;
    int status = 2;
    switch (br_opt_parse(&a, &br_cmd_check_spec, &o, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_check_spec);
        status = 0;
        break;
    case BR_PARSE_OK:
        if (a.n_args == 0) {
            br_msg_error(PROG, "no suite file given (usage: benchrun check SUITE.yaml...)");
        } else if (o.p.run.cache_dir && !o.p.run.cache_dir[0]) {
            br_msg_error(PROG, "--cache-dir expects a directory name");
        } else {
            br_pipeline_opts *p = &o.p;
            p->suites = a.args;
            p->n_suites = a.n_args;
            p->run.patterns = o.patterns.items;
            p->run.n_patterns = o.patterns.n;
            p->run.params = o.params.items;
            p->run.n_params = o.params.n;
            status = br_check_suites(p);
        }
        break;
    default:
        break;
    }
    free(a.args);
    br_cli_opts_dispose(&o);
    return status;
}
