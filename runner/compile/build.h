/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel modules: compile at run time into a content-addressed
 * cache, then load with dlopen.
 *
 * A .cu source is compiled with nvcc for the present GPU's architecture, a .c
 * source with the host C compiler, a .cpp (.cc, .cxx) one with the host C++
 * compiler (see br_build_src for the command lines). Keys are git blob ids (SHA-1). The input
 * key (br_build_key) covers what is known before compiling: the cache format
 * and kernel ABI versions, the compiler's path and `--version` text (for host
 * modules, built with -march=native, also the CPU model and feature flags),
 * the flags, the source bytes and the "..." headers it names. The compiler is
 * the authority on what else it read: every compile writes its dependency
 * list (-MMD -MF for cc, -MD -MF for nvcc), and the cache records, per input
 * key (<input>.deps), each object with every dependency outside the system's
 * directories and its content hash (deps.h). The object's key, which names
 * <key>.so, is the input key with those hashes. A later build uses a recorded
 * object only while every one of its dependencies exists with the same
 * content; otherwise it compiles again (ccache's "depend mode"). So a header
 * reached through <...>, under #if, by a macro or through an include
 * directory is followed too. A cached object is never rebuilt.
 */
#ifndef BR_BUILD_H
#define BR_BUILD_H

#include <stddef.h>

#include "benchrun_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the cache's layout and key; part of every key. */
#define BR_CACHE_FORMAT 2

typedef enum br_module_state {
    BR_MODULE_LOADED = 0, /* compiled (or cached) and loaded */
    BR_MODULE_FAILED = 1, /* compile or load failed: see message and log */
    BR_MODULE_SKIPPED = 2 /* not built: a GPU source with neither a usable GPU nor nvcc */
} br_module_state;

typedef struct br_module_handle {
    char *source; /* owned: the source path */
    int is_gpu;   /* 1 for .cu sources */
    br_module_state state;
    int from_cache;    /* 1 when no compile was needed */
    double compile_ns; /* wall time of the compile, ns (0 when cached) */
    char key[41];      /* the object's key (its name in the cache); "" when not built */
    char *so_path;     /* owned: the shared object in the cache */
    char *command;     /* owned: the compile command, for messages */
    char *log;         /* owned: the compiler's diagnostics when it failed (or warned) */
    char *message;     /* owned: why FAILED or SKIPPED; NULL when loaded */
    void *dl;          /* dlopen handle */
    /* owned: the module's table as this benchrun's ABI reads it (a copy; its
     * kernels point into the module, valid while dl is open); NULL unless LOADED */
    const br_module *module;
} br_module_handle;

typedef struct br_build_opts {
    const char *cache_dir; /* where objects are kept; created if missing */
    /* "sm_90" for nvcc -arch, or NULL (no usable GPU): GPU sources are then
     * SKIPPED, not compiled (a run: its host cases wait on no nvcc), unless
     * compile_without_gpu. */
    const char *gpu_arch;
    /* 1 (benchrun check): without a usable GPU, GPU sources are still built
     * for nvcc's default target, to report compile errors and check kernel
     * names (their cases are skipped), or SKIPPED when nvcc cannot run */
    int compile_without_gpu;
    const char *gpu_skip_reason; /* message for skipped GPU sources */
    int jobs;                    /* compiles run in parallel, at most this many (>= 1) */
    /* 1: a progress line (BR_LOG_PROGRESS, base/log.h) names each running
     * compile and its time so far, redrawn every second (a terminal) */
    int progress;
} br_build_opts;

/* The cache directory to use when none is given: $XDG_CACHE_HOME/benchrun, or
 * $HOME/.cache/benchrun, or /tmp/benchrun-cache. Caller frees; NULL on OOM. */
char *br_build_default_cache_dir(void);

/* One module to build: a source and the flags of this variant.
 *
 * A source's kind is its extension: .cu is a GPU module (nvcc); .c a host
 * module in C ($CC, else cc); .cpp, .cc and .cxx a host module in C++ ($CXX,
 * else c++). The compiler's command line, in order:
 *   nvcc -O3 -std=c++17 -lineinfo -shared -Xcompiler -fPIC -cudart shared
 *        [-arch=sm_XX]                              (GPU)
 *   cc  -O3 -march=native -std=c11 -D_DEFAULT_SOURCE -shared -fPIC    (C)
 *   c++ -O3 -march=native -std=c++17 -shared -fPIC                    (C++)
 * then -I<benchrun's include dir> -I<the source's dir> -I<include_dirs...>,
 * `flags` and `user_flags` (but -l options), -MMD (nvcc: -MD) -MF <deps>
 * -o <object> <source>, then the -l options in order. Every one of them is
 * part of the cache key. */
typedef struct br_build_src {
    const char *path;         /* the .cu, .c, .cpp, .cc or .cxx source */
    const char *const *flags; /* extra compiler flags (-DNAME=VALUE, -lNAME), in order; part of
                                 the cache key; may be NULL when n_flags is 0 */
    size_t n_flags;
    /* The suite's flags for this kind of source (cflags or nvcc_flags),
     * each one argument, after benchrun's own (so they override them);
     * may be NULL when n_user_flags is 0 */
    const char *const *user_flags;
    size_t n_user_flags;
    /* Directories searched for headers (-I, in order, after benchrun's);
     * may be NULL when n_include_dirs is 0 */
    const char *const *include_dirs;
    size_t n_include_dirs;
} br_build_src;

/* Most extra flags one module may have. */
#define BR_BUILD_MAX_EXTRA_FLAGS 40
/* Most user flags and include directories together one module may have. */
#define BR_BUILD_MAX_USER_FLAGS 64

/* Compile (when not cached) and load each of the n sources into out[0..n-1]
 * (caller provides the array; dispose each with br_module_handle_dispose).
 * Independent compiles run in parallel. A source that fails to compile or load
 * is marked FAILED with its diagnostics in `log`; the others still load.
 * The same source built with other flags (a compile-time variant) is
 * another cache entry and another loaded module (loaded with RTLD_LOCAL,
 * so the variants' symbols do not clash).
 * Returns the number of modules compiled (not taken from the cache), or -1
 * with the error set when the cache itself is unusable. */
int br_build_modules(br_module_handle *out, const br_build_src *sources, size_t n,
                     const br_build_opts *opts);

/* Compute the input key of `source` compiled by `compiler` (whose version
 * text is `compiler_version`) with the `n_flags` flags, following "..."
 * includes relative to the source's directory and then `include_dirs` (a
 * cheap first cut: what else the compiler reads is followed through its
 * dependency list, see above). Exposed for tests. Returns 0 or -1 (error
 * set: source unreadable). */
int br_build_key(char out[41], const char *source, const char *compiler,
                 const char *compiler_version, const char *const *flags, size_t n_flags,
                 const char *const *include_dirs, size_t n_include_dirs);

/* The directory holding benchrun_kernel.h (and benchrun_cuda.h), the first of:
 * $BENCHRUN_INCLUDE_DIR when set and non-empty; EXEDIR/../include/benchrun
 * when benchrun_kernel.h is readable there, EXEDIR being the directory of the
 * running executable (/proc/self/exe), so an installed benchrun finds its own
 * header under a moved prefix; else the source tree's kernels/ directory
 * benchrun was built from (a build tree). Borrowed (static storage). */
const char *br_build_include_dir(void);

/* Close and release; accepts NULL. */
void br_module_handle_dispose(br_module_handle *m);

#ifdef __cplusplus
}
#endif
#endif
