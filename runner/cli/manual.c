/* SPDX-License-Identifier: Apache-2.0 */
/* Benchrun's man page and bash completion, from the command
 * table (commands.h) and each command's option table, and the lists only
 * the manual has: the environment, the files, the examples. */
#include "commands.h"

/* The environment variables benchrun reads (every getenv of runner/ and
 * reporters/: tests/cli/test_opt_env.c checks it), for benchrun --help and
 * the man page's ENVIRONMENT. */
const br_opt_note br_cli_environment[] = {
    {"CC", "C compiler for .c kernel sources (default cc; a value\n"
           "with a space, such as \"ccache gcc\", is not used)"},
    {"CXX", "C++ compiler for .cpp, .cc and .cxx kernel sources\n"
            "(default c++; a value with a space is not used)"},
    {"BENCHRUN_NVCC", "nvcc for .cu sources (default: the one benchrun was\n"
                      "built with, else nvcc on PATH)"},
    {"BENCHRUN_INCLUDE_DIR", "directory holding benchrun_kernel.h (default: the\n"
                             "one of this benchrun)"},
    {"XDG_CACHE_HOME", "compile cache in $XDG_CACHE_HOME/benchrun (an absolute\n"
                       "path; --cache-dir overrides)"},
    {"HOME", "compile cache in $HOME/.cache/benchrun without\n"
             "XDG_CACHE_HOME (else /tmp/benchrun-cache)"},
    {"NO_COLOR", "set and not empty: no colour on a terminal"},
    {"BENCHRUN_NCU", "Nsight Compute's ncu for benchrun profile (default:\n"
                     "ncu on PATH, else /usr/local/cuda/bin/ncu)"},
    {"CUDA_VISIBLE_DEVICES", "with --devices, the GPUs the indices count (the\n"
                             "N-th listed is device N); each worker gets its own"},
    {"BENCHRUN_FAKE_DEVICES", "test-only: N (or models A,A,B) fake devices for\n"
                              "--devices (1 without it: one GPU for the host lane),\n"
                              "host cases only, no GPU queried"},
    {"BENCHRUN_FAKE_HOST_KERNELS", "test-only: with fake devices, the kernels (a,b)\n"
                                   "whose cases stay host cases"},
    {"BENCHRUN_FAKE_CPUS", "test-only: with fake devices, N CPUs to decide\n"
                           "whether host cases run beside the devices"},
    {"BENCHRUN_FAKE_OPEN_MS", "test-only: with fake devices, each device's opening\n"
                              "takes N ms (as a GPU's CUDA start does)"},
    {"BENCHRUN_INDEX_NETWORK_FS", "set: every results folder's history index is kept\n"
                                  "in $XDG_CACHE_HOME/benchrun/index, as on NFS (for\n"
                                  "shared file systems not recognised: Lustre, GPFS)"},
    {"PATH", "where nvcc, cc, c++, gnuplot and ncu are found"},
    {"TMPDIR", "where history --plot writes its gnuplot script and\n"
               "benchrun profile its scratch files (default /tmp)"},
    {NULL, NULL}};

/* The files benchrun reads and writes. PREFIX is where it is installed
 * (/usr for the Debian package). */
static const br_opt_note files[] = {
    {"SUITE.yaml", "a suite: what to measure (benchrun-suite(5))"},
    {"baselines/<suite>/<device>.json",
     "the baseline of a suite on one GPU model, at the top of the suite's git work tree "
     "(outside git: beside the suite's suites/ folder, or in its own folder); "
     "--save-baseline writes it, a run compares with it"},
    {"$XDG_CACHE_HOME/benchrun, ~/.cache/benchrun",
     "the compile cache: kernel modules by the hash of what built them (--cache-dir)"},
    {"DIR/<date>-<commit>.json",
     "a results document that --results-dir writes and benchrun history reads"},
    {"PREFIX/share/benchrun/suite.schema.json",
     "the suite format as a JSON Schema, for editors (benchrun init writes a copy into "
     "schema/)"},
    {"PREFIX/share/benchrun/suites/, PREFIX/share/benchrun/kernels/",
     "the example suites and their kernels"},
    {"PREFIX/include/benchrun/benchrun_kernel.h",
     "the header a kernel module is written against (BENCHRUN_INCLUDE_DIR)"},
    {NULL, NULL}};

static const br_opt_note examples[] = {
    {"benchrun suites/reduction.yaml",
     "Measure a suite and print its table, compared with its baseline when there is one."},
    {"benchrun --list suites/reduction.yaml", "Print the planned cases; build and run nothing."},
    {"benchrun -k saxpy -p n=2^16 docs/examples/axpy/axpy.yaml",
     "Only kernel saxpy, only at n = 65536."},
    {"benchrun --save-baseline suites/reduction.yaml",
     "Measure and save the results as the baseline (commit baselines/)."},
    {"benchrun --json new.json suites/reduction.yaml && benchrun compare old.json new.json",
     "Compare two results files with the baseline rules; exit status 3 when a case is slower."},
    {"benchrun ab HEAD~1 suites/reduction.yaml",
     "Did the last commit make a kernel slower? Both builds measured interleaved."},
    {"benchrun check suites/*.yaml", "Load, plan and compile every suite; measure nothing."},
    {"benchrun init myrepo", "Start a kernel repository: a suite, two kernels, a CI workflow."},
    {"benchrun --results-dir results suites/reduction.yaml && benchrun history results",
     "Keep each run's results and show them across commits, with change points."},
    {"benchrun run-range HEAD~30..HEAD suites/reduction.yaml && benchrun history results "
     "--changes",
     "Backfill results/ with a run at each of the last 30 commits, then find where levels "
     "shifted."},
    {"benchrun --completion bash > ~/.local/share/bash-completion/completions/benchrun",
     "Install the bash completion for this user."},
    {NULL, NULL}};

/* The ".TP" rows of every subcommand: its name and summary. */
static void man_commands_list(FILE *f) {
    for (size_t i = 0; i < br_n_commands; i++) {
        if (!br_commands[i].name)
            continue;
        fputs(".TP\n\\fB", f);
        br_opt_roff(f, br_commands[i].name);
        fputs("\\fR\n", f);
        br_opt_roff(f, br_commands[i].summary);
        fputc('\n', f);
    }
}

static void man_exit_status(FILE *f) {
    fputs(".SH EXIT STATUS\n", f);
    for (size_t i = 0; i < br_n_commands; i++) {
        const br_opt_cmd *c = br_commands[i].options;
        fputs(".TP\n\\fB", f);
        br_opt_roff(f, c->prog);
        fputs("\\fR\n", f);
        br_opt_man_text(f, c->exit_status);
    }
}

void br_cmd_man(FILE *f) {
    const br_opt_cmd *run = br_commands[0].options;
    fprintf(f, ".TH BENCHRUN 1 \"\" \"benchrun %s\" \"User Commands\"\n", BR_VERSION);
    fputs(".nh\n.ad l\n", f); /* no hyphens in commands and paths; ragged right */
    fputs(".SH NAME\nbenchrun \\- compile, verify and measure GPU kernels\n.SH SYNOPSIS\n", f);
    for (size_t i = 0; i < br_n_commands; i++)
        br_opt_man_synopsis(f, br_commands[i].options);
    fputs(".SH DESCRIPTION\n", f);
    br_opt_man_text(f, run->about);
    fputs(".PP\n", f);
    br_opt_man_text(f, run->foot);
    fputs(".PP\nThe commands (each described under COMMANDS):\n", f);
    man_commands_list(f);
    fputs(".SH OPTIONS\n", f);
    br_opt_man_options(f, run->opts);
    fputs(".SH COMMANDS\n", f);
    for (size_t i = 1; i < br_n_commands; i++)
        br_opt_man_command(f, br_commands[i].options, br_commands[i].options->prog);
    man_exit_status(f);
    fputs(".SH ENVIRONMENT\n", f);
    br_opt_man_notes(f, br_cli_environment);
    fputs(".SH FILES\n", f);
    br_opt_man_notes(f, files);
    fputs(".SH EXAMPLES\n", f);
    br_opt_man_notes(f, examples);
    fputs(".SH SEE ALSO\n\\fBbenchrun-suite\\fR(5), \\fBncu\\fR(1), \\fBgnuplot\\fR(1)\n", f);
}

void br_cmd_completion_bash(FILE *f) {
    const br_opt_cmd *cmds[32];
    const char *names[32];
    size_t n = 0;
    for (size_t i = 0; i < br_n_commands && n < 32; i++, n++) {
        cmds[n] = br_commands[i].options;
        names[n] = br_commands[i].name;
    }
    br_opt_completion_bash(f, cmds, names, n);
}
