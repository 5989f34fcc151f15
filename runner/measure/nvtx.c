/* SPDX-License-Identifier: Apache-2.0 */
/* NVTX ranges in the benchrun domain (nvtx.h). */
#include "nvtx.h"

#include <stddef.h>

#if BR_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>

/* Created once per process (a worker creates its own after the fork: NVTX
 * handles are per process). */
static nvtxDomainHandle_t domain(void) {
    static nvtxDomainHandle_t d;
    if (!d)
        d = nvtxDomainCreateA(BR_NVTX_DOMAIN);
    return d;
}

void br_nvtx_push(const char *name) {
    if (!name)
        return;
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    nvtxDomainRangePushEx(domain(), &a);
}

void br_nvtx_pop(void) {
    nvtxDomainRangePop(domain());
}

int br_nvtx_available(void) {
    return 1;
}

#else

void br_nvtx_push(const char *name) {
    (void)name;
}

void br_nvtx_pop(void) {}

int br_nvtx_available(void) {
    return 0;
}

#endif
