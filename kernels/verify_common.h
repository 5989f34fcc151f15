/* SPDX-License-Identifier: Apache-2.0 */
/* verify_common.h - what stream.cu and transpose.cu share in verify:
 * planting a fault (the BR_*_FAULT variables of their GPU tests) and the
 * note that says which check found a mismatch. Header-only CUDA C++, so the
 * modules share no code at link time. */
#ifndef BR_VERIFY_COMMON_H
#define BR_VERIFY_COMMON_H

#include <cuda_runtime.h>

#include <stdbool.h>
#include <stdio.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"

/* Flip the lowest bit of the T (an unsigned integer as wide as an element)
 * at device address at, on c's stream, and wait for it. Returns 0, or -1
 * with the case failed (a CUDA error). */
template <typename T> static int br_verify_flip_low_bit(br_case *c, T *at) {
    const cudaStream_t stream = br_cuda_stream(c);
    T v = 0;
    BR_CUDA_TRY(c, cudaMemcpyAsync(&v, at, sizeof v, cudaMemcpyDeviceToHost, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    v ^= (T)1;
    BR_CUDA_TRY(c, cudaMemcpyAsync(at, &v, sizeof v, cudaMemcpyHostToDevice, stream));
    BR_CUDA_TRY(c, cudaStreamSynchronize(stream));
    return 0;
}

/* The note after a mismatch into note[0..len): which check found it. The
 * device check ran; the host check too when on_host (small sizes), finding
 * host_count mismatches against the device check's dev_count. */
static inline void br_verify_note(char *note, size_t len, bool on_host, long long host_count,
                                  long long dev_count) {
    if (on_host && host_count > 0)
        snprintf(note, len, " (host check; the device check finds %lld)", dev_count);
    else if (on_host)
        snprintf(note, len,
                 " (device check; the host check passes every element: the device check is "
                 "wrong)");
    else
        snprintf(note, len, " (device check)");
}

#endif
