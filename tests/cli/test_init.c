/* SPDX-License-Identifier: Apache-2.0 */
/* test_init.c - `benchrun init` (runner/cli/cmd_init.c) through the
 * executable: the files it writes (the embedded templates, byte for byte),
 * its refusal to overwrite, and the scaffold itself: its suite passes
 * `benchrun check` and runs (the host kernel measured and verified; the GPU
 * kernel compiled by check when nvcc exists, skipped by a run without a
 * GPU and then not compiled), and its
 * workflow is YAML that follows docs/ci.md's recipe (ab on a pull request,
 * --results-dir and --history on main). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <sys/stat.h>
#include <yaml.h>

#include "e2e_util.h"
#include <git2.h>
#include "platform/device.h"

#define TEMPLATES BR_SOURCE_DIR "/templates/init"

/* The scaffold's layout (fixed: the docs and other tools name these). */
static const char *const layout[] = {
    ".github/workflows/benchrun.yml",
    ".gitignore",
    "baselines/README.md",
    "kernels/example.cu",
    "kernels/example_cpu.c",
    "schema/suite.schema.json",
    "suites/example.yaml",
};

/* Where the template of a file of the layout is: the schema is the
 * project's own, the rest are under templates/init/. */
static char *template_of(const char *rel) {
    if (strcmp(rel, "schema/suite.schema.json") == 0)
        return br_strfmt("%s/schema/suite.schema.json", BR_SOURCE_DIR);
    return br_strfmt("%s/%s", TEMPLATES, rel);
}
#define N_LAYOUT (sizeof layout / sizeof *layout)

TestSuite(init, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 240);

/* Every regular file under root (relative, sorted) into files[]; returns
 * the count. Other kinds of entries are counted as files too ("?name"), so
 * a stray link or fifo fails a comparison. */
static size_t list_files(char **files, size_t max, const char *root, const char *rel) {
    char *dir = rel[0] ? br_strfmt("%s/%s", root, rel) : br_strdup(root);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *sub = rel[0] ? br_strfmt("%s/%s", rel, e->d_name) : br_strdup(e->d_name);
        char *full = br_strfmt("%s/%s", root, sub);
        struct stat st;
        cr_assert_eq(lstat(full, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            n += list_files(files + n, max - n, root, sub);
            free(sub);
        } else {
            cr_assert_lt(n, max);
            files[n++] = S_ISREG(st.st_mode) ? sub : br_strfmt("?%s", sub);
            if (!S_ISREG(st.st_mode))
                free(sub);
        }
        free(full);
    }
    closedir(d);
    free(dir);
    return n;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Assert that root holds exactly the files want[0..n), nothing else. */
static void expect_files(const char *root, const char *const *want, size_t n) {
    char *got[64];
    size_t k = list_files(got, 64, root, "");
    qsort(got, k, sizeof *got, cmp_str);
    cr_assert_eq(k, n, "%s holds %zu file(s), expected %zu (first: %s)", root, k, n,
                 k ? got[0] : "none");
    for (size_t i = 0; i < n; i++)
        cr_assert_str_eq(got[i], want[i]);
    for (size_t i = 0; i < k; i++)
        free(got[i]);
}

static char *slurp(const char *path) {
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, path, 1 << 20), 0, "cannot read %s", path);
    return text;
}

/* benchrun init DIR (or, dir NULL, in cwd with no argument). */
static e2e_result run_init(const char *cwd, const char *dir) {
    const char *args[] = {"init", dir, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, cwd, args), 0);
    return r;
}

Test(init, writes_exactly_the_scaffold_from_the_templates) {
    char *dir = br_strfmt("%s/repo/nested", tmp); /* folders that do not exist yet */
    e2e_result r = run_init(NULL, dir);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    expect_files(dir, layout, N_LAYOUT);
    for (size_t i = 0; i < N_LAYOUT; i++) {
        char *path = br_strfmt("%s/%s", dir, layout[i]);
        char *want_path = template_of(layout[i]);
        char *got = slurp(path), *want = slurp(want_path);
        cr_assert(strstr(r.out, path), "stdout does not name %s:\n%s", path, r.out);
        if (strcmp(layout[i], "suites/example.yaml") == 0) {
            /* The schema line is filled in at build time; the rest is the template. */
            const char *head = "# yaml-language-server: $schema=";
            cr_assert_eq(strncmp(got, head, strlen(head)), 0, "first line:\n%.80s", got);
            cr_assert_neq(got[strlen(head)], '\n', "no schema named");
            cr_assert_null(strstr(got, "@BR_"), "a placeholder is left:\n%.200s", got);
            cr_assert_str_eq(strchr(got, '\n'), strchr(want, '\n'));
        } else {
            cr_assert_str_eq(got, want, "%s differs from %s", path, want_path);
        }
        free(got);
        free(want);
        free(path);
        free(want_path);
    }
    char *next = br_strfmt("benchrun check %s/suites/example.yaml", dir);
    cr_assert(strstr(r.out, next), "stdout lacks the next command '%s':\n%s", next, r.out);
    free(next);
    e2e_free(&r);
    free(dir);
}

/* The schema the scaffold's suite names on its first line exists: a path
 * relative to the suite (the copy init wrote) or an absolute one; and it is
 * the project's schema. A URL cannot be checked here and fails: the build
 * names a file unless told otherwise (BR_SCHEMA_URL). */
Test(init, the_suite_names_a_schema_that_exists) {
    char *dir = br_strfmt("%s/elsewhere", tmp);
    e2e_result r = run_init(NULL, dir);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    char *suite_path = br_strfmt("%s/suites/example.yaml", dir), *suite = slurp(suite_path);
    const char *head = "# yaml-language-server: $schema=";
    cr_assert_eq(strncmp(suite, head, strlen(head)), 0, "first line:\n%.80s", suite);
    const char *named = suite + strlen(head);
    size_t len = strcspn(named, "\n");
    cr_assert_null(memchr(named, ':', len), "a URL, not a file: %.*s", (int)len, named);
    char *schema = named[0] == '/' ? br_strfmt("%.*s", (int)len, named)
                                   : br_strfmt("%s/suites/%.*s", dir, (int)len, named);
    char *got = slurp(schema), *want = slurp(BR_SOURCE_DIR "/schema/suite.schema.json");
    cr_assert_str_eq(got, want, "%s is not the suite schema", schema);
    free(got);
    free(want);
    free(schema);
    free(suite);
    free(suite_path);
    e2e_free(&r);
    free(dir);
}

Test(init, writes_into_the_current_directory_by_default) {
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    expect_files(tmp, layout, N_LAYOUT);
    cr_assert(strstr(r.out, "\n  suites/example.yaml\n"), "stdout:\n%s", r.out);
    cr_assert(strstr(r.out, "benchrun check suites/example.yaml"), "stdout:\n%s", r.out);
    e2e_free(&r);
}

Test(init, a_second_init_refuses_and_changes_nothing) {
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 0);
    e2e_free(&r);
    /* An edited suite must survive the second init. */
    char *suite = br_strfmt("%s/suites/example.yaml", tmp);
    FILE *f = fopen(suite, "w");
    cr_assert_not_null(f);
    fputs("name: mine\n", f);
    fclose(f);
    r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s", r.status, r.out);
    for (size_t i = 0; i < N_LAYOUT; i++) {
        char *line = br_strfmt("%s already exists", layout[i]);
        cr_assert(strstr(r.err, line), "stderr does not name %s:\n%s", layout[i], r.err);
        free(line);
    }
    cr_assert(strstr(r.err, "nothing written"), "stderr:\n%s", r.err);
    cr_assert_str_eq(r.out, "");
    char *text = slurp(suite);
    cr_assert_str_eq(text, "name: mine\n");
    expect_files(tmp, layout, N_LAYOUT);
    free(text);
    free(suite);
    e2e_free(&r);
}

Test(init, one_existing_target_stops_every_write) {
    /* Only kernels/example.cu is there (and it is checked after files that
     * sort before it): nothing else may appear. */
    char *kernels = br_strfmt("%s/kernels", tmp);
    cr_assert_eq(mkdir(kernels, 0777), 0);
    free(e2e_put("kernels/example.cu", "// mine\n"));
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s", r.status, r.out);
    cr_assert(strstr(r.err, "kernels/example.cu already exists"), "stderr:\n%s", r.err);
    cr_assert_null(strstr(r.err, "suites/example.yaml"), "stderr:\n%s", r.err);
    const char *only[] = {"kernels/example.cu"};
    expect_files(tmp, only, 1);
    struct stat st;
    cr_assert_eq(stat(kernels, &st), 0);
    char *suites = br_strfmt("%s/suites", tmp);
    cr_assert_eq(stat(suites, &st), -1, "init made %s", suites);
    free(suites);
    free(kernels);
    e2e_free(&r);
}

Test(init, a_dangling_link_is_in_the_way_too) {
    char *suites = br_strfmt("%s/suites", tmp), *link = br_strfmt("%s/example.yaml", suites);
    cr_assert_eq(mkdir(suites, 0777), 0);
    cr_assert_eq(symlink("/nonexistent/suite.yaml", link), 0);
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s", r.status, r.out);
    cr_assert(strstr(r.err, "suites/example.yaml already exists"), "stderr:\n%s", r.err);
    const char *only[] = {"?suites/example.yaml"}; /* the link, nothing else */
    expect_files(tmp, only, 1);
    e2e_free(&r);
    free(link);
    free(suites);
}

Test(init, a_file_where_a_folder_goes_is_refused) {
    free(e2e_put("suites", "not a folder\n"));
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 2, "exit %d\nstdout:\n%s", r.status, r.out);
    cr_assert(strstr(r.err, "suites exists and is not a directory"), "stderr:\n%s", r.err);
    const char *only[] = {"suites"};
    expect_files(tmp, only, 1);
    e2e_free(&r);

    char *file = br_strfmt("%s/suites", tmp);
    r = run_init(NULL, file); /* DIR itself a file */
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "exists and is not a directory"), "stderr:\n%s", r.err);
    e2e_free(&r);
    free(file);
}

Test(init, usage_errors_exit_2) {
    const char *two[] = {"init", "a", "b", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, two), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "at most one directory"), "stderr:\n%s", r.err);
    e2e_free(&r);
    const char *bad[] = {"init", "--frobnicate", NULL};
    cr_assert_eq(e2e_run(&r, tmp, bad), 0);
    cr_assert_eq(r.status, 2);
    const char *none[] = {NULL};
    expect_files(tmp, none, 0);
    e2e_free(&r);
}

static int have_nvcc(void) {
    return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ||
           system("command -v nvcc >/dev/null 2>&1") == 0;
}

/* The status of every case of kernel in the JSON results' first run;
 * returns how many cases it has. */
static size_t statuses(json_t *doc, const char *kernel, const char *want) {
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    size_t i, n = 0;
    json_t *c;
    json_array_foreach(cases, i, c) {
        if (strcmp(json_string_value(json_object_get(c, "kernel")), kernel) != 0)
            continue;
        n++;
        cr_assert_str_eq(json_string_value(json_object_get(c, "status")), want, "%s case %zu",
                         kernel, i);
        if (strcmp(want, "ok") == 0)
            cr_assert(json_is_true(json_object_get(c, "verified")), "%s not verified", kernel);
    }
    return n;
}

Test(init, the_scaffold_passes_check_and_runs) {
    char why[512];
    int gpu = br_device_available(why, sizeof why), nvcc = have_nvcc();
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 0);
    e2e_free(&r);
    char *cache = br_strfmt("--cache-dir=%s/.cache", tmp);

    const char *check[] = {"check", cache, "suites/example.yaml", NULL};
    cr_assert_eq(e2e_run(&r, tmp, check), 0);
    cr_assert_eq(r.status, 0, "check: exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "suites/example.yaml: ok: 6 case(s)"), "stdout:\n%s", r.out);
    if (nvcc) /* both sources compiled, the GPU one without a GPU too */
        cr_assert(strstr(r.out, "2 kernel module(s) built"), "stdout:\n%s", r.out);
    e2e_free(&r);

    /* The run: the modules come from the cache check filled; without a GPU
     * the run builds the host module alone. */
    char *json = br_strfmt("%s/out.json", tmp);
    const char *run[] = {cache, "--no-compare", "--json", json, "suites/example.yaml", NULL};
    cr_assert_eq(e2e_run(&r, tmp, run), 0);
    cr_assert_eq(r.status, 0, "run: exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    if (nvcc && gpu)
        cr_assert(strstr(r.err, "0 compiled, 2 from cache"), "stderr:\n%s", r.err);
    else
        cr_assert(strstr(r.err, "0 compiled, 1 from cache"), "stderr:\n%s", r.err);
    json_error_t err;
    json_t *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(doc, "%s: %s", json, err.text);
    cr_assert_eq(statuses(doc, "saxpy_cpu", "ok"), 3);
    cr_assert_eq(statuses(doc, "saxpy_gpu", gpu ? "ok" : "skipped"), 3);
    json_decref(doc);
    e2e_free(&r);
    free(json);
    free(cache);
    if (!nvcc)
        cr_skip_test("no nvcc: kernels/example.cu was not compiled (its cases were skipped)");
}

/* In a git repository, the scaffold's .gitignore keeps out what benchrun
 * writes that is no history: the lock a save of a baseline leaves, local
 * results, the site, the history index; the suite, the kernels and the
 * baseline itself are kept (asked of libgit2, as git would answer). */
Test(init, its_gitignore_keeps_the_save_lock_and_results_out_of_git) {
    git_libgit2_init();
    git_repository *repo = NULL;
    cr_assert_eq(git_repository_init(&repo, tmp, 0), 0);
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
    e2e_free(&r);
    char *cache = br_strfmt("--cache-dir=%s/.cache", tmp);
    const char *save[] = {cache, "-q",      "--save-baseline",     "-k", "saxpy_cpu",
                          "-p",  "n=65536", "suites/example.yaml", NULL};
    cr_assert_eq(e2e_run(&r, tmp, save), 0);
    cr_assert_eq(r.status, 0, "save: exit %d\nstderr:\n%s", r.status, r.err);
    e2e_free(&r);
    /* The lock file the save left beside its baseline. */
    char *dir = br_strfmt("%s/baselines/example", tmp), *lock = NULL, *base = NULL;
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no %s", dir);
    for (struct dirent *e; (e = readdir(d));) {
        char **slot = br_has_suffix(e->d_name, ".lock")   ? &lock
                      : br_has_suffix(e->d_name, ".json") ? &base
                                                          : NULL;
        if (slot && !*slot)
            *slot = br_strfmt("baselines/example/%s", e->d_name);
    }
    closedir(d);
    cr_assert_not_null(base, "no baseline in %s", dir);
    cr_assert_not_null(lock, "the save left no lock file in %s", dir);
    const char *out[] = {lock, "results/run.json", "site/index.html", ".benchrun-index.sqlite"};
    const char *in[] = {base, "suites/example.yaml", "kernels/example.cu", ".gitignore"};
    for (size_t i = 0; i < 4; i++) {
        int ignored = -1;
        cr_assert_eq(git_ignore_path_is_ignored(&ignored, repo, out[i]), 0);
        cr_expect_eq(ignored, 1, "%s is not ignored", out[i]);
        cr_assert_eq(git_ignore_path_is_ignored(&ignored, repo, in[i]), 0);
        cr_expect_eq(ignored, 0, "%s is ignored", in[i]);
    }
    free(lock);
    free(base);
    free(dir);
    free(cache);
    git_repository_free(repo);
    git_libgit2_shutdown();
}

/* ---- the workflow, through libyaml --------------------------------------- */

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key) {
    cr_assert_eq(map->type, YAML_MAPPING_NODE);
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, key) == 0)
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

static const char *scalar(yaml_node_t *n) {
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The step of steps whose `field` contains `text`, or NULL. */
static yaml_node_t *step_with(yaml_document_t *d, yaml_node_t *steps, const char *field,
                              const char *text) {
    for (yaml_node_item_t *i = steps->data.sequence.items.start; i < steps->data.sequence.items.top;
         i++) {
        yaml_node_t *s = yaml_document_get_node(d, *i);
        const char *v = scalar(get(d, s, field));
        if (v && strstr(v, text))
            return s;
    }
    return NULL;
}

/* Job `name` of the workflow's jobs, checked to run on a self-hosted GPU
 * runner; its steps returned. */
static yaml_node_t *gpu_job_steps(yaml_document_t *d, yaml_node_t *jobs, const char *name) {
    yaml_node_t *job = get(d, jobs, name);
    cr_assert_not_null(job, "no job %s", name);
    yaml_node_t *on = get(d, job, "runs-on");
    cr_assert(on && on->type == YAML_SEQUENCE_NODE);
    int self = 0, gpu = 0;
    for (yaml_node_item_t *i = on->data.sequence.items.start; i < on->data.sequence.items.top;
         i++) {
        const char *label = scalar(yaml_document_get_node(d, *i));
        self |= label && strcmp(label, "self-hosted") == 0;
        gpu |= label && strcmp(label, "gpu") == 0;
    }
    cr_assert(self && gpu, "%s: runs-on is not [self-hosted, gpu]", name);
    yaml_node_t *steps = get(d, job, "steps");
    cr_assert(steps && steps->type == YAML_SEQUENCE_NODE);
    cr_assert(step_with(d, steps, "run", "benchrun check suites/"), "%s: no check step", name);
    return steps;
}

/* The recipe of docs/ci.md: a pull request runs `benchrun ab` against its
 * base with its Markdown as the job summary; main keeps its runs in a
 * results directory, compares with them (--history) and with the committed
 * baselines, lists change points, feeds github-action-benchmark; either job
 * fails on benchrun's exit status (3: a regression), after its outputs. */
Test(init, the_workflow_runs_benchrun_and_publishes_its_outputs) {
    e2e_result r = run_init(tmp, NULL);
    cr_assert_eq(r.status, 0);
    e2e_free(&r);
    char *path = br_strfmt("%s/.github/workflows/benchrun.yml", tmp);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    cr_assert(yaml_parser_load(&parser, &doc), "%s: %s at line %zu", path, parser.problem,
              parser.problem_mark.line + 1);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    cr_assert_not_null(root);
    cr_assert_not_null(get(&doc, root, "on"));
    yaml_node_t *jobs = get(&doc, root, "jobs");
    cr_assert(jobs && jobs->type == YAML_MAPPING_NODE);

    /* Pull request: ab against the base, interleaved; Markdown to the summary. */
    yaml_node_t *steps = gpu_job_steps(&doc, jobs, "pull-request");
    yaml_node_t *ab =
        step_with(&doc, steps, "run", "benchrun ab \"origin/${{ github.base_ref }}\" HEAD");
    cr_assert_not_null(ab, "no step runs benchrun ab against the base");
    cr_assert(strstr(scalar(get(&doc, ab, "run")), "--markdown ab.md"));
    yaml_node_t *summary = step_with(&doc, steps, "run", "$GITHUB_STEP_SUMMARY");
    cr_assert(summary && strstr(scalar(get(&doc, summary, "run")), "ab.md"));
    yaml_node_t *gate = step_with(&doc, steps, "run", "steps.ab.outputs.status");
    cr_assert(gate && strstr(scalar(get(&doc, gate, "run")), "exit 3"));
    cr_assert_str_eq(scalar(get(&doc, ab, "id")), "ab");
    cr_assert(gate > summary && summary > ab, "pull-request: steps out of order");

    /* Main: the nightly's results directory, history, baselines, charts. */
    steps = gpu_job_steps(&doc, jobs, "main");
    yaml_node_t *bench = step_with(&doc, steps, "run", "--markdown benchrun.md");
    cr_assert_not_null(bench, "no step runs benchrun --markdown");
    const char *run = scalar(get(&doc, bench, "run"));
    cr_assert(strstr(run, "--results-dir \"$BENCHRUN_RESULTS\"") &&
                  strstr(run, "--history \"$BENCHRUN_RESULTS\"") &&
                  strstr(run, "benchrun history \"$BENCHRUN_RESULTS\" --changes") &&
                  strstr(run, "--gbench benchrun-gbench.json"),
              "%s", run);
    yaml_node_t *base = step_with(&doc, steps, "run", "benchrun report --markdown baseline.md");
    cr_assert_not_null(base, "no step compares with the committed baselines");
    summary = step_with(&doc, steps, "run", "$GITHUB_STEP_SUMMARY");
    cr_assert(summary && strstr(scalar(get(&doc, summary, "run")), "benchrun.md"));
    yaml_node_t *gb = step_with(&doc, steps, "uses", "benchmark-action/github-action-benchmark@");
    cr_assert_not_null(gb, "no github-action-benchmark step");
    yaml_node_t *with = get(&doc, gb, "with");
    cr_assert_str_eq(scalar(get(&doc, with, "tool")), "googlecpp");
    cr_assert_str_eq(scalar(get(&doc, with, "output-file-path")), "benchrun-gbench.json");
    gate = step_with(&doc, steps, "run", "steps.history.outputs.status");
    cr_assert_not_null(gate, "no step fails the job on benchrun's status");
    cr_assert(strstr(scalar(get(&doc, gate, "run")), "exit 3"));
    cr_assert(strstr(scalar(get(&doc, gate, "run")), "steps.baseline.outputs.status"));
    cr_assert_str_eq(scalar(get(&doc, bench, "id")), "history");
    cr_assert(gate > gb && gb > summary && summary > base && base > bench,
              "main: steps out of order");
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    free(path);
}
