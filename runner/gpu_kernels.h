/* gpu_kernels.h - the runner's own device code (built only with CUDA). */
#ifndef BR_GPU_KERNELS_H
#define BR_GPU_KERNELS_H

#include <stddef.h>

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

#ifdef __cplusplus
}
#endif
#endif
