/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel clock's arithmetic: attribution of GPU operation
 * records to samples, and the per-name breakdown (see activity.h). */
#include "activity.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"

/* Free s->tally and zero *s; accepts NULL. */
void br_sample_ops_dispose(br_sample_ops *s) {
    if (!s)
        return;
    free(s->tally);
    memset(s, 0, sizeof *s);
}

/* ---- attribution ---------------------------------------------------- */

/* One link, with its position in the input so that the first of several
 * links of one correlation id wins. */
struct link_key {
    uint32_t correlation;
    uint64_t external;
    size_t pos;
};

/* One well-formed operation linked to the attributed tag. */
struct linked_op {
    uint32_t name;
    int kind;
    uint64_t start;
    uint64_t dur;
    size_t pos; /* index in ops[] */
};

/* One distinct (name, kind) and where it first started. */
struct group {
    uint64_t start;
    size_t pos;
    br_op_tally t;
};

static int cmp_u64(uint64_t a, uint64_t b) {
    return (a > b) - (a < b);
}

/* By correlation id, then input position. */
static int cmp_link(const void *pa, const void *pb) {
    const struct link_key *a = pa, *b = pb;
    int c = cmp_u64(a->correlation, b->correlation);
    return c ? c : cmp_u64(a->pos, b->pos);
}

/* By (name, kind), then (start, input position): each (name, kind) becomes
 * one run whose first element is its first operation. */
static int cmp_linked(const void *pa, const void *pb) {
    const struct linked_op *a = pa, *b = pb;
    int c = cmp_u64(a->name, b->name);
    if (!c)
        c = (a->kind > b->kind) - (a->kind < b->kind);
    if (!c)
        c = cmp_u64(a->start, b->start);
    return c ? c : cmp_u64(a->pos, b->pos);
}

/* By first start, then input position of the first operation. */
static int cmp_group(const void *pa, const void *pb) {
    const struct group *a = pa, *b = pb;
    int c = cmp_u64(a->start, b->start);
    return c ? c : cmp_u64(a->pos, b->pos);
}

/* The link of `correlation` in keys[0 .. n) (sorted, one per correlation id),
 * or NULL. */
static const struct link_key *find_link(const struct link_key *keys, size_t n,
                                        uint32_t correlation) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].correlation < correlation)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo].correlation == correlation ? &keys[lo] : NULL;
}

/* Attribute to `tag` the operations linked to it; see activity.h. Sorts a
 * copy of the links by (correlation id, input position), keeps the first link
 * of each id, and looks every operation up by binary search; the tallies come
 * from a sort of the attributed operations by (name, kind, start, position).
 * Durations are summed in double (exact below 2^53 ns in all). Returns 0, or
 * -1 with the error set (a NULL array with a non-zero count, out of memory);
 * on failure *out is disposed (when not NULL) and *counts untouched. */
/* The links sorted by correlation id, the first of each id kept, into a
 * malloc'd *keys (*n_keys of them). Returns 0, or -1 with the error set. */
static int sort_links(struct link_key **keys, size_t *n_keys, const br_corr_link *links,
                      size_t n_links) {
    struct link_key *k = NULL;
    if (n_links > SIZE_MAX / sizeof *k || !(k = malloc(n_links * sizeof *k)))
        return br_error_set("out of memory sorting %zu correlation links", n_links);
    for (size_t i = 0; i < n_links; i++)
        k[i] = (struct link_key){links[i].correlation, links[i].external, i};
    qsort(k, n_links, sizeof *k, cmp_link);
    size_t n = 0;
    for (size_t i = 0; i < n_links; i++)
        if (n == 0 || k[n - 1].correlation != k[i].correlation)
            k[n++] = k[i];
    *keys = k;
    *n_keys = n;
    return 0;
}

/* What the operations of one tag add up to. */
typedef struct linked_sum {
    size_t n_lin;
    double kernel_ns;
    uint64_t first_start, last_end;
    size_t other_context, other_stream;
    uint32_t escaped_name;
} linked_sum;

/* Count op in *sum when it ran outside home (NULL: no check). */
static void check_home(linked_sum *sum, const br_op_record *op, const br_op_home *home) {
    if (!home || op->graph != 0)
        return;
    int other_context = home->has_context && op->context != home->context;
    int other_stream = !other_context && home->has_stream && op->stream != home->stream;
    sum->other_context += (size_t)other_context;
    sum->other_stream += (size_t)other_stream;
    if ((other_context || other_stream) && sum->escaped_name == UINT32_MAX)
        sum->escaped_name = op->name;
}

/* Classify the operations (counted in *c); the well-formed ones of `tag`
 * into lin[] (room for n_ops) and summed into *sum. */
static void link_ops(struct linked_op *lin, linked_sum *sum, br_attr_counts *c,
                     const br_op_record *ops, size_t n_ops, const struct link_key *keys,
                     size_t n_keys, uint64_t tag, const br_op_home *home) {
    *sum = (linked_sum){0, 0.0, UINT64_MAX, 0, 0, 0, UINT32_MAX};
    for (size_t i = 0; i < n_ops; i++) {
        const br_op_record *op = &ops[i];
        const struct link_key *k = find_link(keys, n_keys, op->correlation);
        if (!k) {
            c->excluded++;
        } else if (k->external != tag) {
            c->other++;
        } else if (op->end_ns < op->start_ns) {
            c->malformed++;
            check_home(sum, op, home);
        } else {
            check_home(sum, op, home);
            uint64_t dur = op->end_ns - op->start_ns;
            lin[sum->n_lin++] = (struct linked_op){op->name, (int)op->kind, op->start_ns, dur, i};
            sum->kernel_ns += (double)dur;
            if (op->start_ns < sum->first_start)
                sum->first_start = op->start_ns;
            if (op->end_ns > sum->last_end)
                sum->last_end = op->end_ns;
        }
    }
}

/* Tallies: one run per (name, kind) of lin[] (sorted here), ordered by
 * first start, into a malloc'd *groups. Returns the count, or -1 with the
 * error set. */
static long tally_groups(struct group **groups, struct linked_op *lin, size_t n_lin) {
    struct group *gs = NULL;
    size_t n_groups = 0;
    qsort(lin, n_lin, sizeof *lin, cmp_linked);
    if (n_lin > SIZE_MAX / sizeof *gs || !(gs = malloc(n_lin * sizeof *gs)))
        return br_error_set("out of memory tallying %zu operations", n_lin);
    for (size_t i = 0; i < n_lin; i++) {
        const struct linked_op *o = &lin[i];
        struct group *g = n_groups ? &gs[n_groups - 1] : NULL;
        if (!g || g->t.name != o->name || (int)g->t.kind != o->kind) {
            g = &gs[n_groups++];
            *g = (struct group){o->start, o->pos, {o->name, (br_op_kind)o->kind, 0, 0.0}};
        }
        g->t.count++;
        g->t.sum_ns += (double)o->dur;
    }
    qsort(gs, n_groups, sizeof *gs, cmp_group);
    *groups = gs;
    return (long)n_groups;
}

/* The tallies into out->tally (grown as needed). Returns 0, or -1 with the error set. */
static int store_tally(br_sample_ops *out, const struct group *groups, size_t n_groups) {
    if (!out->tally)
        out->cap_tally = 0;
    if (n_groups > out->cap_tally) {
        br_op_tally *t =
            n_groups > SIZE_MAX / sizeof *t ? NULL : realloc(out->tally, n_groups * sizeof *t);
        if (!t)
            return br_error_set("out of memory for %zu operation tallies", n_groups);
        out->tally = t;
        out->cap_tally = n_groups;
    }
    for (size_t i = 0; i < n_groups; i++)
        out->tally[i] = groups[i].t;
    out->n_tally = n_groups;
    return 0;
}

int br_activity_attribute(br_sample_ops *out, br_attr_counts *counts, const br_op_record *ops,
                          size_t n_ops, const br_corr_link *links, size_t n_links, uint64_t tag,
                          size_t dropped) {
    return br_activity_attribute_home(out, counts, ops, n_ops, links, n_links, tag, dropped, NULL);
}

int br_activity_attribute_home(br_sample_ops *out, br_attr_counts *counts, const br_op_record *ops,
                               size_t n_ops, const br_corr_link *links, size_t n_links,
                               uint64_t tag, size_t dropped, const br_op_home *home) {
    int rc = -1;
    struct link_key *keys = NULL;
    struct linked_op *lin = NULL;
    struct group *groups = NULL;
    br_attr_counts c = {0};

    if (!out)
        return br_error_set("activity attribution into a NULL result");
    if ((n_ops && !ops) || (n_links && !links)) {
        br_error_set("activity attribution of %zu operation records%s and %zu links%s", n_ops,
                     n_ops && !ops ? " (NULL)" : "", n_links, n_links && !links ? " (NULL)" : "");
        goto done;
    }
    size_t n_keys = 0;
    if (n_ops && n_links && sort_links(&keys, &n_keys, links, n_links) != 0)
        goto done;
    if (n_keys) {
        if (n_ops > SIZE_MAX / sizeof *lin || !(lin = malloc(n_ops * sizeof *lin))) {
            br_error_set("out of memory attributing %zu operation records", n_ops);
            goto done;
        }
    }
    linked_sum sum;
    link_ops(lin, &sum, &c, ops, n_ops, keys, n_keys, tag, home);
    long n_groups = 0;
    if (sum.n_lin && (n_groups = tally_groups(&groups, lin, sum.n_lin)) < 0)
        goto done;
    if (store_tally(out, groups, (size_t)n_groups) != 0)
        goto done;
    out->kernel_ns = sum.kernel_ns;
    out->span_ns = sum.n_lin ? (double)(sum.last_end - sum.first_start) : 0.0;
    out->n_ops = sum.n_lin;
    out->complete = dropped == 0 && c.malformed == 0;
    out->n_other_context = sum.other_context;
    out->n_other_stream = sum.other_stream;
    out->escaped_name = sum.escaped_name;
    if (counts)
        *counts = c;
    rc = 0;
done:
    if (rc != 0)
        br_sample_ops_dispose(out);
    free(keys);
    free(lin);
    free(groups);
    return rc;
}

/* ---- breakdown -------------------------------------------------------- */

/* One (name, kind) over the samples added. */
struct br_breakdown_entry {
    uint32_t name;
    br_op_kind kind;
    size_t count;  /* operations over all samples */
    double sum_ns; /* their summed durations, ns */
    double *means; /* per sample that has it: its mean duration there, ns */
    size_t n_means, cap_means;
    size_t mark;      /* 1 + the index of the sample that wrote means[n_means - 1]; 0: none */
    size_t cur_count; /* that sample's operations and sum, ns (a sample may carry a */
    double cur_sum;   /* (name, kind) in more than one tally) */
};

/* Zero *b. */
void br_breakdown_init(br_breakdown *b) {
    if (b)
        memset(b, 0, sizeof *b);
}

/* Free the entries and zero *b; accepts NULL. */
void br_breakdown_dispose(br_breakdown *b) {
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->entries[i].means);
    free(b->entries);
    memset(b, 0, sizeof *b);
}

static int cmp_key(uint32_t name_a, br_op_kind kind_a, uint32_t name_b, br_op_kind kind_b) {
    int c = cmp_u64(name_a, name_b);
    return c ? c : ((int)kind_a > (int)kind_b) - ((int)kind_a < (int)kind_b);
}

/* Index of the first entry of b (sorted by (name, kind)) not below the key;
 * *found says whether it is the key. */
static size_t entry_find(const br_breakdown *b, uint32_t name, br_op_kind kind, int *found) {
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(b->entries[mid].name, b->entries[mid].kind, name, kind) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < b->n && cmp_key(b->entries[lo].name, b->entries[lo].kind, name, kind) == 0;
    return lo;
}

/* Remove the entries that carry no sample (inserted by an add that failed). */
static void drop_empty_entries(br_breakdown *b) {
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (b->entries[i].n_means == 0)
            free(b->entries[i].means);
        else
            b->entries[k++] = b->entries[i];
    }
    b->n = k;
}

/* Add one sample's tallies (tallies with count 0 carry nothing and are
 * skipped); see activity.h. Reserves all memory before changing anything, so
 * on failure *b is as before. Returns 0, or -1 with the error set (NULL
 * argument, a NULL tally array with n_tally > 0, out of memory). */
int br_breakdown_add(br_breakdown *b, const br_sample_ops *s) {
    if (!b || !s)
        return br_error_set("breakdown: NULL %s", !b ? "breakdown" : "sample");
    if (s->n_tally && !s->tally)
        return br_error_set("breakdown: sample with %zu tallies and no tally array", s->n_tally);

    /* Room for every tally as a new entry, so that inserting cannot fail. */
    if (s->n_tally > SIZE_MAX - b->n)
        return br_error_set("breakdown: too many operation names");
    const size_t need = b->n + s->n_tally;
    if (need > b->cap) {
        size_t cap = b->cap > SIZE_MAX / 2 ? need : b->cap * 2;
        if (cap < need)
            cap = need;
        struct br_breakdown_entry *e =
            cap > SIZE_MAX / sizeof *e ? NULL : realloc(b->entries, cap * sizeof *e);
        if (!e)
            return br_error_set("out of memory for %zu operation names", need);
        b->entries = e;
        b->cap = cap;
    }

    /* Every (name, kind) of the sample present, with room for one more mean. */
    for (size_t i = 0; i < s->n_tally; i++) {
        const br_op_tally *t = &s->tally[i];
        if (t->count == 0)
            continue;
        int found;
        size_t at = entry_find(b, t->name, t->kind, &found);
        struct br_breakdown_entry *e = &b->entries[at];
        if (!found) {
            memmove(e + 1, e, (b->n - at) * sizeof *e);
            memset(e, 0, sizeof *e);
            e->name = t->name;
            e->kind = t->kind;
            b->n++;
        }
        if (e->n_means == e->cap_means) {
            size_t cap = e->cap_means ? e->cap_means * 2 : 8;
            double *m =
                e->cap_means > SIZE_MAX / 2 / sizeof *m ? NULL : realloc(e->means, cap * sizeof *m);
            if (!m) {
                drop_empty_entries(b);
                return br_error_set("out of memory for the per-sample durations of %zu samples",
                                    e->n_means + 1);
            }
            e->means = m;
            e->cap_means = cap;
        }
    }

    /* Nothing below allocates. */
    const size_t mark = b->n_samples + 1;
    for (size_t i = 0; i < s->n_tally; i++) {
        const br_op_tally *t = &s->tally[i];
        if (t->count == 0)
            continue;
        int found;
        struct br_breakdown_entry *e = &b->entries[entry_find(b, t->name, t->kind, &found)];
        if (e->mark == mark) {
            e->cur_count += t->count;
            e->cur_sum += t->sum_ns;
            e->means[e->n_means - 1] = e->cur_sum / (double)e->cur_count;
        } else {
            e->mark = mark;
            e->cur_count = t->count;
            e->cur_sum = t->sum_ns;
            e->means[e->n_means++] = t->sum_ns / (double)t->count;
        }
        e->count += t->count;
        e->sum_ns += t->sum_ns;
    }
    b->n_samples++;
    b->total_ns += s->kernel_ns;
    return 0;
}

/* A statistic and the position of its entry, the last tie-break. */
struct ranked {
    br_op_stat st;
    size_t pos;
};

/* Share descending (NaN last), then name, kind, entry position. */
static int cmp_ranked(const void *pa, const void *pb) {
    const struct ranked *a = pa, *b = pb;
    const double x = a->st.share, y = b->st.share;
    int c = isnan(x) || isnan(y) ? isnan(x) - isnan(y) : (x < y) - (x > y);
    if (!c)
        c = strcmp(a->st.name, b->st.name);
    if (!c)
        c = ((int)a->st.kind > (int)b->st.kind) - ((int)a->st.kind < (int)b->st.kind);
    return c ? c : cmp_u64(a->pos, b->pos);
}

/* The per-name statistics; see activity.h. median_ns is the median of the
 * per-sample means (the mean of the two middle ones for an even number of
 * samples); names missing from `names` (index past n_names, a NULL table or a
 * NULL string) become "?". Returns 0, or -1 with the error set (NULL
 * argument, reps 0, out of memory); *out and *out_n untouched on failure. */
int br_breakdown_finish(br_op_stat **out, size_t *out_n, const br_breakdown *b,
                        const char *const *names, size_t n_names, size_t reps) {
    int rc = -1;
    struct ranked *r = NULL;
    double *buf = NULL;
    size_t n_done = 0;

    if (!out || !out_n || !b)
        return br_error_set("breakdown: NULL %s", !b ? "breakdown" : "result");
    if (reps == 0)
        return br_error_set("breakdown: 0 executions per sample");
    if (b->n == 0) {
        *out = NULL;
        *out_n = 0;
        return 0;
    }
    if (!names)
        n_names = 0;

    size_t max_means = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->entries[i].n_means > max_means)
            max_means = b->entries[i].n_means;
    if (b->n > SIZE_MAX / sizeof *r || !(r = malloc(b->n * sizeof *r)) ||
        max_means > SIZE_MAX / sizeof *buf || !(buf = malloc(max_means * sizeof *buf))) {
        br_error_set("out of memory for the statistics of %zu operation names", b->n);
        goto done;
    }

    const double execs = (double)b->n_samples * (double)reps;
    for (; n_done < b->n; n_done++) {
        const struct br_breakdown_entry *e = &b->entries[n_done];
        const char *name = e->name < n_names && names[e->name] ? names[e->name] : "?";
        br_op_stat *st = &r[n_done].st;
        r[n_done].pos = n_done;
        if (!(st->name = strdup(name))) {
            br_error_set("out of memory copying the operation name '%s'", name);
            goto done;
        }
        st->kind = e->kind;
        st->count = e->count;
        st->per_exec = execs > 0 ? (double)e->count / execs : 0.0;
        st->share = b->total_ns != 0.0 ? e->sum_ns / b->total_ns : 0.0;
        const size_t m = e->n_means;
        if (m == 0) {
            st->median_ns = 0.0;
        } else {
            memcpy(buf, e->means, m * sizeof *buf);
            qsort(buf, m, sizeof *buf, br_cmp_double);
            st->median_ns = m % 2 ? buf[m / 2] : 0.5 * (buf[m / 2 - 1] + buf[m / 2]);
        }
    }
    qsort(r, b->n, sizeof *r, cmp_ranked);

    br_op_stat *v = malloc(b->n * sizeof *v); /* sizeof *v < sizeof *r: no overflow */
    if (!v) {
        br_error_set("out of memory for the statistics of %zu operation names", b->n);
        goto done;
    }
    for (size_t i = 0; i < b->n; i++)
        v[i] = r[i].st;
    *out = v;
    *out_n = b->n;
    n_done = 0; /* the names now belong to *out */
    rc = 0;
done:
    for (size_t i = 0; i < n_done; i++)
        free(r[i].st.name);
    free(r);
    free(buf);
    return rc;
}
