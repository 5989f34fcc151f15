/* SPDX-License-Identifier: Apache-2.0 */
/* benchrun - the executable: the locale, the message sink, and the command
 * the arguments name (the table of cli/commands.c). Each command parses
 * its own options (cli/cmd_*.c) and hands over to drive/. */
#include <signal.h>

#include "commands.h"
#include "common.h"
#include "msg.h"
#include "worker/process.h"

int main(int argc, char **argv) {
    br_worker_init_process(); /* before any thread: process.h */
    br_cli_locale();
    br_msg_init();
    signal(SIGXFSZ, SIG_IGN); /* past `ulimit -f` a write fails with EFBIG and is reported */
    return br_cli_main(argc, argv);
}
