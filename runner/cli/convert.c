/* SPDX-License-Identifier: Apache-2.0 */
/* The value converters of the option tables (convert.h). */
#include "convert.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "model/settings.h"
#include "plan/device_list.h"
#include "plan/devsched.h"
#include "plan/shard.h"
#include "platform/cpupin.h"
#include "suite/suite.h"

void br_cli_params_dispose(br_cli_params *p) {
    for (size_t i = 0; i < p->n; i++)
        br_param_override_dispose(&p->items[i]);
    free(p->items);
    p->items = NULL;
    p->n = 0;
}

static int param_add(br_cli_params *p, const char *arg, int unique) {
    br_param_override ov;
    memset(&ov, 0, sizeof ov);
    if (br_param_override_parse(&ov, arg) != 0) {
        br_param_override_dispose(&ov);
        return -1;
    }
    for (size_t i = 0; unique && i < p->n; i++) {
        if (strcmp(p->items[i].name, ov.name) == 0) {
            br_error_set("-p %s: parameter '%s' is set twice", arg, ov.name);
            br_param_override_dispose(&ov);
            return -1;
        }
    }
    br_param_override *items = realloc(p->items, (p->n + 1) * sizeof *items);
    if (!items) {
        br_param_override_dispose(&ov);
        return br_error_nomem();
    }
    p->items = items;
    p->items[p->n++] = ov;
    return 0;
}

int br_cli_param_unique(void *dst, const char *option, const char *arg) {
    (void)option;
    return param_add(dst, arg, 1);
}

int br_cli_param(void *dst, const char *option, const char *arg) {
    (void)option;
    return param_add(dst, arg, 0);
}

int br_cli_measure(void *dst, const char *option, const char *arg) {
    static const br_setting_parsers parsers = {br_parse_duration, br_parse_fraction, br_parse_mode};
    for (int f = 0; f < BR_SETTING_COUNT; f++)
        if (strcmp(br_setting_option((br_setting)f), option) == 0)
            return br_measure_layer_parse(dst, (br_setting)f, arg, &parsers);
    return br_error_set("%s: not a measurement option", option);
}

int br_cli_duration_positive(void *dst, const char *option, const char *arg) {
    if (br_parse_duration(dst, option, arg) != 0)
        return -1;
    if (*(double *)dst <= 0)
        return br_error_set("%s: must be longer than 0", option);
    return 0;
}

int br_cli_fraction(void *dst, const char *option, const char *arg) {
    return br_parse_fraction(dst, option, arg);
}

int br_cli_fraction_or_zero(void *dst, const char *option, const char *arg) {
    if (strcmp(arg, "0") == 0 || strcmp(arg, "0%") == 0) {
        *(double *)dst = 0;
        return 0;
    }
    return br_parse_fraction(dst, option, arg);
}

int br_cli_jobs(void *dst, const char *option, const char *arg) {
    char *end;
    long n = strtol(arg, &end, 10);
    if (*end || n < 1 || n > 1024)
        return br_error_set("%s expects a number from 1 to 1024, got '%s'", option, arg);
    *(int *)dst = (int)n;
    return 0;
}

int br_cli_even_count(size_t *out, const char *option, const char *arg, long max,
                      const char *pairing) {
    char *end;
    long n = strtol(arg, &end, 10);
    if (!arg[0] || *end || n < 2 || n > max || n % 2 != 0)
        return br_error_set("%s expects an even number from 2 to %ld (%s), got '%s'", option, max,
                            pairing, arg);
    *out = (size_t)n;
    return 0;
}

int br_cli_file(void *dst, const char *option, const char *arg) {
    if (!arg[0])
        return br_error_set("%s expects a file name", option);
    if (strcmp(arg, "-") == 0)
        return br_error_set("%s expects a file name, not '-'", option);
    *(const char **)dst = arg;
    return 0;
}

int br_cli_dir(void *dst, const char *option, const char *arg) {
    if (!arg[0])
        return br_error_set("%s expects a directory name", option);
    *(const char **)dst = arg;
    return 0;
}

int br_cli_cpu(void *dst, const char *option, const char *arg) {
    int *cpu = dst;
    if (strcmp(arg, "off") == 0) {
        *cpu = -1;
        return 0;
    }
    char *end;
    long n = strtol(arg, &end, 10);
    if (!arg[0] || *end || n < 0 || n >= BR_CPU_MAX)
        return br_error_set("%s expects a CPU number or 'off', found '%s'", option, arg);
    br_cpu_choice c;
    if (br_cpu_choose(&c, NULL, NULL, (int)n) != 0)
        return -1;
    *cpu = (int)n + 1;
    return 0;
}

int br_cli_devices(void *dst, const char *option, const char *arg) {
    (void)option; /* br_devices_parse's messages name --devices */
    int idx[BR_DEVSCHED_MAX_SLOTS], all;
    size_t n;
    if (br_devices_parse(idx, &n, &all, arg) != 0)
        return -1;
    *(const char **)dst = arg;
    return 0;
}

int br_cli_shard(void *dst, const char *option, const char *arg) {
    (void)option;
    br_shard_opts *o = dst;
    return br_shard_parse(&o->index, &o->count, arg);
}

int br_cli_shard_times(void *dst, const char *option, const char *arg) {
    br_shard_opts *o = dst;
    if (!arg[0])
        return br_error_set("%s expects a results file", option);
    const char **v = realloc(o->times, (o->n_times + 1) * sizeof *v);
    if (!v)
        return br_error_nomem();
    o->times = v;
    o->times[o->n_times++] = arg;
    return 0;
}
