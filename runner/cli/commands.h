/* SPDX-License-Identifier: Apache-2.0 */
/* commands.h - the subcommands of benchrun and their option tables. */
#ifndef BR_CLI_COMMANDS_H
#define BR_CLI_COMMANDS_H

#include "opt.h"

/* The option tables and help texts of `benchrun`, `benchrun compare` and
 * `benchrun history`, for --help, the man page and the completion. */
extern const br_opt_cmd br_cmd_run_spec;
extern const br_opt_cmd br_cmd_compare_spec;
extern const br_opt_cmd br_cmd_history_spec;
extern const br_opt_cmd br_cmd_init_spec;
extern const br_opt_cmd br_cmd_check_spec;
extern const br_opt_cmd br_cmd_merge_spec;   /* benchrun merge */
extern const br_opt_cmd br_cmd_report_spec;  /* benchrun report */
extern const br_opt_cmd br_cmd_ab_spec;      /* benchrun ab */
extern const br_opt_cmd br_cmd_profile_spec; /* benchrun profile */
extern const br_opt_cmd br_cmd_bisect_spec;  /* benchrun bisect */

/* `benchrun [options] SUITE.yaml...` (argv[0] is the program): parse into
 * a br_pipeline_opts, run the pipeline. Also --man and --completion bash
 * (hidden). Returns the process's exit status (br_exit_status; 0 for
 * --help, --version, --list; 2 for usage errors, said on stderr). */
int br_cmd_run(int argc, char **argv);

/* `benchrun compare [options] OLD.json NEW.json` (argv[0] is "compare"):
 * compare two results files run by run (matched by suite name) with the
 * baseline rules; prints the table of NEW with the comparison. Returns the
 * exit status: 0, 2 (bad input or usage) or 3 (a case is slower). */
int br_cmd_compare(int argc, char **argv);

/* `benchrun init [DIR]` (argv[0] is "init"): write the scaffold of a
 * kernel repository into DIR (default "."): suites/example.yaml,
 * kernels/example_cpu.c, kernels/example.cu, baselines/README.md and
 * .github/workflows/benchrun.yml, from the templates embedded at build time
 * (init_templates.h). Checks every target first: when one exists, names
 * each on stderr and writes nothing. Prints what it made and the next
 * commands. Returns the exit status: 0, or 2 (a target exists, a write
 * failed (what was made is removed), or bad usage). */
int br_cmd_init(int argc, char **argv);

/* `benchrun check [options] SUITE.yaml...` (argv[0] is "check"): each
 * suite through the pipeline's prepare and build (br_pipeline_opts.check):
 * loaded, planned, its sources compiled and its kernels resolved, nothing
 * measured. Messages as a run gives them on stderr; one summary line per
 * suite on stdout. Returns the exit status: 0 every suite would run, 2 bad
 * input, an unknown kernel or a module that does not compile (or bad usage). */
int br_cmd_check(int argc, char **argv);
/* `benchrun merge (-o OUT.json | --results-dir DIR) PART.json...` (argv[0]
 * is "merge"): merge the parts of a sharded plan (results/merge.h) into one
 * results document, written atomically. Returns the exit status: 0 complete,
 * 1 cases missing or failed (the merged file is written), 2 bad input or
 * usage (parts of different plans, a case twice: nothing written). */
int br_cmd_merge(int argc, char **argv);

/* `benchrun report [options] RESULTS.json` (argv[0] is "report"): the gate,
 * the table, the output files and --save-baseline for a results file, as a
 * run does them. Returns the exit status as br_exit_status. */
int br_cmd_report(int argc, char **argv);

/* `benchrun ab [options] OLD [NEW] SUITE.yaml...` (argv[0] is "ab"): the
 * suites' kernels at git commit OLD against NEW (a commit, or the work tree),
 * measured interleaved in blocks (runner/abrun.h). Returns the exit status
 * as br_exit_status: 0, 1 a case failed, 2 bad input or usage, 3 a case is
 * slower, 128 + signal when interrupted. */
int br_cmd_ab(int argc, char **argv);
/* `benchrun bisect [options] GOOD BAD SUITE.yaml` (argv[0] is "bisect"):
 * the first commit after GOOD on BAD's first-parent line where the cases
 * got slower (drive/bisect.h). Returns the exit status: 0 found or no
 * change, 1 the case fails at an end, 2 bad input or usage, 128 + signal. */
int br_cmd_bisect(int argc, char **argv);
/* `benchrun profile SUITE.yaml -k KERNEL [-p NAME=VALUE]... [options] [--
 * NCU ARGS]` (argv[0] is "profile"): exactly one GPU case, measured once as
 * benchrun does, then run under Nsight Compute (ncu) with the NVTX range of
 * the timed launches selected; prints ncu's figures beside benchrun's in a
 * box (and --json). Returns the exit status: 0 profiled, 1 the case failed,
 * 2 bad usage, not exactly one case matching, no ncu, or ncu failed (no
 * permission for the GPU's counters: said with the fix). */
int br_cmd_profile(int argc, char **argv);

/* Write the man page (roff) or the bash completion of every command to f. */
void br_cmd_man(FILE *f);
void br_cmd_completion_bash(FILE *f);

#endif
