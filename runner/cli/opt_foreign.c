/* SPDX-License-Identifier: Apache-2.0 */
/* The flags of the tools benchrun users come from (Google Benchmark,
 * hyperfine, pytest-benchmark, NVBench), each with what does its job here:
 * one row a flag, as curl's tool_writeout.c keeps its variables in one
 * table. The flags are as those tools document them: Google Benchmark's
 * docs/user_guide.md, hyperfine --help (1.18), pytest-benchmark's usage page
 * (4.0), NVBench's docs/cli_help.md. */
#include "opt.h"

#include <string.h>

static const struct foreign {
    const char *name; /* without the leading dashes, as the tool spells it */
    const char *tool;
    const char *here; /* benchrun's way to the same end */
} foreign[] = {
    {"benchmark_filter", "Google Benchmark's", "-k KERNEL (a glob; -p NAME=VALUE picks sizes)"},
    {"benchmark_out", "Google Benchmark's", "--json FILE (or --gbench FILE: its own JSON)"},
    {"benchmark_out_format", "Google Benchmark's", "--json, --csv, --markdown or --gbench FILE"},
    {"benchmark_format", "Google Benchmark's", "--json, --csv, --markdown or --gbench FILE"},
    {"benchmark_repetitions", "Google Benchmark's",
     "--min-samples N (each sample is a repetition; --gbench-repetitions N for its JSON)"},
    {"benchmark_min_time", "Google Benchmark's", "--min-time DURATION"},
    {"benchmark_min_warmup_time", "Google Benchmark's", "--warmup DURATION"},
    {"benchmark_list_tests", "Google Benchmark's", "--list"},
    {"benchmark_enable_random_interleaving", "Google Benchmark's",
     "benchrun ab OLD [NEW] SUITE (interleaved blocks)"},
    {"export-json", "hyperfine's", "--json FILE"},
    {"export-csv", "hyperfine's", "--csv FILE"},
    {"export-markdown", "hyperfine's", "--markdown FILE"},
    {"runs", "hyperfine's", "--min-samples N and --max-samples N"},
    {"min-runs", "hyperfine's", "--min-samples N"},
    {"max-runs", "hyperfine's", "--max-samples N"},
    {"parameter-scan", "hyperfine's", "-p NAME=VALUES (or params: in the suite)"},
    {"parameter-list", "hyperfine's", "-p NAME=VALUES (or params: in the suite)"},
    {"benchmark-compare", "pytest-benchmark's",
     "benchrun compare OLD NEW, or --baseline FILE (a saved baseline is compared by default)"},
    {"benchmark-compare-fail", "pytest-benchmark's", "--threshold PCT and --fail-on slower"},
    {"benchmark-json", "pytest-benchmark's", "--json FILE"},
    {"benchmark-save", "pytest-benchmark's", "--save-baseline"},
    {"benchmark-autosave", "pytest-benchmark's", "--results-dir DIR"},
    {"benchmark-min-rounds", "pytest-benchmark's", "--min-samples N"},
    {"benchmark-max-time", "pytest-benchmark's", "--timeout DURATION"},
    {"benchmark-warmup", "pytest-benchmark's", "--warmup DURATION"},
    {"benchmark", "NVBench's", "-k KERNEL (a glob)"},
    {"axis", "NVBench's", "-p NAME=VALUES"},
    {"device", "NVBench's", "--devices LIST (e.g. all, or 0,2)"},
    {"stopping-criterion", "NVBench's", "--max-noise PCT with --min-time and --timeout"},
    {"throttle-threshold", "NVBench's", "--throttle"},
    {"md", "NVBench's", "--markdown FILE"},
    {"run-once", "NVBench's", "--min-samples 1 --max-samples 1"},
    {"profile", "NVBench's", "benchrun profile SUITE (Nsight Compute)"},
};

int br_opt_foreign(const char *name, size_t len, const char **tool, const char **here) {
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++)
        if (strlen(foreign[i].name) == len && strncmp(foreign[i].name, name, len) == 0) {
            *tool = foreign[i].tool;
            *here = foreign[i].here;
            return 1;
        }
    return 0;
}
