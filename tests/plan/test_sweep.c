/* SPDX-License-Identifier: Apache-2.0 */
/* test_sweep.c - sweeps: every param form, zip and where, conditions in
 * expressions, -p overrides, the plan listing and the results directory.
 * (Jobs: plan/test_job.c; variants: build/test_variants.c; the budget:
 * measure/test_budget.c.) */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/settings.h"
#include "measure/budget.h"
#include "compile/build.h"
#include "e2e_util.h"
#include "suite/expr.h"
#include "plan/plan.h"
#include "compile/resolve.h"
#include "drive/execute.h"
#include "worker/session.h"
#include "plan/job.h"
#include "suite/suite.h"

#define SWEEP BR_FIXTURES_DIR "/sweep"

static void make_tmp(void) {
    e2e_tmp_make();
}
static void drop_tmp(void) {
    e2e_tmp_drop();
}
TestSuite(sweep, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

/* A suite from text, beside a copy of the fixture module (sources must exist). */
static int load_text(br_suite *s, const char *text) {
    char *src = e2e_put("defines.c", "int unused;\n");
    free(src);
    char *path = e2e_put("s.yaml", text);
    int rc = br_suite_load(s, path);
    free(path);
    return rc;
}

#define HEAD "name: t\nsource: defines.c\nkernels: [k1, k2]\n"

static void assert_values(const br_param *p, const int64_t *want, size_t n) {
    cr_assert_eq(p->n_values, n, "%s: %zu values, want %zu", p->name, p->n_values, n);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(p->values[i], want[i], "%s[%zu] = %lld, want %lld", p->name, i,
                     (long long)p->values[i], (long long)want[i]);
}

Test(sweep, linear_ranges_include_both_ends_when_reached) {
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD "params:\n"
                                    "  a: {from: 64, to: 256, step: 64}\n"
                                    "  b: {from: 1, to: 10, step: 4}\n"
                                    "  c: {from: -2, to: 2}\n"
                                    "  d: {from: 2^20, to: 2^20 + 2}\n"),
                 0, "%s", br_error_get());
    assert_values(&s.params[0], (int64_t[]){64, 128, 192, 256}, 4);
    assert_values(&s.params[1], (int64_t[]){1, 5, 9}, 3);
    assert_values(&s.params[2], (int64_t[]){-2, -1, 0, 1, 2}, 5);
    assert_values(&s.params[3], (int64_t[]){1 << 20, (1 << 20) + 1, (1 << 20) + 2}, 3);
    br_suite_dispose(&s);
}

Test(sweep, pow2_lists_and_single_values) {
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD "params:\n"
                                    "  a: {pow2: [8, 13]}\n"
                                    "  b: {pow2: [0, 6, 3]}\n"
                                    "  c: [3, 2^10, 7 * 7]\n"
                                    "  d: 5\n"),
                 0, "%s", br_error_get());
    assert_values(&s.params[0], (int64_t[]){256, 512, 1024, 2048, 4096, 8192}, 6);
    assert_values(&s.params[1], (int64_t[]){1, 8, 64}, 3);
    assert_values(&s.params[2], (int64_t[]){3, 1024, 49}, 3);
    assert_values(&s.params[3], (int64_t[]){5}, 1);
    br_suite_dispose(&s);
}

/* The error message for a suite text, which must fail to load. */
static const char *load_error(const char *text) {
    static char msg[BR_ERROR_MAX];
    br_suite s;
    cr_assert_neq(load_text(&s, text), 0, "loaded:\n%s", text);
    snprintf(msg, sizeof msg, "%s", br_error_get());
    br_suite_dispose(&s);
    /* Strip the temporary directory from the path. */
    const char *p = strstr(msg, "s.yaml:");
    return p ? p : msg;
}

Test(sweep, bad_ranges_and_zips_name_the_position) {
    cr_assert_str_eq(load_error(HEAD "params:\n  a: {from: 5, to: 1}\n"),
                     "s.yaml:5:6: empty range: from 5 is greater than to 1");
    cr_assert_str_eq(load_error(HEAD "params:\n  a: {from: 1, to: 9, step: 0}\n"),
                     "s.yaml:5:29: step must be at least 1, found 0");
    cr_assert_str_eq(load_error(HEAD "params:\n  a: {from: 1}\n"),
                     "s.yaml:5:6: a linear range needs both 'from' and 'to' ({from: 64, to: 1024, "
                     "step: 64})");
    cr_assert_str_eq(load_error(HEAD "params:\n  a: {from: 0, to: 2^40}\n"),
                     "s.yaml:5:3: parameter 'a': the range from 0 to 1099511627776 step 1 gives "
                     "1099511627777 values (at most 1000000)");
    /* 2^64 values: the count wrapped to 0 and the plan was "empty"; in a
     * zip group, the group was read past its one-byte allocation. */
    cr_assert_str_eq(
        load_error(HEAD "params:\n  a: {from: -9223372036854775808, to: 9223372036854775807}\n"),
        "s.yaml:5:3: parameter 'a': the range from -9223372036854775808 to 9223372036854775807 "
        "step 1 gives 2^64 values (at most 1000000)");
    cr_assert_str_eq(load_error(HEAD "params:\n  g: {zip: {a: {from: -9223372036854775808, to: "
                                     "9223372036854775807, step: 2}, b: 1}}\n"),
                     "s.yaml:5:13: parameter 'a': the range from -9223372036854775808 to "
                     "9223372036854775807 step 2 gives 9223372036854775808 values (at most "
                     "1000000)");
    cr_assert_str_eq(load_error(HEAD "params:\n  a: {pow2: [1, 3], step: 2}\n"),
                     "s.yaml:5:21: a pow2 range takes no other keys (found 'step')");
    cr_assert_str_eq(load_error(HEAD "params:\n  a: {form: 1, to: 3}\n"),
                     "s.yaml:5:7: unknown key 'form' in parameter 'a' (did you mean 'from'?)");
    cr_assert_str_eq(load_error(HEAD "params:\n  s: {zip: {m: [1, 2, 3], n: [1, 2]}}\n"),
                     "s.yaml:5:30: zipped parameter 'n' has 2 values but 'm' has 3: the "
                     "parameters of zip group 's' advance together and need as many");
    cr_assert_str_eq(load_error(HEAD "params:\n  s: {zip: {m: [1, 2], n: [5, 5]}}\n"
                                     "  m: 3\n"),
                     "s.yaml:6:3: duplicate parameter 'm' (first at 5:13)");
    cr_assert_str_eq(load_error(HEAD "params:\n  s: {zip: {m: [1, 1], n: [5, 5]}}\n"),
                     "s.yaml:5:12: zip group 's' gives the same values twice (entries 1 and 2)");
    cr_assert_str_eq(load_error(HEAD "params:\n  s: {zip: [1, 2]}\n"),
                     "s.yaml:5:12: expected a mapping of the zipped parameters to their values "
                     "(zip: {m: [...], n: [...]}), found a list");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\nwhere: n <\n"),
                     "s.yaml:6:11: expected a number, a name or '(', found end of expression");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\nwhere: m > 1\n"),
                     "s.yaml:6:8: unknown name 'm' in expression (parameters: n)");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\ndefines: [m]\n"),
                     "s.yaml:6:11: defines names 'm', which is not a parameter of the suite");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\nlink: ['-rpath=/x']\n"),
                     "s.yaml:6:9: expected a library name such as cublas (letters, digits, '_', "
                     "'.', '+', '-'; passed to the linker as -lNAME), found '-rpath=/x'");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\nbytes: {k1: 4 * n}\n"),
                     "s.yaml:6:8: bytes gives no expression for kernel 'k2' (give one for every "
                     "kernel, or one expression for all)");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\nbytes: {k3: n}\n"),
                     "s.yaml:6:9: bytes names kernel 'k3', which is not in the suite's kernels");
    cr_assert_str_eq(load_error(HEAD "params:\n  s: {zip: {}}\n"),
                     "s.yaml:5:12: expected a mapping of the zipped parameters to their values "
                     "(zip: {m: [...], n: [...]}), found an empty mapping");
    cr_assert_str_eq(load_error(HEAD "params:\n  s: {zip: {a: {from: 1, to: 10001}, b: 1}}\n"),
                     "s.yaml:5:12: zip group 's' has 10001 entries (at most 10000)");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\nlink: [m, m, m, m, m, m, m, m, m, m, "
                                     "m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, "
                                     "m, m, m, m, m, m, m, m, m, m, m]\n"),
                     "s.yaml:6:8: defines and link give 41 compiler flags (at most 40 together)");
    cr_assert_str_eq(load_error(HEAD "params:\n  n: [1, 2]\nbudget: 0s\n"),
                     "s.yaml:6:9: budget must be longer than 0");
}

static br_plan plan_of(const br_suite *s) {
    br_plan p;
    cr_assert_eq(br_plan_build(&p, s, NULL, 0), 0, "%s", br_error_get());
    return p;
}

Test(sweep, zipped_parameters_advance_together_and_single_values_repeat) {
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD "params:\n"
                                    "  b: [1, 2]\n"
                                    "  shape: {zip: {m: [4096, 8192, 1024], n: [4096, 2048, 8192], "
                                    "k: {pow2: [10, 12]}, t: 7}}\n"),
                 0, "%s", br_error_get());
    cr_assert_eq(s.n_params, 5);
    cr_assert_eq(s.params[0].zip, 0);
    for (size_t i = 1; i < 5; i++) {
        cr_assert_eq(s.params[i].zip, 1);
        cr_assert_str_eq(s.params[i].group, "shape");
    }
    assert_values(&s.params[4], (int64_t[]){7, 7, 7}, 3);
    br_plan p = plan_of(&s);
    cr_assert_eq(p.n_combos, 6, "2 x 3 zipped entries, not 2 x 3^4");
    cr_assert_eq(p.n_cases, 12);
    const int64_t want[6][5] = {{1, 4096, 4096, 1024, 7}, {1, 8192, 2048, 2048, 7},
                                {1, 1024, 8192, 4096, 7}, {2, 4096, 4096, 1024, 7},
                                {2, 8192, 2048, 2048, 7}, {2, 1024, 8192, 4096, 7}};
    for (size_t c = 0; c < 6; c++)
        for (size_t i = 0; i < 5; i++)
            cr_assert_eq(br_plan_params(&p, c)[i], want[c][i], "combo %zu param %zu", c, i);
    br_plan_dispose(&p);
    br_suite_dispose(&s);
}

Test(sweep, where_drops_combinations_and_short_circuits) {
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD "params:\n"
                                    "  m: {pow2: [10, 13]}\n"
                                    "  n: {pow2: [10, 13]}\n"
                                    "  k: [0, 2^12]\n"
                                    "where: k > 0 && m * n * k <= 2^33 && 2^30 / k >= 1 || k == 0 "
                                    "&& m == n\n"),
                 0, "%s", br_error_get());
    br_plan p = plan_of(&s);
    cr_assert_eq(p.n_swept, 32);
    /* k = 4096: m * n <= 2^21: (2^10, 2^10), (2^10, 2^11), (2^11, 2^10); k = 0: m == n: 4. */
    cr_assert_eq(p.n_combos, 7, "kept %zu", p.n_combos);
    size_t with_k = 0;
    for (size_t c = 0; c < p.n_combos; c++) {
        const int64_t *v = br_plan_params(&p, c);
        if (v[2] > 0) {
            cr_assert_leq(v[0] * v[1] * v[2], (int64_t)1 << 33);
            with_k++;
        } else {
            cr_assert_eq(v[0], v[1]);
        }
    }
    cr_assert_eq(with_k, 3);
    br_plan_dispose(&p);
    br_suite_dispose(&s);
}

Test(sweep, where_that_fails_names_the_combination) {
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD "params:\n  n: [2, 0]\nwhere: 8 / n > 1\n"), 0, "%s",
                 br_error_get());
    br_plan p;
    cr_assert_neq(br_plan_build(&p, &s, NULL, 0), 0);
    cr_assert(strstr(br_error_get(), "s.yaml:6:10: division by zero (in 'where', for n=0)"), "%s",
              br_error_get());
    br_plan_dispose(&p);
    br_suite_dispose(&s);

    cr_assert_eq(load_text(&s, HEAD "params:\n  n: [2^62]\nwhere: n * 4 > 0\n"), 0);
    cr_assert_neq(br_plan_build(&p, &s, NULL, 0), 0);
    cr_assert(
        strstr(br_error_get(), "integer overflow in '*' (in 'where', for n=4611686018427387904)"),
        "%s", br_error_get());
    br_plan_dispose(&p);
    br_suite_dispose(&s);
}

Test(sweep, conditions_in_expressions) {
    const br_binding v[] = {{"a", 3}, {"b", 0}};
    struct {
        const char *text;
        int64_t want;
    } ok[] = {
        {"a < 4", 1},
        {"a <= 3", 1},
        {"a > 3", 0},
        {"a >= 4", 0},
        {"a == 3", 1},
        {"a != 3", 0},
        {"!b", 1},
        {"!a", 0},
        {"1 + 2 == a", 1},
        {"a > 1 && a < 5", 1},
        {"b || a == 3", 1},
        {"b && 1 / b", 0},
        {"a || 1 / b", 1},
        {"1 || 0 && 0", 1},
        {"(1 || 0) && 0", 0},
        {"-a < 0", 1},
        {"2^a == 8", 1},
        {"!!a", 1},
        {"a * (a > 2)", 3},
        {"b == 0 || 5 % b", 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int64_t got = -1;
        cr_assert_eq(br_expr_eval(&got, ok[i].text, (br_pos){0}, v, 2), 0, "%s: %s", ok[i].text,
                     br_error_get());
        cr_assert_eq(got, ok[i].want, "%s = %lld, want %lld", ok[i].text, (long long)got,
                     (long long)ok[i].want);
    }
    int64_t got;
    cr_assert_neq(br_expr_eval(&got, "1 < a < 5", (br_pos){"x", 1, 1}, v, 2), 0);
    cr_assert_str_eq(br_error_get(),
                     "x:1:7: comparisons do not chain: write 'a < b && b < c', not 'a < b < c'");
    cr_assert_neq(br_expr_eval(&got, "a = 3", (br_pos){"x", 1, 1}, v, 2), 0);
    cr_assert_str_eq(br_error_get(), "x:1:3: unexpected character '=' in expression");
    cr_assert_neq(br_expr_eval(&got, "a && c", (br_pos){"x", 1, 1}, v, 2), 0,
                  "a skipped operand still binds its names");
    cr_assert_neq(br_expr_eval(&got, "b && 1 / 0 > c", (br_pos){"x", 1, 1}, v, 2), 0);
    cr_assert(strstr(br_error_get(), "unknown name 'c'"), "%s", br_error_get());
}

Test(sweep, param_overrides_parse_values_and_lists) {
    br_param_override o;
    cr_assert_eq(br_param_override_parse(&o, "n=4096"), 0, "%s", br_error_get());
    cr_assert_str_eq(o.name, "n");
    cr_assert_eq(o.n_values, 1);
    cr_assert_eq(o.values[0], 4096);
    br_param_override_dispose(&o);
    cr_assert_eq(br_param_override_parse(&o, "block_size=[ 256, 2^10 ,3*3]"), 0, "%s",
                 br_error_get());
    cr_assert_eq(o.n_values, 3);
    cr_assert_eq(o.values[0], 256);
    cr_assert_eq(o.values[1], 1024);
    cr_assert_eq(o.values[2], 9);
    br_param_override_dispose(&o);

    struct {
        const char *text, *msg;
    } bad[] = {
        {"n", "-p n: expected NAME=VALUE or NAME=[A,B,...]"},
        {"=3", "-p =3: the parameter name before '=' is not a C identifier"},
        {"2n=3", "-p 2n=3: the parameter name before '=' is not a C identifier"},
        {"n=", "-p n=: expected a value (an integer or a constant expression such as 2^20), "
               "found nothing"},
        {"n=[1,,2]", "-p n=[1,,2]: expected a value (an integer or a constant expression such "
                     "as 2^20), found nothing"},
        {"n=[1,2", "-p n=[1,2: a list must end with ']'"},
        {"n=1,2", "-p n=1,2: several values must be given as a list: NAME=[A,B]"},
        {"n=[4,2^2]", "-p n=[4,2^2]: the value 4 is given twice"},
        {"n=m", "-p n=m: unknown name 'm' in expression (only constants are allowed here)"},
        {"n=2^64", "-p n=2^64: integer overflow in '^'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_neq(br_param_override_parse(&o, bad[i].text), 0, "%s parsed", bad[i].text);
        cr_assert_str_eq(br_error_get(), bad[i].msg);
        br_param_override_dispose(&o);
    }
}

Test(sweep, overrides_replace_values_and_select_zipped_entries) {
    br_suite s;
    cr_assert_eq(load_text(&s, HEAD "params:\n"
                                    "  n: [1, 2]\n"
                                    "  shape: {zip: {m: [10, 20, 30, 20], k: [1, 2, 3, 4]}}\n"),
                 0, "%s", br_error_get());
    br_param_override o[3];
    cr_assert_eq(br_param_override_parse(&o[0], "n=[7,8,9]"), 0);
    cr_assert_eq(br_param_override_parse(&o[1], "m=20"), 0);
    cr_assert_eq(br_param_override_parse(&o[2], "other=1"), 0);
    int used[3] = {0};
    cr_assert_eq(br_plan_apply_overrides(&s, o, 3, used), 0, "%s", br_error_get());
    cr_assert(used[0] && used[1] && !used[2]);
    assert_values(&s.params[0], (int64_t[]){7, 8, 9}, 3);
    assert_values(&s.params[1], (int64_t[]){20, 20}, 2);
    assert_values(&s.params[2], (int64_t[]){2, 4}, 2);
    br_plan p = plan_of(&s);
    cr_assert_eq(p.n_combos, 6);
    br_plan_dispose(&p);
    for (size_t i = 0; i < 3; i++)
        br_param_override_dispose(&o[i]);

    cr_assert_eq(br_param_override_parse(&o[0], "k=[4,5]"), 0);
    cr_assert_neq(br_plan_apply_overrides(&s, o, 1, NULL), 0);
    cr_assert(strstr(br_error_get(), "s.yaml:6:38: -p k: no entry of zip group 'shape' has k = 5"),
              "%s", br_error_get());
    br_param_override_dispose(&o[0]);
    br_suite_dispose(&s);
}

Test(sweep, list_shows_the_plan_and_its_size) {
    const char *args[] = {"--list", SWEEP "/zip.yaml", SWEEP "/defines.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "sweep-forms (" SWEEP "/zip.yaml): 4 case(s), 4 of 9 parameter "
                            "combinations kept by 'where'"),
              "%s", r.out);
    cr_assert(strstr(r.out, "sweep-defines (" SWEEP "/defines.yaml): 4 case(s), 2 compile-time "
                            "variants"),
              "%s", r.out);
    cr_assert(strstr(r.out, "tiled_sum            n=1000 m=256 k=64 tile=16"), "%s", r.out);
    cr_assert(strstr(r.out, "8 case(s) in 2 suites, 3 kernel module(s) to build"), "%s", r.out);
    e2e_free(&r);

    const char *unknown[] = {"--list", SWEEP "/zip.yaml", "-p", "q=1", NULL};
    cr_assert_eq(e2e_run(&r, NULL, unknown), 0);
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.err, "benchrun: -p q: no suite given has a parameter 'q'\n");
    e2e_free(&r);
    const char *empty[] = {"--list", SWEEP "/zip.yaml", "-p", "n=2^30", NULL};
    cr_assert_eq(e2e_run(&r, NULL, empty), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "zip.yaml:12:8: the plan is empty: 'where' rejects all 3 parameter "
                            "combinations"),
              "%s", r.err);
    e2e_free(&r);
}

Test(sweep, results_dir_never_overwrites) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    char *dir = br_strfmt("%s/results", tmp);
    const char *args[] = {cache,     "--results-dir",       dir, "-p", "n=1000", "-p",
                          "tile=16", SWEEP "/defines.yaml", NULL};
    e2e_result r;
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(e2e_run(&r, NULL, args), 0);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert(strstr(r.err, "results written to "), "%s", r.err);
        e2e_free(&r);
    }
    /* Two runs within the same second at one commit: two files. */
    char *cmd = br_strfmt("ls %s | grep -c '^[0-9]\\{8\\}T[0-9]\\{6\\}Z-.*json$'", dir);
    FILE *f = popen(cmd, "r");
    int count = 0;
    cr_assert(f && fscanf(f, "%d", &count) == 1);
    pclose(f);
    cr_assert_eq(count, 2, "two result files, found %d", count);
    free(cmd);
    free(cache);
    free(dir);
}
