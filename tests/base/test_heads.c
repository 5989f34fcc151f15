/* SPDX-License-Identifier: Apache-2.0 */
/* Heads and comments that cannot go stale: no source of runner/ or
 * reporters/ names itself in its head (libgit2's heads name no file), and
 * every file a comment names (x.c, x.h, x.cu, with or without its folder)
 * exists in the tree: as written from the repository's root, from runner/,
 * from the commenting file's folder, or, for a bare name, anywhere in a
 * source folder. Names of other projects' files (curl's tool_msgs.c,
 * <nvml.h>) and placeholders (kernels/x.cu) are listed in `elsewhere`. */
#include <criterion/criterion.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Files of other projects, system headers and placeholders that comments
 * may name: they are not in this tree. */
static const char *const elsewhere[] = {
    "git2.h",
    "git2/types.h",
    "nvml.h",
    "nvtx3/nvToolsExt.h",
    "cub.cu",
    "Common/helper_cuda.h",
    "tool_getparam.c",
    "tool_msgs.c",
    "tool_writeout.c",
    "src/cli/opt.c",
    "object.c",
    "kernels/x.cu",
    "suites/../kernels/x.cu",
    "k.c",
    "cli/cmd_X.c",
    "x.c",
    "x.h",
    "x_impl.h",
    "cupti.h",
    "cuda.h",
    "cuda_runtime.h",
};

static int is_elsewhere(const char *name) {
    for (size_t i = 0; i < sizeof elsewhere / sizeof elsewhere[0]; i++)
        if (strcmp(elsewhere[i], name) == 0)
            return 1;
    return 0;
}

static int is_source(const char *name) {
    size_t n = strlen(name);
    return (n > 2 && (strcmp(name + n - 2, ".c") == 0 || strcmp(name + n - 2, ".h") == 0)) ||
           (n > 3 && strcmp(name + n - 3, ".cu") == 0);
}

/* The base names of every source under the tree's source folders. */
#define MAX_NAMES 4096
static char names[MAX_NAMES][96];
static size_t n_names;

static void collect(const char *dir) {
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            collect(path);
        else if (S_ISREG(st.st_mode) && is_source(e->d_name) && n_names < MAX_NAMES)
            snprintf(names[n_names++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
}

static void collect_all(void) {
    static const char *const roots[] = {"runner", "reporters", "kernels",   "tests",
                                        "fuzz",   "suites",    "templates", "include"};
    n_names = 0;
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", BR_SOURCE_DIR, roots[i]);
        collect(dir);
    }
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* Whether `name`, named in a comment of a file in folder `dir`, exists. */
static int named_file_exists(const char *name, const char *dir) {
    char p[8192];
    snprintf(p, sizeof p, "%s/%s", BR_SOURCE_DIR, name);
    if (exists(p))
        return 1;
    snprintf(p, sizeof p, "%s/runner/%s", BR_SOURCE_DIR, name);
    if (exists(p))
        return 1;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (exists(p))
        return 1;
    if (strchr(name, '/'))
        return 0;
    for (size_t i = 0; i < n_names; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

static int name_char(int c) {
    return isalnum(c) || c == '_' || c == '/' || c == '.' || c == '-';
}

/* The file names in one comment's text [s, e) that exist nowhere (printed
 * with the file and line). */
static int check_comment(const char *path, const char *dir, const char *s, const char *e,
                         int line) {
    int bad = 0;
    for (const char *p = s; p < e; p++) {
        if (*p == '\n')
            line++;
        if (!name_char((unsigned char)*p) || (p > s && name_char((unsigned char)p[-1])))
            continue;
        const char *q = p;
        while (q < e && name_char((unsigned char)*q))
            q++;
        char tok[256];
        size_t n = (size_t)(q - p);
        while (n && (p[n - 1] == '.' || p[n - 1] == '-' || p[n - 1] == '/'))
            n--; /* the sentence's full stop */
        if (n == 0 || n >= sizeof tok)
            continue;
        memcpy(tok, p, n);
        tok[n] = '\0';
        if (!is_source(tok) || tok[0] == '/' || tok[0] == '.' || !strncmp(tok, "sys/", 4) ||
            !strncmp(tok, "linux/", 6) || !strncmp(tok, "criterion/", 10) || is_elsewhere(tok))
            continue;
        if (!named_file_exists(tok, dir)) {
            fprintf(stderr, "%s:%d: a comment names %s, which is not in the tree\n", path, line,
                    tok);
            bad++;
        }
        p = q - 1;
    }
    return bad;
}

/* The stale names in the comments of one file's text. */
static int check_text(const char *path, const char *dir, const char *t) {
    int bad = 0, line = 1;
    for (const char *p = t; *p; p++) {
        if (*p == '\n') {
            line++;
        } else if (*p == '"') { /* a string literal: skipped */
            for (p++; *p && *p != '"' && *p != '\n'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                break;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            if (!end)
                end = p + strlen(p);
            bad += check_comment(path, dir, p + 2, end, line);
            for (const char *c = p; c < end; c++)
                line += *c == '\n';
            p = *end ? end + 1 : end - 1;
        } else if (p[0] == '/' && p[1] == '/') {
            const char *end = strchr(p, '\n');
            if (!end)
                end = p + strlen(p);
            bad += check_comment(path, dir, p + 2, end, line);
            p = end - 1;
        }
    }
    return bad;
}

/* Whether the head (the file's first comment after the licence line)
 * begins with a file name: "x.c - what it does". */
static int head_names_a_file(const char *t) {
    const char *p = strstr(t, "*/");
    p = p && strncmp(t, "/* SPDX", 7) == 0 ? p + 2 : t;
    while (*p && isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "/*", 2) != 0)
        return 0;
    p += 2;
    while (*p == ' ')
        p++;
    const char *q = p;
    while (name_char((unsigned char)*q) && *q != '/')
        q++;
    char tok[128];
    size_t n = (size_t)(q - p);
    if (n == 0 || n >= sizeof tok)
        return 0;
    memcpy(tok, p, n);
    tok[n] = '\0';
    while (*q == ' ')
        q++;
    return is_source(tok) && (*q == '-' || *q == ':');
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    cr_assert_not_null(t);
    cr_assert_eq(fread(t, 1, (size_t)n, f), (size_t)n);
    t[n] = '\0';
    fclose(f);
    return t;
}

/* Heads and comments of every source under dir (and its folders). */
static void check_dir(const char *dir, int *n_files, int *heads, int *stale) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            check_dir(path, n_files, heads, stale);
            continue;
        }
        if (!S_ISREG(st.st_mode) || !is_source(e->d_name))
            continue;
        char *t = slurp(path);
        if (head_names_a_file(t)) {
            fprintf(stderr, "%s:2: the head names a file (heads name none: they go stale)\n", path);
            (*heads)++;
        }
        *stale += check_text(path, dir, t);
        free(t);
        (*n_files)++;
    }
    closedir(d);
}

Test(heads, no_head_names_a_file_and_no_comment_names_a_file_that_is_gone) {
    collect_all();
    int n_files = 0, heads = 0, stale = 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/runner", BR_SOURCE_DIR);
    check_dir(dir, &n_files, &heads, &stale);
    snprintf(dir, sizeof dir, "%s/reporters", BR_SOURCE_DIR);
    check_dir(dir, &n_files, &heads, &stale);
    cr_assert_gt(n_files, 150, "only %d sources found", n_files);
    cr_expect_eq(heads, 0, "%d head(s) name a file (listed above)", heads);
    cr_expect_eq(stale, 0, "%d comment(s) name a file that is not in the tree (listed above)",
                 stale);
}

/* The checker itself: a head that names its file, a comment naming a gone
 * file, and what it lets pass (an existing path, a string literal, another
 * project's file). */
Test(heads, the_checker_catches_a_planted_head_and_a_gone_file) {
    collect_all();
    cr_expect(head_names_a_file("/* SPDX-License-Identifier: Apache-2.0 */\n"
                                "/* foo.c - what it does */\n"));
    cr_expect_not(head_names_a_file("/* SPDX-License-Identifier: Apache-2.0 */\n"
                                    "/* What it does, as foo.h says. */\n"));
    const char *text = "/* see results/json_write.c and abrun.h */\n"
                       "/* see drive/driver.h, worker/session.c and curl's tool_msgs.c. */\n"
                       "const char *s = \"gone.c\";\n";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/runner/drive", BR_SOURCE_DIR);
    cr_expect_eq(check_text("planted.c", dir, text), 2);
}
