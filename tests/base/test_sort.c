/* SPDX-License-Identifier: Apache-2.0 */
/* test_sort.c - the shared orderings (base/sort.c): the one comparison of
 * doubles the modules sort with, and the search for a repeat by sorting,
 * checked against comparing every pair on random collections. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/sort.h"

Test(sort, doubles_ascend_with_every_nan_last) {
    double v[] = {3.5, NAN, -INFINITY, 0.0, NAN, 2.0, INFINITY, -1.0};
    size_t n = sizeof v / sizeof *v;
    qsort(v, n, sizeof *v, br_cmp_double);
    double want[] = {-INFINITY, -1.0, 0.0, 2.0, 3.5, INFINITY};
    for (size_t i = 0; i < 6; i++)
        cr_expect_eq(v[i], want[i], "v[%zu] = %g, want %g", i, v[i], want[i]);
    cr_expect(isnan(v[6]) && isnan(v[7]), "NaNs sort after every number");
    double a = NAN, b = NAN, c = 1.0;
    cr_expect_eq(br_cmp_double(&a, &b), 0);
    cr_expect_gt(br_cmp_double(&a, &c), 0);
    cr_expect_lt(br_cmp_double(&c, &a), 0);
}

static int cmp_int(size_t i, size_t j, void *ctx) {
    const int *v = ctx;
    return (v[i] > v[j]) - (v[i] < v[j]);
}

/* Every pair, in order: the reference the sorted search must agree with. */
static int repeat_pairwise(size_t *again, size_t *first, const int *v, size_t n) {
    for (size_t i = 1; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (v[i] == v[j]) {
                *again = i;
                *first = j;
                return 1;
            }
    return 0;
}

Test(sort, the_first_repeat_is_the_one_every_pair_finds) {
    srand(12345);
    int v[300];
    for (int round = 0; round < 2000; round++) {
        size_t n = (size_t)(rand() % 300);
        int range = 1 + rand() % 2000; /* few values: many repeats; many: few or none */
        for (size_t i = 0; i < n; i++)
            v[i] = rand() % range;
        size_t a1 = 0, f1 = 0, a2 = 0, f2 = 0;
        int want = repeat_pairwise(&a1, &f1, v, n);
        int got = br_find_repeat(&a2, &f2, n, cmp_int, v);
        cr_assert_eq(got, want, "round %d, n %zu", round, n);
        if (want) {
            cr_assert_eq(a2, a1, "round %d: repeat at %zu, want %zu", round, a2, a1);
            cr_assert_eq(f2, f1, "round %d: first at %zu, want %zu", round, f2, f1);
        }
    }
}

Test(sort, none_in_nothing_or_one) {
    size_t a, f;
    int v[1] = {7};
    cr_expect_eq(br_find_repeat(&a, &f, 0, cmp_int, v), 0);
    cr_expect_eq(br_find_repeat(&a, &f, 1, cmp_int, v), 0);
}

static int key_int(const void *key, size_t i, void *ctx) {
    int k = *(const int *)key, x = ((const int *)ctx)[i];
    return (k > x) - (k < x);
}

Test(sort, a_sorted_index_finds_the_lowest_equal_item) {
    int v[] = {40, 10, 30, 10, 20, 40, 50};
    size_t n = sizeof v / sizeof *v;
    size_t *idx = br_sorted_index(n, cmp_int, v);
    cr_assert_not_null(idx);
    for (size_t k = 1; k < n; k++)
        cr_expect_leq(v[idx[k - 1]], v[idx[k]]);
    int key = 10;
    cr_expect_eq(br_sorted_find(idx, n, &key, key_int, v), 1);
    key = 40;
    cr_expect_eq(br_sorted_find(idx, n, &key, key_int, v), 0);
    key = 50;
    cr_expect_eq(br_sorted_find(idx, n, &key, key_int, v), 6);
    key = 35;
    cr_expect_eq(br_sorted_find(idx, n, &key, key_int, v), (size_t)-1);
    key = 99;
    cr_expect_eq(br_sorted_find(idx, n, &key, key_int, v), (size_t)-1);
    free(idx);
}
