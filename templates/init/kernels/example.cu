/* example.cu - a GPU kernel module for benchrun: SAXPY out of place,
 * z = a * x + y over n float32 values.
 *
 * benchrun compiles this file at run time for the GPU present (nvcc -O3
 * -shared -Xcompiler -fPIC -cudart shared -arch=sm_XY), loads it and calls,
 * per case (one kernel at one value of n):
 *
 *   setup     allocate device memory, fill the inputs (random, never zero)
 *   run       ENQUEUE one execution on benchrun's stream, do not synchronise
 *             (benchrun owns the timing: events, warmup, L2 flush, repeats)
 *   verify    after a run has completed: copy the output back and check
 *             every element against a reference computed in double, with a
 *             tolerance
 *   teardown  release what setup made (benchrun frees its own allocations)
 *
 * Without a GPU, benchrun still compiles this file (compile errors and
 * unknown kernel names show) and reports its cases as skipped.
 */
#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "benchrun_cuda.h" /* BR_CUDA_TRY, br_cuda_stream, br_cuda_launched */
#include "benchrun_kernel.h"

/* The scalar a. 1.5 has two significant bits, so a * x and a * x + y are
 * exact in double for the inputs below: the reference has no rounding. */
#define SAXPY_A 1.5f

/* float32's unit roundoff, 2^-24. */
#define F32_U (1.0 / 16777216.0)

#define BLOCK 256 /* threads per block */

__global__ void saxpy_kernel(float *__restrict__ z, const float *__restrict__ x,
                             const float *__restrict__ y, float a, int64_t n) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        z[i] = a * x[i] + y[i];
}

struct saxpy_state {
    int64_t n;
    float *x, *y, *z; /* device memory (runner allocations, freed by benchrun) */
    float *hx, *hy;   /* host copies of the inputs, for verify (ours) */
    unsigned int blocks;
};

/* A random float in +-[0.5, 1.5): 23 random bits above 0.5 and a random
 * sign, never zero, so a skipped or doubled element changes the result. */
static float draw(uint64_t *rng) {
    const uint64_t r = br_splitmix64(rng);
    const float mag = 0.5f + (float)(r >> 41) * (1.0f / 8388608.0f);
    return (r & 1u) ? -mag : mag;
}

static int setup(br_case *c) {
    saxpy_state *s = (saxpy_state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory for the case state");
    c->state = s; /* teardown frees it, even when setup fails below */
    if (c->api->param(c, "n", &s->n) != 0)
        return -1; /* benchrun recorded why */
    if (s->n < 1 || s->n > ((int64_t)1 << 34))
        return c->api->fail(c, "parameter n must be between 1 and 2^34, got %lld", (long long)s->n);
    const size_t bytes = (size_t)s->n * sizeof(float);
    s->x = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    s->y = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    s->z = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    if (!s->x || !s->y || !s->z)
        return -1; /* benchrun recorded why */
    s->hx = (float *)malloc(bytes);
    s->hy = (float *)malloc(bytes);
    if (!s->hx || !s->hy)
        return c->api->fail(c, "out of host memory for the inputs");
    /* The seed is the same for every run of this case: inputs reproduce. */
    uint64_t rng = c->api->seed(c);
    for (int64_t i = 0; i < s->n; i++) {
        s->hx[i] = draw(&rng);
        s->hy[i] = draw(&rng);
    }
    const cudaStream_t stream = br_cuda_stream(c);
    BR_CUDA_TRY(c, cudaMemcpyAsync(s->x, s->hx, bytes, cudaMemcpyHostToDevice, stream));
    BR_CUDA_TRY(c, cudaMemcpyAsync(s->y, s->hy, bytes, cudaMemcpyHostToDevice, stream));
    /* All ones (a NaN) until a run writes it: verify sees a missed element. */
    BR_CUDA_TRY(c, cudaMemsetAsync(s->z, 0xff, bytes, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream)); /* setup may wait; run may not */
    const int64_t blocks = (s->n + BLOCK - 1) / BLOCK;
    s->blocks = (unsigned int)(blocks < 65536 ? blocks : 65536); /* the loop covers the rest */
    return 0;
}

/* Enqueue one execution on benchrun's stream and return: no synchronisation,
 * no allocation, no copy. It reads x and y and writes z, so every run
 * computes the same z: nothing carries over to the next run. */
static int run(br_case *c) {
    saxpy_state *s = (saxpy_state *)c->state;
    saxpy_kernel<<<s->blocks, BLOCK, 0, br_cuda_stream(c)>>>(s->z, s->x, s->y, SAXPY_A, s->n);
    return br_cuda_launched(c, "saxpy_kernel");
}

/* Every element against the exact result, computed in double on the host.
 * The float32 kernel rounds a * x and then the sum (or, as nvcc contracts
 * them into an FMA, only the sum): its error is at most 2u (|a x| + |y|)
 * with u = 2^-24; the tolerance allows twice that. */
static int verify(br_case *c) {
    saxpy_state *s = (saxpy_state *)c->state;
    const cudaStream_t stream = br_cuda_stream(c);
    const size_t bytes = (size_t)s->n * sizeof(float);
    float *z = (float *)malloc(bytes);
    if (!z)
        return c->api->fail(c, "out of host memory for the output");
    /* On the case's stream, after the run; pageable memory, so the copy has
     * completed when the synchronisation returns. */
    cudaError_t err = cudaMemcpyAsync(z, s->z, bytes, cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
        free(z);
        return c->api->fail(c, "copying z back: %s", cudaGetErrorString(err));
    }
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < s->n; i++) {
        const double ax = (double)SAXPY_A * s->hx[i], want = ax + s->hy[i];
        const double tol = 4.0 * F32_U * (fabs(ax) + fabs((double)s->hy[i]));
        if (!(fabs((double)z[i] - want) <= tol)) { /* also catches NaN */
            if (first < 0)
                first = i;
            bad++;
        }
    }
    const double got = first >= 0 ? (double)z[first] : 0.0;
    free(z);
    if (bad == 0)
        return 0;
    const double want = (double)SAXPY_A * s->hx[first] + s->hy[first];
    return c->api->fail(c, "%lld of %lld elements are wrong; first z[%lld] = %.9g, expected %.9g",
                        (long long)bad, (long long)s->n, (long long)first, got, want);
}

static void teardown(br_case *c) {
    saxpy_state *s = (saxpy_state *)c->state;
    if (s) { /* setup may have failed part way */
        free(s->hx);
        free(s->hy);
    }
    free(s); /* x, y, z are benchrun's */
    c->state = NULL;
}

/* The kernels of this module: {name, setup, run, verify, teardown, arg}
 * (arg: a per-kernel datum for c->api->arg(c), so kernels that differ in
 * one setting can share setup; none here). */
static const br_kernel kernels[] = {
    {"saxpy_gpu", setup, run, verify, teardown, NULL},
};
BR_MODULE(kernels);
