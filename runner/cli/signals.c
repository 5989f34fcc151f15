/* SPDX-License-Identifier: Apache-2.0 */
/* SIGINT, SIGTERM and SIGPIPE for a run (signals.h). */
#include "signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static void on_stop_signal(int sig) {
    if (br_stop_signal()) {
        br_write_atomic_abandon();
        _exit(128 + sig);
    }
    int saved = errno;
    br_stop_request(sig);
    static const char msg[] = "\nbenchrun: interrupted: no new case starts; writing the results "
                              "of the finished ones (interrupt again to quit at once)\n";
    ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)n;
    errno = saved;
}

void br_cli_signals_arm(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT); /* one handler at a time */
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}
