/* SPDX-License-Identifier: Apache-2.0 */
/* The cache of measured peak bandwidths.
 *
 * A suite with `peak: measured` reports % of peak relative to the
 * device-to-device copy bandwidth benchrun measures once per device. The
 * figure is kept beside the compile cache, one JSON file per device:
 *
 *   <cache_dir>/peak/<uuid>.json
 *   {
 *     "uuid": "GPU-5f0e...",            device UUID, as in br_device.uuid
 *     "name": "NVIDIA H100 80GB HBM3",  br_device.name
 *     "driver_version": 13000,          br_device.driver_version
 *     "benchrun_version": "0.1.0",      BR_VERSION of the benchrun that measured
 *     "gbps": 3012.5,                   measured bandwidth, GB/s (1e9 B/s)
 *     "copy_bytes": 4294967296.0,       bytes one timed copy moves (read + write)
 *     "method": "cudaMemcpyAsync D2D",  how it was measured (free text, or null)
 *     "date": "2025-06-01T12:34:56Z"    when it was measured, UTC, ISO 8601
 *   }
 *
 * An entry is used only when uuid, name, driver_version and benchrun_version
 * all match and gbps is finite and positive; any other file (another driver,
 * an older benchrun, truncated or corrupt JSON) is ignored and is overwritten
 * by the next measurement.
 *
 * A measured compute peak (platform/compute_peak.h) has a file per device and
 * precision beside it, so the bandwidth's file keeps its format:
 *
 *   <cache_dir>/peak/<uuid>.<precision>.json   e.g. GPU-5f0e....fp16-tensor.json
 *   {
 *     "uuid", "name", "driver_version", "benchrun_version":  as above
 *     "precision": "fp16-tensor",       br_precision_name of what was measured
 *     "gops": 612345.6,                 measured rate, 1e9 operations/s (GFLOP/s; GOP/s for int8)
 *     "ops": 1.2e12,                    operations one timed launch does
 *     "method": "...",                  the kernel's instruction, shape and clock
 *     "date": "2025-06-01T12:34:56Z"
 *   }
 *
 * with the same rules: used only when everything above and the precision
 * match and gops is finite and positive.
 */
#ifndef BR_PEAK_H
#define BR_PEAK_H

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cache file of device d: "<cache_dir>/peak/<uuid>.json". Caller frees.
 * Returns NULL with the error set when cache_dir is NULL or empty, when d's
 * uuid is empty or not usable as a file name (only letters, digits, '-' and
 * '_' are), or when out of memory. */
char *br_peak_cache_path(const char *cache_dir, const br_device *d);

/* Look up the measured peak of device d in the cache under cache_dir.
 * Returns 1 and sets *out_gbps (GB/s = 1e9 B/s) when the device's file exists,
 * is valid JSON and matches d (uuid, name, driver_version), this benchrun
 * (BR_VERSION) and, when `method` is not NULL, the method it was stored with
 * (so a peak timed on another clock is not reused), with a finite positive
 * "gbps". Returns 0, leaving *out_gbps
 * NAN, when there is no usable entry: no file, unreadable as JSON, stale or
 * not matching, and also when cache_dir is NULL or empty or d has no usable
 * uuid; the error is not set then. Returns -1 with the error set only on a
 * real error: the file exists but cannot be opened (e.g. permission denied),
 * or out of memory. */
int br_peak_cache_load(double *out_gbps, const char *cache_dir, const br_device *d,
                       const char *method);

/* Record gbps (GB/s = 1e9 B/s, finite and > 0) as the measured peak of device
 * d: creates <cache_dir>/peak as needed and replaces the device's file
 * atomically (br_write_atomic: readers see the old file or the new, and no
 * temporary file is left behind). copy_bytes is what one timed copy counts as
 * moved, bytes (finite, >= 0; reading and writing an N-byte buffer is 2 N),
 * recorded for reference only; method is a short description of
 * how it was measured, written as null when NULL. All arguments are borrowed.
 * The date written is the current time, UTC. Returns 0, or -1 with the error
 * set (invalid arguments as for br_peak_cache_path, gbps not finite and
 * positive, a directory or file that cannot be written, out of memory). */
int br_peak_cache_store(const char *cache_dir, const br_device *d, double gbps, double copy_bytes,
                        const char *method);

/* The compute peak cache file of device d and precision p:
 * "<cache_dir>/peak/<uuid>.<precision name>.json". Caller frees. Returns NULL
 * with the error set as br_peak_cache_path does, and for p outside
 * BR_PRECISION_FP64..BR_PRECISION_COUNT-1. */
char *br_peak_compute_cache_path(const char *cache_dir, const br_device *d, br_precision p);

/* Look up the measured compute peak of device d in precision p: as
 * br_peak_cache_load (same returns, same matching), and the file's
 * "precision" must be p's name; sets *out_gops (1e9 operations/s). */
int br_peak_compute_cache_load(double *out_gops, const char *cache_dir, const br_device *d,
                               br_precision p, const char *method);

/* Record gops (1e9 operations/s, finite and > 0) as device d's measured peak
 * in precision p, atomically, as br_peak_cache_store does; ops is what one
 * timed launch counts (finite, >= 0), for reference. Returns 0, or -1 with the
 * error set. */
int br_peak_compute_cache_store(const char *cache_dir, const br_device *d, br_precision p,
                                double gops, double ops, const char *method);

#ifdef __cplusplus
}
#endif
#endif
