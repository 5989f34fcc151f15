/* SPDX-License-Identifier: Apache-2.0 */
/* The worker's answer to "measure the compute peak of a precision": one
 * br_compute_measure (platform/compute_peak.h) as a small JSON text, the
 * status by name:
 *   {"precision": "fp16-tensor", "status": "measured", "gops": 612345.6, "why": null}
 * status: "measured", "cached", "unavailable" or "failed"; gops a positive
 * number for measured and cached, null otherwise; why a string for
 * unavailable and failed, null otherwise.
 */
#ifndef BR_PEAK_MSG_H
#define BR_PEAK_MSG_H

#include <stddef.h>

#include "platform/compute_peak.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Encode p into *text (malloc'd, NUL-terminated, *len bytes without the
 * NUL). Returns 0, or -1 with the error set (out of memory, a precision or
 * status outside its enum). */
int br_peak_msg_encode(char **text, size_t *len, const br_compute_measure *p);

/* Decode text[0..len) into *p. Returns 0, or -1 with the error set naming
 * what is wrong (not JSON, an unknown precision or status, gops missing or
 * not positive for measured/cached); *p is then FAILED with that message. */
int br_peak_msg_decode(br_compute_measure *p, const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif
