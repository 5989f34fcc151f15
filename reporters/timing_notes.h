/* SPDX-License-Identifier: Apache-2.0 */
/* What the terminal table and the Markdown report say
 * about a run's timings besides the figures: which clocks timed it, and the
 * flags (N, T, O) of timings that deserve a second look, with one warning
 * per flag. One text, two views (table.c, markdown.c). */
#ifndef BR_TIMING_NOTES_H
#define BR_TIMING_NOTES_H

#include <stddef.h>

#include "model/run.h"

/* Flags of a shown timing (a verified case's timing that was taken):
 *   N  it did not converge (model/suspect.h, br_timing_converged)
 *   T  samples taken while the SM clock was throttled were discarded
 *   O  more than 20% of at least 20 kept samples are outliers (Tukey's fences):
 *      CUDA events routinely put 5-15% of samples past the fences (a heavy
 *      upper tail), so only a larger share says the case is bimodal or was
 *      disturbed
 *   D  a host timing discarded more than 1% of its samples as disturbed (an
 *      involuntary context switch, or the CPU far below its median
 *      frequency: platform/disturb.h); a few such samples on a shared
 *      machine are routine, and are counted in the results all the same
 *   S  work escaped the clock: operations of its samples ran on another stream
 *      or context than the case's (model/suspect.h); the event time is not
 *      to be trusted
 * and of a case:
 *   P  faster than physics: GB/s above the DRAM peak that L2 cannot explain,
 *      or GFLOP/s above the FP32 peak (model/suspect.h) */
enum {
    BR_FLAG_N = 1,
    BR_FLAG_T = 2,
    BR_FLAG_O = 4,
    BR_FLAG_D = 8,
    BR_FLAG_S = 16,
    BR_FLAG_P = 32,
    BR_FLAG_LAST = BR_FLAG_P
};

/* The flags of timing t of case c (N, T, O, S); 0 when c is not OK or t was
 * not taken. */
unsigned br_report_timing_flags(const br_case_result *c, const br_timing *t);

/* The flags of case c of run r: its cold and batch timings' together, and P. */
unsigned br_report_case_flags(const br_run *r, const br_case_result *c);

/* The warning of flag P of case c of run r, without the case's name, into
 * buf: "1234.5 GB/s is above the 3352 GB/s DRAM peak and 512 MiB per
 * execution does not fit the 50 MiB L2: the work declared was not all done
 * (wrong `bytes`, skipped work or S)"; "" when c does not raise P. */
void br_report_physics_warning(char *buf, size_t len, const br_run *r, const br_case_result *c);

/* The letters of `flags`, in order N, T, O, D, S, P ("" for none), into buf. */
void br_report_flag_letters(char *buf, size_t len, unsigned flags);

/* The legend of the flags in `used`: "N = noise above max_noise when
 * sampling stopped, T = ..." into buf. */
void br_report_flags_legend(char *buf, size_t len, unsigned used);

/* The warning of one timing flag (BR_FLAG_N, _T, _O or _S) raised by timing t of run r,
 * without the case's name, into buf: "noise 1.2% did not reach max_noise
 * 0.5% (stopped on plateau after 8 samples)". */
void br_report_flag_warning(char *buf, size_t len, const br_run *r, const br_timing *t,
                            unsigned flag);

/* The lines that say what timed run r's measured cases (each owned by the
 * caller), only for the kinds of case the run measured (an OK case):
 *   "Host times: host clock (CLOCK_MONOTONIC)[, pinned to CPU N]"   host cases
 *   "GPU times: kernel clock (CUPTI activity records)"       GPU cases, kernel clock
 *   "GPU times: CUDA events[ (kernel clock unavailable: <note>)]"
 * Control characters of the note are written as spaces. Returns the number
 * of lines (0 to 2), or -1 with the error set (out of memory). */
int br_report_clock_lines(char *lines[2], const br_run *r);

/* The one line that sums up the comparison's entries not compared (cases
 * skipped for want of a GPU, baseline cases left out by -k or -p) into buf:
 * "35 cases skipped (no GPU) and 6 left out by -p: not compared". Returns
 * 0 and writes "" when there are none, else 1. */
int br_report_not_compared(char *buf, size_t len, const br_comparison *c);

/* The status of comparison entry e as reports show it, into buf: the status,
 * its reason when there is one, and what decided when it was not the time
 * alone: "same: the SM clock explains the change (same in cycles)",
 * "slower (time+cycles)". */
void br_report_change_status(char *buf, size_t len, const br_compare_entry *e);

/* The minimum detectable effect of e as a percentage ("2.0%", "12%") into
 * buf; `dash` when unknown. */
void br_report_mde(char *buf, size_t len, const br_compare_entry *e, const char *dash);

/* What comparison c assumed for cases saved once, into buf ("" when every
 * compared case had a spread of its own): "one save: spread pooled from
 * the suite's other cases" (gate/prior.h; the run's scatter feeds that
 * prior, gate/scatter.h) and/or "±1.5% drift between runs assumed" (the
 * drifts the entries assumed, gate/drift.h: 1.5% GPU, 5% host; a range
 * when both). `pm` is the plus-minus sign the report uses. */
void br_report_one_save(char *buf, size_t len, const br_comparison *c, const char *pm);

/* The significance rule of baseline comparison c into buf: "p < 0.01"
 * when its cases were judged at alpha itself, else "p < 0.000238 (0.01 over
 * 42 cases)": alpha spread over the cases by the Benjamini-Hochberg
 * procedure (gate/family.h). */
void br_report_level(char *buf, size_t len, const br_comparison *c);

/* What the gate's A/B confirmation of comparison c did (gate/confirm.h),
 * as one sentence without a final period: "screened at p < 0.2; 2 flagged,
 * 1 confirmed by A/B against 1a2b3c4 (6 block pairs each, judged at p <
 * 0.01, 12.3 s)", its note appended after "; " ("this machine reads 38%
 * slower ..."), or the note alone ("cannot confirm by A/B: ..."); "" when
 * none was asked for. */
void br_report_confirm(char *buf, size_t len, const br_comparison *c);

/* The p-value that decided e: p_runs when the between-run spread is known,
 * else the Mann-Whitney U p (NAN when neither was computed). */
double br_report_change_p(const br_compare_entry *e);

#endif
