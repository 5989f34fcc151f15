/* SPDX-License-Identifier: Apache-2.0 */
/* The command line's door for messages (msg.h). */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>

void br_msg_sink(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    if (level == BR_LOG_PROGRESS && msg[0] != '\r')
        fputs("\r\033[K", stderr);
    fputs(msg, stderr);
}

void br_msg_init(void) {
    br_log_set_sink(br_msg_sink, NULL);
}

void br_msg_error(const char *prog, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
