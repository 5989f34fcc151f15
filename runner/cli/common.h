/* SPDX-License-Identifier: Apache-2.0 */
/* What the subcommands share: the locale set-up, the option
 * struct that run and compare parse into, and the rows they both have
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

/* What `benchrun` and `benchrun compare` parse into. */
typedef struct br_cli_opts {
    br_pipeline_opts p;
    br_opt_list patterns; /* -k */
    br_cli_params params; /* -p */
} br_cli_opts;

/* *o with no option given. */
void br_cli_opts_init(br_cli_opts *o);

/* Release what *o owns (the lists; the strings are argv's). */
void br_cli_opts_dispose(br_cli_opts *o);

#define BR_CLI_AT(field) offsetof(br_cli_opts, field)

/* The rows run and compare share. */
#define BR_CLI_ROW_JSON                                                                            \
    {                                                                                              \
        BR_OPT_VALUE, "json", 0, BR_CLI_AT(p.outputs.json), "FILE",                                \
            "also write the results as JSON ('-': standard output)"                                \
    }
#define BR_CLI_ROW_MARKDOWN                                                                        \
    {                                                                                              \
        BR_OPT_VALUE, "markdown", 0, BR_CLI_AT(p.outputs.markdown), "FILE",                        \
            "also write the results and the comparison as Markdown"                                \
    }
#define BR_CLI_ROW_ASCII                                                                           \
    {                                                                                              \
        BR_OPT_FLAG, "ascii", 0, BR_CLI_AT(p.outputs.ascii), NULL,                                 \
            "plain ASCII table (the default when the locale is not UTF-8)", .flag_value = 1        \
    }
#define BR_CLI_ROW_QUIET                                                                           \
    {                                                                                              \
        BR_OPT_FLAG, "quiet", 'q', BR_CLI_AT(p.run.quiet), NULL,                                   \
            "no progress messages on standard error", .flag_value = 1                              \
    }
/* The measurement rows of a command that measures blocks interleaved (ab,
 * bisect): each replaces the suite's setting; AT(p.run...) of its struct. */
#define BR_CLI_ROWS_BLOCK_MEASURE                                                                    \
    {BR_OPT_ENUM,    "mode",       0, AT(p.run.measure), "MODE", "cold, batch or both",              \
     br_cli_measure, br_mode_names},                                                                 \
        {BR_OPT_ENUM,       "headline",    0,                                                        \
         AT(p.run.measure), "MODE",        "which time is compared: cold or batch",                  \
         br_cli_measure,    br_mode_names, .accept = (1u << BR_MODE_COLD) | (1u << BR_MODE_BATCH)},  \
        {BR_OPT_FN,         "warmup", 0,                                                             \
         AT(p.run.measure), "DUR",    "warmup time budget per block, e.g. 25ms",                     \
         br_cli_measure},                                                                            \
        {BR_OPT_FN, "min-samples", 0, AT(p.run.measure), "N", "at least N samples", br_cli_measure}, \
        {BR_OPT_FN,     "min-time", 0, AT(p.run.measure), "DUR", "at least DUR of measured time",    \
         br_cli_measure},                                                                            \
        {BR_OPT_FN,         "max-noise", 0,                                                          \
         AT(p.run.measure), "PCT",       "stop once the noise (stddev/mean) is under PCT",           \
         br_cli_measure},                                                                            \
        {BR_OPT_FN,         "timeout", 0,                                                            \
         AT(p.run.measure), "DUR",     "never sample one block for longer than DUR",                 \
         br_cli_measure},                                                                            \
        {BR_OPT_FN,     "max-samples", 0, AT(p.run.measure), "N", "never take more than N samples",  \
         br_cli_measure},                                                                            \
    {                                                                                                \
        BR_OPT_ENUM, "clock", 0, AT(p.run.gpu_clock), "CLOCK",                                       \
            "GPU times: kernel (default, CUPTI) or events (CUDA events)", NULL, br_clock_names,      \
            "expected kernel or events, found '%s'",                                                 \
            .accept = (1u << BR_CLOCK_KERNEL) | (1u << BR_CLOCK_EVENTS)                              \
    }
#define BR_CLI_ROW_HELP                                                                            \
    { BR_OPT_HELP, "help", 'h', 0, NULL, "show this help" }
#define BR_CLI_ROW_THRESHOLD                                                                       \
    {                                                                                              \
        BR_OPT_FN, "threshold", 0, BR_CLI_AT(p.gate.threshold), "PCT",                             \
            "minimum change that counts, e.g. 2% (suite: regression.threshold)",                   \
            br_cli_fraction_or_zero                                                                \
    }
#define BR_CLI_ROW_ALPHA                                                                           \
    {                                                                                              \
        BR_OPT_FN, "alpha", 0, BR_CLI_AT(p.gate.alpha), "P",                                       \
            "significance level of the test, e.g. 0.01 (regression.alpha)", br_cli_fraction        \
    }
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

#endif
