/* SPDX-License-Identifier: Apache-2.0 */
/* The compute peak table (flops.h). */
#include "flops.h"

#include <math.h>
#include <stdio.h>

#include "device.h"

/* A cell of the table: > 0 FLOP (or OP) per SM per clock; LACKS: the GPU has
 * no such unit; HAS: it has them, the rate is not in the table (no guess);
 * UNK: not known whether it has them. */
#define LACKS 0
#define HAS   (-1)
#define UNK   (-2)

/* The dense precisions, in br_precision order from BR_PRECISION_FP64. */
enum { FP64, FP32, FP16, BF16, FP64T, TF32T, FP16T, BF16T, FP8T, INT8T, N_DENSE };

/* One compute capability (minor -1: every minor of that major). FP32 is
 * not a column: it is br_device_fp32_lanes_per_sm x 2 (device.h, the
 * Programming Guide's table), so the two never disagree. sparse: the
 * Tensor Cores run 2:4 structured sparsity at twice the dense rate (the
 * Ampere GA100 whitepaper, "Fine-Grained Structured Sparsity", and each
 * later whitepaper). The CUDA-core rates are the Guide's "Number of Results
 * per Clock Cycle per Multiprocessor" x 2 (an FMA is 2 FLOP); the Tensor Core
 * rates are the whitepaper's per-SM dense FMA per clock x 2, which its
 * product tables (TFLOPS = rate x SMs x boost clock) confirm. */
typedef struct flops_row {
    int major, minor;
    const char *source;
    int sparse;
    int rate[N_DENSE]; /* FP32 ignored (see above) */
} flops_row;

/* Columns: FP64, (FP32), FP16, BF16 | FP64T, TF32T, FP16T, BF16T, FP8T, INT8T. */
static const flops_row rows[] = {
    /* V100: 32 FP64 units per SM; 8 Tensor Cores x 64 FP16 FMA per clock;
     * V100 SXM2 (80 SMs, 1530 MHz): 7.8 FP64, 15.7 FP32, 125 Tensor TFLOPS. */
    {7,
     0,
     "NVIDIA Tesla V100 GPU Architecture whitepaper (Volta, 2017), table 1; CUDA C++ "
     "Programming Guide, Arithmetic Instructions, 7.x",
     0,
     {64, 0, 256, LACKS, LACKS, LACKS, 1024, LACKS, LACKS, LACKS}},
    /* Turing: FP64 at 1/32 of FP32; 8 Tensor Cores x 64 FP16 FMA; INT8 at
     * twice FP16 (T4: 40 SMs, 1590 MHz: 65 FP16, 130 INT8 Tensor). */
    {7,
     5,
     "NVIDIA Turing GPU Architecture whitepaper (TU102/TU104, 2018), appendix A and the "
     "Tesla T4 column; CUDA C++ Programming Guide, Arithmetic Instructions, 7.5",
     0,
     {4, 0, 256, LACKS, LACKS, LACKS, 1024, LACKS, LACKS, 2048}},
    /* A100 (GA100; 108 SMs, 1410 MHz): 9.7 FP64, 19.5 FP64 Tensor, 19.5 FP32,
     * 78 FP16, 39 BF16, 156 TF32, 312 FP16/BF16, 624 INT8 (TOPS). */
    {8,
     0,
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (Ampere GA100, 2020), tables 1 "
     "and 3; CUDA C++ Programming Guide, Arithmetic Instructions, 8.0",
     1,
     {64, 0, 512, 256, 128, 1024, 2048, 2048, LACKS, 4096}},
    /* GA102 (A40: 84 SMs, 1740 MHz: 37.4 FP32, 74.8 TF32, 149.7 FP16/BF16,
     * 299.3 INT8): FP64 at 1/64 of FP32; FP16 and BF16 on the CUDA cores at
     * the FP32 rate; Tensor Cores half GA100's per SM. */
    {8,
     6,
     "NVIDIA Ampere GA102 GPU Architecture whitepaper (2020), appendix A (RTX A6000/A40 "
     "columns); CUDA C++ Programming Guide, Arithmetic Instructions, 8.6",
     1,
     {4, 0, 256, 256, LACKS, 512, 1024, 1024, LACKS, 2048}},
    /* Jetson Orin (GA10B): GA100-class Tensor Cores per SM (AGX Orin 64GB:
     * 16 SMs, 1300 MHz: 170 sparse INT8 TOPS); the CUDA-core FP64/FP16/BF16
     * rates are not in the Guide's table: not guessed. */
    {8,
     7,
     "NVIDIA Jetson AGX Orin Series technical brief (2022), GPU specifications; CUDA C++ "
     "Programming Guide (FP32)",
     1,
     {UNK, 0, UNK, UNK, LACKS, 1024, 2048, 2048, LACKS, 4096}},
    /* Ada AD102 (L40S: 142 SMs, 2520 MHz: 91.6 FP32, 183 TF32, 366 FP16/BF16
     * (the datasheet prints 362.05 dense, 733 sparse), 733 FP8, 733 INT8):
     * 4th-generation Tensor Cores with FP8; FP64 at 1/64 of FP32. */
    {8,
     9,
     "NVIDIA Ada GPU Architecture whitepaper (AD102, 2022), appendix A (RTX 6000 Ada "
     "column); NVIDIA L40S datasheet; CUDA C++ Programming Guide, Arithmetic "
     "Instructions, 8.9",
     1,
     {4, 0, 256, 256, LACKS, 512, 1024, 1024, 2048, 2048}},
    /* H100 SXM5 (132 SMs; FP64/FP32 at 1980 MHz, Tensor at 1830 MHz): 33.5
     * FP64, 66.9 FP64 Tensor, 66.9 FP32, 133.8 FP16/BF16, 494.7 TF32, 989.4
     * FP16/BF16, 1978.9 FP8 and INT8 (dense). */
    {9,
     0,
     "NVIDIA H100 Tensor Core GPU Architecture whitepaper (Hopper GH100, 2022), tables 2 "
     "and 3; CUDA C++ Programming Guide, Arithmetic Instructions, 9.0",
     1,
     {128, 0, 512, 512, 256, 2048, 4096, 4096, 8192, 8192}},
    /* B200 (148 SMs; Tensor figures at about 1860 MHz): 2.25 PFLOPS FP16/
     * BF16, 4.5 FP8, 4.5 POPS INT8 (dense; 2x sparse); FP64 Tensor Cores at
     * the FP64 rate. */
    {10,
     0,
     "NVIDIA Blackwell Architecture Technical Brief (2024); NVIDIA DGX B200 / HGX B200 "
     "datasheets; CUDA C++ Programming Guide, Arithmetic Instructions, 10.x",
     1,
     {128, 0, 512, 512, 128, 4096, 8192, 8192, 16384, 16384}},
    /* Blackwell Ultra (B300): NVIDIA cut FP64 and INT8 and publishes no
     * per-SM rates: the Tensor Core formats are there, their rates not
     * guessed. */
    {10,
     3,
     "NVIDIA Blackwell Ultra (B300) product pages: formats only; CUDA C++ Programming "
     "Guide (FP32)",
     1,
     {UNK, 0, UNK, UNK, UNK, HAS, HAS, HAS, HAS, UNK}},
    /* Jetson Thor, RTX 50 / RTX PRO Blackwell, GB10: 5th-generation Tensor
     * Cores (FP8 and sparsity) without published per-SM rates; FP64 on the
     * CUDA cores at 1/64 of FP32 (2 results per clock in the Guide, 12.x). */
    {11,
     0,
     "CUDA C++ Programming Guide (FP32); Jetson Thor product brief: formats only",
     1,
     {UNK, 0, UNK, UNK, LACKS, HAS, HAS, HAS, HAS, HAS}},
    {12,
     -1,
     "NVIDIA RTX Blackwell GPU Architecture whitepaper (GB202, 2025): formats; CUDA C++ "
     "Programming Guide, Arithmetic Instructions, 12.x",
     1,
     {4, 0, 256, 256, LACKS, HAS, HAS, HAS, HAS, HAS}},
};

static const flops_row *row_of(int major, int minor) {
    if (major <= 0 || minor < 0)
        return NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].major == major && (rows[i].minor == -1 || rows[i].minor == minor))
            return &rows[i];
    return NULL;
}

/* The table's cell for p on row r (the dense cell of a sparse precision,
 * LACKS for sparse where the row has no sparsity); UNK outside the enum. */
static int cell(const flops_row *r, int major, int minor, br_precision p, int *sparse) {
    *sparse = p >= BR_PRECISION_TF32_TENSOR_SPARSE && p <= BR_PRECISION_INT8_TENSOR_SPARSE;
    if (*sparse) {
        if (!r->sparse)
            return LACKS;
        p = (br_precision)(p - BR_PRECISION_TF32_TENSOR_SPARSE + BR_PRECISION_TF32_TENSOR);
    }
    if (p == BR_PRECISION_NONE || p == BR_PRECISION_FP32) {
        int lanes = br_device_fp32_lanes_per_sm(major, minor);
        return lanes > 0 ? 2 * lanes : UNK;
    }
    if (p < BR_PRECISION_FP64 || p > BR_PRECISION_INT8_TENSOR)
        return UNK;
    return r->rate[p - BR_PRECISION_FP64];
}

int br_flops_has(int cc_major, int cc_minor, br_precision p) {
    const flops_row *r = row_of(cc_major, cc_minor);
    int sparse = 0;
    int v = r ? cell(r, cc_major, cc_minor, p, &sparse) : UNK;
    return v == UNK ? -1 : v == LACKS ? 0 : 1;
}

double br_flops_per_sm_clock(int cc_major, int cc_minor, br_precision p) {
    const flops_row *r = row_of(cc_major, cc_minor);
    int sparse = 0;
    int v = r ? cell(r, cc_major, cc_minor, p, &sparse) : UNK;
    if (v == LACKS)
        return 0.0;
    if (v < 0)
        return NAN;
    return (double)v * (sparse ? 2.0 : 1.0);
}

const char *br_flops_source(int cc_major, int cc_minor) {
    const flops_row *r = row_of(cc_major, cc_minor);
    return r ? r->source : NULL;
}

double br_flops_peak_gflops(int cc_major, int cc_minor, int sm_count, double clock_khz,
                            br_precision p) {
    double ops = br_flops_per_sm_clock(cc_major, cc_minor, p);
    if (isnan(ops) || sm_count <= 0 || !isfinite(clock_khz) || clock_khz <= 0)
        return NAN;
    return ops * (double)sm_count * clock_khz * 1e3 / 1e9;
}

double br_flops_device_peak(const br_device *d, br_precision p) {
    if (!d)
        return NAN;
    return br_flops_peak_gflops(d->cc_major, d->cc_minor, d->sm_count, (double)d->sm_clock_khz, p);
}

/* Where precision p is found, for the reason of a skip. */
static const char *where_found(br_precision p) {
    switch (p) {
    case BR_PRECISION_BF16:
    case BR_PRECISION_TF32_TENSOR:
    case BR_PRECISION_BF16_TENSOR:
        return "compute capability 8.0 and later";
    case BR_PRECISION_FP64_TENSOR:
        return "the data-centre GPUs of compute capability 8.0, 9.0 and 10.0";
    case BR_PRECISION_FP16_TENSOR:
        return "compute capability 7.0 and later";
    case BR_PRECISION_INT8_TENSOR:
        return "compute capability 7.5 and later";
    case BR_PRECISION_FP8_TENSOR:
    case BR_PRECISION_FP8_TENSOR_SPARSE:
        return "compute capability 8.9 and later";
    case BR_PRECISION_TF32_TENSOR_SPARSE:
    case BR_PRECISION_FP16_TENSOR_SPARSE:
    case BR_PRECISION_BF16_TENSOR_SPARSE:
    case BR_PRECISION_INT8_TENSOR_SPARSE:
        return "compute capability 8.0 and later (2:4 sparse Tensor Cores)";
    default:
        return "other GPUs of the table";
    }
}

int br_flops_lacks(const br_device *d, br_precision p, char *why, size_t why_len) {
    if (!d || br_flops_has(d->cc_major, d->cc_minor, p) != 0)
        return 0;
    if (why && why_len > 0)
        snprintf(why, why_len, "%s: %s (compute capability %d.%d) lacks it (it is on %s)",
                 br_precision_name(p), d->name[0] ? d->name : "the GPU", d->cc_major, d->cc_minor,
                 where_found(p));
    return 1;
}

void br_flops_record(br_run *r, br_precision p) {
    p = br_precision_effective(p);
    if (!r || !r->has_device || (int)p < 0 || (int)p >= BR_PRECISION_COUNT)
        return;
    const br_device *d = &r->device;
    double ops = br_flops_per_sm_clock(d->cc_major, d->cc_minor, p);
    double gflops = br_flops_device_peak(d, p);
    if (!(ops > 0) || !(gflops > 0) || !isfinite(gflops))
        return;
    br_compute_peak *k = &r->compute_peaks[p];
    k->present = 1;
    k->ops_per_sm_clock = ops;
    k->gflops = gflops;
    k->clock_mhz = d->sm_clock_khz / 1000.0;
    snprintf(k->source, sizeof k->source, "table");
}
