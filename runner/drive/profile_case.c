/* SPDX-License-Identifier: Apache-2.0 */
/* One case under Nsight Compute (profile_case.h). The case
 * is measured once as usual (its table shows benchrun's own figures), then
 * benchrun runs it again under `ncu` with the settings profiling needs: cold
 * samples only, no warmup, a fixed number of samples, no launch hold (ncu
 * serialises kernels: the hold kernel would wait for its flag forever), no
 * CUPTI (ncu owns the profiling interfaces), NVTX on; ncu profiles only the
 * kernels inside the NVTX range "sample" of the "benchrun" domain: the timed
 * launches, not the flush, hold or clock probes (measure/nvtx.h). ncu's CSV
 * (profile/ncu_csv.h) is summed up beside the first run's median and the
 * suite's bytes (profile/ncu_profile.h) and printed as a box
 * (reporters/profile_box.h). The processes are profile_run.h's. */
#include "profile_case.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/files.h"
#include "base/log.h"
#include "base/tmp.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "measure/nvtx.h"
#include "outputs.h"
#include "plan/job.h"
#include "profile/ncu_profile.h"
#include "profile_run.h"
#include "reporters/profile_box.h"
#include "results/run_read.h"

#define PROG "benchrun profile"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_BAD = 2 };

/* The NVTX filter that selects the timed launches (measure/nvtx.h). */
#define RANGE BR_NVTX_DOMAIN "@" BR_NVTX_SAMPLE "/"

/* ---- the case ------------------------------------------------------------------ */

/* What the one case is, from its plan. */
typedef struct the_case {
    br_job job;
    const char *kernel; /* borrowed from job */
    char label[512];    /* "n=2^28" */
    char **pins;        /* "-p" "n=268435456" ... for every param (owned) */
    size_t n_pins;
    double bytes, flops;
    br_precision precision; /* the kernel's `precision:` (BR_PRECISION_NONE: not declared) */
} the_case;

static void case_dispose(the_case *c) {
    for (size_t i = 0; i < c->n_pins; i++)
        free(c->pins[i]);
    free(c->pins);
    br_job_dispose(&c->job);
}

/* Say which cases match when more than one does. */
static void list_matches(const br_job *j) {
    br_log(BR_LOG_ERROR, PROG ": %zu cases match; profile runs exactly one: narrow -k and -p:\n",
           j->plan.n_cases);
    for (size_t i = 0; i < j->plan.n_cases && i < 20; i++) {
        char where[256];
        br_job_case_label(where, sizeof where, j, i, 0);
        br_log(BR_LOG_ERROR, "  %s %s\n", j->suite.kernels[j->plan.cases[i].kernel].text, where);
    }
    if (j->plan.n_cases > 20)
        br_log(BR_LOG_ERROR, "  ... and %zu more\n", j->plan.n_cases - 20);
}

/* Pin the case: "-p NAME=VALUE" for each of its params, and its label. */
static int pin_case(the_case *c) {
    const br_job *j = &c->job;
    const br_plan_case *pc = &j->plan.cases[0];
    const int64_t *v = br_plan_params(&j->plan, pc->combo);
    c->kernel = j->suite.kernels[pc->kernel].text;
    c->bytes = j->bytes[0];
    c->flops = j->flops[0];
    c->precision = br_suite_precision(&j->suite, pc->kernel);
    br_job_case_label(c->label, sizeof c->label, j, 0, 0);
    c->pins = calloc(2 * j->suite.n_params + 1, sizeof *c->pins);
    if (!c->pins)
        return br_error_nomem();
    for (size_t q = 0; q < j->suite.n_params; q++)
        if (!(c->pins[c->n_pins++] = br_strdup("-p")) ||
            !(c->pins[c->n_pins++] =
                  br_strfmt("%s=%lld", j->suite.params[q].name, (long long)v[q])))
            return -1;
    return 0;
}

/* Plan the suite with -k and -p; exactly one case of a suite with a GPU
 * source must match. Returns 0, or -1 after a message. */
static int find_case(the_case *c, const char *suite, const br_profile_opts *o) {
    br_run_opts ro = {0};
    ro.patterns = o->patterns;
    ro.n_patterns = o->n_patterns;
    ro.params = o->params;
    ro.n_params = o->n_params;
    if (br_job_prepare(&c->job, suite, &ro) != 0) {
        br_log(BR_LOG_ERROR, "%s\n", br_error_get());
        return -1;
    }
    for (size_t k = 0; k < o->n_params; k++) {
        size_t q = 0;
        while (q < c->job.suite.n_params &&
               strcmp(c->job.suite.params[q].name, o->params[k].name) != 0)
            q++;
        if (q == c->job.suite.n_params) {
            br_log(BR_LOG_ERROR, PROG ": -p %s: %s has no parameter '%s'\n", o->params[k].name,
                   suite, o->params[k].name);
            return -1;
        }
    }
    if (c->job.plan.n_cases == 0) {
        br_log(BR_LOG_ERROR,
               PROG ": no case of %s matches -k and -p (benchrun %s --list shows its cases)\n",
               suite, suite);
        return -1;
    }
    if (c->job.plan.n_cases > 1) {
        list_matches(&c->job);
        return -1;
    }
    if (!br_job_needs_gpu(&c->job)) {
        br_log(BR_LOG_ERROR,
               PROG ": %s has no GPU source (.cu): Nsight Compute profiles GPU kernels\n", suite);
        return -1;
    }
    if (pin_case(c) != 0) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
        return -1;
    }
    return 0;
}

/* ---- the two runs ---------------------------------------------------------------- */

/* A growing argument vector (strings borrowed). */
typedef struct argvec {
    const char *v[256];
    size_t n;
} argvec;

static void av(argvec *a, const char *s) {
    if (a->n + 1 < sizeof a->v / sizeof *a->v)
        a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

/* benchrun SUITE -k KERNEL -p ... --mode cold --no-compare (what both runs share). */
static void av_case(argvec *a, const char *self, const char *suite, const the_case *c,
                    const br_profile_opts *o) {
    av(a, self);
    av(a, suite);
    av(a, "-k");
    av(a, c->kernel);
    for (size_t i = 0; i < c->n_pins; i++)
        av(a, c->pins[i]);
    av(a, "--mode");
    av(a, "cold");
    av(a, "--no-compare");
    if (o->cache_dir) {
        av(a, "--cache-dir");
        av(a, o->cache_dir);
    }
}

/* The case as benchrun measures it, its results into json. Returns the run's
 * exit status, or -1 after a message. */
static int run_normal(const char *self, const char *suite, const the_case *c,
                      const br_profile_opts *o, const char *json) {
    argvec a = {0};
    av_case(&a, self, suite, c, o);
    av(&a, "--json");
    av(&a, json);
    if (o->quiet)
        av(&a, "-q");
    if (o->ascii)
        av(&a, "--ascii");
    if (!o->quiet)
        br_log(BR_LOG_NOTE, PROG ": measuring %s %s as benchrun does\n", c->kernel, c->label);
    fflush(stdout);
    int st = br_profile_spawn(a.v, NULL);
    if (st < 0)
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
    else if (st != 0)
        br_log(BR_LOG_ERROR,
               PROG ": benchrun's own run of the case exited with status %d (see above): "
                    "nothing to profile\n",
               st);
    return st;
}

/* The case under ncu, everything ncu prints into capture, the run's own
 * results into json. Returns ncu's exit status, or -1 after a message. */
static int run_ncu(const char *ncu, const char *self, const char *suite, const the_case *c,
                   const br_profile_opts *o, const char *capture, const char *json) {
    char n[16];
    snprintf(n, sizeof n, "%d", o->samples);
    argvec a = {0};
    const char *head[] = {ncu,   "--target-processes", "all",          "--nvtx", "--nvtx-include",
                          RANGE, "--metrics",          BR_NCU_METRICS, "--csv",  "--page",
                          "raw", "--print-units",      "base"};
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        av(&a, head[i]);
    if (o->set) {
        av(&a, "--set");
        av(&a, o->set);
    }
    /* ncu locks the clocks at base by default; unlocked, its durations are
     * comparable with benchrun's (unless the user says otherwise). */
    int clocks = 0;
    for (size_t i = 0; i < o->n_extra; i++) {
        clocks |= strncmp(o->extra[i], "--clock-control", 15) == 0;
        av(&a, o->extra[i]);
    }
    if (!clocks) {
        av(&a, "--clock-control");
        av(&a, "none");
    }
    argvec b = {0};
    av_case(&b, self, suite, c, o);
    const char *tail[] = {"--no-hold",
                          "--no-cupti",
                          "--warmup",
                          "0s",
                          "--min-samples",
                          n,
                          "--max-samples",
                          n,
                          "--min-time",
                          "0s",
                          "--timeout",
                          "10min",
                          "--watchdog",
                          "10min",
                          "-q",
                          "--json",
                          json};
    for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
        av(&b, tail[i]);
    for (size_t i = 0; i < b.n; i++)
        av(&a, b.v[i]);
    if (!o->quiet)
        br_log(BR_LOG_NOTE, PROG ": running %s %s under %s (%d execution(s), NVTX range %s)\n",
               c->kernel, c->label, ncu, o->samples, RANGE);
    int st = br_profile_spawn(a.v, capture);
    if (st < 0)
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
    return st;
}

/* ---- reading what the runs left ---------------------------------------------------- */

/* benchrun's own figures of the case from its results file into *p.
 * Returns 0, 1 when the case failed (said), or -1 after a message. */
static int read_own(br_profile *p, br_run **runs, size_t *n_runs, const char *json) {
    if (br_results_load(runs, n_runs, json) != 0 || *n_runs != 1 || (*runs)[0].n_cases != 1) {
        br_log(BR_LOG_ERROR, PROG ": cannot read benchrun's own results of the case: %s\n",
               *n_runs == 1 ? "not one case" : br_error_get());
        return -1;
    }
    const br_run *r = &(*runs)[0];
    const br_case_result *c = &r->cases[0];
    p->device = r->has_device ? r->device.name : NULL;
    p->median_ns = p->event_median_ns = p->kernel_median_ns = p->pct_peak = NAN;
    if (c->kernel < r->n_kernels && r->kernels[c->kernel].backend == BR_BACKEND_HOST) {
        br_log(BR_LOG_ERROR, PROG ": %s is a host kernel: Nsight Compute profiles GPU kernels\n",
               r->kernels[c->kernel].name);
        return -1;
    }
    if (c->status == BR_STATUS_FAILED) {
        br_log(BR_LOG_ERROR,
               PROG ": the case failed in benchrun's own run (%s): nothing to profile\n",
               c->message ? c->message : "see above");
        return 1;
    }
    if (c->status == BR_STATUS_OK && c->cold.present) {
        p->median_ns = c->cold.stats.median;
        p->clock = br_clock_name(c->cold.clock);
        p->event_median_ns = c->cold.event_median_ns;
        p->kernel_median_ns = c->cold.kernel_median_ns;
        p->pct_peak = c->pct_peak;
        p->metric = r->metric != BR_METRIC_NONE ? br_metric_name(r->metric) : NULL;
    } else if (c->message) {
        br_log(BR_LOG_NOTE, PROG ": note: benchrun did not measure the case: %s\n", c->message);
    }
    return 0;
}

/* How many executions ran under ncu: the samples its run kept, or (when
 * that run recorded none: a stand-in ncu, or no GPU) the number asked for,
 * with a note. 0 when the case failed under ncu (said). */
static size_t executions_under_ncu(const char *json, const br_profile_opts *o) {
    br_run *runs = NULL;
    size_t n = 0, got = 0;
    int failed = 0;
    if (br_results_load(&runs, &n, json) == 0 && n == 1 && runs[0].n_cases == 1) {
        const br_case_result *c = &runs[0].cases[0];
        if (c->status == BR_STATUS_OK)
            got = c->cold.n_samples;
        else if ((failed = c->status == BR_STATUS_FAILED))
            br_log(BR_LOG_ERROR, PROG ": the case failed under ncu (%s): %s\n",
                   c->stage ? br_stage_name(c->stage) : "?",
                   c->message ? c->message : "no message");
    }
    br_results_free(runs, n);
    if (got || failed)
        return got;
    br_log(BR_LOG_NOTE,
           PROG ": note: the run under ncu recorded no samples; figures per execution assume "
                "the %d asked for\n",
           o->samples);
    return (size_t)o->samples;
}

/* The last lines of text, to stderr. */
static void tail_lines(const char *text, size_t len, int lines) {
    size_t i = len;
    while (i > 0 && lines >= 0)
        if (text[--i] == '\n')
            lines--;
    if (i < len && text[i] == '\n')
        i++;
    br_log(BR_LOG_ERROR, "%.*s%s", (int)(len - i), text + i,
           len && text[len - 1] != '\n' ? "\n" : "");
}

static int keep_raw(FILE *f, void *ctx) {
    const char *const *t = ctx;
    size_t len = (size_t)(t[1] - t[0]);
    return fwrite(t[0], 1, len, f) == len ? 0 : br_error_set("cannot write ncu's output");
}

/* ncu's output: kept (--raw), checked for a refusal, parsed. Returns 0, or
 * -1 after a message. */
static int read_ncu(br_ncu_report *rep, const char *capture, int status, const br_profile_opts *o) {
    char *text = NULL;
    size_t len = 0;
    if (br_read_file(&text, &len, capture, (size_t)1 << 30) != 0) {
        br_log(BR_LOG_ERROR, PROG ": cannot read ncu's output: %s\n", br_error_get());
        return -1;
    }
    const char *span[2] = {text, text + len};
    int rc = -1;
    if (o->raw && br_write_atomic(o->raw, keep_raw, (void *)span) != 0)
        br_log(BR_LOG_ERROR, PROG ": --raw: %s\n", br_error_get());
    else if (br_profile_no_permission(text, len))
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_profile_permission_advice());
    else if (status != 0) {
        br_log(BR_LOG_ERROR,
               PROG ": ncu (or the run under it) exited with status %d; its last lines:\n", status);
        tail_lines(text, len, 15);
    } else if (br_ncu_parse(rep, text, len, capture) != 0)
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
    else if (rep->n == 0)
        br_log(BR_LOG_ERROR,
               PROG ": ncu profiled no kernel in the NVTX range %s: was this benchrun built "
                    "with CUDA (NVTX ranges: %s)?\n",
               RANGE, br_nvtx_available() ? "yes" : "no, a host-only build");
    else
        rc = 0;
    free(text);
    return rc;
}

/* ---- the command ------------------------------------------------------------------- */

/* Scratch files of one profile. */
typedef struct scratch {
    char dir[4096];
    char *own, *under, *capture; /* own run's results, the run under ncu's, ncu's output */
    int lock_fd;                 /* the folder's lock (base/tmp.h), or -1 */
} scratch;

static int scratch_make(scratch *s) {
    const char *tmp = getenv("TMPDIR");
    char base[4096];
    snprintf(base, sizeof base, "%s/benchrun-profile",
             tmp && tmp[0] && strlen(tmp) < sizeof base - 128 ? tmp : "/tmp");
    char *parent = br_path_dir(base);
    if (parent)
        br_tmp_sweep(parent);
    free(parent);
    if ((s->lock_fd = br_tmp_mkdir(s->dir, sizeof s->dir, base)) < 0) {
        s->dir[0] = '\0';
        return br_error_prefix("cannot create a scratch directory: ");
    }
    s->own = br_path_join(s->dir, "own.json");
    s->under = br_path_join(s->dir, "under-ncu.json");
    s->capture = br_path_join(s->dir, "ncu.txt");
    return s->own && s->under && s->capture ? 0 : -1;
}

static void scratch_drop(scratch *s) {
    char *files[] = {s->own, s->under, s->capture};
    for (size_t i = 0; i < 3; i++) {
        if (files[i])
            unlink(files[i]);
        free(files[i]);
    }
    if (s->dir[0]) {
        char *lock = br_path_join(s->dir, ".lock");
        if (lock)
            unlink(lock);
        free(lock);
        rmdir(s->dir);
    }
    if (s->lock_fd >= 0)
        close(s->lock_fd);
}

/* The box and --json of a parsed report. Returns the exit status. */
static int report(br_profile *p, const br_ncu_report *rep, const scratch *s,
                  const br_profile_opts *o) {
    int status = EXIT_OK;
    p->range = RANGE;
    size_t executions = executions_under_ncu(s->under, o);
    if (!executions)
        return EXIT_FAILED;
    if (br_profile_summarise(p, rep, executions) != 0) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
        return EXIT_BAD;
    }
    /* With --json -, standard output is the JSON's alone. */
    int json_to_stdout = br_path_is_stdout(o->json);
    if (!json_to_stdout && br_profile_box_write(stdout, p, o->ascii) != 0)
        status = EXIT_FAILED;
    fflush(stdout);
    if (o->json && br_profile_write_json(o->json, p) != 0) {
        br_log(BR_LOG_ERROR, PROG ": --json %s: %s\n", o->json, br_error_get());
        status = EXIT_FAILED;
    }
    return status;
}

/* Both runs and the report, for the one case c. Returns the exit status. */
static int profile_one(const the_case *c, const char *suite, const br_profile_opts *o) {
    char *ncu = br_profile_find_ncu(), *self = ncu ? br_exe_path() : NULL;
    if (!ncu || !self) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
        free(ncu);
        return EXIT_BAD;
    }
    scratch s = {.lock_fd = -1};
    br_run *runs = NULL;
    size_t n_runs = 0;
    br_ncu_report rep = {0};
    br_profile p = {.suite = c->job.suite.name.text,
                    .kernel = c->kernel,
                    .params = c->label,
                    .declared_bytes = c->bytes,
                    .flops = c->flops,
                    .precision = c->precision};
    int status = EXIT_BAD, st;
    if (scratch_make(&s) != 0) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
    } else if ((st = run_normal(self, suite, c, o, s.own)) != 0) {
        status = st == 1 ? EXIT_FAILED : EXIT_BAD;
    } else if ((st = read_own(&p, &runs, &n_runs, s.own)) != 0) {
        status = st > 0 ? EXIT_FAILED : EXIT_BAD;
    } else if ((st = run_ncu(ncu, self, suite, c, o, s.capture, s.under)) >= 0 &&
               read_ncu(&rep, s.capture, st, o) == 0) {
        status = report(&p, &rep, &s, o);
    }
    br_profile_dispose(&p);
    br_ncu_report_dispose(&rep);
    br_results_free(runs, n_runs);
    scratch_drop(&s);
    free(ncu);
    free(self);
    return status;
}

int br_profile_case(const br_profile_opts *o) {
    the_case c = {0};
    int status = EXIT_BAD;
    if (find_case(&c, o->suite, o) == 0)
        status = profile_one(&c, o->suite, o);
    case_dispose(&c);
    return status;
}
