/* SPDX-License-Identifier: Apache-2.0 */
/* test_layers.c - the tree shows the flow: every #include "stage/x.h" of
 * runner/ and reporters/ points down the flow (docs/architecture.md):
 *
 *   cli -> pipeline -> plan -> suite ; compile ; measure -> results -> base
 *   reporters -> results -> base
 *
 * A file's stage is its folder (runner/<stage>/, reporters/); the files at the
 * root of runner/ are the pipeline. A stage may include the stages listed
 * below for it, and its own folder. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct layer {
    const char *stage;
    const char *may_include; /* space-separated stages */
} layer;

static const layer layers[] = {
    {"base", ""},
    {"results", "base"},
    {"suite", "results base"},
    {"plan", "suite results base"},
    {"compile", "plan suite results base"},
    {"measure", "compile plan results base"},
    {"reporters", "results base"},
    {"pipeline", "plan suite compile measure results reporters base"},
    {"cli", "pipeline plan suite compile measure results reporters base"},
};

static const layer *find_layer(const char *stage) {
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        if (strcmp(layers[i].stage, stage) == 0)
            return &layers[i];
    return NULL;
}

/* 1 when `word` is one of the space-separated words of `list`. */
static int listed(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Check one file's includes; returns the number of wrong arrows (printed). */
static int check_file(const char *path, const char *stage) {
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    const layer *me = find_layer(stage);
    cr_assert_not_null(me, "no layer for stage %s (%s)", stage, path);
    char line[1024];
    int bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char target[256];
        if (sscanf(line, " #include \"%255[^\"]\"", target) != 1)
            continue;
        char *slash = strchr(target, '/');
        if (!slash)
            continue; /* same folder, or kernels/ (benchrun_kernel.h) */
        *slash = '\0';
        const char *to = strcmp(target, "runner") == 0 ? "pipeline" : target;
        if (strcmp(to, stage) == 0 || strcmp(to, "..") == 0)
            continue;
        if (!find_layer(to))
            continue; /* not a stage (e.g. a system-style path) */
        if (!listed(me->may_include, to)) {
            fprintf(stderr, "%s:%d: %s includes %s/: an arrow up the flow\n", path, lineno, stage,
                    to);
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
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        bad += check_file(path, stage);
        (*n_files)++;
    }
    closedir(d);
    return bad;
}

Test(layers, every_include_points_down_the_flow) {
    static const char *const stages[] = {"base",    "results", "suite", "plan",
                                         "compile", "measure", "cli"};
    char dir[4096];
    int bad = 0, n_files = 0;
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
        snprintf(dir, sizeof dir, "%s/runner/%s", BR_SOURCE_DIR, stages[i]);
        bad += check_dir(dir, stages[i], &n_files);
    }
    snprintf(dir, sizeof dir, "%s/runner", BR_SOURCE_DIR);
    bad += check_dir(dir, "pipeline", &n_files);
    snprintf(dir, sizeof dir, "%s/reporters", BR_SOURCE_DIR);
    bad += check_dir(dir, "reporters", &n_files);
    cr_assert_gt(n_files, 40, "only %d sources found under %s", n_files, BR_SOURCE_DIR);
    cr_assert_eq(bad, 0, "%d include(s) point up the flow (listed above)", bad);
}

/* The checker itself sees a wrong arrow: results/ including reporters/. */
Test(layers, an_arrow_up_is_caught) {
    char path[] = "/tmp/br_layers_XXXXXX.c";
    int fd = mkstemps(path, 2);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("#include \"base/error.h\"\n#include \"reporters/reporter.h\"\n", f);
    fclose(f);
    cr_expect_eq(check_file(path, "results"), 1);
    cr_expect_eq(check_file(path, "cli"), 0);
    remove(path);
}
