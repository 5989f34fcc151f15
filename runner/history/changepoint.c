/* SPDX-License-Identifier: Apache-2.0 */
/* Change points of one series: E-divisive's q-statistic
 * of every split in O(m^2), Student's t test of the best split, recursive
 * bisection and the step floor (the method and its sources are in
 * changepoint.h). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"
#include "gate/tdist.h"

void br_changepoint_defaults(br_changepoint_cfg *cfg) {
    cfg->alpha = BR_CHANGEPOINT_ALPHA;
    cfg->min_size = BR_CHANGEPOINT_MIN_SIZE;
    cfg->min_step = BR_CHANGEPOINT_MIN_STEP;
}

/* ---- the q-statistic ------------------------------------------------------------------- */

/* With D(i, j) = |y_i - y_j|, local indices and X = [0, tau), Y = [tau, kappa):
 *   sxx[t]  = sum over i < j < t of D          (the pairs within [0, t))
 *   h[t]    = sum over t < j < kappa of D(t, j), kept up to date as kappa grows
 *             (the same pass adds column kappa - 1 to sxx)
 *   syy     = sum over tau <= i < j < kappa of D, built as tau falls: syy += h[tau]
 *   sxy     = sxx[kappa] - sxx[tau] - syy        (every other pair of [0, kappa))
 * and, with n = tau and m = kappa - tau, Q = n m / (n + m) E is
 *   2 / (n + m) * (sxy - m sxx[tau] / (n - 1) - n syy / (m - 1))
 * (a within term is 0 for one value: inv[0] = 0), so that every (tau,
 * kappa) costs a few multiplications after O(m) per kappa. */
static double best_split(size_t *tau, size_t *kappa_out, const double *y, size_t m, size_t min_size,
                         double *scratch) {
    double best = -INFINITY;
    *tau = 0;
    *kappa_out = 0;
    if (min_size < 1 || m < 2 * min_size)
        return best;
    double *sxx = scratch, *h = scratch + m + 1, *inv = scratch + 2 * m + 1;
    inv[0] = 0.0;
    for (size_t k = 1; k <= m; k++)
        inv[k] = 1.0 / (double)k;
    sxx[0] = 0.0;
    for (size_t kappa = 1; kappa <= m; kappa++) {
        double col = 0.0, yk = y[kappa - 1];
        for (size_t t = 0; t + 1 < kappa; t++) {
            double d = fabs(y[t] - yk);
            h[t] += d;
            col += d;
        }
        h[kappa - 1] = 0.0;
        sxx[kappa] = sxx[kappa - 1] + col;
        if (kappa < 2 * min_size)
            continue;
        double syy = 0.0, all = sxx[kappa];
        for (size_t t = kappa - 1; t >= min_size; t--) {
            syy += h[t];
            size_t nx = t, ny = kappa - t;
            if (ny < min_size)
                continue;
            double sx = sxx[t], nxd = (double)nx, nyd = (double)ny;
            double q = 2.0 * inv[kappa] *
                       (all - sx - syy - nyd * sx * inv[nx - 1] - nxd * syy * inv[ny - 1]);
            if (q > best) {
                best = q;
                *tau = t;
                *kappa_out = kappa;
            }
        }
    }
    return best;
}

double br_changepoint_best_split(size_t *tau, const double *y, size_t m, size_t min_size,
                                 double *scratch) {
    size_t kappa;
    return best_split(tau, &kappa, y, m, min_size, scratch);
}

/* ---- the test of a split: Student's t --------------------------------------------- */

/* The two-sided p-value of Student's two-sample t test (pooled variance,
 * n + m - 2 degrees of freedom) of a[0..n) against b[0..m) (n, m >= 1,
 * n + m >= 3), times `tests` (Bonferroni), at most 1. Two constant sides:
 * 0 when their means differ, 1 when not. */
static double split_p(const double *a, size_t n, const double *b, size_t m, size_t tests) {
    double ma = 0, mb = 0, ssa = 0, ssb = 0;
    for (size_t i = 0; i < n; i++)
        ma += a[i];
    for (size_t i = 0; i < m; i++)
        mb += b[i];
    ma /= (double)n;
    mb /= (double)m;
    for (size_t i = 0; i < n; i++)
        ssa += (a[i] - ma) * (a[i] - ma);
    for (size_t i = 0; i < m; i++)
        ssb += (b[i] - mb) * (b[i] - mb);
    double df = (double)(n + m - 2), diff = fabs(ma - mb);
    double se = sqrt((ssa + ssb) / df * (1.0 / (double)n + 1.0 / (double)m));
    if (!(se > 0))
        return diff > 0 ? 0.0 : 1.0;
    double p = 2.0 * br_tdist_cdf(-diff / se, df) * (double)tests;
    return p < 1.0 ? p : 1.0;
}

/* ---- the search -------------------------------------------------------------------------- */

/* The state of one search: the finite values, scaled, and the segments. */
typedef struct search {
    const br_changepoint_cfg *cfg;
    double *y;      /* the finite values, scaled (compact) */
    size_t m;       /* their number */
    size_t *cut;    /* segment starts: cut[0] = 0 < cut[1] < ... < cut[n_cut - 1]; owned */
    double *cand_q; /* per segment: its best q (NAN: not computed yet) */
    size_t *cand_t; /* per segment: its best tau, relative to the segment */
    size_t *cand_k; /* per segment: the kappa of that split, relative to the segment */
    double *cand_p; /* per segment: the p-value of that split */
    double *pv;     /* per cut: the p-value of its split (cut[0]: unused) */
    double *qv;     /* per cut: its q (scaled) */
    size_t n_cut;
    double *work;    /* m: scratch for medians */
    double *scratch; /* 3 m + 2 */
} search;

static size_t seg_end(const search *s, size_t k) {
    return k + 1 < s->n_cut ? s->cut[k + 1] : s->m;
}

/* The candidate of segment k (its largest q, tau and kappa) and the p-value of
 * Student's t test of X = [cut, cut + tau) against Y = [cut + tau, cut +
 * kappa), Bonferroni-adjusted by the number of cuts tau the segment offers. */
static void candidate(search *s, size_t k) {
    size_t a = s->cut[k], len = seg_end(s, k) - a, min = s->cfg->min_size;
    s->cand_q[k] = best_split(&s->cand_t[k], &s->cand_k[k], s->y + a, len, min, s->scratch);
    s->cand_p[k] = 1.0;
    if (!isfinite(s->cand_q[k]))
        return;
    size_t t = s->cand_t[k], kap = s->cand_k[k];
    s->cand_p[k] = split_p(s->y + a, t, s->y + a + t, kap - t, len - 2 * min + 1);
}

/* Of the segments whose candidate is significant (p <= alpha), the one
 * with the largest q into *best; 0 when there is none. */
static int best_candidate(size_t *best, search *s) {
    int any = 0;
    for (size_t k = 0; k < s->n_cut; k++) {
        if (isnan(s->cand_q[k]))
            candidate(s, k);
        if (!isfinite(s->cand_q[k]) || !(s->cand_p[k] <= s->cfg->alpha))
            continue;
        if (!any || s->cand_q[k] > s->cand_q[*best])
            *best = k;
        any = 1;
    }
    return any;
}

/* Split segment k at its candidate: insert the cut with its p and q. */
static void split_segment(search *s, size_t k, double p) {
    size_t at = k + 1, c = s->cut[k] + s->cand_t[k];
    size_t move = s->n_cut - at;
    memmove(&s->cut[at + 1], &s->cut[at], move * sizeof *s->cut);
    memmove(&s->cand_q[at + 1], &s->cand_q[at], move * sizeof *s->cand_q);
    memmove(&s->cand_t[at + 1], &s->cand_t[at], move * sizeof *s->cand_t);
    memmove(&s->cand_k[at + 1], &s->cand_k[at], move * sizeof *s->cand_k);
    memmove(&s->cand_p[at + 1], &s->cand_p[at], move * sizeof *s->cand_p);
    memmove(&s->pv[at + 1], &s->pv[at], move * sizeof *s->pv);
    memmove(&s->qv[at + 1], &s->qv[at], move * sizeof *s->qv);
    s->qv[at] = s->cand_q[k];
    s->cut[at] = c;
    s->pv[at] = p;
    s->cand_q[k] = NAN;
    s->cand_q[at] = NAN;
    s->n_cut++;
}

/* Recursive bisection: split while a candidate is significant. */
static void bisect(search *s) {
    size_t k = 0;
    while (best_candidate(&k, s))
        split_segment(s, k, s->cand_p[k]);
}

/* ---- levels, the step floor, the result -------------------------------------------- */

/* The median of v[0..n) (n >= 1, finite; sorted in place); the mean of the
 * two middle values, halved first so that it cannot overflow. */
static double median_of(double *v, size_t n) {
    qsort(v, n, sizeof *v, br_cmp_double);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] / 2 + v[n / 2] / 2;
}

/* The median of the x values with compacted indices [a, b) (a < b). */
static double level(const double *x, const size_t *idx, size_t a, size_t b, double *tmp) {
    for (size_t i = a; i < b; i++)
        tmp[i - a] = x[idx[i]];
    return median_of(tmp, b - a);
}

/* The levels and steps of cps[0..n) (compacted indices in .index). */
static void levels(br_changepoint *cps, size_t n, const double *x, const size_t *idx, size_t m,
                   double *tmp) {
    for (size_t k = 0; k < n; k++) {
        size_t a = k ? cps[k - 1].index : 0, c = cps[k].index, b = k + 1 < n ? cps[k + 1].index : m;
        cps[k].before = level(x, idx, a, c, tmp);
        cps[k].after = level(x, idx, c, b, tmp);
        double lv = cps[k].before; /* (after - before) / |before|, without overflow */
        cps[k].step = lv != 0 ? cps[k].after / fabs(lv) - (lv > 0 ? 1.0 : -1.0) : NAN;
    }
}

/* Drop the change point of smallest |step| under min_step until none is left. */
static size_t floor_steps(br_changepoint *cps, size_t n, double min_step, const double *x,
                          const size_t *idx, size_t m, double *tmp) {
    for (;;) {
        levels(cps, n, x, idx, m, tmp);
        size_t weakest = n;
        for (size_t k = 0; k < n; k++) {
            if (isnan(cps[k].step) || fabs(cps[k].step) >= min_step)
                continue;
            if (weakest == n || fabs(cps[k].step) < fabs(cps[weakest].step))
                weakest = k;
        }
        if (weakest == n)
            return n;
        memmove(&cps[weakest], &cps[weakest + 1], (n - weakest - 1) * sizeof *cps);
        n--;
    }
}

static int cfg_check(const br_changepoint_cfg *c) {
    if (!(c->alpha > 0 && c->alpha < 1))
        return br_error_set("change points: the significance level must be in (0, 1), got %g",
                            c->alpha);
    if (c->min_size < 1 || c->min_size > 1000000)
        return br_error_set("change points: the minimum segment must be 1 to 1000000 values, got "
                            "%zu",
                            c->min_size);
    if (!(c->min_step >= 0) || !isfinite(c->min_step))
        return br_error_set("change points: the minimum step must be >= 0, got %g", c->min_step);
    return 0;
}

/* The finite values of x into s->y, scaled into [-2, 2]: divided by the
 * largest |value|, then less their median (no difference can overflow);
 * their indices into idx. Returns the scale (the largest |value|), or 0
 * for a constant series or none. */
static double compact(search *s, size_t *idx, const double *x, size_t n) {
    double scale = 0;
    s->m = 0;
    for (size_t i = 0; i < n; i++) {
        if (isfinite(x[i])) {
            idx[s->m] = i;
            s->y[s->m++] = x[i];
            scale = fmax(scale, fabs(x[i]));
        }
    }
    if (!(scale > 0))
        return 0;
    int constant = 1;
    for (size_t i = 0; i < s->m; i++) {
        s->y[i] /= scale;
        s->work[i] = s->y[i];
        constant &= x[idx[i]] == x[idx[0]];
    }
    if (constant)
        return 0;
    double med = median_of(s->work, s->m);
    for (size_t i = 0; i < s->m; i++)
        s->y[i] -= med;
    return scale;
}

/* The cuts of s (after cut[0]) as change points into *out. */
static int collect(br_changepoint **out, size_t *n_out, const search *s, const double *x,
                   const size_t *idx, double scale) {
    size_t n = s->n_cut - 1;
    br_changepoint *cps = calloc(n + 1, sizeof *cps);
    if (!cps)
        return br_error_nomem();
    for (size_t k = 0; k < n; k++) {
        cps[k].index = s->cut[k + 1];
        cps[k].p = s->pv[k + 1];
        cps[k].q = s->qv[k + 1] * scale;
    }
    n = floor_steps(cps, n, s->cfg->min_step, x, idx, s->m, s->work);
    for (size_t k = 0; k < n; k++) {
        cps[k].last = idx[cps[k].index - 1];
        cps[k].index = idx[cps[k].index];
    }
    if (n == 0) {
        free(cps);
        cps = NULL;
    }
    *out = cps;
    *n_out = n;
    return 0;
}

int br_changepoint_find(br_changepoint **out, size_t *n_out, const double *x, size_t n,
                        const br_changepoint_cfg *cfg) {
    br_changepoint_cfg defaults;
    *out = NULL;
    *n_out = 0;
    if (!cfg) {
        br_changepoint_defaults(&defaults);
        cfg = &defaults;
    }
    if (cfg_check(cfg) != 0)
        return -1;
    if (n < 2 * cfg->min_size)
        return 0;
    search s = {.cfg = cfg};
    size_t *idx = malloc(n * sizeof *idx);
    s.y = malloc(n * sizeof *s.y);
    s.work = malloc(n * sizeof *s.work);
    s.scratch = malloc((3 * n + 2) * sizeof *s.scratch);
    s.cut = malloc((n + 1) * sizeof *s.cut);
    s.cand_q = malloc((n + 1) * sizeof *s.cand_q);
    s.cand_t = malloc((n + 1) * sizeof *s.cand_t);
    s.cand_k = malloc((n + 1) * sizeof *s.cand_k);
    s.cand_p = malloc((n + 1) * sizeof *s.cand_p);
    s.pv = malloc((n + 1) * sizeof *s.pv);
    s.qv = malloc((n + 1) * sizeof *s.qv);
    int rc = -1;
    if (!idx || !s.y || !s.work || !s.scratch || !s.cut || !s.cand_q || !s.cand_t || !s.cand_k ||
        !s.cand_p || !s.pv || !s.qv) {
        br_error_nomem();
        goto done;
    }
    double scale = compact(&s, idx, x, n);
    s.cut[0] = 0;
    s.cand_q[0] = NAN;
    s.n_cut = 1;
    if (scale > 0 && s.m >= 2 * cfg->min_size)
        bisect(&s);
    rc = collect(out, n_out, &s, x, idx, scale);
done:
    free(idx);
    free(s.y);
    free(s.work);
    free(s.scratch);
    free(s.cut);
    free(s.cand_q);
    free(s.cand_t);
    free(s.cand_k);
    free(s.cand_p);
    free(s.pv);
    free(s.qv);
    return rc;
}
