/* SPDX-License-Identifier: Apache-2.0 */
/* The error bound that the gemm suite's verify holds every entry of C to:
 * how far a correct low-precision GEMM (Tensor Core inputs, FP32 or narrower
 * accumulation, a rounded output) may lie from the exact product of the
 * inputs it was given. Plain C, also compiled by nvcc for the device, so a
 * host test checks the same arithmetic that verify uses.
 *
 * The rule (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd
 * ed., SIAM 2002, sections 3.1 and 3.5: a sum of k terms, each product
 * carried through at most k roundings of unit roundoff u, in any order,
 * with or without fused multiply-adds, is off by at most gamma_k sum |a b|,
 * gamma_k = k u / (1 - k u)):
 *
 *   |C^ - C| <= g * N + u_out * (|ref| + g * N) + tiny
 *
 * for an entry C = sum_p a_p b_p of the exact product of the stored inputs,
 * with N >= sum_p |a_p b_p| (the suite uses the Cauchy-Schwarz bound
 * |a|_2 |b|_2 >= sum |a b|), ref the FP64 reference, and
 *
 *   g = (2 u_in + u_in^2 + acc (1 + 2 u_in + u_in^2) + gamma_k(2^-53)) (1 + 2^-30)
 *
 *   u_in   rounding of the inputs inside the kernel (TF32: FP32 inputs cut
 *          to a 10-bit fraction; 2^-10 covers truncation as well as
 *          rounding to nearest); a product of two such inputs is off by at
 *          most 2 u_in + u_in^2 of itself. 0 when the kernel multiplies the
 *          stored values exactly (FP16, BF16 and FP8 products are exact in
 *          the FP32 accumulator).
 *   acc    the accumulation: gamma_k(u_acc) when every partial sum is held
 *          in one format; u_acc = 2^-23 for FP32, twice 2^-24, because the
 *          Tensor Cores' block fused multiply-add aligns and truncates
 *          instead of rounding to nearest (Blanchard, Higham, Lopez, Mary,
 *          Pranesh, "Mixed precision block fused multiply-add: error analysis
 *          and application to GPU tensor cores", SIAM J. Sci. Comput. 42(3),
 *          2020; Fasi, Higham, Mikaitis, Pranesh, "Numerical behavior of
 *          NVIDIA tensor cores", PeerJ Comput. Sci. 7:e330, 2021).
 *          With chunk > 0, chunks of at most `chunk` terms are summed in a
 *          narrower accumulator of unit u_chunk and the chunk sums added in
 *          FP32: acc = gamma_chunk(u_chunk) + gamma_{ceil(k/chunk)+1}(u_acc)
 *          (1 + gamma_chunk(u_chunk)) (the FP8 Tensor Core path of Hopper
 *          keeps about 14 bits while it accumulates, DeepSeek-AI,
 *          "DeepSeek-V3 Technical Report", arXiv:2412.19437, section 3.3.2;
 *          cuBLASLt without fast accumulation promotes the partial sums to
 *          FP32 periodically).
 *   the reference's own error: an FP64 GEMM, gamma_k(2^-53); the factor
 *          1 + 2^-30 covers the FP64 evaluation of the norms and the test.
 *   u_out  rounding of the result to the output format, of the accumulated
 *          value, which lies within g N of ref: one unit in the last place
 *          (2^-10 FP16, 2^-7 BF16, 2^-23 FP32), twice the unit roundoff, so
 *          that rounding toward zero in an epilogue passes as well as
 *          rounding to nearest; tiny covers an output in the subnormal
 *          range (the smallest subnormal spacing).
 *
 * The bound is rigorous for the model above, so a correct kernel passes at
 * every size; it grows like k u, so a kernel that gets an entry wrong by
 * about |C| (a wrong index, a wrong layout) fails at every size of the
 * suite. */
#ifndef BR_GEMM_TOLERANCE_H
#define BR_GEMM_TOLERANCE_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define BR_GEMM_HD __host__ __device__ __forceinline__
#else
#define BR_GEMM_HD static inline
#endif

/* How a kernel computes, for its bound: unit roundoffs (dimensionless). */
typedef struct br_gemm_rule {
    double u_in;    /* input rounding inside the kernel; 0 when none */
    double u_acc;   /* the FP32 (or wider) accumulation */
    int chunk;      /* terms per narrow-accumulator chunk; 0 when none */
    double u_chunk; /* the narrow accumulator's unit roundoff (chunk > 0) */
    double u_out;   /* rounding to the output format */
    double tiny;    /* absolute term: the output format's subnormal spacing */
} br_gemm_rule;

/* The rules of the suite's kernels, as initializers of a br_gemm_rule:
 * FP32 accumulation at 2^-23 (truncating block FMAs); output rounding of one
 * unit in the last place (any faithful rounding, to nearest or toward zero):
 * 2^-10 for FP16 (subnormal spacing 2^-24), 2^-7 for BF16 (2^-133), 2^-23
 * for FP32 (2^-149); TF32 inputs cut to 10 fraction bits (2^-10); FP8 E4M3
 * products exact, summed in chunks of at most 128 at about 14 bits (2^-13)
 * before FP32. */
/* clang-format off */
#define BR_GEMM_RULE_FP16 {0.0,     0x1p-23, 0,   0.0,     0x1p-10, 0x1p-24}
#define BR_GEMM_RULE_BF16 {0.0,     0x1p-23, 0,   0.0,     0x1p-7,  0x1p-133}
#define BR_GEMM_RULE_TF32 {0x1p-10, 0x1p-23, 0,   0.0,     0x1p-23, 0x1p-149}
#define BR_GEMM_RULE_FP8  {0.0,     0x1p-23, 128, 0x1p-13, 0x1p-10, 0x1p-24}
/* clang-format on */

/* gamma_n(u) = n u / (1 - n u) (Higham, section 3.1); infinity when n u >= 1,
 * where the bound says nothing. */
BR_GEMM_HD double br_gemm_gamma(double n, double u) {
    const double nu = n * u;
    return nu < 1.0 ? nu / (1.0 - nu) : INFINITY;
}

/* g of the rule for inner dimension k >= 1 (see the head of this header):
 * the bound on |C^ - ref| before output rounding, per unit of N. */
BR_GEMM_HD double br_gemm_scale(const br_gemm_rule *r, int64_t k) {
    const double kd = (double)k;
    const double in = 2.0 * r->u_in + r->u_in * r->u_in;
    double acc;
    if (r->chunk > 0) {
        const double chunks = ceil(kd / (double)r->chunk);
        const double c = br_gemm_gamma(kd < (double)r->chunk ? kd : (double)r->chunk, r->u_chunk);
        acc = c + br_gemm_gamma(chunks + 1.0, r->u_acc) * (1.0 + c);
    } else {
        acc = br_gemm_gamma(kd, r->u_acc);
    }
    return (in + acc * (1.0 + in) + br_gemm_gamma(kd, 0x1p-53)) * (1.0 + 0x1p-30);
}

/* The largest |got - ref| a correct kernel may produce at an entry whose
 * sum |a b| is at most norm_product, with g = br_gemm_scale(r, k). */
BR_GEMM_HD double br_gemm_bound(double g, double u_out, double tiny, double norm_product,
                                double ref) {
    const double acc = g * norm_product;
    return acc + u_out * (fabs(ref) + acc) + tiny;
}

#endif
