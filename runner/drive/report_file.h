/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun report RESULTS.json` does: what a run does
 * once it has measured (the gate against the baselines, the table and the
 * output files, --save-baseline), done for a results file read back: the
 * merge of a sharded plan's parts, or any --json output. */
#ifndef BR_REPORT_FILE_H
#define BR_REPORT_FILE_H

#include "pipeline.h"

/* Load path and, for every run in it: count its cases, apply p->gate's
 * rules, compare it with its baseline (found as a run finds it: from the
 * suite path the file records, read from the current directory, at the
 * top of its git work tree) unless p->gate.no_compare; then write every
 * output of p->outputs, save the baselines for p->gate.save (not of an
 * interrupted run), and say the cases a merge marked missing (unless
 * p->run.quiet). Messages on stderr as "benchrun report: ...". Fills *out
 * (zeroed first) as br_pipeline_run does: error (a file that cannot be
 * read, holds no run, or several runs with p->gate.baseline), ok, failed,
 * skipped, bad_baseline, write_failed, slower. Returns 0, or -1 when
 * out->error was set. */
int br_report_file(br_outcome *out, const char *path, const br_pipeline_opts *p);

#endif
