/* axpy.c - z = a*x + y over n values on one CPU core, in float32 (saxpy)
 * and float64 (daxpy): a complete benchrun host kernel module. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "benchrun_kernel.h"

#define A 2.5 /* the scalar a (exact in float and double) */

typedef struct state {
    int64_t n;
    int f64;         /* 0: float, 1: double (the kernel's arg) */
    void *x, *y, *z; /* runner allocations, freed by benchrun after teardown */
} state;

static const int F32 = 0, F64 = 1;

static int setup(br_case *c) {
    state *s = calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory");
    c->state = s; /* teardown frees it, whatever fails below */
    if (c->api->param(c, "n", &s->n) != 0)
        return -1; /* benchrun recorded why */
    s->f64 = *(const int *)c->api->arg(c);
    size_t bytes = (size_t)s->n * (s->f64 ? sizeof(double) : sizeof(float));
    s->x = c->api->alloc(c, bytes, BR_MEM_HOST);
    s->y = c->api->alloc(c, bytes, BR_MEM_HOST);
    s->z = c->api->alloc(c, bytes, BR_MEM_HOST);
    if (!s->x || !s->y || !s->z)
        return -1;
    uint64_t rng = c->api->seed(c); /* the same inputs on every run of this case */
    for (int64_t i = 0; i < s->n; i++) {
        double x = (double)(br_splitmix64(&rng) >> 11) / 9007199254740992.0; /* [0, 1) */
        double y = (double)(br_splitmix64(&rng) >> 11) / 9007199254740992.0;
        if (s->f64) {
            ((double *)s->x)[i] = x;
            ((double *)s->y)[i] = y;
        } else {
            ((float *)s->x)[i] = (float)x;
            ((float *)s->y)[i] = (float)y;
        }
    }
    return 0;
}

/* One execution; benchrun times it, many times over. */
static int run(br_case *c) {
    state *s = c->state;
    if (s->f64) {
        const double *restrict x = s->x, *restrict y = s->y;
        double *restrict z = s->z;
        for (int64_t i = 0; i < s->n; i++)
            z[i] = A * x[i] + y[i];
    } else {
        const float *restrict x = s->x, *restrict y = s->y;
        float *restrict z = s->z;
        for (int64_t i = 0; i < s->n; i++)
            z[i] = (float)A * x[i] + y[i];
    }
    return 0;
}

/* Every element against a*x + y in double precision, within a few rounding
 * errors of the kernel's type. */
static int verify(br_case *c) {
    state *s = c->state;
    double eps = s->f64 ? DBL_EPSILON : FLT_EPSILON;
    for (int64_t i = 0; i < s->n; i++) {
        double x = s->f64 ? ((double *)s->x)[i] : ((float *)s->x)[i];
        double y = s->f64 ? ((double *)s->y)[i] : ((float *)s->y)[i];
        double z = s->f64 ? ((double *)s->z)[i] : ((float *)s->z)[i];
        double want = A * x + y;
        if (!(fabs(z - want) <= 4 * eps * want)) /* NaN fails too */
            return c->api->fail(c, "z[%lld] is %.17g, expected %.17g", (long long)i, z, want);
    }
    return 0;
}

static void teardown(br_case *c) {
    free(c->state); /* may be NULL when setup failed early */
    c->state = NULL;
}

static const br_kernel kernels[] = {
    {"saxpy", setup, run, verify, teardown, &F32},
    {"daxpy", setup, run, verify, teardown, &F64},
};
BR_MODULE(kernels);
