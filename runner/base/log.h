/* SPDX-License-Identifier: Apache-2.0 */
/* The one door through which the core reports to the user.
 *
 * The core (every stage below runner/cli/) never prints: it calls br_log, and
 * the sink the command line installs decides what reaches the terminal (the
 * "benchrun:" prefix, quiet mode, the progress line). Tests install a sink
 * of their own to capture messages in-process. The model is curl's
 * tool_msgs.c, with the sink a callback so the core stays a library. */
#ifndef BR_LOG_H
#define BR_LOG_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum br_log_level {
    BR_LOG_ERROR = 0,   /* something failed; the run may go on */
    BR_LOG_WARN = 1,    /* the user should act (a noisy case, a forced comparison) */
    BR_LOG_NOTE = 2,    /* information (a fallback clock, skipped GPU cases) */
    BR_LOG_PROGRESS = 3 /* the updating progress line; text without a newline */
} br_log_level;

/* A sink: receives each message whole (a NUL-terminated line, its newline
 * included except for BR_LOG_PROGRESS) with the ctx it was installed with. */
typedef void (*br_log_fn)(void *ctx, br_log_level level, const char *msg);

/* Install the sink of this process (NULL: the default, which writes each
 * message verbatim to standard error). Not thread-safe: install before any
 * work starts. */
void br_log_set_sink(br_log_fn fn, void *ctx);

/* The sink installed now and its ctx (the default's fn, ctx NULL), so that a
 * caller may wrap it for a while (a filter) and put it back. */
void br_log_get_sink(br_log_fn *fn, void **ctx);

/* Whether the user asked for detail (benchrun -v): notes such as which
 * rule removed a temporary file are logged only then. Default 0. */
int br_log_verbose(void);
void br_log_set_verbose(int on);

/* Format a message (printf-style) and hand it to the sink. Messages longer
 * than 8 KiB are cut. The progress line is kept whole: while one is shown
 * (the last BR_LOG_PROGRESS message had text after its leading "\r" and
 * "\033[K"; one of only those clears it), any other message goes to the
 * sink between a BR_LOG_PROGRESS "\r\033[K" that clears the line and, when
 * the message ends its line, the progress line again (the sink sees it
 * twice), so no note lands inside it. Controls, bidirectional controls and bytes that are not UTF-8
 * are escaped (base/text.h; newlines and tabs kept, and a progress message's leading
 * "\r" and "\033[K"), so a name or a path in a message cannot drive the
 * terminal. */
void br_log(br_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* br_log with a va_list. */
void br_vlog(br_log_level level, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* A command's note, "PROG: message\n" at BR_LOG_NOTE, unless quiet (message
 * cut at 1 KiB). */
void br_log_note(int quiet, const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
