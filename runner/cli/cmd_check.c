/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_check.c - `benchrun check [options] SUITE.yaml...`: load, plan and
 * build every suite as a run would, and measure nothing. For editors and
 * pre-commit hooks: what --list does not find (a kernel that no source
 * defines, a compile error) shows here, with the run's own messages. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common.h"
#include "msg.h"

#define PROG "benchrun check"
#define AT   BR_CLI_AT

enum { EXIT_OK = 0, EXIT_BAD_INPUT = 2 };

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
    PROG,
    "usage: benchrun check [options] SUITE.yaml...\n"
    "\n"
    "Load, plan and compile every suite and find its kernels, as a run does,\n"
    "without measuring anything: bad keys, unknown kernels and compile errors\n"
    "show with the run's messages (file:line:column, the compiler's\n"
    "diagnostics). One line per suite on standard output.\n"
    "\n",
    "\n"
    "exit status: 0 every suite would run; 2 a suite has bad input, a kernel\n"
    "no source defines, or a source that does not compile.\n",
    check_opts, 1};

/* The summary line of one suite from its outcome. Returns 1 when the
 * suite passes. */
static int summarize(const char *path, const br_outcome *out) {
    if (out->error) {
        printf("%s: FAILED: bad input (see above)\n", path);
        return 0;
    }
    size_t cases = out->ok + out->failed + out->skipped;
    if (out->failed || out->modules_failed) {
        printf("%s: FAILED: %zu of %zu kernel module(s) did not compile or load; %zu of %zu "
               "case(s) would fail\n",
               path, out->modules_failed, out->modules, out->failed, cases);
        return 0;
    }
    printf("%s: ok: %zu case(s), %zu to measure, %zu skipped for want of a GPU; %zu kernel "
           "module(s) built",
           path, cases, out->ok, out->skipped, out->modules - out->modules_skipped);
    if (out->modules_skipped)
        printf(", %zu GPU source(s) not compiled (no nvcc)", out->modules_skipped);
    putchar('\n');
    return 1;
}

/* Check each suite on its own (so one bad suite does not hide the next's
 * problems) through the pipeline's prepare and build. Returns the exit
 * status. */
static int check_suites(br_cli_opts *o, const char *const *suites, size_t n) {
    int status = EXIT_OK;
    br_pipeline_opts *p = &o->p;
    p->check = 1;
    p->run.patterns = o->patterns.items;
    p->run.n_patterns = o->patterns.n;
    p->run.params = o->params.items;
    p->run.n_params = o->params.n;
    for (size_t i = 0; i < n; i++) {
        p->suites = &suites[i];
        p->n_suites = 1;
        br_outcome out;
        br_pipeline_run(&out, p);
        if (!summarize(suites[i], &out) || br_exit_status(&out) != EXIT_OK)
            status = EXIT_BAD_INPUT;
        fflush(stdout); /* each line before the next suite's messages on stderr */
    }
    return status;
}

int br_cmd_check(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    br_opt_parsed a;
    int status = EXIT_BAD_INPUT;
    switch (br_opt_parse(&a, &br_cmd_check_spec, &o, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_check_spec);
        status = EXIT_OK;
        break;
    case BR_PARSE_OK:
        if (a.n_args == 0)
            br_msg_error(PROG, "no suite file given (usage: benchrun check SUITE.yaml...)");
        else if (o.p.run.cache_dir && !o.p.run.cache_dir[0])
            br_msg_error(PROG, "--cache-dir expects a directory name");
        else
            status = check_suites(&o, a.args, a.n_args);
        break;
    default:
        break;
    }
    free(a.args);
    br_cli_opts_dispose(&o);
    return status;
}
