/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun [options] SUITE.yaml...`: the options table, its
 * checks, and the hand-over to the pipeline (drive/pipeline.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "msg.h"
#include "signals.h"

#define AT BR_CLI_AT

static const br_name host_lane_names[] = {
    {BR_HOST_LANE_BESIDE, "beside"}, {BR_HOST_LANE_AFTER, "after"}, {0, NULL}};

/* What --shard cannot go with: 0, or -1 after a message. */
static int check_shard(const br_pipeline_opts *p) {
    const char *err = NULL;
    if (p->shard.n_times && !p->shard.index && !p->run.devices)
        err = "--shard-times balances shards or devices: it needs --shard I/N or --devices";
    else if (p->shard.index && p->gate.save)
        err = "--save-baseline with --shard: parts saved at once overwrite each other's\n"
              "baseline; merge the parts, then: benchrun report MERGED.json --save-baseline";
    else if (p->shard.index && p->outputs.results_dir)
        err = "--results-dir with --shard: history would read a part as a whole run; write\n"
              "the part with --json, then: benchrun merge --results-dir DIR PART.json...";
    if (err)
        br_msg_error("benchrun", "%s", err);
    return err ? -1 : 0;
}

/* The checks that need every option: 0, or -1 after a message. */
static int check_run(void *dst, const br_opt_parsed *a) {
    const br_pipeline_opts *p = &((const br_cli_opts *)dst)->p;
    size_t n_suites = a->n_args;
    const char *err = NULL;
    if (n_suites == 0) {
        br_msg_error("benchrun", "no suite file given");
        br_cli_usage_short(stderr);
        return -1;
    }
    if (p->run.no_cupti && p->run.gpu_clock == BR_CLOCK_KERNEL)
        err = "--clock kernel needs CUPTI; it cannot go with --no-cupti";
    else if (p->outputs.gbench_repetitions && !p->outputs.gbench)
        err = "--gbench-repetitions shapes the --gbench file: give --gbench FILE with it";
    if (err) {
        br_msg_error("benchrun", "%s", err);
        return -1;
    }
    if (check_shard(p) != 0)
        return -1;
    if (p->gate.baseline && n_suites > 1) {
        br_msg_error("benchrun", "--baseline names one file: give one suite with it");
        return -1;
    }
    return 0;
}

/* --man, --completion SHELL. */
static int run_action(const br_opt_parsed *a) {
    if (strcmp(a->action->name, "man") == 0) {
        br_cmd_man(stdout);
        return 0;
    }
    if (strcmp(a->action_arg, "bash") != 0) {
        br_msg_error("benchrun", "--completion: expected bash, found '%s'", a->action_arg);
        return 2;
    }
    br_cmd_completion_bash(stdout);
    return 0;
}

const br_opt_cmd br_cmd_run_spec = {
    .prog = "benchrun",
    .synopsis = "[options] SUITE.yaml...",
    .about = "Compile, verify and measure the kernels of each suite and print a table.\n",
    .more = br_cli_commands_help,
    .foot = "Each case runs in a worker process: a case that crashes or hangs is recorded\n"
            "as failed and a fresh worker goes on with the next. On SIGINT or SIGTERM\n"
            "benchrun starts no new case, writes every output for the cases finished (the\n"
            "rest marked interrupted) and exits; a second signal exits at once.\n",
    .exit_status = "0 every case verified and measured (and none slower than the\n"
                   "baseline); 1 a case failed (compile, verify, run, crash or timeout); 2 bad\n"
                   "input or usage; 3 a case is slower than the baseline (see --fail-on);\n"
                   "130 / 143 interrupted by SIGINT / SIGTERM.\n",
    .env = br_cli_environment,
    .check = check_run,
    .action = run_action,
    .opts =
        (const br_opt_spec[]){
            BR_CLI_ROW_KERNEL(AT(patterns),
                              "run only kernels whose name matches the glob (repeatable)"),
            BR_CLI_ROW_PARAM(AT(params),
                             "set a parameter in every suite that has it: one value\n"
                             "or a list NAME=[A,B,...] (values may be expressions such\n"
                             "as 2^20); for a zipped parameter, keep the group's\n"
                             "entries with those values (repeatable)"),
            {BR_OPT_FLAG, "list", 0, AT(p.list), NULL,
             "print the planned cases (and the plan's size) and exit", .flag_value = 1},
            {BR_OPT_FN, "shard", 0, AT(p.shard), "I/N",
             "run only the I-th of N parts of the plan (I from 1);\n"
             "the same case lands in the same shard on every machine\n"
             "(merge the parts with benchrun merge)",
             br_cli_shard},
            {BR_OPT_FN, "shard-times", 0, AT(p.shard), "FILE",
             "balance the shards by the cases' measured times in FILE\n"
             "(a results file or baseline; repeatable; else by count);\n"
             "with --devices, hand out the cases longest first by them",
             br_cli_shard_times},
            {BR_OPT_FN, "devices", 0, AT(p.run.devices), "all|LIST",
             "measure on several GPUs of this host at once, one worker\n"
             "per GPU: all, or indices such as 0,2,5 (of one model)",
             br_cli_devices, .values = "all"},
            {BR_OPT_ENUM, "host-lane", 0, AT(p.run.host_lane), "WHERE",
             "host cases in a run with GPU cases: beside (default: on\n"
             "their own CPU while the GPU cases run, where it fits) or\n"
             "after (one after another, the GPU idle)",
             NULL, host_lane_names, "expected beside or after, found '%s'"},
            {BR_OPT_FN, "budget", 0, AT(p.run.budget_ns), "DUR",
             "bound the whole run's measuring time, e.g. 10m: each case's\n"
             "warmup and timeout are shortened to fit (suite: budget)",
             br_cli_duration_positive},
            {BR_OPT_FN, "results-dir", 0, AT(p.outputs.results_dir), "DIR",
             "also write the results as DIR/<date>-<commit>.json\n"
             "(never overwritten; see benchrun history)",
             br_cli_dir},
            /* the reporters' rows end in commas of their own */
            /* clang-format off */
            BR_CLI_ROWS_REPORTERS
            {BR_OPT_FLAG, "gbench-repetitions", 0, AT(p.outputs.gbench_repetitions), NULL,
             "write --gbench with each sample as a repetition,\n"
             "plus mean/median/stddev/cv (compare.py's U test)",
             .flag_value = 1},
            /* clang-format on */
            BR_CLI_ROW_ROOFLINE,
            {BR_OPT_FLAG, "energy", 0, AT(p.run.energy), NULL,
             "also measure energy per execution of GPU cases through\n"
             "NVML (about 3.5 s more per case) and show it in the table",
             .flag_value = 1},
            {BR_OPT_FLAG, "timing-report", 0, AT(p.timing_report), NULL,
             "at the end, say where the run's wall time went: per phase\n"
             "(compile, setup, warmup, samples, ...) and the slowest cases",
             .flag_value = 1},
            BR_CLI_ROW_CACHE_DIR(AT(p.run.cache_dir)),
            BR_CLI_ROW_ASCII,
            BR_CLI_ROW_JOBS,
            BR_CLI_ROW_QUIET,
            BR_CLI_ROW_HELP,
            {BR_OPT_VERSION, "version", 'V', 0, NULL, "show the version"},
            {BR_OPT_SECTION, NULL, 0, 0, NULL,
             "\nmeasurement (each replaces the suite's setting of the same name):\n"},
            BR_CLI_ROWS_MODE(AT(p.run.measure)),
            {BR_OPT_ENUM, "cache", 0, AT(p.run.measure), "POLICY",
             "flush, warm or flush-memset (comparison only)", br_cli_measure, br_cache_names,
             "unknown cache policy '%s' (expected flush, warm or flush-memset)"},
            {BR_OPT_FN, "warmup", 0, AT(p.run.measure), "DUR",
             "warmup time budget per case, e.g. 25ms", br_cli_measure},
            BR_CLI_MEASURE("min-samples", "N", "at least N samples"),
            BR_CLI_MEASURE("min-time", "DUR", "at least DUR of measured time"),
            {BR_OPT_FN, "max-noise", 0, AT(p.run.measure), "PCT",
             "precision: stop once the median's 95% CI is within\n"
             "+-PCT/20 (where that takes past the timeout: once\n"
             "stddev/mean is under PCT), e.g. 10%",
             br_cli_measure},
            {BR_OPT_FN, "timeout", 0, AT(p.run.measure), "DUR",
             "never sample one case for longer than DUR", br_cli_measure},
            {BR_OPT_FN, "watchdog", 0, AT(p.run.measure), "DUR",
             "kill a case that runs DUR past its warmup and timeout and\n"
             "record it as timed out (default 1min)",
             br_cli_measure},
            BR_CLI_MEASURE("max-samples", "N", "never take more than N samples"),
            {BR_OPT_FN, "throttle", 0, AT(p.run.measure), "PCT",
             "discard GPU samples below PCT of the maximum SM clock (0: off)", br_cli_measure},
            {BR_OPT_FN, "cpu", 0, AT(p.run.cpu), "N",
             "measure host cases on CPU N alone ('off': no pinning;\n"
             "default: a CPU of a core the parent is kept off)",
             br_cli_cpu, .values = "off"},
            {BR_OPT_FLAG, "no-hold", 0, AT(p.run.measure), NULL,
             "do not hold the GPU stream while a sample is enqueued", br_cli_measure,
             .flag_value = 0},
            BR_CLI_ROW_CLOCK("GPU times: kernel (default: the GPU operations' own\n"
                             "durations from CUPTI activity records; falls back to events\n"
                             "where CUPTI cannot be used) or events (CUDA events)"),
            {BR_OPT_FLAG, "no-cupti", 0, AT(p.run.no_cupti), NULL,
             "collect no CUPTI records (GPU times are CUDA events only)", .flag_value = 1},
            {BR_OPT_FLAG, "no-nvtx", 0, AT(p.run.no_nvtx), NULL,
             "emit no NVTX ranges (by default each GPU case and each\n"
             "sample's timed span is a range in the domain 'benchrun',\n"
             "for Nsight Systems and Nsight Compute)",
             .flag_value = 1},
            {BR_OPT_SECTION, NULL, 0, 0, NULL,
             "\nbaselines (baselines/<suite>/<device>.json at the top of the suite's git work "
             "tree;\noutside git, beside the suite's suites/ folder or in the suite's own "
             "folder):\n"},
            BR_CLI_ROWS_BASELINE("save this run as the baseline (updates only the cases run;\n"
                                 "the comparison with the old one is shown, never exit 3)",
                                 "compare with (and save to) FILE instead"),
            {BR_OPT_FN, "history", 0, AT(p.gate.history), "DIR",
             "compare with the last regression.keep runs at other\n"
             "commits in DIR (--results-dir's files) instead",
             br_cli_dir},
            BR_CLI_ROW_NO_COMPARE,
            BR_CLI_ROW_THRESHOLD,
            BR_CLI_ROW_ALPHA,
            BR_CLI_ROW_FAIL_ON,
            {BR_OPT_ENUM, "confirm", 0, AT(p.gate.confirm), "WHEN",
             "auto (default), never or always: measure the cases the\n"
             "comparison flags again, interleaved (as benchrun ab) against\n"
             "the baseline's own commit, and let that decide; auto does\n"
             "where the commit can be checked out, always fails where not",
             NULL, br_confirm_mode_names, "expected auto, never or always, found '%s'"},
            {BR_OPT_FN, "confirm-timeout", 0, AT(p.gate.confirm_timeout_ns), "DUR",
             "bound the confirmation's checkout, build and measuring\n"
             "(default 5m); cases not reached keep the comparison's verdict",
             br_cli_duration_positive},
            BR_CLI_ROW_FORCE_DEVICE,
            {BR_OPT_ACTION, "man", 0, 0, NULL, "write the man page (roff) to standard output",
             .hidden = 1},
            {BR_OPT_ACTION, "completion", 0, 0, "SHELL",
             "write the completion script for SHELL (bash) to standard output", .hidden = 1,
             .values = "bash"},
            {BR_OPT_END},
        },
};

static int run_go(br_cli_opts *o, const br_opt_parsed *a) {
    (void)a;
    br_pipeline_opts *p = &o->p;
    p->run.progress = !p->run.quiet && isatty(STDERR_FILENO) && !p->run.devices;
    p->run.device_times = p->shard.times;
    p->run.n_device_times = p->shard.n_times;
    p->outputs.energy = p->run.energy; /* what --energy measures, the table shows */
    p->before_measure = br_cli_signals_arm;
    br_outcome out;
    br_pipeline_run(&out, p);
    return br_exit_status(&out);
}

int br_cmd_run(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    return br_cli_run(&o, &br_cmd_run_spec, argc, argv, run_go);
}
