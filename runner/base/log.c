/* SPDX-License-Identifier: Apache-2.0 */
/* log.c - the core's messages through one sink (log.h). */
#include "log.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

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

/* The progress line's own prefix: back to the start of the line, clear it. */
static const char progress_clear[] = "\r\033[K";

void br_vlog(br_log_level level, const char *fmt, va_list ap) {
    char msg[8192], esc[8192];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* Names and paths in a message cannot drive the terminal: controls are
     * escaped (text.h), newlines and tabs kept, and the progress line's
     * prefix is the only escape sequence a message may carry. */
    size_t keep = 0;
    if (level == BR_LOG_PROGRESS && strncmp(msg, progress_clear, sizeof progress_clear - 1) == 0)
        keep = sizeof progress_clear - 1;
    memcpy(esc, msg, keep);
    br_text_escape(esc + keep, sizeof esc - keep, msg + keep, strlen(msg + keep), 1);
    sink(sink_ctx, level, esc);
}

void br_log(br_log_level level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    br_vlog(level, fmt, ap);
    va_end(ap);
}
