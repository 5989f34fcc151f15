/* SPDX-License-Identifier: Apache-2.0 */
/* Qn of the current run's log ratios: the drift of a baseline
 * saved once (method and sources in scatter.h). */
#include "scatter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/sort.h"

/* Croux and Rousseeuw's (1992) small-sample factor d_n of Qn. */
static double qn_factor(size_t n) {
    static const double small[] = {0, 0, 0.399, 0.994, 0.512, 0.844, 0.611, 0.857, 0.669, 0.872};
    if (n < 10)
        return small[n];
    return n % 2 ? (double)n / ((double)n + 1.4) : (double)n / ((double)n + 3.8);
}

/* The weighted high median of a[0..n) with weights w (all > 0): the
 * smallest a[i] whose weight with that of every smaller value exceeds half
 * the total. Partitions a and w in place around a pivot, keeping the side
 * that holds it: O(n) expected (Croux and Rousseeuw 1992, "whimed"). */
static double weighted_high_median(double *a, size_t *w, size_t n) {
    size_t total = 0, below = 0; /* weight of values left of a[0..n) */
    for (size_t i = 0; i < n; i++)
        total += w[i];
    for (;;) {
        double pivot = a[n / 2];
        size_t lo = 0, w_lo = 0, w_eq = 0;
        for (size_t i = 0; i < n; i++) { /* a[0..lo): < pivot */
            if (a[i] < pivot) {
                double t = a[i];
                size_t tw = w[i];
                a[i] = a[lo], w[i] = w[lo];
                a[lo] = t, w[lo++] = tw;
                w_lo += tw;
            } else if (a[i] == pivot)
                w_eq += w[i];
        }
        if (2 * (below + w_lo) > total) {
            n = lo; /* the median is below the pivot */
        } else if (2 * (below + w_lo + w_eq) > total) {
            return pivot;
        } else { /* above: keep a[lo..n) > pivot */
            size_t m = 0;
            for (size_t i = lo; i < n; i++)
                if (a[i] > pivot)
                    a[m] = a[i], w[m++] = w[i];
            below += w_lo + w_eq;
            n = m;
        }
    }
}

/* The k-th smallest (1-based) of the n(n-1)/2 differences y[j] - y[i],
 * i < j, of the sorted y[0..n): Johnson and Mizoguchi's selection in a
 * matrix of sorted rows as Croux and Rousseeuw (1992) apply it to Qn. Row
 * i's candidates are its columns lo[i]..hi[i]; each round takes the
 * weighted high median of the rows' middle candidates, counts the
 * differences below and at it (two pointers, O(n)) and drops the rows'
 * candidates on the side the k-th is not, at least a quarter of them; the
 * last n or fewer are sorted. O(n log n) time, 6 n words of memory; NAN
 * when out of memory. The value returned is one of the differences, so it
 * is the same double as any exact selection gives. */
static double kth_difference(const double *y, size_t n, size_t k) {
    size_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    size_t *cnt_lt = malloc(n * sizeof *cnt_lt), *cnt_le = malloc(n * sizeof *cnt_le);
    size_t *wt = malloc(n * sizeof *wt);
    double *cand = malloc(n * sizeof *cand), q = NAN;
    if (!lo || !hi || !cnt_lt || !cnt_le || !wt || !cand)
        goto done;
    size_t left = 0, inside = n * (n - 1) / 2; /* differences below the candidates; candidates */
    for (size_t i = 0; i < n; i++)
        lo[i] = i + 1, hi[i] = n - 1;
    while (inside > n) {
        size_t m = 0;
        for (size_t i = 0; i + 1 < n; i++)
            if (lo[i] <= hi[i]) {
                wt[m] = hi[i] - lo[i] + 1;
                cand[m++] = y[lo[i] + (hi[i] - lo[i]) / 2] - y[i];
            }
        double trial = weighted_high_median(cand, wt, m);
        size_t n_lt = 0, n_le = 0, j_lt = 1, j_le = 1;
        for (size_t i = 0; i + 1 < n; i++) { /* first column at or above trial, and above */
            j_lt = j_lt > i + 1 ? j_lt : i + 1;
            j_le = j_le > i + 1 ? j_le : i + 1;
            while (j_lt < n && y[j_lt] - y[i] < trial)
                j_lt++;
            while (j_le < n && y[j_le] - y[i] <= trial)
                j_le++;
            cnt_lt[i] = j_lt, cnt_le[i] = j_le;
            n_lt += j_lt - i - 1;
            n_le += j_le - i - 1;
        }
        if (k <= n_lt) { /* the k-th is below trial */
            for (size_t i = 0; i + 1 < n; i++)
                hi[i] = cnt_lt[i] - 1 < hi[i] ? cnt_lt[i] - 1 : hi[i];
        } else if (k > n_le) { /* above */
            for (size_t i = 0; i + 1 < n; i++)
                lo[i] = cnt_le[i] > lo[i] ? cnt_le[i] : lo[i];
            left = n_le;
        } else {
            q = trial;
            goto done;
        }
        inside = 0;
        for (size_t i = 0; i + 1 < n; i++)
            inside += lo[i] <= hi[i] ? hi[i] - lo[i] + 1 : 0;
    }
    size_t m = 0;
    for (size_t i = 0; i + 1 < n; i++)
        for (size_t j = lo[i]; j <= hi[i] && j < n; j++)
            cand[m++] = y[j] - y[i];
    qsort(cand, m, sizeof *cand, br_cmp_double);
    q = cand[k - left - 1];
done:
    free(lo), free(hi), free(cnt_lt), free(cnt_le), free(wt), free(cand);
    return q;
}

double br_scatter_qn(const double *x, size_t n) {
    size_t m = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            v[m++] = x[i];
    double q = NAN;
    if (m >= 2) {
        size_t h = m / 2 + 1, k = h * (h - 1) / 2;
        qsort(v, m, sizeof *v, br_cmp_double);
        double d = kth_difference(v, m, k);
        if (!isnan(d)) /* fabs: -0.0 - +0.0 is a distance of +0.0 */
            q = 2.2219 * qn_factor(m) * fabs(d);
    }
    free(v);
    return q;
}

void br_scatter_fit(br_scatter *out, const double *x, size_t n, double floor) {
    memset(out, 0, sizeof *out);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += isfinite(x[i]) != 0;
    if (m < BR_SCATTER_MIN_CASES)
        return;
    double q = br_scatter_qn(x, n);
    if (!isfinite(q))
        return;
    out->n = m;
    out->qn = q;
    out->var = fmax(q * q, 2.0 * floor * floor);
    out->df = BR_SCATTER_DF_PER_CASE * (double)(m - 1);
}
