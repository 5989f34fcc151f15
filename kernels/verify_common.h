/* SPDX-License-Identifier: Apache-2.0 */
/* What the shipped kernel modules share in verify: planting a fault (the
 * BR_*_FAULT variables of their GPU tests) and the note that says which
 * check found a mismatch. Header-only CUDA C++, so the
 * modules share no code at link time. */
#ifndef BR_VERIFY_COMMON_H
#define BR_VERIFY_COMMON_H

#include <cuda_runtime.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

/* A fault planted in a rows x cols matrix before verify: C[i][j] += delta. */
typedef struct br_verify_fault {
    bool on; /* the variable was set */
    int64_t i, j;
    float delta;
} br_verify_fault;

/* The environment variable `var` (e.g. "BR_SGEMM_FAULT") as I,J[,DELTA]
 * (DELTA 1 when left out; a negative I or J counts from the end) into
 * *out; unset or empty: out->on false. Returns 0, or -1 with the case
 * failed on a malformed value or one outside the matrix. */
static inline int br_verify_fault_parse(br_case *c, const char *var, int rows, int cols,
                                        br_verify_fault *out) {
    const char *v = getenv(var);
    *out = (br_verify_fault){false, 0, 0, 1.0f};
    if (!v || !*v)
        return 0;
    char *end = NULL;
    long long i = strtoll(v, &end, 10), j = 0;
    double d = 1.0;
    bool ok = end != v && *end == ',';
    if (ok) {
        const char *at = end + 1;
        j = strtoll(at, &end, 10);
        ok = end != at;
    }
    if (ok && *end == ',') {
        const char *at = end + 1;
        d = strtod(at, &end);
        ok = end != at && isfinite(d);
    }
    ok = ok && *end == '\0';
    if (i < 0)
        i += rows;
    if (j < 0)
        j += cols;
    if (!ok || i < 0 || i >= rows || j < 0 || j >= cols)
        return c->api->fail(c,
                            "%s must be I,J or I,J,DELTA with 0 <= I < %d and 0 <= J < %d "
                            "(negative: from the end), got '%s'",
                            var, rows, cols, v);
    *out = (br_verify_fault){true, i, j, (float)d};
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
