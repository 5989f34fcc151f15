/* SPDX-License-Identifier: Apache-2.0 */
/* Libgit2 started once per process, shut down at exit (why in
 * gitlib.h). */
#include "gitlib.h"

#include <git2.h>
#include <pthread.h>
#include <stdlib.h>

#include "error.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int started, calls;

static void shutdown_at_exit(void) {
    git_libgit2_shutdown();
}

int br_gitlib_init(void) {
    pthread_mutex_lock(&lock);
    int ok = started;
    if (!ok) {
        calls++;
        ok = started = git_libgit2_init() >= 0;
        if (ok)
            atexit(shutdown_at_exit);
    }
    pthread_mutex_unlock(&lock);
    if (ok)
        return 0;
    const git_error *e = git_error_last();
    return br_error_set("libgit2: cannot start: %s",
                        e && e->message ? e->message : "unknown error");
}

int br_gitlib_init_count(void) {
    pthread_mutex_lock(&lock);
    int n = calls;
    pthread_mutex_unlock(&lock);
    return n;
}
