/* SPDX-License-Identifier: Apache-2.0 */
/* The runs in Google Benchmark's JSON output format
 * (--benchmark_format=json), so that tools which read that format can track
 * benchrun results: Google Benchmark's own tools/compare.py, the "googlecpp"
 * tool of github-action-benchmark and Bencher's cpp_google adapter.
 *
 * Sources: google/benchmark src/json_reporter.cc (field names, their order,
 * which fields an iteration entry has), docs/user_guide.md ("Output Formats",
 * "Extra Context", "Passing Arguments", "Custom Counters", "Manual Timing",
 * "Reporting Statistics"), tools/gbench/report.py and util.py (how compare.py
 * pairs, sorts and filters entries); github-action-benchmark src/extract.ts
 * (extractGoogleCppResult); bencher lib/bencher_adapter/src/adapters/cpp/
 * google.rs.
 *
 * {"context": {
 *    "date"                RFC 3339 as Google Benchmark writes it
 *                          ("2026-11-22T10:00:00+00:00"): the first run's
 *                          start (UTC); the time of writing when there is no run
 *    "host_name"           the first run's host name that is known, else ""
 *    "executable"          "benchrun"
 *    "num_cpus"            logical CPU cores of the first run that knows them; 0 unknown
 *    "mhz_per_cpu"         the CPU clock, MHz, rounded to an integer (gbench_host.c reads it
 *                          as Google Benchmark does: tsc_freq_khz, cpufreq, /proc/cpuinfo);
 *                          0 when unknown
 *    "cpu_scaling_enabled" true when some CPU's cpufreq governor is not "performance"
 *                          (Google Benchmark's rule on Linux); from the run's recorded
 *                          governor of CPU 0 when the host cannot be read; left out when
 *                          no governor is known
 *    "caches"              [{"type", "level", "size" (bytes), "num_sharing"}], cpu0's caches
 *                          from sysfs as Google Benchmark reads them; [] when unknown
 *                          (Bencher requires the key to be an array)
 *    "load_avg"            getloadavg(3) when the file is written, as Google Benchmark
 *                          does when it starts; [] when unknown
 *   mhz_per_cpu, the governors, caches and load_avg are read when the file is
 *   written, and only when the first run's host name is this machine's (the
 *   run was measured here); for a run measured elsewhere they stay unknown.
 *    "library_version"     the benchrun version
 *    "library_build_type"  "release" when this file was built with NDEBUG, else
 *                          "debug" (Google Benchmark's rule, applied to benchrun)
 *    "json_schema_version" 1 (compare.py refuses any other value)
 *    extra keys, strings like Google Benchmark's custom context
 *    (--benchmark_context, AddCustomContext), in key order; each only when
 *    known, from the first run that knows it. The consumers above ignore
 *    context keys they do not know (compare.py and github-action-benchmark
 *    read no context key, Bencher reads only "caches"):
 *    "benchrun_note"       only when "benchmarks" is empty: why nothing was measured
 *                          ("nothing measured: 2 of 2 cases skipped, 0 failed (no-gpu: ...)"). The
 *                          consumers refuse a file without benchmarks (github-action-
 *                          benchmark: "No benchmark result was found in FILE. Benchmark
 *                          output was '...'", printing this note with the file;
 *                          Bencher: no results); benchrun still writes the file and its
 *                          exit status stays the run's (skipped cases are not failures).
 *    "git_commit"          full SHA of the commit measured
 *    "git_dirty"           "true" / "false": tracked files differed from it
 *    "gpu_name"            the CUDA device's name ("NVIDIA H100 80GB HBM3")
 *  },
 *  "benchmarks": [one entry per OK case; see "Two shapes" below]}
 *
 * An entry, keys in json_reporter.cc's order:
 *   "name"        "<kernel>/<param>:<value>/..." in the suite's parameter
 *                 order, Google Benchmark's name for a benchmark with ArgNames
 *                 (e.g. "reduce_warp/n:1048576"); values are decimal integers;
 *                 a suite without parameters gives "<kernel>". When several runs
 *                 hold the same name, those entries (and only those) become
 *                 "<suite>/<name>" (a suite name has no '/'), and
 *                 "<suite>#<k>/<name>" (k: the run's 1-based position in the
 *                 document) when the same suite name appears twice, so every
 *                 name in the document is unique.
 *   "family_index"              the kernel's index among the kernels of the
 *                               document that have an entry (a family is a
 *                               kernel of a run, as a benchmark function is in
 *                               Google Benchmark)
 *   "per_family_instance_index" the entry's index among its kernel's entries
 *   "run_name"    the name (equal for an iteration entry)
 *   "run_type"    "iteration"
 *   "repetitions" 1, "repetition_index" 0, "threads" 1
 *   "iterations"  executions measured: the headline timing's kept samples
 *                 times executions per sample (n_samples * reps)
 *   "real_time"   the headline timing's median, ns per execution (the figure
 *                 every benchrun report leads with), on that timing's clock:
 *                 CUDA events or the kernel clock on a GPU (br_timing.clock),
 *                 CLOCK_MONOTONIC on the host
 *   "cpu_time"    the same value. A GPU kernel has no CPU time of its own and
 *                 a host case's CPU time is not measured apart from its wall
 *                 time; the tools need the key (compare.py skips an entry
 *                 without it), and an equal value makes their "CPU" column
 *                 repeat the time column instead of inventing a figure. As in
 *                 Google Benchmark's UseManualTime, real_time is the time the
 *                 timer measured.
 *   "time_unit"   "ns"
 *   "bytes_per_second"  bytes per execution / median seconds (B/s, not GB/s);
 *                       only when finite (the suite gives `bytes`)
 *   "event_time_ns"     the headline timing's median CUDA event time, ns
 *                       per execution (br_timing.event_median_ns); only for a
 *                       GPU case that recorded event times
 *   "items_per_second"  FLOP per execution / median seconds: an item is one
 *                       floating-point operation, so this is FLOP/s (not
 *                       GFLOP/s); only when finite (the suite gives `flops`)
 *   "kernel_time_ns"    the headline timing's median kernel time (the kernel
 *                       clock: summed durations of the GPU operations), ns
 *                       per execution (br_timing.kernel_median_ns); only for a
 *                       GPU case for which CUPTI collected. With real_time on
 *                       one clock, these two show both, as benchrun's table
 *                       does.
 * Counters come after time_unit in key order (bytes_per_second,
 * event_time_ns, items_per_second, kernel_time_ns), as Google Benchmark
 * writes its counter map (a std::map). A value that is not finite is never written (JSON has no
 * NaN): its counter is left out.
 *
 * Failed and skipped cases are left out: they have no time, and an entry
 * with "error_occurred" carries real_time 0, which github-action-benchmark
 * would chart as a 0 ns point. An OK case whose headline timing is missing or
 * has no finite median is left out for the same reason.
 *
 * Two shapes (br_report_opts.gbench_repetitions, `--gbench-repetitions`):
 *
 * Default: one "iteration" entry per case, as above. github-action-benchmark's
 * googlecpp maps every entry to a data point (value real_time, unit
 * time_unit + "/iter") and filters nothing, and Bencher's cpp_google keys its
 * latency by name (a repeated name keeps the last entry), so repetitions
 * would chart n points under one name and the "_cv" aggregate (a fraction)
 * as ns/iter. compare.py reads this shape too: one row per case with the
 * change of the median, but no U test (it needs two or more repetitions).
 *
 * Repetitions: Google Benchmark's --benchmark_repetitions=N shape, for
 * compare.py's U test. Per case, in this order:
 *  - one "iteration" entry per kept sample of the headline timing, in the
 *    order taken: "repetitions" the kept samples, "repetition_index" the
 *    sample's index, "iterations" the executions per sample (reps),
 *    real_time = cpu_time = the sample (ns per execution); the counters of
 *    that sample (bytes and FLOP over the sample's time, its event and kernel
 *    time when recorded);
 *  - with two or more samples (Google Benchmark's ComputeStats writes no
 *    aggregate for one), four "aggregate" entries named "<name>_mean",
 *    "_median", "_stddev", "_cv", with "run_name" the case's name,
 *    "aggregate_name" and "aggregate_unit" ("time"; "percentage" for cv), no
 *    "repetition_index", "iterations" the number of samples, and real_time =
 *    cpu_time = benchrun's own statistics of the kept samples (br_stats:
 *    mean, median, stddev with n - 1, noise = stddev / mean as a fraction),
 *    the same definitions as Google Benchmark's statistics.cc. Each counter
 *    is the same statistic of its per-sample values (finite ones), as
 *    ComputeStats computes counters.
 * compare.py then pairs the samples as repetitions and runs its two-sided
 * Mann-Whitney U test on real_time, which is `benchrun compare`'s test on the
 * same samples. A cold sample is one execution, not a Google Benchmark
 * repetition of many iterations: "iterations" says so (1 for cold).
 *
 * Reals are written with 17 significant digits; output ends in a newline. */
#include "reporter.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "gbench_host.h"
#include "results/json_string.h"

#include "base/error.h"
#include "base/util.h"

/* Building state: `failed` is set when jansson or malloc could not allocate. */
typedef struct builder {
    int failed;
} builder;

/* One entry of "benchmarks" being built. */
typedef struct entry {
    const br_run *run;
    size_t run_index;
    const br_case_result *c;
    const br_timing *t;
    char *base; /* owned; the name without a suite prefix */
    char *name; /* owned; the final, unique name */
} entry;

static void put(builder *b, json_t *obj, const char *key, json_t *value) {
    if (!value || json_object_set_new(obj, key, value) != 0)
        b->failed = 1;
}

/* A JSON string; bytes that are not valid UTF-8 become '?' rather than
 * failing (a host name or device name is not checked elsewhere). */
static json_t *str(const char *s) {
    return br_json_text(s ? s : "");
}

static json_t *integer(long long v) {
    return json_integer((json_int_t)v);
}

/* The headline timing of c when it has a time to report, else NULL. */
static const br_timing *reported_timing(const br_run *r, const br_case_result *c) {
    if (c->status != BR_STATUS_OK)
        return NULL;
    const br_timing *t = br_case_headline(r, c);
    if (!t || !t->present || t->stats.n == 0 || !isfinite(t->stats.median))
        return NULL;
    return t;
}

/* "<kernel>/<p>:<v>/..." for case c of run r; malloc'd, NULL when out of memory. */
static char *base_name(const br_run *r, const br_case_result *c) {
    const char *kernel = c->kernel < r->n_kernels ? r->kernels[c->kernel].name : NULL;
    if (!kernel)
        kernel = "?";
    size_t len = strlen(kernel) + 1;
    for (size_t p = 0; p < r->n_params; p++)
        len += strlen(r->param_names[p]) + 2 + 21; /* '/', ':', an int64 */
    char *s = malloc(len);
    if (!s)
        return NULL;
    size_t at = (size_t)snprintf(s, len, "%s", kernel);
    for (size_t p = 0; p < r->n_params && at < len; p++)
        at += (size_t)snprintf(s + at, len - at, "/%s:%" PRId64, r->param_names[p], c->params[p]);
    return s;
}

/* "<prefix>/<base>"; malloc'd, NULL when out of memory. */
static char *joined(const char *prefix, const char *base) {
    size_t len = strlen(prefix) + 1 + strlen(base) + 1;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s/%s", prefix, base);
    return s;
}

/* Add one to the count of `name` in the set `counts` (a JSON object). */
static void count_name(builder *b, json_t *counts, const char *name) {
    json_t *n = json_object_get(counts, name);
    put(b, counts, name, json_integer(n ? json_integer_value(n) + 1 : 1));
}

static json_int_t name_count(json_t *counts, const char *name) {
    json_t *n = json_object_get(counts, name);
    return n ? json_integer_value(n) : 0;
}

/* Give every entry its final name (see the header comment): the base name;
 * "<suite>/<base>" when the base occurs more than once; "<suite>#<k>/<base>"
 * when that still occurs more than once. */
static void name_entries(builder *b, entry *e, size_t n) {
    json_t *bases = json_object();
    json_t *prefixed = json_object();
    if (!bases || !prefixed) {
        b->failed = 1;
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        count_name(b, bases, e[i].base);
    for (size_t i = 0; i < n && !b->failed; i++) {
        if (name_count(bases, e[i].base) > 1) {
            const char *suite_name = e[i].run->suite_name ? e[i].run->suite_name : "";
            e[i].name = joined(suite_name, e[i].base);
            if (!e[i].name) {
                b->failed = 1;
                break;
            }
            count_name(b, prefixed, e[i].name);
        }
    }
    for (size_t i = 0; i < n && !b->failed; i++) {
        if (e[i].name && name_count(prefixed, e[i].name) > 1) {
            const char *suite_name = e[i].run->suite_name ? e[i].run->suite_name : "";
            size_t len = strlen(suite_name) + 24; /* '#', a size_t, NUL */
            char *suite = malloc(len);
            if (!suite) {
                b->failed = 1;
                break;
            }
            snprintf(suite, len, "%s#%zu", suite_name, e[i].run_index + 1);
            free(e[i].name);
            e[i].name = joined(suite, e[i].base);
            free(suite);
            if (!e[i].name) {
                b->failed = 1;
                break;
            }
        }
    }
done:
    json_decref(bases);
    json_decref(prefixed);
}

/* The first run's date as Google Benchmark writes dates (RFC 3339 with a
 * numeric offset: "...T10:00:00+00:00"); the current UTC time without runs. */
static void context_date(char *buf, size_t len, const br_run *const *runs, size_t n_runs) {
    const char *d = n_runs > 0 ? runs[0]->date : "";
    if (d[0]) {
        size_t dl = strlen(d);
        if (d[dl - 1] == 'Z')
            snprintf(buf, len, "%.*s+00:00", (int)(dl - 1), d);
        else
            snprintf(buf, len, "%s", d);
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    buf[0] = '\0';
    if (gmtime_r(&now, &tm))
        strftime(buf, len, "%Y-%m-%dT%H:%M:%S+00:00", &tm);
}

/* 1 when the host called `name` is this machine. */
static int is_this_host(const char *name) {
    char here[256];
    if (!name || !name[0] || gethostname(here, sizeof here) != 0)
        return 0;
    here[sizeof here - 1] = '\0';
    return strcmp(here, name) == 0;
}

static json_t *caches_json(builder *b, const br_gbench_host *h) {
    json_t *a = json_array();
    for (size_t i = 0; a && h && i < h->n_caches; i++) {
        json_t *c = json_object();
        if (!c || json_array_append_new(a, c) != 0) {
            b->failed = 1;
            break;
        }
        put(b, c, "type", str(h->caches[i].type));
        put(b, c, "level", integer(h->caches[i].level));
        put(b, c, "size", integer(h->caches[i].size));
        put(b, c, "num_sharing", integer(h->caches[i].num_sharing));
    }
    return a;
}

static json_t *load_avg_json(builder *b, const br_gbench_host *h) {
    json_t *a = json_array();
    for (size_t i = 0; a && h && i < h->n_load_avg; i++)
        if (json_array_append_new(a, json_real(h->load_avg[i])) != 0)
            b->failed = 1;
    return a;
}

/* "nothing measured: N cases skipped, M failed (stage: why)": the note of a
 * document without entries; malloc'd, NULL when out of memory. */
static char *empty_note(const br_run *const *runs, size_t n_runs) {
    size_t skipped = 0, failed = 0, total = 0;
    const br_case_result *first = NULL;
    const char *gpu_reason = NULL;
    for (size_t i = 0; i < n_runs; i++) {
        if (!gpu_reason)
            gpu_reason = runs[i]->gpu_skip_reason;
        for (size_t c = 0; c < runs[i]->n_cases; c++) {
            const br_case_result *x = &runs[i]->cases[c];
            total++;
            skipped += x->status == BR_STATUS_SKIPPED;
            failed += x->status == BR_STATUS_FAILED;
            if (!first && x->status != BR_STATUS_OK)
                first = x;
        }
    }
    const char *stage = first ? br_stage_name(first->stage) : NULL;
    const char *why = first && first->message ? first->message : gpu_reason;
    if (total == 0)
        return br_strfmt("nothing measured: no case was planned");
    return br_strfmt("nothing measured: %zu of %zu cases skipped, %zu failed%s%s%s%s%s", skipped,
                     total, failed, stage || why ? " (" : "", stage ? stage : "",
                     stage && why ? ": " : "", why ? why : "", stage || why ? ")" : "");
}

static json_t *context_json(builder *b, const br_run *const *runs, size_t n_runs,
                            size_t n_entries) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    const br_host *host = NULL, *cores = NULL, *governor = NULL;
    const br_gitinfo *git = NULL;
    const br_device *device = NULL;
    for (size_t i = 0; i < n_runs; i++) {
        const br_run *r = runs[i];
        if (!host && r->host.hostname[0])
            host = &r->host;
        if (!cores && r->host.logical_cores > 0)
            cores = &r->host;
        if (!governor && r->host.governor[0])
            governor = &r->host;
        if (!git && r->git.present && !r->git.unborn && r->git.sha[0])
            git = &r->git;
        if (!device && r->has_device && r->device.name[0])
            device = &r->device;
    }
    const char *version = n_runs > 0 ? runs[0]->benchrun_version : NULL;
#ifdef BR_VERSION
    if (!version)
        version = BR_VERSION;
#endif
    char date[64];
    context_date(date, sizeof date, runs, n_runs);
    int num_cpus = cores ? cores->logical_cores : 0;
    br_gbench_host here;
    const br_gbench_host *h = NULL;
    if (host && is_this_host(host->hostname)) {
        br_gbench_host_read(&here, "", num_cpus > 0 ? num_cpus : 1);
        h = &here;
    }

    put(b, o, "date", str(date));
    put(b, o, "host_name", str(host ? host->hostname : ""));
    put(b, o, "executable", str("benchrun"));
    put(b, o, "num_cpus", integer(num_cpus));
    put(b, o, "mhz_per_cpu", integer(h ? llround(h->mhz) : 0));
    if (h && h->scaling >= 0)
        put(b, o, "cpu_scaling_enabled", json_boolean(h->scaling == 1));
    else if (governor)
        put(b, o, "cpu_scaling_enabled",
            json_boolean(strcmp(governor->governor, "performance") != 0));
    put(b, o, "caches", caches_json(b, h));
    put(b, o, "load_avg", load_avg_json(b, h));
    put(b, o, "library_version", str(version));
#ifdef NDEBUG
    put(b, o, "library_build_type", str("release"));
#else
    put(b, o, "library_build_type", str("debug"));
#endif
    put(b, o, "json_schema_version", integer(1));
    if (n_entries == 0) {
        char *note = empty_note(runs, n_runs);
        put(b, o, "benchrun_note", note ? str(note) : NULL);
        free(note);
    }
    if (git) {
        put(b, o, "git_commit", str(git->sha));
        put(b, o, "git_dirty", str(git->dirty ? "true" : "false"));
    }
    if (device)
        put(b, o, "gpu_name", str(device->name));
    return o;
}

/* The counters of one figure (see the layout at the top): time_ns ns per
 * execution, the event and kernel times (NAN: left out). */
static void put_counters(builder *b, json_t *o, const entry *e, double time_ns, double event_ns,
                         double kernel_ns) {
    double seconds = time_ns * 1e-9;
    double bps = e->c->bytes / seconds;
    if (isfinite(bps))
        put(b, o, "bytes_per_second", json_real(bps));
    if (isfinite(event_ns))
        put(b, o, "event_time_ns", json_real(event_ns));
    double ips = e->c->flops / seconds;
    if (isfinite(ips))
        put(b, o, "items_per_second", json_real(ips));
    if (isfinite(kernel_ns))
        put(b, o, "kernel_time_ns", json_real(kernel_ns));
}

/* The keys every entry of e starts with, up to "threads" (json_reporter.cc):
 * suffix "" for an iteration, else the aggregate's name; rep_index < 0
 * leaves "repetition_index" out (aggregates). */
static json_t *entry_head(builder *b, const entry *e, size_t family, size_t instance,
                          const char *aggregate, long long repetitions, long long rep_index) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    const char *name = e->name ? e->name : e->base;
    char *full = NULL;
    if (aggregate[0] && !(full = br_strfmt("%s_%s", name, aggregate)))
        b->failed = 1;
    put(b, o, "name", str(full ? full : name));
    free(full);
    put(b, o, "family_index", integer((long long)family));
    put(b, o, "per_family_instance_index", integer((long long)instance));
    put(b, o, "run_name", str(name));
    put(b, o, "run_type", str(aggregate[0] ? "aggregate" : "iteration"));
    put(b, o, "repetitions", integer(repetitions));
    if (rep_index >= 0)
        put(b, o, "repetition_index", integer(rep_index));
    put(b, o, "threads", integer(1));
    return o;
}

static void put_times(builder *b, json_t *o, long long iterations, double ns) {
    put(b, o, "iterations", integer(iterations));
    put(b, o, "real_time", json_real(ns));
    put(b, o, "cpu_time", json_real(ns));
    put(b, o, "time_unit", str("ns"));
}

/* Append the one entry of e (the default shape) to arr. */
static void case_entry(builder *b, json_t *arr, const entry *e, size_t family, size_t instance) {
    const br_timing *t = e->t;
    json_t *o = entry_head(b, e, family, instance, "", 1, 0);
    if (!o || json_array_append_new(arr, o) != 0) {
        b->failed = 1;
        return;
    }
    put_times(b, o, (long long)(t->n_samples * t->reps), t->stats.median);
    put_counters(b, o, e, t->stats.median, t->event_ns ? t->event_median_ns : NAN,
                 t->kernel_ns ? t->kernel_median_ns : NAN);
}

/* Which counter of sample i: 0 bytes_per_second, 1 event_time_ns, 2
 * items_per_second, 3 kernel_time_ns (NAN when it has none). */
static double counter_of(const entry *e, int which, size_t i) {
    const br_timing *t = e->t;
    switch (which) {
    case 0:
        return e->c->bytes / (t->samples[i] * 1e-9);
    case 1:
        return t->event_ns ? t->event_ns[i] : NAN;
    case 2:
        return e->c->flops / (t->samples[i] * 1e-9);
    default:
        return t->kernel_ns ? t->kernel_ns[i] : NAN;
    }
}

/* The statistic `agg` (0 mean, 1 median, 2 stddev, 3 cv) of s. */
static double stat_of(const br_stats *s, int agg) {
    return agg == 0 ? s->mean : agg == 1 ? s->median : agg == 2 ? s->stddev : s->noise;
}

/* Statistic `agg` of counter `which` over the finite per-sample values;
 * NAN when none is finite or memory runs out. */
static double counter_stat(const entry *e, int which, int agg, double *scratch) {
    size_t n = 0;
    for (size_t i = 0; i < e->t->n_samples; i++) {
        double v = counter_of(e, which, i);
        if (isfinite(v))
            scratch[n++] = v;
    }
    br_stats s;
    if (n == 0 || br_stats_compute(&s, scratch, n) != 0)
        return NAN;
    return stat_of(&s, agg);
}

/* Append e's entries in the repetitions shape (see the top) to arr. */
static void repetition_entries(builder *b, json_t *arr, const entry *e, size_t family,
                               size_t instance) {
    const br_timing *t = e->t;
    long long n = (long long)t->n_samples;
    for (size_t i = 0; i < t->n_samples && !b->failed; i++) {
        json_t *o = entry_head(b, e, family, instance, "", n, (long long)i);
        if (!o || json_array_append_new(arr, o) != 0) {
            b->failed = 1;
            return;
        }
        put_times(b, o, (long long)t->reps, t->samples[i]);
        put_counters(b, o, e, t->samples[i], counter_of(e, 1, i), counter_of(e, 3, i));
    }
    if (t->n_samples < 2)
        return;
    static const char *const names[] = {"mean", "median", "stddev", "cv"};
    double *scratch = malloc(t->n_samples * sizeof *scratch);
    if (!scratch) {
        b->failed = 1;
        return;
    }
    for (int agg = 0; agg < 4 && !b->failed; agg++) {
        json_t *o = entry_head(b, e, family, instance, names[agg], n, -1);
        if (!o || json_array_append_new(arr, o) != 0) {
            b->failed = 1;
            break;
        }
        put(b, o, "aggregate_name", str(names[agg]));
        put(b, o, "aggregate_unit", str(agg == 3 ? "percentage" : "time"));
        put_times(b, o, n, stat_of(&t->stats, agg));
        double c[4];
        for (int which = 0; which < 4; which++)
            c[which] = counter_stat(e, which, agg, scratch);
        if (isfinite(c[0]))
            put(b, o, "bytes_per_second", json_real(c[0]));
        if (isfinite(c[1]))
            put(b, o, "event_time_ns", json_real(c[1]));
        if (isfinite(c[2]))
            put(b, o, "items_per_second", json_real(c[2]));
        if (isfinite(c[3]))
            put(b, o, "kernel_time_ns", json_real(c[3]));
    }
    free(scratch);
}

/* Write one Google Benchmark JSON document holding every run to f (2-space
 * indent, keys in the order above). Returns 0, or -1 with the error set (out
 * of memory, write error). */
static int gbench_write(FILE *f, const br_run *const *runs, size_t n_runs,
                        const br_report_opts *opts) {
    int repetitions = opts && opts->gbench_repetitions;
    int rc = -1;
    builder b = {0};
    entry *entries = NULL;
    size_t n = 0, cap = 0;
    json_t *doc = json_object();
    json_t *arr = json_array();
    if (!doc || !arr) {
        json_decref(arr);
        br_error_set("out of memory building Google Benchmark JSON");
        goto done;
    }
    for (size_t i = 0; i < n_runs; i++)
        cap += runs[i]->n_cases;
    entries = calloc(cap ? cap : 1, sizeof *entries);
    if (!entries) {
        json_decref(arr);
        br_error_set("out of memory building Google Benchmark JSON");
        goto done;
    }
    /* Family-major, as Google Benchmark runs and reports: each kernel's cases
     * in plan order. */
    for (size_t i = 0; i < n_runs && !b.failed; i++) {
        const br_run *r = runs[i];
        for (size_t k = 0; k < r->n_kernels && !b.failed; k++) {
            for (size_t ci = 0; ci < r->n_cases; ci++) {
                const br_case_result *c = &r->cases[ci];
                const br_timing *t = c->kernel == k ? reported_timing(r, c) : NULL;
                if (!t)
                    continue;
                entry *e = &entries[n++];
                e->run = r;
                e->run_index = i;
                e->c = c;
                e->t = t;
                e->base = base_name(r, c);
                if (!e->base) {
                    b.failed = 1;
                    break;
                }
            }
        }
    }
    if (!b.failed)
        name_entries(&b, entries, n);

    put(&b, doc, "context", context_json(&b, runs, n_runs, n));
    size_t family = 0, instance = 0;
    for (size_t i = 0; i < n && !b.failed; i++) {
        if (i > 0 && (entries[i].run != entries[i - 1].run ||
                      entries[i].c->kernel != entries[i - 1].c->kernel)) {
            family++;
            instance = 0;
        }
        if (repetitions && entries[i].t->samples)
            repetition_entries(&b, arr, &entries[i], family, instance++);
        else
            case_entry(&b, arr, &entries[i], family, instance++);
    }
    put(&b, doc, "benchmarks", arr);
    if (b.failed) {
        br_error_set("out of memory building Google Benchmark JSON");
        goto done;
    }
    if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) != 0 ||
        fputc('\n', f) == EOF || fflush(f) != 0 || ferror(f)) {
        br_error_set("cannot write Google Benchmark JSON: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    for (size_t i = 0; i < n; i++) {
        free(entries[i].base);
        free(entries[i].name);
    }
    free(entries);
    json_decref(doc);
    return rc;
}

/* The "gbench" reporter: Google Benchmark's JSON output format. */
const br_reporter br_reporter_gbench = {"gbench", gbench_write};
