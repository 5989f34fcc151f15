/* SPDX-License-Identifier: Apache-2.0 */
/* NVTX ranges around what benchrun times, so Nsight Systems shows
 * them and Nsight Compute selects their kernels (`ncu --nvtx --nvtx-include
 * "benchrun@sample/"`). NVTX 3 is header-only and ships with the CUDA Toolkit
 * (nvtx3/nvToolsExt.h); its calls cost a function-pointer check when no tool
 * is attached. Builds without CUDA get no-ops.
 *
 * The ranges, all push/pop ranges of the domain "benchrun" on the thread
 * that launches the case's work (the worker's):
 *   "<kernel> <params> cold" / "... batch"   one measurement of a case
 *     "warmup"                               a warmup sample's timed region
 *     "sample"                               a kept sample's timed region: the
 *                                            run's launches only (no flush,
 *                                            hold or clock probe)
 */
#ifndef BR_NVTX_H
#define BR_NVTX_H

#ifdef __cplusplus
extern "C" {
#endif

/* The domain of every benchrun range. */
#define BR_NVTX_DOMAIN "benchrun"
/* The name of a kept sample's range (what `benchrun profile` selects). */
#define BR_NVTX_SAMPLE "sample"
#define BR_NVTX_WARMUP "warmup"

/* Push a range called `name` (copied by NVTX) in the benchrun domain, which
 * is created on first use. A no-op for a NULL name and in builds without CUDA. */
void br_nvtx_push(const char *name);

/* Pop the innermost range pushed by br_nvtx_push (a no-op where it is). */
void br_nvtx_pop(void);

/* 1 when this build can emit NVTX ranges (it has CUDA), else 0. */
int br_nvtx_available(void);

#ifdef __cplusplus
}
#endif
#endif
