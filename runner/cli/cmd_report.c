/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_report.c - `benchrun report [options] RESULTS.json`: what a run does
 * after measuring (the gate against the baselines, the table and the output
 * files, --save-baseline), done for a results file read back: a merge of a
 * sharded plan's parts (benchrun merge), or any --json output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "msg.h"
#include "gate/baseline.h"
#include "gate/compare.h"
#include "results/gitinfo.h"
#include "results/merge.h"
#include "results/run_read.h"

#define PROG "benchrun report"

#define AT BR_CLI_AT

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec report_opts[] = {
    {BR_OPT_VALUE, "csv", 0, AT(p.outputs.csv), "FILE",
     "also write the results as CSV ('-': standard output)"},
    BR_CLI_ROW_JSON,
    BR_CLI_ROW_MARKDOWN,
    {BR_OPT_VALUE, "gbench", 0, AT(p.outputs.gbench), "FILE",
     "also write the results in Google Benchmark's JSON format"},
    {BR_OPT_FN, "roofline", 0, AT(p.outputs.roofline), "FILE.svg",
     "also draw the roofline chart of the GPU cases with both\n"
     "bytes and flops (needs gnuplot)",
     br_cli_file},
    {BR_OPT_FLAG, "energy", 0, AT(p.outputs.energy), NULL,
     "show the energy columns (cases measured with --energy)", .flag_value = 1},
    BR_CLI_ROW_ASCII,
    BR_CLI_ROW_QUIET,
    BR_CLI_ROW_HELP,
    {BR_OPT_SECTION, NULL, 0, 0, NULL,
     "\nbaselines (baselines/<suite>/<device>.json found as a run finds them, from the\nsuite path "
     "the file records, read from the current directory):\n"},
    {BR_OPT_FLAG, "save-baseline", 0, AT(p.gate.save), NULL,
     "save these results as the baseline (updates only the cases\n"
     "measured; the comparison is shown, never exit 3)",
     .flag_value = 1},
    {BR_OPT_FN, "baseline", 0, AT(p.gate.baseline), "FILE", "compare with (and save to) FILE",
     br_cli_file},
    {BR_OPT_FN, "baseline-dir", 0, AT(p.gate.dir), "DIR",
     "keep baselines under DIR/<suite>/<device>.json", br_cli_dir},
    {BR_OPT_FLAG, "no-compare", 0, AT(p.gate.no_compare), NULL, "do not compare with the baseline",
     .flag_value = 1},
    BR_CLI_ROW_THRESHOLD,
    BR_CLI_ROW_ALPHA,
    BR_CLI_ROW_FAIL_ON,
    BR_CLI_ROW_FORCE_DEVICE,
    {BR_OPT_END}};
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_report_spec = {
    PROG,
    "usage: benchrun report [options] RESULTS.json\n"
    "\n"
    "Do for a results file what a run does once it has measured: compare each run\n"
    "with its baseline, print the table, write the output files and, with\n"
    "--save-baseline, save the baselines. For the merge of a sharded plan's parts\n"
    "(benchrun merge), or any --json output.\n"
    "\n"
    "options:\n",
    "\n"
    "exit status: 0 every case measured (and none slower than the baseline); 1 a\n"
    "case failed or an output could not be written; 2 bad input or usage; 3 a case\n"
    "is slower than the baseline (see --fail-on).\n",
    report_opts, 0};

/* A results file does not keep the machine's path of the work tree it ran in,
 * so a run measured in git finds its baselines again as a run does: at the
 * top of the git work tree that holds its suite (the suite path it records,
 * read from the current directory), when that file is still in one. */
static void find_work_tree(br_run *r) {
    if (!r->git.present || r->git.workdir[0] || !r->suite_path || access(r->suite_path, R_OK) != 0)
        return;
    br_gitinfo gi;
    if (br_gitinfo_read(&gi, r->suite_path) == 0 && gi.present && gi.workdir[0])
        snprintf(r->git.workdir, sizeof r->git.workdir, "%s", gi.workdir);
}

/* The gate for every run, as the pipeline does it: rules, comparison. */
static void report_gate(br_outcome *out, br_run *runs, size_t n, const br_pipeline_opts *p) {
    const br_gate_opts *g = &p->gate;
    for (size_t i = 0; i < n; i++) {
        br_run *r = &runs[i];
        size_t a, b, c;
        br_run_count(r, &a, &b, &c);
        out->ok += a, out->failed += b, out->skipped += c;
        br_comparison_dispose(r->comparison); /* a results file may carry one */
        free(r->comparison);
        r->comparison = NULL;
        r->regression = br_gate_rules(r, g);
        find_work_tree(r);
        if (g->no_compare)
            continue;
        if (br_gate_attach(r, g, p->run.quiet) < 0) {
            br_msg_error(PROG, "%s", br_error_get());
            out->bad_baseline = 1;
        }
        if (!g->save)
            out->slower |= br_baseline_fails(r->comparison, g->fail_on);
    }
}

/* --save-baseline for every run; not from an interrupted run. */
static void report_save(br_outcome *out, const br_run *runs, size_t n, const br_pipeline_opts *p) {
    for (size_t i = 0; p->gate.save && i < n; i++) {
        if (runs[i].interrupted) {
            br_msg_error(PROG, "suite '%s' was interrupted (%s): its baseline is not saved",
                         runs[i].suite_name, runs[i].interrupted);
            continue;
        }
        int sr = br_gate_save(&runs[i], &p->gate, p->run.quiet);
        if (sr != 0 && br_error_kind_get() == BR_E_INPUT)
            out->bad_baseline = 1;
        else if (sr != 0)
            out->write_failed = 1;
    }
}

/* Cases a merge marked missing, said once. */
static void say_missing(const br_run *runs, size_t n) {
    size_t missing = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < runs[r].n_cases; i++)
            missing += br_merge_case_missing(&runs[r].cases[i]);
    if (missing)
        br_msg_error(PROG, "%zu case(s) are missing (a shard gave no results): shown as skipped",
                     missing);
}

/* Load, gate, write, save. Returns the exit status. */
static int report_file(const char *path, const br_pipeline_opts *p) {
    br_run *runs = NULL;
    size_t n = 0;
    br_outcome out;
    memset(&out, 0, sizeof out);
    if (br_results_load(&runs, &n, path) != 0) {
        br_msg_error(PROG, "%s", br_error_get());
        return 2;
    }
    const br_run **ptrs = calloc(n ? n : 1, sizeof *ptrs);
    if (n == 0 || !ptrs) {
        if (n)
            br_msg_error(PROG, "out of memory");
        else
            br_msg_error(PROG, "%s: holds no run", path);
        free(ptrs);
        br_results_free(runs, n);
        return 2;
    }
    if (p->gate.baseline && n > 1) {
        br_msg_error(PROG, "--baseline names one file, and %s holds %zu runs", path, n);
        free(ptrs);
        br_results_free(runs, n);
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &runs[i];
    report_gate(&out, runs, n, p);
    if (br_outputs_write(&p->outputs, ptrs, n, p->run.quiet) != 0)
        out.write_failed = 1;
    report_save(&out, runs, n, p);
    if (!p->run.quiet)
        say_missing(runs, n);
    free(ptrs);
    br_results_free(runs, n);
    return br_exit_status(&out);
}

int br_cmd_report(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    o.p.outputs.ascii = br_cli_locale();
    br_opt_parsed a;
    int status = 2;
    switch (br_opt_parse(&a, &br_cmd_report_spec, &o, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_report_spec);
        status = 0;
        break;
    case BR_PARSE_OK:
        if (a.n_args != 1) {
            br_msg_error(PROG, "expected one results file, RESULTS.json");
        } else if (br_output_check("--csv", o.p.outputs.csv) != 0 ||
                   br_output_check("--json", o.p.outputs.json) != 0 ||
                   br_output_check("--markdown", o.p.outputs.markdown) != 0 ||
                   br_output_check("--gbench", o.p.outputs.gbench) != 0 ||
                   br_output_check("--roofline", o.p.outputs.roofline) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
        } else {
            o.p.outputs.color = br_cli_use_color(STDOUT_FILENO);
            status = report_file(a.args[0], &o.p);
        }
        break;
    default:
        break;
    }
    free(a.args);
    br_cli_opts_dispose(&o);
    return status;
}
