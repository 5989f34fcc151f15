/* SPDX-License-Identifier: Apache-2.0 */
/* The one parse path of the commands (br_cli_parse): help, version, usage
 * errors, the positionals' count, the command's own check and the output
 * rows, in that order; and that every command's output options are output
 * rows, and every reporter of files is an option of benchrun. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "reporters/reporter.h"

typedef struct t_opts {
    const char *out;
    int flag;
    int checked; /* times t_check ran */
    int refuse;  /* 1: t_check refuses */
} t_opts;

static int t_check(void *dst, const br_opt_parsed *a) {
    t_opts *o = dst;
    (void)a;
    o->checked++;
    if (o->refuse)
        fprintf(stderr, "prog: refused\n");
    return o->refuse ? -1 : 0;
}

static const br_opt_spec t_rows[] = {
    {BR_OPT_VALUE, "out", 0, offsetof(t_opts, out), "FILE", "write FILE", .output = 1},
    {BR_OPT_FLAG, "flag", 'f', offsetof(t_opts, flag), NULL, "a flag", .flag_value = 1},
    BR_CLI_ROW_HELP,
    {BR_OPT_VERSION, "version", 'V', 0, NULL, "show the version"},
    {BR_OPT_END}};

static const br_opt_cmd t_cmd = {
    .prog = "prog",
    .synopsis = "[options] A [B]",
    .about = "A test command.\n",
    .opts = t_rows,
    .exit_status = "0; 2.\n",
    .min_args = 1,
    .max_args = 2,
    .args_bad = "expected A [B], found %zu arguments",
    .check = t_check,
};

/* br_cli_parse of args (NULL-ended) into *o, zeroed but for refuse. */
static int parse(t_opts *o, const char *const *args, int refuse) {
    char *argv[16] = {"prog"};
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    memset(o, 0, sizeof *o);
    o->refuse = refuse;
    br_opt_parsed a;
    int status = br_cli_parse(&a, &t_cmd, o, argc, argv);
    free(a.args);
    return status;
}

Test(cli_parse, goes_on_with_the_options_stored) {
    t_opts o;
    const char *args[] = {"-f", "A", "--out", "-", "B", NULL};
    cr_assert_eq(parse(&o, args, 0), BR_CLI_GO_ON);
    cr_expect_eq(o.flag, 1);
    cr_expect_str_eq(o.out, "-");
    cr_expect_eq(o.checked, 1);
}

Test(cli_parse, help_and_version_exit_0_unchecked, .init = cr_redirect_stdout) {
    t_opts o;
    const char *help[] = {"A", "--help", NULL}, *version[] = {"-V", NULL};
    cr_assert_eq(parse(&o, help, 0), 0);
    cr_expect_eq(o.checked, 0);
    cr_assert_eq(parse(&o, version, 0), 0);
    cr_expect_eq(o.checked, 0);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    cr_expect(strncmp(buf, "usage: prog [options] A [B]\n", 28) == 0, "%s", buf);
    cr_expect(strstr(buf, "benchrun " BR_VERSION "\n"), "%s", buf);
}

Test(cli_parse, a_count_of_positionals_out_of_bounds_is_said_with_it, .init = cr_redirect_stderr) {
    t_opts o;
    const char *none[] = {NULL}, *three[] = {"A", "B", "C", NULL};
    cr_assert_eq(parse(&o, none, 0), 2);
    cr_assert_eq(parse(&o, three, 0), 2);
    cr_expect_eq(o.checked, 0, "the command's check runs after the count");
    fflush(stderr);
    cr_assert_stderr_eq_str("prog: expected A [B], found 0 arguments\n"
                            "prog: expected A [B], found 3 arguments\n");
}

Test(cli_parse, an_unknown_option_is_2, .init = cr_redirect_stderr) {
    t_opts o;
    const char *args[] = {"--nope", "A", NULL};
    cr_assert_eq(parse(&o, args, 0), 2);
    cr_expect_eq(o.checked, 0);
}

Test(cli_parse, the_commands_check_comes_before_the_outputs, .init = cr_redirect_stderr) {
    t_opts o;
    const char *args[] = {"--out", "/nonexistent-benchrun-dir/x.json", "A", NULL};
    cr_assert_eq(parse(&o, args, 1), 2);
    cr_assert_eq(parse(&o, args, 0), 2);
    cr_expect_eq(o.checked, 1);
    fflush(stderr);
    cr_assert_stderr_eq_str("prog: refused\n"
                            "benchrun: --out /nonexistent-benchrun-dir/x.json: cannot write in "
                            "/nonexistent-benchrun-dir: No such file or directory\n");
}

Test(cli_parse, an_empty_output_path_is_refused, .init = cr_redirect_stderr) {
    t_opts o = {.out = ""};
    cr_assert_eq(br_cli_outputs_check(t_rows, &o), -1);
    o.out = NULL;
    cr_assert_eq(br_cli_outputs_check(t_rows, &o), 0, "not asked for: nothing to check");
    fflush(stderr);
    cr_assert_stderr_eq_str("benchrun: --out expects a file name\n");
}

/* Whether opts has a row called name. */
static const br_opt_spec *row(const br_opt_spec *opts, const char *name) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++)
        if (o->name && strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

Test(cli_parse, every_output_option_of_every_command_is_an_output_row) {
    const char *outputs[] = {"csv",    "samples-csv", "json",  "markdown",
                             "gbench", "roofline",    "output"};
    size_t n = 0;
    for (size_t c = 0; c < br_n_commands; c++)
        for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++) {
            const br_opt_spec *o = row(br_commands[c].options->opts, outputs[i]);
            if (!o || strncmp(o->value_name, "FILE", 4) != 0)
                continue; /* publish -o SITE is a directory */
            cr_expect_eq(o->output, 1, "%s --%s is no output row", br_commands[c].options->prog,
                         outputs[i]);
            n++;
        }
    cr_expect_geq(n, 17, "output rows found: %zu", n);
}

Test(cli_parse, every_reporter_of_files_is_an_option_of_benchrun_and_report) {
#define CHECK(id_, name_, help_, in_report_)                                                       \
    do {                                                                                           \
        cr_expect_not_null(br_reporter_find(name_), "no reporter %s", name_);                      \
        const br_opt_spec *r = row(br_cmd_run_spec.opts, name_);                                   \
        cr_expect(r && r->output && strcmp(r->help, help_) == 0, "benchrun --%s", name_);          \
        cr_expect_eq(row(br_cmd_report_spec.opts, name_) != NULL, in_report_, "report --%s",       \
                     name_);                                                                       \
    } while (0);
    BR_REPORTER_FILES(CHECK)
#undef CHECK
}
