/* SPDX-License-Identifier: Apache-2.0 */
/* How benchrun answers SIGINT, SIGTERM and SIGPIPE. */
#ifndef BR_CLI_SIGNALS_H
#define BR_CLI_SIGNALS_H

/* Install the handlers (once the suites are prepared, before measuring):
 * the first SIGINT or SIGTERM asks the run to stop (br_stop_request: no new
 * case starts, the outputs are written, the exit status is 128 + signal);
 * a second one exits at once, leaving no temporary file. SIGPIPE is
 * ignored, so a reader that went away fails the write to standard output
 * instead of killing benchrun before it writes the other outputs. */
void br_cli_signals_arm(void);

#endif
