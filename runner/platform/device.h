/* SPDX-License-Identifier: Apache-2.0 */
/* What benchrun records about the machine it measures on. */
#ifndef BR_DEVICE_H
#define BR_DEVICE_H

#include <stddef.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a usable CUDA device exists. Returns 1, or 0 and writes a reason a
 * user can act on into why (e.g. "no CUDA device: cudaGetDeviceCount: no
 * CUDA-capable device is detected", or "benchrun was built without CUDA"). */
int br_device_available(char *why, size_t why_len);

/* Fill *out for device `index`. ecc comes from cudaDeviceProp.ECCEnabled;
 * sm_clock_now_mhz is read through NVML (libnvidia-ml.so.1, loaded at run time)
 * and is 0 when NVML cannot be loaded or read, which is not an error;
 * measured_peak_gbps is set to NAN (the caller fills it in when it measures);
 * peak_gflops is br_device_peak_gflops_fp32 of the queried figures (NAN for a
 * compute capability outside the table). Returns 0, or -1 with the error set
 * (then peak_gflops and measured_peak_gbps are NAN). */
int br_device_query(br_device *out, int index);

/* FP32 lanes per SM of compute capability cc_major.cc_minor: the results per
 * clock cycle per multiprocessor of "32-bit floating-point add, multiply,
 * multiply-add" in the CUDA C++ Programming Guide's throughput table
 * ("Arithmetic Instructions"): 3.x 192, 5.x 128, 6.0 64, 6.1 and 6.2 128,
 * 7.x 64, 8.0 64, 8.6, 8.7 and 8.9 128, 9.0 128, 10.x 128, 11.0 128, 12.x 128
 * (device.c has the sources). Returns 0 for a compute capability not in the
 * table: an unknown architecture gets no guess. Pure. */
int br_device_fp32_lanes_per_sm(int cc_major, int cc_minor);

/* FP32 theoretical peak, GFLOP/s (1e9 FLOP/s): sm_count x FP32 lanes per SM
 * (br_device_fp32_lanes_per_sm) x 2 FLOP per lane per clock (one fused
 * multiply-add) x the maximum SM clock (sm_clock_khz, kHz, as in
 * br_device.sm_clock_khz). An H100 SXM (9.0, 132 SMs, 1980 MHz) gives
 * 132 x 128 x 2 x 1.98e9 = 66.9e12 FLOP/s, i.e. 66908.16 GFLOP/s. NAN when the
 * compute capability is not in the table or sm_count or sm_clock_khz is not
 * positive. Pure. */
double br_device_peak_gflops_fp32(int cc_major, int cc_minor, int sm_count, int sm_clock_khz);

/* Fill *out for this machine's CPU; never fails (unknown fields stay empty). */
void br_host_query(br_host *out);

#ifdef __cplusplus
}
#endif
#endif
