#include "measure.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

static int one(const br_timer_ops *ops, void *state, int flush, br_exec_fn run, void *ctx,
               double *out_ns) {
    if (flush && ops->flush(state) != 0)
        return -1;
    return ops->time(state, run, ctx, out_ns);
}

int br_measure(br_measurement *out, const br_timer_ops *ops, void *state, const br_measure_cfg *cfg,
               double warmup_ns, int flush, br_exec_fn run, void *ctx) {
    memset(out, 0, sizeof *out);
    double ns;

    double t0 = br_now_ns();
    while (br_now_ns() - t0 < warmup_ns) {
        if (one(ops, state, flush, run, ctx, &ns) != 0)
            return -1;
        out->warmup_runs++;
    }
    out->warmup_ns = br_now_ns() - t0;

    size_t cap = 0;
    double total = 0;
    double s0 = br_now_ns();
    for (;;) {
        if (out->n_samples >= cfg->min_samples && total >= cfg->min_time_ns) {
            out->stop_reason = "min_time";
            break;
        }
        if (out->n_samples > 0 && br_now_ns() - s0 >= cfg->timeout_ns) {
            out->stop_reason = "timeout";
            break;
        }
        if (out->n_samples >= BR_MAX_SAMPLES) {
            out->stop_reason = "max_samples";
            break;
        }
        if (out->n_samples == cap) {
            cap = cap ? cap * 2 : 64;
            double *ns_buf = realloc(out->samples, cap * sizeof *ns_buf);
            if (!ns_buf) {
                br_measurement_dispose(out);
                return br_error_set("out of memory for samples");
            }
            out->samples = ns_buf;
        }
        if (one(ops, state, flush, run, ctx, &ns) != 0) {
            br_measurement_dispose(out);
            return -1;
        }
        out->samples[out->n_samples++] = ns;
        total += ns;
    }
    out->measure_ns = br_now_ns() - s0;
    return 0;
}

void br_measurement_dispose(br_measurement *m) {
    if (!m)
        return;
    free(m->samples);
    m->samples = NULL;
    m->n_samples = 0;
}
