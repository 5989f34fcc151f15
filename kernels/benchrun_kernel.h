/* SPDX-License-Identifier: Apache-2.0 */
/* benchrun_kernel.h - the one header a benchrun kernel module includes.
 *
 * A kernel module is a .cu (GPU) or .c (host) source that benchrun compiles at
 * run time into a shared object and loads with dlopen. It exports one table:
 *
 *     static const br_kernel kernels[] = {
 *         {"reduce_warp", setup, run_warp, verify, teardown},
 *         {"reduce_vec", setup, run_vec, verify, teardown, &vec_settings},
 *     };
 *     BR_MODULE(kernels);
 *
 * The module has no link-time dependency on the runner: everything it needs
 * from benchrun (parameters, the stream, allocation, error reporting) comes
 * through the function table in the case handle it is given.
 *
 * Life of one case: setup -> run -> verify -> (warmup: run...) -> (samples:
 * run...) -> teardown. teardown is called whenever setup was called, even if
 * setup failed, so it must cope with a partly set-up case.
 *
 * This header is APPEND-ONLY (the rule of SQLite's extension ABI): add new
 * members at the END of a struct only, never remove, reorder or retype one,
 * and bump BR_KERNEL_ABI_VERSION once per release that appends. A module
 * built against an older version keeps working with a newer benchrun: it
 * never reads the members appended after its version, and benchrun reads
 * only the members the module's version has (br_module.abi_version). A
 * module that needs a member of version N checks c->api->abi_version >= N,
 * or simply is refused by a benchrun older than N.
 *
 * Versions: 1 the first; 2 added br_kernel.arg, br_case_api.arg and
 * br_module.kernel_size.
 */
#ifndef BENCHRUN_KERNEL_H
#define BENCHRUN_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when members are appended below. benchrun loads modules built
 * against this version or an older one, and refuses a newer one. */
#define BR_KERNEL_ABI_VERSION 2u

/* Name of the symbol every module exports (a const br_module). */
#define BR_MODULE_SYMBOL "benchrun_module"

/* Where an allocation lives. */
typedef enum br_mem_kind {
    BR_MEM_HOST = 0,   /* pageable host memory */
    BR_MEM_DEVICE = 1, /* device global memory (GPU modules only) */
    BR_MEM_PINNED = 2  /* page-locked host memory (GPU modules only) */
} br_mem_kind;

typedef struct br_case br_case;

/* What the runner offers a module. Every function takes the case handle. */
typedef struct br_case_api {
    uint32_t abi_version; /* BR_KERNEL_ABI_VERSION of the runner */

    /* Value of the suite parameter `name` for this case. Returns 0 and sets
     * *out, or -1 (and records an error for the case) when there is none. */
    int (*param)(br_case *c, const char *name, int64_t *out);

    /* The stream run() must enqueue on, as a cudaStream_t; NULL for host
     * modules. */
    void *(*stream)(br_case *c);

    /* `bytes` bytes of memory of the given kind, aligned to 256 bytes, owned by
     * the runner and freed after teardown. Returns NULL (and records an error)
     * on failure. Contents are undefined. */
    void *(*alloc)(br_case *c, size_t bytes, br_mem_kind kind);

    /* Record why the case failed (printf-style). Returns -1, so a module can
     * write `return c->api->fail(c, "sum is %g, expected %g", got, want);`. */
    int (*fail)(br_case *c, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 2, 3)))
#endif
        ;

    /* A seed for the case's random inputs: the same for every run of the same
     * suite, case and parameters, so inputs are reproducible. */
    uint64_t (*seed)(br_case *c);

    /* ---- ABI 2; add new members below this line only ---- */

    /* The running kernel's br_kernel.arg (NULL when it has none). */
    const void *(*arg)(br_case *c);
} br_case_api;

/* The case handle. */
struct br_case {
    const br_case_api *api;
    void *state;  /* the module's own per-case state; NULL until setup sets it */
    void *runner; /* the runner's; a module never touches it */
};

/* One kernel of a module. setup, run and verify return 0 on success and a
 * negative value (after c->api->fail) on failure.
 *   setup    allocate and fill inputs (random, never all zeros); compute what
 *            verify will compare against.
 *   run      enqueue exactly ONE execution of the kernel on c->api->stream(c)
 *            and do not synchronise (host modules: execute it once). It must
 *            leave the case ready for the next run (no state carried over).
 *   verify   called after a run has completed: check the output against a
 *            reference computed independently (host, higher precision).
 *   teardown release what setup made other than runner allocations; may be
 *            NULL.
 *   arg      (ABI 2) the module's own per-kernel datum, handed back by
 *            c->api->arg(c), so kernels that differ in a setting share one
 *            setup; may be NULL (or left out of the initializer). */
typedef struct br_kernel {
    const char *name;
    int (*setup)(br_case *c);
    int (*run)(br_case *c);
    int (*verify)(br_case *c);
    void (*teardown)(br_case *c);
    /* ---- ABI 2; add new members below this line only ---- */
    const void *arg;
} br_kernel;

/* What a module exports under BR_MODULE_SYMBOL. */
typedef struct br_module {
    uint32_t abi_version; /* BR_KERNEL_ABI_VERSION the module was built with */
    uint32_t n_kernels;
    const br_kernel *kernels;
    /* ---- ABI 2; add new members below this line only ---- */
    uint32_t kernel_size; /* sizeof(br_kernel) of the module: the stride of kernels[] */
} br_module;

#ifdef __cplusplus
}
#define BR_MODULE_LINKAGE extern "C" __attribute__((visibility("default")))
#else
#define BR_MODULE_LINKAGE extern __attribute__((visibility("default")))
#endif

/* Export `kernel_array` (an array of br_kernel) as this module's table. */
#define BR_MODULE(kernel_array)                                                                    \
    BR_MODULE_LINKAGE const br_module benchrun_module;                                             \
    const br_module benchrun_module = {BR_KERNEL_ABI_VERSION,                                      \
                                       (uint32_t)(sizeof(kernel_array) / sizeof(kernel_array[0])), \
                                       kernel_array, (uint32_t)sizeof(br_kernel)}

/* SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): a small, well-mixed generator for test inputs. */
static inline uint64_t br_splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
