/* SPDX-License-Identifier: Apache-2.0 */
/* A run over several GPUs of one host (devices.h): the lanes, a driver
 * thread per device and the host lane, that measure the cases on all of
 * them at once; the order by the measured costs; the plan and its notes.
 */
#include "devices_impl.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "driver.h"
#include "execute.h"
#include "plan/cost.h"
#include "plan/devsched.h"
#include "plan/job.h"
#include "worker/proto.h"

/* ---- measuring on every device at once --------------------------------------------- */

/* One case to measure: job and index in its plan. */
typedef struct dev_item {
    size_t job, index;
} dev_item;

/* What the lanes share: one lane per device, and the host lane that
 * measures the host cases one at a time, beside the devices or after them.
 * Every field below `lock` is under it. */
typedef struct dev_exec {
    br_session *main;    /* the invocation's (the build, the header, the options) */
    br_driver_ledger *l; /* the invocation's progress and budget (driver.h) */
    br_run *runs;
    const br_job *jobs;
    size_t n_jobs;
    br_devset *d;
    dev_item *items; /* the GPU cases (measured on every device at once), then the host
                        cases (the host lane's) */
    size_t n_items;
    size_t n_par;  /* the GPU cases: items[0..n_par) */
    int beside;    /* 1: the host lane runs beside the devices; 0: after them */
    int pin;       /* 1: the device lanes are kept off the host cases' core */
    dev_slot host; /* the host lane: its own session and worker */
    char why[256]; /* why the host lane runs after the devices ("": it does not) */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    br_devsched sched;                /* the GPU cases over the devices */
    br_devsched hsched;               /* the host cases over the one host lane */
    unsigned char *recorded;          /* per item */
    size_t running;                   /* GPU cases in flight */
    unsigned gpu_lanes, host_lanes;   /* lanes measuring now */
    br_driver_tally tally;            /* what --budget did */
    unsigned char announced[MAX_DEV]; /* a retired device was said */
} dev_exec;

/* A lane's thread: a device's (slot) or the host lane (host 1). */
typedef struct dev_thread {
    dev_exec *x;
    unsigned slot;
    int host;
} dev_thread;

static br_devsched *lane_sched(const dev_thread *t) {
    return t->host ? &t->x->hsched : &t->x->sched;
}

static size_t lane_base(const dev_thread *t) {
    return t->host ? t->x->n_par : 0;
}

static dev_slot *lane_slot(const dev_thread *t) {
    return t->host ? &t->x->host : &t->x->d->slot[t->slot];
}

/* Measure item `it` on the thread's lane into *r (outside the lock), under
 * budget bc (NULL: none); *how: the worker's outcome. Returns 0, or 1 when
 * interrupted. */
static int measure_item(br_case_result *r, br_worker_result *how, dev_thread *t, size_t it,
                        const br_budget_case *bc) {
    dev_exec *x = t->x;
    dev_slot *slot = lane_slot(t);
    const br_job *job = &x->jobs[x->items[it].job];
    size_t i = x->items[it].index;
    *how = BR_WORKER_OK;
    if (br_case_init(r, job, i) != 0 ||
        br_driver_measure(r, how, slot->session, x->l, job, i, bc) != 0) {
        br_driver_set(r, BR_STATUS_FAILED, BR_STAGE_SETUP, br_strdup("out of memory"));
        return 0;
    }
    if (*how == BR_WORKER_STOPPED)
        return 1;
    if (!r->wall.present)
        return 0; /* the budget skipped it */
    slot->busy_ns += r->wall.total_ns;
    if (t->host || x->d->plain)
        return 0; /* a host case, or a plain run's: no device recorded */
    r->device_present = 1;
    r->device_index = slot->index;
    snprintf(r->device_uuid, sizeof r->device_uuid, "%s", slot->uuid);
    return 0;
}

/* After a case ended on the thread's lane (under the lock), its worker
 * having answered or been lost (how): record it, or leave it to another
 * device. */
static void settle_item(dev_thread *t, size_t it, br_case_result *r, br_worker_result how) {
    dev_exec *x = t->x;
    dev_slot *slot = lane_slot(t);
    const dev_item *item = &x->items[it];
    br_devsched_verdict v =
        br_devsched_report(lane_sched(t), it - lane_base(t), t->slot,
                           how == BR_WORKER_OK ? BR_DEVSCHED_DONE : BR_DEVSCHED_CRASHED);
    char label[256];
    br_run_case_label(label, sizeof label, &x->runs[item->job], r);
    if (v == BR_DEVSCHED_RETRY) {
        br_log(BR_LOG_WARN,
               "benchrun: warning: %s: %s on device %d (%s); running it again on "
               "another device\n",
               label, r->message, slot->index, slot->uuid);
        br_case_dispose(r);
        return;
    }
    br_case_result *dst = &x->runs[item->job].cases[item->index];
    br_case_dispose(dst);
    *dst = *r;
    x->recorded[it] = 1;
    slot->ran++;
    br_driver_tell_case(x->l, &x->runs[item->job], item->index);
    for (unsigned k = 0; !t->host && k < x->d->n; k++) {
        if (br_devsched_retired(&x->sched, k) && !x->announced[k]) {
            x->announced[k] = 1;
            br_log(BR_LOG_WARN,
                   "benchrun: warning: device %d (%s) is retired: %s crashed there and was "
                   "measured on device %d; the other devices take its cases\n",
                   x->d->slot[k].index, x->d->slot[k].uuid, label, slot->index);
        }
    }
}

/* The lanes spending the invocation's budget at once (under the lock): the
 * live devices while their lanes run, and the host lane while it runs. */
static unsigned lanes_spending(const dev_exec *x) {
    unsigned live = 0;
    for (unsigned k = 0; x->gpu_lanes && k < x->d->n; k++)
        live += !br_devsched_retired(&x->sched, k);
    live += x->host_lanes;
    return live ? live : 1;
}

/* The next case for the thread's lane (under the lock): an item index, or
 * (size_t)-1 when the lane is done. A device lane waits while a case in
 * flight elsewhere may come back (a crash to retry); the host lane has no
 * other to wait for. */
static size_t next_item(dev_thread *t) {
    dev_exec *x = t->x;
    for (;;) {
        if (br_stop_signal())
            return (size_t)-1;
        size_t k = br_devsched_next(lane_sched(t), t->slot);
        if (k != (size_t)-1)
            return k + lane_base(t);
        if (t->host || x->running == 0 || br_devsched_retired(&x->sched, t->slot))
            return (size_t)-1;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&x->changed, &x->lock, &ts);
    }
}

/* A lane's driver: takes the next case, measures it, settles it, until no
 * case is left for it (or an interrupt). Beside the host lane, it first
 * moves off the host cases' core (its worker, forked from it, inherits
 * that). */
static void *lane_thread(void *arg) {
    dev_thread *t = arg;
    dev_exec *x = t->x;
    if (x->pin)
        br_cpu_set_self(&br_session_cpu(x->main)->parent, NULL);
    pthread_mutex_lock(&x->lock);
    for (;;) {
        size_t it = next_item(t);
        if (it == (size_t)-1)
            break;
        x->running += !t->host;
        br_budget_case bc;
        const br_job *job = &x->jobs[x->items[it].job];
        const br_run *run = &x->runs[x->items[it].job];
        const br_run_opts *o = br_session_opts(x->main);
        br_job_progress(x->l, o, run, &run->cases[x->items[it].index],
                        br_driver_total(x->l, o, job));
        /* The suite's own budget is not applied over several devices (said once). */
        int budgeted = br_driver_plan(&bc, x->l, o, job, lanes_spending(x), 0, 0);
        pthread_mutex_unlock(&x->lock);
        br_case_result r = {0};
        br_worker_result how;
        int stopped = measure_item(&r, &how, t, it, budgeted ? &bc : NULL);
        pthread_mutex_lock(&x->lock);
        x->running -= !t->host;
        if (stopped) {
            br_case_dispose(&r);
            break;
        }
        br_driver_count(&x->tally, x->l, &r, budgeted ? &bc : NULL);
        settle_item(t, it, &r, how);
        pthread_cond_broadcast(&x->changed);
    }
    if (t->host)
        x->host_lanes--;
    else
        x->gpu_lanes--;
    pthread_cond_broadcast(&x->changed);
    pthread_mutex_unlock(&x->lock);
    return NULL;
}

/* The cost of each item (plan/cost.h): its measured wall time from the
 * sources of job_measured, the others estimated from their declared work
 * (br_cost_fill), the GPU cases and the host cases each among their own.
 * *n_measured: the items with a measured time; *from: the sources used. */
static int item_costs(double *cost, size_t *n_measured, unsigned *from, const dev_exec *x,
                      const br_devices_sources *src) {
    *n_measured = 0;
    *from = 0;
    double *work = malloc((x->n_items ? x->n_items : 1) * sizeof *work);
    double **c = calloc(x->n_jobs ? x->n_jobs : 1, sizeof *c);
    int rc = work && c ? 0 : br_error_nomem();
    for (size_t j = 0; rc == 0 && j < x->n_jobs; j++) {
        size_t n = x->jobs[j].plan.n_cases;
        if (!(c[j] = malloc((n ? n : 1) * sizeof **c)))
            rc = br_error_nomem();
        for (size_t i = 0; c[j] && i < n; i++)
            c[j][i] = NAN;
    }
    if (rc == 0 && !x->d->plain) /* one device: the order does not change its busy time */
        rc = br_devices_measured_costs(c, from, x->runs, x->jobs, x->n_jobs, x->main, src);
    for (size_t it = 0; rc == 0 && it < x->n_items; it++) {
        work[it] = br_cost_declared(&x->jobs[x->items[it].job], x->items[it].index);
        cost[it] = c[x->items[it].job][x->items[it].index];
    }
    /* The GPU cases and the host cases each among their own. */
    long a = rc == 0 ? br_cost_fill(cost, work, x->n_par) : -1;
    long b = a >= 0 ? br_cost_fill(cost + x->n_par, work + x->n_par, x->n_items - x->n_par) : -1;
    for (size_t j = 0; c && j < x->n_jobs; j++)
        free(c[j]);
    free(c);
    free(work);
    if (a < 0 || b < 0)
        return -1;
    *n_measured = (size_t)(a + b);
    return 0;
}

static int begin_each(dev_exec *x, dev_item *host, size_t *n_host, size_t n_jobs, br_session *main);

/* Every run's header and its cases that need no device; the others into
 * x->items, in job then plan order: the GPU cases, then the host cases
 * (x->n_par: the GPU cases). Returns 0, or -1 with the error set. */
static int begin_runs(dev_exec *x, size_t n_jobs, br_session *main) {
    size_t total = 0;
    for (size_t j = 0; j < n_jobs; j++)
        total += x->jobs[j].plan.n_cases;
    x->items = malloc((total ? total : 1) * sizeof *x->items);
    dev_item *host = malloc((total ? total : 1) * sizeof *host);
    size_t n_host = 0;
    if (!x->items || !host) {
        free(host);
        return br_error_nomem();
    }
    int rc = begin_each(x, host, &n_host, n_jobs, main);
    x->n_par = x->n_items;
    if (rc == 0 && n_host)
        memcpy(x->items + x->n_items, host, n_host * sizeof *host);
    x->n_items += n_host;
    free(host);
    return rc;
}

/* With fake devices, a host kernel that BENCHRUN_FAKE_HOST_KERNELS names
 * (test-only: "a,b") stays a host case; the others stand for GPU cases. */
static int fake_host_kernel(const char *name) {
    const char *list = getenv("BENCHRUN_FAKE_HOST_KERNELS");
    size_t n = strlen(name);
    for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',') {
        size_t m = strcspn(p, ",");
        if (m == n && strncmp(p, name, n) == 0)
            return 1;
    }
    return 0;
}

/* Whether case i of job is measured on a device: a GPU case or, with fake
 * devices, a case of a kernel BENCHRUN_FAKE_HOST_KERNELS does not name. */
static int case_on_device(const br_job *job, size_t i, int fake) {
    if (fake)
        return !fake_host_kernel(job->suite.kernels[job->plan.cases[i].kernel].text);
    return br_kernel_ref_backend(br_job_case_ref(job, i)) == BR_BACKEND_GPU;
}

/* begin_runs for each job: GPU cases (and, with fake devices, the host
 * cases that stand for them) into x->items, host cases into host[0..*n_host). */
static int begin_each(dev_exec *x, dev_item *host, size_t *n_host, size_t n_jobs,
                      br_session *main) {
    for (size_t j = 0; j < n_jobs; j++) {
        const br_job *job = &x->jobs[j];
        memset(&x->runs[j], 0, sizeof x->runs[j]);
        if (!job->built)
            return br_error_set("%s: the suite's kernels were not built (br_job_build)",
                                job->suite.path);
        if (br_job_run_begin(&x->runs[j], job, main) != 0)
            return -1;
        if (job->suite.budget_ns > 0 && !br_session_opts(main)->quiet && !x->d->plain)
            br_log(BR_LOG_WARN,
                   "benchrun: warning: %s: the suite's budget is not applied with --devices\n",
                   job->suite.path);
        for (size_t i = 0; i < job->plan.n_cases; i++)
            if (br_case_init(&x->runs[j].cases[i], job, i) != 0)
                return -1;
        br_driver_tell_begun(x->l, &x->runs[j]);
        for (size_t i = 0; i < job->plan.n_cases; i++) {
            int gpu = case_on_device(job, i, x->d->fake);
            br_stage why = br_driver_unrunnable(job, i);
            if (why != BR_STAGE_NONE) {
                if (br_driver_settle(&x->runs[j].cases[i], why, job, i, main) != 0)
                    return -1; /* no worker: not one of the ledger's total */
                br_driver_tell_case(x->l, &x->runs[j], i);
            } else if (gpu) {
                x->items[x->n_items++] = (dev_item){j, i};
            } else {
                host[(*n_host)++] = (dev_item){j, i};
            }
        }
    }
    return 0;
}

/* Whether the host lane may run beside n_dev device lanes of main's
 * invocation: only when every GPU worker and every lane's driver thread
 * can be kept off the host cases' core, that is with at least one CPU per
 * device lane, and one for the drivers, outside it (BENCHRUN_FAKE_CPUS=N,
 * test-only: as if the host had N CPUs, one core each), and --host-lane is
 * not `after`. Returns 1, or 0 with why[0..len) saying why not. */
static int lane_fits(char *why, size_t len, const br_session *m, unsigned n_dev) {
    const br_cpu_choice *cpu = br_session_cpu(m);
    why[0] = '\0';
    if (br_session_opts(m)->host_lane == BR_HOST_LANE_AFTER) {
        snprintf(why, len, "--host-lane after");
        return 0;
    }
    const char *fake = getenv("BENCHRUN_FAKE_CPUS");
    long free_cpus;
    if (fake && fake[0])
        free_cpus = atol(fake) - 1;
    else if (cpu->cpu < 0) {
        snprintf(why, len, "--cpu off: nothing keeps the GPU workers off the host cases' CPU");
        return 0;
    } else
        free_cpus = cpu->shares_core ? 0 : br_cpu_set_count(&cpu->parent);
    long need = (long)n_dev + 1;
    if (free_cpus < need) {
        snprintf(why, len,
                 "%ld CPU(s) outside the host cases' core, and the %u device lane(s) and their "
                 "drivers need %ld",
                 free_cpus < 0 ? 0 : free_cpus, n_dev, need);
        return 0;
    }
    return 1;
}

/* Where the host lane runs (lane_fits, when there are both GPU and host
 * cases): sets x->beside, x->pin and x->why. */
static void choose_host_lane(dev_exec *x) {
    const br_session *m = x->main;
    x->why[0] = '\0';
    x->beside = x->pin = 0;
    if (x->n_items == x->n_par || !x->n_par || !lane_fits(x->why, sizeof x->why, m, x->d->n))
        return;
    x->beside = 1;
    x->pin = !x->d->fake && br_session_cpu(m)->cpu >= 0;
}

/* The plan on standard error: the devices, the order's source and, by
 * measured times, each device's predicted busy time; where the host cases
 * run. */
static void say_plan(const dev_exec *x, const double *cost, size_t n_measured, unsigned from,
                     const br_session *main) {
    const br_cpu_choice *cpu = br_session_cpu(main);
    if (br_session_opts(main)->quiet)
        return;
    if (x->d->plain) { /* one line: where the host cases run */
        char lanes[128];
        br_cpu_list_format(lanes, sizeof lanes, &cpu->parent);
        if (x->pin)
            br_log(BR_LOG_NOTE,
                   "benchrun: %zu host case(s) beside the GPU cases, one at a time on CPU %d "
                   "(the GPU cases' lane on CPU(s) %s)\n",
                   x->n_items - x->n_par, cpu->cpu, lanes);
        else
            br_log(BR_LOG_NOTE, "benchrun: %zu host case(s) beside the GPU cases, one at a time\n",
                   x->n_items - x->n_par);
        return;
    }
    char line[1280], by[256];
    if (n_measured)
        snprintf(by, sizeof by, "measured times (%s%s%s%s%s) of %zu case(s) of %zu",
                 from & 1 ? "the baseline" : "", from & 1 && from & 6 ? ", " : "",
                 from & 2 ? "the newest of --results-dir" : "", from & 2 && from & 4 ? ", " : "",
                 from & 4 ? "--shard-times" : "", n_measured, x->n_items);
    else
        snprintf(by, sizeof by, "declared work (bytes + flops)");
    size_t n = (size_t)snprintf(line, sizeof line,
                                "benchrun: %zu case(s) on %u device(s) of model %s, longest first "
                                "by %s",
                                x->n_par, x->d->n, x->d->slot[0].name, by);
    unsigned *slot = malloc((x->n_items ? x->n_items : 1) * sizeof *slot);
    double finish[MAX_DEV];
    if (n_measured && slot && br_devsched_lpt(slot, finish, cost, x->n_par, x->d->n) == 0) {
        n += (size_t)snprintf(line + n, n < sizeof line ? sizeof line - n : 0,
                              "; predicted busy time per device:");
        for (unsigned k = 0; k < x->d->n && n < sizeof line; k++) {
            char d[32];
            br_format_duration(d, sizeof d, finish[k]);
            n += (size_t)snprintf(line + n, sizeof line - n, "%s %d: %s", k ? "," : "",
                                  x->d->slot[k].index, d);
        }
    }
    free(slot);
    size_t n_host = x->n_items - x->n_par;
    if (n_host && n < sizeof line) {
        char lanes[128];
        br_cpu_list_format(lanes, sizeof lanes, &cpu->parent);
        if (x->beside && x->pin)
            snprintf(line + n, sizeof line - n,
                     "; %zu host case(s) beside them, one at a time on CPU %d (the devices' "
                     "lanes on CPU(s) %s)",
                     n_host, cpu->cpu, lanes);
        else if (x->beside)
            snprintf(line + n, sizeof line - n, "; %zu host case(s) beside them, one at a time",
                     n_host);
        else
            snprintf(line + n, sizeof line - n,
                     "; then %zu host case(s), one at a time, after the GPU cases%s%s", n_host,
                     x->why[0] ? ": " : "", x->why);
    }
    br_log(BR_LOG_NOTE, "%s\n", line);
}

/* Start the threads of lanes [0, n) of arg (the host lane last, when it is
 * one of them) into th/started. A device lane whose thread cannot start is
 * retired (the others take its cases); the host lane's cases then run
 * from this thread. */
static void start_lanes(pthread_t *th, int *started, dev_thread *arg, unsigned n) {
    for (unsigned k = 0; k < n; k++) {
        dev_exec *x = arg[k].x;
        started[k] = pthread_create(&th[k], NULL, lane_thread, &arg[k]) == 0;
        if (started[k])
            continue;
        if (arg[k].host) {
            lane_thread(&arg[k]);
            continue;
        }
        pthread_mutex_lock(&x->lock);
        br_devsched_retire(&x->sched, k);
        x->gpu_lanes--;
        pthread_mutex_unlock(&x->lock);
        br_log(BR_LOG_WARN, "benchrun: warning: cannot start the thread of device %d\n",
               x->d->slot[k].index);
    }
}

/* Run the lanes: a thread per device and, beside them or after them, the
 * host lane's; wait for them all. */
static void run_lanes(dev_exec *x) {
    pthread_t th[MAX_DEV + 1];
    dev_thread arg[MAX_DEV + 1];
    int started[MAX_DEV + 1] = {0};
    unsigned n = x->d->n, host = x->n_items > x->n_par;
    for (unsigned k = 0; k < n; k++)
        arg[k] = (dev_thread){x, k, 0};
    arg[n] = (dev_thread){x, 0, 1};
    x->gpu_lanes = n;
    x->host_lanes = host && x->beside;
    start_lanes(th, started, arg, n + (host && x->beside));
    for (unsigned k = 0; k < n + (host && x->beside); k++)
        if (started[k])
            pthread_join(th[k], NULL);
    if (!host || x->beside || br_stop_signal())
        return;
    x->host_lanes = 1;
    start_lanes(&th[n], &started[n], &arg[n], 1);
    if (started[n])
        pthread_join(th[n], NULL);
}

/* Run the lanes (run_lanes), the progress line cleared after them. */
static void run_all(dev_exec *x) {
    run_lanes(x);
    if (br_session_opts(x->main)->progress)
        br_log(BR_LOG_PROGRESS, "\r\033[K");
}

/* After the threads: cases an interrupt stopped are listed as not run;
 * cases no device was left to run (br_devsched_left) fail. Returns 0, or
 * -1 with the error set (out of memory). */
static int settle_rest(dev_exec *x) {
    for (size_t k = 0; k < x->n_items; k++) {
        if (x->recorded[k])
            continue;
        br_run *run = &x->runs[x->items[k].job];
        const br_job *job = &x->jobs[x->items[k].job];
        size_t i = x->items[k].index;
        if (br_stop_signal() ? br_driver_interrupted(run, job, i) != 0
                             : br_driver_set(&run->cases[i], BR_STATUS_FAILED, BR_STAGE_RUN,
                                             br_strdup("not run: every device of --devices "
                                                       "was retired")) != 0)
            return -1;
        br_driver_tell_case(x->l, run, i);
    }
    return 0;
}

/* Per device, and for the host lane: cases measured and their wall time. */
static void say_devices(const dev_exec *x, const br_session *main) {
    if (br_session_opts(main)->quiet || x->d->plain)
        return;
    for (unsigned k = 0; k < x->d->n; k++) {
        const dev_slot *s = &x->d->slot[k];
        char busy[32];
        br_format_duration(busy, sizeof busy, s->busy_ns);
        br_log(BR_LOG_NOTE, "benchrun: device %d (%s): %zu case(s) in %s%s\n", s->index, s->uuid,
               s->ran, busy, br_devsched_retired(&x->sched, k) ? " (retired)" : "");
    }
    if (x->n_items > x->n_par) {
        char busy[32];
        br_format_duration(busy, sizeof busy, x->host.busy_ns);
        br_log(BR_LOG_NOTE, "benchrun: %zu host case(s) %s, one at a time: %s\n", x->host.ran,
               x->beside ? "beside the GPU cases" : "after the GPU cases", busy);
    }
}

/* The host lane's session: the main session's settings (its CPU, as in a
 * one-GPU run; none with fake devices), bound as the first device, its
 * clock of the budget the main one's. Returns 0, or -1 with the error set. */
static int host_lane_open(dev_exec *x) {
    br_run_opts o = *br_session_opts(x->main);
    if (x->d->fake)
        o.cpu = -1;
    if (br_session_open(&x->host.session, &o) != 0)
        return -1;
    br_session_bind(x->host.session, br_session_visible(x->d->slot[0].session));
    x->host.index = -1;
    snprintf(x->host.uuid, sizeof x->host.uuid, "host");
    return 0;
}

int br_devices_open_plain(br_devset **out, br_session *main, const br_job *jobs, size_t n_jobs) {
    *out = NULL;
    const char *f = getenv("BENCHRUN_FAKE_DEVICES");
    int fake = f && f[0];
    size_t n_gpu = 0, n_host = 0;
    int budget = 0; /* a suite's own budget is applied only one case after another */
    for (size_t j = 0; j < n_jobs; j++) {
        budget |= jobs[j].suite.budget_ns > 0;
        for (size_t i = 0; jobs[j].built && i < jobs[j].plan.n_cases; i++) {
            if (br_driver_unrunnable(&jobs[j], i) != BR_STAGE_NONE)
                continue; /* no GPU makes every GPU case one of these */
            if (case_on_device(&jobs[j], i, fake))
                n_gpu++;
            else
                n_host++;
        }
    }
    char why[256];
    if (!n_gpu || !n_host || budget || !lane_fits(why, sizeof why, main, 1))
        return 0;
    br_devset *d = calloc(1, sizeof *d);
    if (!d)
        return br_error_nomem();
    d->fake = fake;
    d->plain = 1;
    d->n = 1;
    dev_slot *s = &d->slot[0];
    s->session = main;
    s->index = 0;
    snprintf(s->name, sizeof s->name, "%s",
             fake ? "benchrun fake device" : br_session_device(main)->name);
    snprintf(s->uuid, sizeof s->uuid, "%s", fake ? "FAKE-0" : br_session_device(main)->uuid);
    *out = d;
    return 0;
}

int br_devices_execute(br_run *runs, const br_job *jobs, size_t n_jobs, br_session *main,
                       br_driver_ledger *l, br_devset *d, const br_devices_sources *src) {
    dev_exec x = {.main = main,
                  .l = l,
                  .runs = runs,
                  .jobs = jobs,
                  .n_jobs = n_jobs,
                  .d = d,
                  .tally = BR_DRIVER_TALLY_INIT};
    double *cost = NULL;
    size_t n_measured = 0;
    unsigned from = 0;
    int rc = -1;
    if (pthread_mutex_init(&x.lock, NULL) != 0)
        return br_error_set("cannot create a lock");
    if (pthread_cond_init(&x.changed, NULL) != 0) {
        pthread_mutex_destroy(&x.lock);
        return br_error_set("cannot create a condition variable");
    }
    if (begin_runs(&x, n_jobs, main) != 0)
        goto done;
    /* The first device's measured peak is in; its context must not stay
     * open beside the device's own worker. */
    br_session_drop_worker(main);
    cost = malloc((x.n_items ? x.n_items : 1) * sizeof *cost);
    x.recorded = calloc(x.n_items ? x.n_items : 1, 1);
    if (!cost || !x.recorded) {
        br_error_nomem();
        goto done;
    }
    if (item_costs(cost, &n_measured, &from, &x, src) != 0 ||
        br_devsched_init(&x.sched, cost, x.n_par, d->n) != 0 ||
        br_devsched_init(&x.hsched, cost + x.n_par, x.n_items - x.n_par, 1) != 0 ||
        host_lane_open(&x) != 0)
        goto done;
    choose_host_lane(&x);
    say_plan(&x, cost, n_measured, from, main);
    /* Every lane's cases note their start after the invocation's (began_ns). */
    br_driver_start(l);
    run_all(&x);
    say_devices(&x, main);
    if (!br_session_opts(main)->quiet)
        br_driver_budget_note(&x.tally, NULL, br_session_opts(main)->budget_ns, 0);
    if (settle_rest(&x) != 0)
        goto done;
    for (size_t j = 0; j < n_jobs; j++) {
        if (br_driver_close(&runs[j], main, d->slot[0].session) != 0)
            goto done;
        br_driver_tell_ended(l, &runs[j]);
    }
    rc = 0;
done:
    br_session_close(x.host.session);
    br_devsched_dispose(&x.sched);
    br_devsched_dispose(&x.hsched);
    free(cost);
    free(x.recorded);
    free(x.items);
    pthread_cond_destroy(&x.changed);
    pthread_mutex_destroy(&x.lock);
    return rc;
}
