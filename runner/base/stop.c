/* SPDX-License-Identifier: Apache-2.0 */
/* The request to stop (stop.h). */
#include "stop.h"

#include <signal.h>

static volatile sig_atomic_t stop_signo;

void br_stop_request(int signo) {
    if (!stop_signo)
        stop_signo = signo;
}

int br_stop_signal(void) {
    return stop_signo;
}
