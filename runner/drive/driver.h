/* SPDX-License-Identifier: Apache-2.0 */
/* What the three ways to measure a plan share: a plain run
 * (execute.h), a run over several devices (devices.h) and the interleaved
 * blocks of `benchrun ab` (ab_measure.h). Each policy has its one
 * implementation here:
 *  - a case that gets no worker is settled (its module did not build, no
 *    usable GPU, the time budget spent, an interrupt): br_driver_settle;
 *  - an interrupted run: br_driver_interrupted;
 *  - the time budget (measure/budget.h plans one case): br_driver_plan
 *    before a case, br_driver_count after it, br_driver_budget_note at the
 *    end;
 *  - a case measured in the worker, with the settings the budget left it
 *    and its wall time closed: br_driver_measure;
 *  - a run closed: br_driver_close.
 * The drivers keep what is theirs: the order of the cases, the devices and
 * their threads, the blocks of `ab`, the progress line.
 */
#ifndef BR_DRIVER_H
#define BR_DRIVER_H

#include <math.h>
#include <stddef.h>

#include "measure/budget.h"
#include "model/run.h"
#include "worker/process.h"
#include "worker/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_job; /* plan/job.h: a suite ready to run */

/* Who watches the runs as they go (a terminal's table, its rows printed
 * as the cases finish): the drivers call it with the run's cases in place,
 * from one thread at a time (a run over several devices: under its lock).
 * NULL members are not called. */
typedef struct br_driver_watch {
    void *ctx;
    void (*begun)(void *ctx, br_run *run);               /* the header and every case's identity */
    void (*case_done)(void *ctx, br_run *run, size_t i); /* run->cases[i] is final */
    void (*ended)(void *ctx, br_run *run);               /* closed (br_driver_close) */
} br_driver_watch;

/* The invocation's progress and time budget, kept by the drivers beside
 * the session that measures (one ledger for all the lanes of a run over
 * several devices, read and written under their lock). Start it as
 * BR_DRIVER_LEDGER_INIT. */
typedef struct br_driver_ledger {
    size_t total;       /* cases of the invocation to be measured: those that get a worker,
                           not those settled without one (br_driver_unrunnable); 0: unknown
                           (the options' total_cases, else the job's plan) */
    size_t cases_done;  /* cases of the invocation started so far, of `total` */
    double start_ns;    /* when the invocation's first case started (br_now_ns); 0 before */
    double overhead_ns; /* summed time of cases outside warmup and sampling, ns */
    size_t n_overhead;  /* cases in overhead_ns */
    const br_driver_watch *watch; /* NULL: nobody watches */
} br_driver_ledger;
#define BR_DRIVER_LEDGER_INIT                                                                      \
    { 0, 0, 0, 0, 0, NULL }

/* Note the invocation's start in l (now, unless noted already). */
void br_driver_start(br_driver_ledger *l);

/* Tell l's watcher (if any) that run began, that its case i is final, or
 * that it ended. */
void br_driver_tell_begun(const br_driver_ledger *l, br_run *run);
void br_driver_tell_case(const br_driver_ledger *l, br_run *run, size_t i);
void br_driver_tell_ended(const br_driver_ledger *l, br_run *run);

/* The cases of the built jobs[0..n) that will get a worker (the others are
 * settled without one: br_driver_unrunnable), for l->total. */
size_t br_driver_count_runnable(const struct br_job *jobs, size_t n);

/* The invocation's total for the progress line and the budget: l->total,
 * else o->total_cases, else job's plan. */
size_t br_driver_total(const br_driver_ledger *l, const br_run_opts *o, const struct br_job *job);

/* Why case i of a built job gets no worker, by its module's build:
 * BR_STAGE_COMPILE (the module did not build), BR_STAGE_NO_GPU (GPU code,
 * no usable GPU), BR_STAGE_PRECISION (the GPU lacks the kernel's declared
 * precision: br_session_build_job), or BR_STAGE_NONE when it is to be
 * measured. */
br_stage br_driver_unrunnable(const struct br_job *job, size_t i);

/* Set r's status, stage and message (malloc'd, owned by r from here; NULL
 * reads as out of memory), freeing the message r had. Returns 0, or -1 with
 * the error set (out of memory). */
int br_driver_set(br_case_result *r, br_case_status status, br_stage stage, char *message);

/* Settle case i of job, *r, without a worker: reset to what br_case_init
 * makes of it, then, by `why`:
 *   BR_STAGE_COMPILE      failed, "<source>: <the build's message>"
 *   BR_STAGE_NO_GPU       skipped, why s has no GPU (s->gpu_why; "no usable GPU")
 *   BR_STAGE_PRECISION    skipped, why s's GPU lacks the case's precision
 *                         (br_flops_lacks: "fp8-tensor: NVIDIA A100... lacks it ...")
 *   BR_STAGE_BUDGET       skipped, "the time budget was spent before this case"
 *   BR_STAGE_INTERRUPTED  skipped, "not run: benchrun was interrupted (SIGINT)",
 *                         naming the signal br_stop_signal() gives.
 * s may be NULL but for BR_STAGE_NO_GPU. Returns 0, or -1 with the error
 * set (out of memory, another stage). */
int br_driver_settle(br_case_result *r, br_stage why, const struct br_job *job, size_t i,
                     const br_session *s);

/* After an interrupt: run->interrupted names the signal br_stop_signal()
 * gives ("SIGINT"; kept when set), for a run whose cases were all kept.
 * Returns 0, or -1 with the error set (out of memory). */
int br_driver_note_interrupt(br_run *run);

/* After an interrupt, case i of job was not finished in *run: settled as
 * BR_STAGE_INTERRUPTED, and run->interrupted names the signal ("SIGINT";
 * kept when set). Call it for every unfinished case. Returns 0, or -1 with
 * the error set (out of memory). */
int br_driver_interrupted(br_run *run, const struct br_job *job, size_t i);

/* What the time budget did to the cases of a run or an invocation. Start
 * it as BR_DRIVER_TALLY_INIT. */
typedef struct br_driver_tally {
    size_t n_shortened;    /* measured with a shorter timeout, min_time or warmup */
    size_t n_skipped;      /* skipped: the budget was spent (BR_STAGE_BUDGET) */
    double min_timeout_ns; /* the shortest timeout a shortened case got, ns */
} br_driver_tally;
#define BR_DRIVER_TALLY_INIT                                                                       \
    { 0, 0, INFINITY }

/* Before the next case of job in the invocation of ledger l and options
 * o: plan it under the time budgets, and count it as started
 * (l->cases_done). The invocation's budget (--budget, o->budget_ns) leaves
 * what is left of it since l->start_ns, spent by `devices` devices at once
 * (1 for one), to the cases not started (o->total_cases, or job's plan
 * when 0, less l->cases_done); the suite's own `budget` leaves
 * suite_left_ns (ns) to suite_cases_left cases of its run (0: not
 * applied). The tighter allowance per case wins; br_budget_plan plans the
 * case with it, the modes the suite measures and the mean overhead of the
 * cases measured so far (l->overhead_ns over l->n_overhead). Returns 1 with
 * *bc filled when a budget applies, else 0. */
int br_driver_plan(br_budget_case *bc, br_driver_ledger *l, const br_run_opts *o,
                   const struct br_job *job, unsigned devices, double suite_left_ns,
                   size_t suite_cases_left);

/* Case i of job (*r from br_case_init) in s's worker, or settled without
 * one: by its module's build (br_driver_unrunnable), then when bc (NULL: no
 * budget) says the budget is spent. A case sent to the worker is measured
 * with the suite's settings, the warmup, min_time and timeout shortened as
 * bc says, and its wall time closed (br_case_wall: the worker's phases, the
 * rest as other_ns) and its start noted (began_ns, after l->start_ns; NAN
 * when that is 0). *how gets the worker's outcome (worker/proto.h
 * br_case_exec; BR_WORKER_OK for a settled case too); for BR_WORKER_STOPPED
 * (an interrupt) *r is as it was. Returns 0, or -1 with the error set (out
 * of memory settling it). */
int br_driver_measure(br_case_result *r, br_worker_result *how, br_session *s,
                      const br_driver_ledger *l, const struct br_job *job, size_t i,
                      const br_budget_case *bc);

/* After case r ended (br_driver_measure) under budget bc (NULL: none): a
 * case the budget skipped counts in t->n_skipped; a case the worker had
 * adds its time outside warmup and sampling to l's overhead mean, and,
 * when bc shortened it, counts in t->n_shortened. */
void br_driver_count(br_driver_tally *t, br_driver_ledger *l, const br_case_result *r,
                     const br_budget_case *bc);

/* The note on standard error of what a budget of budget_ns (ns) cost, by
 * t: "benchrun: PATH: to fit the time budget of 10 s: 3 case(s) measured
 * with a shorter timeout (20 ms instead of 3 s at the least) and warmup; 2
 * case(s) skipped, the budget being spent". path NULL: the invocation's (no
 * path); timeout_ns <= 0: the suites' timeouts differ (no "instead of").
 * Nothing when t counts no case. */
void br_driver_budget_note(const br_driver_tally *t, const char *path, double budget_ns,
                           double timeout_ns);

/* Close *run: why GPU cases were skipped (gpu_skip_reason, from main's
 * gpu_why, when a case was skipped for want of a GPU and none is set), the
 * GPU clock and its note (gpu_clock, clock_note: of `measured`, the session
 * whose workers measured the GPU cases), and the derived figures
 * (br_run_derive). Returns 0, or -1 with the error set (out of memory). */
int br_driver_close(br_run *run, const br_session *main, const br_session *measured);

#ifdef __cplusplus
}
#endif
#endif
