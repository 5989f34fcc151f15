/* SPDX-License-Identifier: Apache-2.0 */
/* The one maker of temporary names, and the rule that removes only
 * temporary files and folders that are provably dead.
 *
 * Writers on several hosts and in several containers (PID namespaces) may
 * share one folder (a results folder, a compile cache on a network file
 * system); a process id alone names nothing there: two containers started
 * the same way run benchrun as the same PID. So a temporary name is
 *
 *     DIR/.NAME.benchrun-tmp.HOST.NS.PID.RANDOM[SUFFIX]
 *
 * HOST the machine's boot id (/proc/sys/kernel/random/boot_id, 16 hex
 * digits, 'b' first; where it cannot be read, a hash of the host name, 'h'
 * first), NS the PID namespace (the inode of /proc/self/ns/pid; 0 when
 * unknown), PID the writer's process id and RANDOM 64 bits from
 * getrandom(2). Each is created with O_EXCL (never over another's file)
 * and, while its writer lives, holds an fcntl(2) open-file-description
 * write lock over its first byte (a folder: on its ".lock" file).
 *
 * The sweep removes a temporary file or folder only when one of two rules
 * proves it dead (and only those this user owns; nothing that is not such a
 * name is ever looked at):
 *   - "ours, process gone": it was made on this boot of this host in this
 *     PID namespace, by a process that kill(2) says is gone (ESRCH), and it
 *     is not locked;
 *   - "stale": its last change is older than BR_TMP_STALE_S and it is not
 *     locked (F_OFD_GETLK says no lock; where the lock cannot be asked, as
 *     on an NFS mount without a lock manager, it is kept).
 * Names of the older form ".NAME.benchrun-tmp.PID.XXXXXX" fall under the
 * second rule only. With br_log_verbose() each removal is said with its
 * rule.
 *
 * Locks on NFS: fcntl(2) locks are forwarded to the server (NLM for NFSv3,
 * the protocol's own LOCK for NFSv4; RFC 7530 section 9), unlike flock(2)
 * on Linux before 2.6.12 and on some other kernels (flock(2), "NFS
 * details"); renames within one directory are atomic on the server (RFC
 * 1813 section 3.3.14, RFC 7530 section 16.26). */
#ifndef BR_TMP_H
#define BR_TMP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A temporary file or folder older than this is stale when not locked, s. */
#define BR_TMP_STALE_S (24 * 3600)

/* The tag inside every temporary name. */
#define BR_TMP_TAG ".benchrun-tmp."

/* Who made a temporary name, as read back from it. */
typedef struct br_tmp_owner {
    char host[18];         /* "b" + 16 hex of the boot id, or "h" + 16 hex of the host name */
    unsigned long long ns; /* the PID namespace's inode; 0 unknown */
    long pid;              /* the writer's process id; 0 unknown */
} br_tmp_owner;

/* This process's owner fields (read once, then kept). */
const br_tmp_owner *br_tmp_self(void);

/* A new temporary name for `path` (DIR/NAME: the temporary lies in DIR),
 * with `suffix` (may be NULL) at its end, into buf[0..len). NAME is cut to
 * 64 bytes (at a UTF-8 boundary). Returns 0, or -1 with the error set when
 * it does not fit. */
int br_tmp_name(char *buf, size_t len, const char *path, const char *suffix);

/* Create a new temporary file for `path` (br_tmp_name, O_EXCL, mode 0600,
 * close-on-exec), lock it (see above) and return its descriptor; its name
 * into buf[0..len). Returns -1 with the error set ("cannot create NAME:
 * why"). */
int br_tmp_create(char *buf, size_t len, const char *path, const char *suffix);

/* Create a new temporary folder for `path` (mode 0755 before the umask)
 * with a locked ".lock" file inside; its name into buf[0..len) and the
 * lock's descriptor returned (the caller closes it when the folder is
 * renamed or removed). Returns -1 with the error set. */
int br_tmp_mkdir(char *buf, size_t len, const char *path);

/* Read the owner of a temporary name (its last component): 1 with *out
 * set (host empty and pid 0 for the older form), 0 when `name` is not a
 * temporary name. */
int br_tmp_parse(br_tmp_owner *out, const char *name);

/* Remove the provably dead temporary files and folders directly in `dir`
 * (the rules above). Best effort: returns how many were removed. */
int br_tmp_sweep(const char *dir);

#ifdef __cplusplus
}
#endif
#endif
