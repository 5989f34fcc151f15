/* SPDX-License-Identifier: Apache-2.0 */
/* The gemm suite's error bound, without a GPU: host models of the kernels it
 * checks (inputs rounded into FP16, BF16, E4M3 or cut to TF32; products
 * summed as the Tensor Cores sum them, in blocks with the FP32 sum truncated,
 * or, for FP8, in 14-bit chunks of 128; the output rounded) pass the bound of
 * their own rule at every k of the suite, and the same models with a wrong
 * index (column j + 1 of B for column j) fail it at every k. The bound and
 * the rules are the very header the kernel module's verify uses. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdlib.h>

#include "../../kernels/benchrun_kernel.h"
#include "../../kernels/gemm_tolerance.h"

/* x rounded to p significant bits, exponent at least emin (subnormals below
 * it), to nearest (ties to even) or toward zero. */
static double round_sig(double x, int p, int emin, int toward_zero) {
    if (x == 0.0)
        return 0.0;
    int e = ilogb(x);
    if (e < emin)
        e = emin;
    const double q = ldexp(1.0, e - p + 1);
    const double r = x / q; /* exact: a power of two */
    return (toward_zero ? trunc(r) : rint(r)) * q;
}

/* How a model kernel rounds. */
typedef struct model {
    int in_bits, in_emin, in_cut; /* stored input (0 bits: FP32 as drawn) */
    int cut_bits;                 /* TF32: inputs cut to this many bits in the kernel */
    int chunk, chunk_bits;        /* FP8: narrow chunks before FP32 */
    int out_bits, out_emin;       /* output format */
    br_gemm_rule rule;
} model;

static const model fp16 = {11, -14, 0, 0, 0, 0, 11, -14, BR_GEMM_RULE_FP16};
static const model bf16 = {8, -126, 0, 0, 0, 0, 8, -126, BR_GEMM_RULE_BF16};
static const model tf32 = {0, 0, 0, 11, 0, 0, 24, -126, BR_GEMM_RULE_TF32};
static const model fp8 = {4, -6, 0, 0, 128, 14, 11, -14, BR_GEMM_RULE_FP8};

#define DIM 16 /* m = n = DIM; B has DIM + 1 columns for the wrong index */

/* n values uniform in [-1, 1) (multiples of 2^-23, as the suite draws them),
 * stored in the model's input format. */
static void draw(const model *md, double *x, int64_t n, uint64_t seed) {
    for (int64_t i = 0; i < n; i++) {
        const double v = (double)(br_splitmix64(&seed) >> 40) * 0x1p-23 - 1.0;
        x[i] = md->in_bits ? round_sig(v, md->in_bits, md->in_emin, 0) : round_sig(v, 24, -126, 0);
    }
}

/* The model's C = a . b over k terms: block FMAs of 4 products with the FP32
 * sum truncated (Fasi et al. 2021), or 14-bit truncated chunks of 128 added
 * into FP32 (FP8); then rounded to the output format. */
static double model_dot(const model *md, const double *a, const double *b, int64_t k) {
    double acc = 0.0;
    if (md->chunk) {
        for (int64_t p0 = 0; p0 < k; p0 += md->chunk) {
            double part = 0.0;
            for (int64_t p = p0; p < k && p < p0 + md->chunk; p++)
                part = round_sig(part + a[p] * b[p], md->chunk_bits, -126, 1);
            acc = round_sig(acc + part, 24, -126, 1);
        }
    } else {
        for (int64_t p0 = 0; p0 < k; p0 += 4) {
            double s = acc;
            for (int64_t p = p0; p < k && p < p0 + 4; p++) {
                const double x = md->cut_bits ? round_sig(a[p], md->cut_bits, -126, 1) : a[p];
                const double y = md->cut_bits ? round_sig(b[p], md->cut_bits, -126, 1) : b[p];
                s += x * y;
            }
            acc = round_sig(s, 24, -126, 1);
        }
    }
    return round_sig(acc, md->out_bits, md->out_emin, 0);
}

static double norm2(const double *x, int64_t k) {
    double s = 0.0;
    for (int64_t p = 0; p < k; p++)
        s += x[p] * x[p];
    return sqrt(s);
}

/* Entries of the DIM x DIM product (rows of A times rows of Bt, as the suite
 * stores B) that the model computes outside the bound; with `shift`, column
 * j of C is computed from row j + 1 of Bt (a wrong index). */
static int count_off(const model *md, int64_t k, int shift) {
    double *a = malloc(sizeof(double) * DIM * (size_t)k);
    double *b = malloc(sizeof(double) * (DIM + 1) * (size_t)k);
    cr_assert(a && b);
    draw(md, a, DIM * k, 0x1234u + (uint64_t)k);
    draw(md, b, (DIM + 1) * k, 0x9876u + (uint64_t)k);
    const double g = br_gemm_scale(&md->rule, k);
    int off = 0;
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            const double *ai = a + i * k, *bj = b + j * k;
            double ref = 0.0;
            for (int64_t p = 0; p < k; p++)
                ref += ai[p] * bj[p];
            const double got = model_dot(md, ai, bj + shift * k, k);
            const double bound =
                br_gemm_bound(g, md->rule.u_out, md->rule.tiny, norm2(ai, k) * norm2(bj, k), ref);
            if (!(fabs(got - ref) <= bound))
                off++;
        }
    free(a);
    free(b);
    return off;
}

static const int64_t suite_k[] = {16, 1024, 4096, 16384};

static void right_and_wrong(const model *md, const char *name) {
    for (size_t t = 0; t < sizeof suite_k / sizeof suite_k[0]; t++) {
        const int64_t k = suite_k[t];
        cr_expect_eq(count_off(md, k, 0), 0, "%s k=%lld: a right kernel fails the bound", name,
                     (long long)k);
        const int wrong = count_off(md, k, 1);
        cr_expect_gt(wrong, 0, "%s k=%lld: a wrong index passes every entry", name, (long long)k);
        cr_log_info("%s k=%lld: wrong index, %d of %d entries off", name, (long long)k, wrong,
                    DIM * DIM);
    }
}

Test(gemm_tolerance, fp16_right_passes_wrong_index_fails) {
    right_and_wrong(&fp16, "FP16");
}

Test(gemm_tolerance, bf16_right_passes_wrong_index_fails) {
    right_and_wrong(&bf16, "BF16");
}

Test(gemm_tolerance, tf32_right_passes_wrong_index_fails) {
    right_and_wrong(&tf32, "TF32");
}

Test(gemm_tolerance, fp8_right_passes_wrong_index_fails) {
    right_and_wrong(&fp8, "FP8");
}

/* A model that rounds more coarsely than its rule allows (FP16 accumulation
 * declared as FP32) is caught at a large k: the bound is not so loose that
 * any arithmetic passes. */
Test(gemm_tolerance, a_narrower_accumulator_than_declared_fails) {
    model half_acc = fp16;
    half_acc.chunk = 16384;
    half_acc.chunk_bits = 11; /* every partial sum truncated to FP16 */
    cr_expect_gt(count_off(&half_acc, 16384, 0), 0);
}

Test(gemm_tolerance, gamma_is_k_u_over_one_minus_k_u_and_infinite_past_one) {
    cr_expect_eq(br_gemm_gamma(1024, 0x1p-23), 0x1p-13 / (1.0 - 0x1p-13));
    cr_expect_eq(br_gemm_gamma(1, 0.5), 1.0);
    cr_expect(isinf(br_gemm_gamma(8192, 0x1p-13)));
    /* FP8: the chunked accumulator keeps the bound finite past 2^13 terms. */
    const br_gemm_rule r = BR_GEMM_RULE_FP8;
    cr_expect(isfinite(br_gemm_scale(&r, 16384)));
    cr_expect_lt(br_gemm_scale(&r, 16384), 0.02);
}
