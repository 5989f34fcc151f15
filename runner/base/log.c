/* SPDX-License-Identifier: Apache-2.0 */
/* The core's messages through one sink (log.h). */
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
static int verbose;

int br_log_verbose(void) {
    return verbose;
}

void br_log_set_verbose(int on) {
    verbose = on;
}

static void *sink_ctx;

void br_log_set_sink(br_log_fn fn, void *ctx) {
    sink = fn ? fn : default_sink;
    sink_ctx = fn ? ctx : NULL;
}

void br_log_get_sink(br_log_fn *fn, void **ctx) {
    *fn = sink;
    *ctx = sink_ctx;
}

/* The progress line on the terminal now (its text as the sink got it), or
 * "" when none is: a message that is not progress clears it first and
 * draws it again after (a terminal has one cursor). Messages come from the
 * thread that draws the progress line. */
static char progress[1024];

/* The text of a progress message after its leading "\r" and "\033[K"
 * (a message of only those clears the line). */
static const char *progress_text(const char *msg) {
    for (;;) {
        if (msg[0] == '\r')
            msg++;
        else if (strncmp(msg, "\033[K", 3) == 0)
            msg += 3;
        else
            return msg;
    }
}

void br_vlog(br_log_level level, const char *fmt, va_list ap) {
    char msg[8192], esc[8192];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* Names and paths in a message cannot drive the terminal: controls are
     * escaped (text.h), newlines and tabs kept, and a progress message's
     * leading "\r" and "\033[K" are the only escape sequences a message may
     * carry. */
    const char *text = level == BR_LOG_PROGRESS ? progress_text(msg) : msg;
    size_t keep = (size_t)(text - msg);
    memcpy(esc, msg, keep);
    br_text_escape(esc + keep, sizeof esc - keep, text, strlen(text), 1);
    if (level == BR_LOG_PROGRESS) {
        size_t n = esc[keep] ? strnlen(esc, sizeof progress - 1) : 0; /* cut to fit */
        memcpy(progress, esc, n);
        progress[n] = '\0';
        sink(sink_ctx, level, esc);
        return;
    }
    if (!progress[0]) {
        sink(sink_ctx, level, esc);
        return;
    }
    sink(sink_ctx, BR_LOG_PROGRESS, "\r\033[K");
    sink(sink_ctx, level, esc);
    size_t n = strlen(esc);
    if (n > 0 && esc[n - 1] == '\n') /* a whole line: the progress line goes under it */
        sink(sink_ctx, BR_LOG_PROGRESS, progress);
    else
        progress[0] = '\0';
}

void br_log_note(int quiet, const char *prog, const char *fmt, ...) {
    if (quiet)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    br_log(BR_LOG_NOTE, "%s: %s\n", prog, msg);
}

void br_log(br_log_level level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    br_vlog(level, fmt, ap);
    va_end(ap);
}
