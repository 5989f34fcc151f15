/* SPDX-License-Identifier: Apache-2.0 */
/* The measurement settings: defaults, layers, the one check
 * of their rules, and the command line's option values (settings.h). */
#include "settings.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define FIELD(m) offsetof(br_measure_settings, m), sizeof(((br_measure_settings *)0)->m)

/* One row per setting: its names, its kind and where it lives. */
static const struct {
    const char *key;    /* suite key */
    const char *option; /* command-line option */
    br_setting_kind kind;
    size_t offset, size; /* of the field in br_measure_settings */
} fields[BR_SETTING_COUNT] = {
    [BR_SETTING_MIN_SAMPLES] = {"min_samples", "--min-samples", BR_KIND_COUNT,
                                FIELD(cfg.min_samples)},
    [BR_SETTING_MIN_TIME] = {"min_time", "--min-time", BR_KIND_DURATION, FIELD(cfg.min_time_ns)},
    [BR_SETTING_MAX_NOISE] = {"max_noise", "--max-noise", BR_KIND_FRACTION, FIELD(cfg.max_noise)},
    [BR_SETTING_TIMEOUT] = {"timeout", "--timeout", BR_KIND_DURATION, FIELD(cfg.timeout_ns)},
    [BR_SETTING_MAX_SAMPLES] = {"max_samples", "--max-samples", BR_KIND_COUNT,
                                FIELD(cfg.max_samples)},
    [BR_SETTING_THROTTLE] = {"throttle", "--throttle", BR_KIND_FRACTION, FIELD(cfg.throttle)},
    [BR_SETTING_HOLD] = {"hold", "--no-hold", BR_KIND_FLAG, FIELD(cfg.hold)},
    [BR_SETTING_MODE] = {"mode", "--mode", BR_KIND_MODE, FIELD(cfg.mode)},
    [BR_SETTING_HEADLINE] = {"headline", "--headline", BR_KIND_MODE, FIELD(cfg.headline)},
    [BR_SETTING_WARMUP] = {"warmup", "--warmup", BR_KIND_DURATION, FIELD(warmup_ns)},
    [BR_SETTING_CACHE] = {"cache", "--cache", BR_KIND_CACHE, FIELD(cache)},
    [BR_SETTING_WATCHDOG] = {"watchdog", "--watchdog", BR_KIND_DURATION, FIELD(watchdog_ns)},
};

static const br_measure_origins no_origins; /* every field at its default */

/* Defaults of the timing core; see types.h. */
void br_measure_cfg_defaults(br_measure_cfg *out) {
    out->min_samples = BR_DEFAULT_MIN_SAMPLES;
    out->min_time_ns = BR_DEFAULT_MIN_TIME_NS;
    out->max_noise = BR_DEFAULT_MAX_NOISE;
    out->timeout_ns = BR_DEFAULT_TIMEOUT_NS;
    out->max_samples = BR_DEFAULT_MAX_SAMPLES;
    out->throttle = BR_DEFAULT_THROTTLE;
    out->hold = 1;
    out->mode = BR_MODE_COLD;
    out->headline = BR_MODE_COLD;
}

int br_measure_modes(const br_measure_cfg *cfg) {
    return (cfg->mode & BR_MODE_COLD ? 1 : 0) + (cfg->mode & BR_MODE_BATCH ? 1 : 0);
}

void br_measure_settings_defaults(br_measure_settings *out) {
    memset(out, 0, sizeof *out);
    br_measure_cfg_defaults(&out->cfg);
    out->warmup_ns = BR_DEFAULT_WARMUP_NS;
    out->cache = BR_CACHE_FLUSH;
    out->watchdog_ns = BR_DEFAULT_WATCHDOG_NS;
}

void br_measure_origins_init(br_measure_origins *out, const char *path) {
    memset(out, 0, sizeof *out);
    out->path = path;
}

const char *br_setting_key(br_setting f) {
    return fields[f].key;
}

const char *br_setting_option(br_setting f) {
    return fields[f].option;
}

br_setting_kind br_setting_kind_of(br_setting f) {
    return fields[f].kind;
}

int br_setting_find_key(br_setting *out, const char *key) {
    for (size_t f = 0; key && f < COUNT(fields); f++)
        if (strcmp(fields[f].key, key) == 0) {
            *out = (br_setting)f;
            return 0;
        }
    return -1;
}

br_setting_origin br_setting_from_key(br_pos pos, const char *shown) {
    br_setting_origin o = {.source = BR_FROM_SUITE, .pos = pos};
    snprintf(o.shown, sizeof o.shown, "%s", shown ? shown : "");
    return o;
}

br_setting_origin br_setting_from_option(const char *option) {
    br_setting_origin o = {.source = BR_FROM_OPTION, .option = option};
    return o;
}

/* ---------------------------------------------------------------------------
 * One field's range
 */

/* "KEY MESSAGE" at the suite key (or with no position for a default), or
 * "OPTION: MESSAGE" for an option. Returns -1. */
static int field_error(br_setting f, const br_setting_origin *o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int field_error(br_setting f, const br_setting_origin *o, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (o->source == BR_FROM_OPTION)
        return br_error_set("%s: %s", o->option, msg);
    return br_error_at(o->pos, "%s %s", fields[f].key, msg);
}

/* The command line's message for a count out of range. Returns -1. */
static int count_option_error(const char *option, const char *text) {
    return br_error_set("%s: expected a number from 1 to %llu, found '%s'", option,
                        (unsigned long long)BR_MAX_SAMPLES_LIMIT, text);
}

/* min_samples >= 1; max_samples 1 .. BR_MAX_SAMPLES_LIMIT. */
static int check_count(br_setting f, long long n, const br_setting_origin *o) {
    int max = f == BR_SETTING_MAX_SAMPLES;
    if (n >= 1 && (!max || n <= (long long)BR_MAX_SAMPLES_LIMIT))
        return 0;
    if (o->source == BR_FROM_OPTION) {
        char text[32];
        snprintf(text, sizeof text, "%lld", n);
        return count_option_error(o->option, text);
    }
    if (max)
        return field_error(f, o, "must be between 1 and %llu, found %lld",
                           (unsigned long long)BR_MAX_SAMPLES_LIMIT, n);
    return field_error(f, o, "must be at least 1, found %lld", n);
}

/* The value as a message shows it: the suite's text, else the number
 * (durations in ms). */
static const char *shown(char *buf, size_t cap, const br_setting_origin *o, br_setting f,
                         double v) {
    if (o->source == BR_FROM_SUITE && o->shown[0])
        return o->shown;
    if (fields[f].kind == BR_KIND_DURATION)
        snprintf(buf, cap, "%gms", v / 1e6);
    else
        snprintf(buf, cap, "%g", v);
    return buf;
}

/* Durations: timeout and watchdog > 0, the others >= 0. Fractions:
 * max_noise in (0, 1), throttle in [0, 1). */
static int check_real(br_setting f, double v, const br_setting_origin *o) {
    char buf[64];
    if (fields[f].kind == BR_KIND_DURATION) {
        if (f == BR_SETTING_TIMEOUT || f == BR_SETTING_WATCHDOG)
            return v > 0 ? 0 : field_error(f, o, "must be longer than 0");
        return v >= 0 ? 0
                      : field_error(f, o, "cannot be negative, found %s",
                                    shown(buf, sizeof buf, o, f, v));
    }
    if ((v > 0 || (v == 0 && f == BR_SETTING_THROTTLE)) && v < 1)
        return 0;
    /* The suite's message, which the command line also gives (the option
     * standing for the key). */
    const char *name = o->source == BR_FROM_OPTION ? o->option : fields[f].key;
    br_pos at = o->source == BR_FROM_OPTION ? (br_pos){o->option, 0, 0} : o->pos;
    return br_error_at(at,
                       "%s must be a fraction between 0 and 1 or a percentage such as 0.5%%, "
                       "found %s",
                       name, shown(buf, sizeof buf, o, f, v));
}

/* hold 0 or 1; mode cold, batch or both; headline cold or batch; cache a
 * policy. */
static int check_choice(br_setting f, int v, const br_setting_origin *o) {
    switch (f) {
    case BR_SETTING_HOLD:
        return v == 0 || v == 1 ? 0 : field_error(f, o, "must be true or false");
    case BR_SETTING_MODE:
        return v >= BR_MODE_COLD && v <= BR_MODE_BOTH
                   ? 0
                   : field_error(f, o, "must be cold, batch or both");
    case BR_SETTING_HEADLINE:
        return v == BR_MODE_COLD || v == BR_MODE_BATCH ? 0
                                                       : field_error(f, o, "must be cold or batch");
    default: /* BR_SETTING_CACHE */
        return br_name_of(br_cache_names, v, NULL)
                   ? 0
                   : field_error(f, o, "must be flush, warm or flush-memset");
    }
}

/* Field f of *s within its range (o: its origin). */
static int check_field(const br_measure_settings *s, br_setting f, const br_setting_origin *o) {
    const char *p = (const char *)s + fields[f].offset;
    switch (fields[f].kind) {
    case BR_KIND_COUNT: {
        size_t n = *(const size_t *)p;
        return check_count(f, n > (size_t)LLONG_MAX ? LLONG_MAX : (long long)n, o);
    }
    case BR_KIND_DURATION:
    case BR_KIND_FRACTION:
        return check_real(f, *(const double *)p, o);
    case BR_KIND_FLAG:
        return check_choice(f, *(const int *)p, o);
    case BR_KIND_MODE:
        return check_choice(f, (int)*(const br_mode *)p, o);
    default:
        return check_choice(f, (int)*(const br_cache_policy *)p, o);
    }
}

/* ---------------------------------------------------------------------------
 * Layers
 */

void br_measure_layer_init(br_measure_layer *out) {
    memset(out, 0, sizeof *out);
}

int br_measure_layer_has(const br_measure_layer *l, br_setting f) {
    return (unsigned)f < BR_SETTING_COUNT && ((l->set >> f) & 1u);
}

/* The origin to word an error with. */
static const br_setting_origin *origin_or_default(const br_setting_origin *from) {
    return from ? from : &no_origins.of[0];
}

/* Set field f of l, of kind `kind`, to the value at v (of f's size), from
 * `from`, once it is in range. */
static int set(br_measure_layer *l, br_setting f, br_setting_kind kind, const void *v,
               const br_setting_origin *from) {
    static const char *const kinds[] = {"a count", "a duration", "a fraction",
                                        "a flag",  "a mode",     "a cache policy"};
    if ((unsigned)f >= BR_SETTING_COUNT || fields[f].kind != kind)
        return br_error_set("br_measure_layer_set: setting %d is not %s", (int)f, kinds[kind]);
    br_measure_settings value = l->value;
    memcpy((char *)&value + fields[f].offset, v, fields[f].size);
    if (check_field(&value, f, origin_or_default(from)) < 0)
        return -1;
    l->value = value;
    l->from[f] = *origin_or_default(from);
    l->set |= 1u << f;
    return 0;
}

int br_measure_layer_set_count(br_measure_layer *l, br_setting f, long long n,
                               const br_setting_origin *from) {
    /* Below 1 is out of range for every count, and has no size_t. */
    if (n < 1 && (unsigned)f < BR_SETTING_COUNT && fields[f].kind == BR_KIND_COUNT)
        return check_count(f, n, origin_or_default(from));
    size_t v = (size_t)n;
    return set(l, f, BR_KIND_COUNT, &v, from);
}

int br_measure_layer_set_time(br_measure_layer *l, br_setting f, double ns,
                              const br_setting_origin *from) {
    return set(l, f, BR_KIND_DURATION, &ns, from);
}

int br_measure_layer_set_fraction(br_measure_layer *l, br_setting f, double v,
                                  const br_setting_origin *from) {
    return set(l, f, BR_KIND_FRACTION, &v, from);
}

int br_measure_layer_set_flag(br_measure_layer *l, br_setting f, int on,
                              const br_setting_origin *from) {
    return set(l, f, BR_KIND_FLAG, &on, from);
}

int br_measure_layer_set_mode(br_measure_layer *l, br_setting f, br_mode m,
                              const br_setting_origin *from) {
    return set(l, f, BR_KIND_MODE, &m, from);
}

int br_measure_layer_set_cache(br_measure_layer *l, br_cache_policy p,
                               const br_setting_origin *from) {
    return set(l, BR_SETTING_CACHE, BR_KIND_CACHE, &p, from);
}

void br_measure_settings_apply(br_measure_settings *s, br_measure_origins *o,
                               const br_measure_layer *l) {
    for (size_t f = 0; f < COUNT(fields); f++) {
        if (!br_measure_layer_has(l, (br_setting)f))
            continue;
        memcpy((char *)s + fields[f].offset, (const char *)&l->value + fields[f].offset,
               fields[f].size);
        if (o)
            o->of[f] = l->from[f];
    }
    br_measure_cfg *m = &s->cfg;
    if (br_measure_layer_has(l, BR_SETTING_MODE) && !br_measure_layer_has(l, BR_SETTING_HEADLINE) &&
        !(m->mode & m->headline)) {
        m->headline = m->mode == BR_MODE_BATCH ? BR_MODE_BATCH : BR_MODE_COLD;
        if (o)
            o->of[BR_SETTING_HEADLINE] = o->of[BR_SETTING_MODE];
    }
}

/* ---------------------------------------------------------------------------
 * The rules between fields
 */

typedef enum rule { RULE_HEADLINE, RULE_SAMPLES, RULE_TIME } rule;

/* The two fields of each rule. */
static const br_setting rule_fields[][2] = {
    [RULE_HEADLINE] = {BR_SETTING_HEADLINE, BR_SETTING_MODE},
    [RULE_SAMPLES] = {BR_SETTING_MIN_SAMPLES, BR_SETTING_MAX_SAMPLES},
    [RULE_TIME] = {BR_SETTING_MIN_TIME, BR_SETTING_TIMEOUT},
};

static int broken(rule r, const br_measure_cfg *m) {
    switch (r) {
    case RULE_HEADLINE:
        return !(m->mode & m->headline);
    case RULE_SAMPLES:
        return m->min_samples > m->max_samples;
    default:
        return m->min_time_ns > m->timeout_ns;
    }
}

static int from_suite(const br_measure_origins *o, br_setting f) {
    return o->of[f].source == BR_FROM_SUITE;
}

static int by_option(const br_measure_origins *o, rule r) {
    return o->of[rule_fields[r][0]].source == BR_FROM_OPTION ||
           o->of[rule_fields[r][1]].source == BR_FROM_OPTION;
}

/* Where the suite's message for rule r stands: the first of its fields
 * that the suite gave, else the file. */
static br_pos rule_pos(const br_measure_origins *o, rule r) {
    for (int i = 0; i < 2; i++)
        if (from_suite(o, rule_fields[r][i]))
            return o->of[rule_fields[r][i]].pos;
    return (br_pos){o->path, 0, 0};
}

/* min_time > timeout, as the suite words it: by which of the two it gave. */
static int time_error_suite(const br_measure_cfg *m, const br_measure_origins *o) {
    char mb[64], tb[64];
    const br_setting_origin *mo = &o->of[BR_SETTING_MIN_TIME], *to = &o->of[BR_SETTING_TIMEOUT];
    const char *mq = shown(mb, sizeof mb, mo, BR_SETTING_MIN_TIME, m->min_time_ns);
    const char *tq = shown(tb, sizeof tb, to, BR_SETTING_TIMEOUT, m->timeout_ns);
    int has_min = from_suite(o, BR_SETTING_MIN_TIME),
        has_timeout = from_suite(o, BR_SETTING_TIMEOUT);
    if (has_min && has_timeout)
        return br_error_at(mo->pos, "min_time %s is longer than timeout %s", mq, tq);
    if (has_min)
        return br_error_at(mo->pos, "min_time %s is longer than the default timeout (%gs)", mq,
                           BR_DEFAULT_TIMEOUT_NS / 1e9);
    if (has_timeout)
        return br_error_at(to->pos, "timeout %s is shorter than the default min_time (%gms)", tq,
                           BR_DEFAULT_MIN_TIME_NS / 1e6);
    return br_error_at(rule_pos(o, RULE_TIME), "min_time (%g ms) is longer than timeout (%g ms)",
                       m->min_time_ns / 1e6, m->timeout_ns / 1e6);
}

/* Rule r broken by suite (or default) values: the suite loader's message. */
static int rule_error_suite(rule r, const br_measure_cfg *m, const br_measure_origins *o) {
    switch (r) {
    case RULE_HEADLINE:
        return br_error_at(rule_pos(o, r), "headline '%s' is not measured: mode is '%s'",
                           br_mode_name(m->headline), br_mode_name(m->mode));
    case RULE_SAMPLES:
        return br_error_at(rule_pos(o, r), "min_samples (%zu) is larger than max_samples (%zu)",
                           m->min_samples, m->max_samples);
    default:
        return time_error_suite(m, o);
    }
}

/* Rule r broken with a command-line value: the command line's message,
 * naming the suite file and the options. */
static int rule_error_option(rule r, const br_measure_cfg *m, const br_measure_origins *o) {
    br_pos at = {o->path, 0, 0};
    switch (r) {
    case RULE_HEADLINE:
        return br_error_at(at, "headline '%s' is not measured: mode is '%s' (--headline, --mode)",
                           br_mode_name(m->headline), br_mode_name(m->mode));
    case RULE_SAMPLES:
        return br_error_at(at,
                           "min_samples (%zu) is larger than max_samples (%zu) "
                           "(--min-samples, --max-samples)",
                           m->min_samples, m->max_samples);
    default:
        return br_error_at(at,
                           "min_time (%g ms) is longer than timeout (%g ms) (--min-time, "
                           "--timeout)",
                           m->min_time_ns / 1e6, m->timeout_ns / 1e6);
    }
}

int br_measure_settings_check(const br_measure_settings *s, const br_measure_origins *o) {
    /* The suite loader checked samples before time; the command line's
     * overlay time before samples. Rules the suite breaks alone come first:
     * before, the suite failed to load before any option was applied. */
    static const rule order[2][3] = {{RULE_HEADLINE, RULE_SAMPLES, RULE_TIME},
                                     {RULE_HEADLINE, RULE_TIME, RULE_SAMPLES}};
    if (!o)
        o = &no_origins;
    for (size_t f = 0; f < COUNT(fields); f++)
        if (check_field(s, (br_setting)f, &o->of[f]) < 0)
            return -1;
    for (int option = 0; option < 2; option++)
        for (size_t i = 0; i < COUNT(order[0]); i++) {
            rule r = order[option][i];
            if (by_option(o, r) != option || !broken(r, &s->cfg))
                continue;
            return option ? rule_error_option(r, &s->cfg, o) : rule_error_suite(r, &s->cfg, o);
        }
    return 0;
}

/* ---------------------------------------------------------------------------
 * The command line's option values
 */

int br_setting_text_is_off(const char *text) {
    return text && (strcmp(text, "0") == 0 || strcmp(text, "0%") == 0);
}

/* A decimal count from 1 to BR_MAX_SAMPLES_LIMIT. */
static int parse_count(long long *out, const char *option, const char *text) {
    char *end;
    errno = 0;
    long long n = strtoll(text, &end, 10);
    if (*end || end == text || errno || n < 1 || n > (long long)BR_MAX_SAMPLES_LIMIT)
        return count_option_error(option, text);
    *out = n;
    return 0;
}

/* flush, warm or flush-memset. */
static int parse_cache(br_cache_policy *out, const char *option, const char *text) {
    int v = 0;
    if (br_name_find(&v, br_cache_names, text) < 0)
        return br_error_set("%s: unknown cache policy '%s' (expected flush, warm or "
                            "flush-memset)",
                            option, text);
    *out = (br_cache_policy)v;
    return 0;
}

int br_measure_layer_parse(br_measure_layer *l, br_setting f, const char *text,
                           const br_setting_parsers *p) {
    if ((unsigned)f >= BR_SETTING_COUNT)
        return br_error_set("br_measure_layer_parse: no setting %d", (int)f);
    const char *option = fields[f].option;
    br_setting_origin from = br_setting_from_option(option);
    const char *t = text ? text : "";
    double x = 0;
    switch (fields[f].kind) {
    case BR_KIND_COUNT: {
        long long n = 0;
        return parse_count(&n, option, t) < 0 ? -1 : br_measure_layer_set_count(l, f, n, &from);
    }
    case BR_KIND_DURATION:
        return p->duration(&x, option, t) < 0 ? -1 : br_measure_layer_set_time(l, f, x, &from);
    case BR_KIND_FRACTION:
        if (f == BR_SETTING_THROTTLE && br_setting_text_is_off(t))
            return br_measure_layer_set_fraction(l, f, 0, &from);
        return p->fraction(&x, option, t) < 0 ? -1 : br_measure_layer_set_fraction(l, f, x, &from);
    case BR_KIND_FLAG:
        return br_measure_layer_set_flag(l, f, 0, &from);
    case BR_KIND_MODE: {
        br_mode m = BR_MODE_COLD;
        if (p->mode(&m, option, t, f == BR_SETTING_MODE) < 0)
            return -1;
        return br_measure_layer_set_mode(l, f, m, &from);
    }
    default: {
        br_cache_policy c = BR_CACHE_FLUSH;
        return parse_cache(&c, option, t) < 0 ? -1 : br_measure_layer_set_cache(l, c, &from);
    }
    }
}
