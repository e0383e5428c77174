// SPDX-License-Identifier: Apache-2.0
// What the benchmark runner times: one BenchCase per (kernel or packer or pipeline, shape).
// Family adapters (benchmark/bench_<family>.cc) build cases from the family's registry in
// test/registry, so the benchmark and the tests iterate the same table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kai_bench {

struct Shape {
    size_t m = 0, n = 0, k = 0;
    std::string str() const { return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k); }
};

struct Options {
    std::vector<Shape> shapes;  // --shape (empty: the default LLM-shaped suite)
    size_t bl = 32;             // --bl: block length of the block-wise families
    unsigned threads = 1;       // --threads
    int repetitions = 0;        // --repetitions (0: until min_time)
    double min_time = 0.2;      // --min-time, seconds
    bool emulated = false;      // --emulated, or detected
};

// How a case splits its output over threads, the way an engine would (see threads.h).
struct Split {
    size_t m_step = 1, n_step = 1;
};

struct BenchCase {
    std::string name;    // kernel or packer name
    std::string family;  // registry family
    std::string kind;    // matmul | lhs_packer | rhs_packer | pipeline
    std::string what;    // what one call does: "kernel", "pack+kernel" (per token), "pack"
    Shape shape;
    size_t bl = 0;        // block length (block-wise families), 0 otherwise
    uint32_t features = 0;  // KAI_FEATURE_* the CPU needs
    double ops = 0;       // per call: 2*M*N*K for matmuls and pipelines, elements for packers
    const char* ops_unit = "GFLOP/s";  // GFLOP/s (bf16), GOP/s (int8), Gelem/s (packers)
    double weight_bytes = 0;  // packed weight bytes read per call (0: not reported)
    size_t working_set = 0;   // bytes one call touches (decides the cache regime shown)

    // Allocates and prepares inputs (packing the operands the timed code does not pack).
    // `copies` >= 1 copies of the inputs are made when the runner rotates buffers.
    std::function<void(size_t copies)> setup;
    // One call's share for thread t of T (T == 1: the whole call), on input copy `copy`.
    std::function<void(unsigned t, unsigned T, size_t copy)> run;
    // Checks the output of the last run against the reference; returns "" when correct, else
    // a message. `sampled` asks for a subset of rows and columns (emulation).
    std::function<std::string(bool sampled)> verify;
    // Frees what setup allocated.
    std::function<void()> teardown;
};

// Family adapters: append the cases of one family for the given options.
void add_bf16_cases(const Options& opt, std::vector<BenchCase>& out);
void add_bf16f16_cases(const Options& opt, std::vector<BenchCase>& out);  // BF16 GEMM on f16 data
void add_qsi4cxp_cases(const Options& opt, std::vector<BenchCase>& out);
void add_qsi4c32p_cases(const Options& opt, std::vector<BenchCase>& out);
void add_qsi8d32p_cases(const Options& opt, std::vector<BenchCase>& out);
void add_int4_pack_cases(const Options& opt, std::vector<BenchCase>& out);  // nrx4 / nrx8 and SME-layout int4 packers
void add_qsi8cxp_cases(const Options& opt, std::vector<BenchCase>& out);
void add_sme_float_cases(const Options& opt, std::vector<BenchCase>& out);
void add_sme_f16_cases(const Options& opt, std::vector<BenchCase>& out);
void add_qsi4cxpf16_cases(const Options& opt, std::vector<BenchCase>& out);  // f16 output, f16 LHS packer
void add_bf16_qai8dxp_cases(const Options& opt, std::vector<BenchCase>& out);  // bf16 in/out int4
void add_qai4c32p_cases(const Options& opt, std::vector<BenchCase>& out);  // qai4c32p, f16_qai4c32p
void add_f16p_qsi4c32p_cases(const Options& opt, std::vector<BenchCase>& out);  // f16 x Q4_0 SME2 MOPA
void add_kquant_cases(const Options& opt, std::vector<BenchCase>& out);  // GGUF Q4_K / Q6_K
void add_qsu2cxp_cases(const Options& opt, std::vector<BenchCase>& out);  // 2-bit per-channel (llama.cpp)
void add_qai8_static_cases(const Options& opt, std::vector<BenchCase>& out);  // static int8 SME (int8 output)
void add_f32_neon_cases(const Options& opt, std::vector<BenchCase>& out);  // f32 NEON GEMM
void add_imatmul_cases(const Options& opt, std::vector<BenchCase>& out);  // f32 and f16 SME/SME2 indirect GEMM

// Splits [0, total) into T contiguous chunks whose boundaries are multiples of step; returns
// thread t's chunk as [begin, end) (empty when there is not enough work).
inline void split_range(size_t total, size_t step, unsigned t, unsigned T, size_t* begin, size_t* end) {
    const size_t units = (total + step - 1) / step;
    const size_t per = (units + T - 1) / T;
    size_t b = static_cast<size_t>(t) * per * step;
    size_t e = b + per * step;
    if (b > total) b = total;
    if (e > total) e = total;
    *begin = b;
    *end = e;
}

// Splits an M x N output into a 2-D grid of tiles for T threads (rows of m_step multiples,
// columns of n_step multiples) and returns thread t's rectangle.
void split_2d(size_t m, size_t n, size_t m_step, size_t n_step, unsigned t, unsigned T, size_t* m0, size_t* m1,
              size_t* n0, size_t* n1);

}  // namespace kai_bench
