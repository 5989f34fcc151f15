/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by the modules: clocks, strings, paths,
 * hashing, signals and formatting (file reads and writes: files.h). */
#ifndef BR_UTIL_H
#define BR_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Reading a file whole and writing outputs (br_read_file, br_write_atomic,
 * br_write_new, ...) live in files.h; included here for the modules that
 * have always found them in util.h. */
#include "files.h"
#include "stop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CLOCK_MONOTONIC now, in ns. */
double br_now_ns(void);

/* strdup that records an error on failure (NULL in, NULL out). */
char *br_strdup(const char *s);

/* A newly allocated printf-style string, or NULL (error set). Caller frees. */
char *br_strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* `dir` + "/" + `name` (just `name` when it is absolute or dir is empty).
 * Caller frees; NULL (error set) when out of memory. */
char *br_path_join(const char *dir, const char *name);

/* The directory part of `path`: "a/b" -> "a", "b" -> ".", "/b" -> "/".
 * Caller frees; NULL (error set) when out of memory. */
char *br_path_dir(const char *path);

/* The running executable's path, from /proc/self/exe with symbolic links
 * resolved. Caller frees; NULL (error set) when /proc is not mounted, the
 * path is longer than PATH_MAX, or out of memory. */
char *br_exe_path(void);

/* The directory that holds the running executable, from /proc/self/exe with
 * symbolic links resolved ("/usr/bin" for /usr/bin/benchrun), so paths
 * relative to it survive a moved install prefix. Caller frees; NULL (error
 * set) when /proc is not mounted or out of memory. */
char *br_exe_dir(void);

/* 1 when `s` ends with `suffix`. */
int br_has_suffix(const char *s, const char *suffix);

/* `path` with "." components, repeated slashes and "name/.." pairs removed
 * lexically ("suites/../kernels/x.cu" -> "kernels/x.cu"; "./a" -> "a"); a
 * leading "../" and a leading "/" are kept. Callers that care about symbolic
 * links check that the result names the same file. Caller frees; NULL (error
 * set) when out of memory. */
char *br_path_normalize(const char *path);

/* Create directory `path` and its parents (mode 0777 before umask). */
int br_mkdir_p(const char *path);

/* The git blob id (SHA-1 hex, 40 chars + NUL) of `len` bytes: the same value
 * `git hash-object` prints for a file with those bytes. Computed by libgit2. */
int br_hash_blob(char out[41], const void *data, size_t len);

/* A signal's name, "SIGINT", into buf (NUL-terminated when len > 0; "SIG?"
 * for a number glibc does not name). */
void br_signal_name(char *buf, size_t len, int sig);

/* A duration for a message: "850 ns", "12.5 us", "420 ms", "2.5 s", "10 min" (3
 * significant digits at most), into buf (NUL-terminated when len > 0). */
void br_format_duration(char *buf, size_t len, double ns);

/* Elapsed wall time as a clock: "42s", "3m07s", "1h02m", into buf. */
void br_format_clock(char *buf, size_t len, double ns);

/* The host's physical memory, bytes; INFINITY when it cannot be read. */
double br_host_memory(void);

/* Bytes for a message in decimal units, into buf[0..len): "512 B", "4.29 GB", "4.5 PB". */
void br_format_bytes(char *buf, size_t len, double bytes);

/* 1 when `name` matches one of the n_patterns fnmatch(3) globs, or when
 * there are none (no -k: every kernel). NULL patterns and a NULL name match
 * nothing. */
int br_glob_any(const char *name, const char *const *patterns, size_t n_patterns);

#ifdef __cplusplus
}
#endif
#endif
