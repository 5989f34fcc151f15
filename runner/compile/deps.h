/* SPDX-License-Identifier: Apache-2.0 */
/* What a compiled module was built from, as the compiler itself
 * says (ccache's "depend mode"): the compiler's dependency file (Makefile
 * rule syntax, written with -MMD/-MD -MF) read, and a record kept in the
 * cache of every dependency outside the system's own directories with the
 * hash of its content, so a cached object is used only while every file it
 * was built from still has the bytes it had.
 *
 * System directories (never recorded: they change with the compiler or the
 * distribution's packages, and the compiler's identity is part of the key):
 * /usr/include/, /usr/lib/ (gcc's and clang's own headers) and the CUDA
 * toolkit's root (the directory above nvcc's bin/, real path). Everything
 * else is recorded: the source, benchrun_kernel.h, the suite's headers, and
 * headers under /usr/local/include or any other include directory.
 */
#ifndef BR_DEPS_H
#define BR_DEPS_H

#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One file an object was built from. */
typedef struct br_dep {
    char *path;    /* owned: the real path (after br_deps_collect) */
    char hash[41]; /* git blob id of its bytes; "" until hashed */
} br_dep;

typedef struct br_dep_list {
    br_dep *v; /* owned */
    size_t n;
} br_dep_list;

/* Parse the text of a dependency file: rules `targets: prerequisites`, lines
 * joined at a backslash-newline, "\ " a space inside a name, "\#" a '#',
 * "$$" a '$' (gcc's escapes; nvcc writes "target : ..." and leaves '#'
 * alone). Appends the prerequisites of every rule, each once, in order, to
 * *out (hashes empty; caller frees with br_dep_list_free, also on error).
 * Returns 0, or -1 with the error set (a non-empty line without ':', out of
 * memory). */
int br_deps_parse(br_dep_list *out, const char *text);

/* Read the dependency file at `depfile` and append to *out each of its
 * prerequisites outside the system directories (see above; `toolkit_root`
 * is the CUDA toolkit's real root, or NULL), by real path, hashed. Returns
 * 0, or -1 with the error set (the file unreadable or malformed, a
 * dependency gone or unreadable). */
int br_deps_collect(br_dep_list *out, const char *depfile, const char *toolkit_root);

/* 1 when a dependency was changed (modified, or its inode changed) at or
 * after `since` (CLOCK_REALTIME), or cannot be looked at: the compiler may
 * have read other bytes than those hashed, so the object must not be
 * recorded (ccache's "too new" check); 0 otherwise. */
int br_deps_changed_since(const br_dep_list *deps, const struct timespec *since);

/* The key of the object built from the input `input_key` (source, flags,
 * compiler) with the dependencies `deps` as they are hashed: what names the
 * object in the cache. Returns 0 or -1 (error set: out of memory). */
int br_deps_object_key(char out[41], const char *input_key, const br_dep_list *deps);

/* Look in the record at `manifest` (absent: no entry) for an object whose
 * recorded dependencies all exist with the same content today; the newest
 * such entry's object key goes to out. Returns 1 when found, 0 when none
 * matches (or the record is unreadable: it is rewritten on the next
 * compile). */
int br_deps_lookup(char out[41], const char *manifest);

/* Add an entry to the record at `manifest`: the object `object_key` built
 * from `deps` (hashed). An entry for the same object is replaced; the
 * oldest entries beyond a few are dropped. Written atomically. Returns 0 or
 * -1 (error set: cannot write; a path holding a newline cannot be recorded). */
int br_deps_record(const char *manifest, const char *object_key, const br_dep_list *deps);

/* Release the paths and the array; accepts NULL. */
void br_dep_list_free(br_dep_list *l);

#ifdef __cplusplus
}
#endif
#endif
