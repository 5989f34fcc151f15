// SPDX-License-Identifier: Apache-2.0
// The Google Benchmark anchor of scripts/bench-overhead.sh: one benchmark
// that stores a counter, as the trivial host kernel of the speed fixture
// does, swept over i = 1..BENCH_CASES (default 100) as one family
// (DenseRange), the way a benchrun suite sweeps a parameter; registered at
// run time so that one binary serves every count. (Families of one case
// each make Google Benchmark's listing quadratic: 8000 took 20 s.) Run
// with its own flags, e.g. --benchmark_min_time=0.001 or
// --benchmark_list_tests.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>

static void trivial(benchmark::State &state) {
    volatile std::uint64_t runs = 0;
    for (auto _ : state)
        runs = runs + 1;
}

int main(int argc, char **argv) {
    const char *env = std::getenv("BENCH_CASES");
    long n = env ? std::atol(env) : 100;
    benchmark::RegisterBenchmark("trivial", trivial)->ArgName("i")->DenseRange(1, n);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
