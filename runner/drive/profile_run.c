/* SPDX-License-Identifier: Apache-2.0 */
/* Finding ncu and running the processes of benchrun
 * profile (profile_run.h). */
#include "profile_run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/proc.h"
#include "base/util.h"

#define DEFAULT_NCU "/usr/local/cuda/bin/ncu"

static int executable(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *br_profile_find_ncu(void) {
    const char *env = getenv("BENCHRUN_NCU");
    if (env && env[0]) {
        if (executable(env))
            return br_strdup(env);
        br_error_set("BENCHRUN_NCU is '%s', which is not an executable file", env);
        return NULL;
    }
    char *p = br_proc_find("ncu");
    if (p)
        return p;
    if (executable(DEFAULT_NCU))
        return br_strdup(DEFAULT_NCU);
    br_error_set("Nsight Compute's ncu was not found: not on PATH, not in " DEFAULT_NCU
                 ", and BENCHRUN_NCU is not set. Install Nsight Compute (it comes with the CUDA "
                 "Toolkit, or as the package nsight-compute from NVIDIA's repository), then put "
                 "its directory on PATH or set BENCHRUN_NCU=/path/to/ncu");
    return NULL;
}

int br_profile_spawn(const char *const *argv, const char *capture) {
    br_proc_opts o = {.output = capture};
    int st;
    if (br_proc_run(&st, argv, &o) != 0)
        return -1;
    return br_proc_exit_code(st);
}

int br_profile_no_permission(const char *text, size_t len) {
    static const char key[] = "ERR_NVGPUCTRPERM";
    for (size_t i = 0; i + sizeof key - 1 <= len; i++)
        if (memcmp(text + i, key, sizeof key - 1) == 0)
            return 1;
    return 0;
}

const char *br_profile_permission_advice(void) {
    return "Nsight Compute cannot read the GPU's performance counters (ERR_NVGPUCTRPERM): "
           "this user may not profile. Either run benchrun profile as root (sudo), or let every "
           "user profile: load the nvidia kernel module with the option "
           "NVreg_RestrictProfilingToAdminUsers=0 (a line 'options nvidia "
           "NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/, then reboot "
           "or reload the module). See https://developer.nvidia.com/ERR_NVGPUCTRPERM";
}
