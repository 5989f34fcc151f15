/* SPDX-License-Identifier: Apache-2.0 */
/* The commands of benchrun: one table (br_commands) that
 * main, the usage texts, the man page and the shell completion all read,
 * and each command's entry point and option table (cli/cmd_<name>.c).
 *
 * A new subcommand X: cli/cmd_X.c parses its options into drive/'s
 * options and calls drive/ (what X does); it defines br_cmd_X and
 * br_cmd_X_spec, declared here, and one row of br_commands (commands.c)
 * names it: {"X", br_cmd_X, &br_cmd_X_spec, "one line: what X does"}. */
#ifndef BR_CLI_COMMANDS_H
#define BR_CLI_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "opt.h"

/* One command: its name after "benchrun" (NULL for the default command, a
 * run: benchrun [options] SUITE.yaml...), its entry point (argv[0] is the
 * name, or the program for a run; returns the exit status), its option
 * table and help texts, and what it does in one line (under 60 columns). */
typedef struct br_command {
    const char *name;
    int (*main)(int argc, char **argv);
    const br_opt_cmd *options;
    const char *summary;
} br_command;

/* Every command: the run first, then the subcommands by name. */
extern const br_command br_commands[];
extern const size_t br_n_commands;

/* The command named `name`, or NULL (the run has no name). */
const br_command *br_command_find(const char *name);

/* The closest subcommand name to `word` within a small edit distance
 * (Levenshtein: 1 for words of up to 4 letters, else 2), or NULL. */
const char *br_command_suggest(const char *word);

/* benchrun's main after the locale and the message sink: argv[1] a
 * subcommand's name runs it; else argv[1] a word that is no file, has no
 * '/' and no .yaml or .yml suffix, and is close to a subcommand's name, is
 * bad usage with a suggestion ("did you mean 'compare'?"), and such a word
 * "run" (asv's `asv run A..B`) points to a run and to run-range; no argument at
 * all prints the short usage on stderr (exit 2); anything else is a run.
 * Returns the exit status. */
int br_cli_main(int argc, char **argv);

/* The short usage: the usage lines, the commands with their summaries and
 * where the options are told (benchrun --help). */
void br_cli_usage_short(FILE *f);

/* The "commands:" section of benchrun --help: one row per subcommand. */
void br_cli_commands_help(FILE *f);

/* The environment variables benchrun reads ({NULL} ends), for --help and
 * the man page. */
extern const br_opt_note br_cli_environment[];

/* Write the man page (roff, section 1) or the bash completion of every
 * command to f (manual.c). */
void br_cmd_man(FILE *f);
void br_cmd_completion_bash(FILE *f);

/* The option tables and help texts of each command. */
extern const br_opt_cmd br_cmd_run_spec;
extern const br_opt_cmd br_cmd_ab_spec;
extern const br_opt_cmd br_cmd_bisect_spec;
extern const br_opt_cmd br_cmd_check_spec;
extern const br_opt_cmd br_cmd_compare_spec;
extern const br_opt_cmd br_cmd_history_spec;
extern const br_opt_cmd br_cmd_init_spec;
extern const br_opt_cmd br_cmd_merge_spec;
extern const br_opt_cmd br_cmd_profile_spec;
extern const br_opt_cmd br_cmd_publish_spec;
extern const br_opt_cmd br_cmd_report_spec;
extern const br_opt_cmd br_cmd_run_range_spec;

/* `benchrun [options] SUITE.yaml...` (argv[0] is the program): parse into
 * a br_pipeline_opts, run the pipeline. Also --man and --completion bash
 * (hidden). Returns the process's exit status (br_exit_status; 0 for
 * --help, --version, --list; 2 for usage errors, said on stderr). */
int br_cmd_run(int argc, char **argv);

/* `benchrun ab [options] OLD [NEW] SUITE.yaml...` (argv[0] is "ab"): the
 * suites' kernels at git commit OLD against NEW (a commit, or the work tree),
 * measured interleaved in blocks (drive/ab.h). Returns the exit status
 * as br_exit_status: 0, 1 a case failed, 2 bad input or usage, 3 a case is
 * slower, 128 + signal when interrupted. */
int br_cmd_ab(int argc, char **argv);

/* `benchrun bisect [options] GOOD BAD SUITE.yaml` (argv[0] is "bisect"):
 * the first commit after GOOD on BAD's first-parent line where the cases
 * got slower (drive/bisect.h). Returns the exit status: 0 found or no
 * change, 1 the case fails at an end, 2 bad input or usage, 128 + signal. */
int br_cmd_bisect(int argc, char **argv);

/* `benchrun check [options] SUITE.yaml...` (argv[0] is "check"): each
 * suite through the pipeline's prepare and build (drive/check_suites.h).
 * Returns the exit status: 0 every suite would run, 2 bad input, an
 * unknown kernel or a module that does not compile (or bad usage). */
int br_cmd_check(int argc, char **argv);

/* `benchrun compare [options] OLD.json NEW.json` (argv[0] is "compare"):
 * compare two results files run by run (drive/compare_files.h). Returns
 * the exit status: 0, 2 (bad input or usage) or 3 (a case is slower). */
int br_cmd_compare(int argc, char **argv);

/* `benchrun history DIR [-k GLOB]... [-p NAME=VALUE]... [--suite NAME]
 * [--last N] [--changes | --neighbours] [--plot FILE.svg] [--ascii]`
 * (argv[0] is "history"): the tables of a results directory
 * (drive/history_show.h). Returns the exit status: 0 ok, 2 bad input or
 * usage, 1 when a plot was asked for and could not be drawn. */
int br_cmd_history(int argc, char **argv);

/* `benchrun publish RESULTS_DIR -o SITE [options]` (argv[0] is "publish"):
 * the results directory as a static site (drive/publish.h). Returns the exit
 * status: 0 written, 2 bad input or usage, or the site could not be written. */
int br_cmd_publish(int argc, char **argv);

/* `benchrun init [DIR]` (argv[0] is "init"): write the scaffold of a
 * kernel repository into DIR (default "."), from the templates embedded at
 * build time (init_templates.h), through drive/scaffold.h: nothing written
 * when a target exists. Returns the exit status: 0, or 2 (a target exists,
 * a write failed (what was made is removed), or bad usage). */
int br_cmd_init(int argc, char **argv);

/* `benchrun merge (-o OUT.json | --results-dir DIR) PART.json...` (argv[0]
 * is "merge"): merge the parts of a sharded plan (drive/merge_files.h).
 * Returns the exit status: 0 complete, 1 cases missing or failed (the
 * merged file is written), 2 bad input or usage (nothing written). */
int br_cmd_merge(int argc, char **argv);

/* `benchrun profile SUITE.yaml -k KERNEL [-p NAME=VALUE]... [options] [--
 * NCU ARGS]` (argv[0] is "profile"): exactly one GPU case under Nsight
 * Compute (drive/profile_case.h). Returns the exit status: 0 profiled, 1
 * the case failed, 2 bad usage, not exactly one case matching, no ncu, or
 * ncu failed. */
int br_cmd_profile(int argc, char **argv);

/* `benchrun report [options] RESULTS.json` (argv[0] is "report"): the gate,
 * the table, the output files and --save-baseline for a results file
 * (drive/report_file.h). Returns the exit status as br_exit_status. */
int br_cmd_report(int argc, char **argv);

/* `benchrun run-range [options] A..B SUITE.yaml...` (argv[0] is
 * "run-range"): measure each commit of the range into a results directory
 * (drive/range.h). Returns the exit status as br_exit_status. */
int br_cmd_run_range(int argc, char **argv);

#endif
