/* SPDX-License-Identifier: Apache-2.0 */
/* The list of GPUs a --devices run measures on ("all", or
 * indices such as 0,2,5), read by the command line's converter (to refuse a
 * bad list before anything runs) and by drive/devices.c (to open them). */
#ifndef BR_DEVICE_LIST_H
#define BR_DEVICE_LIST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parse --devices: "all" (*all 1, *n 0) or a comma-separated list of
 * distinct device indices 0..BR_DEVSCHED_MAX_SLOTS-1 (plan/devsched.h) into
 * idx[0..*n) (room for BR_DEVSCHED_MAX_SLOTS). Returns 0, or -1 with the
 * error set ("--devices 0,x: expected all or ..."). */
int br_devices_parse(int *idx, size_t *n, int *all, const char *text);

#ifdef __cplusplus
}
#endif
#endif
