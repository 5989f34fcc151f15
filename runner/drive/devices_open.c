/* SPDX-License-Identifier: Apache-2.0 */
/* The devices of a run over several GPUs found, opened and checked: the
 * list parsed, the host's devices counted by a probe, every device's
 * session opened and bound and its device asked at once (a thread each),
 * one model checked; and fake devices for the tests (devices.h).
 */
#include "devices_impl.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "plan/device_list.h"

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

/* Wait for every query of d still running (their answers stay in q). */
static void join_queries(br_devset *d) {
    for (unsigned k = 0; k < MAX_DEV; k++)
        if (d->q[k].started) {
            pthread_join(d->q[k].th, NULL);
            d->q[k].started = 0;
        }
}

void br_devices_close(br_devset *d) {
    if (!d)
        return;
    join_queries(d);
    for (unsigned k = 0; k < d->n && !d->plain; k++)
        br_session_close(d->slot[k].session);
    free(d);
}

/* How many devices the host has (a worker's query), or the fake ones:
 * *count; *probe: the session that asks (opened here unless the caller
 * opened it; the caller closes it; its answer is device 0's, as the
 * environment numbers them), NULL with fake devices. -1 with the error set
 * when no GPU can be used (*probe closed). */
static int host_devices(int *count, int *fake, br_session **probe, const br_session *main) {
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
    if (!*probe && br_session_open(probe, br_session_opts(main)) != 0)
        return -1;
    int ok = br_session_gpu(*probe);
    *count = br_session_device_count(*probe);
    if (ok && *count >= 1)
        return 0;
    br_error_set("--devices: no usable GPU (%s)",
                 br_session_gpu_why(*probe)[0] ? br_session_gpu_why(*probe) : "no CUDA device");
    br_session_close(*probe);
    *probe = NULL;
    return -1;
}

/* Slot k of d, host device `index`: its session opened and bound (its
 * device not yet asked: slot_query); a fake device named. */
static int slot_prepare(br_devset *d, unsigned k, int index, const br_session *main) {
    dev_slot *s = &d->slot[k];
    char visible[64];
    s->index = index;
    br_run_opts o = *br_session_opts(main);
    if (d->fake)
        o.cpu = -1; /* host cases at once on every fake device: not on one pinned CPU */
    if (br_session_open(&s->session, &o) != 0)
        return -1;
    if (!d->fake) {
        visible_of(visible, sizeof visible, index);
        br_session_bind(s->session, visible);
        return 0;
    }
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

/* Ask q's device (br_session_gpu: a worker that initialises CUDA, which
 * says why not in the session's gpu_why), or wait out a fake device's
 * opening. A thread's body; returns NULL. */
static void *slot_query_run(void *arg) {
    slot_query *q = arg;
    if (q->session) {
        q->ok = br_session_gpu(q->session);
        return NULL;
    }
    struct timespec t = {(time_t)(q->fake_ns / 1e9), (long)fmod(q->fake_ns, 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
    q->ok = 1;
    return NULL;
}

/* BENCHRUN_FAKE_OPEN_MS=N (test-only): each fake device's opening takes N
 * ms, as a GPU's does (its worker's CUDA initialisation); ns, 0 without it. */
static double fake_open_ns(void) {
    const char *e = getenv("BENCHRUN_FAKE_OPEN_MS");
    double ms = e && e[0] ? atof(e) : 0;
    return ms > 0 && ms < 60e3 ? ms * 1e6 : 0;
}

/* Open d's slots [from, to) for host devices idx[from..to): their
 * sessions opened and bound one after another (no worker: milliseconds),
 * then every device asked at once, a thread per slot (a worker each: a
 * fork and a CUDA initialisation) left running for slots_answered,
 * except the slot of host device 0, which takes the probe's answer later
 * (adopt_probe: the probe asked device 0 of what the environment shows,
 * the device visible_of binds that slot to). Every slot's session is in d
 * (br_devices_close joins the queries and closes them, also after a
 * failure). A session that cannot be opened fails at once (-1, error set);
 * the queries' errors are slots_answered's. */
static int open_slots(br_devset *d, const int *idx, size_t from, size_t to,
                      const br_session *main) {
    d->n = (unsigned)to;
    for (size_t k = from; k < to; k++)
        if (slot_prepare(d, (unsigned)k, idx[k], main) != 0) {
            d->n = (unsigned)k + 1; /* the failed one's session may be half-made: closed too */
            return -1;              /* as before: the slots after a failed one are not opened */
        }
    for (size_t k = from; k < to; k++) {
        slot_query *q = &d->q[k];
        if (!d->fake && idx[k] == 0)
            continue; /* adopt_probe */
        q->session = d->fake ? NULL : d->slot[k].session;
        q->fake_ns = d->fake ? fake_open_ns() : 0;
        q->started = pthread_create(&q->th, NULL, slot_query_run, q) == 0;
        if (!q->started) /* no thread: asked from this one */
            slot_query_run(q);
    }
    return 0;
}

/* The probe's answer into the slot of host device 0, if d has one. */
static void adopt_probe(br_devset *d, const br_session *probe) {
    for (unsigned k = 0; k < d->n && probe; k++)
        if (d->slot[k].index == 0) {
            br_session_adopt_query(d->slot[k].session, probe);
            d->q[k].ok = br_session_gpu_ok(d->slot[k].session);
        }
}

/* Close d's slots from `keep` on (the devices guessed beyond those the
 * probe counted), their queries awaited first. */
static void drop_slots(br_devset *d, unsigned keep) {
    for (unsigned k = keep; k < d->n; k++) {
        if (d->q[k].started)
            pthread_join(d->q[k].th, NULL);
        br_session_close(d->slot[k].session);
        memset(&d->slot[k], 0, sizeof d->slot[k]);
        memset(&d->q[k], 0, sizeof d->q[k]);
    }
    d->n = keep < d->n ? keep : d->n;
}

/* The queries open_slots started, awaited and checked: each slot's name
 * and uuid from its answer, or the error of the lowest slot that failed,
 * as when the slots were opened and asked one after another. */
static int slots_answered(br_devset *d) {
    join_queries(d);
    for (unsigned k = 0; k < d->n; k++) {
        dev_slot *s = &d->slot[k];
        if (!d->q[k].ok)
            return br_error_set("--devices: device %d: %s", s->index,
                                br_session_gpu_why(s->session));
        if (d->fake)
            continue;
        snprintf(s->name, sizeof s->name, "%s", br_session_device(s->session)->name);
        snprintf(s->uuid, sizeof s->uuid, "%s", br_session_device(s->session)->uuid);
    }
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

/* How many devices the host probably shows, before the probe says: the
 * entries of CUDA_VISIBLE_DEVICES when it is set, else the driver's
 * /dev/nvidiaN nodes (one per GPU). Only a guess, at most MAX_DEV: the
 * probe's count decides, and a wrong guess costs a device asked for
 * nothing, or one asked after the probe. 0 when unknown. */
static size_t guess_devices(void) {
    const char *env = getenv("CUDA_VISIBLE_DEVICES");
    size_t n = 0;
    if (env) {
        for (const char *p = env; *p; p++) /* "0,2,5": three */
            n += *p == ',';
        n += env[0] != '\0';
        return n < MAX_DEV ? n : MAX_DEV;
    }
    DIR *dir = opendir("/dev");
    if (!dir)
        return 0;
    for (struct dirent *e; (e = readdir(dir));) {
        const char *num = e->d_name + 6;
        n += strncmp(e->d_name, "nvidia", 6) == 0 && *num &&
             strspn(num, "0123456789") == strlen(num);
    }
    closedir(dir);
    return n < MAX_DEV ? n : MAX_DEV;
}

/* Close d and probe, keeping the error set. Returns -1. */
static int open_failed(br_devset *d, br_session *probe) {
    char why[BR_ERROR_MAX];
    br_error_kind kind = br_error_kind_get();
    snprintf(why, sizeof why, "%s", br_error_get());
    br_devices_close(d);
    br_session_close(probe);
    br_error_set("%s", why);
    return br_error_set_kind(kind);
}

/* d's slots for the devices the probe counted (count) and the list named
 * (idx[0..*n), all: every device): those asked beside the probe kept, the
 * guessed ones past the count closed, the others opened now. Returns 0, or
 * -1 with the error set (an index the host does not have). */
static int slots_for_count(br_devset *d, int *idx, size_t *n, int all, int count,
                           const br_session *main) {
    if (!all) {
        for (size_t k = 0; k < *n; k++)
            if (idx[k] >= count)
                return br_error_set("--devices %s: this host has %d GPU(s), numbered 0 to %d",
                                    br_session_opts(main)->devices, count, count - 1);
        return d->n == 0 ? open_slots(d, idx, 0, *n, main) : 0; /* not asked beside the probe */
    }
    size_t want = (size_t)count < MAX_DEV ? (size_t)count : MAX_DEV;
    drop_slots(d, (unsigned)want);
    size_t had = d->n;
    join_queries(d); /* no worker forks while more sessions open */
    for (size_t k = 0; k < want; k++)
        idx[k] = (int)k;
    *n = want;
    return want > had ? open_slots(d, idx, had, want, main) : 0;
}

int br_devices_open(br_devset **out, br_session *main) {
    *out = NULL;
    int idx[MAX_DEV], all, count, fake;
    size_t n;
    br_session *probe = NULL;
    if (br_devices_parse(idx, &n, &all, br_session_opts(main)->devices) != 0)
        return -1;
    br_devset *d = calloc(1, sizeof *d);
    if (!d)
        return br_error_nomem();
    const char *f = getenv("BENCHRUN_FAKE_DEVICES");
    d->fake = f && f[0];
    if (!d->fake) {
        /* The probe's session first (opening one may load NVML: not while a
         * worker forks), then the devices named, or those the host probably
         * has, asked beside the probe; a named device the guess does not
         * cover is asked only once the probe has counted (it may be one
         * CUDA_VISIBLE_DEVICES leaves out). */
        size_t guess = guess_devices(), early = n;
        if (br_session_open(&probe, br_session_opts(main)) != 0)
            return open_failed(d, NULL);
        for (size_t k = 0; !all && k < n; k++)
            early = idx[k] < (int)guess ? early : 0;
        for (size_t k = 0; all && k < guess; k++)
            idx[k] = (int)k;
        if (open_slots(d, idx, 0, all ? guess : early, main) != 0)
            return open_failed(d, probe);
    }
    if (host_devices(&count, &fake, &probe, main) != 0 ||
        slots_for_count(d, idx, &n, all, count, main) != 0)
        return open_failed(d, probe);
    adopt_probe(d, probe);
    if (slots_answered(d) != 0 || check_one_model(d) != 0)
        return open_failed(d, probe);
    if (!fake) { /* the build's architecture and the run's header: the first device's */
        br_session_bind(main, br_session_visible(d->slot[0].session));
        br_session_adopt_query(main, d->slot[0].session); /* bound alike: no worker asks again */
    }
    br_session_close(probe);
    *out = d;
    return 0;
}
