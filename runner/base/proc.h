/* SPDX-License-Identifier: Apache-2.0 */
/* The programs benchrun runs (the compilers, Nsight Compute's ncu,
 * gnuplot): finding one on PATH, starting it with its output captured to a
 * file or passed through, and waiting for it, with a timeout where the
 * caller needs one (a progress line redrawn while a compiler runs).
 *
 * One rule for finding a program, execvp(3)'s (POSIX, "exec" in XSH 2.9.1.1),
 * so what is found is what runs: a name with a '/' is a path; else the
 * directories of $PATH in order, an empty entry the current directory, and
 * with PATH unset confstr(_CS_PATH) ("/bin:/usr/bin" in glibc); the first
 * regular file there that this process may execute. */
#ifndef BR_PROC_H
#define BR_PROC_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where `name` runs from (the rule above). Returns a malloc'd path (the name
 * itself when it has a '/' and is an executable regular file), or NULL with
 * the error set: "NAME: not found on PATH", "NAME: not an executable file",
 * or out of memory. */
char *br_proc_find(const char *name);

/* How a program is started; a zeroed struct passes everything through. */
typedef struct br_proc_opts {
    /* Standard output and error both to this file (created or truncated,
     * mode 0600 before the umask); NULL: this process's own. */
    const char *output;
    int null_stdin; /* 1: standard input from /dev/null; 0: this process's */
} br_proc_opts;

/* Start argv (NULL-terminated; argv[0] found with br_proc_find) with the
 * options o (NULL: all passed through); *out is its pid, which the caller
 * must wait for (br_proc_wait, br_proc_wait_any). Returns 0, or -1 with
 * the error set ("cannot run NAME: why", "cannot create FILE: why"). */
int br_proc_spawn(pid_t *out, const char *const *argv, const br_proc_opts *o);

/* Wait up to timeout_ns (< 0: as long as it takes; 0: only look) for one of
 * the n processes pids[0..n) to end (entries <= 0 are not waited for),
 * reap it and set *which to its index and *status to its wait status
 * (waitpid's: WIFEXITED, WEXITSTATUS, ... read it; br_proc_exit_code sums
 * it up). Returns 1 when one ended, 0 when none did in time (or none is
 * waited for), -1 with the error set when waiting failed. A signal that
 * interrupts the wait does not end it. Linux: the processes' pidfds are
 * polled; without pidfd_open(2), or for more than 64 processes,
 * waitpid(WNOHANG) every 10 ms. */
int br_proc_wait_any(size_t *which, int *status, const pid_t *pids, size_t n, double timeout_ns);

/* Wait for pid to end (no timeout) and set *status to its wait status.
 * Returns 0, or -1 with the error set. */
int br_proc_wait(int *status, pid_t pid);

/* A wait status as one number: the exit status, or 128 + the signal that
 * killed the process (as a shell's $? says it). */
int br_proc_exit_code(int status);

/* br_proc_spawn then br_proc_wait: run argv to its end. *status is its wait
 * status. Returns 0 (whatever the program's own status), or -1 with the
 * error set when it could not be started or waited for. */
int br_proc_run(int *status, const char *const *argv, const br_proc_opts *o);

/* Run argv (standard input /dev/null) to its end with its standard output
 * and error read through a pipe (no file is written) into *out, a
 * NUL-terminated string the caller frees (at most max_bytes kept). *status
 * is its wait status. Returns 0 (whatever the program's own status), or -1
 * with the error set when it could not be started or waited for. */
int br_proc_capture(char **out, int *status, const char *const *argv, size_t max_bytes);

#ifdef __cplusplus
}
#endif
#endif
