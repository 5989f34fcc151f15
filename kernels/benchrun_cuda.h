/* SPDX-License-Identifier: Apache-2.0 */
/* benchrun_cuda.h - helpers for CUDA kernel modules, on top of
 * benchrun_kernel.h: the stream, checked CUDA calls, launch checks and the
 * counter-based input generator that host and device compute alike.
 *
 * Include it from a .cu module after (or instead of) benchrun_kernel.h.
 * Everything here is inline: a module still has no link-time dependency on
 * the runner.
 */
#ifndef BENCHRUN_CUDA_H
#define BENCHRUN_CUDA_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "benchrun_kernel.h"

/* Run a CUDA runtime call; on an error, record "<call>: <CUDA's message>"
 * for the case and return -1 from the calling function. */
#define BR_CUDA_TRY(c, call)                                                                       \
    do {                                                                                           \
        cudaError_t br_cuda_err_ = (call);                                                         \
        if (br_cuda_err_ != cudaSuccess)                                                           \
            return (c)->api->fail((c), "%s: %s", #call, cudaGetErrorString(br_cuda_err_));         \
    } while (0)

/* The stream run() enqueues on (c->api->stream as a cudaStream_t). */
static inline cudaStream_t br_cuda_stream(br_case *c) {
    return (cudaStream_t)c->api->stream(c);
}

/* After a launch: 0, or -1 with "launch of <what>: <CUDA's message>"
 * recorded for the case. */
static inline int br_cuda_launched(br_case *c, const char *what) {
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return c->api->fail(c, "launch of %s: %s", what, cudaGetErrorString(err));
    return 0;
}

/* The i-th value (from 0) that br_splitmix64 returns from state key: the
 * generator adds the constant once per draw, so draw i mixes key + (i+1) *
 * it. The same on host and device, so a kernel fills its inputs on the GPU
 * and verify recomputes any element on the host. */
__host__ __device__ __forceinline__ uint64_t br_draw(uint64_t key, int64_t i) {
    uint64_t z = key + (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
