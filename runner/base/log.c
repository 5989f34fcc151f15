/* SPDX-License-Identifier: Apache-2.0 */
/* log.c - the core's messages through one sink (log.h). */
#include "log.h"

#include <stdio.h>

static void default_sink(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    fputs(msg, stderr);
    fflush(stderr);
}

static br_log_fn sink = default_sink;
static void *sink_ctx;

void br_log_set_sink(br_log_fn fn, void *ctx) {
    sink = fn ? fn : default_sink;
    sink_ctx = fn ? ctx : NULL;
}

void br_log_get_sink(br_log_fn *fn, void **ctx) {
    *fn = sink;
    *ctx = sink_ctx;
}

void br_vlog(br_log_level level, const char *fmt, va_list ap) {
    char msg[8192];
    vsnprintf(msg, sizeof msg, fmt, ap);
    sink(sink_ctx, level, msg);
}

void br_log(br_log_level level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    br_vlog(level, fmt, ap);
    va_end(ap);
}
