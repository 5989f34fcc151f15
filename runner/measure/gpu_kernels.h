/* SPDX-License-Identifier: Apache-2.0 */
/* The runner's own device code (built only with CUDA). */
#ifndef BR_GPU_KERNELS_H
#define BR_GPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue on `stream` a kernel that reads all `bytes` bytes of `buf` (device
 * memory, 16-byte aligned, bytes a multiple of 16) and writes nothing but,
 * in a case that never happens for a zeroed buffer, one word to `sink`. Used
 * as the L2 flush: it leaves L2 full of clean lines. Returns the launch's
 * error code. */
cudaError_t br_gpu_read_flush(cudaStream_t stream, const void *buf, size_t bytes, unsigned *sink,
                              int sm_count);

/* Host-mapped control block of the launch hold (NVBench's blocking kernel,
 * nvbench/blocking_kernel.cuh). */
typedef struct br_gpu_hold {
    volatile int32_t release;   /* the host sets 1 when everything is enqueued */
    volatile int32_t timed_out; /* the kernel sets 1 when it gave up waiting */
} br_gpu_hold;

/* Enqueue a one-thread kernel that spins until h->release is non-zero or
 * `timeout_ns` of %globaltimer time has passed (then it sets h->timed_out).
 * `h` is host memory mapped into the device (cudaHostAllocMapped) and seen
 * through its device pointer `h_dev`. */
cudaError_t br_gpu_hold_launch(cudaStream_t stream, br_gpu_hold *h_dev, uint64_t timeout_ns);

/* One reading of the SM clock probe. */
typedef struct br_gpu_clock {
    volatile uint64_t globaltimer; /* %globaltimer, ns */
    volatile uint64_t clock;       /* clock64(), SM cycles */
    volatile uint32_t smid;        /* %smid of the SM that read them */
    uint32_t pad;
} br_gpu_clock;

/* Enqueue a one-thread kernel that writes %globaltimer, clock64() and %smid
 * into *out (host-mapped). With `since` non-NULL (the reading taken before
 * the sample), it first spins until %globaltimer is at least `min_window_ns`
 * past since->globaltimer, so the window the clock is averaged over is long
 * enough for %globaltimer's granularity. NVBench measures the clock the same
 * way (nvbench/detail/gpu_frequency.cuh). */
cudaError_t br_gpu_clock_probe(cudaStream_t stream, br_gpu_clock *out, const br_gpu_clock *since,
                               uint64_t min_window_ns);

/* Enqueue a one-thread kernel that reads %globaltimer until it has seen
 * BR_GPU_TICK_STEPS changes (or BR_GPU_TICK_READS readings) and writes the
 * smallest change, ns, to *out (host-mapped; 0 when it never changed): the
 * timer's resolution, which the PTX ISA leaves to the implementation (32 ns
 * on an H100 and an H200, a microsecond on some older GPUs). CUDA events
 * and CUPTI's kernel timestamps read the same timer. */
cudaError_t br_gpu_timer_tick(cudaStream_t stream, uint64_t *out);

/* The measured compute peak's kernel of precision p (a br_precision; see
 * platform/compute_peak.h for what each does): its wgmma kernel when wgmma is
 * non-zero (tf32, fp16, bf16, fp8, int8 on the Tensor Cores; only where
 * br_gpu_compute_peak_wgmma said 1), else its FMA or mma.sync kernel;
 * launched as `blocks` blocks of BR_COMPUTE_WG_THREADS (wgmma) or
 * BR_COMPUTE_THREADS threads running `iters` iterations each, enqueued on
 * stream. sink: device memory for one element per thread (never written in
 * practice; may be NULL). Returns the launch's error code;
 * cudaErrorInvalidValue for a precision without such a kernel. */
cudaError_t br_gpu_compute_peak_launch(cudaStream_t stream, int precision, int wgmma, int blocks,
                                       long iters, void *sink);

/* Whether the code the driver loaded for the current device is benchrun's
 * sm_90a code, which alone has the wgmma kernels (a tiny probe kernel on
 * stream, then a synchronize): *has_wgmma 1 or 0. Returns the CUDA error
 * code. */
cudaError_t br_gpu_compute_peak_wgmma(cudaStream_t stream, int *has_wgmma);

/* The virtual architecture (10 major + minor, cudaFuncAttributes.ptxVersion)
 * that precision p's kernel was compiled for, as the driver picked it for the
 * current device, into *code_arch: a kernel compiled for less than its
 * instruction needs does nothing (platform/compute_peak.h's
 * br_compute_available says so). Returns the CUDA error code. */
cudaError_t br_gpu_compute_peak_arch(int precision, int *code_arch);

#define BR_GPU_TICK_STEPS 64
#define BR_GPU_TICK_READS (1 << 20)

#ifdef __cplusplus
}
#endif
#endif
