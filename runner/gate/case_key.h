/* SPDX-License-Identifier: Apache-2.0 */
/* What a baseline files and finds a case under: the device a
 * run is filed under, and a case's key (kernel and parameters), with an
 * index to find cases by key. Shared by baselines (baseline.h) and the
 * comparison (compare.h). */
#ifndef BR_CASE_KEY_H
#define BR_CASE_KEY_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The name a baseline is filed under for run r: the GPU's name when the run
 * had a device, else the host CPU's model, else "host". Borrowed from r. */
const char *br_baseline_device(const br_run *r);

/* `device` made file-safe into buf: every run of characters other than ASCII
 * letters, digits, '.', '_' and '-' becomes one '-', without a leading or
 * trailing '-' ("NVIDIA H100 80GB HBM3" -> "NVIDIA-H100-80GB-HBM3"; "" or
 * nothing left -> "unknown"). Truncated to len - 1 bytes. */
void br_baseline_file_name(char *buf, size_t len, const char *device);

/* The identity of case c of run r, by which comparisons match cases:
 * "kernel\x1fname=value\x1f..." with the params in the order of their
 * names, so two runs that list the same params in another order still
 * match. Caller frees; NULL (error set) when out of memory. */
char *br_baseline_case_key(const br_run *r, const br_case_result *c);

/* The keys of a run's cases (br_baseline_case_key) with an index sorted by
 * key, to find cases by key in O(log n). */
typedef struct br_case_keys {
    char **keys;   /* per case, owned */
    size_t *order; /* case indices sorted by key */
    size_t n;
} br_case_keys;

/* The keys of every case of r into *out (released with br_case_keys_dispose;
 * nothing to release after a failure). Returns 0, or -1 with the error set
 * (out of memory). */
int br_case_keys_build(br_case_keys *out, const br_run *r);

/* Index of the first case with `key` not yet marked in `used` (one flag per
 * case; duplicates pair up in order; used NULL: the first), or SIZE_MAX. */
size_t br_case_keys_find(const br_case_keys *k, const char *key, const unsigned char *used);

/* Release what *k owns and zero it. */
void br_case_keys_dispose(br_case_keys *k);

#ifdef __cplusplus
}
#endif
#endif
