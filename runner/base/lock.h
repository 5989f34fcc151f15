/* SPDX-License-Identifier: Apache-2.0 */
/* An advisory lock that serializes read-modify-write of one file
 * between processes: an fcntl(2) write lock (open file description lock
 * where the kernel has them) on a lock file beside it. fcntl rather than
 * flock(2): on NFS, fcntl locks are forwarded to the server (NLM, or
 * NFSv4's LOCK; RFC 7530 section 9), so they hold across hosts, which
 * flock(2) does only where the client emulates it with them (Linux since
 * 2.6.12; flock(2), "NFS details"). Two saves of one
 * baseline at once each read the old file, merge their cases and rename
 * the result over it; without the lock the later rename drops the
 * other's cases. */
#ifndef BR_LOCK_H
#define BR_LOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* A lock held (fd >= 0) or not (fd -1). */
typedef struct br_lock {
    int fd;
} br_lock;

/* After this long waiting, say so once on stderr, ns. */
#define BR_LOCK_SAY_AFTER_NS 1e9

/* Take an exclusive advisory lock (fcntl(2), F_WRLCK) for `path`: on the
 * hidden file ".NAME.lock" beside it (NAME the last component of path),
 * created empty (mode 0644) when absent and never removed (a lock file removed while another
 * process waits on it would let two holders in). Waits while another process holds it, polling
 * every 10 ms; after BR_LOCK_SAY_AFTER_NS writes once to stderr "benchrun: waiting for LOCK
 * (another benchrun is writing PATH)", unless quiet; gives up after timeout_ns. A lock file that is
 * a symbolic link or not a regular file is refused, never followed or replaced. Returns 0 with *out
 * held; -2 with the error set (kind BR_E_IO) after the timeout; -1 with the error set when the lock
 * file cannot be opened or locked (*out then has fd -1). */
int br_lock_take(br_lock *out, const char *path, double timeout_ns, int quiet);

/* Release *l (closing its file) and set fd to -1; accepts a lock not held. */
void br_lock_release(br_lock *l);

#ifdef __cplusplus
}
#endif
#endif
