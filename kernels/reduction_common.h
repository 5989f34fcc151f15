/* SPDX-License-Identifier: Apache-2.0 */
/* reduction_common.h - inputs, reference and tolerance shared by the reduction
 * modules (reduction.cu and reduction_cpu.c). Header-only, C11 and C++, so the
 * modules share no code at link time. Both modules draw the same inputs for
 * the same seed.
 *
 * Inputs are quantized: x = k/64 with k uniform in {-64..-1, 1..64} (never 0).
 * Every value is exact in float32, and so is every partial sum of any subset
 * of them while |partial| < 2^18 (a multiple of 2^-6 below 2^18 needs at most
 * 24 significant bits). The values have mean 0, so partial sums stay near
 * sqrt(count) (about 9.5e3 for 2^28 values), and a correct kernel returns the
 * exact sum whatever its order of summation. The reference is the exact sum,
 * kept as an integer count of 1/64ths. */
#ifndef BR_REDUCTION_COMMON_H
#define BR_REDUCTION_COMMON_H

#include <stdint.h>

#include "benchrun_kernel.h"

/* Fill x[0..count) from the generator state *rng and return the sum of the
 * values in units of 1/64. One splitmix64 draw gives 8 values (a byte each:
 * bit 7 the sign, bits 0-5 the magnitude minus one). Filling a buffer in
 * chunks gives the same values as filling it at once as long as every chunk
 * but the last has a length that is a multiple of 8. */
/* br_red_k also runs on the GPU (reduction.cu generates the inputs there). */
#ifdef __CUDACC__
#define BR_RED_HD __host__ __device__
#else
#define BR_RED_HD
#endif

static inline BR_RED_HD int32_t br_red_k(uint64_t byte) {
    int32_t k = (int32_t)(byte & 63u) + 1;
    int32_t neg = -(int32_t)((byte >> 7) & 1u); /* 0 or -1 */
    return (k ^ neg) - neg;                     /* k or -k, without a branch */
}

static inline int64_t br_red_fill(float *x, int64_t count, uint64_t *rng) {
    int64_t sum = 0;
    int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t bits = br_splitmix64(rng);
        for (int j = 0; j < 8; j++) {
            int32_t k = br_red_k(bits >> (8 * j));
            x[i + j] = (float)k * (1.0f / 64.0f);
            sum += k;
        }
    }
    if (i < count) { /* 1 to 7 values left */
        uint64_t bits = br_splitmix64(rng);
        int rest = (int)(count - i);
        for (int j = 0; j < rest; j++) {
            int32_t k = br_red_k(bits >> (8 * j));
            x[i + j] = (float)k * (1.0f / 64.0f);
            sum += k;
        }
    }
    return sum;
}

/* Tolerance for a float32 sum of n values whose exact sum is ref:
 *
 *     tol = 2^-24 * (ceil(log2 n) + 1) * (|ref| + 1) + 1/256
 *
 * 2^-24 is the float32 unit roundoff u. A tree (pairwise) summation of n
 * terms has an error bound of about u * depth * (size of the sums it forms),
 * with depth = ceil(log2 n) + 1. The kernels are trees only in part: per-thread
 * loops, the CPU module's lanes and the atomics into one accumulator are
 * sequential chains, whose worst-case bound grows with their length. With
 * these inputs that does not matter: every partial sum is exact (see the top
 * of the file), so a correct kernel returns the exact sum, and the tolerance
 * only has to leave room for a few honest roundings, not to bound the worst
 * case. That is also why the magnitude term is |ref| + 1 and not sum |x|
 * (about n/2, which would hide many dropped elements).
 * The absolute term 1/256 is a quarter of the smallest element magnitude 1/64,
 * so for small and moderate n a dropped or double-counted element is always
 * caught. For large n with a large |ref| the relative term can exceed 1/64
 * (n = 2^28, |ref| ~ 1e4 gives tol ~ 0.02), so only elements larger than tol
 * are then guaranteed to be caught. */
static inline double br_red_tolerance(int64_t n, double ref) {
    int depth = 1; /* ceil(log2 n) + 1, without libm */
    while (depth < 63 && ((int64_t)1 << (depth - 1)) < n)
        depth++;
    double aref = ref < 0 ? -ref : ref;
    return (1.0 / 16777216.0) * depth * (aref + 1.0) + 1.0 / 256.0;
}

/* 0 when got matches ref within br_red_tolerance, else c->api->fail(...). */
static inline int br_red_check(br_case *c, int64_t n, float got, double ref) {
    double tol = br_red_tolerance(n, ref);
    double err = (double)got - ref;
    if (err < 0)
        err = -err;
    if (got != got || !(err <= tol)) /* NaN, or an infinite or large error */
        return c->api->fail(c, "sum is %.9g, expected %.9g (|error| %.3g > tolerance %.3g)",
                            (double)got, ref, err, tol);
    return 0;
}

/* Read the parameter n and check it is >= 1. */
static inline int br_red_param_n(br_case *c, int64_t *out) {
    if (c->api->param(c, "n", out) != 0)
        return -1;                         /* the runner recorded the error */
    if (*out < 1 || *out > INT64_MAX / 16) /* keeps byte counts (n * 16) from overflowing */
        return c->api->fail(c, "parameter n must be between 1 and %lld, got %lld",
                            (long long)(INT64_MAX / 16), (long long)*out);
    return 0;
}

#endif
