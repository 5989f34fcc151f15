#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

const char *br_stop_name(br_stop s) {
    switch (s) {
    case BR_STOP_NOISE:
        return "noise";
    case BR_STOP_PLATEAU:
        return "plateau";
    case BR_STOP_TIMEOUT:
        return "timeout";
    case BR_STOP_MAX_SAMPLES:
        return "max_samples";
    case BR_STOP_NONE:
        break;
    }
    return NULL;
}

void br_stopper_init(br_stopper *s, const br_measure_cfg *cfg) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
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
}

br_stop br_stopper_check(const br_stopper *s, double elapsed_ns) {
    if (s->n >= s->cfg.min_samples && s->measured_ns >= s->cfg.min_time_ns) {
        if (s->n >= 2 && s->noise <= s->cfg.max_noise)
            return BR_STOP_NOISE;
        if (s->hist_n >= BR_PLATEAU_WINDOW) {
            double lo = s->hist[0], hi = s->hist[0];
            for (size_t i = 1; i < BR_PLATEAU_WINDOW; i++) {
                lo = fmin(lo, s->hist[i]);
                hi = fmax(hi, s->hist[i]);
            }
            if (hi - lo <= BR_PLATEAU_TOL * s->noise)
                return BR_STOP_PLATEAU;
        }
    }
    if (s->n >= s->cfg.max_samples)
        return BR_STOP_MAX_SAMPLES;
    if (elapsed_ns >= s->cfg.timeout_ns)
        return BR_STOP_TIMEOUT;
    return BR_STOP_NONE;
}

static int push(br_timing *t, size_t *cap, double value, double mhz) {
    if (t->n_samples == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        double *ns = realloc(t->samples, nc * sizeof *ns);
        if (!ns)
            return br_error_set("out of memory for samples");
        t->samples = ns;
        double *mz = realloc(t->sm_mhz, nc * sizeof *mz);
        if (!mz)
            return br_error_set("out of memory for samples");
        t->sm_mhz = mz;
        *cap = nc;
    }
    t->samples[t->n_samples] = value;
    t->sm_mhz[t->n_samples] = mhz;
    t->n_samples++;
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the finite values of v[0..n), or NAN. Reorders nothing in v. */
static double finite_median(const double *v, size_t n) {
    double *c = malloc((n ? n : 1) * sizeof *c);
    size_t k = 0;
    if (!c)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            c[k++] = v[i];
    double m = NAN;
    if (k) {
        qsort(c, k, sizeof *c, cmp_double);
        m = k % 2 ? c[k / 2] : (c[k / 2 - 1] + c[k / 2]) / 2;
    }
    free(c);
    return m;
}

int br_measure(br_timing *out, const br_timer_ops *ops, void *state, const br_measure_params *p,
               br_exec_fn run, void *ctx) {
    double (*now)(void) = p->now ? p->now : br_now_ns;
    memset(out, 0, sizeof *out);
    out->throttled_min_mhz = NAN;
    out->sm_mhz_median = NAN;
    br_sample_opts o = {
        .flush = p->batch ? BR_FLUSH_NONE : p->flush,
        .hold = p->cfg.hold,
        .probe = p->probe,
        .reps = 1,
        .graph = 1,
        .ranges = p->ranges,
        .n_ranges = p->n_ranges,
    };
    br_sample smp;
    double limit = p->max_mhz > 0 && p->cfg.throttle > 0 ? p->cfg.throttle * p->max_mhz : 0;

    double t0 = now();
    if (p->batch) {
        /* One execution tells how many fill BR_BATCH_TARGET_NS. */
        if (ops->sample(state, &o, run, ctx, &smp) != 0)
            goto fail;
        out->warmup_runs++;
        double est = smp.ns > 1.0 ? smp.ns : 1.0;
        double reps = ceil(BR_BATCH_TARGET_NS / est);
        o.reps = reps < 1 ? 1 : reps > BR_BATCH_MAX_REPS ? BR_BATCH_MAX_REPS : (size_t)reps;
        /* The first batch captures the graph; without one, stay behind the
         * hold. A batch of one execution needs no graph. */
        if (o.reps > 1) {
            if (ops->sample(state, &o, run, ctx, &smp) != 0)
                goto fail;
            out->warmup_runs += o.reps;
            if (!smp.graph && o.reps > BR_BATCH_MAX_PLAIN_REPS)
                o.reps = BR_BATCH_MAX_PLAIN_REPS;
        }
    }
    while (now() - t0 < p->warmup_ns) {
        if (ops->sample(state, &o, run, ctx, &smp) != 0)
            goto fail;
        out->warmup_runs += o.reps;
    }
    out->warmup_ns = now() - t0;
    out->reps = o.reps;

    br_stopper st;
    br_stopper_init(&st, &p->cfg);
    size_t cap = 0;
    double s0 = now();
    br_stop stop = BR_STOP_NONE;
    while (stop == BR_STOP_NONE) {
        if (ops->sample(state, &o, run, ctx, &smp) != 0)
            goto fail;
        out->graph = smp.graph;
        if (limit > 0 && isfinite(smp.sm_mhz) && smp.sm_mhz < limit) {
            out->n_throttled++;
            if (!(smp.sm_mhz >= out->throttled_min_mhz))
                out->throttled_min_mhz = smp.sm_mhz;
        } else {
            double value = smp.ns / (double)o.reps;
            if (push(out, &cap, value, smp.sm_mhz) != 0)
                goto fail;
            br_stopper_add(&st, value, smp.ns);
        }
        stop = br_stopper_check(&st, now() - s0);
    }
    out->measure_ns = now() - s0;
    out->stop_reason = br_stop_name(stop);
    out->sm_mhz_median = finite_median(out->sm_mhz, out->n_samples);
    out->present = 1;
    return 0;
fail:
    br_timing_dispose(out);
    return -1;
}
