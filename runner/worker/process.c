/* SPDX-License-Identifier: Apache-2.0 */
/* A forked worker process that serves requests (process.h). */
#define _GNU_SOURCE
#include "process.h"

#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "measure/stage.h"

/* The page the two processes share: where the worker is. */
typedef struct shared_state {
    volatile int stage; /* a br_stage */
} shared_state;

struct br_worker {
    pid_t pid;            /* 0 once reaped */
    int fd;               /* the parent's end of the socket; -1 once closed */
    pid_t thread;         /* the thread that started it (its kernel thread id): the worker's
                             parent for PR_SET_PDEATHSIG, so it dies when that thread ends */
    shared_state *shared; /* mapped until br_worker_stop, so it outlives the worker */
};

/* The calling thread's kernel thread id. */
static pid_t this_thread(void) {
    return (pid_t)syscall(SYS_gettid);
}

/* The parent's ends of the live workers' sockets, so that a worker forked
 * while others run (from several threads: --devices) closes its copies of
 * them: else a sibling would not see its parent close the connection, nor
 * the parent see a sibling die. Changed, and forked, under starts_lock. */
#define MAX_LIVE 256
static pthread_mutex_t starts_lock = PTHREAD_MUTEX_INITIALIZER;
static int live_fds[MAX_LIVE];
static size_t n_live;

static void live_add(int fd) {
    if (n_live < MAX_LIVE)
        live_fds[n_live++] = fd;
}

/* Close the parent's end fd, and forget it, under the lock. */
static void live_close(int fd) {
    pthread_mutex_lock(&starts_lock);
    for (size_t i = 0; i < n_live; i++)
        if (live_fds[i] == fd) {
            live_fds[i] = live_fds[--n_live];
            break;
        }
    close(fd);
    pthread_mutex_unlock(&starts_lock);
}

/* Write all of buf; 0, or -1 (the peer is gone). MSG_NOSIGNAL: a closed
 * peer is an error, not a SIGPIPE. */
static int send_all(int fd, const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int send_frame(int fd, const void *buf, size_t len) {
    uint64_t n = len;
    return send_all(fd, &n, sizeof n) == 0 && send_all(fd, buf, len) == 0 ? 0 : -1;
}

/* ---- the worker's side ---------------------------------------------------------- */

/* Read exactly len bytes, blocking; 1 on success, 0 at end of file, -1 on an error. */
static int recv_all(int fd, void *buf, size_t len) {
    char *p = buf;
    size_t got = 0;
    while (got < len) {
        ssize_t n = recv(fd, p + got, len - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            return got == 0 ? 0 : -1;
        got += (size_t)n;
    }
    return 1;
}

static _Noreturn void serve_loop(int fd, br_worker_serve_fn serve, void *ctx) {
    for (;;) {
        uint64_t len;
        int r = recv_all(fd, &len, sizeof len);
        void *reply = NULL;
        size_t reply_len = 0;
        if (r <= 0 || len > BR_WORKER_MAX_MESSAGE) {
            serve(ctx, NULL, 0, &reply, &reply_len);
            _exit(r == 0 ? 0 : 1);
        }
        char *req = malloc(len ? len : 1);
        if (!req || recv_all(fd, req, len) != 1)
            _exit(1);
        br_error_clear();
        int rc = serve(ctx, req, len, &reply, &reply_len);
        free(req);
        if (rc < 0)
            _exit(1);
        int sent = send_frame(fd, reply, reply_len);
        free(reply);
        if (sent != 0)
            _exit(1);
        if (rc > 0) /* no clean-up: the process may be poisoned (a sticky CUDA error) */
            _exit(0);
    }
}

void br_worker_init_process(void) {
#ifdef M_ARENA_MAX
    mallopt(M_ARENA_MAX, 1);
#endif
}

int br_worker_start(br_worker **out, br_worker_serve_fn serve, void *ctx) {
    *out = NULL;
    br_worker *w = calloc(1, sizeof *w);
    if (!w)
        return br_error_nomem();
    w->fd = -1;
    w->shared =
        mmap(NULL, sizeof *w->shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (w->shared == MAP_FAILED) {
        free(w);
        return br_error_set("cannot map memory for a worker process: %s", strerror(errno));
    }
    int sv[2];
    pthread_mutex_lock(&starts_lock);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        int e = errno;
        pthread_mutex_unlock(&starts_lock);
        munmap(w->shared, sizeof *w->shared);
        free(w);
        return br_error_set("cannot create a socket for a worker process: %s", strerror(e));
    }
    /* What stdio holds would otherwise be written twice. */
    fflush(NULL);
    /* No interrupt reaches the child before it ignores them (it would run
     * the parent's handler), nor the parent in between. */
    sigset_t stop_signals, old_mask;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop_signals, &old_mask);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0)
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        close(sv[1]);
        pthread_mutex_unlock(&starts_lock);
        munmap(w->shared, sizeof *w->shared);
        free(w);
        return br_error_set("cannot start a worker process: %s", strerror(e));
    }
    if (pid == 0) {
        close(sv[0]);
        for (size_t i = 0; i < n_live; i++) /* the siblings' connections */
            close(live_fds[i]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) /* the parent died before the line above */
            _exit(1);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        br_stage_bind(&w->shared->stage);
        serve_loop(sv[1], serve, ctx);
    }
    close(sv[1]);
    live_add(sv[0]);
    pthread_mutex_unlock(&starts_lock);
    w->pid = pid;
    w->fd = sv[0];
    w->thread = this_thread();
    *out = w;
    return 0;
}

/* ---- the parent's side ---------------------------------------------------------- */

/* How a process ended, for a message. */
static void describe_status(char *buf, size_t len, int status) {
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        char name[32];
        br_signal_name(name, sizeof name, sig);
        snprintf(buf, len, "was killed by signal %d (%s: %s)", sig, name, strsignal(sig));
    } else if (WIFEXITED(status)) {
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
    } else {
        snprintf(buf, len, "ended (wait status %#x)", (unsigned)status);
    }
}

/* Close the connection, kill the worker and reap it (killing one that
 * already exited changes nothing); *status gets its wait status (0 if
 * unknown). */
static void end_worker(br_worker *w, int *status) {
    int st = 0;
    if (w->fd >= 0) {
        live_close(w->fd);
        w->fd = -1;
    }
    if (w->pid > 0) {
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
            ;
        w->pid = 0;
    }
    if (status)
        *status = st;
}

/* Wait until fd is readable, the deadline passes (0) or a stop signal
 * arrives; 1 readable, 0 deadline, -1 stop. Waits in slices of at most
 * 100 ms, so a signal that lands just before poll() is seen soon. */
static int wait_readable(int fd, double deadline_ns) {
    for (;;) {
        if (br_stop_signal())
            return -1;
        int slice = 100;
        if (deadline_ns > 0) {
            double left = deadline_ns - br_now_ns();
            if (left <= 0)
                return 0;
            if (left < 100e6)
                slice = (int)(left / 1e6) + 1;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int n = poll(&p, 1, slice);
        if (n > 0)
            return 1;
        /* n == 0, or EINTR (a signal: checked at the top) */
    }
}

/* Read exactly len bytes before the deadline. 1 done, 0 end of file or an
 * error (the worker died), -2 deadline, -3 stop. */
static int read_until(int fd, void *buf, size_t len, double deadline_ns) {
    char *p = buf;
    size_t got = 0;
    while (got < len) {
        int r = wait_readable(fd, deadline_ns);
        if (r < 0)
            return -3;
        if (r == 0)
            return -2;
        ssize_t n = recv(fd, p + got, len - got, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return 0;
        got += (size_t)n;
    }
    return 1;
}

br_worker_result br_worker_call(br_worker *w, const void *req, size_t len, double timeout_ns,
                                void **reply, size_t *reply_len) {
    *reply = NULL;
    *reply_len = 0;
    if (!br_worker_alive(w))
        return br_error_set("the worker process has ended"), BR_WORKER_ERROR;
    if (len > BR_WORKER_MAX_MESSAGE) {
        end_worker(w, NULL);
        br_error_set("a request of %zu bytes is over the limit", len);
        return BR_WORKER_ERROR;
    }
    double deadline = timeout_ns > 0 ? br_now_ns() + timeout_ns : 0;
    int r = 1;
    uint64_t n = 0;
    if (send_frame(w->fd, req, len) != 0)
        r = 0; /* it died: reap it below */
    if (r == 1)
        r = read_until(w->fd, &n, sizeof n, deadline);
    char *buf = NULL;
    if (r == 1 && n > BR_WORKER_MAX_MESSAGE) {
        end_worker(w, NULL);
        br_error_set("the worker process sent a reply of %llu bytes, over the limit",
                     (unsigned long long)n);
        return BR_WORKER_ERROR;
    }
    if (r == 1 && !(buf = malloc(n ? n : 1))) {
        end_worker(w, NULL);
        br_error_nomem();
        return BR_WORKER_ERROR;
    }
    if (r == 1)
        r = read_until(w->fd, buf, n, deadline);
    if (r == 1) {
        *reply = buf;
        *reply_len = n;
        return BR_WORKER_OK;
    }
    free(buf);
    if (r == -2 || r == -3) {
        end_worker(w, NULL);
        return r == -2 ? BR_WORKER_TIMED_OUT : BR_WORKER_STOPPED;
    }
    /* (Killed too: a broken connection to a worker still running must not
     * leave the reaping waiting for it.) */
    int status;
    end_worker(w, &status);
    char how[160];
    describe_status(how, sizeof how, status);
    br_error_set("the worker process %s", how);
    return BR_WORKER_DIED;
}

int br_worker_alive(const br_worker *w) {
    return w && w->pid > 0 && w->fd >= 0;
}

int br_worker_usable(const br_worker *w) {
    return br_worker_alive(w) && w->thread == this_thread();
}

br_stage br_worker_stage(const br_worker *w) {
    return w ? (br_stage)w->shared->stage : BR_STAGE_NONE;
}

void br_worker_stop(br_worker *w) {
    if (!w)
        return;
    if (w->fd >= 0) {
        live_close(w->fd);
        w->fd = -1;
    }
    if (w->pid > 0) {
        /* It releases what it holds (a CUDA context, CUPTI buffers) and exits. */
        int st;
        double give_up = br_now_ns() + 5e9;
        pid_t r;
        while ((r = waitpid(w->pid, &st, WNOHANG)) == 0 && br_now_ns() < give_up)
            usleep(1000);
        if (r == 0)
            end_worker(w, NULL);
        w->pid = 0;
    }
    munmap(w->shared, sizeof *w->shared);
    free(w);
}
