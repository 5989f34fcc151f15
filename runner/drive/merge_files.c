/* SPDX-License-Identifier: Apache-2.0 */
/* The parts of a sharded plan merged and written
 * (merge_files.h). */
#include "merge_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "outputs.h"
#include "results/merge.h"
#include "results/run_read.h"
#include "results/shardinfo.h"

#define PROG "benchrun merge"

enum { EXIT_OK = 0, EXIT_INCOMPLETE = 1, EXIT_BAD_INPUT = 2 };

/* Most missing cases named one by one. */
#define MISSING_SHOWN 10

/* The parts loaded; a path that does not exist is a shard that gave nothing. */
static int load_parts(br_merge_part *parts, size_t *n_parts, const char *const *paths, size_t n,
                      int quiet) {
    *n_parts = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0 && errno == ENOENT) {
            if (!quiet)
                br_log(BR_LOG_NOTE, PROG ": %s: no such file: its shard counts as missing\n",
                       paths[i]);
            continue;
        }
        br_merge_part *p = &parts[(*n_parts)++];
        p->path = paths[i];
        if (br_results_load(&p->runs, &p->n_runs, paths[i]) != 0) {
            br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
            return -1;
        }
    }
    return 0;
}

/* "  suite: kernel n=2^20 (why)" of a missing case, on stderr. */
static void say_missing_case(const br_run *r, const br_case_result *c) {
    char label[512];
    br_run_case_label(label, sizeof label, r, c);
    br_log(BR_LOG_ERROR, "  %s: %s (%s)\n", r->suite_name, label,
           c->message ? c->message : "missing");
}

/* The missing cases, named (at most MISSING_SHOWN), and what else is lost. */
static void say_missing(const br_merge_report *rep, const br_run *runs, size_t n) {
    for (size_t i = 0; i < rep->n_missing_shards; i++)
        br_log(BR_LOG_ERROR, PROG ": shard %u/%u gave no results\n", rep->missing[i], rep->count);
    if (rep->n_missing)
        br_log(BR_LOG_ERROR,
               PROG ": %zu case(s) of the plan are missing, marked so in the merged file:\n",
               rep->n_missing);
    size_t shown = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < runs[r].n_cases; i++)
            if (br_merge_case_missing(&runs[r].cases[i]) && shown++ < MISSING_SHOWN)
                say_missing_case(&runs[r], &runs[r].cases[i]);
    if (shown > MISSING_SHOWN)
        br_log(BR_LOG_ERROR, "  ... and %zu more\n", shown - MISSING_SHOWN);
    if (rep->n_lost_suites)
        br_log(BR_LOG_ERROR,
               PROG ": suite '%s'%s of the plan has no run in any part: its cases are not in "
                    "the merged file\n",
               rep->lost_suite, rep->n_lost_suites > 1 ? " (and others)" : "");
    if (rep->n_interrupted)
        br_log(BR_LOG_ERROR,
               PROG ": %zu part(s) were interrupted: their unfinished cases are "
                    "skipped\n",
               rep->n_interrupted);
}

/* Write the merged runs where asked. Returns 0 or -1 (said on stderr). */
static int write_merged(const br_merge_opts *o, const br_run *runs, size_t n) {
    const br_run **ptrs = calloc(n ? n : 1, sizeof *ptrs);
    br_report_opts ro = {0};
    int rc = 0;
    if (!ptrs) {
        br_log(BR_LOG_ERROR, PROG ": out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &runs[i];
    if (o->output && br_output_emit("json", o->output, ptrs, n, &ro) != 0)
        rc = -1;
    if (o->results_dir && br_output_save_results(o->results_dir, ptrs, n, &ro, o->quiet) != 0)
        rc = -1;
    if (rc == 0 && o->output && !o->quiet)
        br_log(BR_LOG_NOTE, PROG ": merged results written to %s\n", o->output);
    free(ptrs);
    return rc;
}

/* Merge, say, write. Returns the exit status. */
static int merge_loaded(const br_merge_opts *o, br_merge_part *parts, size_t n_parts) {
    br_run *runs = NULL;
    size_t n = 0;
    br_merge_report rep;
    unsigned flags = o->allow_mixed_hosts ? BR_MERGE_ALLOW_MIXED_HOSTS : 0;
    if (br_merge_parts(&runs, &n, &rep, parts, n_parts, flags) != 0) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
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
    const br_run_shard *sh = n ? runs[0].shard : NULL;
    for (size_t k = 0; sh && k < sh->n_mixed_hosts; k++)
        br_log(BR_LOG_WARN,
               PROG ": %s host shards of different CPU models (--allow-mixed-hosts): %s\n",
               k == 0 ? "merged" : "and", sh->mixed_hosts[k]);
    int wrote = write_merged(o, runs, n);
    if (!o->quiet)
        br_log(BR_LOG_NOTE,
               PROG ": %zu of %u shard(s), %zu case(s): %zu ok, %zu failed, %zu skipped (%zu of "
                    "them missing)\n",
               rep.n_parts, rep.count, ok + failed + skipped, ok, failed, skipped, rep.n_missing);
    br_merge_report_dispose(&rep);
    br_results_free(runs, n);
    return incomplete || failed || wrote != 0 ? EXIT_INCOMPLETE : EXIT_OK;
}

int br_merge_files(const br_merge_opts *o, const char *const *paths, size_t n) {
    br_merge_part *parts = calloc(n ? n : 1, sizeof *parts);
    size_t n_parts = 0;
    int status = EXIT_BAD_INPUT;
    if (!parts)
        br_log(BR_LOG_ERROR, PROG ": out of memory\n");
    else if (load_parts(parts, &n_parts, paths, n, o->quiet) == 0)
        status = merge_loaded(o, parts, n_parts);
    for (size_t i = 0; i < n_parts; i++)
        br_results_free(parts[i].runs, parts[i].n_runs);
    free(parts);
    return status;
}
