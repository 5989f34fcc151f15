/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_merge.c - `benchrun merge (-o OUT.json | --results-dir DIR)
 * PART.json...`: the parts of a sharded plan (benchrun --shard I/N) merged
 * into one results document (results/merge.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "msg.h"
#include "results/merge.h"
#include "results/run_read.h"
#include "results/shardinfo.h"

#define PROG "benchrun merge"

enum { EXIT_OK = 0, EXIT_INCOMPLETE = 1, EXIT_BAD_INPUT = 2 };

/* Most missing cases named one by one. */
#define MISSING_SHOWN 10

typedef struct merge_opts {
    const char *output;      /* -o FILE */
    const char *results_dir; /* --results-dir DIR */
    int quiet;
} merge_opts;

#define AT(field) offsetof(merge_opts, field)

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec merge_opts_spec[] = {
    {BR_OPT_VALUE, "output", 'o', AT(output), "FILE",
     "write the merged results document to FILE (atomically)"},
    {BR_OPT_FN, "results-dir", 0, AT(results_dir), "DIR",
     "write it as DIR/<date>-<commit>.json, as benchrun\n"
     "--results-dir does (never overwritten; see benchrun history)",
     br_cli_dir},
    {BR_OPT_FLAG, "quiet", 'q', AT(quiet), NULL, "only errors on standard error", .flag_value = 1},
    {BR_OPT_HELP, "help", 'h', 0, NULL, "show this help"},
    {BR_OPT_END}};
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_merge_spec = {
    PROG,
    "usage: benchrun merge (-o OUT.json | --results-dir DIR) PART.json...\n"
    "\n"
    "Merge the parts of a sharded plan (each written by benchrun --shard I/N --json\n"
    "PART.json) into one results document, as if one machine had run the whole\n"
    "plan. The parts must be one plan: the same suites (blob ids), commit, benchrun\n"
    "version, -k and -p, shard count and rule, device model and settings; a case\n"
    "may not appear twice. A shard that gave no part (or a part without some of its\n"
    "cases) leaves those cases in the merged file, skipped with stage \"missing\".\n"
    "\n"
    "options:\n",
    "\n"
    "Then: benchrun report MERGED.json [--markdown F] [--gbench F] [--save-baseline]\n"
    "compares it with the baselines; benchrun history DIR reads it.\n"
    "\n"
    "exit status: 0 every case of the plan is there and none failed; 1 a case is\n"
    "missing (a shard gave no results or was interrupted) or failed, or the output\n"
    "could not be written (the merged file is written whenever the parts agree);\n"
    "2 bad input or usage: parts of different plans, a case twice (nothing written).\n",
    merge_opts_spec, 0};

/* The parts loaded; a path that does not exist is a shard that gave nothing. */
static int load_parts(br_merge_part *parts, size_t *n_parts, const char *const *paths, size_t n,
                      int quiet) {
    *n_parts = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0 && errno == ENOENT) {
            if (!quiet)
                br_msg_error(PROG, "%s: no such file: its shard counts as missing", paths[i]);
            continue;
        }
        br_merge_part *p = &parts[(*n_parts)++];
        p->path = paths[i];
        if (br_results_load(&p->runs, &p->n_runs, paths[i]) != 0) {
            br_msg_error(PROG, "%s", br_error_get());
            return -1;
        }
    }
    return 0;
}

/* The missing cases, named (at most MISSING_SHOWN), and what else is lost. */
static void say_missing(const br_merge_report *rep, const br_run *runs, size_t n) {
    for (size_t i = 0; i < rep->n_missing_shards; i++)
        br_msg_error(PROG, "shard %u/%u gave no results", rep->missing[i], rep->count);
    if (rep->n_missing)
        br_msg_error(PROG, "%zu case(s) of the plan are missing, marked so in the merged file:",
                     rep->n_missing);
    size_t shown = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < runs[r].n_cases; i++) {
            const br_case_result *c = &runs[r].cases[i];
            if (!br_merge_case_missing(c) || shown++ >= MISSING_SHOWN)
                continue;
            char label[512];
            br_run_case_label(label, sizeof label, &runs[r], c);
            fprintf(stderr, "  %s: %s (%s)\n", runs[r].suite_name, label,
                    c->message ? c->message : "missing");
        }
    if (shown > MISSING_SHOWN)
        fprintf(stderr, "  ... and %zu more\n", shown - MISSING_SHOWN);
    if (rep->n_lost_suites)
        br_msg_error(PROG,
                     "suite '%s'%s of the plan has no run in any part: its cases are not in "
                     "the merged file",
                     rep->lost_suite, rep->n_lost_suites > 1 ? " (and others)" : "");
    if (rep->n_interrupted)
        br_msg_error(PROG, "%zu part(s) were interrupted: their unfinished cases are skipped",
                     rep->n_interrupted);
}

/* Write the merged runs where asked. Returns 0 or -1 (said on stderr). */
static int write_merged(const merge_opts *o, const br_run *runs, size_t n) {
    const br_run **ptrs = calloc(n ? n : 1, sizeof *ptrs);
    br_report_opts ro = {0};
    int rc = 0;
    if (!ptrs) {
        br_msg_error(PROG, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &runs[i];
    if (o->output && br_output_emit("json", o->output, ptrs, n, &ro) != 0)
        rc = -1;
    if (o->results_dir && br_output_save_results(o->results_dir, ptrs, n, &ro, o->quiet) != 0)
        rc = -1;
    if (rc == 0 && o->output && !o->quiet)
        br_msg_error(PROG, "merged results written to %s", o->output);
    free(ptrs);
    return rc;
}

/* Merge, say, write. Returns the exit status. */
static int merge_run(const merge_opts *o, br_merge_part *parts, size_t n_parts) {
    br_run *runs = NULL;
    size_t n = 0;
    br_merge_report rep;
    if (br_merge_parts(&runs, &n, &rep, parts, n_parts) != 0) {
        br_msg_error(PROG, "%s", br_error_get());
        return EXIT_BAD_INPUT;
    }
    size_t ok = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        size_t a, b, c;
        br_run_count(&runs[i], &a, &b, &c);
        ok += a, failed += b, skipped += c;
    }
    int incomplete =
        rep.n_missing || rep.n_missing_shards || rep.n_lost_suites || rep.n_interrupted;
    if (incomplete)
        say_missing(&rep, runs, n);
    int wrote = write_merged(o, runs, n);
    if (!o->quiet)
        br_msg_error(PROG,
                     "%zu of %u shard(s), %zu case(s): %zu ok, %zu failed, %zu skipped (%zu of "
                     "them missing)",
                     rep.n_parts, rep.count, ok + failed + skipped, ok, failed, skipped,
                     rep.n_missing);
    br_merge_report_dispose(&rep);
    br_results_free(runs, n);
    return incomplete || failed || wrote != 0 ? EXIT_INCOMPLETE : EXIT_OK;
}

int br_cmd_merge(int argc, char **argv) {
    merge_opts o = {0};
    br_opt_parsed a;
    int status = EXIT_BAD_INPUT;
    br_merge_part *parts = NULL;
    size_t n_parts = 0;
    switch (br_opt_parse(&a, &br_cmd_merge_spec, &o, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_merge_spec);
        status = EXIT_OK;
        break;
    case BR_PARSE_OK:
        if (a.n_args == 0)
            br_msg_error(PROG, "expected the parts to merge, PART.json...");
        else if (!o.output && !o.results_dir)
            br_msg_error(PROG, "say where the merged file goes: -o OUT.json or --results-dir DIR");
        else if (br_output_check("--output", o.output) != 0)
            fprintf(stderr, "%s\n", br_error_get());
        else if (!(parts = calloc(a.n_args, sizeof *parts)))
            br_msg_error(PROG, "out of memory");
        else if (load_parts(parts, &n_parts, a.args, a.n_args, o.quiet) == 0)
            status = merge_run(&o, parts, n_parts);
        break;
    default:
        break;
    }
    for (size_t i = 0; i < n_parts; i++)
        br_results_free(parts[i].runs, parts[i].n_runs);
    free(parts);
    free(a.args);
    return status;
}
