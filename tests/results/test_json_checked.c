/* SPDX-License-Identifier: Apache-2.0 */
/* test_jsonread.c - the checked access of jsonread.c as the results reader
 * uses it: every class of error with its exact message and JSON path, and
 * inputs that must fail cleanly (wrong types everywhere, truncations, deep
 * nesting). */
#include "results_doc.h"

TestSuite(jsonread, .init = fixtures_setup, .fini = fixtures_teardown);

/* --- errors ------------------------------------------------------------------------ */

Test(jsonread, error_syntax) {
    const char *text = "{\n  \"schema_version\": 3,\n  \"runs\": [1, 2,]\n}\n";
    expect_error(text, strlen(text), NAME ":3:17: unexpected token near ']'");
    no_leaks();
}

Test(jsonread, error_duplicate_key) {
    const char *text = "{\n  \"schema_version\": 3,\n  \"schema_version\": 3,\n  \"runs\": []\n}\n";
    expect_error(text, strlen(text), NAME ":3:18: duplicate object key near '\"schema_version\"'");
    no_leaks();
}

Test(jsonread, error_not_an_object) {
    const char *text = "[1, 2]";
    expect_error(text, strlen(text),
                 NAME ": expected an object (a results document), found an array");
    no_leaks();
}

Test(jsonread, error_missing_schema_version) {
    json_t *doc = fixture_doc();
    set(doc, "schema_version", NULL);
    expect_doc_error(doc, NAME ": missing key 'schema_version'");
    no_leaks();
}

Test(jsonread, error_schema_version_not_an_integer) {
    json_t *doc = fixture_doc();
    set(doc, "schema_version", json_string("3"));
    expect_doc_error(doc, NAME ": schema_version: expected an integer, found a string");
    doc = fixture_doc();
    set(doc, "schema_version", json_real(3.0));
    expect_doc_error(doc, NAME ": schema_version: expected an integer, found a real number");
    no_leaks();
}

Test(jsonread, error_newer_schema) {
    json_t *doc = fixture_doc();
    set(doc, "schema_version", json_integer(5));
    expect_doc_error(doc,
                     NAME ": written by a newer benchrun; schema 5, this benchrun reads 2 to 4");
    no_leaks();
}

Test(jsonread, error_older_schema) {
    json_t *doc = fixture_doc();
    set(doc, "schema_version", json_integer(1));
    expect_doc_error(doc, NAME ": schema 1 is no longer read; this benchrun reads 2 to 4");
    no_leaks();
}

Test(jsonread, error_timing_clock) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.clock", json_string("wall"));
    expect_doc_error(doc, NAME ": runs[0].cases[3].cold.clock: expected \"monotonic\", "
                               "\"events\" or \"kernel\", found \"wall\"");
    doc = fixture_doc();
    set(doc, "runs[0].cases[0].batch.clock", NULL);
    expect_doc_error(doc, NAME ": runs[0].cases[0].batch: missing key 'clock'");
    doc = fixture_doc();
    set(doc, "runs[1].cases[1].cold.clock", json_null());
    expect_doc_error(doc, NAME ": runs[1].cases[1].cold.clock: expected \"monotonic\", "
                               "\"events\" or \"kernel\", found null");
    no_leaks();
}

Test(jsonread, error_run_clock) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].gpu_clock", json_string("monotonic"));
    expect_doc_error(doc, NAME ": runs[0].gpu_clock: expected \"events\" or \"kernel\" or null, "
                               "found \"monotonic\"");
    doc = fixture_doc();
    set(doc, "runs[2].clock_note", json_integer(3));
    expect_doc_error(doc, NAME ": runs[2].clock_note: expected a string or null, found an integer");
    no_leaks();
}

Test(jsonread, error_gpu_clock_arrays) {
    /* a wrong length, in each array */
    const char *keys[] = {"event_ns", "kernel_ns", "span_ns", "ops"};
    char path[128], want[512];
    for (size_t i = 0; i < 4; i++) {
        json_t *doc = fixture_doc();
        snprintf(path, sizeof path, "runs[0].cases[3].cold.%s", keys[i]);
        json_array_remove(at(doc, path), 1);
        snprintf(want, sizeof want,
                 NAME ": runs[0].cases[3].cold.%s: expected 5 values (one per sample in "
                      "samples_ns) or null, found 4",
                 keys[i]);
        expect_doc_error(doc, want);
    }
    json_t *doc = fixture_doc();
    json_array_append_new(at(doc, "runs[1].cases[0].cold.kernel_ns"), json_real(1.0));
    expect_doc_error(doc, NAME ": runs[1].cases[0].cold.kernel_ns: expected 20 values (one per "
                               "sample in samples_ns) or null, found 21");
    doc = fixture_doc();
    set(doc, "runs[0].cases[2].batch.ops", json_object());
    expect_doc_error(doc, NAME
                     ": runs[0].cases[2].batch.ops: expected an array or null, found an object");
    /* event times: finite numbers, never null */
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.event_ns[2]", json_null());
    expect_doc_error(doc,
                     NAME ": runs[0].cases[3].cold.event_ns[2]: expected a number, found null");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.event_ns[0]", json_string("4850"));
    expect_doc_error(doc,
                     NAME ": runs[0].cases[3].cold.event_ns[0]: expected a number, found a string");
    /* the others: numbers or null */
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].batch.span_ns[4]", json_true());
    expect_doc_error(doc, NAME ": runs[0].cases[3].batch.span_ns[4]: expected a number or null, "
                               "found a boolean");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.incomplete", json_integer(-2));
    expect_doc_error(
        doc, NAME ": runs[0].cases[3].cold.incomplete: expected a non-negative integer, found -2");
    no_leaks();
}

Test(jsonread, error_breakdown) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.breakdown[1].kind", json_string("memmove"));
    expect_doc_error(doc, NAME ": runs[0].cases[3].cold.breakdown[1].kind: expected \"kernel\", "
                               "\"memcpy\" or \"memset\", found \"memmove\"");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.breakdown[0].kind", NULL);
    expect_doc_error(doc, NAME ": runs[0].cases[3].cold.breakdown[0]: missing key 'kind'");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.breakdown[0].name", json_null());
    expect_doc_error(doc, NAME
                     ": runs[0].cases[3].cold.breakdown[0].name: expected a string, found null");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.breakdown[1].count", json_integer(-1));
    expect_doc_error(doc, NAME ": runs[0].cases[3].cold.breakdown[1].count: expected a "
                               "non-negative integer, found -1");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.breakdown[1].count", json_real(5.0));
    expect_doc_error(doc, NAME ": runs[0].cases[3].cold.breakdown[1].count: expected a "
                               "non-negative integer, found a real number");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.breakdown[1].share", json_string("10%"));
    expect_doc_error(doc, NAME ": runs[0].cases[3].cold.breakdown[1].share: expected a number or "
                               "null, found a string");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].batch.breakdown[0]", json_string("memset"));
    expect_doc_error(doc, NAME
                     ": runs[0].cases[3].batch.breakdown[0]: expected an object, found a string");
    doc = fixture_doc();
    set(doc, "runs[0].cases[3].batch.breakdown", json_object());
    expect_doc_error(doc, NAME ": runs[0].cases[3].batch.breakdown: expected an array or null, "
                               "found an object");
    no_leaks();
}

Test(jsonread, error_string_in_samples) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].cases[3].cold.samples_ns[4]", json_string("fast"));
    expect_doc_error(doc, NAME
                     ": runs[0].cases[3].cold.samples_ns[4]: expected a number, found a string");
    no_leaks();
}

Test(jsonread, error_bad_samples) {
    json_t *doc = fixture_doc();
    set(doc, "runs[1].cases[0].cold.samples_ns[7]", json_null());
    expect_doc_error(doc,
                     NAME ": runs[1].cases[0].cold.samples_ns[7]: expected a number, found null");
    doc = fixture_doc();
    set(doc, "runs[0].cases[0].batch.samples_ns[0]", json_integer(-3));
    expect_doc_error(
        doc, NAME ": runs[0].cases[0].batch.samples_ns[0]: expected a number > 0 (ns), found -3");
    doc = fixture_doc();
    set(doc, "runs[0].cases[0].batch.samples_ns[1]", json_real(0.0));
    expect_doc_error(doc, NAME
                     ": runs[0].cases[0].batch.samples_ns[1]: expected a number > 0 (ns), found 0");
    doc = fixture_doc();
    set(doc, "runs[0].cases[0].batch.samples_ns", NULL);
    expect_doc_error(doc, NAME ": runs[0].cases[0].batch: missing key 'samples_ns'");
    doc = fixture_doc();
    json_array_remove(at(doc, "runs[0].cases[1].cold.sm_mhz_samples"), 1);
    expect_doc_error(doc, NAME ": runs[0].cases[1].cold.sm_mhz_samples: expected 5 values (one per "
                               "sample in samples_ns) or null, found 4");
    no_leaks();
}

Test(jsonread, error_unknown_kernel) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].cases[6].kernel", json_string("reduce_warp2"));
    expect_doc_error(doc, NAME ": runs[0].cases[6].kernel: unknown kernel \"reduce_warp2\" (not in "
                               "this run's \"kernels\")");
    no_leaks();
}

Test(jsonread, error_duplicate_kernel) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].kernels[3].name", json_string("reduce_naive"));
    expect_doc_error(doc, NAME ": runs[0].kernels[3].name: duplicate kernel \"reduce_naive\" (also "
                               "kernels[1])");
    no_leaks();
}

Test(jsonread, error_backend_mismatch) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].cases[1].backend", json_string("host"));
    expect_doc_error(doc, NAME ": runs[0].cases[1].backend: expected \"gpu\" (the backend of "
                               "kernel 'reduce_naive'), found \"host\"");
    no_leaks();
}

Test(jsonread, error_unknown_stop_reason) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].cases[7].batch.stop_reason", json_string("bored"));
    expect_doc_error(doc,
                     NAME ": runs[0].cases[7].batch.stop_reason: expected \"ci\", \"ci_t\", "
                          "\"noise\", \"plateau\", \"timeout\" or \"max_samples\" or null, found "
                          "\"bored\"");
    no_leaks();
}

Test(jsonread, error_unknown_enum_names) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].suite.metric", json_string("GiB/s"));
    expect_doc_error(doc, NAME ": runs[0].suite.metric: expected \"GB/s\", \"GFLOP/s\", "
                               "\"TFLOP/s\", \"TOP/s\" or \"none\", found \"GiB/s\"");
    doc = fixture_doc();
    set(doc, "runs[0].measure.headline", json_string("both"));
    expect_doc_error(doc, NAME ": runs[0].measure.headline: expected \"cold\" or \"batch\", "
                               "found \"both\"");
    doc = fixture_doc();
    set(doc, "runs[1].cases[0].status", json_integer(0));
    expect_doc_error(doc, NAME ": runs[1].cases[0].status: expected \"ok\", \"failed\" or "
                               "\"skipped\", found an integer");
    no_leaks();
}

Test(jsonread, error_missing_param) {
    json_t *doc = fixture_doc();
    set(doc, "runs[2].cases[1].params.tile", NULL);
    expect_doc_error(doc, NAME ": runs[2].cases[1].params: missing key 'tile'");
    doc = fixture_doc();
    set(doc, "runs[2].cases[1].params.tile", json_real(16.0));
    expect_doc_error(doc, NAME
                     ": runs[2].cases[1].params.tile: expected an integer, found a real number");
    doc = fixture_doc();
    set(doc, "runs[2].cases[1].params.k", json_integer(3));
    expect_doc_error(doc, NAME ": runs[2].cases[1].params.k: not a param of this run (its "
                               "\"params\" list)");
    no_leaks();
}

Test(jsonread, error_negative_count) {
    json_t *doc = fixture_doc();
    set(doc, "runs[0].cases[2].batch.reps", json_integer(-64));
    expect_doc_error(doc, NAME
                     ": runs[0].cases[2].batch.reps: expected a non-negative integer, found -64");
    doc = fixture_doc();
    set(doc, "runs[0].measure.min_samples", json_real(1e30));
    expect_doc_error(doc, NAME ": runs[0].measure.min_samples: expected a non-negative integer, "
                               "found a real number");
    no_leaks();
}

Test(jsonread, error_huge_number) {
    /* beyond the C field: sm_count is an int */
    json_t *doc = fixture_doc();
    set(doc, "runs[0].device.sm_count", json_integer(10000000000));
    expect_doc_error(doc, NAME ": runs[0].device.sm_count: expected an integer in 0 to "
                               "2147483647, found 10000000000");
    /* a clock in MHz whose kHz would overflow */
    doc = fixture_doc();
    set(doc, "runs[0].device.sm_clock_max_mhz", json_integer(3000000));
    expect_doc_error(doc, NAME ": runs[0].device.sm_clock_max_mhz: expected an integer in 0 to "
                               "2147483, found 3000000");
    /* beyond what jansson reads */
    const char *text = "{\"schema_version\": 3,\n \"runs\": [{\"x\": 99999999999999999999}]}";
    expect_error(text, strlen(text), NAME ":2:36: too big integer near '99999999999999999999'");
    text = "{\"schema_version\": 3,\n \"runs\": [{\"x\": 1e999}]}";
    expect_error(text, strlen(text), NAME ":2:21: real number overflow near '1e999'");
    no_leaks();
}

Test(jsonread, error_wrong_types) {
    json_t *doc = fixture_doc();
    set(doc, "runs", json_object());
    expect_doc_error(doc, NAME ": runs: expected an array, found an object");
    doc = fixture_doc();
    set(doc, "runs[1]", json_string("run"));
    expect_doc_error(doc, NAME ": runs[1]: expected an object, found a string");
    doc = fixture_doc();
    set(doc, "runs[0].cases[0].cold", json_array());
    expect_doc_error(doc, NAME ": runs[0].cases[0].cold: expected an object or null, found an "
                               "array");
    doc = fixture_doc();
    set(doc, "runs[0].suite.name", json_null());
    expect_doc_error(doc, NAME ": runs[0].suite.name: expected a string, found null");
    doc = fixture_doc();
    set(doc, "runs[0].git.dirty", json_string("no"));
    expect_doc_error(doc, NAME ": runs[0].git.dirty: expected true, false or null, found a string");
    doc = fixture_doc();
    set(doc, "runs[0].git.commit_time", json_string("2026-02-30T00:00:00Z"));
    expect_doc_error(doc, NAME ": runs[0].git.commit_time: expected a UTC time like "
                               "\"2026-11-18T11:06:40Z\" or null, found \"2026-02-30T00:00:00Z\"");
    doc = fixture_doc();
    set(doc, "runs[0].device.name", json_integer(1));
    expect_doc_error(doc,
                     NAME ": runs[0].device.name: expected a string or null, found an integer");
    doc = fixture_doc();
    set(doc, "runs[0].params[0]", json_integer(1));
    expect_doc_error(doc, NAME ": runs[0].params[0]: expected a string, found an integer");
    doc = fixture_doc();
    set(doc, "runs[0].regression", NULL);
    expect_doc_error(doc, NAME ": runs[0]: missing key 'regression'");
    doc = fixture_doc();
    set(doc, "runs[0].regression.alpha", json_real(1.5));
    expect_doc_error(doc, NAME ": runs[0].regression.alpha: expected a number between 0 and 1 "
                               "(exclusive), found 1.5");
    no_leaks();
}

Test(jsonread, error_empty_file) {
    expect_error("", 0, NAME ": empty file (expected a JSON results document)");
    expect_error(" \n\t\n", 4, NAME ": empty file (expected a JSON results document)");

    char path[] = "/tmp/br_resultsfile_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    br_run *runs = (br_run *)&runs;
    size_t n = 7;
    int rc = br_results_load(&runs, &n, path);
    char want[256];
    snprintf(want, sizeof want, "%s: empty file (expected a JSON results document)", path);
    unlink(path);
    cr_expect_eq(rc, -1);
    cr_expect_null(runs);
    cr_expect_eq(n, 0);
    cr_expect_str_eq(br_error_get(), want);
    no_leaks();
}

Test(jsonread, error_missing_file) {
    br_run *runs = (br_run *)&runs;
    size_t n = 7;
    int rc = br_results_load(&runs, &n, "/nonexistent/baselines/x.json");
    cr_expect_eq(rc, -1);
    cr_expect_null(runs);
    cr_expect_eq(n, 0);
    cr_expect_str_eq(br_error_get(),
                     "/nonexistent/baselines/x.json: cannot open: No such file or directory");
    no_leaks();
}

Test(jsonread, error_deep_nesting) {
    size_t depth = 100000;
    char *text = malloc(2 * depth + 64);
    cr_assert_not_null(text);
    size_t len = (size_t)sprintf(text, "{\"schema_version\": 3, \"runs\": ");
    memset(text + len, '[', depth);
    len += depth;
    text[len] = '\0';
    br_run *runs = (br_run *)&runs;
    size_t n = 7;
    cr_expect_eq(br_results_parse(&runs, &n, text, len, NAME), -1);
    cr_expect_null(runs);
    cr_expect_eq(n, 0);
    cr_expect(strstr(br_error_get(), "maximum parsing depth reached") != NULL, "%s",
              br_error_get());
    free(text);
    no_leaks();
}

/* --- robustness: every value replaced by every kind of wrong value ------------------- */

static size_t n_mutations, n_accepted;

/* Parse text; success or a clean failure (nothing returned) are both fine. */
static void parse_any(const char *text, size_t len) {
    br_run *runs = (br_run *)&runs;
    size_t n = 99;
    int rc = br_results_parse(&runs, &n, text, len, NAME);
    n_mutations++;
    if (rc == 0) {
        n_accepted++;
        br_results_free(runs, n);
        return;
    }
    cr_assert_eq(rc, -1);
    cr_assert_null(runs);
    cr_assert_eq(n, 0);
    cr_assert(strncmp(br_error_get(), NAME ":", strlen(NAME ":")) == 0, "%s", br_error_get());
}

static json_t *variant(int k) {
    switch (k) {
    case 0:
        return json_null();
    case 1:
        return json_string("x");
    case 2:
        return json_integer(-1);
    case 3:
        return json_integer(INT64_MAX);
    case 4:
        return json_real(1e300);
    case 5:
        return json_real(-0.5);
    case 6:
        return json_true();
    case 7:
        return json_array();
    default:
        return json_object();
    }
}
#define N_VARIANTS 9

/* Replace each value under `node` (and each of its keys' removal) in turn,
 * parsing the whole document `doc` after each change. */
static void mutate_all(json_t *doc, json_t *node) {
    if (json_is_object(node)) {
        /* The keys first: deleting and re-adding one moves it to the end. */
        size_t n_keys = json_object_size(node), i = 0;
        char **keys = calloc(n_keys ? n_keys : 1, sizeof *keys);
        cr_assert_not_null(keys);
        const char *key;
        json_t *child;
        json_object_foreach(node, key, child) {
            keys[i] = strdup(key);
            cr_assert_not_null(keys[i++]);
        }
        for (i = 0; i < n_keys; i++) {
            char *k = keys[i];
            child = json_incref(json_object_get(node, k));
            for (int v = 0; v < N_VARIANTS; v++) {
                json_object_set_new(node, k, variant(v));
                char *text = dump(doc);
                parse_any(text, strlen(text));
                free(text);
            }
            json_object_del(node, k);
            char *text = dump(doc);
            parse_any(text, strlen(text));
            free(text);
            json_object_set_new(node, k, child);
            mutate_all(doc, child);
            free(k);
        }
        free(keys);
    } else if (json_is_array(node)) {
        for (size_t i = 0; i < json_array_size(node); i++) {
            json_t *child = json_incref(json_array_get(node, i));
            for (int v = 0; v < N_VARIANTS; v++) {
                json_array_set_new(node, i, variant(v));
                char *text = dump(doc);
                parse_any(text, strlen(text));
                free(text);
            }
            json_array_set_new(node, i, child);
            mutate_all(doc, child);
        }
    }
}

Test(jsonread, every_value_wrong, .timeout = 240) {
    /* Runs 0 (reduction: both timings, git, device) and 3 (no params, no git,
     * no device) cover every key the reader knows. */
    const br_run *two[] = {fixture_ptrs[0], fixture_ptrs[3]};
    char *text = write_json(two, 2);
    json_t *doc = json_loads(text, 0, NULL);
    cr_assert_not_null(doc);
    /* keep the document small: two cases of run 0 (cpu and warp at 2^20), both of run 3 */
    json_t *cases = at(doc, "runs[0].cases");
    while (json_array_size(cases) > 3)
        json_array_remove(cases, 3);
    json_array_remove(cases, 1);
    mutate_all(doc, doc);
    cr_log_info("%zu mutations, %zu accepted", n_mutations, n_accepted);
    cr_expect_gt(n_mutations, 1000);
    json_decref(doc);

    /* every prefix of the document (a truncated file) fails cleanly */
    size_t len = strlen(text);
    for (size_t cut = 0; cut < len; cut += 7) {
        char *prefix = strndup(text, cut);
        cr_assert_not_null(prefix);
        parse_any(prefix, cut);
        free(prefix);
    }
    free(text);
    no_leaks();
}
