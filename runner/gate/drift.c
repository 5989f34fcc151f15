/* SPDX-License-Identifier: Apache-2.0 */
/* The gate's decision for one case: between-run drift and
 * within-run uncertainty (the method, its sources and its false-alarm rate
 * are in drift.h). */
#include "drift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "mannwhitney.h"
#include "model/suspect.h"
#include "tdist.h"

double br_drift_median_se(const br_timing *t) {
    const br_stats *s = &t->stats;
    if (!(s->ci_low > 0) || !(s->ci_high >= s->ci_low) || !isfinite(s->ci_high) ||
        !(s->ci_level > 0 && s->ci_level < 1))
        return NAN;
    double z = br_normal_quantile(0.5 * (1.0 + s->ci_level));
    return (log(s->ci_high) - log(s->ci_low)) / (2.0 * z);
}

/* The usable run medians of bt: its run_medians when every one is a
 * positive finite number, else its median alone. Their count into *k and
 * the mean of their logs (NAN when none is usable) returned; *s2 their
 * sample variance (NAN with fewer than two), at least the variance the
 * clock's resolution alone gives a median, (tick / median)^2 / 12: a
 * reading rounded to a grid of width tick carries a rounding error of
 * variance tick^2 / 12 (W. F. Sheppard, Proc. London Math. Soc. 29:353,
 * 1898; B. Widrow and I. Kollar, Quantization Noise, Cambridge 2008, ch.
 * 4). On the kernel clock's 32 ns tick three saves of a 5.5 us copy read
 * 5504 ns three times: not a spread of 0 but one under the tick, and a
 * 0 would be floored far below it by the prior's fit (prior.c), leaving
 * the suite's cases no common prior to lend. */
static double log_medians(const br_timing *bt, size_t *k, double *s2) {
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; bt->run_medians && i < bt->n_run_medians; i++) {
        double m = bt->run_medians[i];
        if (!(m > 0) || !isfinite(m)) {
            n = 0; /* a bad value spoils the set: use the median alone */
            break;
        }
        sum += log(m);
        n++;
    }
    *s2 = NAN;
    if (n == 0) {
        *k = 1;
        return bt->stats.median > 0 && isfinite(bt->stats.median) ? log(bt->stats.median) : NAN;
    }
    *k = n;
    double mean = sum / (double)n;
    if (n >= 2) {
        double ss = 0; /* two passes: the logs of similar medians are close */
        for (size_t i = 0; i < n; i++) {
            double d = log(bt->run_medians[i]) - mean;
            ss += d * d;
        }
        double q = bt->tick_ns > 0 && isfinite(bt->tick_ns) ? bt->tick_ns / exp(mean) : 0;
        *s2 = fmax(ss / (double)(n - 1), q * q / 12.0);
    }
    return mean;
}

void br_drift_spread_of(double *out_s2, double *out_d, double *out_c, const br_timing *bt) {
    size_t k;
    *out_c = log_medians(bt, &k, out_s2);
    *out_d = isfinite(*out_s2) ? (double)(k - 1) : 0;
}

/* What one case's decision works from. */
typedef struct evidence {
    double x;       /* ln(cur_median / reference) */
    double between; /* the between-run variance of x: sigma~^2 (1 + 1/k), or the assumed
                       2 BR_DRIFT_ASSUMED^2; NAN when unknown */
    double within;  /* what the runs' own uncertainty adds: w_c^2, and w_b^2 when the drift
                       is assumed (a measured spread has the baseline's in it); NAN when a
                       CI is unknown */
    double se, df;  /* sqrt(between + within) and the degrees of freedom (INFINITY: normal) */
    double q;       /* the 1 - alpha/2 quantile of t(df) */
    int converged;  /* this run's timing converged (br_timing_converged) */
} evidence;

/* Two-sided p of ln ratio x against se on df degrees of freedom. */
static double p_of(double x, double se, double df) {
    if (!(se > 0))
        return x == 0 ? 1.0 : 0.0;
    double t = -fabs(x) / se;
    return fmin(1.0, isinf(df) ? erfc(-t / sqrt(2.0)) : 2.0 * br_tdist_cdf(t, df));
}

/* The verdict on the ln ratio ev->x + off (off: ln of the clock ratio for
 * cycles, 0 for time), with its p (*p, NAN when not computed) and reason. */
static br_change verdict(const evidence *ev, double off, const br_regression_cfg *r, double *p,
                         const char **why) {
    double x = ev->x + off, change = expm1(x);
    *why = NULL;
    *p = isfinite(ev->se) ? p_of(x, ev->se, ev->df) : NAN;
    if (fabs(change) <= r->threshold)
        return BR_CHANGE_SAME;
    if (!isfinite(ev->se)) {
        *why = "too few samples";
        return BR_CHANGE_UNKNOWN;
    }
    if (*p < r->alpha)
        return change > 0 ? BR_CHANGE_SLOWER : BR_CHANGE_FASTER;
    if (ev->within > ev->between) { /* the runs' own uncertainty is what hides it */
        *why = ev->converged ? "within the runs' own uncertainty" : "too noisy to tell (N)";
        return BR_CHANGE_UNKNOWN;
    }
    *why = "within the between-run spread";
    return BR_CHANGE_SAME;
}

/* The smallest slowdown (a fraction, in time) flagged at clock offset off. */
static double mde_at(const evidence *ev, double off, const br_regression_cfg *r) {
    if (!isfinite(ev->se))
        return NAN;
    return expm1(fmax(log1p(r->threshold), ev->q * ev->se) - off);
}

/* What a case's between-run variance borrows before its own run medians
 * speak (drift.h): a variance v of ln(run median) on df degrees of freedom
 * (INFINITY: known); its spread_from for a case without a spread of its
 * own (alone) and with one (with_runs); base_within: 1 when v leaves the
 * baseline's own uncertainty out (assumed), so that w_b^2 is added
 * to a case that has no spread of its own. */
typedef struct lender {
    double v, df;
    const char *alone, *with_runs;
    int base_within;
} lender;

/* The 1 - a/2 quantile of t(df), the normal's for infinite df. */
static double quantile(double a, double df) {
    return isinf(df) ? br_normal_quantile(1.0 - a / 2.0) : br_tdist_quantile(1.0 - a / 2.0, df);
}

/* q(df) sqrt(v): the half-width at level a of a one-run prediction that
 * lender l alone gives; INFINITY for an unusable one. */
static double sharpness(const lender *l, double a) {
    return l->v > 0 && l->df > 0 ? quantile(a, l->df) * sqrt(l->v) : INFINITY;
}

/* What the backend lends a case with d degrees of freedom of its own
 * (0: one run median) at covariate c, chosen at level a (drift.h, "Power"):
 * for a case with one run median, the sharpest of the assumed drift
 * (always there, BR_DRIFT_ASSUMED_DF), the pooled spread of the few cases
 * that have one and the suite's prior (its saves and this run's scatter,
 * scatter.h), so that one save is never judged deafer than the assumed
 * drift allows. For a case with a spread of its own, the suite's prior;
 * but one fitted to fewer than BR_DRIFT_FEW_CASES cases yields to the
 * assumed drift where that is sharper, no smaller and worth more degrees
 * of freedom: a case the suite knows to be noisier keeps its larger
 * spread, and a prior that is merely unsure gives way. */
static lender choose_lender(const br_drift_pool *pool, double d, double c, double a) {
    double drift =
        pool && pool->backend == BR_BACKEND_HOST ? BR_DRIFT_ASSUMED_HOST : BR_DRIFT_ASSUMED;
    lender best = {drift * drift, BR_DRIFT_ASSUMED_DF, "assumed", "assumed+runs", 1};
    if (!pool)
        return best;
    if (d == 0) {
        lender cand[2] = {
            {br_prior_s0sq(&pool->few, c), br_prior_df(&pool->few, c), "pooled", NULL, 0},
            {br_prior_s0sq(&pool->prior, c), br_prior_df(&pool->prior, c), "pooled", NULL, 0}};
        for (int i = 0; i < 2; i++)
            if ((i ? pool->prior.n : pool->few.n) > 0 &&
                sharpness(&cand[i], a) < sharpness(&best, a))
                best = cand[i];
        return best;
    }
    if (pool->prior.n == 0)
        return best;
    lender suite = {br_prior_s0sq(&pool->prior, c), br_prior_df(&pool->prior, c), "pooled",
                    "moderated", 0};
    if (pool->prior.n < BR_DRIFT_FEW_CASES && sharpness(&best, a) < sharpness(&suite, a) &&
        best.v >= suite.v && best.df > suite.df)
        return best;
    return isfinite(sharpness(&suite, a)) ? suite : best;
}

/* The between-run variance of one case (drift.h) into ev and e: what the
 * chosen lender says, combined with the case's own k run medians (variance
 * s2 on k - 1 degrees of freedom, NAN when k < 2) as a conjugate prior is
 * updated, (df_L v_L + d s2) / (df_L + d) on df_L + d; c its covariate, wb
 * and wc the baseline's and this run's own uncertainty, a the level the
 * lender is chosen at. */
static void between_run(evidence *ev, br_compare_entry *e, size_t k, double s2, double c,
                        const br_drift_pool *pool, double wb, double wc, double a) {
    int own = isfinite(s2) && k >= 2;
    double d = own ? (double)(k - 1) : 0.0;
    lender l = choose_lender(pool, d, c, a);
    double var = isinf(l.df) ? l.v : (l.df * l.v + d * (own ? s2 : 0.0)) / (l.df + d);
    ev->df = l.df + d;
    ev->between = var * (1.0 + 1.0 / (double)k);
    ev->within = own || !l.base_within ? wc * wc : wb * wb + wc * wc;
    e->spread = sqrt(var);
    e->spread_from = own ? l.with_runs : l.alone; /* with_runs is set where own can be */
}

/* Gather the evidence of bt against ct into *ev and the entry's figures. */
static int gather(evidence *ev, br_compare_entry *e, const br_timing *bt, const br_timing *ct,
                  const br_regression_cfg *rules, const br_drift_pool *pool) {
    memset(ev, 0, sizeof *ev);
    size_t k;
    double s2, ref = log_medians(bt, &k, &s2);
    e->base_median = exp(ref);
    e->cur_median = ct->stats.median;
    e->base_n = bt->n_samples;
    e->cur_n = ct->n_samples;
    e->spread_runs = k;
    e->change = e->base_median > 0 ? e->cur_median / e->base_median - 1.0 : NAN;
    br_mwu mwu;
    if (br_mwu_test(&mwu, ct->samples, ct->n_samples, bt->samples, bt->n_samples) != 0)
        return -1;
    e->p_value = mwu.p;
    e->p_exact = mwu.exact;
    ev->x = e->cur_median > 0 ? log(e->cur_median) - ref : NAN;
    ev->converged = br_timing_converged(ct);
    between_run(ev, e, k, s2, ref, pool, br_drift_median_se(bt), br_drift_median_se(ct),
                pool && pool->choice_alpha > 0 ? pool->choice_alpha : rules->alpha);
    e->spread_df = ev->df;
    ev->se = sqrt(ev->between + ev->within); /* NAN when either is unknown */
    double a = 1.0 - rules->alpha / 2.0;
    ev->q = isinf(ev->df) ? br_normal_quantile(a) : br_tdist_quantile(a, ev->df);
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

double br_drift_log_ratio(const br_timing *bt, const br_timing *ct) {
    size_t k;
    double s2, ref = log_medians(bt, &k, &s2);
    double m = ct->stats.median;
    return m > 0 && isfinite(m) && isfinite(ref) ? log(m) - ref : NAN;
}

/* The prior of pool out fitted to the n cases' saves (s2 on d) and, where
 * e[i] is finite, their run variances e (scatter.h): into out->prior, or,
 * with too few cases, out->few from the saves alone. vs and vd: scratch of
 * n values. */
static void fit_prior(br_drift_pool *out, const double *s2, const double *d, const double *c,
                      const double *e, double *vs, double *vd, size_t n) {
    for (size_t i = 0; i < n; i++)
        br_scatter_combine(&vs[i], &vd[i], s2[i], d[i], e[i]);
    br_prior_fit(&out->prior, vs, vd, c, n);
    memset(&out->few, 0, sizeof out->few);
    if (out->prior.n == 0)
        br_prior_pooled(&out->few, s2, d, n);
}

/* Leave out of e (set NAN) the run variances of the cases whose centred
 * ratio x[i] - centre is an outlier under their moderated variance from
 * the saves and pool p's prior (scatter.h): two-sided p below
 * BR_SCATTER_OUTLIER_P / the ratios used. Returns how many. */
static size_t leave_out_outliers(double *e, const br_drift_pool *p, const double *s2,
                                 const double *d, const double *c, const double *x, size_t n) {
    size_t out = 0;
    double level = BR_SCATTER_OUTLIER_P / (double)p->scatter.n;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(e[i]))
            continue;
        double var, df, k = d[i] >= 1 && isfinite(s2[i]) ? d[i] + 1.0 : 1.0;
        br_prior_moderate(&var, &df, &p->prior, s2[i], d[i], c[i]);
        double se = sqrt(var * (1.0 + 1.0 / k));
        if (df > 0 && se > 0 && p_of(x[i] - p->scatter.centre, se, df) < level) {
            e[i] = NAN;
            out++;
        }
    }
    return out;
}

int br_drift_pool_fit(br_drift_pool *out, br_backend backend, const double *s2, const double *d,
                      const double *c, const double *x, size_t n) {
    memset(out, 0, sizeof *out);
    out->backend = backend;
    size_t sz = (n ? n : 1) * sizeof(double);
    double *k = calloc(n ? n : 1, sizeof *k), *e = malloc(sz), *vs = malloc(sz), *vd = malloc(sz);
    if (!k || !e || !vs || !vd) {
        free(k), free(e), free(vs), free(vd);
        return br_error_nomem();
    }
    for (size_t i = 0; i < n; i++)
        k[i] = d[i] >= 1 && isfinite(s2[i]) ? d[i] + 1.0 : 1.0;
    br_scatter_variances(&out->scatter, e, x, k, n);
    if (out->scatter.n > 0) { /* outliers against the saves' own prior, if any (scatter.h) */
        br_drift_pool first = *out;
        br_prior_fit(&first.prior, s2, d, c, n);
        if (first.prior.n == 0)
            fit_prior(&first, s2, d, c, e, vs, vd, n);
        if (first.prior.n > 0)
            out->scatter.left_out = leave_out_outliers(e, &first, s2, d, c, x, n);
    }
    fit_prior(out, s2, d, c, e, vs, vd, n);
    free(k), free(e), free(vs), free(vd);
    return 0;
}

int br_drift_judge(br_compare_entry *e, const br_timing *bt, const br_timing *ct,
                   const br_regression_cfg *rules, const br_drift_pool *pool) {
    evidence ev;
    e->cycles_change = e->p_runs = e->mde = NAN;
    if (gather(&ev, e, bt, ct, rules, pool) != 0)
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
