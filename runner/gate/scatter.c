/* SPDX-License-Identifier: Apache-2.0 */
/* Qn of the current run's log ratios: the drift of a baseline
 * saved once (method and sources in scatter.h). */
#include "scatter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/sort.h"

/* Croux and Rousseeuw's small-sample factor d_n of Qn (robustbase::Qn). */
static double qn_factor(size_t n) {
    static const double small[] = {0, 0, 0.399, 0.994, 0.512, 0.844, 0.611, 0.857, 0.669, 0.872};
    if (n < 10)
        return small[n];
    return n % 2 ? (double)n / ((double)n + 1.4) : (double)n / ((double)n + 3.8);
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
    size_t pairs = m * (m - (m > 0)) / 2;
    double *dist = m >= 2 ? malloc(pairs * sizeof *dist) : NULL;
    if (dist) {
        size_t p = 0, h = m / 2 + 1, k = h * (h - 1) / 2;
        for (size_t i = 0; i < m; i++)
            for (size_t j = i + 1; j < m; j++)
                dist[p++] = fabs(v[i] - v[j]);
        qsort(dist, pairs, sizeof *dist, br_cmp_double); /* n is a suite's cases: O(n^2 log n) */
        q = 2.2219 * qn_factor(m) * dist[k - 1];
    }
    free(dist);
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
