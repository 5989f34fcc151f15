/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel clock's collector (cupti_collect.h). CUPTI calls the two buffer
 * callbacks below, possibly from its own worker thread; they only hand
 * buffers over under a mutex. Records are parsed and attributed in the
 * thread that calls br_cupti_collect. */
#include "cupti_collect.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

#if BR_HAVE_CUPTI

#include <pthread.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>

/* Itanium C++ ABI demangler (libstdc++'s libsupc++): a kernel's CUPTI name
 * is its mangled symbol. Caller frees the result; NULL when not mangled. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* Bytes of each host buffer handed to CUPTI; records are 8-byte aligned. */
#define BR_CUPTI_BUFFER_BYTES ((size_t)8 << 20)

typedef struct pending {
    uint8_t *buf;
    size_t valid;
} pending;

typedef struct name_key {
    const char *key; /* CUPTI's own string (shared by the records of one kernel) */
    uint32_t index;
} name_key;

static const CUpti_ActivityKind kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

static struct {
    int started;
    pthread_mutex_t lock; /* guards pend, n_pend, cap_pend, lost */
    pending *pend;
    size_t n_pend, cap_pend;
    size_t
        lost; /* records dropped by CUPTI (or buffers we could not keep) since the last collect */

    br_op_record *ops;
    size_t n_ops, cap_ops;
    br_corr_link *links;
    size_t n_links, cap_links;
    char **names;
    size_t n_names, cap_names;
    name_key *keys;
    size_t n_keys, cap_keys;
    size_t dropped, late;
    br_op_home home; /* the case's stream (br_cupti_set_home); nothing checked while unset */
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int cupti_fail(const char *what, CUptiResult r) {
    const char *s = NULL;
    if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s)
        s = "unknown CUPTI error";
    return br_error_set("CUPTI: %s: %s", what, s);
}

/* Grow *v (of *cap elements of `size` bytes) to hold at least `need`. */
static int grow(void **v, size_t *cap, size_t need, size_t size) {
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / size)
            return br_error_set("out of memory for CUPTI records");
        nc *= 2;
    }
    void *p = realloc(*v, nc * size);
    if (!p)
        return br_error_set("out of memory for CUPTI records");
    *v = p;
    *cap = nc;
    return 0;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = aligned_alloc(8, BR_CUPTI_BUFFER_BYTES);
    *size = *buffer ? BR_CUPTI_BUFFER_BYTES : 0;
    *max_records = 0; /* as many as fit */
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid) {
    (void)size;
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) != CUPTI_SUCCESS)
        dropped = 0;
    pthread_mutex_lock(&g.lock);
    g.lost += dropped;
    if (buffer && valid > 0) {
        void *p = g.pend;
        if (grow(&p, &g.cap_pend, g.n_pend + 1, sizeof *g.pend) == 0) {
            g.pend = p;
            g.pend[g.n_pend++] = (pending){buffer, valid};
            buffer = NULL;
        } else {
            g.lost++; /* at least one record is lost with the buffer */
        }
    }
    pthread_mutex_unlock(&g.lock);
    free(buffer);
}

/* The index of the name CUPTI calls `raw` (kernel symbol, demangled) or, when
 * raw is NULL, `fixed`. UINT32_MAX when out of memory (error set). */
static uint32_t intern(const char *raw, const char *fixed) {
    const char *key = raw ? raw : fixed;
    for (size_t i = 0; i < g.n_keys; i++)
        if (g.keys[i].key == key)
            return g.keys[i].index;
    char *text = NULL;
    if (raw) {
        int status = 0;
        if (strncmp(raw, "_Z", 2) == 0)
            text = __cxa_demangle(raw, NULL, NULL, &status);
        if (!text || status != 0) {
            free(text);
            text = strdup(raw);
        }
    } else {
        text = strdup(fixed);
    }
    if (!text) {
        br_error_set("out of memory for kernel names");
        return UINT32_MAX;
    }
    uint32_t index = UINT32_MAX;
    for (size_t i = 0; i < g.n_names; i++)
        if (strcmp(g.names[i], text) == 0)
            index = (uint32_t)i;
    void *kp = g.keys, *np = g.names;
    if (grow(&kp, &g.cap_keys, g.n_keys + 1, sizeof *g.keys) != 0) {
        free(text);
        return UINT32_MAX;
    }
    g.keys = kp;
    if (index == UINT32_MAX) {
        if (g.n_names >= UINT32_MAX - 1 ||
            grow(&np, &g.cap_names, g.n_names + 1, sizeof *g.names) != 0) {
            free(text);
            return UINT32_MAX;
        }
        g.names = np;
        index = (uint32_t)g.n_names;
        g.names[g.n_names++] = text;
    } else {
        free(text);
    }
    g.keys[g.n_keys++] = (name_key){key, index};
    return index;
}

static const char *memcpy_name(uint8_t kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "memcpy PtoP";
    default:
        return "memcpy (array)";
    }
}

static int add_op(br_op_kind kind, uint32_t name, uint32_t corr, uint64_t start, uint64_t end,
                  uint32_t stream, uint32_t context, uint32_t graph) {
    if (name == UINT32_MAX)
        return -1;
    void *p = g.ops;
    if (grow(&p, &g.cap_ops, g.n_ops + 1, sizeof *g.ops) != 0)
        return -1;
    g.ops = p;
    g.ops[g.n_ops++] = (br_op_record){kind, name, corr, start, end, stream, context, graph};
    return 0;
}

/* Parse one delivered buffer into g.ops and g.links. */
static int parse(const pending *b) {
    CUpti_Activity *rec = NULL;
    CUptiResult r;
    while ((r = cuptiActivityGetNextRecord(b->buf, b->valid, &rec)) == CUPTI_SUCCESS) {
        int rc = 0;
        switch (rec->kind) {
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
            rc = add_op(BR_OP_KERNEL, intern(k->name ? k->name : "?", NULL), k->correlationId,
                        k->start, k->end, k->streamId, k->contextId, k->graphId);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)rec;
            rc = add_op(BR_OP_MEMCPY, intern(NULL, memcpy_name(m->copyKind)), m->correlationId,
                        m->start, m->end, m->streamId, m->contextId, m->graphId);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)rec;
            rc = add_op(BR_OP_MEMSET, intern(NULL, "memset"), m->correlationId, m->start, m->end,
                        m->streamId, m->contextId, m->graphId);
            break;
        }
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            const CUpti_ActivityExternalCorrelation *e =
                (const CUpti_ActivityExternalCorrelation *)rec;
            if (e->externalKind != CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
                break;
            void *p = g.links;
            if (grow(&p, &g.cap_links, g.n_links + 1, sizeof *g.links) != 0) {
                rc = -1;
                break;
            }
            g.links = p;
            g.links[g.n_links++] = (br_corr_link){e->correlationId, e->externalId};
            break;
        }
        default:
            break; /* API records: only their links matter */
        }
        if (rc != 0)
            return -1;
    }
    if (r != CUPTI_ERROR_MAX_LIMIT_REACHED)
        return cupti_fail("reading an activity buffer", r);
    return 0;
}

/* Take the delivered buffers and parse them; each is freed. */
static int drain(size_t *out_lost) {
    pthread_mutex_lock(&g.lock);
    pending *pend = g.pend;
    size_t n = g.n_pend;
    *out_lost = g.lost;
    g.pend = NULL;
    g.n_pend = g.cap_pend = 0;
    g.lost = 0;
    pthread_mutex_unlock(&g.lock);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = parse(&pend[i]);
        free(pend[i].buf);
    }
    free(pend);
    return rc;
}

static void release(void) {
    size_t lost = 0;
    drain(&lost);
    for (size_t i = 0; i < g.n_names; i++)
        free(g.names[i]);
    free(g.names);
    free(g.keys);
    free(g.ops);
    free(g.links);
    g.names = NULL;
    g.keys = NULL;
    g.ops = NULL;
    g.links = NULL;
    g.n_names = g.cap_names = g.n_keys = g.cap_keys = 0;
    g.n_ops = g.cap_ops = g.n_links = g.cap_links = 0;
}

int br_cupti_start(void) {
    if (g.started)
        return 0;
    CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS)
        return cupti_fail("cuptiActivityRegisterCallbacks", r);
    size_t enabled = 0;
    for (; enabled < sizeof kinds / sizeof *kinds; enabled++) {
        r = cuptiActivityEnable(kinds[enabled]);
        if (r != CUPTI_SUCCESS)
            break;
    }
    if (r != CUPTI_SUCCESS) {
        int rc = cupti_fail("cuptiActivityEnable", r);
        while (enabled-- > 0)
            cuptiActivityDisable(kinds[enabled]);
        return rc;
    }
    g.started = 1;
    g.dropped = g.late = 0;
    return 0;
}

void br_cupti_stop(void) {
    if (!g.started)
        return;
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        cuptiActivityDisable(kinds[i]);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    release();
    g.started = 0;
}

int br_cupti_push(uint64_t tag) {
    CUptiResult r =
        cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, tag);
    return r == CUPTI_SUCCESS ? 0 : cupti_fail("cuptiActivityPushExternalCorrelationId", r);
}

int br_cupti_pop(void) {
    uint64_t last = 0;
    CUptiResult r =
        cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
    return r == CUPTI_SUCCESS ? 0 : cupti_fail("cuptiActivityPopExternalCorrelationId", r);
}

static int cmp_link(const void *a, const void *b) {
    const br_corr_link *x = a, *y = b;
    return (x->correlation > y->correlation) - (x->correlation < y->correlation);
}

/* Index of `tag` in the increasing tags[0..n), or n. */
static size_t tag_index(const uint64_t *tags, size_t n, uint64_t tag) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tags[mid] < tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && tags[lo] == tag ? lo : n;
}

/* Stable counting sort of src[0..count) (elements of `size` bytes) into dst
 * by bucket[i] < nb (others are left out); offsets[0..nb] receives where
 * each bucket starts and offsets[nb] the total. fill is nb scratch slots. */
static void bucket_sort(void *dst, const void *src, size_t count, size_t size, const size_t *bucket,
                        size_t nb, size_t *offsets, size_t *fill) {
    memset(offsets, 0, (nb + 1) * sizeof *offsets);
    memset(fill, 0, nb * sizeof *fill);
    for (size_t i = 0; i < count; i++)
        if (bucket[i] < nb)
            offsets[bucket[i] + 1]++;
    for (size_t b = 0; b < nb; b++)
        offsets[b + 1] += offsets[b];
    for (size_t i = 0; i < count; i++)
        if (bucket[i] < nb)
            memcpy((char *)dst + (offsets[bucket[i]] + fill[bucket[i]]++) * size,
                   (const char *)src + i * size, size);
}

int br_cupti_collect(br_sample_ops *outs, const uint64_t *tags, size_t n) {
    if (!g.started)
        return br_error_set("CUPTI: the collector is not started");
    CUptiResult r = cuptiActivityFlushAll(0);
    if (r != CUPTI_SUCCESS)
        return cupti_fail("cuptiActivityFlushAll", r);
    size_t lost = 0;
    int rc = drain(&lost);
    size_t n_ops = g.n_ops, n_links = g.n_links;
    size_t *op_bucket = malloc((n_ops ? n_ops : 1) * sizeof *op_bucket);
    size_t *link_bucket = malloc((n_links ? n_links : 1) * sizeof *link_bucket);
    size_t *op_at = malloc((n + 1) * sizeof *op_at), *link_at = malloc((n + 1) * sizeof *link_at);
    size_t *fill = malloc((n ? n : 1) * sizeof *fill);
    br_op_record *ops = malloc((n_ops ? n_ops : 1) * sizeof *ops);
    br_corr_link *links = malloc((n_links ? n_links : 1) * sizeof *links);
    br_corr_link *sorted = malloc((n_links ? n_links : 1) * sizeof *sorted);
    if (rc != 0)
        goto done;
    if (!op_bucket || !link_bucket || !op_at || !link_at || !fill || !ops || !links || !sorted) {
        rc = br_error_set("out of memory for CUPTI records");
        goto done;
    }
    /* Each link goes to the bucket of the tag it names (n: not asked for);
     * each operation to the bucket of the tag its correlation id links to
     * (the lowest, i.e. first pushed, when linked twice; n + 1: no link, a
     * helper operation). Then each tag's bucket is attributed on its own, so
     * the whole group costs O(N log N). */
    for (size_t i = 0; i < n_links; i++)
        link_bucket[i] = tag_index(tags, n, g.links[i].external);
    if (n_links)
        memcpy(sorted, g.links, n_links * sizeof *sorted);
    qsort(sorted, n_links, sizeof *sorted, cmp_link);
    size_t late = 0;
    for (size_t i = 0; i < n_ops; i++) {
        size_t lo = 0, hi = n_links;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (sorted[mid].correlation < g.ops[i].correlation)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint64_t ext = UINT64_MAX;
        for (; lo < n_links && sorted[lo].correlation == g.ops[i].correlation; lo++)
            if (sorted[lo].external < ext)
                ext = sorted[lo].external;
        op_bucket[i] = ext == UINT64_MAX ? n + 1 : tag_index(tags, n, ext);
        late += op_bucket[i] == n;
    }
    bucket_sort(ops, g.ops, n_ops, sizeof *ops, op_bucket, n, op_at, fill);
    bucket_sort(links, g.links, n_links, sizeof *links, link_bucket, n, link_at, fill);
    for (size_t b = 0; b < n && rc == 0; b++)
        rc = br_activity_attribute_home(&outs[b], NULL, ops + op_at[b], op_at[b + 1] - op_at[b],
                                        links + link_at[b], link_at[b + 1] - link_at[b], tags[b],
                                        lost, &g.home);
    g.late += late;
done:
    g.dropped += lost;
    g.n_ops = 0;
    g.n_links = 0;
    free(op_bucket);
    free(link_bucket);
    free(op_at);
    free(link_at);
    free(fill);
    free(ops);
    free(links);
    free(sorted);
    return rc;
}

int br_cupti_set_home(void *stream) {
    g.home = (br_op_home){0};
    uint32_t id = 0;
    CUptiResult r = cuptiGetStreamIdEx(NULL, (CUstream)stream, 0, &id);
    if (r != CUPTI_SUCCESS)
        return cupti_fail("cuptiGetStreamIdEx", r);
    g.home.has_stream = 1;
    g.home.stream = id;
    /* The stream's context through the driver's cuStreamGetCtx, reached
     * from the runtime (benchrun does not link libcuda): without it only
     * the stream is checked. */
    CUresult (*get_ctx)(CUstream, CUcontext *) = NULL;
    enum cudaDriverEntryPointQueryResult found;
    CUcontext ctx = NULL;
    if (cudaGetDriverEntryPointByVersion("cuStreamGetCtx", (void **)&get_ctx, 12000,
                                         cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess && get_ctx && get_ctx((CUstream)stream, &ctx) == 0 &&
        ctx && cuptiGetContextId(ctx, &id) == CUPTI_SUCCESS) {
        g.home.has_context = 1;
        g.home.context = id;
    }
    return 0;
}

const char *const *br_cupti_names(size_t *out_n) {
    *out_n = g.n_names;
    return (const char *const *)g.names;
}

size_t br_cupti_dropped(void) {
    return g.dropped;
}

size_t br_cupti_late(void) {
    return g.late;
}

#else /* !BR_HAVE_CUPTI */

int br_cupti_start(void) {
    return br_error_set("benchrun was built without CUPTI");
}
void br_cupti_stop(void) {}
int br_cupti_push(uint64_t tag) {
    (void)tag;
    return br_error_set("benchrun was built without CUPTI");
}
int br_cupti_pop(void) {
    return br_error_set("benchrun was built without CUPTI");
}
int br_cupti_collect(br_sample_ops *outs, const uint64_t *tags, size_t n) {
    (void)outs;
    (void)tags;
    (void)n;
    return br_error_set("benchrun was built without CUPTI");
}
int br_cupti_set_home(void *stream) {
    (void)stream;
    return br_error_set("benchrun was built without CUPTI");
}
const char *const *br_cupti_names(size_t *out_n) {
    *out_n = 0;
    return NULL;
}
size_t br_cupti_dropped(void) {
    return 0;
}
size_t br_cupti_late(void) {
    return 0;
}

#endif
