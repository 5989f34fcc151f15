/* SPDX-License-Identifier: Apache-2.0 */
/* What the subcommands share: the locale set-up, the one parse
 * path (br_cli_parse), the option struct that the commands over the
 * pipeline's options parse into, and the rows several commands have
 * (written once, here); the converters are convert.h's. */
#ifndef BR_CLI_COMMON_H
#define BR_CLI_COMMON_H

#include <stddef.h>

#include "convert.h"
#include "opt.h"
#include "drive/pipeline.h"
#include "plan/plan.h"

/* Set the locale from the environment (numbers stay in the C locale, so
 * every output uses '.') once per process. Returns 1 when the codeset is
 * not UTF-8 (tables are then plain ASCII), else 0. */
int br_cli_locale(void);

/* ANSI colours on fd: a terminal, and NO_COLOR unset or empty (no-color.org). */
int br_cli_use_color(int fd);

/* What the commands over the pipeline's options parse into: benchrun,
 * check, compare and report (ab and bisect begin their own structs with
 * it). */
typedef struct br_cli_opts {
    br_pipeline_opts p;
    br_opt_list patterns; /* -k */
    br_cli_params params; /* -p */
} br_cli_opts;

/* *o with no option given (br_pipeline_opts_init), the table in plain
 * ASCII where the locale is not UTF-8 (br_cli_locale). */
void br_cli_opts_init(br_cli_opts *o);

/* Hand what the command line gave to o->p: the positionals (a->args,
 * borrowed) as the suites, -k and -p (borrowed from o), and the colours of
 * standard output (br_cli_use_color). */
void br_cli_opts_finish(br_cli_opts *o, const br_opt_parsed *a);

/* Whether positional `arg` of ab or bisect names a suite file rather than a
 * git revision: it ends in .yaml or .yml, or names a regular file. */
int br_cli_is_suite_arg(const char *arg);

/* br_cli_parse's answer when the command goes on. */
#define BR_CLI_GO_ON (-1)

/* The one parse path of every command: parse argv by cmd into dst
 * (br_opt_parse), then
 * - --help: the help on standard output, 0;
 * - --version: "benchrun VERSION" on standard output, 0;
 * - a hidden action row: cmd->action's exit status;
 * - a usage error: 2 (the message is on stderr);
 * - a count of positionals out of cmd's bounds: 2 after cmd->args_bad;
 * - else cmd->check (when set), then every output row (.output) through
 *   br_cli_outputs_check: 2 when one refuses (said on stderr), else
 *   BR_CLI_GO_ON.
 * a->args is allocated on every outcome: the caller frees it. */
int br_cli_parse(br_opt_parsed *a, const br_opt_cmd *cmd, void *dst, int argc, char **argv);

/* A command over br_cli_opts in one call: parse argv by cmd into *o
 * (br_cli_parse; o initialised by the caller, br_cli_opts_init and then the
 * command's own defaults, and it may begin a larger struct that cmd's rows
 * write to), and when it goes on, hand the positionals and lists to o->p
 * (br_cli_opts_finish) and call go(o, a); then release what o owns
 * (br_cli_opts_dispose). Returns the exit status: br_cli_parse's, or go's. */
int br_cli_run(br_cli_opts *o, const br_opt_cmd *cmd, int argc, char **argv,
               int (*go)(br_cli_opts *o, const br_opt_parsed *a));

/* The output rows of opts (.output = 1) checked in table order against the
 * paths in dst (br_output_check: NULL passes). Returns 0, or -1 after the
 * first refusal on stderr ("benchrun: --json PATH: why"). */
int br_cli_outputs_check(const br_opt_spec *opts, const void *dst);

/* Release what *o owns (the lists and the --shard-times files; the strings
 * are argv's). */
void br_cli_opts_dispose(br_cli_opts *o);

#define BR_CLI_AT(field) offsetof(br_cli_opts, field)

/* The option tables of the commands (and these rows) name a row's leading
 * fields in order and leave the rest zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* The rows several commands share. A row over a field of the command's
 * own struct takes the field's offset (`at`); the rest are over
 * br_cli_opts (BR_CLI_AT), and fit a struct that starts with one. */
#define BR_CLI_ROW_KERNEL(at, help)                                                                \
    { BR_OPT_LIST, "kernel", 'k', at, "PATTERN", help }
#define BR_CLI_ROW_PARAM(at, help)                                                                 \
    { BR_OPT_FN, "param", 'p', at, "NAME=VALUE", help, br_cli_param_unique }
#define BR_CLI_ROW_CACHE_DIR(at)                                                                   \
    {                                                                                              \
        BR_OPT_FN, "cache-dir", 0, at, "DIR",                                                      \
            "compile cache (default $XDG_CACHE_HOME/benchrun,\n"                                   \
            "else ~/.cache/benchrun)",                                                             \
            br_cli_dir                                                                             \
    }
/* ab's and bisect's: `help` says where each commit's files are checked out. */
#define BR_CLI_ROW_CACHE_DIR_CHECKOUT(help)                                                        \
    { BR_OPT_FN, "cache-dir", 0, BR_CLI_AT(p.run.cache_dir), "DIR", help, br_cli_dir }
/* --mode and --headline into the measurement layer at `at` (the run's and
 * run-range's rows). */
#define BR_CLI_ROWS_MODE(at)                                                                       \
    {BR_OPT_ENUM, "mode", 0, at, "MODE", "cold, batch or both", br_cli_measure, br_mode_names}, {  \
        BR_OPT_ENUM, "headline", 0, at, "MODE", "which time the metric uses: cold or batch",       \
            br_cli_measure, br_mode_names, .accept = (1u << BR_MODE_COLD) | (1u << BR_MODE_BATCH)  \
    }

#define BR_CLI_ROW_JOBS                                                                            \
    {                                                                                              \
        BR_OPT_FN, "jobs", 'j', BR_CLI_AT(p.run.jobs), "N",                                        \
            "compile at most N kernel sources at once (default: CPUs)", br_cli_jobs                \
    }
/* An output file of a reporter: one row, checked before the command runs. */
#define BR_CLI_ROW_OUTPUT(name, field, help)                                                       \
    { BR_OPT_VALUE, name, 0, BR_CLI_AT(p.outputs.field), "FILE", help, .output = 1 }
/* The rows of the reporters of files (reporters/reporter.h's
 * BR_REPORTER_FILES): every one for `benchrun`, those with in_report 1 for
 * `benchrun report`. */
#define BR_CLI_ROW_REPORTER(id, name, help, in_report) BR_CLI_ROW_OUTPUT(name, id, help),
#define BR_CLI_ROWS_REPORTERS                          BR_REPORTER_FILES(BR_CLI_ROW_REPORTER)
#define BR_CLI_IF_1(...)                               __VA_ARGS__
#define BR_CLI_IF_0(...)
#define BR_CLI_ROW_REPORTER_REPORT(id, name, help, in_report)                                      \
    BR_CLI_IF_##in_report(BR_CLI_ROW_OUTPUT(name, id, help), )
#define BR_CLI_ROWS_REPORTERS_REPORT BR_REPORTER_FILES(BR_CLI_ROW_REPORTER_REPORT)
/* One reporter's row, for the commands that offer some of them. */
#define BR_CLI_ROW_JSON            BR_CLI_ROW_OUTPUT("json", json, BR_REPORTER_HELP_JSON)
#define BR_CLI_ROW_MARKDOWN        BR_CLI_ROW_OUTPUT("markdown", markdown, BR_REPORTER_HELP_MARKDOWN)
#define BR_CLI_ROW_GBENCH_AS(help) BR_CLI_ROW_OUTPUT("gbench", gbench, help)
#define BR_CLI_ROW_ROOFLINE                                                                        \
    {                                                                                              \
        BR_OPT_FN, "roofline", 0, BR_CLI_AT(p.outputs.roofline), "FILE.svg",                       \
            "also draw the roofline chart of the GPU cases with both\n"                            \
            "bytes and flops (needs gnuplot)",                                                     \
            br_cli_file, .output = 1                                                               \
    }
#define BR_CLI_ROW_ASCII                                                                           \
    {                                                                                              \
        BR_OPT_FLAG, "ascii", 0, BR_CLI_AT(p.outputs.ascii), NULL,                                 \
            "plain ASCII table (the default when the locale is not UTF-8)", .flag_value = 1        \
    }
#define BR_CLI_ROW_QUIET_AT(at, help)                                                              \
    { BR_OPT_FLAG, "quiet", 'q', at, NULL, help, .flag_value = 1 }
#define BR_CLI_ROW_QUIET                                                                           \
    BR_CLI_ROW_QUIET_AT(BR_CLI_AT(p.run.quiet), "no progress messages on standard error")
#define BR_CLI_ROW_HELP_AS(hide)                                                                   \
    { BR_OPT_HELP, "help", 'h', 0, NULL, "show this help", .hidden = hide }
#define BR_CLI_ROW_HELP BR_CLI_ROW_HELP_AS(0)
/* The measurement rows of a command that measures blocks interleaved (ab,
 * bisect): each replaces the suite's setting. */
#define BR_CLI_MEASURE(name, value, help)                                                          \
    { BR_OPT_FN, name, 0, BR_CLI_AT(p.run.measure), value, help, br_cli_measure }
#define BR_CLI_ROWS_BLOCK_MEASURE                                                                  \
    {BR_OPT_ENUM,    "mode",       0, BR_CLI_AT(p.run.measure), "MODE", "cold, batch or both",     \
     br_cli_measure, br_mode_names},                                                               \
        {BR_OPT_ENUM,                                                                              \
         "headline",                                                                               \
         0,                                                                                        \
         BR_CLI_AT(p.run.measure),                                                                 \
         "MODE",                                                                                   \
         "which time is compared: cold or batch",                                                  \
         br_cli_measure,                                                                           \
         br_mode_names,                                                                            \
         .accept = (1u << BR_MODE_COLD) | (1u << BR_MODE_BATCH)},                                  \
        BR_CLI_MEASURE("warmup", "DUR", "warmup time budget per block, e.g. 25ms"),                \
        BR_CLI_MEASURE("min-samples", "N", "at least N samples"),                                  \
        BR_CLI_MEASURE("min-time", "DUR", "at least DUR of measured time"),                        \
        BR_CLI_MEASURE("max-noise", "PCT", "stop once the noise (stddev/mean) is under PCT"),      \
        BR_CLI_MEASURE("timeout", "DUR", "never sample one block for longer than DUR"),            \
        BR_CLI_MEASURE("max-samples", "N", "never take more than N samples"),                      \
        BR_CLI_ROW_CLOCK("GPU times: kernel (default, CUPTI) or events (CUDA events)")
#define BR_CLI_ROW_CLOCK(help)                                                                     \
    {                                                                                              \
        BR_OPT_ENUM, "clock", 0, BR_CLI_AT(p.run.gpu_clock), "CLOCK", help, NULL, br_clock_names,  \
            "expected kernel or events, found '%s'",                                               \
            .accept = (1u << BR_CLOCK_KERNEL) | (1u << BR_CLOCK_EVENTS)                            \
    }
#define BR_CLI_ROW_THRESHOLD_AS(help)                                                              \
    { BR_OPT_FN, "threshold", 0, BR_CLI_AT(p.gate.threshold), "PCT", help, br_cli_fraction_or_zero }
#define BR_CLI_ROW_THRESHOLD                                                                       \
    BR_CLI_ROW_THRESHOLD_AS("minimum change that counts, e.g. 2% (suite: regression.threshold)")
#define BR_CLI_ROW_ALPHA_AS(help)                                                                  \
    { BR_OPT_FN, "alpha", 0, BR_CLI_AT(p.gate.alpha), "P", help, br_cli_fraction }
#define BR_CLI_ROW_ALPHA                                                                           \
    BR_CLI_ROW_ALPHA_AS("significance level of the test, e.g. 0.01 (regression.alpha)")
/* ab's and bisect's --alpha. */
#define BR_CLI_ROW_ALPHA_INTERVAL                                                                  \
    BR_CLI_ROW_ALPHA_AS("1 - the intervals' confidence level (default 0.05: 95%)")
#define BR_CLI_ROW_FAIL_ON                                                                         \
    {                                                                                              \
        BR_OPT_ENUM, "fail-on", 0, BR_CLI_AT(p.gate.fail_on), "WHAT",                              \
            "slower (default), any-change or never: when a comparison\n"                           \
            "fails the run with exit status 3",                                                    \
            NULL, br_fail_on_names, "expected slower, any-change or never, found '%s'"             \
    }
#define BR_CLI_ROW_FORCE_DEVICE                                                                    \
    {                                                                                              \
        BR_OPT_FLAG, "force-device", 0, BR_CLI_AT(p.gate.force_device), NULL,                      \
            "compare with a baseline measured on another device", .flag_value = 1                  \
    }
/* The baseline rows of run and report; `save_help` and `baseline_help`
 * are theirs. */
#define BR_CLI_ROWS_BASELINE(save_help, baseline_help)                                              \
    {BR_OPT_FLAG, "save-baseline", 0, BR_CLI_AT(p.gate.save), NULL, save_help, .flag_value = 1},    \
        {BR_OPT_FN, "baseline", 0, BR_CLI_AT(p.gate.baseline), "FILE", baseline_help, br_cli_file}, \
    {                                                                                               \
        BR_OPT_FN, "baseline-dir", 0, BR_CLI_AT(p.gate.dir), "DIR",                                 \
            "keep baselines under DIR/<suite>/<device>.json", br_cli_dir                            \
    }
#define BR_CLI_ROW_NO_COMPARE                                                                      \
    {                                                                                              \
        BR_OPT_FLAG, "no-compare", 0, BR_CLI_AT(p.gate.no_compare), NULL,                          \
            "do not compare with the baseline", .flag_value = 1                                    \
    }

#endif
