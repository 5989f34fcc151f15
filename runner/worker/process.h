/* SPDX-License-Identifier: Apache-2.0 */
/* A worker process that serves requests for its parent, so that
 * code which may crash, hang or poison its process (a kernel module's
 * segfault, a sticky CUDA error, an endless loop) costs the parent nothing.
 *
 * The worker is a fork(2) of the parent: it sees the parent's memory as it
 * was at the fork (loaded modules, plans), so a request may carry pointers
 * into it. The parent must not have initialised CUDA before the fork (a
 * CUDA context does not survive fork; CUDA Programming Guide, "Initialization"),
 * which is why every CUDA call of benchrun happens in a worker.
 *
 * Requests and replies are byte strings sent over a Unix stream socket,
 * each framed by its length. The parent waits for a reply with a deadline
 * (the watchdog), and gives up early when br_stop_signal() says an
 * interrupt arrived. Only the parent may call these functions, except
 * br_stage_set (measure/stage.h), which is for the worker.
 */
#ifndef BR_WORKER_H
#define BR_WORKER_H

#include <stddef.h>

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_worker br_worker;

/* The worker's handler of one request: req[0..len) as the parent sent it.
 * It sets *reply to a malloc'd reply of *reply_len bytes (the worker frees
 * it after sending) and returns 0 to go on serving, 1 to exit after this
 * reply (at once, releasing nothing: for a process that may be poisoned),
 * or -1 to exit without replying. Called with req NULL when the parent
 * closed the connection (a clean end: release what needs releasing;
 * *reply is ignored). */
typedef int (*br_worker_serve_fn)(void *ctx, const void *req, size_t len, void **reply,
                                  size_t *reply_len);

/* Largest request or reply, bytes (1 GiB). */
#define BR_WORKER_MAX_MESSAGE ((size_t)1 << 30)

/* Once, in main() before any thread starts: every thread of benchrun and
 * of the workers it forks allocates from glibc's one main arena
 * (mallopt(M_ARENA_MAX, 1)) instead of an arena per thread. Measured with
 * --devices on two H200s, in runs with the sgemm module (cuBLAS) loaded:
 * the GPU worker forked from one of the two lane threads, allocating from
 * that thread's arena, took about 5 ms more for each case's checked run
 * and for its verification (a synchronisation of an idle stream took
 * 1.7-2.6 ms instead of 0.2 ms), in all 19 such runs; with one arena
 * (MALLOC_ARENA_MAX=1, then this call) in none of 7. A no-op where the C
 * library has no M_ARENA_MAX. */
void br_worker_init_process(void);

/* Fork a worker that calls serve(ctx, ...) for each request. In the
 * worker, SIGINT and SIGTERM are ignored (the parent decides what an
 * interrupt stops) and the worker is killed (SIGKILL) when its parent
 * dies: by prctl(2)'s PR_SET_PDEATHSIG, whose parent is the thread that
 * forked it, so the worker dies as soon as the thread that called
 * br_worker_start ends, even while the process runs on (see
 * br_worker_usable). Returns 0 with *out (stop it with br_worker_stop), or
 * -1 with the error set. */
int br_worker_start(br_worker **out, br_worker_serve_fn serve, void *ctx);

/* Outcomes of br_worker_call. */
typedef enum br_worker_result {
    BR_WORKER_OK = 0,         /* *reply holds the reply */
    BR_WORKER_DIED = -1,      /* the worker ended without a reply; the error says how
                                 ("killed by signal 11 (SIGSEGV: Segmentation fault)") */
    BR_WORKER_TIMED_OUT = -2, /* no reply within the deadline: the worker was killed */
    BR_WORKER_STOPPED = -3,   /* br_stop_signal() became nonzero while waiting: the worker was
                                 killed */
    BR_WORKER_ERROR = -4      /* the parent could not talk to it (out of memory, a message
                                 over BR_WORKER_MAX_MESSAGE); the worker was killed */
} br_worker_result;

/* Send req[0..len) and wait at most timeout_ns (ns; <= 0: no deadline) for
 * the reply, which goes to *reply (malloc'd, the caller frees it) and
 * *reply_len. On any result but BR_WORKER_OK the worker is gone (reaped),
 * *reply is NULL, and br_worker_stage() still tells where it was; start a
 * new one for the next request. The error is set for BR_WORKER_DIED and
 * BR_WORKER_ERROR. */
br_worker_result br_worker_call(br_worker *w, const void *req, size_t len, double timeout_ns,
                                void **reply, size_t *reply_len);

/* 1 while the worker runs (it has not died, timed out or been stopped). */
int br_worker_alive(const br_worker *w);

/* 1 when the calling thread may send the worker a request: it is alive
 * and this thread started it. A worker started by another thread is
 * killed when that thread ends (br_worker_start), perhaps between the
 * request and its reply; stop it and start one from this thread. */
int br_worker_usable(const br_worker *w);

/* The last stage the worker announced with br_stage_set (measure/stage.h)
 * (BR_STAGE_NONE when none), read from memory the two processes share;
 * valid until br_worker_stop. */
br_stage br_worker_stage(const br_worker *w);

/* End the worker (when alive: close the connection, which lets it release
 * its resources and exit; killed when it has not exited within 5 s), reap
 * it and free *w. Accepts NULL. */
void br_worker_stop(br_worker *w);

#ifdef __cplusplus
}
#endif
#endif
