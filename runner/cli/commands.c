/* SPDX-License-Identifier: Apache-2.0 */
/* The one table of benchrun's commands (commands.h), the
 * choice of command, the did-you-mean for a misspelt one and the short
 * usage. */
#include "commands.h"

#include <string.h>
#include <sys/stat.h>

#include "base/log.h"
#include "base/strdist.h"
#include "base/util.h"

/* The run first; then the subcommands, by name. */
const br_command br_commands[] = {
    {NULL, br_cmd_run, &br_cmd_run_spec, "compile, verify and measure each suite's kernels"},
    {"ab", br_cmd_ab, &br_cmd_ab_spec, "compare two commits' builds, measured interleaved"},
    {"bisect", br_cmd_bisect, &br_cmd_bisect_spec, "the commit that made a kernel slower"},
    {"check", br_cmd_check, &br_cmd_check_spec, "load, plan and compile suites; measure nothing"},
    {"compare", br_cmd_compare, &br_cmd_compare_spec,
     "compare two results files with the baseline rules"},
    {"history", br_cmd_history, &br_cmd_history_spec,
     "a results directory across commits, with change points"},
    {"init", br_cmd_init, &br_cmd_init_spec, "write the scaffold of a kernel repository"},
    {"merge", br_cmd_merge, &br_cmd_merge_spec, "merge the parts of a sharded plan into one file"},
    {"profile", br_cmd_profile, &br_cmd_profile_spec, "one GPU case under Nsight Compute"},
    {"publish", br_cmd_publish, &br_cmd_publish_spec, "a results directory as a static web site"},
    {"report", br_cmd_report, &br_cmd_report_spec,
     "the gate, the table and the outputs of a results file"},
    {"run-range", br_cmd_run_range, &br_cmd_run_range_spec,
     "measure each commit of A..B into a results directory"},
};

const size_t br_n_commands = sizeof br_commands / sizeof *br_commands;

const br_command *br_command_find(const char *name) {
    for (size_t i = 0; i < br_n_commands; i++)
        if (br_commands[i].name && strcmp(br_commands[i].name, name) == 0)
            return &br_commands[i];
    return NULL;
}

const char *br_command_suggest(const char *word) {
    const char *best = NULL;
    size_t len = strlen(word), best_d = (size_t)-1, limit = len > 4 ? 2 : 1;
    for (size_t i = 0; i < br_n_commands; i++) {
        const char *name = br_commands[i].name;
        if (!name)
            continue;
        size_t d = br_strdist(word, len, name, strlen(name));
        if (d <= limit && d < best_d)
            best = name, best_d = d;
    }
    return best;
}

/* Whether the first argument may be a misspelt command rather than a
 * suite: not an option, no file of that name, no '/', no YAML suffix. */
static int may_be_a_command(const char *arg) {
    struct stat st;
    return arg[0] && arg[0] != '-' && !strchr(arg, '/') && !br_has_suffix(arg, ".yaml") &&
           !br_has_suffix(arg, ".yml") && stat(arg, &st) != 0;
}

void br_cli_commands_help(FILE *f) {
    fputs("commands (benchrun COMMAND --help tells each one's usage and options):\n", f);
    for (size_t i = 0; i < br_n_commands; i++)
        if (br_commands[i].name)
            fprintf(f, "  %-10s%s\n", br_commands[i].name, br_commands[i].summary);
}

void br_cli_usage_short(FILE *f) {
    br_opt_usage(f, &br_cmd_run_spec);
    fputs("       benchrun COMMAND [options] ...\n\n", f);
    fputs(br_cmd_run_spec.about, f);
    fputc('\n', f);
    br_cli_commands_help(f);
    fputs("\n'benchrun --help' lists the options of a run and the environment.\n", f);
}

int br_cli_main(int argc, char **argv) {
    /* benchrun -v COMMAND ...: detail notes (base/log.h br_log_verbose). */
    if (argc >= 2 && (strcmp(argv[1], "-v") == 0 || strcmp(argv[1], "--verbose") == 0)) {
        br_log_set_verbose(1);
        argv[1] = argv[0];
        argc--;
        argv++;
    }
    if (argc < 2) {
        br_cli_usage_short(stderr);
        return 2;
    }
    const br_command *c = br_command_find(argv[1]);
    if (c)
        return c->main(argc - 1, argv + 1);
    if (strcmp(argv[1], "run") == 0 && may_be_a_command(argv[1])) { /* asv's `asv run A..B` */
        fputs("benchrun: 'run' is not a benchrun command: a run is 'benchrun SUITE.yaml...';\n"
              "over a range of commits (asv run A..B): benchrun run-range A..B SUITE.yaml...\n",
              stderr);
        return 2;
    }
    const char *close = may_be_a_command(argv[1]) ? br_command_suggest(argv[1]) : NULL;
    if (close) {
        fprintf(stderr,
                "benchrun: '%s' is not a benchrun command; did you mean '%s'?\n"
                "try 'benchrun --help'\n",
                argv[1], close);
        return 2;
    }
    return br_commands[0].main(argc, argv); /* a run: benchrun [options] SUITE.yaml... */
}
