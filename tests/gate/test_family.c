/* SPDX-License-Identifier: Apache-2.0 */
/* test_family.c - the Benjamini-Hochberg level of a comparison's cases
 * (family.h): the paper's worked example, the step-up, cases without a
 * p-value, and the edges. The procedure's error rates under the gate are
 * simulated in test_prior.c and test_scatter.c. */
#include <criterion/criterion.h>

#include <math.h>

#include "gate/family.h"

Test(family, the_papers_example_rejects_four_of_fifteen) {
    /* Benjamini and Hochberg (1995), section 4: 15 p-values at q = 0.05;
     * p_(4) = 0.0095 <= 4 x 0.05 / 15 and no later p_(i) <= i x 0.05 / 15. */
    const double p[] = {0.0201, 0.0001, 0.4262, 0.0004, 0.5719, 0.0019, 0.6528, 0.0095,
                        0.7590, 0.0278, 1.0,    0.0298, 0.0344, 0.0459, 0.3240};
    size_t r, m;
    double level = br_family_level(&r, &m, p, 15, 0.05);
    cr_assert_eq(m, 15);
    cr_assert_eq(r, 4);
    cr_assert_float_eq(level, 0.05 * 4 / 15, 1e-15);
    size_t below = 0; /* the level calls exactly the R smallest changed */
    for (int i = 0; i < 15; i++)
        below += p[i] <= level;
    cr_assert_eq(below, r);
}

Test(family, it_steps_up_from_the_largest) {
    /* p_(1) = 0.03 > 0.05 / 2, but p_(2) = 0.04 <= 0.05: both are
     * discoveries (Bonferroni or Holm would take none). */
    const double p[] = {0.04, 0.03};
    size_t r;
    cr_assert_float_eq(br_family_level(&r, NULL, p, 2, 0.05), 0.05, 1e-15);
    cr_assert_eq(r, 2);
}

Test(family, none_changed_gives_alpha_over_m_and_cases_without_p_do_not_count) {
    const double p[] = {0.2, NAN, 0.5, 0.003, NAN, 0.9};
    size_t r, m;
    double level = br_family_level(&r, &m, p, 6, 0.01);
    cr_assert_eq(m, 4, "the NAN are not tested");
    cr_assert_eq(r, 0);
    cr_assert_float_eq(level, 0.01 / 4, 1e-15);
    cr_assert_gt(p[3], level, "0.003 is no discovery among 4 at 0.01");
}

Test(family, one_case_or_none_is_judged_at_alpha) {
    const double one[] = {0.004}, none[] = {NAN};
    size_t r, m;
    cr_assert_float_eq(br_family_level(&r, &m, one, 1, 0.01), 0.01, 1e-15);
    cr_assert_eq(r, 1);
    cr_assert_eq(m, 1);
    cr_assert_float_eq(br_family_level(&r, &m, none, 1, 0.01), 0.01, 1e-15);
    cr_assert_eq(m, 0);
    cr_assert_eq(r, 0);
    cr_assert_float_eq(br_family_level(NULL, NULL, NULL, 0, 0.01), 0.01, 1e-15);
}
