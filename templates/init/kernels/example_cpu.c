/* example_cpu.c - a host kernel module for benchrun: SAXPY out of place,
 * z = a * x + y over n float32 values, on one CPU core.
 *
 * benchrun compiles this file at run time (cc -O3 -march=native -shared
 * -fPIC), loads it and calls, per case (one kernel at one value of n):
 *
 *   setup     allocate and fill the inputs (random, never zero)
 *   run       execute the kernel once (benchrun times many runs)
 *   verify    after a run: check every output against a reference computed
 *             in higher precision (double), with a tolerance
 *   teardown  release what setup made (benchrun frees its own allocations)
 *
 * The kernel table at the bottom names the kernels the suite lists. The
 * header comes with benchrun (benchrun finds it; no -I needed).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "benchrun_kernel.h"

/* The scalar a. 1.5 has two significant bits, so a * x and a * x + y are
 * exact in double for the inputs below: the reference has no rounding. */
#define SAXPY_A 1.5f

/* float32's unit roundoff, 2^-24. */
#define F32_U (1.0 / 16777216.0)

typedef struct saxpy_state {
    int64_t n;
    float *x, *y; /* inputs (runner allocations, freed by benchrun) */
    float *z;     /* output (runner allocation) */
} saxpy_state;

/* A random float in +-[0.5, 1.5): 23 random bits above 0.5 and a random
 * sign, never zero, so a skipped or doubled element changes the result. */
static float draw(uint64_t *rng) {
    const uint64_t r = br_splitmix64(rng);
    const float mag = 0.5f + (float)(r >> 41) * (1.0f / 8388608.0f);
    return (r & 1u) ? -mag : mag;
}

static int setup(br_case *c) {
    saxpy_state *s = calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s; /* teardown frees it, even when setup fails below */
    if (c->api->param(c, "n", &s->n) != 0)
        return -1; /* benchrun recorded why */
    if (s->n < 1 || s->n > ((int64_t)1 << 34))
        return c->api->fail(c, "parameter n must be between 1 and 2^34, got %lld", (long long)s->n);
    const size_t bytes = (size_t)s->n * sizeof(float);
    s->x = c->api->alloc(c, bytes, BR_MEM_HOST);
    s->y = c->api->alloc(c, bytes, BR_MEM_HOST);
    s->z = c->api->alloc(c, bytes, BR_MEM_HOST);
    if (!s->x || !s->y || !s->z)
        return -1; /* benchrun recorded why */
    /* The seed is the same for every run of this case: inputs reproduce. */
    uint64_t rng = c->api->seed(c);
    for (int64_t i = 0; i < s->n; i++) {
        s->x[i] = draw(&rng);
        s->y[i] = draw(&rng);
        s->z[i] = NAN; /* until a run writes it: verify sees a missed element */
    }
    return 0;
}

/* One execution. It reads x and y and writes z, so every run computes the
 * same z from the same inputs: nothing carries over to the next run. */
static int run(br_case *c) {
    const saxpy_state *s = c->state;
    const float *restrict x = s->x;
    const float *restrict y = s->y;
    float *restrict z = s->z;
    for (int64_t i = 0; i < s->n; i++)
        z[i] = SAXPY_A * x[i] + y[i];
    return 0;
}

/* Every element against the exact result, computed in double. The float32
 * kernel rounds a * x and then the sum (or, contracted into an FMA, only the
 * sum): its error is at most 2u (|a x| + |y|) with u = 2^-24; the tolerance
 * allows twice that. */
static int verify(br_case *c) {
    const saxpy_state *s = c->state;
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < s->n; i++) {
        const double ax = (double)SAXPY_A * s->x[i], want = ax + s->y[i];
        const double tol = 4.0 * F32_U * (fabs(ax) + fabs((double)s->y[i]));
        if (!(fabs((double)s->z[i] - want) <= tol)) { /* also catches NaN */
            if (first < 0)
                first = i;
            bad++;
        }
    }
    if (bad == 0)
        return 0;
    const double want = (double)SAXPY_A * s->x[first] + s->y[first];
    return c->api->fail(c, "%lld of %lld elements are wrong; first z[%lld] = %.9g, expected %.9g",
                        (long long)bad, (long long)s->n, (long long)first, (double)s->z[first],
                        want);
}

static void teardown(br_case *c) {
    free(c->state); /* x, y, z are benchrun's; state may be NULL */
    c->state = NULL;
}

/* The kernels of this module: {name, setup, run, verify, teardown, arg}
 * (arg: a per-kernel datum for c->api->arg(c), so kernels that differ in
 * one setting can share setup; none here). */
static const br_kernel kernels[] = {
    {"saxpy_cpu", setup, run, verify, teardown, NULL},
};
BR_MODULE(kernels);
