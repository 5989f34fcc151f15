/* SPDX-License-Identifier: Apache-2.0 */
/* drift.c - the gate's decision for one case: between-run drift and
 * within-run uncertainty (the method, its sources and its false-alarm rate
 * are in drift.h). */
#include "drift.h"

#include <math.h>
#include <string.h>

#include "mannwhitney.h"
#include "model/suspect.h"
#include "tdist.h"

/* The fewest run medians a between-run spread is estimated from: two give
 * one degree of freedom, which t(1) (the Cauchy distribution) accounts for
 * with a very wide interval; one gives none. */
#define MIN_RUNS 2

double br_drift_median_se(const br_timing *t) {
    const br_stats *s = &t->stats;
    if (!(s->ci_low > 0) || !(s->ci_high >= s->ci_low) || !isfinite(s->ci_high) ||
        !(s->ci_level > 0 && s->ci_level < 1))
        return NAN;
    double z = br_normal_quantile(0.5 * (1.0 + s->ci_level));
    return (log(s->ci_high) - log(s->ci_low)) / (2.0 * z);
}

int br_drift_noisy(const br_timing *t) {
    return !br_timing_converged(t);
}

/* What one case's decision works from. */
typedef struct evidence {
    double x;          /* ln(cur_median / reference) */
    int known;         /* the between-run spread is known (k >= MIN_RUNS) */
    double se, df, tq; /* known: standard error of x, degrees of freedom, t(1 - alpha/2) */
    double lo, hi;     /* unknown: ln offsets of the change at the far ends of both CIs
                          (lo <= 0 <= hi); NAN when a CI is unknown */
    br_mwu mwu;        /* unknown: the within-run test */
    int noisy;         /* either side flagged too noisy */
} evidence;

/* The reference ln(median) of baseline timing bt (mean of the logs of its
 * run medians, or ln of its median) with the spread: *s the standard
 * deviation of those logs (NAN with fewer than MIN_RUNS), *k their count. */
static double reference(const br_timing *bt, double *s, size_t *k) {
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; bt->run_medians && i < bt->n_run_medians; i++) {
        double m = bt->run_medians[i];
        if (!(m > 0) || !isfinite(m)) {
            n = 0; /* a bad value spoils the set: use the median alone */
            break;
        }
        double v = log(m);
        sum += v;
        n++;
    }
    *k = n ? n : 1;
    *s = NAN;
    if (n < MIN_RUNS)
        return bt->stats.median > 0 ? log(bt->stats.median) : NAN;
    double mean = sum / (double)n;
    /* Two-pass for accuracy: the logs of similar medians are close. */
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        double d = log(bt->run_medians[i]) - mean;
        ss += d * d;
    }
    *s = sqrt(ss / (double)(n - 1));
    return mean;
}

/* The verdict on the ln ratio ev->x + off (off: ln of the clock ratio for
 * cycles, 0 for time), with its p (*p, NAN when not computed) and reason. */
static br_change verdict(const evidence *ev, double off, const br_regression_cfg *r, double *p,
                         const char **why) {
    double x = ev->x + off, change = expm1(x);
    *p = NAN;
    *why = NULL;
    if (ev->known) {
        if (isfinite(ev->se))
            *p = ev->se > 0 ? fmin(1.0, 2.0 * br_tdist_cdf(-fabs(x) / ev->se, ev->df))
                            : (x == 0 ? 1.0 : 0.0);
        if (fabs(change) <= r->threshold)
            return BR_CHANGE_SAME;
        if (!isfinite(ev->se)) {
            *why = "too few samples";
            return BR_CHANGE_UNKNOWN;
        }
        if (!(*p < r->alpha)) {
            *why = "within the between-run spread";
            return BR_CHANGE_SAME;
        }
        return change > 0 ? BR_CHANGE_SLOWER : BR_CHANGE_FASTER;
    }
    if (fabs(change) <= r->threshold)
        return BR_CHANGE_SAME;
    *why = "too few samples";
    if (!(ev->mwu.min_p < r->alpha) || isnan(ev->lo))
        return BR_CHANGE_UNKNOWN;
    *why = "too noisy to tell";
    if (!(ev->mwu.p < r->alpha))
        return BR_CHANGE_UNKNOWN;
    *why = "flagged too noisy (N), spread unknown";
    if (ev->noisy)
        return BR_CHANGE_UNKNOWN;
    *why = "spread unknown, not clear of the threshold";
    if (change > 0 && !(x + ev->lo > log1p(r->threshold)))
        return BR_CHANGE_UNKNOWN;
    if (change < 0 && !(x + ev->hi < log1p(-fmin(r->threshold, 0.999999))))
        return BR_CHANGE_UNKNOWN;
    *why = "spread unknown";
    return change > 0 ? BR_CHANGE_SLOWER : BR_CHANGE_FASTER;
}

/* The smallest slowdown (a fraction, in time) flagged at clock offset off. */
static double mde_at(const evidence *ev, double off, const br_regression_cfg *r) {
    double need; /* the smallest ln ratio that is flagged */
    if (ev->known)
        need = isfinite(ev->se) ? fmax(log1p(r->threshold), ev->tq * ev->se) : NAN;
    else if (ev->noisy || isnan(ev->lo) || !(ev->mwu.min_p < r->alpha))
        need = NAN;
    else
        need = log1p(r->threshold) - ev->lo;
    return expm1(need - off);
}

/* Gather the evidence of bt against ct into *ev and the entry's figures. */
static int gather(evidence *ev, br_compare_entry *e, const br_timing *bt, const br_timing *ct,
                  const br_regression_cfg *rules) {
    memset(ev, 0, sizeof *ev);
    double s;
    size_t k;
    double ref = reference(bt, &s, &k);
    e->base_median = isfinite(s) ? exp(ref) : bt->stats.median;
    e->cur_median = ct->stats.median;
    e->base_n = bt->n_samples;
    e->cur_n = ct->n_samples;
    e->spread = s;
    e->spread_runs = k;
    e->change = e->base_median > 0 ? e->cur_median / e->base_median - 1.0 : NAN;
    if (br_mwu_test(&ev->mwu, ct->samples, ct->n_samples, bt->samples, bt->n_samples) != 0)
        return -1;
    e->p_value = ev->mwu.p;
    e->p_exact = ev->mwu.exact;
    ev->x = e->cur_median > 0 ? log(e->cur_median) - ref : NAN;
    ev->noisy = br_drift_noisy(bt) || br_drift_noisy(ct);
    ev->known = isfinite(s);
    if (ev->known) {
        double w = br_drift_median_se(ct);
        ev->df = (double)(k - 1);
        ev->se = sqrt(s * s * (1.0 + 1.0 / (double)k) + w * w);
        ev->tq = br_tdist_quantile(1.0 - rules->alpha / 2.0, ev->df);
    } else {
        const br_stats *b = &bt->stats, *c = &ct->stats;
        int ok = b->ci_low > 0 && c->ci_low > 0 && b->median > 0 && c->median > 0;
        ev->lo = ok ? log(c->ci_low / c->median) - log(b->ci_high / b->median) : NAN;
        ev->hi = ok ? log(c->ci_high / c->median) - log(b->ci_low / b->median) : NAN;
    }
    e->base_mhz = bt->sm_mhz_median > 0 ? bt->sm_mhz_median : NAN;
    e->cur_mhz = ct->sm_mhz_median > 0 ? ct->sm_mhz_median : NAN;
    return 0;
}

/* Time's verdict vt and cycles' vc into one (drift.h, "Cycles"). */
static void combine(br_compare_entry *e, br_change vt, const char *wt, double pt, br_change vc,
                    const char *wc, double pc) {
    e->p_runs = isnan(pt) || isnan(pc) ? NAN : fmax(pt, pc);
    if (vt == vc) {
        e->status = vt;
        e->why = wt ? wt : wc;
        e->decided_by = "time+cycles";
    } else if (vt == BR_CHANGE_UNKNOWN || vc == BR_CHANGE_UNKNOWN) {
        e->status = BR_CHANGE_UNKNOWN;
        e->why = vt == BR_CHANGE_UNKNOWN ? wt : wc;
        e->decided_by = vt == BR_CHANGE_UNKNOWN ? "time" : "cycles";
    } else if (vc == BR_CHANGE_SAME) {
        e->status = BR_CHANGE_SAME;
        e->why = "the SM clock explains the change (same in cycles)";
        e->decided_by = "cycles";
    } else if (vt == BR_CHANGE_SAME) {
        e->status = BR_CHANGE_SAME;
        e->why = "same in time, though not in cycles";
        e->decided_by = "time";
    } else {
        e->status = BR_CHANGE_UNKNOWN;
        e->why = "time and cycles disagree";
        e->decided_by = "time+cycles";
    }
}

int br_drift_judge(br_compare_entry *e, const br_timing *bt, const br_timing *ct,
                   const br_regression_cfg *rules) {
    evidence ev;
    e->cycles_change = e->p_runs = e->mde = NAN;
    if (gather(&ev, e, bt, ct, rules) != 0)
        return -1;
    if (!isfinite(e->change) || !isfinite(ev.x)) {
        e->status = BR_CHANGE_UNKNOWN;
        e->why = e->base_median > 0 ? "median is zero" : "baseline median is zero";
        return 0;
    }
    double pt, pc;
    const char *wt, *wc;
    br_change vt = verdict(&ev, 0.0, rules, &pt, &wt);
    e->mde = mde_at(&ev, 0.0, rules);
    int cycles = isfinite(e->base_mhz) && isfinite(e->cur_mhz) && e->base_mhz != e->cur_mhz;
    if (!cycles) {
        e->status = vt;
        e->why = wt;
        e->p_runs = pt;
        e->decided_by = "time";
        return 0;
    }
    double off = log(e->cur_mhz / e->base_mhz);
    e->cycles_change = expm1(ev.x + off);
    br_change vc = verdict(&ev, off, rules, &pc, &wc);
    double mc = mde_at(&ev, off, rules); /* both must flag it: the larger, NAN if either is */
    e->mde = isnan(e->mde) || isnan(mc) ? NAN : fmax(e->mde, mc);
    combine(e, vt, wt, pt, vc, wc, pc);
    return 0;
}
