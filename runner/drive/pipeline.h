/* SPDX-License-Identifier: Apache-2.0 */
/* One invocation of `benchrun SUITE.yaml...` as a driver:
 * prepare every suite -> build -> execute -> gate -> outputs. The command
 * line fills a br_pipeline_opts and maps the br_outcome to the exit status
 * (br_exit_status); tests run the pipeline in-process. */
#ifndef BR_PIPELINE_H
#define BR_PIPELINE_H

#include <stddef.h>

#include "gate/gate.h"
#include "compile/resolve.h"
#include "execute.h"
#include "worker/proto.h"
#include "worker/session.h"
#include "plan/job.h"
#include "plan/shard.h"
#include "outcome.h"
#include "outputs.h"

/* Everything one invocation asks for. */
typedef struct br_pipeline_opts {
    const char *const *suites; /* suite files, in order */
    size_t n_suites;
    br_run_opts run;     /* patterns, -p params, measurement overlay, jobs, cache dir, quiet */
    br_gate_opts gate;   /* baseline options */
    br_outputs outputs;  /* files and the table */
    int list;            /* --list: print the planned cases and stop */
    int check;           /* benchrun check: prepare and build every suite (kernels compiled and
                            resolved), count what a run would do, and stop before measuring */
    br_shard_opts shard; /* --shard I/N, --shard-times: run one part of the plan (plan/shard.h) */
    int timing_report;   /* --timing-report: after the summary, where the wall time went
                            (reporters/timing_report.h), on stderr */
    /* Called (when not NULL) once every suite is prepared, before the
     * session opens (a run's and a check's): the command line installs its
     * signal handlers. */
    void (*before_measure)(void);
} br_pipeline_opts;

/* *o with nothing asked for: no suites, outputs or shard, the run's
 * measurement layer empty (br_measure_layer_init) and the gate's defaults
 * (br_gate_opts_init). The one initialiser of the struct: a field with a
 * default other than zero gets it here. */
void br_pipeline_opts_init(br_pipeline_opts *o);

/* Run the invocation o: prepare every suite (all checked before any runs),
 * print the plan and stop for o->list, build every suite and stop for
 * o->check (compiler diagnostics through br_log), else build every suite, execute,
 * compare with the baselines, write every output and save the baselines,
 * then the summary line on stderr (unless quiet) and, for o->timing_report,
 * the timing report. Fills *out (zeroed
 * first). Returns 0, or -1 when out->error was set (the message is on
 * stderr). */
int br_pipeline_run(br_outcome *out, const br_pipeline_opts *o);

/* The process exit status of an outcome: 2 error; 0 listed; checked: 2 when
 * a module failed or a case would fail, else 0; 128 + signal
 * when stopped; 1 a case failed or an output could not be written; 2 a bad
 * baseline; 3 slower; else 0. Pure. */
int br_exit_status(const br_outcome *o);

#endif
