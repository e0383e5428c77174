// SPDX-License-Identifier: Apache-2.0
// The part of a matmul benchmark that every family shares: splitting the output over threads,
// the kernel-alone and pack+kernel ("per token") cases, the sampled verification. A family
// implements MatmulProblem (inputs, packers, one tile, reference) and calls add_matmul_cases.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "benchmark/bench_case.h"

namespace kai_bench {

class MatmulProblem {
public:
    virtual ~MatmulProblem() = default;
    virtual size_t m_step() const = 0;
    virtual size_t n_step() const = 0;
    virtual size_t mr() const = 0;  // LHS packer's row granule
    // Makes random inputs, packs `copies` copies of the RHS and the LHS once (not timed).
    virtual void prepare(size_t copies) = 0;
    // Packs LHS rows [m0, m1) (m0 a multiple of mr) into the packed LHS.
    virtual void pack_lhs(size_t m0, size_t m1) = 0;
    // Computes the output tile [m0, m1) x [n0, n1) from RHS copy `copy`.
    virtual void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) = 0;
    // Compares the output on the given rows and columns with the reference; "" when correct.
    virtual std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) = 0;
    // Bytes of packed weights one call reads, and of everything it touches.
    virtual double packed_rhs_bytes() const = 0;
    virtual void release() = 0;
};

// A reusable barrier for the threads of one call (the pack-then-compute pipeline rows).
class SpinBarrier {
public:
    void reset(unsigned n) {
        n_ = n;
        count_.store(0);
    }
    void wait() {
        const unsigned gen = gen_.load(std::memory_order_acquire);
        if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) {
            count_.store(0, std::memory_order_relaxed);
            gen_.fetch_add(1, std::memory_order_acq_rel);
            return;
        }
        while (gen_.load(std::memory_order_acquire) == gen) std::this_thread::yield();
    }

private:
    unsigned n_ = 1;
    std::atomic<unsigned> count_{0};
    std::atomic<unsigned> gen_{0};
};

// Adds a "kernel" case and, when `pipeline_what` is not empty, a per-token case that also
// quantizes/packs the activations (what = pipeline_what, e.g. "qai8dxp pack+kernel") for one
// variant and shape. `make` builds a fresh problem (called lazily at setup).
void add_matmul_cases(const Options& opt, const std::string& kernel_name, const std::string& pipeline_what,
                      const std::string& family, uint32_t features, const Shape& shape, size_t bl, const char* ops_unit,
                      std::function<std::unique_ptr<MatmulProblem>()> make, std::vector<BenchCase>& out);

// A packer case: `pack(begin, end)` packs rows (LHS) or columns (RHS) [begin, end) of an extent
// split over threads in multiples of `granule`.
struct PackerSpec {
    std::string name, family, kind;  // kind: lhs_packer | rhs_packer
    uint32_t features = 0;
    Shape shape;                     // m or n in .m/.n, depth in .k
    size_t bl = 0;                   // block length (block-wise packers)
    double elements = 0;             // elements (LHS) or weights (RHS) per call
    size_t extent = 0, granule = 1;
    std::function<void()> prepare;
    std::function<void(size_t begin, size_t end)> pack;
    std::function<std::string(bool sampled)> check;
    std::function<void()> release;
};
void add_packer_case(const PackerSpec& spec, std::vector<BenchCase>& out);

// Bit-exact comparison of the sampled outputs dst[rows[i]][cols[j]] (row stride ld elements)
// with ref[i * cols.size() + j]; "" when equal, else the first difference.
std::string compare_sampled_bits(const float* dst, size_t ld, const std::vector<size_t>& rows,
                                 const std::vector<size_t>& cols, const std::vector<float>& ref);

// Byte comparison (mask: 0 = unspecified byte); "" when equal, else `what` and the first difference.
std::string compare_bytes(const uint8_t* got, const uint8_t* want, size_t n, const uint8_t* mask, const char* what);

// Rows and columns to verify: all of them, or a sample (first, last, and spread) under emulation.
std::vector<size_t> sample_indices(size_t count, bool sampled, size_t max_samples);

// n rows of Q4_0 blocks (k / bl of them, bl / 2 + 2 bytes each) as a GGUF file stores them: random nibbles,
// small random f16 scales (bench_qsi8d32p.cc; the qsi8d32p and f16p_qsi4c32p adapters read the same rows).
std::vector<uint8_t> random_q4_0_rows(size_t n, size_t k, size_t bl, uint64_t seed);

// The shapes of the default suite for a kernel (decode for GEMV kernels, prefill otherwise),
// or the ones given with --shape that the kernel accepts.
std::vector<Shape> suite_shapes(const Options& opt, bool gemv, bool bf16);

}  // namespace kai_bench
