/* SPDX-License-Identifier: Apache-2.0 */
/* test_activity.c - br_activity_attribute and the per-name breakdown on
 * synthetic CUPTI-like record streams. Every expected value is worked out by
 * hand in the comment beside it (durations are whole nanoseconds, so every
 * sum and mean below is exact in double and compared with ==), or, for the
 * large stream, recomputed by a plain loop over the generator's formula. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"
#include "measure/activity.h"
#include "base/error.h"

#define N_OF(x) (sizeof(x) / sizeof((x)[0]))

#define TAG_A 0x100000001ull /* 64-bit tags: the upper half must matter */
#define TAG_B 0x200000001ull

static br_op_record op(br_op_kind kind, uint32_t name, uint32_t corr, uint64_t start,
                       uint64_t end) {
    return (br_op_record){kind, name, corr, start, end, 7, 1, 0};
}

/* An operation on stream `stream` of context `context`. */
static br_op_record op_on(uint32_t name, uint32_t corr, uint64_t start, uint64_t end,
                          uint32_t stream, uint32_t context) {
    return (br_op_record){BR_OP_KERNEL, name, corr, start, end, stream, context, 0};
}

/* Attribute, asserting success; counts are poisoned first so that every
 * field must be written. */
static void attribute_ok(br_sample_ops *s, br_attr_counts *c, const br_op_record *ops, size_t n,
                         const br_corr_link *links, size_t nl, uint64_t tag, size_t dropped) {
    memset(c, 0xAB, sizeof *c);
    br_error_clear();
    cr_assert_eq(br_activity_attribute(s, c, ops, n, links, nl, tag, dropped), 0, "%s",
                 br_error_get());
}

static void expect_tally(const br_sample_ops *s, size_t i, uint32_t name, br_op_kind kind,
                         size_t count, double sum_ns) {
    cr_assert_lt(i, s->n_tally, "tally %zu of %zu", i, s->n_tally);
    const br_op_tally *t = &s->tally[i];
    cr_expect_eq(t->name, name, "tally %zu: name %u, want %u", i, t->name, name);
    cr_expect_eq(t->kind, kind, "tally %zu: kind %d, want %d", i, (int)t->kind, (int)kind);
    cr_expect_eq(t->count, count, "tally %zu: count %zu, want %zu", i, t->count, count);
    cr_expect_eq(t->sum_ns, sum_ns, "tally %zu: sum %.17g, want %.17g", i, t->sum_ns, sum_ns);
}

static void expect_counts(br_attr_counts c, size_t excluded, size_t other, size_t malformed) {
    cr_expect_eq(c.excluded, excluded, "excluded %zu, want %zu", c.excluded, excluded);
    cr_expect_eq(c.other, other, "other %zu, want %zu", c.other, other);
    cr_expect_eq(c.malformed, malformed, "malformed %zu, want %zu", c.malformed, malformed);
}

/* ---- br_op_kind_name ----------------------------------------------------- */

Test(activity, kind_names) {
    cr_expect_str_eq(br_op_kind_name(BR_OP_KERNEL), "kernel");
    cr_expect_str_eq(br_op_kind_name(BR_OP_MEMCPY), "memcpy");
    cr_expect_str_eq(br_op_kind_name(BR_OP_MEMSET), "memset");
    cr_expect_str_eq(br_op_kind_name((br_op_kind)3), "?");
    cr_expect_str_eq(br_op_kind_name((br_op_kind)-1), "?");
}

/* ---- attribution --------------------------------------------------------- */

/* One kernel of 1000 ns, linked through correlation 5. */
Test(activity, single_op) {
    const br_op_record ops[] = {op(BR_OP_KERNEL, 3, 5, 10000, 11000)};
    const br_corr_link links[] = {{5, TAG_A}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, 1, links, 1, TAG_A, 0);
    cr_expect_eq(s.kernel_ns, 1000.0);
    cr_expect_eq(s.span_ns, 1000.0);
    cr_expect_eq(s.n_ops, 1);
    cr_expect_eq(s.complete, 1);
    cr_expect_eq(s.n_tally, 1);
    expect_tally(&s, 0, 3, BR_OP_KERNEL, 1, 1000.0);
    expect_counts(c, 0, 0, 0);
    br_sample_ops_dispose(&s);
    cr_expect_null(s.tally);
    cr_expect_eq(s.n_tally, 0);
    cr_expect_eq(s.cap_tally, 0);
}

/* Three operations on concurrent streams overlap: [100, 600], [200, 500],
 * [400, 1000]. Kernel time sums each in full: 500 + 300 + 600 = 1400; the
 * span runs from the first start to the last end: 1000 - 100 = 900. */
Test(activity, overlapping_ops_sum_in_full) {
    const br_op_record ops[] = {
        op(BR_OP_KERNEL, 0, 1, 100, 600),
        op(BR_OP_KERNEL, 0, 2, 200, 500),
        op(BR_OP_KERNEL, 0, 3, 400, 1000),
    };
    const br_corr_link links[] = {{1, TAG_A}, {2, TAG_A}, {3, TAG_A}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, 3, links, 3, TAG_A, 0);
    cr_expect_eq(s.kernel_ns, 1400.0, "kernel %.17g", s.kernel_ns);
    cr_expect_eq(s.span_ns, 900.0, "span %.17g", s.span_ns);
    cr_expect_eq(s.n_ops, 3);
    cr_expect_eq(s.complete, 1);
    cr_expect_eq(s.n_tally, 1);
    expect_tally(&s, 0, 0, BR_OP_KERNEL, 3, 1400.0);
    expect_counts(c, 0, 0, 0);
    br_sample_ops_dispose(&s);
}

/* Records arrive out of order (CUPTI delivers per-stream buffers). By start:
 *   100 name 1 kernel [100, 150]  50
 *   200 name 2 memcpy [200, 260]  60
 *   300 name 0 kernel [300, 370]  70
 *   400 name 0 memset [400, 410]  10   (same name, another kind: own tally)
 *   500 name 0 kernel [500, 580]  80
 *   600 name 1 kernel [600, 640]  40
 * tallies in order of first start: (1, kernel) 2 ops 90; (2, memcpy) 1 op 60;
 * (0, kernel) 2 ops 150; (0, memset) 1 op 10. Kernel time 310, span 540. The
 * links are unsorted too. */
Test(activity, ops_out_of_order) {
    const br_op_record ops[] = {
        op(BR_OP_KERNEL, 1, 16, 600, 640), op(BR_OP_KERNEL, 0, 15, 500, 580),
        op(BR_OP_MEMSET, 0, 14, 400, 410), op(BR_OP_KERNEL, 0, 13, 300, 370),
        op(BR_OP_MEMCPY, 2, 12, 200, 260), op(BR_OP_KERNEL, 1, 11, 100, 150),
    };
    const br_corr_link links[] = {{14, TAG_A}, {11, TAG_A}, {16, TAG_A},
                                  {12, TAG_A}, {15, TAG_A}, {13, TAG_A}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), TAG_A, 0);
    cr_expect_eq(s.kernel_ns, 310.0, "kernel %.17g", s.kernel_ns);
    cr_expect_eq(s.span_ns, 540.0, "span %.17g", s.span_ns);
    cr_expect_eq(s.n_ops, 6);
    cr_expect_eq(s.complete, 1);
    cr_assert_eq(s.n_tally, 4);
    expect_tally(&s, 0, 1, BR_OP_KERNEL, 2, 90.0);
    expect_tally(&s, 1, 2, BR_OP_MEMCPY, 1, 60.0);
    expect_tally(&s, 2, 0, BR_OP_KERNEL, 2, 150.0);
    expect_tally(&s, 3, 0, BR_OP_MEMSET, 1, 10.0);
    expect_counts(c, 0, 0, 0);
    br_sample_ops_dispose(&s);
}

/* Two names start at the same time: input order decides (name 7 comes first
 * in the input, so its tally is first although 7 > 2). A CUDA graph: one
 * correlation id (cudaGraphLaunch) enqueues both. */
Test(activity, first_start_ties_by_input_order) {
    const br_op_record ops[] = {
        op(BR_OP_KERNEL, 7, 40, 1000, 1100),
        op(BR_OP_KERNEL, 2, 40, 1000, 1300),
        op(BR_OP_KERNEL, 2, 40, 1500, 1600),
    };
    const br_corr_link links[] = {{40, TAG_B}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, 3, links, 1, TAG_B, 0);
    cr_assert_eq(s.n_tally, 2);
    expect_tally(&s, 0, 7, BR_OP_KERNEL, 1, 100.0);
    expect_tally(&s, 1, 2, BR_OP_KERNEL, 2, 400.0);
    cr_expect_eq(s.kernel_ns, 500.0);
    cr_expect_eq(s.span_ns, 600.0);
    br_sample_ops_dispose(&s);
}

/* Helper records (the L2 flush memset, clock probes) have no link: excluded.
 * Records of another sample are "other". Neither is summed nor spans. */
Test(activity, excluded_and_other_not_summed) {
    const br_op_record ops[] = {
        op(BR_OP_MEMSET, 9, 100, 0, 5000),     /* L2 flush: no link */
        op(BR_OP_KERNEL, 1, 1, 6000, 6250),    /* A */
        op(BR_OP_KERNEL, 8, 101, 6300, 6310),  /* clock probe: no link */
        op(BR_OP_KERNEL, 1, 2, 7000, 7250),    /* B */
        op(BR_OP_KERNEL, 1, 3, 8000, 8250),    /* A */
        op(BR_OP_MEMCPY, 4, 4, 9000, 20000),   /* B */
        op(BR_OP_KERNEL, 1, 102, 30000, 1000), /* malformed, but no link: excluded */
    };
    const br_corr_link links[] = {{1, TAG_A}, {2, TAG_B}, {3, TAG_A}, {4, TAG_B}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), TAG_A, 0);
    cr_expect_eq(s.kernel_ns, 500.0, "kernel %.17g", s.kernel_ns);
    cr_expect_eq(s.span_ns, 2250.0, "span %.17g", s.span_ns);
    cr_expect_eq(s.n_ops, 2);
    cr_expect_eq(s.complete, 1);
    cr_assert_eq(s.n_tally, 1);
    expect_tally(&s, 0, 1, BR_OP_KERNEL, 2, 500.0);
    expect_counts(c, 3, 2, 0);

    /* The same stream attributed to B, into the same result. */
    attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), TAG_B, 0);
    cr_expect_eq(s.kernel_ns, 11250.0, "kernel %.17g", s.kernel_ns);
    cr_expect_eq(s.span_ns, 13000.0, "span %.17g", s.span_ns);
    cr_expect_eq(s.n_ops, 2);
    cr_assert_eq(s.n_tally, 2);
    expect_tally(&s, 0, 1, BR_OP_KERNEL, 1, 250.0);
    expect_tally(&s, 1, 4, BR_OP_MEMCPY, 1, 11000.0);
    expect_counts(c, 3, 2, 0);

    /* A tag nobody pushed: everything linked is "other". */
    attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), 77, 0);
    cr_expect_eq(s.kernel_ns, 0.0);
    cr_expect_eq(s.span_ns, 0.0);
    cr_expect_eq(s.n_ops, 0);
    cr_expect_eq(s.n_tally, 0);
    cr_expect_eq(s.complete, 1);
    expect_counts(c, 3, 4, 0);

    /* counts may be NULL. */
    cr_assert_eq(br_activity_attribute(&s, NULL, ops, N_OF(ops), links, N_OF(links), TAG_A, 0), 0);
    cr_expect_eq(s.kernel_ns, 500.0);
    br_sample_ops_dispose(&s);
}

/* Correlation 5 is linked twice, first to A, then to B: the first link wins,
 * wherever the links sit in the array. Correlation 6 is linked to B then A. */
Test(activity, first_link_wins) {
    const br_op_record ops[] = {
        op(BR_OP_KERNEL, 0, 5, 100, 200),
        op(BR_OP_KERNEL, 1, 6, 300, 700),
    };
    const br_corr_link links[] = {{9, TAG_B}, {5, TAG_A}, {6, TAG_B},
                                  {5, TAG_B}, {6, TAG_A}, {5, TAG_B}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, 2, links, N_OF(links), TAG_A, 0);
    cr_expect_eq(s.kernel_ns, 100.0, "kernel %.17g", s.kernel_ns);
    cr_expect_eq(s.n_ops, 1);
    cr_assert_eq(s.n_tally, 1);
    expect_tally(&s, 0, 0, BR_OP_KERNEL, 1, 100.0);
    expect_counts(c, 0, 1, 0);

    attribute_ok(&s, &c, ops, 2, links, N_OF(links), TAG_B, 0);
    cr_expect_eq(s.kernel_ns, 400.0, "kernel %.17g", s.kernel_ns);
    cr_expect_eq(s.n_ops, 1);
    cr_assert_eq(s.n_tally, 1);
    expect_tally(&s, 0, 1, BR_OP_KERNEL, 1, 400.0);
    expect_counts(c, 0, 1, 0);
    br_sample_ops_dispose(&s);
}

/* CUPTI dropped records while the sample ran: the sample is incomplete, but
 * what arrived is still summed. */
Test(activity, dropped_makes_incomplete) {
    const br_op_record ops[] = {
        op(BR_OP_KERNEL, 0, 1, 100, 400),
        op(BR_OP_KERNEL, 0, 2, 500, 600),
    };
    const br_corr_link links[] = {{1, TAG_A}, {2, TAG_A}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, 2, links, 2, TAG_A, 3);
    cr_expect_eq(s.complete, 0);
    cr_expect_eq(s.kernel_ns, 400.0);
    cr_expect_eq(s.span_ns, 500.0);
    cr_expect_eq(s.n_ops, 2);
    expect_tally(&s, 0, 0, BR_OP_KERNEL, 2, 400.0);
    expect_counts(c, 0, 0, 0);

    /* The next sample, nothing dropped: complete again. */
    attribute_ok(&s, &c, ops, 2, links, 2, TAG_A, 0);
    cr_expect_eq(s.complete, 1);
    br_sample_ops_dispose(&s);
}

/* A record of the tag with end < start: counted, neither summed nor spanned
 * nor tallied, and the sample is incomplete. A malformed record of another
 * tag is only "other". */
Test(activity, malformed_counted_not_summed) {
    const br_op_record ops[] = {
        op(BR_OP_KERNEL, 0, 1, 1000, 1200), op(BR_OP_KERNEL, 1, 2, 5000, 10),   /* malformed, A */
        op(BR_OP_KERNEL, 0, 3, 1300, 1400), op(BR_OP_KERNEL, 2, 4, 9000, 8000), /* malformed, B */
    };
    const br_corr_link links[] = {{1, TAG_A}, {2, TAG_A}, {3, TAG_A}, {4, TAG_B}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), TAG_A, 0);
    cr_expect_eq(s.complete, 0);
    cr_expect_eq(s.kernel_ns, 300.0, "kernel %.17g", s.kernel_ns);
    cr_expect_eq(s.span_ns, 400.0, "span %.17g", s.span_ns);
    cr_expect_eq(s.n_ops, 2);
    cr_assert_eq(s.n_tally, 1);
    expect_tally(&s, 0, 0, BR_OP_KERNEL, 2, 300.0);
    expect_counts(c, 0, 1, 1);

    /* B has only its malformed record. */
    attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), TAG_B, 0);
    cr_expect_eq(s.complete, 0);
    cr_expect_eq(s.kernel_ns, 0.0);
    cr_expect_eq(s.span_ns, 0.0);
    cr_expect_eq(s.n_ops, 0);
    cr_expect_eq(s.n_tally, 0);
    expect_counts(c, 0, 3, 1);

    /* A zero-length record (end == start) is well formed. */
    const br_op_record zero[] = {op(BR_OP_MEMSET, 0, 1, 70, 70)};
    attribute_ok(&s, &c, zero, 1, links, 1, TAG_A, 0);
    cr_expect_eq(s.complete, 1);
    cr_expect_eq(s.n_ops, 1);
    cr_expect_eq(s.kernel_ns, 0.0);
    expect_tally(&s, 0, 0, BR_OP_MEMSET, 1, 0.0);
    br_sample_ops_dispose(&s);
}

/* No operations at all (NULL arrays are fine with a zero count). */
Test(activity, zero_ops) {
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, NULL, 0, NULL, 0, TAG_A, 0);
    cr_expect_eq(s.kernel_ns, 0.0);
    cr_expect_eq(s.span_ns, 0.0);
    cr_expect_eq(s.n_ops, 0);
    cr_expect_eq(s.n_tally, 0);
    cr_expect_eq(s.complete, 1);
    expect_counts(c, 0, 0, 0);

    /* Links but no operations. */
    const br_corr_link links[] = {{1, TAG_A}};
    attribute_ok(&s, &c, NULL, 0, links, 1, TAG_A, 0);
    cr_expect_eq(s.n_ops, 0);
    cr_expect_eq(s.complete, 1);
    expect_counts(c, 0, 0, 0);

    /* Operations but no links: all excluded. */
    const br_op_record ops[] = {op(BR_OP_KERNEL, 0, 1, 1, 2), op(BR_OP_KERNEL, 0, 2, 3, 9)};
    attribute_ok(&s, &c, ops, 2, NULL, 0, TAG_A, 0);
    cr_expect_eq(s.n_ops, 0);
    cr_expect_eq(s.kernel_ns, 0.0);
    cr_expect_eq(s.complete, 1);
    expect_counts(c, 2, 0, 0);

    /* Nothing arrived but something was dropped. */
    attribute_ok(&s, &c, NULL, 0, NULL, 0, TAG_A, 1);
    cr_expect_eq(s.complete, 0);
    br_sample_ops_dispose(&s);
}

/* The tally array is reused: a second call with fewer tallies keeps the
 * storage and sets n_tally. */
Test(activity, tally_storage_reused) {
    const br_op_record three[] = {
        op(BR_OP_KERNEL, 0, 1, 100, 110),
        op(BR_OP_KERNEL, 1, 1, 200, 220),
        op(BR_OP_KERNEL, 2, 1, 300, 330),
    };
    const br_op_record one[] = {op(BR_OP_MEMCPY, 5, 1, 400, 450)};
    const br_corr_link links[] = {{1, TAG_A}};
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, three, 3, links, 1, TAG_A, 0);
    cr_assert_eq(s.n_tally, 3);
    cr_assert_geq(s.cap_tally, 3);
    const br_op_tally *storage = s.tally;
    const size_t cap = s.cap_tally;

    attribute_ok(&s, &c, one, 1, links, 1, TAG_A, 0);
    cr_expect_eq(s.tally, storage);
    cr_expect_eq(s.cap_tally, cap);
    cr_assert_eq(s.n_tally, 1);
    expect_tally(&s, 0, 5, BR_OP_MEMCPY, 1, 50.0);
    cr_expect_eq(s.kernel_ns, 50.0);

    attribute_ok(&s, &c, NULL, 0, links, 1, TAG_A, 0);
    cr_expect_eq(s.tally, storage);
    cr_expect_eq(s.n_tally, 0);

    /* Growing again past the old capacity works. */
    br_op_record many[8];
    for (uint32_t i = 0; i < 8; i++)
        many[i] = op(BR_OP_KERNEL, 7 - i, 1, 1000 + 10 * i, 1005 + 10 * i);
    attribute_ok(&s, &c, many, 8, links, 1, TAG_A, 0);
    cr_assert_eq(s.n_tally, 8);
    cr_assert_geq(s.cap_tally, 8);
    for (uint32_t i = 0; i < 8; i++)
        expect_tally(&s, i, 7 - i, BR_OP_KERNEL, 1, 5.0);
    br_sample_ops_dispose(&s);
}

/* Bad arguments fail with a message instead of crashing; *out is disposed. */
Test(activity, bad_arguments) {
    const br_op_record ops[] = {op(BR_OP_KERNEL, 0, 1, 100, 110)};
    const br_corr_link links[] = {{1, TAG_A}};
    br_sample_ops s = {0};
    cr_assert_eq(br_activity_attribute(&s, NULL, ops, 1, links, 1, TAG_A, 0), 0);
    cr_assert_not_null(s.tally);

    br_error_clear();
    cr_expect_eq(br_activity_attribute(&s, NULL, NULL, 4, links, 1, TAG_A, 0), -1);
    cr_expect_str_neq(br_error_get(), "");
    cr_expect_null(s.tally);
    cr_expect_eq(s.n_tally, 0);
    cr_expect_eq(s.cap_tally, 0);

    br_error_clear();
    cr_expect_eq(br_activity_attribute(&s, NULL, ops, 1, NULL, 2, TAG_A, 0), -1);
    cr_expect_str_neq(br_error_get(), "");

    br_error_clear();
    cr_expect_eq(br_activity_attribute(NULL, NULL, ops, 1, links, 1, TAG_A, 0), -1);
    cr_expect_str_neq(br_error_get(), "");
    br_sample_ops_dispose(&s);
}

/* Neither input array is modified. */
Test(activity, inputs_not_modified) {
    br_op_record ops[] = {
        op(BR_OP_KERNEL, 2, 3, 500, 600),
        op(BR_OP_KERNEL, 1, 1, 100, 200),
        op(BR_OP_KERNEL, 0, 2, 300, 400),
    };
    br_corr_link links[] = {{3, TAG_A}, {1, TAG_A}, {2, TAG_B}, {1, TAG_B}};
    br_op_record ops_copy[N_OF(ops)];
    br_corr_link links_copy[N_OF(links)];
    memcpy(ops_copy, ops, sizeof ops);
    memcpy(links_copy, links, sizeof links);
    br_sample_ops s = {0};
    br_attr_counts c;
    attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), TAG_A, 0);
    cr_expect_eq(memcmp(ops, ops_copy, sizeof ops), 0);
    cr_expect_eq(memcmp(links, links_copy, sizeof links), 0);
    cr_expect_eq(s.kernel_ns, 200.0);
    br_sample_ops_dispose(&s);
}

/* ---- a large stream ------------------------------------------------------- */

#define BIG_TAGS    24
#define BIG_PER_TAG 4096
#define BIG_HELPERS (100000 - BIG_TAGS * BIG_PER_TAG) /* 1696 */
#define BIG_N       (BIG_TAGS * BIG_PER_TAG + BIG_HELPERS)

static uint64_t lcg_state;
static uint32_t lcg(void) {
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(lcg_state >> 33);
}

/* Operation j of tag t: name j % 3, kind kernel (memcpy when j % 5 == 4),
 * start base(t) + 10 j, duration 1 + j % 7. Each pair of operations shares one
 * correlation id (a graph launch of two nodes); helpers have ids without a
 * link. Operations and links are shuffled. */
static uint64_t big_base(unsigned t) {
    return 1000000000ull + 1000000ull * t;
}

Test(activity, large_stream) {
    br_op_record *ops = malloc(BIG_N * sizeof *ops);
    br_corr_link *links = malloc(BIG_TAGS * BIG_PER_TAG / 2 * sizeof *links);
    cr_assert(ops && links);
    size_t n = 0, nl = 0;
    for (unsigned t = 0; t < BIG_TAGS; t++) {
        for (unsigned j = 0; j < BIG_PER_TAG; j++) {
            uint32_t corr = (uint32_t)(t * BIG_PER_TAG + j) / 2 + 1;
            uint64_t start = big_base(t) + 10ull * j;
            br_op_kind kind = j % 5 == 4 ? BR_OP_MEMCPY : BR_OP_KERNEL;
            ops[n++] = op(kind, j % 3, corr, start, start + 1 + j % 7);
            if (j % 2 == 0)
                links[nl++] = (br_corr_link){corr, 1000 + t};
        }
    }
    for (unsigned h = 0; h < BIG_HELPERS; h++)
        ops[n++] = op(BR_OP_MEMSET, 9, 5000000 + h, 10ull * h, 10ull * h + 3);
    cr_assert_eq(n, BIG_N);
    lcg_state = 12345;
    for (size_t i = n - 1; i > 0; i--) {
        size_t k = lcg() % (i + 1);
        br_op_record tmp = ops[i];
        ops[i] = ops[k];
        ops[k] = tmp;
    }
    for (size_t i = nl - 1; i > 0; i--) {
        size_t k = lcg() % (i + 1);
        br_corr_link tmp = links[i];
        links[i] = links[k];
        links[k] = tmp;
    }

    /* Expected, per tag (the same for every tag). Tallies in order of first
     * start: j = 0 (name 0 kernel), 1 (1 kernel), 2 (2 kernel), 4 (1 memcpy),
     * 9 (0 memcpy), 14 (2 memcpy). */
    const uint32_t want_name[6] = {0, 1, 2, 1, 0, 2};
    const br_op_kind want_kind[6] = {BR_OP_KERNEL, BR_OP_KERNEL, BR_OP_KERNEL,
                                     BR_OP_MEMCPY, BR_OP_MEMCPY, BR_OP_MEMCPY};
    size_t want_count[6] = {0};
    double want_sum[6] = {0}, want_kernel = 0;
    for (unsigned j = 0; j < BIG_PER_TAG; j++) {
        unsigned name = j % 3, memcpy_ = j % 5 == 4;
        for (unsigned g = 0; g < 6; g++) {
            if (want_name[g] == name && (want_kind[g] == BR_OP_MEMCPY) == memcpy_) {
                want_count[g]++;
                want_sum[g] += 1 + j % 7;
            }
        }
        want_kernel += 1 + j % 7;
    }
    const double want_span = 10.0 * (BIG_PER_TAG - 1) + 1 + (BIG_PER_TAG - 1) % 7;

    br_sample_ops s = {0};
    br_attr_counts c;
    for (unsigned t = 0; t < BIG_TAGS; t++) {
        attribute_ok(&s, &c, ops, n, links, nl, 1000 + t, 0);
        cr_expect_eq(s.n_ops, BIG_PER_TAG, "tag %u: %zu ops", t, s.n_ops);
        cr_expect_eq(s.kernel_ns, want_kernel, "tag %u: kernel %.17g, want %.17g", t, s.kernel_ns,
                     want_kernel);
        cr_expect_eq(s.span_ns, want_span, "tag %u: span %.17g, want %.17g", t, s.span_ns,
                     want_span);
        cr_expect_eq(s.complete, 1);
        cr_assert_eq(s.n_tally, 6, "tag %u: %zu tallies", t, s.n_tally);
        for (unsigned g = 0; g < 6; g++)
            expect_tally(&s, g, want_name[g], want_kind[g], want_count[g], want_sum[g]);
        expect_counts(c, BIG_HELPERS, (BIG_TAGS - 1) * BIG_PER_TAG, 0);
    }
    /* Sanity of the hand-derived expectation itself: 4096 = 585 weeks of
     * 1..7 (16380) plus 1 (j = 4095, 4095 % 7 = 0). */
    cr_expect_eq(want_kernel, 16381.0);
    cr_expect_eq(want_count[0] + want_count[1] + want_count[2] + want_count[3] + want_count[4] +
                     want_count[5],
                 BIG_PER_TAG);
    br_sample_ops_dispose(&s);
    free(ops);
    free(links);
}

/* ---- breakdown ------------------------------------------------------------ */

static br_op_stat *finish_ok(size_t *n, const br_breakdown *b, const char *const *names,
                             size_t n_names, size_t reps) {
    br_op_stat *v = (br_op_stat *)(uintptr_t)1; /* must be overwritten */
    *n = 12345;
    br_error_clear();
    cr_assert_eq(br_breakdown_finish(&v, n, b, names, n_names, reps), 0, "%s", br_error_get());
    return v;
}

static void add_ok(br_breakdown *b, br_op_tally *t, size_t n_t, double kernel_ns) {
    br_sample_ops s = {.kernel_ns = kernel_ns, .tally = t, .n_tally = n_t, .cap_tally = n_t};
    br_error_clear();
    cr_assert_eq(br_breakdown_add(b, &s), 0, "%s", br_error_get());
}

static void expect_stat(const br_op_stat *st, const char *name, br_op_kind kind, size_t count,
                        double per_exec, double median_ns, double share) {
    cr_expect_str_eq(st->name, name);
    cr_expect_eq(st->kind, kind, "%s: kind %d, want %d", name, (int)st->kind, (int)kind);
    cr_expect_eq(st->count, count, "%s: count %zu, want %zu", name, st->count, count);
    cr_expect_eq(st->per_exec, per_exec, "%s: per_exec %.17g, want %.17g", name, st->per_exec,
                 per_exec);
    cr_expect_eq(st->median_ns, median_ns, "%s: median %.17g, want %.17g", name, st->median_ns,
                 median_ns);
    cr_expect(fabs(st->share - share) <= 1e-15, "%s: share %.17g, want %.17g", name, st->share,
              share);
}

/* Three samples of 2 executions, each enqueuing "gemm" twice and "memcpy
 * DtoD" four times (name 1 is listed first in the tallies of two samples):
 *   sample  kernel  gemm (2 ops) mean   memcpy (4 ops) mean
 *   1       1000    600          300    400            100
 *   2       1300    1000         500    300            75
 *   3        900    400          200    500            125
 * gemm: count 6, per_exec 6 / (3 x 2) = 1, median {300, 500, 200} = 300,
 *       share 2000 / 3200 = 0.625;
 * memcpy: count 12, per_exec 2, median {100, 75, 125} = 100, share 0.375.
 * A fourth sample (kernel 1000: gemm 800 -> mean 400, memcpy 200 -> 50)
 * makes the counts even: gemm median {200, 300, 400, 500} = 350, memcpy
 * {50, 75, 100, 125} = 87.5; per_exec 8 / 8 = 1 and 16 / 8 = 2; shares
 * 2800 / 4200 = 2/3 and 1400 / 4200 = 1/3. */
Test(activity, breakdown_two_names) {
    const char *names[] = {"gemm", "memcpy DtoD"};
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally s1[] = {{1, BR_OP_MEMCPY, 4, 400}, {0, BR_OP_KERNEL, 2, 600}};
    br_op_tally s2[] = {{0, BR_OP_KERNEL, 2, 1000}, {1, BR_OP_MEMCPY, 4, 300}};
    br_op_tally s3[] = {{1, BR_OP_MEMCPY, 4, 500}, {0, BR_OP_KERNEL, 2, 400}};
    add_ok(&b, s1, 2, 1000);
    add_ok(&b, s2, 2, 1300);
    add_ok(&b, s3, 2, 900);
    cr_expect_eq(b.n_samples, 3);
    cr_expect_eq(b.total_ns, 3200.0);

    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, 2, 2);
    cr_assert_eq(n, 2);
    expect_stat(&v[0], "gemm", BR_OP_KERNEL, 6, 1.0, 300.0, 0.625);
    expect_stat(&v[1], "memcpy DtoD", BR_OP_MEMCPY, 12, 2.0, 100.0, 0.375);
    br_op_stats_free(v, n);

    br_op_tally s4[] = {{0, BR_OP_KERNEL, 2, 800}, {1, BR_OP_MEMCPY, 4, 200}};
    add_ok(&b, s4, 2, 1000);
    v = finish_ok(&n, &b, names, 2, 2);
    cr_assert_eq(n, 2);
    expect_stat(&v[0], "gemm", BR_OP_KERNEL, 8, 1.0, 350.0, 2.0 / 3.0);
    expect_stat(&v[1], "memcpy DtoD", BR_OP_MEMCPY, 16, 2.0, 87.5, 1.0 / 3.0);
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
    cr_expect_null(b.entries);
    cr_expect_eq(b.n, 0);
    cr_expect_eq(b.n_samples, 0);
    cr_expect_eq(b.total_ns, 0.0);
}

/* A name missing from some samples: per_exec counts every sample added
 * (empty ones included), the median runs over the samples that have it.
 *   sample 1 (kernel 700): a 1 op 100, b 2 ops 600 (mean 300)
 *   sample 2 (kernel   0): nothing
 *   sample 3 (kernel 500): b 1 op 500
 *   sample 4 (kernel 300): a 3 ops 300 (mean 100)
 * reps 1, 4 samples. a: count 4, per_exec 1, means {100, 100} -> 100, share
 * 400 / 1500; b: count 3, per_exec 0.75, means {300, 500} -> 400, share
 * 1100 / 1500. Order: b, a. */
Test(activity, breakdown_sparse_names) {
    const char *names[] = {"a", "b"};
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally s1[] = {{0, BR_OP_KERNEL, 1, 100}, {1, BR_OP_KERNEL, 2, 600}};
    br_op_tally s3[] = {{1, BR_OP_KERNEL, 1, 500}};
    br_op_tally s4[] = {{0, BR_OP_KERNEL, 3, 300}};
    add_ok(&b, s1, 2, 700);
    add_ok(&b, NULL, 0, 0);
    add_ok(&b, s3, 1, 500);
    add_ok(&b, s4, 1, 300);
    cr_expect_eq(b.n_samples, 4);
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, 2, 1);
    cr_assert_eq(n, 2);
    expect_stat(&v[0], "b", BR_OP_KERNEL, 3, 0.75, 400.0, 1100.0 / 1500.0);
    expect_stat(&v[1], "a", BR_OP_KERNEL, 4, 1.0, 100.0, 400.0 / 1500.0);
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
}

/* Equal shares are ordered by name, then kind; the order the tallies came in
 * does not matter. "big" 300 of 600 first; then "alpha" kernel, "alpha"
 * memset, "zeta", 100 each (1/6). */
Test(activity, breakdown_order_ties) {
    const char *names[] = {"zeta", "alpha", "big"};
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally t[] = {
        {1, BR_OP_MEMSET, 1, 100},
        {0, BR_OP_KERNEL, 1, 100},
        {1, BR_OP_KERNEL, 1, 100},
        {2, BR_OP_KERNEL, 3, 300},
    };
    add_ok(&b, t, 4, 600);
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, 3, 1);
    cr_assert_eq(n, 4);
    expect_stat(&v[0], "big", BR_OP_KERNEL, 3, 3.0, 100.0, 0.5);
    expect_stat(&v[1], "alpha", BR_OP_KERNEL, 1, 1.0, 100.0, 1.0 / 6.0);
    expect_stat(&v[2], "alpha", BR_OP_MEMSET, 1, 1.0, 100.0, 1.0 / 6.0);
    expect_stat(&v[3], "zeta", BR_OP_KERNEL, 1, 1.0, 100.0, 1.0 / 6.0);
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
}

/* Name indexes at or past n_names, or with no table, become "?"; the names
 * are copies owned by the result. */
Test(activity, breakdown_names) {
    char buf[] = "kernel_a";
    const char *names[] = {buf, NULL};
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally t[] = {
        {0, BR_OP_KERNEL, 1, 300}, {5, BR_OP_KERNEL, 1, 200}, {1, BR_OP_MEMSET, 1, 100}};
    add_ok(&b, t, 3, 600);
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, 2, 1);
    memset(buf, 'x', sizeof buf - 1);
    cr_assert_eq(n, 3);
    expect_stat(&v[0], "kernel_a", BR_OP_KERNEL, 1, 1.0, 300.0, 0.5);
    expect_stat(&v[1], "?", BR_OP_KERNEL, 1, 1.0, 200.0, 1.0 / 3.0);
    expect_stat(&v[2], "?", BR_OP_MEMSET, 1, 1.0, 100.0, 1.0 / 6.0);
    br_op_stats_free(v, n);

    v = finish_ok(&n, &b, NULL, 0, 1);
    cr_assert_eq(n, 3);
    cr_expect_str_eq(v[0].name, "?");
    cr_expect_str_eq(v[1].name, "?");
    cr_expect_str_eq(v[2].name, "?");
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
}

/* Nothing added, or only empty samples: no statistics, a NULL array. */
Test(activity, breakdown_empty) {
    br_breakdown b;
    br_breakdown_init(&b);
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, NULL, 0, 1);
    cr_expect_null(v);
    cr_expect_eq(n, 0);
    add_ok(&b, NULL, 0, 0);
    v = finish_ok(&n, &b, NULL, 0, 1);
    cr_expect_null(v);
    cr_expect_eq(n, 0);
    cr_expect_eq(b.n_samples, 1);
    br_breakdown_dispose(&b);
}

/* Operations of zero duration: total kernel time 0, share 0 (not NaN). */
Test(activity, breakdown_zero_total) {
    const char *names[] = {"noop"};
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally t[] = {{0, BR_OP_KERNEL, 2, 0}};
    add_ok(&b, t, 1, 0);
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, 1, 4);
    cr_assert_eq(n, 1);
    expect_stat(&v[0], "noop", BR_OP_KERNEL, 2, 0.5, 0.0, 0.0);
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
}

/* One (name, kind) in two tallies of one sample is one per-sample mean:
 * sample 1: 1 op 100 and 3 ops 500 -> 600 / 4 = 150; sample 2: 1 op 300.
 * Median {150, 300} = 225. Tallies of count 0 carry nothing. */
Test(activity, breakdown_split_tally_one_mean) {
    const char *names[] = {"k"};
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally s1[] = {
        {0, BR_OP_KERNEL, 1, 100}, {0, BR_OP_KERNEL, 0, 0}, {0, BR_OP_KERNEL, 3, 500}};
    br_op_tally s2[] = {{0, BR_OP_KERNEL, 1, 300}};
    add_ok(&b, s1, 3, 600);
    add_ok(&b, s2, 1, 300);
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, 1, 1);
    cr_assert_eq(n, 1);
    expect_stat(&v[0], "k", BR_OP_KERNEL, 5, 2.5, 225.0, 1.0);
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
}

/* From records to statistics: three samples of one stream, each with a
 * helper flush between them, through attribution and the breakdown.
 *   sample  tag  gemm ops (ns)   copy ops (ns)
 *   0       10   100, 140        20
 *   1       11   120, 120        40
 *   2       12   90, 110         30
 * reps 2: gemm count 6, per_exec 1, means {120, 120, 100} -> 120, share
 * 680 / 770; copy count 3, per_exec 0.5, median 30, share 90 / 770. */
Test(activity, breakdown_from_records) {
    const char *names[] = {"gemm", "memcpy DtoD"};
    const br_op_record ops[] = {
        op(BR_OP_MEMSET, 9, 900, 0, 50),    op(BR_OP_KERNEL, 0, 1, 100, 200),
        op(BR_OP_KERNEL, 0, 2, 200, 340),   op(BR_OP_MEMCPY, 1, 2, 340, 360),
        op(BR_OP_MEMSET, 9, 901, 400, 450), op(BR_OP_KERNEL, 0, 3, 500, 620),
        op(BR_OP_MEMCPY, 1, 3, 620, 660),   op(BR_OP_KERNEL, 0, 4, 700, 820),
        op(BR_OP_MEMSET, 9, 902, 900, 950), op(BR_OP_KERNEL, 0, 5, 1000, 1090),
        op(BR_OP_KERNEL, 0, 6, 1100, 1210), op(BR_OP_MEMCPY, 1, 6, 1210, 1240),
    };
    const br_corr_link links[] = {{1, 10}, {2, 10}, {3, 11}, {4, 11}, {5, 12}, {6, 12}};
    br_breakdown b;
    br_breakdown_init(&b);
    br_sample_ops s = {0};
    br_attr_counts c;
    for (uint64_t tag = 10; tag <= 12; tag++) {
        attribute_ok(&s, &c, ops, N_OF(ops), links, N_OF(links), tag, 0);
        expect_counts(c, 3, 6, 0);
        cr_expect_eq(s.n_ops, 3);
        cr_assert_eq(br_breakdown_add(&b, &s), 0, "%s", br_error_get());
    }
    br_sample_ops_dispose(&s);
    cr_expect_eq(b.total_ns, 770.0);
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, 2, 2);
    cr_assert_eq(n, 2);
    expect_stat(&v[0], "gemm", BR_OP_KERNEL, 6, 1.0, 120.0, 680.0 / 770.0);
    expect_stat(&v[1], "memcpy DtoD", BR_OP_MEMCPY, 3, 0.5, 30.0, 90.0 / 770.0);
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
}

/* Many distinct names, added in scrambled order over several samples: each
 * keeps its own count and per-sample means. Name i (0..499) appears in every
 * sample k (0..4) with i % 4 + 1 ops of (i + 1) * (k + 1) ns each. */
Test(activity, breakdown_many_names) {
    enum { NAMES = 500, SAMPLES = 5 };
    static char name_buf[NAMES][8];
    const char *names[NAMES];
    for (int i = 0; i < NAMES; i++) {
        snprintf(name_buf[i], sizeof name_buf[i], "k%03d", i);
        names[i] = name_buf[i];
    }
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally t[NAMES];
    double total = 0;
    for (int k = 0; k < SAMPLES; k++) {
        double kernel = 0;
        for (int j = 0; j < NAMES; j++) {
            uint32_t i = (uint32_t)((j * 7 + k * 13) % NAMES); /* 7 is prime to 500 */
            size_t cnt = i % 4 + 1;
            double each = (double)(i + 1) * (k + 1);
            t[j] = (br_op_tally){i, BR_OP_KERNEL, cnt, each * (double)cnt};
            kernel += each * (double)cnt;
        }
        add_ok(&b, t, NAMES, kernel);
        total += kernel;
    }
    size_t n;
    br_op_stat *v = finish_ok(&n, &b, names, NAMES, 1);
    cr_assert_eq(n, NAMES);
    /* Sum of name i: (i % 4 + 1)(i + 1)(1 + 2 + 3 + 4 + 5); median mean
     * (i + 1) * 3. Shares fall as the sums do; check a few exactly and the
     * order throughout. */
    for (size_t r = 0; r < n; r++) {
        int i = atoi(v[r].name + 1);
        double sum = (double)(i % 4 + 1) * (i + 1) * 15;
        cr_expect_eq(v[r].count, (size_t)(i % 4 + 1) * SAMPLES, "%s", v[r].name);
        cr_expect_eq(v[r].median_ns, 3.0 * (i + 1), "%s", v[r].name);
        cr_expect(fabs(v[r].share - sum / total) <= 1e-15, "%s", v[r].name);
        if (r > 0) {
            cr_expect(v[r - 1].share > v[r].share ||
                          (v[r - 1].share == v[r].share && strcmp(v[r - 1].name, v[r].name) < 0),
                      "order at %zu: %s %.17g, %s %.17g", r, v[r - 1].name, v[r - 1].share,
                      v[r].name, v[r].share);
        }
    }
    /* The largest sum: i = 499 (i % 4 = 3): 4 x 500 x 15 = 30000. */
    cr_expect_str_eq(v[0].name, "k499");
    br_op_stats_free(v, n);
    br_breakdown_dispose(&b);
}

Test(activity, breakdown_bad_arguments) {
    br_breakdown b;
    br_breakdown_init(&b);
    br_op_tally t[] = {{0, BR_OP_KERNEL, 1, 10}};
    add_ok(&b, t, 1, 10);

    br_op_stat *v = NULL;
    size_t n = 99;
    br_error_clear();
    cr_expect_eq(br_breakdown_finish(&v, &n, &b, NULL, 0, 0), -1);
    cr_expect_str_neq(br_error_get(), "");
    cr_expect_null(v);
    cr_expect_eq(n, 99);

    br_sample_ops bad = {.n_tally = 2};
    br_error_clear();
    cr_expect_eq(br_breakdown_add(&b, &bad), -1);
    cr_expect_str_neq(br_error_get(), "");
    cr_expect_eq(br_breakdown_add(&b, NULL), -1);
    cr_expect_eq(br_breakdown_add(NULL, &bad), -1);
    cr_expect_eq(br_breakdown_finish(&v, &n, NULL, NULL, 0, 1), -1);
    cr_expect_eq(b.n_samples, 1, "failed adds must not count");
    br_breakdown_dispose(&b);
}

/* Every dispose and free accepts NULL (and a zeroed struct). */
Test(activity, dispose_accepts_null) {
    br_sample_ops_dispose(NULL);
    br_breakdown_dispose(NULL);
    br_breakdown_init(NULL);
    br_op_stats_free(NULL, 0);
    br_op_stats_free(NULL, 3);
    br_sample_ops s = {0};
    br_sample_ops_dispose(&s);
    br_sample_ops_dispose(&s);
    br_breakdown b;
    br_breakdown_init(&b);
    br_breakdown_dispose(&b);
    br_breakdown_dispose(&b);
    cr_expect_null(b.entries);
    cr_expect_null(s.tally);
}

/* ---- work outside the case's stream (flag S) --------------------------------- */

/* The case's stream is 7 in context 1 (op() puts every operation there). */
static const br_op_home home71 = {1, 1, 1, 7};

Test(activity_home, operations_on_the_case_stream_are_not_counted) {
    br_op_record ops[] = {op(BR_OP_KERNEL, 0, 10, 100, 200), op(BR_OP_MEMSET, 1, 11, 200, 250)};
    br_corr_link links[] = {{10, TAG_A}, {11, TAG_A}};
    br_sample_ops s = {0};
    cr_assert_eq(br_activity_attribute_home(&s, NULL, ops, 2, links, 2, TAG_A, 0, &home71), 0);
    cr_assert_eq(s.n_ops, 2);
    cr_assert_eq(s.n_other_stream, 0);
    cr_assert_eq(s.n_other_context, 0);
    cr_assert_eq(s.escaped_name, UINT32_MAX);
    br_sample_ops_dispose(&s);
}

Test(activity_home, another_stream_and_another_context_are_counted_apart) {
    /* The sample launched kernel 3 on stream 9 (its own stream) twice and
     * kernel 4 in context 2; kernel 5 of another sample on stream 9 and a
     * helper (no link) on stream 12 are not the sample's. */
    br_op_record ops[] = {
        op_on(0, 10, 100, 200, 7, 1), op_on(3, 11, 110, 400, 9, 1), op_on(3, 12, 400, 700, 9, 1),
        op_on(4, 13, 120, 150, 7, 2), op_on(5, 14, 120, 150, 9, 1), op_on(6, 15, 0, 50, 12, 1),
    };
    br_corr_link links[] = {{10, TAG_A}, {11, TAG_A}, {12, TAG_A}, {13, TAG_A}, {14, TAG_B}};
    br_sample_ops s = {0};
    br_attr_counts c;
    cr_assert_eq(
        br_activity_attribute_home(&s, &c, ops, N_OF(ops), links, N_OF(links), TAG_A, 0, &home71),
        0, "%s", br_error_get());
    cr_assert_eq(s.n_ops, 4);
    cr_assert_eq(s.n_other_stream, 2);
    cr_assert_eq(s.n_other_context, 1, "context 2 counts as another context, not another stream");
    cr_assert_eq(s.escaped_name, 3, "the first escaped operation in record order");
    cr_assert_eq(c.excluded, 1);
    cr_assert_eq(c.other, 1);
    /* The kernel clock still counts the escaped work. */
    cr_assert_float_eq(s.kernel_ns, 100.0 + 290.0 + 300.0 + 30.0, 1e-9);
    br_sample_ops_dispose(&s);
}

Test(activity_home, without_a_context_only_the_stream_is_checked) {
    br_op_record ops[] = {op_on(0, 10, 100, 200, 7, 2), op_on(1, 11, 100, 200, 8, 3)};
    br_corr_link links[] = {{10, TAG_A}, {11, TAG_A}};
    br_op_home stream_only = {0, 0, 1, 7};
    br_sample_ops s = {0};
    cr_assert_eq(br_activity_attribute_home(&s, NULL, ops, 2, links, 2, TAG_A, 0, &stream_only), 0);
    cr_assert_eq(s.n_other_context, 0);
    cr_assert_eq(s.n_other_stream, 1);
    cr_assert_eq(s.escaped_name, 1);
    br_sample_ops_dispose(&s);
}

Test(activity_home, no_home_checks_nothing_and_malformed_records_still_count) {
    br_op_record ops[] = {op_on(0, 10, 300, 200, 9, 1)}; /* end < start, on stream 9 */
    br_corr_link links[] = {{10, TAG_A}};
    br_sample_ops s = {0};
    cr_assert_eq(br_activity_attribute_home(&s, NULL, ops, 1, links, 1, TAG_A, 0, NULL), 0);
    cr_assert_eq(s.n_other_stream + s.n_other_context, 0);
    cr_assert_eq(br_activity_attribute_home(&s, NULL, ops, 1, links, 1, TAG_A, 0, &home71), 0);
    cr_assert_eq(s.complete, 0);
    cr_assert_eq(s.n_other_stream, 1, "a malformed record's work ran all the same");
    br_sample_ops_dispose(&s);
}

Test(activity_home, graph_nodes_on_their_own_streams_are_not_counted) {
    /* A graph launched on stream 7 ran its nodes on streams 20 and 21. */
    br_op_record ops[] = {op_on(0, 10, 100, 200, 20, 1), op_on(0, 10, 200, 300, 21, 1)};
    ops[0].graph = ops[1].graph = 5;
    br_corr_link links[] = {{10, TAG_A}};
    br_sample_ops s = {0};
    cr_assert_eq(br_activity_attribute_home(&s, NULL, ops, 2, links, 1, TAG_A, 0, &home71), 0);
    cr_assert_eq(s.n_ops, 2);
    cr_assert_eq(s.n_other_stream + s.n_other_context, 0);
    br_sample_ops_dispose(&s);
}
