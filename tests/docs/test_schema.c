/* SPDX-License-Identifier: Apache-2.0 */
/* test_schema.c - schema/suite.schema.json against the suite loader: every
 * suite the loader accepts is valid under the schema (a real validator,
 * python3-jsonschema), the catalogue's schema errors are invalid, and the
 * schema names exactly the keys the loader takes. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "docs_util.h"
#include "suite/suite.h"

#define SCHEMA BR_SOURCE_DIR "/schema/suite.schema.json"

/* Files of tests/fixtures/bad/ whose error is one the schema can express: an
 * unknown key, a wrong type, a value outside an enum, a pattern or a range.
 * (The others need the files, the kernels or the evaluated expressions.) */
static const char *const schema_errors[] = {"unknown_key_suggest",
                                            "unknown_key_list",
                                            "measure_misspelt",
                                            "regression_unknown_key",
                                            "pow2_misspelt",
                                            "missing_name",
                                            "missing_kernels",
                                            "top_level_list",
                                            "top_level_scalar",
                                            "empty_file",
                                            "name_list",
                                            "name_empty",
                                            "name_slash",
                                            "description_mapping",
                                            "kernel_scalar",
                                            "kernels_mapping",
                                            "kernels_empty",
                                            "kernel_duplicate",
                                            "kernel_not_identifier",
                                            "source_empty_list",
                                            "source_empty_string",
                                            "source_duplicate",
                                            "source_not_kernel",
                                            "source_directory",
                                            "params_list",
                                            "params_too_many",
                                            "param_not_identifier",
                                            "param_empty_list",
                                            "param_duplicate_value",
                                            "param_float",
                                            "param_huge",
                                            "param_int_range",
                                            "pow2_arity",
                                            "pow2_negative",
                                            "pow2_exponent_range",
                                            "pow2_step_zero",
                                            "bytes_float",
                                            "quoted_expr_bad_token",
                                            "cache_unknown",
                                            "empty_value",
                                            "metric_unknown",
                                            "peak_unknown",
                                            "precision_unknown",
                                            "precision_kernel_value",
                                            "precision_list",
                                            "measure_mode_unknown",
                                            "measure_headline_both",
                                            "measure_hold_not_bool",
                                            "measure_max_samples_zero",
                                            "min_samples_zero",
                                            "min_samples_negative",
                                            "min_samples_huge",
                                            "max_noise_percent",
                                            "max_noise_negative",
                                            "max_noise_fraction",
                                            "max_noise_huge",
                                            "measure_throttle_range",
                                            "regression_scalar",
                                            "regression_alpha_range",
                                            "duration_no_unit",
                                            "duration_bad_unit",
                                            "duration_negative",
                                            "duration_huge",
                                            "budget_negative",
                                            "timeout_zero",
                                            "name_c1_csi",
                                            "name_c1_nel",
                                            "name_bidi_override",
                                            "name_bidi_isolate",
                                            "name_too_long",
                                            "kernel_name_too_long",
                                            "param_name_too_long",
                                            "zip_group_bidi",
                                            "zip_group_too_long"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int loads(const char *path) {
    br_suite s;
    int rc = br_suite_load(&s, path);
    br_suite_dispose(&s);
    return rc == 0;
}

/* Run the validator over files; 0 when all came out as expected. */
static int validate(char **out, const char *mode, char **files, size_t n) {
    const char **args = calloc(n + 3, sizeof *args);
    cr_assert_not_null(args);
    size_t k = 0;
    args[k++] = SCHEMA;
    if (mode)
        args[k++] = mode;
    for (size_t i = 0; i < n; i++)
        args[k++] = files[i];
    int status = docs_python(out, "validate_suites.py", args);
    free(args);
    return status;
}

Test(schema, accepts_every_suite_the_loader_accepts) {
    DOCS_REQUIRE("jsonschema,yaml");
    static const char *const patterns[] = {
        BR_SOURCE_DIR "/suites/*.yaml", BR_FIXTURES_DIR "/*/*.yaml", BR_FIXTURES_DIR "/*/*/*.yaml"};
    char *files[400];
    size_t n = 0;
    for (size_t p = 0; p < COUNT(patterns); p++) {
        glob_t g;
        if (glob(patterns[p], 0, NULL, &g) != 0)
            continue;
        for (size_t i = 0; i < g.gl_pathc && n < COUNT(files); i++)
            if (!strstr(g.gl_pathv[i], "/fixtures/bad/") && loads(g.gl_pathv[i]))
                files[n++] = strdup(g.gl_pathv[i]);
        globfree(&g);
    }
    /* The five shipped suites and the fixtures' good suites at the least. */
    cr_assert_geq(n, 15, "only %zu suites load", n);
    char *out = NULL;
    int status = validate(&out, NULL, files, n);
    cr_assert_eq(status, 0, "a suite the loader accepts is invalid under the schema:\n%s", out);
    cr_log_info("%s", out);
    free(out);
    for (size_t i = 0; i < n; i++)
        free(files[i]);
}

Test(schema, rejects_the_catalogues_schema_errors) {
    DOCS_REQUIRE("jsonschema,yaml");
    char *files[COUNT(schema_errors)];
    for (size_t i = 0; i < COUNT(schema_errors); i++) {
        files[i] = br_strfmt("%s/bad/%s.yaml", BR_FIXTURES_DIR, schema_errors[i]);
        cr_assert(!loads(files[i]), "the loader accepts %s", files[i]);
    }
    char *out = NULL;
    int status = validate(&out, "--reject", files, COUNT(files));
    cr_assert_eq(status, 0, "the schema accepts a suite the loader refuses:\n%s", out);
    /* Editor-style positions: the misspelt key itself. */
    cr_assert(strstr(out, "unknown_key_suggest.yaml:4:1: (top level): Additional properties are "
                          "not allowed ('warmpu' was unexpected)"),
              "%s", out);
    free(out);
    for (size_t i = 0; i < COUNT(files); i++)
        free(files[i]);
}

/* The key list the loader gives for an unknown key in `yaml` (a suite with
 * the key zzzzzzzzzzzz somewhere), as ",a,b,c,". */
static char *loader_keys(const char *yaml) {
    char path[] = "/tmp/br-schema-XXXXXX.yaml";
    int fd = mkstemps(path, 5);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fprintf(f, "name: k\nsource: %s/suites/dummy.c\nkernels: [k]\n%s\n", BR_FIXTURES_DIR, yaml);
    fclose(f);
    cr_assert(!loads(path));
    unlink(path);
    const char *msg = br_error_get(), *list = strstr(msg, "expected one of: ");
    cr_assert_not_null(list, "%s", msg);
    char *keys = br_strfmt(",%s", list + strlen("expected one of: "));
    char *w = keys;
    for (const char *r = keys; *r && *r != ')'; r++)
        if (*r != ' ')
            *w++ = *r;
    strcpy(w, ",");
    return keys;
}

/* Compare the loader's keys with the properties of the schema's object at
 * `ptr` (and `ptr2`, when given). Every key the loader takes must be in the
 * schema; a schema key the loader does not know fails too, unless it is one
 * of `pending` (a key being added to the loader on another branch). */
static void same_keys(json_t *schema, const char *yaml, const char *const *ptrs, size_t n_ptrs) {
    static const char pending[] = ",cflags,nvcc_flags,include_dirs,";
    char *keys = loader_keys(yaml);
    size_t n_schema = 0;
    for (size_t p = 0; p < n_ptrs; p++) {
        json_t *obj = schema;
        char *copy = strdup(ptrs[p]);
        for (char *tok = strtok(copy, "/"); tok && obj; tok = strtok(NULL, "/"))
            obj = json_object_get(obj, tok);
        free(copy);
        cr_assert(json_is_object(obj), "schema has no %s", ptrs[p]);
        const char *k;
        json_t *v;
        json_object_foreach(obj, k, v) {
            char *needle = br_strfmt(",%s,", k);
            if (!strstr(keys, needle)) {
                cr_assert(strstr(pending, needle),
                          "the schema describes '%s' (%s), which the "
                          "loader does not accept (it takes %s)",
                          k, ptrs[p], keys);
                fprintf(stderr,
                        "warning: the schema describes '%s', which this loader does not take yet\n",
                        k);
            } else {
                n_schema++;
            }
            free(needle);
        }
    }
    size_t n_loader = 0;
    for (const char *c = keys + 1; *c; c++)
        n_loader += *c == ',';
    cr_assert_eq(n_schema, n_loader, "the loader takes keys the schema does not describe: %s",
                 keys);
    free(keys);
}

Test(schema, names_the_keys_the_loader_takes) {
    json_error_t err;
    json_t *schema = json_load_file(SCHEMA, 0, &err);
    cr_assert_not_null(schema, "%s:%d: %s", SCHEMA, err.line, err.text);
    same_keys(schema, "zzzzzzzzzzzz: 1", (const char *[]){"properties"}, 1);
    same_keys(schema, "measure: {zzzzzzzzzzzz: 1}",
              (const char *[]){"properties/measure/properties"}, 1);
    same_keys(schema, "regression: {zzzzzzzzzzzz: 1}",
              (const char *[]){"properties/regression/properties"}, 1);
    same_keys(schema, "params: {n: {zzzzzzzzzzzz: 1}}",
              (const char *[]){"$defs/pow2Range/properties", "$defs/linearRange/properties",
                               "$defs/zipGroup/properties"},
              3);
    json_decref(schema);
}
