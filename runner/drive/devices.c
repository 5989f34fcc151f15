/* SPDX-License-Identifier: Apache-2.0 */
/* devices.c - a run over several GPUs of one host (devices.h): the list,
 * the devices found and checked, and the cases measured on all of them at
 * once, one driver thread per device. */
#include "devices.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "base/log.h"
#include "base/sort.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "driver.h"
#include "execute.h"
#include "plan/device_list.h"
#include "plan/devsched.h"
#include "plan/job.h"
#include "plan/shard.h"
#include "worker/proto.h"
#include "worker/session_impl.h"

#define MAX_DEV BR_DEVSCHED_MAX_SLOTS

/* One device of the run. */
typedef struct dev_slot {
    int index;      /* CUDA index on the host (as the user numbers them) */
    char name[256]; /* model */
    char uuid[48];
    br_session *session; /* bound to the device */
    size_t ran;          /* cases recorded */
    double busy_ns;      /* wall time of its cases */
} dev_slot;

struct br_devset {
    dev_slot slot[MAX_DEV];
    unsigned n;
    int fake;
};

/* CUDA_VISIBLE_DEVICES for host device `index`: the index, or the
 * index-th entry of the parent's own CUDA_VISIBLE_DEVICES (the user's
 * numbering is within it). */
static void visible_of(char *buf, size_t len, int index) {
    const char *env = getenv("CUDA_VISIBLE_DEVICES");
    snprintf(buf, len, "%d", index);
    if (!env || !env[0])
        return;
    const char *p = env;
    for (int k = 0; k < index && p; k++)
        if ((p = strchr(p, ',')))
            p++;
    if (p && *p && *p != ',') {
        size_t n = strcspn(p, ",");
        snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
    }
}

void br_devices_close(br_devset *d) {
    if (!d)
        return;
    for (unsigned k = 0; k < d->n; k++)
        br_session_close(d->slot[k].session);
    free(d);
}

/* How many devices the host has (a worker's query), or the fake ones:
 * *count; -1 with the error set when no GPU can be used. */
static int host_devices(int *count, int *fake, const br_session *main) {
    const char *f = getenv("BENCHRUN_FAKE_DEVICES");
    *fake = f && f[0];
    if (*fake) {
        /* N, or one model name per device: "A,A,B". */
        *count = f[0] >= '0' && f[0] <= '9' ? atoi(f) : 1;
        for (const char *p = f; !(f[0] >= '0' && f[0] <= '9') && (p = strchr(p, ',')); p++)
            ++*count;
        if (*count < 1 || *count > MAX_DEV)
            return br_error_set("BENCHRUN_FAKE_DEVICES=%s: expected 1 to %d (test-only)", f,
                                MAX_DEV);
        return 0;
    }
    br_session *probe;
    if (br_session_open(&probe, &main->opts) != 0)
        return -1;
    int ok = br_session_gpu(probe);
    *count = probe->device_count;
    if (!ok || *count < 1)
        br_error_set("--devices: no usable GPU (%s)",
                     probe->gpu_why[0] ? probe->gpu_why : "no CUDA device");
    br_session_close(probe);
    return ok && *count >= 1 ? 0 : -1;
}

/* Slot k of d, host device `index`: its session, bound and queried. */
static int slot_open(br_devset *d, unsigned k, int index, const br_session *main) {
    dev_slot *s = &d->slot[k];
    char visible[64];
    s->index = index;
    br_run_opts o = main->opts;
    if (d->fake)
        o.cpu = -1; /* host cases at once on every fake device: not on one pinned CPU */
    if (br_session_open(&s->session, &o) != 0)
        return -1;
    if (d->fake) {
        snprintf(visible, sizeof visible, "%d", index);
        br_session_bind(s->session, visible);
        const char *f = getenv("BENCHRUN_FAKE_DEVICES"), *p = f;
        for (int i = 0; i < index && p && !(f[0] >= '0' && f[0] <= '9'); i++)
            if ((p = strchr(p, ',')))
                p++;
        if (f[0] >= '0' && f[0] <= '9')
            snprintf(s->name, sizeof s->name, "benchrun fake device");
        else
            snprintf(s->name, sizeof s->name, "%.*s", (int)strcspn(p, ","), p);
        snprintf(s->uuid, sizeof s->uuid, "FAKE-%d", index);
        return 0;
    }
    visible_of(visible, sizeof visible, index);
    br_session_bind(s->session, visible);
    if (!br_session_gpu(s->session))
        return br_error_set("--devices: device %d: %s", index, s->session->gpu_why);
    snprintf(s->name, sizeof s->name, "%s", s->session->device.name);
    snprintf(s->uuid, sizeof s->uuid, "%s", s->session->device.uuid);
    return 0;
}

/* The devices are of one model, or -1 with the error set naming them. */
static int check_one_model(const br_devset *d) {
    unsigned other = 0;
    for (unsigned k = 1; k < d->n && !other; k++)
        if (strcmp(d->slot[k].name, d->slot[0].name) != 0)
            other = k;
    if (!other)
        return 0;
    char same[256] = "";
    size_t n = 0;
    for (unsigned k = 0; k < d->n && n < sizeof same; k++)
        if (strcmp(d->slot[k].name, d->slot[0].name) == 0)
            n +=
                (size_t)snprintf(same + n, sizeof same - n, "%s%d", n ? "," : "", d->slot[k].index);
    return br_error_set("--devices: devices of different models (%d: %s, %d: %s): a baseline "
                        "is kept per model; name devices of one model, e.g. --devices %s",
                        d->slot[0].index, d->slot[0].name, d->slot[other].index,
                        d->slot[other].name, same);
}

int br_devices_open(br_devset **out, br_session *main) {
    *out = NULL;
    int idx[MAX_DEV], all, count, fake;
    size_t n;
    if (br_devices_parse(idx, &n, &all, main->opts.devices) != 0 ||
        host_devices(&count, &fake, main) != 0)
        return -1;
    if (all)
        for (n = 0; n < (size_t)count; n++)
            idx[n] = (int)n;
    for (size_t k = 0; k < n; k++)
        if (idx[k] >= count)
            return br_error_set("--devices %s: this host has %d GPU(s), numbered 0 to %d",
                                main->opts.devices, count, count - 1);
    br_devset *d = calloc(1, sizeof *d);
    if (!d)
        return br_error_nomem();
    d->fake = fake;
    for (size_t k = 0; k < n; k++, d->n++) {
        if (slot_open(d, (unsigned)k, idx[k], main) != 0) {
            d->n++;
            br_devices_close(d);
            return -1;
        }
    }
    if (check_one_model(d) != 0) {
        br_devices_close(d);
        return -1;
    }
    if (!fake) /* the build's architecture and the run's header: the first device's */
        br_session_bind(main, d->slot[0].session->visible);
    *out = d;
    return 0;
}

/* ---- measuring on every device at once --------------------------------------------- */

/* One case to measure: job and index in its plan. */
typedef struct dev_item {
    size_t job, index;
} dev_item;

/* What the device threads share; every field below `lock` is under it. */
typedef struct dev_exec {
    br_session *main; /* the invocation's: its budget's ledger (driver.h) */
    br_run *runs;
    const br_job *jobs;
    br_devset *d;
    dev_item *items; /* the GPU cases (measured on every device at once), then the host
                        cases (measured after them, one at a time: real devices only) */
    size_t n_items;
    size_t n_par; /* items measured on every device at once: items[0..n_par) */
    size_t base;  /* the schedule's case k is items[base + k] */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    br_devsched sched;
    unsigned char *recorded;          /* per item */
    size_t running;                   /* cases in flight */
    br_driver_tally tally;            /* what --budget did */
    unsigned char announced[MAX_DEV]; /* a retired device was said */
} dev_exec;

typedef struct dev_thread {
    dev_exec *x;
    unsigned slot;
} dev_thread;

/* Measure item `it` on the thread's device into *r (outside the lock),
 * under budget bc (NULL: none); *how: the worker's outcome. Returns 0,
 * or 1 when interrupted. */
static int measure_item(br_case_result *r, br_worker_result *how, dev_thread *t, size_t it,
                        const br_budget_case *bc) {
    dev_exec *x = t->x;
    dev_slot *slot = &x->d->slot[t->slot];
    const br_job *job = &x->jobs[x->items[it].job];
    size_t i = x->items[it].index;
    *how = BR_WORKER_OK;
    if (br_case_init(r, job, i) != 0 || br_driver_measure(r, how, slot->session, job, i, bc) != 0) {
        br_driver_set(r, BR_STATUS_FAILED, BR_STAGE_SETUP, br_strdup("out of memory"));
        return 0;
    }
    if (*how == BR_WORKER_STOPPED)
        return 1;
    if (!r->wall.present)
        return 0; /* the budget skipped it */
    slot->busy_ns += r->wall.total_ns;
    if (!x->d->fake && br_kernel_ref_backend(br_job_case_ref(job, i)) != BR_BACKEND_GPU)
        return 0; /* a host case: no device measured it */
    r->device_present = 1;
    r->device_index = slot->index;
    snprintf(r->device_uuid, sizeof r->device_uuid, "%s", slot->uuid);
    return 0;
}

/* After a case ended on the thread's device (under the lock), its worker
 * having answered or been lost (how): record it, or leave it to another
 * device. */
static void settle_item(dev_thread *t, size_t it, br_case_result *r, br_worker_result how) {
    dev_exec *x = t->x;
    dev_slot *slot = &x->d->slot[t->slot];
    const dev_item *item = &x->items[it];
    br_devsched_verdict v =
        br_devsched_report(&x->sched, it - x->base, t->slot,
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
    for (unsigned k = 0; k < x->d->n; k++) {
        if (br_devsched_retired(&x->sched, k) && !x->announced[k]) {
            x->announced[k] = 1;
            br_log(BR_LOG_WARN,
                   "benchrun: warning: device %d (%s) is retired: %s crashed there and was "
                   "measured on device %d; the other devices take its cases\n",
                   x->d->slot[k].index, x->d->slot[k].uuid, label, slot->index);
        }
    }
}

/* The devices spending the invocation's budget at once (under the lock):
 * those alive, or one for the host cases after the GPU cases. */
static unsigned devices_spending(const dev_exec *x) {
    unsigned live = 0;
    for (unsigned k = 0; k < (x->base ? 1 : x->d->n); k++)
        live += !br_devsched_retired(&x->sched, k);
    return live ? live : 1;
}

/* A device's driver: takes the next case, measures it, settles it, until
 * no case is left for it (or an interrupt). */
static void *device_thread(void *arg) {
    dev_thread *t = arg;
    dev_exec *x = t->x;
    pthread_mutex_lock(&x->lock);
    for (;;) {
        if (br_stop_signal())
            break;
        size_t it = br_devsched_next(&x->sched, t->slot);
        if (it != (size_t)-1)
            it += x->base;
        if (it == (size_t)-1) {
            /* A case in flight elsewhere may still come back (a crash to retry). */
            if (x->running == 0 || br_devsched_retired(&x->sched, t->slot))
                break;
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 100000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&x->changed, &x->lock, &ts);
            continue;
        }
        x->running++;
        br_budget_case bc;
        const br_job *job = &x->jobs[x->items[it].job];
        /* The suite's own budget is not applied over several devices (said once). */
        int budgeted = br_driver_plan(&bc, x->main, job, devices_spending(x), 0, 0);
        pthread_mutex_unlock(&x->lock);
        br_case_result r = {0};
        br_worker_result how;
        int stopped = measure_item(&r, &how, t, it, budgeted ? &bc : NULL);
        pthread_mutex_lock(&x->lock);
        x->running--;
        if (stopped) {
            br_case_dispose(&r);
            break;
        }
        br_driver_count(&x->tally, x->main, &r, budgeted ? &bc : NULL);
        settle_item(t, it, &r, how);
        pthread_cond_broadcast(&x->changed);
    }
    pthread_cond_broadcast(&x->changed);
    pthread_mutex_unlock(&x->lock);
    return NULL;
}

/* The cost of each item: the measured times of the --shard-times files,
 * a case they do not give taking the median of those they do; else (none
 * given, or none measured) the declared work, bytes + flops (1 when none).
 * *measured: 1 when the costs are times (ns). */
static int item_costs(double *cost, int *measured, const dev_exec *x, const br_session *main) {
    *measured = 0;
    size_t n_known = 0;
    double *known = malloc((x->n_items ? x->n_items : 1) * sizeof *known);
    if (!known)
        return br_error_nomem();
    for (size_t it = 0; it < x->n_items; it++)
        cost[it] = NAN;
    if (main->opts.n_device_times) {
        for (size_t it = 0, j = SIZE_MAX; it < x->n_items; it++) {
            if (x->items[it].job == j)
                continue;
            j = x->items[it].job;
            const br_job *job = &x->jobs[j];
            double *c = malloc((job->plan.n_cases ? job->plan.n_cases : 1) * sizeof *c);
            if (!c || br_shard_job_costs(c, main->opts.device_times, main->opts.n_device_times,
                                         job) != 0) {
                free(c);
                free(known);
                return c ? -1 : br_error_nomem();
            }
            for (size_t k = it; k < x->n_items && x->items[k].job == j; k++)
                if (isfinite(cost[k] = c[x->items[k].index]))
                    known[n_known++] = cost[k];
            free(c);
        }
    }
    if (n_known) {
        /* The median of the known costs, for the cases the files miss. */
        qsort(known, n_known, sizeof *known, br_cmp_double);
        double med =
            n_known % 2 ? known[n_known / 2] : (known[n_known / 2 - 1] + known[n_known / 2]) / 2;
        for (size_t it = 0; it < x->n_items; it++)
            if (!isfinite(cost[it]))
                cost[it] = med;
        *measured = 1;
    } else {
        for (size_t it = 0; it < x->n_items; it++) {
            const br_job *job = &x->jobs[x->items[it].job];
            size_t i = x->items[it].index;
            double w = (isfinite(job->bytes[i]) ? job->bytes[i] : 0) +
                       (isfinite(job->flops[i]) ? job->flops[i] : 0);
            cost[it] = w > 0 ? w : 1;
        }
    }
    free(known);
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

/* begin_runs for each job: GPU cases (and, with fake devices, host cases)
 * into x->items, host cases into host[0..*n_host). */
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
        if (job->suite.budget_ns > 0 && !main->opts.quiet)
            br_log(BR_LOG_WARN,
                   "benchrun: warning: %s: the suite's budget is not applied with --devices\n",
                   job->suite.path);
        for (size_t i = 0; i < job->plan.n_cases; i++) {
            br_case_result *r = &x->runs[j].cases[i];
            if (br_case_init(r, job, i) != 0)
                return -1;
            int gpu = br_kernel_ref_backend(br_job_case_ref(job, i)) == BR_BACKEND_GPU;
            br_stage why = br_driver_unrunnable(job, i);
            if (why != BR_STAGE_NONE) {
                if (br_driver_settle(r, why, job, i, main) != 0)
                    return -1;
                main->cases_done++; /* for the budget: a case that costs no time */
            } else if (gpu || x->d->fake) {
                x->items[x->n_items++] = (dev_item){j, i};
            } else {
                host[(*n_host)++] = (dev_item){j, i};
            }
        }
    }
    return 0;
}

/* The plan on standard error: the devices, the order's source and, by
 * measured times, each device's predicted busy time. */
static void say_plan(const dev_exec *x, const double *cost, int measured, const br_session *main) {
    if (main->opts.quiet)
        return;
    char line[1024];
    size_t n = (size_t)snprintf(line, sizeof line,
                                "benchrun: %zu case(s) on %u device(s) of model %s, longest first "
                                "by %s",
                                x->n_par, x->d->n, x->d->slot[0].name,
                                measured ? "measured times" : "declared work (bytes + flops)");
    unsigned *slot = malloc((x->n_items ? x->n_items : 1) * sizeof *slot);
    double finish[MAX_DEV];
    if (measured && slot && br_devsched_lpt(slot, finish, cost, x->n_par, x->d->n) == 0) {
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
    if (x->n_items > x->n_par && n < sizeof line)
        snprintf(line + n, sizeof line - n, "; then %zu host case(s), one at a time",
                 x->n_items - x->n_par);
    br_log(BR_LOG_NOTE, "%s\n", line);
}

/* Start a driver thread per device and wait for them all. A device whose
 * thread cannot start is retired (the others take its cases). */
static void run_threads(dev_exec *x) {
    pthread_t th[MAX_DEV];
    dev_thread arg[MAX_DEV];
    int started[MAX_DEV] = {0};
    for (unsigned k = 0; k < x->d->n; k++) {
        arg[k] = (dev_thread){x, k};
        started[k] = pthread_create(&th[k], NULL, device_thread, &arg[k]) == 0;
        if (!started[k]) {
            pthread_mutex_lock(&x->lock);
            br_devsched_retire(&x->sched, k);
            pthread_mutex_unlock(&x->lock);
            br_log(BR_LOG_WARN, "benchrun: warning: cannot start the thread of device %d\n",
                   x->d->slot[k].index);
        }
    }
    for (unsigned k = 0; k < x->d->n; k++)
        if (started[k])
            pthread_join(th[k], NULL);
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
    }
    return 0;
}

/* Per device: cases measured and their wall time. */
static void say_devices(const dev_exec *x, const br_session *main) {
    if (main->opts.quiet)
        return;
    for (unsigned k = 0; k < x->d->n; k++) {
        const dev_slot *s = &x->d->slot[k];
        char busy[32];
        br_format_duration(busy, sizeof busy, s->busy_ns);
        br_log(BR_LOG_NOTE, "benchrun: device %d (%s): %zu case(s) in %s%s\n", s->index, s->uuid,
               s->ran, busy, br_devsched_retired(&x->sched, k) ? " (retired)" : "");
    }
}

/* The host cases, after the GPU cases: one at a time on the first device's
 * session (pinned to its CPU as in a one-GPU run, nothing else running),
 * from this thread: the worker that the device's own thread started died
 * with that thread, and the session starts another (worker/process.h,
 * br_worker_usable). Returns 0, or -1 with the error set. */
static int run_host(dev_exec *x, const double *cost) {
    size_t n = x->n_items - x->n_par;
    br_devsched_dispose(&x->sched);
    if (br_devsched_init(&x->sched, cost + x->n_par, n, 1) != 0)
        return -1;
    x->base = x->n_par;
    dev_slot *first = &x->d->slot[0];
    size_t ran = first->ran;
    double busy = first->busy_ns;
    dev_thread t = {x, 0};
    device_thread(&t);
    if (!x->main->opts.quiet) {
        char b[32];
        br_format_duration(b, sizeof b, first->busy_ns - busy);
        br_log(BR_LOG_NOTE, "benchrun: %zu host case(s) after the GPU cases, one at a time: %s\n",
               first->ran - ran, b);
    }
    return 0;
}

int br_devices_execute(br_run *runs, const br_job *jobs, size_t n_jobs, br_session *main,
                       br_devset *d) {
    dev_exec x = {.main = main, .runs = runs, .jobs = jobs, .d = d, .tally = BR_DRIVER_TALLY_INIT};
    double *cost = NULL;
    int measured = 0, rc = -1;
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
    if (item_costs(cost, &measured, &x, main) != 0 ||
        br_devsched_init(&x.sched, cost, x.n_par, d->n) != 0)
        goto done;
    say_plan(&x, cost, measured, main);
    if (main->start_ns == 0)
        main->start_ns = br_now_ns();
    run_threads(&x);
    say_devices(&x, main);
    if (x.n_items > x.n_par && !br_stop_signal() && run_host(&x, cost) != 0)
        goto done;
    if (!main->opts.quiet)
        br_driver_budget_note(&x.tally, NULL, main->opts.budget_ns, 0);
    if (settle_rest(&x) != 0)
        goto done;
    for (size_t j = 0; j < n_jobs; j++)
        if (br_driver_close(&runs[j], main, d->slot[0].session) != 0)
            goto done;
    rc = 0;
done:
    br_devsched_dispose(&x.sched);
    free(cost);
    free(x.recorded);
    free(x.items);
    pthread_cond_destroy(&x.changed);
    pthread_mutex_destroy(&x.lock);
    return rc;
}
