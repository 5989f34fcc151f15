/* SPDX-License-Identifier: Apache-2.0 */
/* Every CUDA runtime call in the runner goes through
 * BR_CUDA(call), which records the call's text, file and line in the last
 * error when it fails. Only for files built with the CUDA toolkit. */
#ifndef BR_CUDA_CHECK_H
#define BR_CUDA_CHECK_H

#include <cuda_runtime_api.h>

#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 0 when e is cudaSuccess, else sets the last error to
 * "CUDA error at FILE:LINE: CALL: NAME: description" and returns -1. */
int br_cuda_check(cudaError_t e, const char *call, const char *file, int line);

#define BR_CUDA(call) br_cuda_check((call), #call, __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif
