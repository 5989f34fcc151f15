/* SPDX-License-Identifier: Apache-2.0 */
/* The one-line descriptions of the device and host records
 * (model/types.h) that titles show. A view: reads records, knows no
 * measurement. */
#ifndef BR_MACHINE_H
#define BR_MACHINE_H

#include <stddef.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A one-line description of d for a table title, written into buf (always
 * NUL-terminated when len > 0; cut at a character boundary when too long):
 *   "NVIDIA H100 80GB HBM3 · sm_90 · 132 SMs · 1980 MHz (now 1755) · 3352 GB/s · ECC on"
 * The clock is the maximum SM clock (sm_clock_khz) with the current one
 * (sm_clock_now_mhz) in parentheses; the bandwidth is the theoretical peak
 * (peak_gbps, GB/s = 1e9 B/s) followed by "(measured N)" when
 * measured_peak_gbps is finite and positive. Unknown parts (empty name, zero
 * counts and clocks, non-positive or NAN bandwidths, ecc -1) are left out.
 * Parts are joined by " · " (U+00B7, UTF-8), or by " - " when ascii is
 * nonzero. d may be NULL (writes ""). */
void br_device_summary(char *buf, size_t len, const br_device *d, int ascii);

/* A one-line description of h for a table title, written into buf like
 * br_device_summary: "AMD EPYC 9654 · 16 cores · governor performance".
 * Unknown parts (empty cpu_model or governor, logical_cores <= 0) are left
 * out; the hostname is not shown. h may be NULL (writes ""). */
void br_host_summary(char *buf, size_t len, const br_host *h, int ascii);

#ifdef __cplusplus
}
#endif
#endif
