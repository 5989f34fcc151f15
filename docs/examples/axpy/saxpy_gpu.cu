/* saxpy_gpu.cu - z = a*x + y over n float32 on the GPU: a complete benchrun
 * CUDA kernel module. Inputs are drawn on the GPU with br_draw; verify
 * recomputes every element on the host from the same draws. */
#include <math.h>
#include <stdlib.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"

#define A 2.5f

/* The i-th input of x (which 0) or y (which 1), in [0, 1). */
__host__ __device__ static float input(uint64_t key, int which, int64_t i) {
    return (float)(br_draw(key + (uint64_t)which, i) >> 40) / 16777216.0f;
}

__global__ static void fill(float *x, float *y, int64_t n, uint64_t key) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        x[i] = input(key, 0, i);
        y[i] = input(key, 1, i);
    }
}

__global__ static void saxpy(float *z, const float *x, const float *y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = A * x[i] + y[i];
}

typedef struct state {
    int64_t n;
    uint64_t key;
    float *x, *y, *z; /* device memory, freed by benchrun after teardown */
} state;

static int setup(br_case *c) {
    state *s = (state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory");
    c->state = s;
    if (c->api->param(c, "n", &s->n) != 0)
        return -1;
    size_t bytes = (size_t)s->n * sizeof(float);
    s->x = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    s->y = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    s->z = (float *)c->api->alloc(c, bytes, BR_MEM_DEVICE);
    if (!s->x || !s->y || !s->z)
        return -1;
    s->key = c->api->seed(c);
    fill<<<1024, 256, 0, br_cuda_stream(c)>>>(s->x, s->y, s->n, s->key);
    if (br_cuda_launched(c, "fill") != 0)
        return -1;
    BR_CUDA_TRY(c, cudaStreamSynchronize(br_cuda_stream(c)));
    return 0;
}

/* Enqueue ONE execution on the case's stream; do not synchronise. */
static int run(br_case *c) {
    state *s = (state *)c->state;
    unsigned blocks = (unsigned)((s->n + 255) / 256);
    saxpy<<<blocks, 256, 0, br_cuda_stream(c)>>>(s->z, s->x, s->y, s->n);
    return br_cuda_launched(c, "saxpy");
}

/* After a completed run: every element against a*x + y in double precision. */
static int verify(br_case *c) {
    state *s = (state *)c->state;
    float *z = (float *)malloc((size_t)s->n * sizeof(float));
    if (!z)
        return c->api->fail(c, "out of host memory");
    cudaError_t err = cudaMemcpy(z, s->z, (size_t)s->n * sizeof(float), cudaMemcpyDeviceToHost);
    int rc = 0;
    if (err != cudaSuccess)
        rc = c->api->fail(c, "copying z back: %s", cudaGetErrorString(err));
    for (int64_t i = 0; i < s->n && rc == 0; i++) {
        double want = (double)A * input(s->key, 0, i) + input(s->key, 1, i);
        if (!(fabs(z[i] - want) <= 4 * 1.2e-7 * want)) /* NaN fails too */
            rc = c->api->fail(c, "z[%lld] is %.9g, expected %.9g", (long long)i, z[i], want);
    }
    free(z);
    return rc;
}

static void teardown(br_case *c) {
    free(c->state);
    c->state = NULL;
}

static const br_kernel kernels[] = {{"saxpy_gpu", setup, run, verify, teardown}};
BR_MODULE(kernels);
