/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a file whole, and writing one so that a reader never
 * sees a part and nothing benchrun did not create is replaced.
 *
 * Reading: only a regular file is read (a FIFO, a device or a directory is
 * refused at once, before any byte is read), within a limit checked first
 * on the file's size and again while reading.
 *
 * Writing an output given by the user (--json FILE and the others; see
 * docs/outputs.md, "Where an output goes"):
 *   - "-", or a path that names the file standard output (or standard
 *     error) already is, such as /dev/stdout: written to that stream;
 *   - a FIFO or a character device (/dev/null, a terminal): opened and
 *     written in place, as a stream; never replaced;
 *   - a regular file, or a path where nothing is: a temporary file in the
 *     same directory, flushed, fsync'ed and renamed over it; a symbolic link
 *     to a regular file is followed, so the link stays and its target is
 *     replaced;
 *   - anything else (a directory, a block device, a socket, a symbolic link
 *     to nothing) is refused with the reason, and nothing is written.
 *
 * Temporary files are made by base/tmp.h (names unique across hosts and
 * containers, locked while written); each write into a directory first
 * removes the temporary files there that tmp.h's rules prove dead; nothing
 * else is ever removed. */
#ifndef BR_FILES_H
#define BR_FILES_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Read the whole regular file at `path` into a NUL-terminated buffer the
 * caller frees. The file is opened without blocking (a FIFO with no writer
 * does not hang), checked with fstat before any read (not a regular file,
 * or larger than `max_bytes`: refused at once) and read to at most
 * max_bytes (a file that grows past it is refused too). Returns 0, or -1
 * with the error set, naming the file ("PATH: cannot open: No such file or
 * directory", "PATH: not a regular file (a FIFO)", "PATH: file is larger
 * than the limit of N bytes"). */
int br_read_file(char **out, size_t *out_len, const char *path, size_t max_bytes);

/* Where an output path leads (see the header comment). */
typedef enum br_target_kind {
    BR_TARGET_FILE = 0, /* a regular file or nothing: replaced atomically */
    BR_TARGET_STDOUT,   /* standard output ("-", /dev/stdout, ...) */
    BR_TARGET_STDERR,   /* the file standard error is (/dev/stderr) */
    BR_TARGET_STREAM    /* a FIFO or a character device: written in place */
} br_target_kind;

/* What `path` is as an output: its kind into *out_kind. Returns 0, or -1
 * with the error set ("PATH: is a directory", "PATH: is a block device;
 * benchrun writes only to regular files, FIFOs and character devices",
 * "PATH: is a symbolic link to X, which does not exist"). Opens nothing. */
int br_output_kind(br_target_kind *out_kind, const char *path);

/* The file an output of kind BR_TARGET_FILE at `path` replaces, into
 * real[0..len): path itself, or for a symbolic link the file it leads to
 * (so the link stays). Returns 0, or -1 with the error set. */
int br_output_resolve(char *real, size_t len, const char *path);

/* 1 when `path` is standard output as an output ("-", or the file standard
 * output is), else 0. */
int br_path_is_stdout(const char *path);

/* Write an output: `write` is called with a stream on the target `path`
 * leads to (see the header comment). For a file, the stream is a temporary
 * file in the target's directory; when `write` returns 0 it is flushed,
 * fsync'ed and renamed over the target (and the directory fsync'ed), so
 * readers see the old content or the new, never a part; when `write` or
 * anything else fails, the temporary file is removed and the target is
 * untouched. A write error (a full disk, EFBIG past `ulimit -f`) is an
 * error like any other. Returns 0 or -1 (error set). */
int br_write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx);

/* As br_write_atomic, but never replaces: the file appears at `path` only
 * when nothing is there (link(2) of the temporary file). Returns 0, 1 when
 * `path` exists (nothing written; the error says so, of kind BR_E_EXISTS),
 * or -1 (error set). */
int br_write_new(const char *path, int (*write)(FILE *f, void *ctx), void *ctx);

/* For a signal handler that is about to _exit: remove the temporary file of
 * a br_write_atomic in progress, if any, so an interrupted write leaves
 * nothing behind. Async-signal-safe. */
void br_write_atomic_abandon(void);

#ifdef __cplusplus
}
#endif
#endif
