/* SPDX-License-Identifier: Apache-2.0 */
/* The measurement settings: their defaults, the layers that
 * set them (the suite file, then the command line), and the one check of
 * their rules.
 *
 * The flow: br_measure_settings_defaults, then per source a br_measure_layer
 * (each set value range-checked as it is set, and remembering where it came
 * from: a suite key's position or an option's name), applied in order with
 * br_measure_settings_apply (later layers win), then br_measure_settings_check
 * for the rules between fields. Messages are those the suite loader and the
 * command line gave before the settings were one module: a value from the
 * suite is named at its file:line:column, one from the command line by its
 * option. */
#ifndef BR_SETTINGS_H
#define BR_SETTINGS_H

#include <stddef.h>

#include "base/error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill *out with the defaults of types.h (hold on, mode and headline cold). */
void br_measure_cfg_defaults(br_measure_cfg *out);

/* The measurements a case takes under cfg: 2 for BR_MODE_BOTH (cold, then
 * batch), 1 for BR_MODE_COLD or BR_MODE_BATCH. What the time budget plans for and the watchdog
 * allows. */
int br_measure_modes(const br_measure_cfg *cfg);

/* What the timing core needs of one suite's settings, in one place. */
typedef struct br_measure_settings {
    br_measure_cfg cfg;
    double warmup_ns;      /* warmup time budget per case, ns (>= 0) */
    br_cache_policy cache; /* what happens to the caches between cold samples */
    double watchdog_ns;    /* time a case may run past its warmup and timeouts before it is
                              killed, ns (> 0) */
} br_measure_settings;

/* One setting: a field of br_measure_settings. The order is the order in
 * which br_measure_settings_check reports bad values. */
typedef enum br_setting {
    BR_SETTING_MIN_SAMPLES = 0, /* cfg.min_samples: a count */
    BR_SETTING_MIN_TIME,        /* cfg.min_time_ns: a duration */
    BR_SETTING_MAX_NOISE,       /* cfg.max_noise: a fraction */
    BR_SETTING_TIMEOUT,         /* cfg.timeout_ns: a duration */
    BR_SETTING_MAX_SAMPLES,     /* cfg.max_samples: a count */
    BR_SETTING_THROTTLE,        /* cfg.throttle: a fraction, 0 turns the check off */
    BR_SETTING_HOLD,            /* cfg.hold: a flag */
    BR_SETTING_MODE,            /* cfg.mode: a mode (cold, batch or both) */
    BR_SETTING_HEADLINE,        /* cfg.headline: a mode (cold or batch) */
    BR_SETTING_WARMUP,          /* warmup_ns: a duration */
    BR_SETTING_CACHE,           /* cache: a cache policy */
    BR_SETTING_WATCHDOG,        /* watchdog_ns: a duration */
    BR_SETTING_COUNT
} br_setting;

/* The kind of a setting's value, which says which setter and which
 * command-line parser it takes. */
typedef enum br_setting_kind {
    BR_KIND_COUNT = 0, /* size_t; set with br_measure_layer_set_count */
    BR_KIND_DURATION,  /* double, ns; br_measure_layer_set_time */
    BR_KIND_FRACTION,  /* double; br_measure_layer_set_fraction */
    BR_KIND_FLAG,      /* int 0/1; br_measure_layer_set_flag */
    BR_KIND_MODE,      /* br_mode; br_measure_layer_set_mode */
    BR_KIND_CACHE      /* br_cache_policy; br_measure_layer_set_cache */
} br_setting_kind;

/* The suite key of a setting ("min_samples"; static), its command-line
 * option ("--min-samples"; static; hold's is "--no-hold") and its kind.
 * f must be below BR_SETTING_COUNT. */
const char *br_setting_key(br_setting f);
const char *br_setting_option(br_setting f);
br_setting_kind br_setting_kind_of(br_setting f);

/* The setting whose suite key is `key` into *out. Returns 0, or -1 when no
 * setting has that key (*out untouched; no error is set). */
int br_setting_find_key(br_setting *out, const char *key);

/* Where a setting's value came from. */
typedef enum br_setting_source {
    BR_FROM_DEFAULT = 0, /* types.h's default (or set with no origin) */
    BR_FROM_SUITE = 1,   /* a key of the suite file */
    BR_FROM_OPTION = 2   /* a command-line option */
} br_setting_source;

/* Longest text kept of a value as messages show it, including the NUL
 * (the suite loader's quoted form fits). */
#define BR_SETTING_SHOWN_MAX 64

typedef struct br_setting_origin {
    br_setting_source source;
    br_pos pos;         /* BR_FROM_SUITE: where the value stands (path borrowed) */
    const char *option; /* BR_FROM_OPTION: the option, e.g. "--min-time" (borrowed) */
    /* BR_FROM_SUITE: the value as the suite's messages show it ("20s",
     * "'x'"), cut to fit; "" when not known (messages then write the value) */
    char shown[BR_SETTING_SHOWN_MAX];
} br_setting_origin;

/* An origin at a suite key: the value's position and its shown text (may
 * be NULL). */
br_setting_origin br_setting_from_key(br_pos pos, const char *shown);

/* An origin at a command-line option (borrowed; e.g. "--min-time"). */
br_setting_origin br_setting_from_option(const char *option);

/* Where each field of one br_measure_settings came from. A zeroed struct is
 * every field at its default, with no path. */
typedef struct br_measure_origins {
    /* the suite the settings are for (borrowed; may be NULL): messages about
     * rules that a command-line value breaks name it, without a line */
    const char *path;
    br_setting_origin of[BR_SETTING_COUNT];
} br_measure_origins;

/* Fill *out with the defaults (br_measure_cfg_defaults, BR_DEFAULT_WARMUP_NS,
 * BR_CACHE_FLUSH, BR_DEFAULT_WATCHDOG_NS). */
void br_measure_settings_defaults(br_measure_settings *out);

/* Every field at its default origin, messages naming `path` (borrowed; may
 * be NULL). */
void br_measure_origins_init(br_measure_origins *out, const char *path);

/* The settings one source gives: the fields in `set`, each with where it
 * came from. A zeroed layer (or br_measure_layer_init) sets nothing. */
typedef struct br_measure_layer {
    br_measure_settings value; /* only the fields in `set` mean anything */
    unsigned set;              /* bit (1u << f) for each br_setting f the layer sets */
    br_setting_origin from[BR_SETTING_COUNT]; /* per field in `set`: where it came from */
} br_measure_layer;

/* A layer that sets nothing. */
void br_measure_layer_init(br_measure_layer *out);

/* Whether layer l sets field f (1 or 0; 0 for an f out of range). */
int br_measure_layer_has(const br_measure_layer *l, br_setting f);

/* Set field f of layer l to a value of f's kind, from `from` (copied; NULL:
 * BR_FROM_DEFAULT). The value is checked against f's range first:
 *   min_samples >= 1; max_samples 1 .. BR_MAX_SAMPLES_LIMIT;
 *   timeout and watchdog > 0; min_time and warmup >= 0;
 *   max_noise in (0, 1); throttle in [0, 1) (0: off);
 *   hold 0 or 1; mode cold, batch or both; headline cold or batch;
 *   cache a br_cache_policy.
 * A value out of range leaves l unchanged and sets the error as the source
 * words it: at the suite key ("s.yaml:5:16: min_samples must be at least 1,
 * found 0", "...: timeout must be longer than 0") or naming the option
 * ("--timeout: must be longer than 0", "--min-samples: expected a number
 * from 1 to 10000000, found '0'"). Returns 0, or -1 with the error set (also
 * when f is not of the setter's kind). */
int br_measure_layer_set_count(br_measure_layer *l, br_setting f, long long n,
                               const br_setting_origin *from);
int br_measure_layer_set_time(br_measure_layer *l, br_setting f, double ns,
                              const br_setting_origin *from);
int br_measure_layer_set_fraction(br_measure_layer *l, br_setting f, double v,
                                  const br_setting_origin *from);
int br_measure_layer_set_flag(br_measure_layer *l, br_setting f, int on,
                              const br_setting_origin *from);
int br_measure_layer_set_mode(br_measure_layer *l, br_setting f, br_mode m,
                              const br_setting_origin *from);
int br_measure_layer_set_cache(br_measure_layer *l, br_cache_policy p,
                               const br_setting_origin *from);

/* Put layer l over *s: every field l sets replaces s's, and its origin
 * replaces o's (o may be NULL). A mode set without a headline keeps the
 * headline while the new mode measures it, else makes it the mode's own
 * (batch for batch, cold for cold and both; its origin becomes the mode's).
 * Over the defaults this is the suite's rule for a missing headline. */
void br_measure_settings_apply(br_measure_settings *s, br_measure_origins *o,
                               const br_measure_layer *l);

/* Check *s, whose fields came from where *o says (NULL: all defaults): each
 * field's range (as the setters), then the rules between fields:
 *   the headline is measured by the mode; min_samples <= max_samples;
 *   min_time <= timeout.
 * A rule broken by suite values alone is worded as the suite loader words
 * it, at the suite key ("s.yaml:5:13: min_time 20s is longer than timeout
 * 10s", "... than the default timeout (3s)", "timeout 5ms is shorter than
 * the default min_time (2ms)"), and these come first, in that order; a rule
 * that a command-line value breaks names the suite file and the options
 * ("s.yaml: min_time (20 ms) is longer than timeout (10 ms) (--min-time,
 * --timeout)"), in the order headline, time, samples. Call it after each
 * layer that must stand on its own (the suite's; then the command line's).
 * Returns 0, or -1 with the error set. */
int br_measure_settings_check(const br_measure_settings *s, const br_measure_origins *o);

/* --- the command line: option values --------------------------------------- */

/* Whether an option or suite value spells "off" for a fraction that may be
 * 0 (throttle, --threshold): "0" or "0%". Returns 1 or 0. */
int br_setting_text_is_off(const char *text);

/* The suite's scalar readers (suite/suite.h: br_parse_duration,
 * br_parse_fraction, br_parse_mode), handed in by the command line: results/
 * does not include suite/. Each returns 0, or -1 with the error set naming
 * the option. */
typedef struct br_setting_parsers {
    int (*duration)(double *out_ns, const char *option, const char *text);
    int (*fraction)(double *out, const char *option, const char *text);
    int (*mode)(br_mode *out, const char *option, const char *text, int both_ok);
} br_setting_parsers;

/* Parse `text`, the value of field f's option (br_setting_option(f)), and
 * set it in l from that option: a count is a decimal from 1 to
 * BR_MAX_SAMPLES_LIMIT; a duration, a fraction (throttle: also "0" and
 * "0%", off) and a mode go through p (the headline's mode excludes "both");
 * a cache policy is flush, warm or flush-memset; a flag's option turns it
 * off (--no-hold; text is ignored and may be NULL). The messages are the
 * command line's ("--cache: unknown cache policy 'x' (expected flush, warm
 * or flush-memset)"). Returns 0, or -1 with the error set (l unchanged). */
int br_measure_layer_parse(br_measure_layer *l, br_setting f, const char *text,
                           const br_setting_parsers *p);

#ifdef __cplusplus
}
#endif
#endif
