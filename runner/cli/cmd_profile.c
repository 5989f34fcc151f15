/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun profile SUITE -k KERNEL -p NAME=VALUE [-- NCU
 * ARGS]`: the options, then drive/profile_case.h (one case under Nsight
 * Compute). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "drive/profile_case.h"
#include "msg.h"

#define PROG "benchrun profile"

typedef struct profile_opts {
    br_opt_list patterns; /* -k */
    br_cli_params params; /* -p */
    const char *tool;     /* --tool: ncu */
    const char *set;      /* --set: basic, full or NULL (ncu's default) */
    const char *json;     /* --json FILE */
    const char *raw;      /* --raw FILE: ncu's output as it printed it */
    const char *cache_dir;
    int samples; /* executions to profile */
    int ascii, quiet;
    size_t n_extra; /* the arguments after "--", for ncu */
} profile_opts;

#define AT(field) offsetof(profile_opts, field)

static int samples_opt(void *dst, const char *option, const char *arg) {
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end || errno || v < 1 || v > 100)
        return br_error_set("%s expects a number of executions from 1 to 100, found '%s'", option,
                            arg);
    *(int *)dst = (int)v;
    return 0;
}

static int tool_opt(void *dst, const char *option, const char *arg) {
    if (strcmp(arg, "ncu") != 0)
        return br_error_set("%s: expected ncu (Nsight Compute), found '%s'", option, arg);
    *(const char **)dst = arg;
    return 0;
}

static int set_opt(void *dst, const char *option, const char *arg) {
    if (strcmp(arg, "basic") != 0 && strcmp(arg, "full") != 0)
        return br_error_set("%s: expected basic or full (ncu's section sets), found '%s'", option,
                            arg);
    *(const char **)dst = arg;
    return 0;
}

/* One suite, a kernel, and what goes to ncu: 0, or -1 after a message. */
static int profile_check(void *dst, const br_opt_parsed *a) {
    const profile_opts *o = dst;
    (void)a;
    if (o->n_extra > 128)
        br_msg_error(PROG, "%zu arguments after --: at most 128 go to ncu", o->n_extra);
    else if (o->patterns.n == 0)
        br_msg_error(PROG, "give the kernel to profile with -k KERNEL");
    else
        return 0;
    return -1;
}

const br_opt_cmd br_cmd_profile_spec = {
    .prog = PROG,
    .synopsis = "SUITE.yaml -k KERNEL [-p NAME=VALUE]... [options]\n"
                "[-- EXTRA NCU ARGS]",
    .about = "Profile exactly one case under Nsight Compute (ncu): measure it once as\n"
             "benchrun does, then run it under ncu (cold samples, no warmup, no launch\n"
             "hold, no CUPTI) selecting only the timed launches by their NVTX range, and\n"
             "print ncu's figures beside benchrun's: duration per kernel, DRAM bytes\n"
             "against the suite's bytes, achieved occupancy, SM and memory throughput and\n"
             "L2 hit rate. ncu is $BENCHRUN_NCU, else ncu on PATH, else\n"
             "/usr/local/cuda/bin/ncu; arguments after -- go to ncu (the GPU clocks are\n"
             "left unlocked, --clock-control none, unless they say otherwise).\n",
    .exit_status = "0 profiled; 1 the case failed; 2 bad usage, not exactly one\n"
                   "case, no ncu, or ncu failed (without access to the GPU's counters, say).\n",
    .min_args = 1,
    .max_args = 1,
    .args_bad = "expected one suite file, found %zu (usage: benchrun profile SUITE.yaml -k KERNEL "
                "-p NAME=VALUE)",
    .check = profile_check,
    .opts =
        (const br_opt_spec[]){
            BR_CLI_ROW_KERNEL(AT(patterns),
                              "the kernel to profile (a glob, as benchrun -k; repeatable)"),
            BR_CLI_ROW_PARAM(AT(params), "set a parameter, as benchrun -p does (repeatable)"),
            {BR_OPT_FN, "tool", 0, AT(tool), "TOOL",
             "the profiler: ncu (Nsight Compute, the default)", tool_opt, .values = "ncu"},
            {BR_OPT_FN, "set", 0, AT(set), "SET",
             "ncu's section set: basic or full (default: ncu's own)", set_opt,
             .values = "basic full"},
            {BR_OPT_FN, "samples", 0, AT(samples), "N", "executions to profile (default 3)",
             samples_opt},
            {BR_OPT_VALUE, "json", 0, AT(json), "FILE",
             "also write the profile as JSON ('-': standard output)", .output = 1},
            {BR_OPT_VALUE, "raw", 0, AT(raw), "FILE", "also keep ncu's output (its CSV) in FILE"},
            BR_CLI_ROW_CACHE_DIR(AT(cache_dir)),
            {BR_OPT_FLAG, "ascii", 0, AT(ascii), NULL, "plain ASCII box", .flag_value = 1},
            BR_CLI_ROW_QUIET_AT(AT(quiet), "no progress messages on standard error"),
            BR_CLI_ROW_HELP,
            {BR_OPT_END},
        },
};

/* argv up to "--" is benchrun's; what follows goes to ncu. */
static int split_extra(int argc, char **argv, char ***extra, size_t *n_extra) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            *extra = argv + i + 1;
            *n_extra = (size_t)(argc - i - 1);
            return i;
        }
    *extra = NULL;
    *n_extra = 0;
    return argc;
}

int br_cmd_profile(int argc, char **argv) {
    profile_opts o = {.samples = 3};
    o.ascii = br_cli_locale();
    char **extra;
    int own_argc = split_extra(argc, argv, &extra, &o.n_extra);
    br_opt_parsed a;
    int status = br_cli_parse(&a, &br_cmd_profile_spec, &o, own_argc, argv);
    if (status == BR_CLI_GO_ON)
        status = br_profile_case(&(br_profile_opts){.suite = a.args[0],
                                                    .patterns = o.patterns.items,
                                                    .n_patterns = o.patterns.n,
                                                    .params = o.params.items,
                                                    .n_params = o.params.n,
                                                    .set = o.set,
                                                    .json = o.json,
                                                    .raw = o.raw,
                                                    .cache_dir = o.cache_dir,
                                                    .samples = o.samples,
                                                    .ascii = o.ascii,
                                                    .quiet = o.quiet,
                                                    .extra = extra,
                                                    .n_extra = o.n_extra});
    free(a.args);
    br_opt_list_free(&o.patterns);
    br_cli_params_dispose(&o.params);
    return status;
}
