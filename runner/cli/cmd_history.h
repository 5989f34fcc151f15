/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_history.h - the `benchrun history` subcommand. */
#ifndef BR_CMD_HISTORY_H
#define BR_CMD_HISTORY_H

/* `benchrun history DIR [-k GLOB]... [-p NAME=VALUE]... [--suite NAME]
 * [--last N] [--plot FILE.svg] [--ascii]`: argv[0] is "history". Sets the
 * locale from the environment (numbers stay in the C locale) and prints
 * ASCII when its codeset is not UTF-8, as benchrun does. Prints the tables
 * to stdout and errors to stderr; --plot with several suites and no
 * --suite is refused before anything is printed. Returns the process's exit
 * status: 0 ok, 2 bad input or usage, 1 when a plot was asked for and could
 * not be drawn (the table is printed first). */
int br_history_main(int argc, char **argv);

#endif
