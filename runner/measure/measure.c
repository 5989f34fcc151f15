/* SPDX-License-Identifier: Apache-2.0 */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "base/sort.h"
#include "platform/disturb.h"
#include "nvtx.h"
#include "model/stats.h"

void br_stopper_init(br_stopper *s, const br_measure_cfg *cfg, double tick_ns) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->max_ci = cfg->max_noise / BR_CI_PER_NOISE;
    s->tick_ns = tick_ns > 0 && isfinite(tick_ns) ? tick_ns : 0;
    s->ci_rel = INFINITY;
    s->ci_goal = s->max_ci;
    s->ci_next = 6;
}

void br_stopper_dispose(br_stopper *s) {
    if (!s)
        return;
    free(s->values);
    s->values = NULL;
    s->cap = 0;
}

/* x to the nearest multiple of tick (x itself when tick is 0). */
static double to_tick(double x, double tick) {
    return tick > 0 ? round(x / tick) * tick : x;
}

/* The median's 95% interval, as a relative half-width, of the kept values
 * (sorted in place: the stopper needs them only as a set), and the width it
 * must reach. Median and bounds are rounded to the tick first: the clock
 * cannot tell values apart more finely. */
static void update_ci(br_stopper *s) {
    size_t lo, hi;
    if (s->n < 6 || br_stats_median_ci(s->n, &lo, &hi, NULL) != 0)
        return;
    qsort(s->values, s->n, sizeof *s->values, br_cmp_double);
    double med = to_tick(br_stats_quantile(s->values, s->n, 0.5), s->tick_ns);
    double w =
        fmax(med - to_tick(s->values[lo], s->tick_ns), to_tick(s->values[hi], s->tick_ns) - med);
    s->ci_rel = med > 0 ? w / med : INFINITY;
    s->ci_goal = med > 0 ? fmax(s->max_ci, s->tick_ns / med) : s->max_ci;
    s->ci_n = s->n;
    s->ci_next = s->n < BR_CI_DENSE ? s->n + 1 : s->n + s->n / BR_CI_EVERY;
}

/* ci_t's first stage (measure.h): the logs of the first BR_CI_T_MIN_N
 * samples, then Stein's N from their spread. A sample that is not positive
 * leaves t_n 0: no ci_t for this measurement. */
static void ci_t_first_stage(br_stopper *s, double value) {
    if (!(value > 0) || !isfinite(value)) {
        s->t_m2 = NAN;
        return;
    }
    double y = log(value), d = y - s->t_mean;
    s->t_mean += d / (double)s->n;
    s->t_m2 += d * (y - s->t_mean);
    if (s->n < BR_CI_T_MIN_N || !isfinite(s->t_m2))
        return;
    double s0 = sqrt(s->t_m2 / (double)(BR_CI_T_MIN_N - 1));
    double d_goal = log1p(fmax(s->max_ci, s->tick_ns / exp(s->t_mean)));
    double q = br_stats_t975(BR_CI_T_MIN_N - 1) * s0 / d_goal;
    double n = ceil(q * q);
    size_t floor_n = s->cfg.min_samples > BR_DEFAULT_MIN_SAMPLES ? s->cfg.min_samples : 0;
    s->t_n = BR_CI_T_MIN_N;
    if (floor_n > s->t_n)
        s->t_n = floor_n;
    if (n > (double)s->t_n)
        s->t_n = n < 1e9 ? (size_t)n : (size_t)1e9;
}

void br_stopper_add(br_stopper *s, double value, double measured_ns) {
    s->n++;
    s->measured_ns += measured_ns;
    double delta = value - s->mean;
    s->mean += delta / (double)s->n;
    s->m2 += delta * (value - s->mean);
    double var = s->n > 1 ? s->m2 / (double)(s->n - 1) : 0.0;
    s->noise = s->mean != 0.0 && var > 0.0 ? sqrt(var) / fabs(s->mean) : 0.0;
    s->hist[s->hist_n % BR_PLATEAU_WINDOW] = s->noise;
    s->hist_n++;
    if (s->oom)
        return;
    if (s->n > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        double *v = realloc(s->values, nc * sizeof *v);
        if (!v) {
            s->oom = 1; /* the other rules still stop it */
            return;
        }
        s->values = v;
        s->cap = nc;
    }
    s->values[s->n - 1] = value;
    if (s->n <= BR_CI_T_MIN_N)
        ci_t_first_stage(s, value);
    /* Between updates the interval is of fewer samples: before it stops a
     * run, it is made current (once: a stale one that met the target). */
    int floors = s->n >= s->cfg.min_samples && s->measured_ns >= s->cfg.min_time_ns;
    if (s->n >= s->ci_next || (floors && s->ci_rel <= s->ci_goal && s->ci_n != s->n))
        update_ci(s);
}

/* The noise estimate moved by less than BR_PLATEAU_TOL of its value over the
 * last BR_PLATEAU_WINDOW samples. */
static int noise_settled(const br_stopper *s) {
    if (s->hist_n < BR_PLATEAU_WINDOW)
        return 0;
    double lo = s->hist[0], hi = s->hist[0];
    for (size_t i = 1; i < BR_PLATEAU_WINDOW; i++) {
        lo = fmin(lo, s->hist[i]);
        hi = fmax(hi, s->hist[i]);
    }
    return hi - lo <= BR_PLATEAU_TOL * s->noise;
}

/* At the pace so far, the interval (narrowing as 1/sqrt(n)) would reach
 * its goal only after the timeout. */
static int ci_out_of_reach(const br_stopper *s, double elapsed_ns) {
    if (!isfinite(s->ci_rel) || s->ci_n == 0 || !(elapsed_ns > 0))
        return 0;
    double r = s->ci_rel / s->ci_goal;
    double need = (double)s->ci_n * r * r; /* samples for the target */
    double per = elapsed_ns / (double)s->n;
    return (need - (double)s->n) * per > s->cfg.timeout_ns - elapsed_ns;
}

/* ci_t's slow-case test: at the pace so far, the samples the
 * distribution-free interval needs would take longer than
 * min(timeout, BR_CI_T_CAP_NS). */
static int ci_t_slow(const br_stopper *s, double elapsed_ns) {
    if (s->n == 0 || !(elapsed_ns > 0))
        return 0;
    size_t need = s->cfg.min_samples > 6 ? s->cfg.min_samples : 6;
    double cap = fmin(s->cfg.timeout_ns, BR_CI_T_CAP_NS);
    return (double)need * (elapsed_ns / (double)s->n) > cap;
}

int br_stopper_ci_t(br_stopper *s, double elapsed_ns) {
    if (s->oom || s->t_n == 0 || s->n != s->t_n || s->measured_ns < s->cfg.min_time_ns ||
        !ci_t_slow(s, elapsed_ns))
        return 0;
    qsort(s->values, s->n, sizeof *s->values, br_cmp_double);
    double med = br_stats_quantile(s->values, s->n, 0.5);
    if (!(med > 0))
        return 0;
    /* The spread check: every sample within BR_CI_T_SPREAD goals of the median. */
    double goal = fmax(s->max_ci, s->tick_ns / med);
    return fmax(med - s->values[0], s->values[s->n - 1] - med) <= BR_CI_T_SPREAD * goal * med;
}

br_stop br_stopper_check(br_stopper *s, double elapsed_ns) {
    int floors = s->n >= s->cfg.min_samples && s->n >= 6 && s->measured_ns >= s->cfg.min_time_ns;
    if (floors && s->ci_rel <= s->ci_goal)
        return BR_STOP_CI;
    if (br_stopper_ci_t(s, elapsed_ns))
        return BR_STOP_CI_T;
    if (floors) {
        if (ci_out_of_reach(s, elapsed_ns)) {
            if (s->noise <= s->cfg.max_noise)
                return BR_STOP_NOISE;
            if (noise_settled(s))
                return BR_STOP_PLATEAU;
        }
    }
    if (s->n >= s->cfg.max_samples)
        return BR_STOP_MAX_SAMPLES;
    if (elapsed_ns >= s->cfg.timeout_ns)
        return BR_STOP_TIMEOUT;
    return BR_STOP_NONE;
}

/* The growing per-sample arrays of a timing. */
typedef struct columns {
    size_t cap;
    int gpu;    /* event_ns is kept */
    int probe;  /* sm_mhz is kept (the SM clock is measured; a host case has none) */
    int kernel; /* kernel_ns, span_ns and ops are kept */
    int host;   /* cpu_mhz is kept (a host case) */
} columns;

static int grow_col(double **v, size_t cap) {
    double *p = realloc(*v, cap * sizeof *p);
    if (!p)
        return br_error_set("out of memory for samples");
    *v = p;
    return 0;
}

/* Append one kept sample: `value` (headline), `mhz`, and on a GPU the event
 * time and the sample's operations (NULL without the kernel clock); all per
 * execution of `reps`. */
static int push(br_timing *t, columns *c, double value, const br_sample *smp, double event_ns,
                const br_sample_ops *ops, size_t reps) {
    if (t->n_samples == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 64;
        if (grow_col(&t->samples, nc) || (c->probe && grow_col(&t->sm_mhz, nc)) ||
            (c->host && (grow_col(&t->cpu_mhz, nc) || grow_col(&t->switches, nc))) ||
            (c->gpu && grow_col(&t->event_ns, nc)) ||
            (c->kernel &&
             (grow_col(&t->kernel_ns, nc) || grow_col(&t->span_ns, nc) || grow_col(&t->ops, nc))))
            return -1;
        c->cap = nc;
    }
    size_t i = t->n_samples++;
    t->samples[i] = value;
    if (c->probe)
        t->sm_mhz[i] = smp->sm_mhz;
    if (c->host) {
        t->cpu_mhz[i] = smp->cpu_mhz;
        t->switches[i] = smp->ctx_switches >= 0 ? (double)smp->ctx_switches : NAN;
    }
    if (c->gpu)
        t->event_ns[i] = event_ns;
    if (c->kernel) {
        int ok = ops && ops->complete;
        t->kernel_ns[i] = ok ? ops->kernel_ns / (double)reps : NAN;
        t->span_ns[i] = ok ? ops->span_ns / (double)reps : NAN;
        t->ops[i] = ok ? (double)ops->n_ops / (double)reps : NAN;
    }
    return 0;
}

/* Add the operations of kept sample smp that ran outside the case's stream
 * (activity.h) to out's counts, naming the first. Returns 0, or -1 with the
 * error set (out of memory). */
static int note_escapes(br_timing *out, const br_sample *smp) {
    const br_sample_ops *o = smp->ops;
    out->n_other_stream += o->n_other_stream;
    out->n_other_context += o->n_other_context;
    if (!out->escaped_op && o->n_other_stream + o->n_other_context > 0 &&
        o->escaped_name != UINT32_MAX) {
        const char *name = o->escaped_name < smp->n_op_names ? smp->op_names[o->escaped_name] : "?";
        if (!(out->escaped_op = br_strdup(name)))
            return br_error_nomem();
    }
    return 0;
}

/* The state of one measurement that a kept sample updates. */
typedef struct kept_ctx {
    br_timing *out;
    columns *col;
    br_breakdown *bd;
    br_stopper *st;
    br_disturb *dist;  /* host: disturbed samples */
    br_sample *spares; /* host: the disturbed samples, kept aside (fallback_to_spares) */
    size_t n_spares, cap_spares;
    const br_measure_params *p;
    double limit; /* throttle threshold, MHz; 0: none */
    size_t reps;
    const char *const *names; /* the name table of the last sample with operations */
    size_t n_names;
} kept_ctx;

/* Keep a disturbed host sample aside. Returns 0, or -1 with the error set. */
static int spare(kept_ctx *k, const br_sample *smp) {
    if (k->n_spares == k->cap_spares) {
        size_t cap = k->cap_spares ? 2 * k->cap_spares : 16;
        br_sample *v = realloc(k->spares, cap * sizeof *v);
        if (!v)
            return br_error_nomem();
        k->spares = v;
        k->cap_spares = cap;
    }
    k->spares[k->n_spares++] = *smp;
    return 0;
}

/* When every host sample was disturbed, they are what there is: keep
 * them (out->disturbed_kept), rather than leave the case without a time.
 * Returns 0, or -1 with the error set. */
static int fallback_to_spares(kept_ctx *k) {
    if (k->out->n_samples > 0 || k->n_spares == 0)
        return 0;
    k->out->disturbed_kept = 1;
    for (size_t i = 0; i < k->n_spares; i++) {
        const br_sample *s = &k->spares[i];
        if (push(k->out, k->col, s->ns / (double)k->reps, s, NAN, NULL, k->reps) != 0)
            return -1;
    }
    return 0;
}

/* Discard (throttled, records lost) or keep one sample. Returns 0, or -1
 * with the error set. */
static int consider(kept_ctx *k, const br_sample *smp) {
    br_timing *out = k->out;
    const br_measure_params *p = k->p;
    if (smp->ops && out->n_samples == 0 && !k->col->kernel) {
        /* The first kept sample tells whether the timer collects. */
        k->col->kernel = 1;
        k->col->cap = 0;
    }
    if (p->clock == BR_CLOCK_KERNEL) {
        if (!smp->ops)
            return br_error_set("the kernel clock was asked for but the timer does not collect it");
        if (smp->ops->complete && smp->ops->n_ops == 0)
            return br_error_set(
                "the kernel clock saw no GPU operation in a sample: run must enqueue its work "
                "on the stream the case gives it (or use --clock events)");
    }
    if (k->col->host) {
        br_disturbance d = br_disturb_check(k->dist, smp->ctx_switches, smp->offcpu, smp->cpu_mhz);
        if (d == BR_SAMPLE_SWITCHED)
            out->n_switched++;
        if (d == BR_SAMPLE_SLOW) {
            out->n_slow++;
            if (!(smp->cpu_mhz >= out->slow_min_mhz))
                out->slow_min_mhz = smp->cpu_mhz;
        }
        if (d != BR_SAMPLE_CLEAN)
            return spare(k, smp);
    }
    if (k->limit > 0 && isfinite(smp->sm_mhz) && smp->sm_mhz < k->limit) {
        out->n_throttled++;
        if (!(smp->sm_mhz >= out->throttled_min_mhz))
            out->throttled_min_mhz = smp->sm_mhz;
        return 0;
    }
    if (p->clock == BR_CLOCK_KERNEL && !smp->ops->complete) {
        out->n_incomplete++;
        return 0;
    }
    double reps = (double)k->reps;
    double value = p->clock == BR_CLOCK_KERNEL ? smp->ops->kernel_ns / reps : smp->ns / reps;
    double measured = p->clock == BR_CLOCK_KERNEL ? smp->ops->kernel_ns : smp->ns;
    if (push(out, k->col, value, smp, smp->ns / reps, smp->ops, k->reps) != 0)
        return -1;
    if (smp->ops && note_escapes(out, smp) != 0)
        return -1;
    if (smp->ops && smp->ops->complete) {
        if (br_breakdown_add(k->bd, smp->ops) != 0)
            return -1;
        k->names = smp->op_names;
        k->n_names = smp->n_op_names;
    }
    br_stopper_add(k->st, value, measured);
    return 0;
}

/* One sample; fields a timer leaves alone read as "not measured". */
static int take(const br_timer_ops *ops, void *state, const br_sample_opts *o, br_exec_fn run,
                void *ctx, br_sample *smp) {
    memset(smp, 0, sizeof *smp);
    smp->ns = NAN;
    smp->sm_mhz = NAN;
    smp->cpu_mhz = NAN;
    smp->ctx_switches = -1;
    smp->offcpu = NAN;
    return ops->sample(state, o, run, ctx, smp);
}

/* What the sampling loop runs: the timer, the execution and the sample options. */
typedef struct sampler {
    const br_timer_ops *ops;
    void *state;
    br_sample_opts *o;
    br_exec_fn run;
    void *ctx;
    double (*now)(void);
} sampler;

/* Batch sizing (batch mode) and the warmup: out->warmup_runs,
 * warmup_ns and reps, and sm->o->reps. Returns 0, or -1 with the error set. */
static int warm_up(br_timing *out, const sampler *sm, const br_measure_params *p) {
    br_sample smp;
    br_sample_opts *o = sm->o;
    double t0 = sm->now();
    o->range = p->nvtx ? BR_NVTX_WARMUP : NULL;
    if (p->batch && p->exec_ns >= BR_BATCH_TARGET_NS) {
        /* One execution already fills a batch sample (the cold samples
         * said so): one execution per sample, no sizing run, no graph. */
        o->reps = 1;
    } else if (p->batch) {
        /* One execution tells how many fill BR_BATCH_TARGET_NS. */
        if (take(sm->ops, sm->state, o, sm->run, sm->ctx, &smp) != 0)
            return -1;
        out->warmup_runs++;
        double est = smp.ns > 1.0 ? smp.ns : 1.0;
        double reps = ceil(BR_BATCH_TARGET_NS / est);
        o->reps = reps < 1 ? 1 : reps > BR_BATCH_MAX_REPS ? BR_BATCH_MAX_REPS : (size_t)reps;
        /* The first batch captures the graph; without one, stay behind the
         * hold. A batch of one execution needs no graph. */
        if (o->reps > 1) {
            if (take(sm->ops, sm->state, o, sm->run, sm->ctx, &smp) != 0)
                return -1;
            out->warmup_runs += o->reps;
            if (!smp.graph && o->reps > BR_BATCH_MAX_PLAIN_REPS)
                o->reps = BR_BATCH_MAX_PLAIN_REPS;
        }
    }
    /* Executions just before (the checked one) count toward the warmup. */
    while (sm->now() - t0 < p->warmup_ns - p->prewarm_ns) {
        if (take(sm->ops, sm->state, o, sm->run, sm->ctx, &smp) != 0)
            return -1;
        out->warmup_runs += o->reps;
    }
    out->warmup_ns = sm->now() - t0;
    out->reps = o->reps;
    o->range = p->nvtx ? BR_NVTX_SAMPLE : NULL;
    return 0;
}

/* Samples until a stopping rule says stop: kept or discarded by consider,
 * in groups when the timer resolves them so. Returns the reason (and sets
 * out->measure_ns), or -1 with the error set. Kept as one loop: it is the
 * timed region, and a group's state lives across its iterations. */
static int sample_until_stop(kept_ctx *k, const sampler *sm) {
    br_timing *out = k->out;
    const br_measure_params *p = k->p;
    br_sample_opts *o = sm->o;
    br_sample smp;
    /* A timer that can resolve samples in groups defers their operations:
     * one CUPTI flush per group instead of one per sample. */
    o->defer = sm->ops->resolve != NULL;
    uint64_t tags[BR_GROUP_MAX];
    br_sample group[BR_GROUP_MAX];
    const br_sample_ops *resolved[BR_GROUP_MAX];
    size_t n_group = 0;
    double s0 = sm->now(), group_t0 = 0;
    br_stop stop = BR_STOP_NONE;
    double elapsed = 0;
    while (stop == BR_STOP_NONE) {
        double before = elapsed; /* the end of the previous sample: this one's start */
        if (take(sm->ops, sm->state, o, sm->run, sm->ctx, &smp) != 0)
            return -1;
        out->graph = smp.graph;
        elapsed = sm->now() - s0;
        if (!smp.tag) {
            if (consider(k, &smp) != 0)
                return -1;
            stop = br_stopper_check(k->st, elapsed);
            continue;
        }
        if (n_group == 0)
            group_t0 = before; /* a sample of BR_GROUP_MAX_WALL_NS is resolved alone */
        tags[n_group] = smp.tag;
        group[n_group++] = smp;
        /* Resolve the group when it is full, when its executions could fill
         * CUPTI's buffers, when it has taken BR_GROUP_MAX_WALL_NS (so a
         * slow kernel does not take many more samples than it needs), or
         * when the samples so far might already stop. */
        int full = n_group == BR_GROUP_MAX || n_group * o->reps >= BR_GROUP_MAX_EXECUTIONS ||
                   elapsed - group_t0 >= BR_GROUP_MAX_WALL_NS;
        int may_stop = elapsed >= p->cfg.timeout_ns || k->st->n + n_group >= p->cfg.max_samples;
        if (!full && !may_stop)
            continue;
        const char *const *gnames = NULL;
        size_t gn = 0;
        if (sm->ops->resolve(sm->state, tags, n_group, resolved, &gnames, &gn) != 0)
            return -1;
        for (size_t i = 0; i < n_group && stop == BR_STOP_NONE; i++) {
            group[i].ops = resolved[i];
            group[i].op_names = gnames;
            group[i].n_op_names = gn;
            if (consider(k, &group[i]) != 0)
                return -1;
            /* Samples after a stop are dropped, as if never taken. */
            stop = br_stopper_check(k->st, elapsed);
        }
        n_group = 0;
    }
    out->measure_ns = sm->now() - s0;
    return (int)stop;
}

/* The medians and the operation breakdown of the kept samples. Returns 0,
 * or -1 with the error set. */
static int summarise(br_timing *out, const kept_ctx *k, br_breakdown *bd, size_t reps) {
    out->sm_mhz_median = out->sm_mhz ? br_stats_finite_median(out->sm_mhz, out->n_samples) : NAN;
    out->cpu_mhz_median = out->cpu_mhz ? br_stats_finite_median(out->cpu_mhz, out->n_samples) : NAN;
    if (out->cpu_mhz && !isfinite(out->cpu_mhz_median)) {
        free(out->cpu_mhz); /* no sample's frequency could be read */
        out->cpu_mhz = NULL;
    }
    if (out->switches && !isfinite(br_stats_finite_median(out->switches, out->n_samples))) {
        free(out->switches); /* no sample's switches could be read */
        out->switches = NULL;
    }
    if (out->event_ns)
        out->event_median_ns = br_stats_finite_median(out->event_ns, out->n_samples);
    if (out->kernel_ns) {
        out->kernel_median_ns = br_stats_finite_median(out->kernel_ns, out->n_samples);
        out->span_median_ns = br_stats_finite_median(out->span_ns, out->n_samples);
        out->ops_median = br_stats_finite_median(out->ops, out->n_samples);
        if (br_breakdown_finish(&out->breakdown, &out->n_breakdown, bd, k->names, k->n_names,
                                reps) != 0)
            return -1;
    }
    return 0;
}

int br_measure(br_timing *out, const br_timer_ops *ops, void *state, const br_measure_params *p,
               br_exec_fn run, void *ctx) {
    memset(out, 0, sizeof *out);
    out->throttled_min_mhz = NAN;
    out->sm_mhz_median = NAN;
    out->cpu_mhz_median = NAN;
    out->slow_min_mhz = NAN;
    br_sample_opts o = {
        .flush = p->batch ? BR_FLUSH_NONE : p->flush,
        .hold = p->cfg.hold,
        .probe = p->probe,
        .reps = 1,
        .graph = 1,
        .ranges = p->ranges,
        .n_ranges = p->n_ranges,
    };
    sampler sm = {ops, state, &o, run, ctx, p->now ? p->now : br_now_ns};
    br_breakdown bd;
    br_breakdown_init(&bd);
    columns col = {.gpu = p->clock != BR_CLOCK_MONOTONIC,
                   .probe = p->probe,
                   .host = p->clock == BR_CLOCK_MONOTONIC};
    br_disturb dist;
    br_disturb_init(&dist, p->cfg.throttle);
    out->clock = p->clock;
    double limit = p->max_mhz > 0 && p->cfg.throttle > 0 ? p->cfg.throttle * p->max_mhz : 0;
    if (warm_up(out, &sm, p) != 0)
        goto fail;
    br_stopper st;
    out->tick_ns = p->tick_ns > 0 ? p->tick_ns / (double)o.reps : 0;
    br_stopper_init(&st, &p->cfg, out->tick_ns);
    kept_ctx k = {.out = out,
                  .col = &col,
                  .bd = &bd,
                  .st = &st,
                  .dist = &dist,
                  .p = p,
                  .limit = limit,
                  .reps = o.reps};
    int stop = sample_until_stop(&k, &sm);
    br_stopper_dispose(&st);
    if (stop < 0 || fallback_to_spares(&k) != 0) {
        free(k.spares);
        goto fail;
    }
    free(k.spares);
    out->stop = (br_stop)stop;
    if (summarise(out, &k, &bd, o.reps) != 0)
        goto fail;
    br_breakdown_dispose(&bd);
    out->present = 1;
    return 0;
fail:
    br_breakdown_dispose(&bd);
    br_timing_dispose(out);
    return -1;
}
