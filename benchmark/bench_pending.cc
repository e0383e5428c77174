// SPDX-License-Identifier: Apache-2.0
// Adapters of the families whose registry has not landed yet: they contribute no case, and the
// runner says so when nothing matches. Each family replaces its line with bench_<family>.cc.
#include "benchmark/bench_case.h"

namespace kai_bench {
void add_bf16_cases(const Options&, std::vector<BenchCase>&) {}
void add_qsi4cxp_cases(const Options&, std::vector<BenchCase>&) {}
void add_qsi4c32p_cases(const Options&, std::vector<BenchCase>&) {}
void add_qsi8d32p_cases(const Options&, std::vector<BenchCase>&) {}
}  // namespace kai_bench
