/* SPDX-License-Identifier: Apache-2.0 */
/* reduction_cpu.c - host reference point for the reduction suite: the float32
 * sum of n values on one CPU core.
 *
 *   reduce_cpu   32 independent float accumulators, so that -O3 -march=native
 *                keeps them in vector registers (no -ffast-math needed).
 *
 * Parameter: n (int64, >= 1). Inputs, reference and tolerance come from
 * reduction_common.h, the same as the GPU module's. */
#include <math.h>
#include <stdlib.h>

#include "benchrun_kernel.h"
#include "reduction_common.h"

#define LANES 32 /* 4 AVX (8 SSE) registers: enough independent adds to hide their latency */

typedef struct red_cpu_state {
    int64_t n;
    const float *x; /* runner allocation */
    double ref;     /* exact sum of x */
    float result;   /* written by run, read by verify */
} red_cpu_state;

static int setup(br_case *c) {
    red_cpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s;
    if (br_red_param_n(c, &s->n) != 0)
        return -1;
    float *x = c->api->alloc(c, (size_t)s->n * sizeof(float), BR_MEM_HOST);
    if (!x)
        return -1; /* the runner recorded the error */
    uint64_t rng = c->api->seed(c);
    s->ref = (double)br_red_fill(x, s->n, &rng) / 64.0;
    s->x = x;
    s->result = NAN; /* until the first run */
    return 0;
}

static int run(br_case *c) {
    red_cpu_state *s = c->state;
    const float *restrict x = s->x;
    const int64_t n = s->n;
    const int64_t body = n - n % LANES;
    float acc[LANES] = {0};
    for (int64_t i = 0; i < body; i += LANES)
        for (int j = 0; j < LANES; j++)
            acc[j] += x[i + j];
    for (int64_t i = body; i < n; i++)
        acc[i - body] += x[i];
    /* Combine the lanes pairwise. */
    for (int w = LANES / 2; w > 0; w /= 2)
        for (int j = 0; j < w; j++)
            acc[j] += acc[j + w];
    /* A store through the state pointer, which the caller reads back in
     * verify: the compiler cannot drop the work. */
    s->result = acc[0];
    return 0;
}

static int verify(br_case *c) {
    red_cpu_state *s = c->state;
    return br_red_check(c, s->n, s->result, s->ref);
}

static void teardown(br_case *c) {
    free(c->state); /* x is a runner allocation; state may be NULL */
    c->state = NULL;
}

static const br_kernel kernels[] = {
    {"reduce_cpu", setup, run, verify, teardown},
};
BR_MODULE(kernels);
