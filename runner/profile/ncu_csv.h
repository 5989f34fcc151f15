/* SPDX-License-Identifier: Apache-2.0 */
/* The launches of an Nsight Compute report printed as
 * `ncu --csv --page raw` (with or without --print-units base): the metrics
 * that `benchrun profile` reads, in base units.
 *
 * The format (Nsight Compute CLI documentation, "Console Output" and
 * "--page raw"): a header row of quoted column names ("ID", "Process ID",
 * ..., "Kernel Name", ..., then one column per metric, named as the metric),
 * a row of units ("" for the leading columns; "nsecond", "byte", "%",
 * "Kbyte", "usecond", ... for metrics), then one row per profiled kernel
 * launch. Fields are quoted; numbers may carry thousands separators
 * ("1,073,741,824"). ncu's own lines ("==PROF== ...") and the profiled
 * program's output may come before and after the table: the table starts at
 * the first line that begins with "ID", and ends at the first line after it
 * that does not begin with a quote.
 */
#ifndef BR_NCU_CSV_H
#define BR_NCU_CSV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The metrics benchrun asks ncu for, comma-separated as --metrics takes them. */
#define BR_NCU_METRICS                                                                             \
    "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,"                           \
    "sm__warps_active.avg.pct_of_peak_sustained_active,"                                           \
    "sm__throughput.avg.pct_of_peak_sustained_elapsed,"                                            \
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,"                            \
    "lts__t_sector_hit_rate.pct," BR_NCU_PIPE_METRICS

/* The pipes' utilisation, as one regular expression (ncu's --metrics takes
 * "regex:" entries, matched against the full metric names): the Tensor pipe
 * (Volta and Turing's sm__pipe_tensor; the HMMA (fp16, bf16, tf32, fp8 on
 * sm_89), IMMA (int8), DMMA (fp64) pipes of sm_80 and later; sm_90's GMMA,
 * wgmma), the FMA, FP16 and FP64 pipes of the CUDA cores, and sm_90's IMMA
 * instruction rate. Which of them a GPU has differs by architecture (ncu
 * --query-metrics); a name it lacks is simply not in the report (NAN), and
 * sm__pipe_fma_cycles_active, which every GPU since Volta has, keeps the
 * expression matching on every GPU. */
#define BR_NCU_PIPE_METRICS                                                                        \
    "regex:sm__(pipe_(tensor|tensor_op_hmma|tensor_op_imma|tensor_op_dmma|tensor_op_gmma|fma|"     \
    "fp16|fp64)_cycles_active|inst_executed_pipe_tensor_op_imma)"                                  \
    "\\.avg\\.pct_of_peak_sustained_active$"

/* One profiled kernel launch. A metric the report lacks (or gives as "n/a")
 * is NAN. */
typedef struct br_ncu_launch {
    char *kernel;            /* owned: the "Kernel Name" column, as ncu printed it */
    double duration_ns;      /* gpu__time_duration.sum, ns */
    double dram_read_bytes;  /* dram__bytes_read.sum, bytes */
    double dram_write_bytes; /* dram__bytes_write.sum, bytes */
    double occupancy_pct;    /* sm__warps_active.avg.pct_of_peak_sustained_active: achieved
                                occupancy, % of the SM's warp slots */
    double sm_pct;           /* sm__throughput.avg.pct_of_peak_sustained_elapsed, % */
    double mem_pct;          /* gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed */
    double l2_hit_pct;       /* lts__t_sector_hit_rate.pct, % */
    /* Pipe utilisation, % of the pipe's peak over the SMs' active cycles
     * (sm__pipe_<P>_cycles_active.avg.pct_of_peak_sustained_active; NAN where
     * the GPU has no such pipe metric): */
    double tensor_pct;    /* sm__pipe_tensor (Volta, Turing: every Tensor op) */
    double hmma_pct;      /* sm__pipe_tensor_op_hmma: fp16, bf16, tf32 (fp8 on sm_89) */
    double imma_pct;      /* sm__pipe_tensor_op_imma: int8 */
    double imma_inst_pct; /* sm__inst_executed_pipe_tensor_op_imma (instructions, sm_90) */
    double dmma_pct;      /* sm__pipe_tensor_op_dmma: fp64 Tensor */
    double gmma_pct;      /* sm__pipe_tensor_op_gmma: sm_90's wgmma, every type */
    double fma_pct;       /* sm__pipe_fma: fp32 (and fp16x2 where no fp16 pipe) */
    double fp16_pct;      /* sm__pipe_fp16 */
    double fp64_pct;      /* sm__pipe_fp64: fp64 on the CUDA cores */
} br_ncu_launch;

/* Every launch of a report, in the report's order. */
typedef struct br_ncu_report {
    br_ncu_launch *launches; /* owned */
    size_t n;
} br_ncu_report;

/* Parse ncu's output text[0..len) (not necessarily NUL-terminated), read
 * from the file `name` (for messages), into *out (zeroed first). A report
 * with a header but no launch gives n == 0. Returns 0, or -1 with the error
 * set at the file, line and column ("NAME:L:C: ..."; the column is the
 * byte where the field or the fault starts): no table,
 * no "Kernel Name" column, a row with another number of fields than the
 * header, a metric value that is not a number, a unit not known (time:
 * nsecond, usecond, msecond, second; bytes: byte, Kbyte, Mbyte, Gbyte,
 * Tbyte, powers of 1000 as ncu prints them; percentages: %). *out is
 * disposed on failure. */
int br_ncu_parse(br_ncu_report *out, const char *text, size_t len, const char *name);

/* Release what *r owns; accepts NULL. */
void br_ncu_report_dispose(br_ncu_report *r);

#ifdef __cplusplus
}
#endif
#endif
