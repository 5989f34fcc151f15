/* SPDX-License-Identifier: Apache-2.0 */
/* Energy windows (measure/energy.h) over a simulated NVML counter: a GPU
 * drawing constant power whose counter is updated every 100 ms, bursts of
 * 5 ms; and the path of a machine without NVML (this one: the driver's
 * libnvidia-ml.so.1 is not installed). */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "base/error.h"
#include "platform/energy.h"

typedef struct sim {
    double t_ns;      /* simulated time */
    double watts;     /* drawn while bursts run */
    double update_ns; /* the counter's update interval */
    double burst_ns;  /* one burst */
    double per_burst; /* executions per burst */
    int frozen;       /* 1: the counter never changes */
    int backwards;    /* 1: the counter goes back after its first update */
    size_t reads;
} sim;

/* The counter: the energy drawn up to the last update, mJ. */
static int sim_read(void *p, unsigned long long *mj) {
    sim *s = p;
    s->reads++;
    double last_update = floor(s->t_ns / s->update_ns) * s->update_ns;
    double joules = s->frozen ? 0.0 : s->watts * last_update / 1e9;
    if (s->backwards && last_update >= 2 * s->update_ns)
        joules = 0.0;
    *mj = 1000000ull + (unsigned long long)llround(joules * 1e3);
    return 0;
}

static double sim_now(void *p) {
    return ((sim *)p)->t_ns;
}

static int sim_burst(void *p, double *executions) {
    sim *s = p;
    s->t_ns += s->burst_ns;
    *executions += s->per_burst;
    return 0;
}

static sim h100_triad(void) {
    /* 400 W, a burst of 5 ms runs 5 executions of 1 ms: 0.4 J each. */
    return (sim){
        .t_ns = 37e6, .watts = 400.0, .update_ns = 100e6, .burst_ns = 5e6, .per_burst = 5.0};
}

Test(energy, windows_bounded_by_counter_updates_give_joules_and_watts) {
    sim s = h100_triad();
    br_energy_probe p = {sim_read, sim_now, sim_burst, &s};
    br_energy e;
    cr_assert_eq(br_energy_windows(&e, &p, 3, 1e9, 2e9), 0, "%s", br_error_get());
    cr_assert(e.present);
    cr_assert_eq(e.windows, 3);
    cr_assert_float_eq(e.watts, 400.0, 1e-9);
    cr_assert_float_eq(e.j_per_exec, 0.4, 1e-12);
    cr_assert_float_eq(e.spread, 0.0, 1e-12);
    cr_assert(e.window_ns >= 1e9 && e.window_ns <= 1.1e9, "%g ns", e.window_ns);
    cr_assert_float_eq(e.executions, e.window_ns / 1e6, 1e-6);
}

Test(energy, a_window_is_never_shorter_than_asked) {
    /* 25 ms bursts against a 100 ms counter: edges fall on updates, so a
     * window is a whole number of updates, at least ten. */
    sim s = h100_triad();
    s.burst_ns = 25e6;
    s.per_burst = 25.0;
    br_energy_probe p = {sim_read, sim_now, sim_burst, &s};
    br_energy e;
    cr_assert_eq(br_energy_windows(&e, &p, 2, 1e9, 2e9), 0, "%s", br_error_get());
    cr_assert(e.window_ns >= 1e9);
    cr_assert_float_eq(e.watts, 400.0, 1e-9);
    cr_assert_float_eq(e.j_per_exec, 0.4, 1e-12);
}

Test(energy, a_counter_that_never_moves_is_an_error) {
    sim s = h100_triad();
    s.frozen = 1;
    br_energy_probe p = {sim_read, sim_now, sim_burst, &s};
    br_energy e;
    cr_assert_eq(br_energy_windows(&e, &p, 3, 1e9, 2e9), -1);
    cr_assert_str_eq(br_error_get(), "the energy counter did not change in 2000 ms");
    cr_assert_not(e.present);
}

Test(energy, a_counter_that_goes_back_is_an_error) {
    sim s = h100_triad();
    s.backwards = 1;
    br_energy_probe p = {sim_read, sim_now, sim_burst, &s};
    br_energy e;
    cr_assert_eq(br_energy_windows(&e, &p, 3, 1e9, 2e9), -1);
    cr_assert(strstr(br_error_get(), "went backwards"), "%s", br_error_get());
}

Test(energy, window_count_is_checked) {
    sim s = h100_triad();
    br_energy_probe p = {sim_read, sim_now, sim_burst, &s};
    br_energy e;
    cr_assert_eq(br_energy_windows(&e, &p, 0, 1e9, 2e9), -1);
}

Test(energy, work_per_joule) {
    br_energy e = {.present = 1, .j_per_exec = 0.4};
    /* A triad of 2^28 doubles: 6 GiB per execution, 0.4 J: 16.1 GB/J. */
    cr_assert_float_eq(br_energy_per_joule(24.0 * (1 << 28), &e), 24.0 * (1 << 28) / 0.4 / 1e9,
                       1e-9);
    cr_assert(isnan(br_energy_per_joule(NAN, &e)));
    e.present = 0;
    cr_assert(isnan(br_energy_per_joule(1e9, &e)));
}

/* On a machine without libnvidia-ml.so.1 (no driver), NVML is reported
 * missing with the loader's reason, and the counter cannot be opened;
 * skipped on a machine that has it. */
Test(energy, without_nvml_it_says_why) {
    char why[512];
    if (br_energy_available(why, sizeof why))
        cr_skip_test("this machine has NVML: the missing-NVML path is not exercised");
    cr_assert(strstr(why, "libnvidia-ml.so.1") || strstr(why, "without CUDA"), "%s", why);
    cr_assert_null(br_energy_nvml("GPU-00000000-0000-0000-0000-000000000000"));
    cr_assert(strstr(br_error_get(), "NVML not available (") ||
                  strstr(br_error_get(), "without CUDA"),
              "%s", br_error_get());
}
