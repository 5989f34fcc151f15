/* SPDX-License-Identifier: Apache-2.0 */
/* Where a run's results go (outputs.h). */
#include "outputs.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "reporters/roofline_plot.h"

typedef struct write_ctx {
    const br_reporter *rep;
    const br_run *const *runs;
    size_t n_runs;
    const br_report_opts *opts;
} write_ctx;

static int write_report(FILE *f, void *p) {
    write_ctx *w = p;
    return w->rep->write(f, w->runs, w->n_runs, w->opts);
}

int br_output_emit(const char *name, const char *path, const br_run *const *runs, size_t n,
                   const br_report_opts *opts) {
    write_ctx w = {br_reporter_find(name), runs, n, opts};
    if (!w.rep)
        return br_error_set("no reporter '%s'", name);
    if (br_write_atomic(path, write_report, &w) != 0) {
        br_log(BR_LOG_ERROR, "benchrun: cannot write %s: %s\n", path, br_error_get());
        return -1;
    }
    return 0;
}

int br_output_check(const char *option, const char *path) {
    if (!path)
        return 0;
    if (!path[0])
        return br_error_set("benchrun: %s expects a file name", option);
    br_target_kind kind;
    if (br_output_kind(&kind, path) != 0)
        return br_error_prefix("benchrun: %s ", option);
    if (kind != BR_TARGET_FILE)
        return 0; /* a stream: written in place, when the results are ready */
    char *dir = br_path_dir(path);
    int rc = 0;
    if (!dir || access(dir, W_OK) != 0)
        rc = br_error_set("benchrun: %s %s: cannot write in %s: %s", option, path, dir ? dir : "?",
                          strerror(errno));
    free(dir);
    return rc;
}

/* "2026-11-22T03:15:00Z" -> "20261122T031500Z"; the sha part of the name. */
static void results_name_parts(char *stamp, size_t ls, char *sha, size_t lsha, const br_run *r) {
    stamp[0] = '\0';
    for (size_t i = 0, k = 0; r->date[i] && k + 1 < ls; i++)
        if (r->date[i] != '-' && r->date[i] != ':')
            stamp[k++] = r->date[i], stamp[k] = '\0';
    if (r->git.present && r->git.short_sha[0])
        snprintf(sha, lsha, "%s%s", r->git.short_sha, r->git.dirty ? "-dirty" : "");
    else
        snprintf(sha, lsha, "nogit");
}

int br_output_save_results(const char *dir, const br_run *const *runs, size_t n,
                           const br_report_opts *opts, int quiet) {
    if (n == 0)
        return 0;
    char stamp[32], sha[64];
    results_name_parts(stamp, sizeof stamp, sha, sizeof sha, runs[0]);
    if (br_mkdir_p(dir) != 0) {
        br_log(BR_LOG_ERROR, "benchrun: --results-dir %s: %s\n", dir, br_error_get());
        return -1;
    }
    write_ctx w = {br_reporter_find("json"), runs, n, opts};
    int rc = 1;
    for (int k = 1; k < 1000 && rc == 1; k++) {
        char *name = k == 1 ? br_strfmt("%s/%s-%s.json", dir, stamp, sha)
                            : br_strfmt("%s/%s-%s-%d.json", dir, stamp, sha, k);
        if (!name || !w.rep) {
            free(name);
            return -1;
        }
        rc = br_write_new(name, write_report, &w);
        if (rc == 0 && !quiet)
            br_log(BR_LOG_NOTE, "benchrun: results written to %s\n", name);
        else if (rc < 0)
            br_log(BR_LOG_ERROR, "benchrun: --results-dir: cannot write %s: %s\n", name,
                   br_error_get());
        free(name);
    }
    if (rc == 1)
        br_log(BR_LOG_ERROR, "benchrun: --results-dir %s: no free name for %s-%s (999 taken)\n",
               dir, stamp, sha);
    return rc == 0 ? 0 : -1;
}

/* The reporters of files: each one's name and its path in br_outputs. */
#define FILE_ROW(id, name, help, in_report) {name, offsetof(br_outputs, id)},
static const struct {
    const char *reporter;
    size_t at;
} files[] = {BR_REPORTER_FILES(FILE_ROW)};
#undef FILE_ROW
#define N_FILES (sizeof files / sizeof files[0])

static const char *file_path(const br_outputs *o, size_t i) {
    return *(const char *const *)((const char *)o + files[i].at);
}

int br_outputs_table_on_stdout(const br_outputs *o) {
    for (size_t i = 0; i < N_FILES; i++)
        if (br_path_is_stdout(file_path(o, i)))
            return 0;
    return 1;
}

int br_outputs_write(const br_outputs *o, const br_run *const *runs, size_t n, int quiet) {
    br_report_opts opts = {.ascii = o->ascii,
                           .color = o->color,
                           .gbench_repetitions = o->gbench_repetitions,
                           .energy = o->energy,
                           .rows_shown = o->rows_shown};
    int failed = 0;
    if (br_outputs_table_on_stdout(o) && br_output_emit("table", "-", runs, n, &opts) != 0)
        failed++;
    opts.color = 0;
    opts.rows_shown = 0;
    for (size_t i = 0; i < N_FILES; i++) {
        const char *path = file_path(o, i);
        if (path && br_output_emit(files[i].reporter, path, runs, n, &opts) != 0)
            failed++;
    }
    if (o->results_dir && br_output_save_results(o->results_dir, runs, n, &opts, quiet) != 0)
        failed++;
    if (o->roofline) {
        if (br_roofline_plot(runs, n, o->roofline) != 0) {
            br_log(BR_LOG_ERROR, "benchrun: cannot draw %s: %s\n", o->roofline, br_error_get());
            failed++;
        } else if (!quiet) {
            br_log(BR_LOG_NOTE, "benchrun: roofline drawn in %s\n", o->roofline);
        }
    }
    return failed;
}
