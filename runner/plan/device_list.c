/* SPDX-License-Identifier: Apache-2.0 */
/* The list of --devices (device_list.h). */
#include "device_list.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "devsched.h"

#define MAX_DEV BR_DEVSCHED_MAX_SLOTS

int br_devices_parse(int *idx, size_t *n, int *all, const char *text) {
    *n = 0;
    *all = text && strcmp(text, "all") == 0;
    if (*all)
        return 0;
    const char *p = text ? text : "";
    for (;;) {
        char *end;
        errno = 0;
        long v = p[0] >= '0' && p[0] <= '9' ? strtol(p, &end, 10) : -1;
        if (v < 0 || errno || v >= MAX_DEV || (*end != ',' && *end != '\0'))
            return br_error_set("--devices %s: expected all or a comma-separated list of device "
                                "indices from 0 to %d, e.g. 0,2,5",
                                text ? text : "", MAX_DEV - 1);
        for (size_t k = 0; k < *n; k++)
            if (idx[k] == (int)v)
                return br_error_set("--devices %s: device %ld is named twice", text, v);
        idx[(*n)++] = (int)v;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
}
