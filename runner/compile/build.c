/* SPDX-License-Identifier: Apache-2.0 */
#include "build.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/lock.h"
#include "base/proc.h"
#include "base/tmp.h"
#include "base/util.h"
#include "deps.h"

#define MAX_SOURCE_BYTES  ((size_t)16 << 20)
#define MAX_INCLUDE_DEPTH 32
#define MAX_FLAGS         24

/* ---- key material: a growable byte buffer ----------------------------------- */

typedef struct keybuf {
    char *p;
    size_t len, cap;
    int oom;
} keybuf;

static void kb_add(keybuf *b, const void *d, size_t n) {
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, d, n);
    b->len += n;
}

static void kb_str(keybuf *b, const char *s) {
    kb_add(b, s, strlen(s) + 1);
}

/* ---- project headers ------------------------------------------------------------ */

typedef struct seen_set {
    char **paths;
    size_t n;
} seen_set;

static int seen_add(seen_set *s, const char *real) {
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->paths[i], real) == 0)
            return 0;
    char **np = realloc(s->paths, (s->n + 1) * sizeof *np);
    if (!np)
        return -1;
    s->paths = np;
    s->paths[s->n] = br_strdup(real);
    if (!s->paths[s->n])
        return -1;
    s->n++;
    return 1;
}

static void seen_free(seen_set *s) {
    for (size_t i = 0; i < s->n; i++)
        free(s->paths[i]);
    free(s->paths);
}

static int is_regular(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* If `line` is `#include "name"`, copy name into out (size outlen) and return 1. */
static int quoted_include(const char *line, char *out, size_t outlen) {
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '#')
        return 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "include", 7) != 0)
        return 0;
    p += 7;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '"')
        return 0;
    const char *end = strchr(p, '"');
    if (!end || (size_t)(end - p) >= outlen || end == p)
        return 0;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = '\0';
    return 1;
}

/* Add the bytes of `path` and, recursively, of the project headers it
 * includes to the key. Headers not found are left to the compiler. */
static int add_file(keybuf *kb, const char *path, const char *label,
                    const char *const *include_dirs, size_t n_include_dirs, seen_set *seen,
                    int depth) {
    int rc = -1;
    char *text = NULL, *dir = NULL;
    size_t len = 0;
    if (depth > MAX_INCLUDE_DEPTH)
        return br_error_set("%s: includes nested deeper than %d", path, MAX_INCLUDE_DEPTH);
    if (br_read_file(&text, &len, path, MAX_SOURCE_BYTES) != 0)
        return -1;
    kb_str(kb, "file");
    kb_str(kb, label);
    kb_add(kb, &len, sizeof len);
    kb_add(kb, text, len);
    if (!(dir = br_path_dir(path)))
        goto done;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char name[PATH_MAX];
        if (quoted_include(line, name, sizeof name)) {
            char *found = NULL;
            char *cand = br_path_join(dir, name);
            if (cand && is_regular(cand))
                found = cand;
            else
                free(cand);
            for (size_t i = 0; !found && i < n_include_dirs; i++) {
                cand = br_path_join(include_dirs[i], name);
                if (cand && is_regular(cand))
                    found = cand;
                else
                    free(cand);
            }
            if (found) {
                char real[PATH_MAX];
                int fresh = realpath(found, real) ? seen_add(seen, real) : 1;
                int sub = fresh < 0 ? br_error_nomem()
                          : fresh   ? add_file(kb, found, name, include_dirs, n_include_dirs, seen,
                                               depth + 1)
                                    : 0;
                free(found);
                if (sub != 0)
                    goto done;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    rc = 0;
done:
    free(dir);
    free(text);
    return rc;
}

int br_build_key(char out[41], const char *source, const char *compiler,
                 const char *compiler_version, const char *const *flags, size_t n_flags,
                 const char *const *include_dirs, size_t n_include_dirs) {
    keybuf kb = {0};
    seen_set seen = {0};
    int rc = -1;
    char fmt[64];
    snprintf(fmt, sizeof fmt, "benchrun-module-cache %d abi %u", BR_CACHE_FORMAT,
             BR_KERNEL_ABI_VERSION);
    kb_str(&kb, fmt);
    kb_str(&kb, compiler);
    kb_str(&kb, compiler_version ? compiler_version : "");
    for (size_t i = 0; i < n_flags; i++)
        kb_str(&kb, flags[i]);
    char real[PATH_MAX];
    if (realpath(source, real))
        seen_add(&seen, real);
    if (add_file(&kb, source, "source", include_dirs, n_include_dirs, &seen, 0) != 0)
        goto done;
    if (kb.oom) {
        br_error_nomem();
        goto done;
    }
    rc = br_hash_blob(out, kb.p, kb.len);
done:
    seen_free(&seen);
    free(kb.p);
    return rc;
}

/* ---- processes ---------------------------------------------------------------- */

/* Start argv with stdout and stderr going to `log_path` (created), standard
 * input from /dev/null. */
static int spawn_logged(pid_t *out, char *const *argv, const char *log_path) {
    br_proc_opts po = {.output = log_path, .null_stdin = 1};
    return br_proc_spawn(out, (const char *const *)argv, &po);
}

/* Output of `compiler --version`, or NULL (error set) when it cannot run. */
/* Read through a pipe: no file is written, so shards sharing a cache share
 * no name here. */
static char *compiler_version(const char *compiler) {
    char *text = NULL;
    const char *argv[] = {compiler, "--version", NULL};
    int st;
    if (br_proc_capture(&text, &st, argv, 1 << 20) != 0)
        return NULL;
    st = br_proc_exit_code(st);
    if (st != 0) {
        free(text);
        br_error_set("'%s --version' failed (exit status %d)", compiler, st);
        return NULL;
    }
    return text;
}

/* What -march=native compiles for: the CPU model and its feature flags (from
 * /proc/cpuinfo), so an object built on one CPU is never loaded on another
 * through a shared cache. Caller frees. */
static char *host_target(void) {
    char model[512] = "", flags[4096] = "", line[4096];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f) && !(model[0] && flags[0])) {
        if (!model[0] && strncmp(line, "model name", 10) == 0)
            snprintf(model, sizeof model, "%.500s", line);
        else if (!flags[0] && (strncmp(line, "flags", 5) == 0 || strncmp(line, "Features", 8) == 0))
            snprintf(flags, sizeof flags, "%s", line);
    }
    if (f)
        fclose(f);
    return br_strfmt("target: %s%s", model, flags);
}

/* ---- public --------------------------------------------------------------------- */

char *br_build_default_cache_dir(void) {
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/')
        return br_strfmt("%s/benchrun", xdg);
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return br_strfmt("%s/.cache/benchrun", home);
    return br_strdup("/tmp/benchrun-cache");
}

const char *br_build_include_dir(void) {
    const char *env = getenv("BENCHRUN_INCLUDE_DIR");
    if (env && env[0])
        return env;
    /* An installed benchrun: PREFIX/bin/benchrun beside PREFIX/include/benchrun
     * (GNUInstallDirs' layout), found once per process. */
    static char installed[PATH_MAX];
    static int looked;
    if (!looked) {
        looked = 1;
        char *bin = br_exe_dir();
        char *inc = bin ? br_strfmt("%s/../include/benchrun", bin) : NULL;
        char *hdr = inc ? br_path_join(inc, "benchrun_kernel.h") : NULL;
        if (hdr && access(hdr, R_OK) == 0 && !realpath(inc, installed))
            installed[0] = '\0';
        free(hdr);
        free(inc);
        free(bin);
    }
    return installed[0] ? installed : BR_KERNEL_INCLUDE_DIR;
}

static const char *nvcc_path(void) {
    const char *env = getenv("BENCHRUN_NVCC");
    if (env && env[0])
        return env;
#ifdef BR_NVCC
    if (access(BR_NVCC, X_OK) == 0)
        return BR_NVCC;
#endif
    return "nvcc";
}

/* The CUDA toolkit's root: the real directory above the bin/ of nvcc, when
 * nvcc is named by a path. Caller frees; NULL when unknown. */
static char *toolkit_root(void) {
    char nv_real[PATH_MAX], *bin = NULL, *root = NULL;
    const char *nv = nvcc_path();
    if (strchr(nv, '/') && realpath(nv, nv_real) && (bin = br_path_dir(nv_real)))
        root = br_path_dir(bin);
    free(bin);
    return root;
}

/* $CC (else cc), $CXX (else c++): a name or path of one word (a value
 * with a space, such as "ccache gcc", is not used). */
static const char *cc_path(void) {
    const char *env = getenv("CC");
    return env && env[0] && !strchr(env, ' ') ? env : "cc";
}

static const char *cxx_path(void) {
    const char *env = getenv("CXX");
    return env && env[0] && !strchr(env, ' ') ? env : "c++";
}

/* What compiles a source: nvcc, the C or the C++ compiler. */
typedef enum src_kind { SRC_GPU, SRC_C, SRC_CXX, SRC_UNKNOWN } src_kind;

static src_kind kind_of(const char *path) {
    if (br_has_suffix(path, ".cu"))
        return SRC_GPU;
    if (br_has_suffix(path, ".c"))
        return SRC_C;
    if (br_has_suffix(path, ".cpp") || br_has_suffix(path, ".cc") || br_has_suffix(path, ".cxx"))
        return SRC_CXX;
    return SRC_UNKNOWN;
}

/* Room on a command line: benchrun's flags, the variant's, the user's. */
#define ARGV_MAX (MAX_FLAGS + BR_BUILD_MAX_EXTRA_FLAGS + BR_BUILD_MAX_USER_FLAGS + 8)
#define LIBS_MAX (BR_BUILD_MAX_EXTRA_FLAGS + BR_BUILD_MAX_USER_FLAGS + 2)

typedef struct compile_job {
    br_module_handle *h;
    src_kind kind;
    char *argv[ARGV_MAX];
    size_t n_flags; /* argv[1 .. n_flags] are the flags */
    /* Link options (-lNAME, and for GPU modules that link a library, an
     * rpath to the toolkit's libraries): after the source on the command
     * line, as the linker resolves in order. */
    const char *libs[LIBS_MAX];
    size_t n_libs;
    char input_key[41]; /* br_build_key's: names the record of what was built from it */
    char *tmp_so;
    char *log_path;
    char *dep_path; /* the compiler's dependency file */
    br_lock lock;   /* the key's build lock, held while this job builds it */
    int locked;     /* 1: lock is held */
    int deferred;   /* 1: another process held the lock when planned */
    pid_t pid;
    double t0;
    struct timespec started; /* CLOCK_REALTIME when the compiler started */
    int unrecorded;          /* 1: the object was loaded from tmp_so, to be removed */
    char *owned[5]; /* strings in argv owned by the job; owned[3] is the source's real path,
                       owned[4] the rpath option */
    char *inc[BR_BUILD_MAX_USER_FLAGS];      /* -IDIR of the include dirs, owned */
    char *inc_dirs[BR_BUILD_MAX_USER_FLAGS]; /* the include dirs (real paths), owned */
    size_t n_inc;
} compile_job;

static void job_free(compile_job *j) {
    for (size_t i = 0; i < sizeof j->owned / sizeof j->owned[0]; i++)
        free(j->owned[i]);
    for (size_t i = 0; i < j->n_inc; i++) {
        free(j->inc[i]);
        free(j->inc_dirs[i]);
    }
    free(j->tmp_so);
    free(j->log_path);
    free(j->dep_path);
    if (j->locked)
        br_lock_release(&j->lock);
    j->locked = 0;
}

static char *join_argv(char *const *argv) {
    size_t len = 1;
    for (size_t i = 0; argv[i]; i++)
        len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; argv[i]; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

/* -IDIR for each of src's include dirs, into j->argv from *k: the real path
 * (so the key does not depend on the directory benchrun runs in). */
static int add_include_dirs(compile_job *j, size_t *k, const br_build_src *src) {
    for (size_t i = 0; i < src->n_include_dirs; i++) {
        char real[PATH_MAX];
        const char *d = src->include_dirs[i];
        if (!d)
            return br_error_set("%s: include directory %zu is missing", j->h->source, i + 1);
        j->inc_dirs[j->n_inc] = br_strdup(realpath(d, real) ? real : d);
        j->inc[j->n_inc] = j->inc_dirs[j->n_inc] ? br_strfmt("-I%s", j->inc_dirs[j->n_inc]) : NULL;
        j->n_inc++;
        if (!j->inc[j->n_inc - 1])
            return br_error_nomem();
        j->argv[(*k)++] = j->inc[j->n_inc - 1];
    }
    return 0;
}

/* Fill the job's argv (without -o and the source yet: see finish_argv). */
static int prepare_job(compile_job *j, br_module_handle *h, const br_build_src *src,
                       const br_build_opts *o) {
    const char *inc = br_build_include_dir();
    /* The real path, so one file is one cache entry however the suite names it. */
    char real[PATH_MAX];
    j->owned[3] = br_strdup(realpath(h->source, real) ? real : h->source);
    if (!j->owned[3])
        return -1;
    char *srcdir = br_path_dir(j->owned[3]);
    if (!srcdir)
        return -1;
    j->h = h;
    j->owned[0] = br_strfmt("-I%s", inc);
    j->owned[1] = br_strfmt("-I%s", srcdir);
    free(srcdir);
    if (!j->owned[0] || !j->owned[1])
        return -1;
    size_t k = 0;
    if (j->kind == SRC_GPU) {
        j->argv[k++] = (char *)nvcc_path();
        const char *f[] = {"-O3",        "-std=c++17", "-lineinfo", "-shared",
                           "-Xcompiler", "-fPIC",      "-cudart",   "shared"};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            j->argv[k++] = (char *)f[i];
        /* Without a GPU (benchrun check), nvcc's default target: the module
         * is built to report compile errors and to check kernel names; its
         * cases are skipped. */
        if (o->gpu_arch) {
            j->owned[2] = br_strfmt("-arch=%s", o->gpu_arch);
            if (!j->owned[2])
                return -1;
            j->argv[k++] = j->owned[2];
        }
    } else if (j->kind == SRC_C) {
        /* ISO C11 (so no GNU extensions, and no FMA contraction the source
         * does not ask for: gcc's -ffp-contract=off of ISO modes) with the
         * POSIX and BSD names of the C library visible: M_PI,
         * clock_gettime, posix_memalign. */
        j->argv[k++] = (char *)cc_path();
        const char *f[] = {"-O3",     "-march=native", "-std=c11", "-D_DEFAULT_SOURCE",
                           "-shared", "-fPIC"};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            j->argv[k++] = (char *)f[i];
    } else {
        j->argv[k++] = (char *)cxx_path();
        const char *f[] = {"-O3", "-march=native", "-std=c++17", "-shared", "-fPIC"};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            j->argv[k++] = (char *)f[i];
    }
    j->argv[k++] = j->owned[0];
    j->argv[k++] = j->owned[1];
    if (src->n_flags > BR_BUILD_MAX_EXTRA_FLAGS)
        return br_error_set("%s: more than %d extra compiler flags", h->source,
                            BR_BUILD_MAX_EXTRA_FLAGS);
    if (src->n_user_flags + src->n_include_dirs > BR_BUILD_MAX_USER_FLAGS)
        return br_error_set("%s: more than %d user flags and include directories", h->source,
                            BR_BUILD_MAX_USER_FLAGS);
    if (add_include_dirs(j, &k, src) != 0)
        return -1;
    for (size_t i = 0; i < src->n_flags; i++) {
        if (!src->flags[i] || src->flags[i][0] != '-')
            return br_error_set("%s: extra compiler flag %zu is not an option", h->source, i + 1);
        if (strncmp(src->flags[i], "-l", 2) == 0)
            j->libs[j->n_libs++] = src->flags[i];
        else
            j->argv[k++] = (char *)src->flags[i];
    }
    /* The user's flags, as given; a library (-lm, but not nvcc's -lineinfo)
     * goes after the source, where the linker looks for what it needs. */
    for (size_t i = 0; i < src->n_user_flags; i++) {
        if (!src->user_flags[i])
            return br_error_set("%s: user flag %zu is missing", h->source, i + 1);
        if (strncmp(src->user_flags[i], "-l", 2) == 0 && strcmp(src->user_flags[i], "-lineinfo"))
            j->libs[j->n_libs++] = src->user_flags[i];
        else
            j->argv[k++] = (char *)src->user_flags[i];
    }
    if (h->is_gpu && j->n_libs > 0) {
        /* The toolkit's libraries (cuBLAS ...) are found at dlopen time
         * through an rpath to nvcc's ../lib64, as nvcc does not set one. */
        char *root = toolkit_root();
        if (root) {
            j->owned[4] = br_strfmt("-Xlinker=-rpath=%s/lib64", root);
            if (j->owned[4])
                j->libs[j->n_libs++] = j->owned[4];
        }
        free(root);
    }
    j->n_flags = k - 1;
    j->argv[k] = NULL;
    return 0;
}

static int start_job(compile_job *j, const char *cache_dir) {
    /* Names no other process (another host, another container) can have:
     * the compiler writes them, then the object is renamed into place. */
    char base[PATH_MAX], name[PATH_MAX];
    if (snprintf(base, sizeof base, "%s/%s", cache_dir, j->input_key) >= (int)sizeof base)
        return br_error_set("%s: the name is too long", cache_dir);
    if (br_tmp_name(name, sizeof name, base, ".so") != 0 || !(j->tmp_so = br_strdup(name)) ||
        br_tmp_name(name, sizeof name, base, ".log") != 0 || !(j->log_path = br_strdup(name)) ||
        br_tmp_name(name, sizeof name, base, ".d") != 0 || !(j->dep_path = br_strdup(name)))
        return -1;
    size_t k = j->n_flags + 1;
    /* The compiler's own list of what it read (nvcc spells -MMD -MD). */
    j->argv[k++] = j->h->is_gpu ? "-MD" : "-MMD";
    j->argv[k++] = "-MF";
    j->argv[k++] = j->dep_path;
    j->argv[k++] = "-o";
    j->argv[k++] = j->tmp_so;
    j->argv[k++] = j->owned[3];
    for (size_t i = 0; i < j->n_libs; i++)
        j->argv[k++] = (char *)j->libs[i];
    j->argv[k] = NULL;
    free(j->h->command);
    j->h->command = join_argv(j->argv);
    j->t0 = br_now_ns();
    clock_gettime(CLOCK_REALTIME, &j->started);
    return spawn_logged(&j->pid, j->argv, j->log_path);
}

/* Store a compiled object under the key of what it was built from (the
 * compiler's dependency list, hashed) and record that list for later runs.
 * Returns 0, or -1 with h->message set. */
static int store_object(compile_job *j, const char *cache_dir) {
    br_module_handle *h = j->h;
    br_dep_list deps = {0};
    char *root = h->is_gpu ? toolkit_root() : NULL;
    char *manifest = NULL;
    int rc = -1;
    if (br_deps_collect(&deps, j->dep_path, root) != 0) {
        h->message = br_strfmt("cannot read the compiler's dependency list %s: %s", j->dep_path,
                               br_error_get());
        goto done;
    }
    /* A file changed while it compiled (the compiler may have read other
     * bytes than those hashed): load this object, keep nothing. */
    j->unrecorded = br_deps_changed_since(&deps, &j->started);
    if (br_deps_object_key(h->key, j->input_key, &deps) != 0 ||
        !(h->so_path =
              j->unrecorded ? br_strdup(j->tmp_so) : br_strfmt("%s/%s.so", cache_dir, h->key)) ||
        !(manifest = br_strfmt("%s/%s.deps", cache_dir, j->input_key))) {
        h->message = br_strdup(br_error_get());
        goto done;
    }
    if (j->unrecorded) {
        rc = 0;
        goto done;
    }
    if (rename(j->tmp_so, h->so_path) != 0) {
        h->message = br_strfmt("cannot store %s: %s", h->so_path, strerror(errno));
        goto done;
    }
    /* Not recorded (a name with a newline, a cache that refuses the write):
     * the object loads now and is compiled again next time. */
    if (br_deps_record(manifest, h->key, &deps) != 0)
        br_error_clear();
    rc = 0;
done:
    br_dep_list_free(&deps);
    free(root);
    free(manifest);
    return rc;
}

static void finish_job(compile_job *j, int status, const char *cache_dir) {
    br_module_handle *h = j->h;
    h->compile_ns = br_now_ns() - j->t0;
    char *log = NULL;
    br_read_file(&log, NULL, j->log_path, 1 << 22);
    unlink(j->log_path);
    if (log && log[0])
        h->log = log;
    else
        free(log);
    int stored = status == 0 ? store_object(j, cache_dir) : -1;
    unlink(j->dep_path);
    if (stored == 0)
        return;
    unlink(j->tmp_so);
    h->state = BR_MODULE_FAILED;
    if (status == 0) /* store_object said why */
        return;
    free(h->message);
    if (br_stop_signal()) { /* the compiler got the interrupt too */
        free(h->log);
        h->log = NULL;
        h->message = br_strdup("not compiled: interrupted");
        return;
    }
    h->message = br_strfmt("compile failed (exit status %d)", status);
}

/* The size of a br_kernel in a module built against ABI version v: the
 * members up to arg were there from version 1. */
static size_t kernel_size_of(const br_module *m) {
    return m->abi_version >= 2 ? m->kernel_size : offsetof(br_kernel, arg);
}

/* The module's table as this benchrun reads it: a copy whose kernels have
 * every member of this ABI, those the module's version lacks zeroed.
 * Returns NULL with the error set (out of memory, or a table that cannot
 * be one of ABI 2 or later). */
static br_module *copy_table(const br_module *m) {
    size_t stride = kernel_size_of(m);
    if (stride < offsetof(br_kernel, arg)) {
        br_error_set("the module's kernel table has entries of %zu bytes, fewer than any kernel "
                     "ABI has",
                     stride);
        return NULL;
    }
    size_t take = stride < sizeof(br_kernel) ? stride : sizeof(br_kernel);
    br_module *t = calloc(1, sizeof *t + (m->n_kernels ? m->n_kernels : 1) * sizeof(br_kernel));
    if (!t) {
        br_error_nomem();
        return NULL;
    }
    br_kernel *k = (br_kernel *)(t + 1);
    for (uint32_t i = 0; i < m->n_kernels; i++)
        memcpy(&k[i], (const char *)m->kernels + i * stride, take);
    t->abi_version = m->abi_version;
    t->n_kernels = m->n_kernels;
    t->kernels = k;
    t->kernel_size = (uint32_t)sizeof(br_kernel);
    return t;
}

static void load_module(br_module_handle *h) {
    h->dl = dlopen(h->so_path, RTLD_NOW | RTLD_LOCAL);
    if (!h->dl) {
        h->state = BR_MODULE_FAILED;
        h->message = br_strfmt("cannot load %s: %s", h->so_path, dlerror());
        return;
    }
    const br_module *m = dlsym(h->dl, BR_MODULE_SYMBOL);
    if (!m) {
        h->state = BR_MODULE_FAILED;
        h->message = br_strfmt("the module exports no '%s' table (use BR_MODULE(kernels) "
                               "from benchrun_kernel.h)",
                               BR_MODULE_SYMBOL);
        return;
    }
    /* Older modules load (the header is append-only); a newer one may use
     * what this benchrun does not offer. */
    if (m->abi_version > BR_KERNEL_ABI_VERSION) {
        h->state = BR_MODULE_FAILED;
        h->message = br_strfmt(
            "the module was built for kernel ABI %u, newer than this benchrun's %u: update "
            "benchrun, or build the module against this benchrun's benchrun_kernel.h (%s)",
            m->abi_version, BR_KERNEL_ABI_VERSION, br_build_include_dir());
        return;
    }
    if (m->abi_version < 1) {
        h->state = BR_MODULE_FAILED;
        h->message = br_strfmt("the module was built for kernel ABI %u, benchrun has %u",
                               m->abi_version, BR_KERNEL_ABI_VERSION);
        return;
    }
    if (!(h->module = copy_table(m))) {
        h->state = BR_MODULE_FAILED;
        h->message = br_strdup(br_error_get());
    }
}

/* The compilers' version texts, found out once per kind (part of every key). */
typedef struct compiler_versions {
    char *text[SRC_UNKNOWN]; /* by src_kind */
    int tried[SRC_UNKNOWN];
} compiler_versions;

/* Whether the record of what objects of `input_key` were built from names
 * one whose every dependency is unchanged and whose object is in the cache:
 * then h is that object (1); else 0 (compile), or -1 (out of memory). */
static int cached_object(br_module_handle *h, const char *input_key, const char *cache_dir) {
    char *manifest = br_strfmt("%s/%s.deps", cache_dir, input_key);
    if (!manifest)
        return -1;
    int found = br_deps_lookup(h->key, manifest);
    free(manifest);
    if (!found)
        return 0;
    if (!(h->so_path = br_strfmt("%s/%s.so", cache_dir, h->key)))
        return -1;
    if (!is_regular(h->so_path)) {
        free(h->so_path);
        h->so_path = NULL;
        h->key[0] = '\0';
        return 0;
    }
    h->from_cache = 1;
    return 1;
}

/* Whether job j must be dropped (its handle h is decided: FAILED, SKIPPED or
 * cached), 0 when it must compile, -1 with the error set (out of memory). */
static int plan_module(compile_job *j, br_module_handle *h, const br_build_src *src,
                       const br_build_opts *o, compiler_versions *cv) {
    h->source = br_strdup(src->path);
    if (!h->source)
        return -1;
    j->kind = kind_of(h->source);
    h->is_gpu = j->kind == SRC_GPU;
    if (j->kind == SRC_UNKNOWN) {
        h->state = BR_MODULE_FAILED;
        h->message = br_strdup("unknown kind of source (expected .cu, .c, .cpp, .cc or .cxx)");
        return 1;
    }
    if (h->is_gpu && !o->gpu_arch && !o->compile_without_gpu) {
        /* No GPU to run it on: not compiled (benchrun check compiles it). */
        h->state = BR_MODULE_SKIPPED;
        h->message = br_strdup(o->gpu_skip_reason ? o->gpu_skip_reason : "no usable GPU");
        return h->message ? 1 : br_error_nomem();
    }
    char **version = &cv->text[j->kind];
    int *tried = &cv->tried[j->kind];
    if (prepare_job(j, h, src, o) != 0)
        return -1;
    if (!*tried) {
        *tried = 1;
        *version = compiler_version(j->argv[0]);
        if (*version && !h->is_gpu) {
            char *target = host_target();
            char *both = target ? br_strfmt("%s\n%s", *version, target) : NULL;
            free(target);
            free(*version);
            *version = both;
        }
    }
    if (!*version) {
        if (h->is_gpu && !o->gpu_arch) {
            /* No GPU and no nvcc: nothing to build or run. */
            h->state = BR_MODULE_SKIPPED;
            h->message = br_strdup(o->gpu_skip_reason ? o->gpu_skip_reason : "no usable GPU");
        } else {
            h->state = BR_MODULE_FAILED;
            h->message = br_strfmt("cannot run the compiler: %s", br_error_get());
        }
        return 1;
    }
    const char *inc[BR_BUILD_MAX_USER_FLAGS + 1] = {br_build_include_dir()};
    for (size_t i = 0; i < j->n_inc; i++)
        inc[i + 1] = j->inc_dirs[i];
    const char *key_flags[ARGV_MAX + LIBS_MAX];
    size_t n_key = 0;
    for (size_t f = 1; f <= j->n_flags; f++)
        key_flags[n_key++] = j->argv[f];
    for (size_t f = 0; f < j->n_libs; f++)
        key_flags[n_key++] = j->libs[f];
    if (br_build_key(j->input_key, j->owned[3], j->argv[0], *version, key_flags, n_key, inc,
                     j->n_inc + 1) != 0) {
        h->state = BR_MODULE_FAILED;
        h->message = br_strdup(br_error_get());
        return 1;
    }
    return cached_object(h, j->input_key, o->cache_dir);
}

/* The progress line while compilers run (a terminal: o->progress): each
 * running compile's source and the time it has taken so far, then how many
 * of the n_jobs are done, e.g. "compiling reduction.cu 12s, cub.cu 3s
 * (1 of 3 done)". */
static void show_compiles(const compile_job *jobs, size_t n_jobs, size_t done) {
    char line[512], took[32];
    double now = br_now_ns();
    int n = snprintf(line, sizeof line, "compiling");
    const char *sep = " ";
    for (size_t i = 0; i < n_jobs && n > 0 && (size_t)n < sizeof line; i++) {
        if (jobs[i].pid <= 0)
            continue;
        const char *src = jobs[i].h->source, *base = strrchr(src, '/');
        br_format_clock(took, sizeof took, now - jobs[i].t0);
        n += snprintf(line + n, sizeof line - (size_t)n, "%s%s %s", sep, base ? base + 1 : src,
                      took);
        sep = ", ";
    }
    /* One terminal line: cut the list to leave room for the count. */
    if (n > 60)
        snprintf(line + 57, sizeof line - 57, "...");
    br_log(BR_LOG_PROGRESS, "\r\033[K%s  (%zu of %zu done)", line, done, n_jobs);
}

/* Run the n compile jobs, at most o->jobs at a time; on a terminal
 * (o->progress) the progress line shows them, redrawn every second.
 * Returns the number that ran, or -1 with the error set (a failed wait;
 * compiles may still run). */
static int run_compiles(compile_job *jobs, size_t n_jobs, const br_build_opts *o) {
    int compiled = 0;
    size_t next = 0, running = 0;
    int max_jobs = o->jobs > 0 ? o->jobs : 1;
    pid_t *pids = calloc(n_jobs ? n_jobs : 1, sizeof *pids);
    if (!pids)
        return br_error_nomem();
    while (next < n_jobs || running > 0) {
        while (next < n_jobs && running < (size_t)max_jobs) {
            compile_job *j = &jobs[next++];
            if (br_stop_signal()) { /* an interrupt: start no new compile */
                j->h->state = BR_MODULE_FAILED;
                j->h->message = br_strdup("not compiled: interrupted");
                j->pid = 0;
                continue;
            }
            if (start_job(j, o->cache_dir) != 0) {
                j->h->state = BR_MODULE_FAILED;
                j->h->message = br_strdup(br_error_get());
                j->pid = 0;
                continue;
            }
            pids[j - jobs] = j->pid;
            running++;
        }
        if (running == 0)
            break;
        if (o->progress)
            show_compiles(jobs, n_jobs, (size_t)compiled);
        size_t w;
        int st, r = br_proc_wait_any(&w, &st, pids, n_jobs, o->progress ? 1e9 : -1.0);
        if (r < 0) {
            compiled = -1;
            break;
        }
        if (r == 0) /* a second went by: redraw */
            continue;
        pids[w] = 0;
        jobs[w].pid = 0;
        running--;
        finish_job(&jobs[w], br_proc_exit_code(st), o->cache_dir);
        compiled++;
    }
    if (o->progress && n_jobs > 0)
        br_log(BR_LOG_PROGRESS, "\r\033[K");
    free(pids);
    return compiled;
}

/* The build lock of job j's key: ".KEY.lock" in the cache (base/lock.h,
 * an fcntl lock, which NFS forwards to its server), taken within wait_ns.
 * Sets j->locked when held. A lock that cannot be taken at all (ENOLCK on
 * a mount without a lock manager) is done without: the unique temporary
 * names and the rename keep two builders of one key apart anyway, the lock
 * only saves the second one the work. Returns 1 when another process held
 * it throughout, else 0. */
static int take_key_lock(compile_job *j, const char *cache_dir, double wait_ns) {
    char *base = br_strfmt("%s/%s", cache_dir, j->input_key);
    int rc = base ? br_lock_take(&j->lock, base, wait_ns, wait_ns <= 0) : -1;
    free(base);
    j->locked = rc == 0;
    br_error_clear();
    return rc == -2;
}

/* Put the jobs whose key another process is building (deferred) after the
 * others; returns how many are not deferred. */
static size_t defer_busy(compile_job *jobs, size_t n_jobs, const char *cache_dir) {
    size_t now = 0;
    for (size_t i = 0; i < n_jobs; i++) {
        jobs[i].deferred = take_key_lock(&jobs[i], cache_dir, 0);
        if (jobs[i].deferred)
            continue;
        if (i != now) {
            compile_job t = jobs[now];
            jobs[now] = jobs[i];
            jobs[i] = t;
        }
        now++;
    }
    return now;
}

/* The deferred jobs, one at a time, holding no other lock (so two
 * processes never wait on each other): wait for the key's lock, then load
 * what the other builder stored, or build it here when it stored nothing.
 * Returns how many were compiled, or -1 with the error set. */
static int build_deferred(compile_job *jobs, size_t n_jobs, const br_build_opts *o) {
    int compiled = 0;
    for (size_t i = 0; i < n_jobs; i++) {
        compile_job *j = &jobs[i];
        take_key_lock(j, o->cache_dir, 600e9);
        int found = cached_object(j->h, j->input_key, o->cache_dir);
        if (found < 0)
            return -1;
        int c = found ? 0 : run_compiles(j, 1, o);
        if (j->locked)
            br_lock_release(&j->lock);
        j->locked = 0;
        if (c < 0)
            return -1;
        compiled += c;
    }
    return compiled;
}

int br_build_modules(br_module_handle *out, const br_build_src *sources, size_t n,
                     const br_build_opts *o) {
    int rc = -1;
    compile_job *jobs = calloc(n ? n : 1, sizeof *jobs);
    size_t n_jobs = 0;
    compiler_versions cv = {0};
    if (!jobs)
        return br_error_nomem();
    memset(out, 0, n * sizeof *out);
    if (br_mkdir_p(o->cache_dir) != 0)
        goto done;
    br_tmp_sweep(o->cache_dir); /* what killed builds left; base/tmp.h's rules */
    for (size_t i = 0; i < n; i++) {
        compile_job *j = &jobs[n_jobs];
        int drop = plan_module(j, &out[i], &sources[i], o, &cv);
        if (drop < 0)
            goto done;
        if (drop) {
            job_free(j);
            memset(j, 0, sizeof *j);
            continue;
        }
        n_jobs++;
    }
    size_t now = defer_busy(jobs, n_jobs, o->cache_dir);
    int compiled = run_compiles(jobs, now, o);
    for (size_t i = 0; i < now; i++)
        if (jobs[i].locked) {
            br_lock_release(&jobs[i].lock);
            jobs[i].locked = 0;
        }
    int later = compiled < 0 ? 0 : build_deferred(jobs + now, n_jobs - now, o);
    if (compiled < 0 || later < 0)
        goto done;
    compiled += later;
    for (size_t i = 0; i < n; i++)
        if (out[i].state == BR_MODULE_LOADED)
            load_module(&out[i]);
    rc = compiled;
done:
    /* Jobs beyond n_jobs may be half prepared; compiles still running (after a
     * failed wait) are stopped and their files removed; so are the objects
     * loaded but not kept. */
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].unrecorded)
            unlink(jobs[i].tmp_so);
        if (jobs[i].pid > 0) {
            int st;
            kill(jobs[i].pid, SIGKILL);
            br_proc_wait(&st, jobs[i].pid);
            unlink(jobs[i].tmp_so);
            unlink(jobs[i].log_path);
            unlink(jobs[i].dep_path);
        }
        job_free(&jobs[i]);
    }
    free(jobs);
    for (size_t i = 0; i < SRC_UNKNOWN; i++)
        free(cv.text[i]);
    return rc;
}

void br_module_handle_dispose(br_module_handle *m) {
    if (!m)
        return;
    free((void *)m->module);
    if (m->dl)
        dlclose(m->dl);
    free(m->source);
    free(m->so_path);
    free(m->command);
    free(m->log);
    free(m->message);
    memset(m, 0, sizeof *m);
}
