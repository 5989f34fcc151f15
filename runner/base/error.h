/* SPDX-License-Identifier: Apache-2.0 */
/* Benchrun's thread-local last error.
 *
 * A failing function sets the message once, where the error is found, and
 * returns a negative value; callers pass the value up and leave the message
 * unchanged. Messages read like a compiler's:
 *   suites/x.yaml:12:5: unknown key 'warmpu' (did you mean 'warmup'?)
 */
#ifndef BR_ERROR_H
#define BR_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest message kept, in bytes including the terminating NUL; longer
 * messages are truncated. */
#define BR_ERROR_MAX 4096

/* A position in a source file. line and column are 1-based; 0 means unknown.
 * path is borrowed (not owned) and may be NULL. */
typedef struct br_pos {
    const char *path;
    int line;
    int column;
} br_pos;

/* Set the last error to a printf-style message. Returns -1 so a caller can
 * write `return br_error_set(...)`. Every message is kept with its controls,
 * bidirectional controls and bytes that are not UTF-8 escaped (text.h;
 * newlines and tabs kept), so it is safe to print on a terminal. */
int br_error_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Set the last error to "path:line:column: message" (the parts that are
 * unknown are left out). Returns -1. */
int br_error_at(br_pos pos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Put a printf-style prefix before the last error's message ("--json " +
 * "out.json: is a directory"), keeping its kind. Returns -1. */
int br_error_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last error message of this thread ("" when none). The string is owned
 * by the thread and valid until the next br_error_* call on it. */
const char *br_error_get(void);

/* Forget the last error of this thread (its kind too). */
void br_error_clear(void);

/* What kind of failure the last error is, so callers decide by kind (the
 * command line maps kinds to exit statuses) rather than by ad-hoc return
 * values. The model is libgit2's git_error_last()->klass / GIT_ENOTFOUND. */
typedef enum br_error_kind {
    BR_E_NONE = 0,       /* no error, or one that was set without a kind */
    BR_E_INPUT = 1,      /* bad input: a suite, an option, a results file */
    BR_E_IO = 2,         /* a file could not be read or written */
    BR_E_NOMEM = 3,      /* out of memory */
    BR_E_NOTFOUND = 4,   /* a file, baseline or name that does not exist */
    BR_E_EXISTS = 5,     /* a file that should be new exists */
    BR_E_INTERRUPTED = 6 /* SIGINT or SIGTERM stopped the work */
} br_error_kind;

/* Set the kind of the last error (keeping its message). Returns -1. */
int br_error_set_kind(br_error_kind kind);

/* The kind of the last error of this thread (BR_E_NONE when none was set
 * since the message; every br_error_set/br_error_at resets it). */
br_error_kind br_error_kind_get(void);

/* Set the last error to "out of memory", of kind BR_E_NOMEM. Returns -1. */
int br_error_nomem(void);

#ifdef __cplusplus
}
#endif
#endif
