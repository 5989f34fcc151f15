/* SPDX-License-Identifier: Apache-2.0 */
/* The worker's request and reply (proto.h): the
 * parent asks for the device, the measured peak or one case; the worker
 * answers with the session fields it found out and, for a case, its result
 * as a typed case message (results/case_codec.h: the results document's own
 * per-case codec). */
#include "proto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "platform/cpupin.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "plan/job.h"
#include "measure/case.h"
#include "measure/stage.h"
#include "model/settings.h"
#include "compile/build.h"
#include "results/case_codec.h"
#include "peak_msg.h"
#include "session_impl.h"

/* A request, sent as its bytes. The worker is a fork of this process made
 * after the builds (br_job_build ends the session's worker), so `job` and
 * what it points to are valid in it. */
typedef struct worker_request {
    int kind;           /* BR_REQ_* */
    const br_job *job;  /* BR_REQ_CASE */
    size_t index;       /* BR_REQ_CASE: the case, in job->plan */
    br_measure_cfg cfg; /* BR_REQ_CASE: its measurement settings (budget applied) */
    double warmup_ns;   /* BR_REQ_CASE */
    int precision;      /* BR_REQ_COMPUTE: a br_precision */
} worker_request;

/* A reply: the session fields the worker found out, then (BR_REQ_CASE) the
 * case's result as a case message (br_case_encode), or (BR_REQ_COMPUTE) the
 * compute peak as a peak message (peak_msg.h), text_len bytes. */
typedef struct worker_reply {
    int gpu_ok;
    char gpu_why[512];
    br_device device;
    char gpu_arch[16];
    br_clock gpu_clock;
    char clock_note[600];
    double peak_gbps; /* BR_REQ_PEAK */
    int device_count; /* BR_REQ_DEVICE: CUDA devices the worker sees */
    size_t text_len;
} worker_reply;

_Static_assert(sizeof(((worker_reply *)0)->gpu_why) == sizeof(((br_session *)0)->gpu_why) &&
                   sizeof(((worker_reply *)0)->gpu_arch) == sizeof(((br_session *)0)->gpu_arch) &&
                   sizeof(((worker_reply *)0)->clock_note) == sizeof(((br_session *)0)->clock_note),
               "worker_reply carries the session's fields whole");

/* What case i is, before it runs: kernel, combination, a copy of its
 * parameter values, bytes and flops. Returns 0, or -1 (out of memory). */
int br_case_init(br_case_result *r, const br_job *job, size_t i) {
    const br_plan_case *pc = &job->plan.cases[i];
    size_t np = job->suite.n_params;
    r->kernel = pc->kernel;
    r->combo = pc->combo;
    r->params = malloc((np ? np : 1) * sizeof *r->params);
    if (!r->params)
        return br_error_nomem();
    if (np)
        memcpy(r->params, br_plan_params(&job->plan, pc->combo), np * sizeof *r->params);
    r->bytes = job->bytes[i];
    r->flops = job->flops[i];
    r->precision = br_suite_precision(&job->suite, pc->kernel);
    return 0;
}

/* In the worker: run the case q asks for and write its result as a case
 * message into *text (*len bytes). Returns 0 when it measured, 1 when it failed
 * (after a failure the process may be poisoned, by a sticky CUDA error: a
 * fresh worker takes the next case), -1 when no document could be made. */
static int serve_case(char **text, size_t *len, br_session *s, const worker_request *q) {
    br_stage_set(BR_STAGE_INIT); /* a fresh worker starts CUDA and CUPTI first */
    const br_suite *suite = &q->job->suite;
    br_case_result r = {0};
    const br_kernel_ref *ref = br_job_case_ref(q->job, q->index);
    const char **names = malloc((suite->n_params ? suite->n_params : 1) * sizeof *names);
    if (!names || br_case_init(&r, q->job, q->index) != 0) {
        free(names);
        return -1;
    }
    for (size_t p = 0; p < suite->n_params; p++)
        names[p] = suite->params[p].name;
    br_backend backend = br_kernel_ref_backend(ref);
    int gpu = backend == BR_BACKEND_GPU;
    /* A fresh worker opens the backend's timer (CUDA context, CUPTI) here. */
    double t0 = br_now_ns();
    void *timer = br_session_timer(s, backend);
    double open_ns = br_now_ns() - t0;
    br_case_ctx ctx = {.ops = br_session_timer_ops(backend),
                       .state = timer,
                       .clock = gpu ? s->gpu_clock : BR_CLOCK_MONOTONIC,
                       .max_mhz = gpu ? s->device.sm_clock_khz / 1e3 : 0,
                       .energy_uuid = gpu && s->opts.energy ? s->device.uuid : NULL};
    br_case_spec spec = {.param_names = names,
                         .values = r.params,
                         .n_params = suite->n_params,
                         .seed = br_case_seed(suite->name.text, r.params, suite->n_params),
                         .backend = backend,
                         .cache = suite->cache,
                         .cfg = &q->cfg,
                         .warmup_ns = q->warmup_ns};
    char label[512];
    if (gpu && !s->opts.no_nvtx) {
        br_case_label(label, sizeof label, suite->kernels[r.kernel].text, names, r.params,
                      suite->n_params);
        spec.nvtx_label = label;
    }
    /* A host case is measured on its CPU alone (cpupin.h); a GPU case
     * keeps the worker's mask, which its CUDA threads inherited. */
    br_cpu_set saved;
    int pinned = !gpu && s->cpu.cpu >= 0 && br_cpu_pin_self(s->cpu.cpu, &saved) == 0;
    br_case_run(&r, &ctx, ref->k, &spec);
    if (pinned)
        br_cpu_set_self(&saved, NULL);
    r.wall.present = 1;
    r.wall.start_ns = open_ns;
    free(names);
    int rc = r.status == BR_STATUS_OK ? 0 : 1;
    if (br_case_encode(text, len, &r, backend) != 0)
        rc = -1;
    br_case_dispose(&r);
    return rc;
}

/* The worker's request handler (br_worker_serve_fn); ctx is the session
 * (the worker's copy). */
static int worker_serve(void *ctx, const void *req, size_t len, void **reply, size_t *reply_len) {
    br_session *s = ctx;
    if (!req) { /* the parent is done with this worker: flush CUPTI, release the GPU */
        for (int b = 0; b < 2; b++)
            if (s->timer_state[b])
                br_session_timer_ops((br_backend)b)->close(s->timer_state[b]);
        memset(s->timer_state, 0, sizeof s->timer_state);
        return 0;
    }
    worker_request q;
    worker_reply h;
    if (len != sizeof q)
        return -1;
    memcpy(&q, req, sizeof q);
    memset(&h, 0, sizeof h);
    /* --devices: bound to one device before CUDA starts (a no-op after). */
    if (s->visible[0] && setenv("CUDA_VISIBLE_DEVICES", s->visible, 1) != 0)
        return -1;
    char *text = NULL;
    int rc = 0;
    switch (q.kind) {
    case BR_REQ_DEVICE:
        br_session_query_gpu_here(s);
        break;
    case BR_REQ_PEAK:
        h.peak_gbps = br_session_measure_peak_here(s);
        rc = isnan(h.peak_gbps); /* it failed: a fresh worker runs the cases */
        break;
    case BR_REQ_CASE:
        if ((rc = serve_case(&text, &h.text_len, s, &q)) < 0)
            return -1;
        break;
    case BR_REQ_COMPUTE: {
        br_compute_measure cp;
        br_session_measure_compute_here(s, (br_precision)q.precision, &cp);
        if (br_peak_msg_encode(&text, &h.text_len, &cp) != 0)
            return -1;
        rc = cp.status == BR_COMPUTE_PEAK_FAILED; /* a fresh worker runs the cases */
        break;
    }
    default:
        return -1;
    }
    h.gpu_ok = s->gpu_ok;
    h.device_count = s->device_count;
    memcpy(h.gpu_why, s->gpu_why, sizeof h.gpu_why);
    h.device = s->device;
    memcpy(h.gpu_arch, s->gpu_arch, sizeof h.gpu_arch);
    h.gpu_clock = s->gpu_clock;
    memcpy(h.clock_note, s->clock_note, sizeof h.clock_note);
    char *buf = malloc(sizeof h + h.text_len);
    if (!buf) {
        free(text);
        return -1;
    }
    memcpy(buf, &h, sizeof h);
    if (h.text_len)
        memcpy(buf + sizeof h, text, h.text_len);
    free(text);
    *reply = buf;
    *reply_len = sizeof h + h.text_len;
    return rc;
}

/* The session's worker, started when none runs or when the one there
 * does not serve this thread (br_worker_usable: --devices measures its host
 * cases on the first device's session, from another thread than the one
 * that started its worker, which died with that thread). Returns 0, or -1
 * with the error set. */
static int session_worker(br_session *s) {
    if (br_worker_usable(s->worker))
        return 0;
    br_session_drop_worker(s);
    return br_worker_start(&s->worker, worker_serve, s);
}

/* Send q to the worker and take the session fields of its reply; *text
 * (may be NULL) gets the text that follows (malloc'd, NUL-terminated, *len
 * bytes). Returns BR_WORKER_OK, or another br_worker_result (the worker is
 * gone; the error is set for BR_WORKER_DIED and BR_WORKER_ERROR). */
static br_worker_result call_worker(br_session *s, const worker_request *q, double timeout_ns,
                                    char **text, size_t *len) {
    void *reply = NULL;
    size_t n = 0;
    if (session_worker(s) != 0)
        return BR_WORKER_ERROR;
    br_worker_result wr = br_worker_call(s->worker, q, sizeof *q, timeout_ns, &reply, &n);
    if (wr != BR_WORKER_OK)
        return wr;
    worker_reply h;
    if (n < sizeof h || (memcpy(&h, reply, sizeof h), h.text_len != n - sizeof h)) {
        free(reply);
        br_session_drop_worker(s);
        br_error_set("the worker process sent a malformed reply");
        return BR_WORKER_ERROR;
    }
    s->gpu_ok = h.gpu_ok;
    memcpy(s->gpu_why, h.gpu_why, sizeof s->gpu_why);
    s->gpu_why[sizeof s->gpu_why - 1] = '\0';
    s->device = h.device;
    memcpy(s->gpu_arch, h.gpu_arch, sizeof s->gpu_arch);
    s->gpu_arch[sizeof s->gpu_arch - 1] = '\0';
    s->gpu_clock = h.gpu_clock;
    memcpy(s->clock_note, h.clock_note, sizeof s->clock_note);
    s->clock_note[sizeof s->clock_note - 1] = '\0';
    if (q->kind == BR_REQ_PEAK)
        s->peak_gbps = h.peak_gbps;
    if (q->kind == BR_REQ_DEVICE)
        s->device_count = h.device_count;
    if (text) {
        /* The text moves to the front of the reply's buffer. */
        memmove(reply, (char *)reply + sizeof h, h.text_len);
        ((char *)reply)[h.text_len] = '\0'; /* the header was longer than one byte */
        *text = reply;
        *len = h.text_len;
    } else {
        free(reply);
    }
    return BR_WORKER_OK;
}

/* Ask the worker for the device (BR_REQ_DEVICE: fills s->gpu_ok, gpu_why,
 * device, gpu_arch) or the measured peak (BR_REQ_PEAK: fills s->peak_gbps,
 * GB/s). Returns 0, or -1 with the error set. */
int br_session_ask(br_session *s, int kind) {
    worker_request q = {.kind = kind};
    /* Both take seconds at most; a minute is a driver that hangs. */
    br_worker_result wr = call_worker(s, &q, 60e9, NULL, NULL);
    if (wr == BR_WORKER_TIMED_OUT)
        return br_error_set("the worker process gave no answer in 1 min");
    if (wr == BR_WORKER_STOPPED)
        return br_error_set("interrupted");
    return wr == BR_WORKER_OK ? 0 : -1;
}

int br_session_ask_compute(br_session *s, br_precision p, br_compute_measure *out) {
    worker_request q = {.kind = BR_REQ_COMPUTE, .precision = (int)p};
    char *text = NULL;
    size_t len = 0;
    /* A launch is sized to ~2 ms and sampled for at most 5 s (session.c);
     * a minute is a driver that hangs. */
    br_worker_result wr = call_worker(s, &q, 60e9, &text, &len);
    if (wr == BR_WORKER_TIMED_OUT)
        return br_error_set("the worker process gave no answer in 1 min");
    if (wr == BR_WORKER_STOPPED)
        return br_error_set("interrupted");
    if (wr != BR_WORKER_OK)
        return -1;
    int rc = br_peak_msg_decode(out, text, len);
    free(text);
    if (rc == 0 && out->status == BR_COMPUTE_PEAK_FAILED)
        br_session_drop_worker(s); /* it exits after a failure */
    return rc;
}

/* Say once per session, before its first host case, where host cases are
 * measured (not with quiet) and that the CPU's frequency scaling is on
 * (Google Benchmark's warning, src/sysinfo.cc). */
static void host_notes(br_session *s) {
    if (s->scaling_warned)
        return;
    s->scaling_warned = 1;
    if (!s->opts.quiet && s->cpu.note[0])
        br_log(BR_LOG_NOTE, "benchrun: %s\n", s->cpu.note);
    if (s->host.freq_scaling == 1)
        br_log(BR_LOG_WARN,
               "benchrun: warning: CPU frequency scaling is enabled (governor '%s'): host times "
               "may be noisy; for steadier ones set the 'performance' governor (cpupower "
               "frequency-set -g performance)\n",
               s->host.governor[0] ? s->host.governor : "?");
}

/* The outcome of a case whose worker gave no result (wr): failed in the
 * stage the worker last announced ("run" when none; "setup" when the
 * worker could not be reached), the message saying how the worker was
 * lost. limit: the watchdog's, ns. */
static void worker_lost(br_case_result *r, br_worker_result wr, br_stage stage, double limit,
                        const br_measure_cfg *cfg, double warmup_ns, double watchdog_ns) {
    r->status = BR_STATUS_FAILED;
    r->stage = stage != BR_STAGE_NONE ? stage : BR_STAGE_RUN;
    if (wr == BR_WORKER_TIMED_OUT) {
        char total[32], w[32], t[32], d[32];
        int both = br_measure_modes(cfg) > 1;
        br_format_duration(total, sizeof total, limit);
        br_format_duration(w, sizeof w, warmup_ns);
        br_format_duration(t, sizeof t, cfg->timeout_ns);
        br_format_duration(d, sizeof d, watchdog_ns);
        r->message = br_strfmt("timed out after %s (%swarmup %s + timeout %s%s + watchdog %s): "
                               "its worker process was killed",
                               total, both ? "(" : "", w, t, both ? ") x 2" : "", d);
    } else if (wr == BR_WORKER_ERROR) {
        r->stage = BR_STAGE_SETUP;
        r->message = br_strfmt("could not run the case in a worker process: %s", br_error_get());
    } else {
        r->message = br_strfmt("crashed: %s", br_error_get());
    }
}

/* Run case i of job in the worker and fill *r (prepared by br_case_init)
 * with its outcome (see proto.h). */
br_worker_result br_case_exec(br_case_result *r, const br_job *job, br_session *s, size_t i,
                              const br_measure_cfg *cfg, double warmup_ns) {
    const br_suite *suite = &job->suite;
    worker_request q = {
        .kind = BR_REQ_CASE, .job = job, .index = i, .cfg = *cfg, .warmup_ns = warmup_ns};
    double limit = br_measure_modes(cfg) * (warmup_ns + cfg->timeout_ns) + suite->watchdog_ns;
    char *text = NULL;
    size_t len = 0;
    /* A worker started for this case: its fork counts as the case's start. */
    double t0 = br_now_ns();
    int fresh = !br_worker_usable(s->worker);
    if (fresh && session_worker(s) != 0)
        fresh = 0; /* call_worker reports it */
    double fork_ns = fresh ? br_now_ns() - t0 : 0;
    int host = br_kernel_ref_backend(br_job_case_ref(job, i)) == BR_BACKEND_HOST;
    if (host)
        host_notes(s);
    /* While the worker measures a host case, the parent keeps off its core. */
    br_cpu_set saved;
    int moved = host && s->cpu.cpu >= 0 && br_cpu_set_self(&s->cpu.parent, &saved) == 0;
    br_worker_result wr = call_worker(s, &q, limit, &text, &len);
    if (moved)
        br_cpu_set_self(&saved, NULL);
    if (wr == BR_WORKER_STOPPED) {
        br_session_drop_worker(s);
        return wr;
    }
    if (wr != BR_WORKER_OK) {
        worker_lost(r, wr, br_worker_stage(s->worker), limit, cfg, warmup_ns, suite->watchdog_ns);
        br_session_drop_worker(s);
        return wr;
    }
    br_case_result got = {0};
    if (br_case_decode(&got, NULL, text, len, "the worker's result") == 0) {
        br_case_take_outcome(r, &got);
        /* The worker's timer opening (its first case of the backend) and,
         * for a fresh worker, its fork. */
        r->wall.start_ns += fork_ns;
    } else {
        r->status = BR_STATUS_FAILED;
        r->stage = BR_STAGE_RUN;
        r->message = br_strfmt("cannot read the worker process's result: %s", br_error_get());
    }
    br_case_dispose(&got);
    free(text);
    if (r->status != BR_STATUS_OK)
        br_session_drop_worker(s); /* it exits after a failure */
    return BR_WORKER_OK;
}
