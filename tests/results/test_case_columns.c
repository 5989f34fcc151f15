/* SPDX-License-Identifier: Apache-2.0 */
/* A case's per-sample columns lifted out of its text:
 * the numbers bit for bit the doubles jansson reads, any other array left
 * to jansson, the members the reader does not read left out, and the text
 * that jansson then parses valid exactly when the case's text is (checked
 * on edge cases and on thousands of mutations of a case); then the
 * reader's runs and messages those of the whole parse. */
#include <criterion/criterion.h>

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/files.h"
#include "base/util.h"
#include "results/case_columns.h"
#include "results/run_read.h"
#include "results/run_write.h"

/* Whether jansson parses text[0..len) as the reader parses a case. */
static int jansson_ok(const char *text, size_t len) {
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    json_decref(j);
    return j != NULL;
}

static uint64_t bits(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* The values of the jansson array a equal v[0..n), bit for bit. */
static void assert_same_numbers(const json_t *a, const double *v, size_t n, const char *what) {
    cr_assert(json_is_array(a), "%s", what);
    cr_assert_eq(json_array_size(a), n, "%s", what);
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_array_get(a, i);
        cr_assert(json_is_number(x), "%s [%zu]", what, i);
        cr_assert_eq(bits(json_number_value(x)), bits(v[i]),
                     "%s [%zu]: jansson %.17g, lifted %.17g", what, i, json_number_value(x), v[i]);
    }
}

Test(case_columns, lifts_plain_number_columns_and_leaves_out_unread_members) {
    const char *text =
        "{\"kernel\": \"k\", \"gbps\": 1.5, \"params\": {}, \"verified\": true, \"cold\": "
        "{\"clock\": \"events\", \"min\": 3, \"samples_ns\": [1, 2.5, 1e3, -0, -0.0, 0.1, "
        "123456789012345678, 1.7976931348623157e308, 4.9e-324, 2029.7000000000000001], "
        "\"sm_mhz_samples\": [1, null], \"median\": \"x\", \"n\": 2}, \"batch\": null, "
        "\"roofline\": null}";
    br_case_columns c = {0};
    cr_assert_eq(br_case_columns_lift(&c, text, strlen(text)), 0);
    cr_assert_str_eq(c.text,
                     "{\"kernel\": \"k\", \"params\": {}, \"cold\": {\"clock\": \"events\", "
                     "\"samples_ns\": [], \"sm_mhz_samples\": [1, null], \"median\": "
                     "\"x\", \"n\": 2}, \"batch\": null, \"roofline\": null}");
    cr_assert_eq(c.len, strlen(c.text));
    size_t n = 0;
    const double *v = br_case_columns_get(&c, BR_COLUMN_COLD, BR_COLUMN_SAMPLES_NS, &n);
    json_t *j = json_loads(text, 0, NULL);
    assert_same_numbers(json_object_get(json_object_get(j, "cold"), "samples_ns"), v, n,
                        "samples_ns");
    cr_assert_eq(n, 10);
    cr_assert_eq(bits(v[3]), bits(0.0), "the integer -0 is jansson's 0, not -0.0");
    cr_assert_eq(bits(v[4]), bits(-0.0));
    cr_assert_null(br_case_columns_get(&c, BR_COLUMN_COLD, BR_COLUMN_SM_MHZ, &n), "null stays");
    cr_assert_eq(n, 0);
    cr_assert_null(br_case_columns_get(&c, BR_COLUMN_BATCH, BR_COLUMN_SAMPLES_NS, &n));
    json_decref(j);
    br_case_columns_free(&c);
}

/* A case whose cold samples_ns holds `array`. */
static char *case_with(const char *array) {
    return br_strfmt("{\"kernel\": \"k\", \"cold\": {\"n\": 1, \"samples_ns\": %s, \"reps\": 1}}",
                     array);
}

/* Lift the case of `array`: what jansson makes of it must not change; the
 * column lifted only when jansson reads it (then to its numbers). Returns
 * whether it was lifted. */
static int check_array(br_case_columns *c, const char *array) {
    char *text = case_with(array);
    size_t len = strlen(text), n = 0;
    cr_assert_eq(br_case_columns_lift(c, text, len), 0);
    int ok = jansson_ok(text, len);
    cr_assert_eq(jansson_ok(c->text, c->len), ok, "%s: jansson's verdict kept", array);
    const double *v = br_case_columns_get(c, BR_COLUMN_COLD, BR_COLUMN_SAMPLES_NS, &n);
    if (v) {
        cr_assert(ok, "%s lifted, but jansson rejects it", array);
        json_t *j = json_loads(text, 0, NULL);
        assert_same_numbers(json_object_get(json_object_get(j, "cold"), "samples_ns"), v, n, array);
        json_decref(j);
    }
    free(text);
    return v != NULL;
}

Test(case_columns, other_values_stay_with_jansson) {
    const char *other[] = {
        "[1, null]",  "[\"1\"]",
        "[[1]]",      "[01]",
        "[1.]",       "[.5]",
        "[+1]",       "[1e]",
        "[1e+]",      "[NaN]",
        "[-]",        "[1 2]",
        "[1,]",       "[,1]",
        "[1e400]",    "[-1e400]",
        "[Infinity]", "[0x10]",
        "[1.5x]",     "[1234567890123456789]",
        "[]",         "[true]",
        "[1, {}]",    "[1] x",
        "[1",         "[1.0000000000000000000000000000000000000001]",
    };
    br_case_columns c = {0};
    for (size_t i = 0; i < sizeof other / sizeof *other; i++)
        cr_assert_not(check_array(&c, other[i]), "%s is not lifted", other[i]);
    cr_assert(check_array(&c, "[ 1 ,\t2\r\n]"), "JSON's whitespace is");
    cr_assert(check_array(&c, "[123456789012345678, -123456789012345678]"));
    br_case_columns_free(&c);
}

/* A number token of JSON's grammar, from r: 1 to 20 digits, an integer
 * part of 1 or more (no leading zero) and maybe a fraction, maybe an
 * exponent of either case, with or without a sign, small or large. */
static void random_number(char *buf, size_t size, unsigned *r) {
    static const char *const e[] = {"e", "E", "e+", "E-", "e-"};
    int digits = 1 + rand_r(r) % 20, whole = 1 + rand_r(r) % digits;
    size_t k = 0;
    if (rand_r(r) % 4 == 0)
        buf[k++] = '-';
    for (int d = 0; d < digits; d++) {
        if (d == whole)
            buf[k++] = '.';
        buf[k++] = (char)('0' + (d == 0 && whole > 1 ? 1 + rand_r(r) % 9 : rand_r(r) % 10));
    }
    if (rand_r(r) % 3 == 0)
        k += (size_t)snprintf(buf + k, size - k, "%s%d", e[rand_r(r) % 5],
                              rand_r(r) % (rand_r(r) % 2 ? 25 : 340));
    buf[k] = '\0';
}

Test(case_columns, numbers_are_the_doubles_jansson_reads) {
    br_case_columns c = {0};
    unsigned r = 43;
    char num[64], array[128];
    size_t lifted = 0;
    for (int i = 0; i < 20000; i++) {
        random_number(num, sizeof num, &r);
        snprintf(array, sizeof array, "[%s, 1]", num);
        lifted += (size_t)check_array(&c, array);
    }
    cr_assert_gt(lifted, 15000, "most are lifted: %zu", lifted);
    br_case_columns_free(&c);
}

Test(case_columns, a_case_of_another_shape_is_left_as_it_is) {
    const char *other[] = {
        "{\"cold\": {\"min\": 1, \"min\": 2, \"samples_ns\": [1]}}",
        "{\"cold\": {\"sample\\u0073_ns\": [1], \"samples_ns\": [1]}}",
        "{\"cold\": {\"samples_ns\": [1]}} x",
        "{\"cold\": {\"samples_ns\": [1]}, \"x\": \"unterminated}",
        "{\"cold\": {\"samples_ns\": [1], }}",
        "{\"cold\": {\"samples_ns\": [1]}",
        "{\"gbps\": 1, \"gbps\": 2, \"cold\": {\"samples_ns\": [1]}}",
    };
    br_case_columns c = {0};
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        size_t len = strlen(other[i]), n = 0;
        cr_assert_eq(br_case_columns_lift(&c, other[i], len), 0);
        cr_assert(c.text == other[i] && c.len == len, "%s: left as it is", other[i]);
        cr_assert_null(br_case_columns_get(&c, BR_COLUMN_COLD, BR_COLUMN_SAMPLES_NS, &n));
        cr_assert_not(jansson_ok(c.text, c.len), "%s", other[i]);
    }
    cr_assert_eq(br_case_columns_lift(&c, "[1]", 3), 0);
    cr_assert_str_eq(c.text, "[1]", "not an object");
    /* A column twice: the first is lifted, the second stays; jansson
     * rejects the duplicate as it did. */
    const char *twice = "{\"cold\": {\"samples_ns\": [1], \"samples_ns\": [2]}}";
    cr_assert_eq(br_case_columns_lift(&c, twice, strlen(twice)), 0);
    cr_assert_str_eq(c.text, "{\"cold\": {\"samples_ns\": [], \"samples_ns\": [2]}}");
    cr_assert_not(jansson_ok(c.text, c.len));
    const char *cold_twice = "{\"cold\": {\"samples_ns\": [1]}, \"cold\": {}}";
    cr_assert_eq(br_case_columns_lift(&c, cold_twice, strlen(cold_twice)), 0);
    cr_assert_not(jansson_ok(c.text, c.len));
    br_case_columns_free(&c);
}

static const char *const unread[] = {"gbps",
                                     "gflops",
                                     "pct_peak",
                                     "speedup",
                                     "roofline",
                                     "verified",
                                     "n",
                                     "min",
                                     "max",
                                     "mean",
                                     "median",
                                     "stddev",
                                     "noise",
                                     "q1",
                                     "q3",
                                     "iqr",
                                     "ci_low",
                                     "ci_high",
                                     "ci_level",
                                     "outliers",
                                     "event_median_ns",
                                     "kernel_median_ns",
                                     "span_median_ns",
                                     "ops_median"};

static int is_unread(const char *key) {
    for (size_t i = 0; i < sizeof unread / sizeof *unread; i++)
        if (strcmp(key, unread[i]) == 0)
            return 1;
    return 0;
}

/* Object b (of the trimmed text) is object a but for lifted columns (an
 * empty array in b, the numbers in c) and members left out (unread keys with
 * a number or a literal); t: the timing whose columns these are (-1: the
 * case, whose "cold" and "batch" are compared as timings). */
static void assert_same_but_trimmed(const json_t *a, const json_t *b, const br_case_columns *c,
                                    int t, const char *what) {
    const char *key;
    json_t *va;
    json_object_foreach((json_t *)a, key, va) {
        json_t *vb = json_object_get(b, key);
        int timing = t >= 0                      ? -1
                     : strcmp(key, "cold") == 0  ? 0
                     : strcmp(key, "batch") == 0 ? 1
                                                 : -1;
        if (!vb) {
            cr_assert(is_unread(key) &&
                          (json_is_number(va) || json_is_boolean(va) || json_is_null(va)),
                      "%s: %s left out", what, key);
            continue;
        }
        if (timing >= 0 && json_is_object(va)) {
            assert_same_but_trimmed(va, vb, c, timing, what);
            continue;
        }
        size_t n = 0;
        const double *v = NULL;
        for (int k = 0; t >= 0 && k < BR_COLUMN_COUNT && !v; k++)
            if (strcmp(key, br_case_column_keys[k]) == 0)
                v = br_case_columns_get(c, t, (br_case_column)k, &n);
        if (v) {
            cr_assert_eq(json_array_size(vb), 0, "%s: %s", what, key);
            assert_same_numbers(va, v, n, what);
        } else
            cr_assert(json_equal(va, vb), "%s: %s", what, key);
    }
    cr_assert_leq(json_object_size(b), json_object_size(a), "%s", what);
}

Test(case_columns, mutated_cases_keep_jansson_s_verdict_and_values) {
    const char *base =
        "{\"kernel\": \"k00\", \"params\": {\"n\": 1024}, \"status\": \"ok\", \"gbps\": "
        "4.038129713011973, \"roofline\": null, \"verified\": true, \"cold\": {\"clock\": "
        "\"events\", \"n\": 5, \"min\": 2018.1652340542855, \"ci_level\": 0.95, \"reps\": 1, "
        "\"samples_ns\": [2029.7, 2031.7, 2025.3, 20, 1e3], \"sm_mhz_samples\": [1980.0, "
        "1980.0, 1980, 0, 1.5e-3], \"kernel_ns\": null, \"breakdown\": null}, \"batch\": "
        "{\"samples_ns\": [1, 2], \"n\": 2, \"q1\": 1}}";
    const char alphabet[] = "[]{},:\"\\ 0123456789eE.-+nultrsfa_x";
    size_t len = strlen(base), trimmed = 0;
    char *text = malloc(len + 2);
    br_case_columns c = {0};
    unsigned r = 7;
    for (int i = 0; i < 6000; i++) {
        memcpy(text, base, len + 1);
        size_t n = len;
        for (int m = 0; m < 1 + i % 3; m++) {
            size_t at = (size_t)rand_r(&r) % n;
            int op = rand_r(&r) % 3;
            char ch = alphabet[rand_r(&r) % (sizeof alphabet - 1)];
            if (op == 0)
                text[at] = ch;
            else if (op == 1)
                memmove(text + at, text + at + 1, n-- - at);
            else if (n < len + 1) {
                memmove(text + at + 1, text + at, ++n - at);
                text[at] = ch;
            }
        }
        cr_assert_eq(br_case_columns_lift(&c, text, n), 0);
        int ok = jansson_ok(text, n);
        cr_assert_eq(jansson_ok(c.text, c.len), ok, "jansson's verdict kept: %.*s", (int)n, text);
        if (!ok || c.text == text)
            continue;
        trimmed++;
        json_t *a = json_loadb(text, n, 0, NULL), *b = json_loadb(c.text, c.len, 0, NULL);
        assert_same_but_trimmed(a, b, &c, -1, text);
        json_decref(a), json_decref(b);
    }
    cr_assert_gt(trimmed, 1000, "%zu trimmed", trimmed);
    free(text);
    br_case_columns_free(&c);
}

/* The golden results document with its first occurrence of `from`
 * replaced by `to`. */
static char *golden_with(const char *from, const char *to) {
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(
        br_read_file(&text, &len, BR_FIXTURES_DIR "/golden/results.json", BR_RESULTS_MAX_BYTES), 0);
    char *at = strstr(text, from);
    cr_assert_not_null(at, "%s", from);
    char *out = br_strfmt("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return out;
}

/* The n runs written back as a results document. */
static char *written(br_run *runs, size_t n) {
    const br_run **ptrs = calloc(n, sizeof *ptrs);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &runs[i];
    cr_assert_eq(br_results_write(f, ptrs, n), 0);
    fclose(f);
    free(ptrs);
    return out;
}

/* The by-case reader and the whole parse of text: the same runs (written
 * back to the same text), or the same message, which must hold `want`. */
static void check_like_whole(const char *text, const char *want) {
    br_run *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    int rc = br_results_parse(&a, &na, text, strlen(text), "g.json");
    char *error = br_strdup(rc ? br_error_get() : "");
    cr_assert_eq(br_results_parse_whole(&b, &nb, text, strlen(text), "g.json"), rc, "%s", error);
    if (rc == 0) {
        cr_assert_null(want, "expected an error: %s", want);
        char *ta = written(a, na), *tb = written(b, nb);
        cr_assert_str_eq(ta, tb);
        free(ta), free(tb);
    } else {
        cr_assert_str_eq(error, br_error_get());
        cr_assert(want && strstr(error, want), "%s", error);
    }
    br_results_free(a, na);
    br_results_free(b, nb);
    free(error);
}

Test(case_columns, odd_columns_read_as_the_whole_parse_reads_them) {
    const char *first = "\"samples_ns\": [262000.0, 261500.0, 263250.0, 262750.0, 261875.0]";
    const char *odd[][2] = {
        {first, "\"samples_ns\": [262000, 261500, 263250, 262750, 261875]"},
        {first, "\"samples_ns\": [2.62e5, 2615E2, 26325e+1, 262750.00000000000001, 261875]"},
        {first, "\"samples_ns\":[\n262000.0 ,261500.0,263250.0,\t262750.0,261875.0 ]"},
        {"\"kernel_ns\": [34000.0", "\"kernel_ns\": [null"},
        {"\"kernel_ns\": [34000.0", "\"kernel_ns\": [-0"},
        {"\"kernel_ns\": null", "\"kernel_ns\": [1, 2, 3, 4, 5]"},
        {"\"sm_mhz_samples\": null", "\"sm_mhz_samples\": [1980, 1980.0, 0, 1.5e3, 7]"},
        {"\"sm_mhz_samples\": null", "\"sm_mhz_samples\": [null, null, null, null, null]"},
    };
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        char *text = golden_with(odd[i][0], odd[i][1]);
        check_like_whole(text, NULL);
        free(text);
    }
}

Test(case_columns, a_bad_value_gives_the_whole_parse_message) {
    const char *first = "\"samples_ns\": [262000.0,";
    const char *bad[][3] = {
        {first, "\"samples_ns\": [0,",
         "runs[0].cases[0].cold.samples_ns[0]: expected a number > 0 (ns), found 0"},
        {first, "\"samples_ns\": [-2.5,", "samples_ns[0]: expected a number > 0 (ns), found -2.5"},
        {first, "\"samples_ns\": [null,", "samples_ns[0]: expected a number, found null"},
        {first, "\"samples_ns\": [1e400,", "g.json:"},
        {first, "\"samples_ns\": [01,", "g.json:"},
        {first, "\"samples_ns\": [\"1\",", "samples_ns[0]: expected a number, found a string"},
        {first, "\"n\": 1, \"n\": 2, \"samples_ns\": [262000.0,", "duplicate object key"},
        {"\"sm_mhz_samples\": null", "\"sm_mhz_samples\": [1, 2, 3, 4, -1]",
         "sm_mhz_samples[4]: expected a number >= 0 (MHz) or null, found -1"},
        {"\"kernel_ns\": null", "\"kernel_ns\": [1, 2, 3]", "kernel_ns: expected 5 values"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *text = golden_with(bad[i][0], bad[i][1]);
        check_like_whole(text, bad[i][2]);
        free(text);
    }
}
