/* SPDX-License-Identifier: Apache-2.0 */
/* The command line's door for messages: the sink of base/log.h
 * (the core's messages) and the CLI's own, with the "<prog>: " prefix. The
 * model is curl's tool_msgs.c. */
#ifndef BR_CLI_MSG_H
#define BR_CLI_MSG_H

#include "base/log.h"

/* Install the sink of this process (br_log_set_sink): messages go to
 * standard error as the core wrote them; a progress line (BR_LOG_PROGRESS)
 * is drawn over the previous one ("\r\033[K" first, unless the text starts
 * with '\r' itself). */
void br_msg_init(void);

/* The sink itself, for tests (ctx unused). */
void br_msg_sink(void *ctx, br_log_level level, const char *msg);

/* "<prog>: <message>\n" on standard error (printf-style): an error, or a
 * note the caller has already checked quiet mode for. */
void br_msg_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
