/* SPDX-License-Identifier: Apache-2.0 */
/* Libgit2 started once per process. git_libgit2_init reads the
 * system's CA bundle and sets up its global state (about 4 ms); a runner
 * that started and shut it down around every blob hash and repository
 * look-up paid that five times a run and once per file of a cold history
 * (issue 43). Here the first caller starts it and atexit shuts it down;
 * every later call returns at once. libgit2: https://libgit2.org. */
#ifndef BR_BASE_GITLIB_H
#define BR_BASE_GITLIB_H

#ifdef __cplusplus
extern "C" {
#endif

/* Start libgit2 for this process unless it is started (thread-safe; the
 * shutdown is registered with atexit). Returns 0, or -1 with the error set
 * ("libgit2: cannot start: ...") when it could not be started; a later
 * call tries again. */
int br_gitlib_init(void);

/* How many times this process called git_libgit2_init through
 * br_gitlib_init: 1 once anything used git, 0 before. For tests. */
int br_gitlib_init_count(void);

#ifdef __cplusplus
}
#endif
#endif
