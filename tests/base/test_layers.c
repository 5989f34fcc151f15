/* SPDX-License-Identifier: Apache-2.0 */
/* The tree shows the flow: every #include "stage/x.h" of
 * runner/ and reporters/ points down the flow (docs/architecture.md), lowest
 * floor first:
 *
 *   base < model < results < suite < plan < compile < platform < measure
 *        < worker < gate < history < profile < reporters < drive < cli
 *
 * A file's stage is its folder (runner/<stage>/, reporters/). A stage may
 * include its own folder and the stages below it; and no two files include
 * each other's module, directly or around a longer loop (file cycles). A
 * private header (x_impl.h: a module's fields, shared by the files of its
 * family) is included only inside its own folder: worker/session_impl.h
 * by worker/, drive/devices_impl.h by drive/.
 *
 * And no source under tests/ logs a Criterion warning: Criterion exits 1
 * when a test logged one, even when every test passed, so a test that
 * "skips" with a warning fails ctest wherever its skip path runs. A skip is
 * cr_skip_test("why"); a note that is no skip is cr_log_info. */
#include <criterion/criterion.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The floors, lowest first: a stage may include its own and every one before it. */
static const char *const floors[] = {"base",    "model",    "results",   "suite",  "plan",
                                     "compile", "platform", "measure",   "worker", "gate",
                                     "history", "profile",  "reporters", "drive",  "cli"};
#define N_FLOORS (sizeof floors / sizeof floors[0])

static int floor_of(const char *stage) {
    for (size_t i = 0; i < N_FLOORS; i++)
        if (strcmp(floors[i], stage) == 0)
            return (int)i;
    return -1;
}

/* A module: a folder's file pair (x.c + x.h + x_impl.h share the module "x"). */
#define MAX_MODULES 512
#define MAX_EDGES   8192
static char modules[MAX_MODULES][128];
static size_t n_modules;
static size_t edge_from[MAX_EDGES], edge_to[MAX_EDGES];
static size_t n_edges;

/* The module of "stage/file.ext": "stage/file" less a trailing "_impl". */
static size_t module_id(const char *stage, const char *file) {
    char name[128];
    snprintf(name, sizeof name, "%s/%s", stage, file);
    char *dot = strrchr(name, '.');
    if (dot)
        *dot = '\0';
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, "_impl") == 0)
        name[n - 5] = '\0';
    for (size_t i = 0; i < n_modules; i++)
        if (strcmp(modules[i], name) == 0)
            return i;
    cr_assert_lt(n_modules, MAX_MODULES);
    snprintf(modules[n_modules], sizeof modules[0], "%s", name);
    return n_modules++;
}

static void add_edge(size_t from, size_t to) {
    if (from == to)
        return;
    for (size_t i = 0; i < n_edges; i++)
        if (edge_from[i] == from && edge_to[i] == to)
            return;
    cr_assert_lt(n_edges, MAX_EDGES);
    edge_from[n_edges] = from;
    edge_to[n_edges++] = to;
}

/* Check one file's includes; returns the number of wrong arrows (printed).
 * Records every include of a runner module as an edge for the cycle check. */
static int check_file(const char *path, const char *stage, const char *file) {
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    int me = floor_of(stage);
    cr_assert_geq(me, 0, "no floor for stage %s (%s)", stage, path);
    size_t my_module = module_id(stage, file);
    char line[1024];
    int bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char target[256];
        if (sscanf(line, " #include \"%255[^\"]\"", target) != 1)
            continue;
        char *slash = strchr(target, '/');
        if (!slash) {
            if (strcmp(target, "benchrun_kernel.h") != 0 && strcmp(target, "benchrun_cuda.h") != 0)
                add_edge(my_module, module_id(stage, target));
            continue; /* same folder, or kernels/ */
        }
        *slash = '\0';
        int to = floor_of(target);
        if (to < 0)
            continue; /* not a stage (e.g. a system-style path) */
        add_edge(my_module, module_id(target, slash + 1));
        size_t n = strlen(slash + 1);
        if (to != me && n > 7 && strcmp(slash + 1 + n - 7, "_impl.h") == 0) {
            fprintf(stderr, "%s:%d: %s includes %s/%s: a private header outside its folder\n", path,
                    lineno, stage, target, slash + 1);
            bad++;
        }
        if (to > me) {
            fprintf(stderr, "%s:%d: %s includes %s/: an arrow up the flow\n", path, lineno, stage,
                    target);
            bad++;
        }
    }
    fclose(f);
    return bad;
}

static int is_source(const char *name) {
    size_t n = strlen(name);
    return (n > 2 && (strcmp(name + n - 2, ".c") == 0 || strcmp(name + n - 2, ".h") == 0)) ||
           (n > 3 && strcmp(name + n - 3, ".cu") == 0);
}

/* Check every source of dir as stage `stage`; counts files into *n_files. */
static int check_dir(const char *dir, const char *stage, int *n_files) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_source(e->d_name))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        bad += check_file(path, stage, e->d_name);
        (*n_files)++;
    }
    closedir(d);
    return bad;
}

/* Depth-first search for a cycle through `m`; prints it and returns 1. */
static int on_path[MAX_MODULES], done[MAX_MODULES];
static size_t path_stack[MAX_MODULES], path_len;

static int find_cycle(size_t m) {
    if (on_path[m]) {
        fprintf(stderr, "include cycle:");
        size_t i = 0;
        while (path_stack[i] != m)
            i++;
        for (; i < path_len; i++)
            fprintf(stderr, " %s ->", modules[path_stack[i]]);
        fprintf(stderr, " %s\n", modules[m]);
        return 1;
    }
    if (done[m])
        return 0;
    on_path[m] = 1;
    path_stack[path_len++] = m;
    int found = 0;
    for (size_t i = 0; i < n_edges && !found; i++)
        if (edge_from[i] == m)
            found = find_cycle(edge_to[i]);
    path_len--;
    on_path[m] = 0;
    done[m] = 1;
    return found;
}

static int count_cycles(void) {
    memset(on_path, 0, sizeof on_path);
    memset(done, 0, sizeof done);
    path_len = 0;
    int cycles = 0;
    for (size_t m = 0; m < n_modules; m++)
        cycles += find_cycle(m);
    return cycles;
}

static void reset_graph(void) {
    n_modules = 0;
    n_edges = 0;
}

Test(layers, every_include_points_down_the_flow_and_no_module_cycle) {
    char dir[4096];
    int bad = 0, n_files = 0;
    reset_graph();
    for (size_t i = 0; i < N_FLOORS; i++) {
        if (strcmp(floors[i], "reporters") == 0)
            snprintf(dir, sizeof dir, "%s/reporters", BR_SOURCE_DIR);
        else
            snprintf(dir, sizeof dir, "%s/runner/%s", BR_SOURCE_DIR, floors[i]);
        bad += check_dir(dir, floors[i], &n_files);
    }
    cr_assert_gt(n_files, 150, "only %d sources found under %s", n_files, BR_SOURCE_DIR);
    cr_expect_eq(bad, 0, "%d include(s) point up the flow (listed above)", bad);
    cr_expect_eq(count_cycles(), 0, "modules include each other (cycles listed above)");
}

/* Nothing is left at the root of runner/: every source is in a stage folder. */
Test(layers, no_source_at_the_root_of_runner) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/runner", BR_SOURCE_DIR);
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        cr_expect(!is_source(e->d_name), "runner/%s is in no stage folder", e->d_name);
    closedir(d);
}

/* Writes `text` to a temporary source file; returns its path (static buffer). */
static const char *temp_source(const char *text) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/br_layers_XXXXXX.c");
    int fd = mkstemps(path, 2);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* The checker itself sees a wrong arrow: model/ including gate/. */
Test(layers, an_arrow_up_is_caught) {
    reset_graph();
    const char *path = temp_source("#include \"base/error.h\"\n#include \"gate/baseline.h\"\n");
    cr_expect_eq(check_file(path, "model", "x.c"), 1);
    cr_expect_eq(check_file(path, "cli", "x.c"), 0);
    remove(path);
}

/* The checker itself sees a private header included from another folder:
 * drive/ including worker/session_impl.h (worker/ may). */
Test(layers, a_private_header_from_another_folder_is_caught) {
    reset_graph();
    const char *path = temp_source("#include \"worker/session.h\"\n"
                                   "#include \"worker/session_impl.h\"\n");
    cr_expect_eq(check_file(path, "drive", "x.c"), 1);
    cr_expect_eq(check_file(path, "worker", "x.c"), 0);
    remove(path);
}

/* The checker itself sees a cycle: a.c includes b.h, b.c includes a.h. */
Test(layers, a_cycle_is_caught) {
    reset_graph();
    const char *a = temp_source("#include \"b.h\"\n");
    check_file(a, "measure", "a.c");
    remove(a);
    cr_expect_eq(count_cycles(), 0);
    const char *b = temp_source("#include \"a_impl.h\"\n");
    check_file(b, "measure", "b.c");
    remove(b);
    cr_expect_eq(count_cycles(), 1);
}

/* --- no test logs a Criterion warning ---------------------------------------------- */

/* The warning macro and the warning severity (cr_log's first argument),
 * their last underscore written \137 so that this file holds neither. */
#define WARN_MACRO "cr_log\137warn"
#define WARN_LEVEL "CR_LOG\137WARNING"

static int ident_char(char c) {
    return isalnum((unsigned char)c) || c == '_';
}

/* Whether `line` logs a Criterion warning: a call of the warning macro (its
 * name followed by '('), or the warning severity named as a word. A comment
 * that names the macro without calling it does not count. */
static int logs_a_warning(const char *line) {
    const size_t nm = strlen(WARN_MACRO), nl = strlen(WARN_LEVEL);
    for (const char *p = line; (p = strstr(p, WARN_MACRO)) != NULL; p += nm) {
        if (p > line && ident_char(p[-1]))
            continue;
        const char *q = p + nm;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '(')
            return 1;
    }
    for (const char *p = line; (p = strstr(p, WARN_LEVEL)) != NULL; p += nl)
        if ((p == line || !ident_char(p[-1])) && !ident_char(p[nl]))
            return 1;
    return 0;
}

/* The lines of source file `path` that log a Criterion warning, each
 * printed as path:line. */
static int warnings_in(const char *path) {
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    char line[4096];
    int found = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (logs_a_warning(line)) {
            fprintf(stderr,
                    "%s:%d: logs a Criterion warning, which makes ctest fail however the "
                    "tests went: skip with cr_skip_test(\"why\"), or note it with cr_log_info\n",
                    path, lineno);
            found++;
        }
    }
    fclose(f);
    return found;
}

/* The warnings logged by the sources (.c, .h, .cu) under dir and its
 * folders, symbolic links not followed; counts the files into *n_files. */
static int warnings_under(const char *dir, int *n_files) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            found += warnings_under(path, n_files);
        } else if (S_ISREG(st.st_mode) && is_source(e->d_name)) {
            found += warnings_in(path);
            (*n_files)++;
        }
    }
    closedir(d);
    return found;
}

Test(layers, no_test_logs_a_warning_to_skip) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests", BR_SOURCE_DIR);
    int n_files = 0;
    int found = warnings_under(dir, &n_files);
    cr_assert_gt(n_files, 100, "only %d sources found under %s", n_files, dir);
    cr_expect_eq(found, 0, "%d line(s) of tests/ log a Criterion warning (listed above)", found);
}

/* The checker itself: a call of the warning macro and the warning severity
 * are caught; a skip, an info note and a comment naming the macro are not. */
Test(layers, a_warning_is_caught) {
    const char *warns =
        temp_source("if (1)\n    " WARN_MACRO "(\"no tool\");\n"
                    "cr_log(" WARN_LEVEL ", \"x\");\n" WARN_MACRO " (\"spaced\");\n");
    cr_expect_eq(warnings_in(warns), 3);
    remove(warns);
    const char *fine =
        temp_source("cr_skip_test(\"no tool\");\ncr_log_info(\"note\");\n"
                    "/* never " WARN_MACRO " here */\nmy_" WARN_MACRO "(1);\n" WARN_LEVEL "S;\n");
    cr_expect_eq(warnings_in(fine), 0);
    remove(fine);
}
