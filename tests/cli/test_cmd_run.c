/* SPDX-License-Identifier: Apache-2.0 */
/* test_cmd_run.c - `benchrun --cpu` (cmd_run.c): a CPU this process may not
 * run on, or no CPU at all, is bad usage (exit 2, a message naming the
 * option); an allowed one, or off, runs, and the results say where the host
 * cases were measured. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <jansson.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/commands.h"

#define E2E BR_FIXTURES_DIR "/e2e"

static char tmp[] = "/tmp/br-cmd-run-XXXXXX";

static void setup(void) {
    cr_assert_not_null(mkdtemp(tmp));
}

static void teardown(void) {
    char *cmd = br_strfmt("rm -rf %s", tmp);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
}

static int run(const char *cpu, const char *json) {
    char *cache = br_strfmt("%s/cache", tmp);
    const char *argv[] = {"benchrun", "--cpu", cpu,           "-q",  "--no-compare",
                          "--json",   json,    "--cache-dir", cache, E2E "/ok.yaml"};
    int rc = br_cmd_run((int)(sizeof argv / sizeof *argv), (char **)argv);
    free(cache);
    return rc;
}

/* The lowest CPU this process may not run on. */
static int forbidden_cpu(void) {
    cpu_set_t s;
    cr_assert_eq(sched_getaffinity(0, sizeof s, &s), 0);
    int c = 0;
    while (CPU_ISSET(c, &s))
        c++;
    return c;
}

Test(cmd_run, a_cpu_not_allowed_is_bad_usage, .init = cr_redirect_stderr) {
    setup();
    char cpu[16], *json = br_strfmt("%s/out.json", tmp);
    snprintf(cpu, sizeof cpu, "%d", forbidden_cpu());
    cr_expect_eq(run(cpu, json), 2);
    cr_expect_eq(run("abc", json), 2);
    cr_expect_eq(run("-1", json), 2);
    cr_expect_eq(access(json, F_OK), -1, "nothing written");
    fflush(stderr);
    char want[160];
    snprintf(want, sizeof want,
             "benchrun: --cpu %s: CPU %s is not one this process may run on (allowed: ", cpu, cpu);
    FILE *f = cr_get_redirected_stderr();
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    cr_expect(strstr(buf, want) != NULL, "%s", buf);
    cr_expect(strstr(buf, "benchrun: --cpu expects a CPU number or 'off', found 'abc'") != NULL,
              "%s", buf);
    free(json);
    teardown();
}

/* The "cpu" of the results' host record. */
static json_t *host_cpu(const char *path, json_t **doc) {
    *doc = json_load_file(path, 0, NULL);
    cr_assert_not_null(*doc, "%s", path);
    json_t *h = json_object_get(json_array_get(json_object_get(*doc, "runs"), 0), "host");
    cr_assert_not_null(h);
    return json_object_get(h, "cpu");
}

Test(cmd_run, the_results_say_where_host_cases_ran, .init = cr_redirect_stdout) {
    setup();
    cpu_set_t s;
    cr_assert_eq(sched_getaffinity(0, sizeof s, &s), 0);
    int last = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &s))
            last = c;
    char cpu[16], *json = br_strfmt("%s/a.json", tmp), *json2 = br_strfmt("%s/b.json", tmp);
    snprintf(cpu, sizeof cpu, "%d", last);
    cr_assert_eq(run(cpu, json), 0);
    json_t *doc;
    json_t *v = host_cpu(json, &doc);
    cr_expect(json_is_integer(v) && json_integer_value(v) == last);
    json_decref(doc);
    cr_assert_eq(run("off", json2), 0);
    v = host_cpu(json2, &doc);
    cr_expect(json_is_null(v), "--cpu off: not pinned");
    json_decref(doc);
    free(json);
    free(json2);
    teardown();
}
