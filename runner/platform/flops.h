/* SPDX-License-Identifier: Apache-2.0 */
/* Compute peaks per precision: operations per SM per clock by compute
 * capability and br_precision (model/types.h), from NVIDIA's architecture
 * whitepapers and the CUDA C++ Programming Guide's throughput table (each
 * row of the table in flops.c names its sources), times SMs and an SM clock.
 *
 * Units: an operation is a FLOP (a fused multiply-add counts 2), or an
 * integer operation for the INT8 precisions, so a peak is GFLOP/s (1e9
 * FLOP/s) or GOP/s (1e9 OP/s). Dense rates; a `-sparse` precision is the 2:4
 * structured-sparse rate, twice the dense one where the architecture has it
 * (Ampere and later). BR_PRECISION_NONE (not declared) reads as FP32 on the
 * CUDA cores.
 *
 * Tensor Core rates are those of the architecture's full-rate parts (the
 * data-centre and professional boards). GeForce boards of the same compute
 * capability (sm_75, sm_86, sm_89, sm_120) run FP16/BF16/TF32 MMA with FP32
 * accumulate at half that rate (the GA102 and Ada whitepapers' GeForce
 * columns), so their % of peak reads low, never above 100% for that reason. */
#ifndef BR_FLOPS_H
#define BR_FLOPS_H

#include <stddef.h>

#include "model/run.h"
#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether compute capability cc_major.cc_minor has precision p: 1 yes, 0
 * no (e.g. FP8 before sm_89, BF16 and TF32 Tensor Cores before sm_80, FP64
 * Tensor Cores but on sm_80, sm_90 and sm_100), -1 unknown (a compute
 * capability outside the table, or a value outside br_precision). Pure. */
int br_flops_has(int cc_major, int cc_minor, br_precision p);

/* Operations (FLOP, or OP for INT8) per SM per clock of precision p on
 * cc_major.cc_minor: > 0 the rate; 0 when the GPU lacks the precision; NAN
 * when unknown (the capability or its rate is not in the table: no guess).
 * Pure. */
double br_flops_per_sm_clock(int cc_major, int cc_minor, br_precision p);

/* The table row's sources for cc_major.cc_minor (static text naming the
 * whitepaper and the Programming Guide's table), or NULL when the compute
 * capability is not in the table. */
const char *br_flops_source(int cc_major, int cc_minor);

/* Peak of precision p, GFLOP/s (or GOP/s for INT8): br_flops_per_sm_clock x
 * sm_count x clock (kHz x 1e3 / 1e9). An H100 SXM (9.0, 132 SMs) in
 * fp16-tensor at 1830 MHz: 4096 x 132 x 1.83e9 = 989.4e12 FLOP/s, its
 * datasheet's 989.4 TFLOPS. 0 when the GPU lacks the precision; NAN when
 * unknown or sm_count or clock_khz is not positive. Pure. */
double br_flops_peak_gflops(int cc_major, int cc_minor, int sm_count, double clock_khz,
                            br_precision p);

/* br_flops_peak_gflops of device d at its maximum SM clock
 * (d->sm_clock_khz, cudaDevAttrClockRate); NAN for NULL. */
double br_flops_device_peak(const br_device *d, br_precision p);

/* Whether device d lacks precision p, so a case declared with it is
 * skipped: 1 and a reason a user can act on in why[0..why_len) (e.g.
 * "fp8-tensor needs compute capability 8.9 or later; NVIDIA A100-SXM4-80GB
 * is 8.0"), else 0 (has it, or unknown: an unknown GPU is not refused) and
 * why is left alone. NULL d: 0. */
int br_flops_lacks(const br_device *d, br_precision p, char *why, size_t why_len);

/* Record in r->compute_peaks the peak of precision p (BR_PRECISION_NONE:
 * FP32) on r->device at its maximum SM clock, from the table (source
 * "table"), when r has a device and the table knows a positive rate; else
 * nothing. Recording a precision twice is harmless. */
void br_flops_record(br_run *r, br_precision p);

#ifdef __cplusplus
}
#endif
#endif
