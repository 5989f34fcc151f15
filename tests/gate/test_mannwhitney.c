/* SPDX-License-Identifier: Apache-2.0 */
/* test_mannwhitney.c - br_mwu_test against reference values computed
 * independently with SciPy 1.10.1 (NumPy 1.24.2, Debian 12 python3-scipy),
 * scipy.stats.mannwhitneyu(a, b, alternative='two-sided') with
 * method='exact' or method='asymptotic' (use_continuity=True, the default).
 * Every reference test below carries the lines that produced its values;
 * they run after these helpers (python3, same file):
 *
 *   from math import comb
 *   from scipy.stats import mannwhitneyu, norm
 *   def ex(a, b):
 *       r = mannwhitneyu(a, b, alternative='two-sided', method='exact')
 *       print(repr(r.statistic), repr(r.pvalue))
 *   def asy(a, b):
 *       r = mannwhitneyu(a, b, alternative='two-sided', method='asymptotic')
 *       z = norm.isf(r.pvalue / 2) * (1 if 2 * r.statistic >= len(a) * len(b) else -1)
 *       print(repr(r.statistic), repr(r.pvalue), repr(z))
 *   def min_p(a, b):
 *       s, k = sorted(a + b), len(a)
 *       lo = mannwhitneyu(s[:k], s[k:], alternative='two-sided', method='asymptotic').pvalue
 *       hi = mannwhitneyu(s[-k:], s[:-k], alternative='two-sided', method='asymptotic').pvalue
 *       print(repr(min(lo, hi)))
 *
 * ex prints U (of a) and p; asy prints U, p and z recovered from p (signed:
 * positive when a tends to be larger); min_p relabels the pooled values so
 * that a holds the k smallest or the k largest (the two most extreme
 * labellings) and prints the smaller p. The exact distribution is also
 * checked against brute-force enumeration in exact_matches_enumeration. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "gate/mannwhitney.h"

/* Relative tolerances. SciPy 1.10 sums the exact null distribution's
 * probabilities in floating point (a few ulps off); the normal approximation
 * goes through sqrt and erfc in both. Leaving out the continuity or the tie
 * correction moves p by percents (ties_corrections_matter). */
#define EXACT_REL 1e-12
#define ASYM_REL  1e-10
#define LARGE_REL 1e-9

#define N_OF(x) (sizeof(x) / sizeof((x)[0]))

static void expect_rel(double got, double want, double rel, const char *what) {
    double tol = rel * fabs(want);
    cr_expect(fabs(got - want) <= tol, "%s: got %.17g, want %.17g", what, got, want);
}

static br_mwu run_ok(const double *a, size_t na, const double *b, size_t nb) {
    br_mwu r;
    memset(&r, 0xAB, sizeof r);
    br_error_clear();
    cr_assert_eq(br_mwu_test(&r, a, na, b, nb), 0, "%s", br_error_get());
    cr_expect(r.p >= 0.0 && r.p <= 1.0, "p %.17g outside [0, 1]", r.p);
    cr_expect(r.min_p >= 0.0 && r.min_p <= r.p, "min_p %.17g, p %.17g", r.min_p, r.p);
    cr_expect(r.u >= 0.0 && r.u <= (double)na * (double)nb, "u %.17g", r.u);
    return r;
}

static void check_exact(const double *a, size_t na, const double *b, size_t nb, double u,
                        double p) {
    br_mwu r = run_ok(a, na, b, nb);
    cr_expect_eq(r.exact, 1, "%zu vs %zu without ties must be exact", na, nb);
    cr_expect(isnan(r.z), "z %.17g, want NAN when exact", r.z);
    cr_expect_eq(r.u, u, "u: got %.17g, want %.17g", r.u, u);
    expect_rel(r.p, p, EXACT_REL, "exact p");
}

static void check_asym(const double *a, size_t na, const double *b, size_t nb, double u, double p,
                       double z, double min_p, double rel) {
    br_mwu r = run_ok(a, na, b, nb);
    cr_expect_eq(r.exact, 0, "%zu vs %zu must use the normal approximation", na, nb);
    cr_expect_eq(r.u, u, "u: got %.17g, want %.17g", r.u, u);
    expect_rel(r.p, p, rel, "asymptotic p");
    expect_rel(r.z, z, rel, "z");
    expect_rel(r.min_p, min_p, rel, "min_p");
}

/* C(n, k) exactly (n <= 62). */
static uint64_t choose(unsigned n, unsigned k) {
    uint64_t c = 1;
    for (unsigned i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

/* ---- Exact null distribution (no ties, n_a + n_b <= 50) -------------- */

/* Small samples without ties:
 *   ex([1.5, 3.2, 0.7, 4.1], [2.2, 5.0, 6.3, 3.9, 7.7])
 *   ex([41712.5, 41690.0, 41755.25, 41702.75, 41698.5, 41731.0, 41688.25, 41720.5, 41695.0,
 *       41709.75],
 *      [41745.0, 41760.5, 41701.25, 41738.0, 41722.75, 41790.0, 41733.5, 41751.25, 41699.0,
 *       41766.0, 41740.25, 41728.5])
 *   ex([-3.5, 0.0, 2.25, -1.0, 8.0, 1e-3], [0.5, -2.0, 4.0, 3.0, 5.5, 6.0, 7.25])
 * ->
 *   3.0 0.1111111111111111
 *   21.0 0.00895698728516066
 *   12.0 0.23426573426573427 */
Test(mannwhitney, exact_small) {
    const double a1[] = {1.5, 3.2, 0.7, 4.1};
    const double b1[] = {2.2, 5.0, 6.3, 3.9, 7.7};
    check_exact(a1, N_OF(a1), b1, N_OF(b1), 3.0, 0.1111111111111111);

    /* Timings (ns): b is the slower kernel. */
    const double a2[] = {41712.5, 41690.0,  41755.25, 41702.75, 41698.5,
                         41731.0, 41688.25, 41720.5,  41695.0,  41709.75};
    const double b2[] = {41745.0, 41760.5,  41701.25, 41738.0, 41722.75, 41790.0,
                         41733.5, 41751.25, 41699.0,  41766.0, 41740.25, 41728.5};
    check_exact(a2, N_OF(a2), b2, N_OF(b2), 21.0, 0.00895698728516066);

    const double a3[] = {-3.5, 0.0, 2.25, -1.0, 8.0, 1e-3};
    const double b3[] = {0.5, -2.0, 4.0, 3.0, 5.5, 6.0, 7.25};
    check_exact(a3, N_OF(a3), b3, N_OF(b3), 12.0, 0.23426573426573427);
}

/* Interleaved samples, one distribution: U at or next to its mean.
 *   ex([1, 3, 5, 7], [2, 4, 6, 8]); ex([1, 4], [2, 3]); ex([1, 4, 5, 8], [2, 3, 6, 7])
 * ->
 *   6.0 0.6857142857142857
 *   2.0 1.0
 *   8.0 1.0 */
Test(mannwhitney, exact_identical_distributions) {
    const double a1[] = {1, 3, 5, 7}, b1[] = {2, 4, 6, 8};
    check_exact(a1, 4, b1, 4, 6.0, 0.6857142857142857);
    const double a2[] = {1, 4}, b2[] = {2, 3};
    check_exact(a2, 2, b2, 2, 2.0, 1.0);
    const double a3[] = {1, 4, 5, 8}, b3[] = {2, 3, 6, 7};
    check_exact(a3, 4, b3, 4, 8.0, 1.0);
}

/* Every a above every b: U = n_a n_b, p = 2 / C(n_a + n_b, n_a) = min_p.
 *   ex([10, 11, 12], [1, 2, 3, 4])
 *   ex([100 + i for i in range(25)], list(range(25))); print(repr(2 / comb(50, 25)))
 * ->
 *   12.0 0.05714285714285714
 *   625.0 1.5821457204897228e-14
 *   1.5821457204897235e-14
 * (SciPy's exact sum is 4e-16 relative off 2 / C(50, 25); ours divides exact
 * integer counts, so the second check is to 1e-15.) */
Test(mannwhitney, exact_complete_separation) {
    const double a1[] = {10, 11, 12}, b1[] = {1, 2, 3, 4};
    check_exact(a1, 3, b1, 4, 12.0, 0.05714285714285714);

    double a[25], b[25];
    for (int i = 0; i < 25; i++) {
        a[i] = 100 + i;
        b[i] = i;
    }
    check_exact(a, 25, b, 25, 625.0, 1.5821457204897228e-14);
    br_mwu r = run_ok(a, 25, b, 25);
    expect_rel(r.p, 1.5821457204897235e-14, 1e-15, "2 / C(50, 25)");
    cr_expect_eq(r.p, r.min_p);
    /* Below instead of above: U = 0, the same p. */
    r = run_ok(b, 25, a, 25);
    cr_expect_eq(r.u, 0.0);
    expect_rel(r.p, 1.5821457204897235e-14, 1e-15, "2 / C(50, 25), U = 0");

    /* Every split of sizes 1..12 x 1..12: p = min(1, 2 / C(n, k)). */
    for (unsigned na = 1; na <= 12; na++) {
        for (unsigned nb = 1; nb <= 12; nb++) {
            double hi[12], lo[12];
            for (unsigned i = 0; i < 12; i++) {
                hi[i] = 1000.0 + i;
                lo[i] = -(double)i;
            }
            r = run_ok(hi, na, lo, nb);
            double want = fmin(1.0, 2.0 / (double)choose(na + nb, na));
            cr_expect_eq(r.exact, 1);
            cr_expect_eq(r.u, (double)(na * nb));
            expect_rel(r.p, want, 1e-15, "separated p");
            expect_rel(r.min_p, want, 1e-15, "separated min_p");
        }
    }
}

/* Unequal sizes:
 *   ex([2.5, 9.0, 4.75], [1, 3, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15])
 *   ex([i * 3 + 1.25 for i in range(20)], [j * 2 + 12 for j in range(30)])
 *   ex([0.5 * i for i in range(2, 41)],
 *      [3.3, 7.7, 11.1, 19.9, 25.25, 0.25, 14.6, 18.1, 9.9, 2.7, 4.4])
 * ->
 *   9.0 0.232967032967033
 *   200.0 0.04812946331770487
 *   220.0 0.9081339050322855
 * (The last two have n_a + n_b = 50, the largest exact size.) */
Test(mannwhitney, exact_unequal_sizes) {
    const double a1[] = {2.5, 9.0, 4.75};
    const double b1[] = {1, 3, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15};
    check_exact(a1, 3, b1, 12, 9.0, 0.232967032967033);

    double a2[20], b2[30];
    for (int i = 0; i < 20; i++)
        a2[i] = i * 3 + 1.25;
    for (int j = 0; j < 30; j++)
        b2[j] = j * 2 + 12;
    check_exact(a2, 20, b2, 30, 200.0, 0.04812946331770487);

    double a3[39];
    for (int i = 2; i <= 40; i++)
        a3[i - 2] = 0.5 * i;
    const double b3[] = {3.3, 7.7, 11.1, 19.9, 25.25, 0.25, 14.6, 18.1, 9.9, 2.7, 4.4};
    check_exact(a3, 39, b3, 11, 220.0, 0.9081339050322855);
}

/* Brute force, independent of SciPy and of the dynamic programme: for every
 * n_a, n_b with n_a + n_b <= 12, enumerate all C(n, n_a) ways to give sample
 * a some of the ranks 1..n, tally U, and check the p of every labelling
 * against 2 min(#{U' <= U}, #{U' >= U}) / C(n, n_a). */
Test(mannwhitney, exact_matches_enumeration) {
    for (unsigned n = 2; n <= 12; n++) {
        for (unsigned na = 1; na < n; na++) {
            const unsigned nb = n - na;
            uint64_t count[37] = {0}; /* U in 0 .. na nb <= 36 */
            unsigned total = 0;
            for (unsigned mask = 0; mask < (1u << n); mask++) {
                if ((unsigned)__builtin_popcount(mask) != na)
                    continue;
                unsigned u = 0, bs_below = 0;
                for (unsigned pos = 0; pos < n; pos++) {
                    if (mask & (1u << pos))
                        u += bs_below;
                    else
                        bs_below++;
                }
                count[u]++;
                total++;
            }
            cr_assert_eq(total, choose(n, na));
            for (unsigned mask = 0; mask < (1u << n); mask++) {
                if ((unsigned)__builtin_popcount(mask) != na)
                    continue;
                double a[12], b[12];
                unsigned ia = 0, ib = 0, u = 0;
                for (unsigned pos = 0; pos < n; pos++) {
                    /* Ranks as irregular values, so only the order matters. */
                    double v = pos * 1.75 + 0.01 * pos * pos - 3.0;
                    if (mask & (1u << pos)) {
                        a[ia++] = v;
                        u += ib;
                    } else {
                        b[ib++] = v;
                    }
                }
                uint64_t below = 0, above = 0;
                for (unsigned s = 0; s <= na * nb; s++) {
                    if (s <= u)
                        below += count[s];
                    if (s >= u)
                        above += count[s];
                }
                double want = fmin(1.0, 2.0 * (double)(below < above ? below : above) / total);
                br_mwu r = run_ok(a, na, b, nb);
                cr_expect_eq(r.exact, 1);
                cr_expect_eq(r.u, (double)u, "n %u, na %u, mask %#x: u %.17g, want %u", n, na, mask,
                             r.u, u);
                cr_expect_eq(r.p, want, "n %u, na %u, mask %#x: p %.17g, want %.17g", n, na, mask,
                             r.p, want);
                cr_expect_eq(r.min_p, fmin(1.0, 2.0 / total));
            }
        }
    }
}

/* The exact distribution is used up to n_a + n_b = 50 without ties; 51
 * values, or one tie among 50, switch to the normal approximation.
 *   a = [i * 3 + 1.25 for i in range(21)]; b = [j * 2 for j in range(30)]
 *   asy(a, b); min_p(a, b)
 *   a = [i * 3 + 1.25 for i in range(20)]; b = [j * 2 for j in range(29)] + [1.25]
 *   asy(a, b); min_p(a, b)
 * ->
 *   340.0 0.6391376216046023 0.4689048889399586
 *   1.7527290002186723e-09
 *   328.5 0.5792394852041491 0.5544959374545542
 *   3.008638690393622e-09 */
Test(mannwhitney, exact_size_limit) {
    double a[21], b[30];
    for (int i = 0; i < 21; i++)
        a[i] = i * 3 + 1.25;
    for (int j = 0; j < 30; j++)
        b[j] = j * 2;
    br_mwu r = run_ok(a, 20, b, 30);
    cr_expect_eq(r.exact, 1, "50 values without ties");
    check_asym(a, 21, b, 30, 340.0, 0.6391376216046023, 0.4689048889399586, 1.7527290002186723e-09,
               ASYM_REL);
    b[29] = a[0]; /* one tie among 50 values */
    check_asym(a, 20, b, 30, 328.5, 0.5792394852041491, 0.5544959374545542, 3.008638690393622e-09,
               ASYM_REL);
}

/* ---- Normal approximation with ties --------------------------------- */

/* Small samples with ties (tie-corrected variance, continuity correction):
 *   a = [1, 2, 2, 3, 3, 3, 4]; b = [2, 3, 4, 4, 5, 5, 6]; asy(a, b); min_p(a, b)
 *   a = [5, 5, 5, 5, 6, 6, 7, 5, 6, 5]; b = [6, 6, 7, 7, 7, 6, 7, 8, 6, 7]
 *   asy(a, b); min_p(a, b)
 *   a = [1.0, 2.0, 3.0, 7.0, 7.0]; b = [7.0, 7.0, 8.0, 9.0, 10.0, 11.0]; asy(a, b); min_p(a, b)
 * ->
 *   8.5 0.043051432728945134 -2.0232106635871983
 *   0.003314909896634707
 *   12.5 0.003285856856349779 -2.939647638612944
 *   0.0005481084374299277
 *   2.0 0.019497342254316867 -2.335882960755785
 *   0.015127246074465322
 * In the third, the tied 7s straddle both extreme labellings: the least U
 * is 1.5 (b holds 1, 2, 3 and three 7s), not 0. */
Test(mannwhitney, ties_asymptotic) {
    const double a1[] = {1, 2, 2, 3, 3, 3, 4}, b1[] = {2, 3, 4, 4, 5, 5, 6};
    check_asym(a1, 7, b1, 7, 8.5, 0.043051432728945134, -2.0232106635871983, 0.003314909896634707,
               ASYM_REL);
    const double a2[] = {5, 5, 5, 5, 6, 6, 7, 5, 6, 5}, b2[] = {6, 6, 7, 7, 7, 6, 7, 8, 6, 7};
    check_asym(a2, 10, b2, 10, 12.5, 0.003285856856349779, -2.939647638612944,
               0.0005481084374299277, ASYM_REL);
    const double a3[] = {1.0, 2.0, 3.0, 7.0, 7.0}, b3[] = {7.0, 7.0, 8.0, 9.0, 10.0, 11.0};
    check_asym(a3, 5, b3, 6, 2.0, 0.019497342254316867, -2.335882960755785, 0.015127246074465322,
               ASYM_REL);
}

/* The tolerances tell the method apart: the second sample set of
 * ties_asymptotic without the continuity correction, and without the tie
 * correction of the variance:
 *   a = [5, 5, 5, 5, 6, 6, 7, 5, 6, 5]; b = [6, 6, 7, 7, 7, 6, 7, 8, 6, 7]
 *   print(repr(mannwhitneyu(a, b, alternative='two-sided', method='asymptotic',
 *                           use_continuity=False).pvalue))
 *   n1, n2 = len(a), len(b); U = mannwhitneyu(a, b, method='asymptotic').statistic
 *   print(repr(2 * norm.sf((abs(U - n1 * n2 / 2) - 0.5) / (n1 * n2 * (n1 + n2 + 1) / 12) ** 0.5)))
 * ->
 *   0.0028883930742596552
 *   0.005158957570721309 */
Test(mannwhitney, ties_corrections_matter) {
    const double a[] = {5, 5, 5, 5, 6, 6, 7, 5, 6, 5}, b[] = {6, 6, 7, 7, 7, 6, 7, 8, 6, 7};
    br_mwu r = run_ok(a, 10, b, 10);
    const double no_continuity = 0.0028883930742596552, no_tie_correction = 0.005158957570721309;
    cr_expect(fabs(r.p - no_continuity) > 1e4 * ASYM_REL * r.p, "p %.17g", r.p);
    cr_expect(fabs(r.p - no_tie_correction) > 1e4 * ASYM_REL * r.p, "p %.17g", r.p);
}

/* Every value tied: sigma = 0, p = 1, z = 0, min_p = 1 (SciPy's own z would
 * be -0.5 / 0; its p is clipped to 1). */
Test(mannwhitney, all_equal) {
    const double a[] = {3.5, 3.5, 3.5}, b[] = {3.5, 3.5};
    br_mwu r = run_ok(a, 3, b, 2);
    cr_expect_eq(r.exact, 0);
    cr_expect_eq(r.u, 3.0);
    cr_expect_eq(r.p, 1.0);
    cr_expect_eq(r.z, 0.0);
    cr_expect_eq(r.min_p, 1.0);
    r = run_ok(a, 1, b, 1);
    cr_expect_eq(r.u, 0.5);
    cr_expect_eq(r.p, 1.0);
    cr_expect_eq(r.min_p, 1.0);
    double many[500];
    for (int i = 0; i < 500; i++)
        many[i] = 41712.25;
    r = run_ok(many, 200, many + 200, 300);
    cr_expect_eq(r.u, 30000.0);
    cr_expect_eq(r.p, 1.0);
    cr_expect_eq(r.z, 0.0);
}

/* One-element samples:
 *   ex([10], list(range(1, 10))); ex([5], [1, 2, 3, 4, 6, 7, 8, 9]); ex([2], [1])
 *   ex([0.5], [1, 2])
 * ->
 *   9.0 0.2
 *   4.0 1.0
 *   1.0 1.0
 *   0.0 0.6666666666666666 */
Test(mannwhitney, one_element) {
    const double nine[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const double ten[] = {10}, five[] = {5}, two[] = {2}, one[] = {1}, half[] = {0.5};
    check_exact(ten, 1, nine, 9, 9.0, 0.2);
    const double gap[] = {1, 2, 3, 4, 6, 7, 8, 9};
    check_exact(five, 1, gap, 8, 4.0, 1.0);
    check_exact(two, 1, one, 1, 1.0, 1.0);
    check_exact(half, 1, nine, 2, 0.0, 0.6666666666666666);
    br_mwu r = run_ok(two, 1, one, 1);
    cr_expect_eq(r.min_p, 1.0, "1 vs 1 can never be significant");
    r = run_ok(ten, 1, nine, 9);
    cr_expect_eq(r.min_p, 0.2);
}

/* ---- Large samples (normal approximation) --------------------------- */

/* 2000 vs 2000 without ties (a is x.5, b integral), then with many ties
 * (104 distinct values among 4000):
 *   a = [(i * 7919) % 100003 + 2000.5 for i in range(2000)]
 *   b = [float((j * 7907) % 100019) for j in range(2000)]
 *   asy(a, b); min_p(a, b); print(len(set(a + b)))
 *   a = [float((i * 37) % 101 + 3) for i in range(2000)]
 *   b = [float((j * 41) % 103) for j in range(2000)]
 *   asy(a, b); min_p(a, b); print(len(set(a + b)))
 * ->
 *   2079145.0 0.03022033026541678 2.1671905157379734
 *   0.0
 *   4000
 *   2072739.0 0.046385184631892014 1.9918712638296066
 *   0.0
 *   104 */
Test(mannwhitney, large_2000) {
    double *a = malloc(2000 * sizeof *a), *b = malloc(2000 * sizeof *b);
    cr_assert(a && b);
    for (int i = 0; i < 2000; i++) {
        a[i] = (double)((i * 7919) % 100003) + 2000.5;
        b[i] = (double)((i * 7907) % 100019);
    }
    check_asym(a, 2000, b, 2000, 2079145.0, 0.03022033026541678, 2.1671905157379734, 0.0,
               LARGE_REL);
    for (int i = 0; i < 2000; i++) {
        a[i] = (double)((i * 37) % 101 + 3);
        b[i] = (double)((i * 41) % 103);
    }
    check_asym(a, 2000, b, 2000, 2072739.0, 0.046385184631892014, 1.9918712638296066, 0.0,
               LARGE_REL);
    free(a);
    free(b);
}

/* 100000 vs 100000 (9963 values shared between a and b): O(N log N) keeps it
 * to milliseconds; an O(n^2) pair count would take seconds.
 *   a = [float((i * 7919) % 1000003 + 4000) for i in range(100000)]
 *   b = [float((j * 104729) % 999983) for j in range(100000)]
 *   asy(a, b); min_p(a, b); print(len(set(a + b)))
 * ->
 *   5039189500.5 0.002400591732560124 3.0355980279496686
 *   0.0
 *   190037 */
Test(mannwhitney, large_100000) {
    const size_t n = 100000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    cr_assert(a && b);
    for (size_t i = 0; i < n; i++) {
        a[i] = (double)((i * 7919) % 1000003 + 4000);
        b[i] = (double)((i * 104729) % 999983);
    }
    clock_t t0 = clock();
    br_mwu r = run_ok(a, n, b, n);
    double cpu_s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    cr_expect(cpu_s < 1.0, "100000 vs 100000 took %.3f s of CPU", cpu_s);
    cr_expect_eq(r.exact, 0);
    cr_expect_eq(r.u, 5039189500.5);
    expect_rel(r.p, 0.002400591732560124, LARGE_REL, "p");
    expect_rel(r.z, 3.0355980279496686, LARGE_REL, "z");
    cr_expect_eq(r.min_p, 0.0);
    free(a);
    free(b);
}

/* ---- min_p, symmetry, inputs, errors -------------------------------- */

/* min_p by method: exact 2 / C(n, n_a) capped at 1, whatever the data; the
 * normal approximation's value comes from the most extreme labelling of the
 * same pooled values (references in ties_asymptotic and exact_size_limit). */
Test(mannwhitney, min_p) {
    const double a[] = {1.5, 3.2, 0.7, 4.1}, b[] = {2.2, 5.0, 6.3, 3.9, 7.7};
    br_mwu r = run_ok(a, 4, b, 5);
    cr_expect_eq(r.min_p, 2.0 / 126.0);
    r = run_ok(a, 1, b, 1);
    cr_expect_eq(r.min_p, 1.0, "2 / C(2, 1) capped at 1");
    r = run_ok(a, 2, b, 2);
    cr_expect_eq(r.min_p, 2.0 / 6.0);
    r = run_ok(a, 3, b, 2);
    cr_expect_eq(r.min_p, 0.2, "3 vs 2 is never significant at 5%%");
    /* With ties the extreme U depends on where the ties fall, not on a. */
    const double t1[] = {1, 2, 2, 3, 3, 3, 4}, t2[] = {2, 3, 4, 4, 5, 5, 6};
    const double t1b[] = {4, 3, 3, 3, 2, 2, 1};
    r = run_ok(t1b, 7, t2, 7);
    expect_rel(r.min_p, 0.003314909896634707, ASYM_REL, "min_p, ties");
    r = run_ok(t2, 7, t1, 7);
    expect_rel(r.min_p, 0.003314909896634707, ASYM_REL, "min_p, ties, swapped");
}

static void expect_symmetric(const double *a, size_t na, const double *b, size_t nb) {
    br_mwu ab = run_ok(a, na, b, nb), ba = run_ok(b, nb, a, na);
    cr_expect_eq(ab.p, ba.p, "p(a, b) %.17g, p(b, a) %.17g", ab.p, ba.p);
    cr_expect_eq(ab.min_p, ba.min_p);
    cr_expect_eq(ab.exact, ba.exact);
    cr_expect_eq(ab.u + ba.u, (double)na * (double)nb);
    if (ab.exact)
        cr_expect(isnan(ab.z) && isnan(ba.z));
    else
        cr_expect_eq(ab.z, -ba.z);
}

Test(mannwhitney, symmetry) {
    const double a1[] = {1.5, 3.2, 0.7, 4.1}, b1[] = {2.2, 5.0, 6.3, 3.9, 7.7};
    expect_symmetric(a1, 4, b1, 5);
    const double a2[] = {2.5, 9.0, 4.75};
    const double b2[] = {1, 3, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15};
    expect_symmetric(a2, 3, b2, 12);
    const double a3[] = {5, 5, 5, 5, 6, 6, 7, 5, 6, 5}, b3[] = {6, 6, 7, 7, 7, 6, 7, 8, 6, 7};
    expect_symmetric(a3, 10, b3, 10);
    const double a4[] = {1.0, 2.0, 3.0, 7.0, 7.0}, b4[] = {7.0, 7.0, 8.0, 9.0, 10.0, 11.0};
    expect_symmetric(a4, 5, b4, 6);
    double a5[21], b5[30];
    for (int i = 0; i < 21; i++)
        a5[i] = i * 3 + 1.25;
    for (int j = 0; j < 30; j++)
        b5[j] = j * 2;
    expect_symmetric(a5, 21, b5, 30);
    expect_symmetric(a5, 20, b5, 30);
}

Test(mannwhitney, input_not_modified) {
    double a[] = {3, 1, 2, 2}, b[] = {9, 0.5, 2, 4};
    br_mwu r = run_ok(a, 4, b, 4);
    (void)r;
    cr_expect(a[0] == 3 && a[1] == 1 && a[2] == 2 && a[3] == 2);
    cr_expect(b[0] == 9 && b[1] == 0.5 && b[2] == 2 && b[3] == 4);
}

Test(mannwhitney, errors) {
    const double a[] = {1, 2, 3}, nan_in[] = {1, NAN, 3}, inf_in[] = {-INFINITY, 2};
    br_mwu r, before;
    memset(&r, 0x5A, sizeof r);
    memcpy(&before, &r, sizeof r);

    br_error_clear();
    cr_expect_eq(br_mwu_test(&r, a, 0, a, 3), -1);
    cr_expect(strstr(br_error_get(), "empty") != NULL, "message: %s", br_error_get());
    br_error_clear();
    cr_expect_eq(br_mwu_test(&r, a, 3, a, 0), -1);
    cr_expect(strstr(br_error_get(), "empty") != NULL, "message: %s", br_error_get());
    br_error_clear();
    cr_expect_eq(br_mwu_test(&r, nan_in, 3, a, 3), -1);
    cr_expect(strstr(br_error_get(), "sample 1 of 3 in the first") != NULL, "message: %s",
              br_error_get());
    br_error_clear();
    cr_expect_eq(br_mwu_test(&r, a, 3, inf_in, 2), -1);
    cr_expect(strstr(br_error_get(), "sample 0 of 2 in the second") != NULL, "message: %s",
              br_error_get());
    cr_expect_eq(memcmp(&r, &before, sizeof r), 0, "*out touched on failure");
}
