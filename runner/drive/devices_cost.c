/* SPDX-License-Identifier: Apache-2.0 */
/* The measured wall times that order the cases of a run over several
 * devices (plan/cost.h): read from each suite's baseline, the newest
 * results file of --results-dir and the --shard-times files.
 */
#include "devices_impl.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "gate/baseline.h"
#include "plan/job.h"
#include "plan/shard.h"

/* The measured costs of jobs[0..n)'s cases into c[j][i] (NAN: not
 * measured), from `file` (a results file or baseline) over what c has. A
 * source benchrun found itself (required 0) that cannot be read is passed
 * over with a warning. Returns the cases it gave a cost, or -1 with the
 * error set. */
static long costs_from(double *const *c, const char *file, int required, const br_job *jobs,
                       size_t n, const br_session *main) {
    double **got = calloc(n ? n : 1, sizeof *got);
    long used = got ? 0 : br_error_nomem();
    for (size_t j = 0; got && j < n && used == 0; j++)
        if (!(got[j] = malloc((jobs[j].plan.n_cases ? jobs[j].plan.n_cases : 1) * sizeof **got)))
            used = br_error_nomem();
    if (used == 0 && br_shard_jobs_costs(got, &file, 1, jobs, n) != 0) {
        used = -1;
        if (!required) {
            const char *why = br_error_get(), *pre = "--shard-times: ";
            if (strncmp(why, pre, strlen(pre)) == 0)
                why += strlen(pre); /* the reader's words; this file is not one of those */
            if (!br_session_opts(main)->quiet)
                br_log(BR_LOG_WARN, "benchrun: warning: --devices: %s: not used for the order\n",
                       why);
            used = 0;
        }
    } else if (used == 0) {
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < jobs[j].plan.n_cases; i++)
                if (isfinite(got[j][i]))
                    c[j][i] = got[j][i], used++;
    }
    for (size_t j = 0; got && j < n; j++)
        free(got[j]);
    free(got);
    return used;
}

/* The newest results file (*.json) directly in dir, by modification time;
 * NULL when there is none (or dir is NULL). Caller frees. */
static char *newest_results(const char *dir) {
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return NULL;
    char *best = NULL;
    struct timespec best_t = {0, 0};
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!br_has_suffix(e->d_name, ".json"))
            continue;
        char *path = br_strfmt("%s/%s", dir, e->d_name);
        struct stat st;
        if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
            (best && (st.st_mtim.tv_sec < best_t.tv_sec ||
                      (st.st_mtim.tv_sec == best_t.tv_sec &&
                       (st.st_mtim.tv_nsec < best_t.tv_nsec ||
                        (st.st_mtim.tv_nsec == best_t.tv_nsec && strcmp(path, best) < 0)))))) {
            free(path);
            continue;
        }
        free(best);
        best = path;
        best_t = st.st_mtim;
    }
    closedir(d);
    return best;
}

int br_devices_measured_costs(double *const *c, unsigned *from, const br_run *runs,
                              const br_job *jobs, size_t n_jobs, const br_session *main,
                              const br_devices_sources *src) {
    const br_run_opts *o = br_session_opts(main);
    long got;
    *from = 0;
    for (size_t j = 0; j < n_jobs; j++) {
        char *base = br_baseline_path(src ? src->baseline_dir : NULL, &runs[j]);
        struct stat st;
        got = base && stat(base, &st) == 0 ? costs_from(&c[j], base, 0, &jobs[j], 1, main) : 0;
        free(base);
        if (got < 0)
            return -1;
        *from |= got > 0 ? 1u : 0u;
    }
    char *newest = newest_results(src ? src->results_dir : NULL);
    got = newest ? costs_from(c, newest, 0, jobs, n_jobs, main) : 0;
    free(newest);
    if (got < 0)
        return -1;
    *from |= got > 0 ? 2u : 0u;
    for (size_t f = 0; f < o->n_device_times; f++) {
        if ((got = costs_from(c, o->device_times[f], 1, jobs, n_jobs, main)) < 0)
            return -1; /* "--shard-times: FILE: why" */
        *from |= got > 0 ? 4u : 0u;
    }
    return 0;
}
