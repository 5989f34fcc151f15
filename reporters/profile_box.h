/* SPDX-License-Identifier: Apache-2.0 */
/* The box `benchrun profile` prints: Nsight Compute's
 * figures of one case beside benchrun's own (profile/ncu_profile.h). */
#ifndef BR_PROFILE_BOX_H
#define BR_PROFILE_BOX_H

#include <stdio.h>

#include "profile/ncu_profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write p as a box to f: the case and how it was profiled; time per
 * execution (ncu's summed kernel durations beside benchrun's median and its
 * clock); DRAM bytes read and written per execution beside the suite's
 * declared bytes, with the warning of br_profile_bytes_check; the Tensor
 * pipe's and the CUDA cores' pipes' utilisation beside benchrun's own % of
 * peak (and the declared precision), with the warning of
 * br_profile_precision_check; then each kernel's launches per execution,
 * median duration, achieved occupancy, SM and memory throughput (% of peak),
 * L2 hit rate, and its pipes (Tensor, with the pipe's name, FMA, FP16,
 * FP64). ascii: plain ASCII
 * borders and symbols. Returns 0, or -1 with the error set (a write failed). */
int br_profile_box_write(FILE *f, const br_profile *p, int ascii);

#ifdef __cplusplus
}
#endif
#endif
