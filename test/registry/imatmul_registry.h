// SPDX-License-Identifier: Apache-2.0
// The f32 and f16 indirect GEMM kernels and their packers (families imatmul_f32p, imatmul_f16p), generated from kai/kernels.bzl (through
// kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/imatmul_clamp_f16_f16p_f16p/kai_imatmul_clamp_f16_f16p_f16p_interface.h"
#include "kai/ukernels/matmul/imatmul_clamp_f32_f32p_f32p/kai_imatmul_clamp_f32_f32p_f32p_interface.h"

namespace kai_registry {

struct ImatmulVariant {
    const char* name;
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    bool fclamp;        // SME2 (FCLAMP: NaN -> clamp_min) rather than SME (FMIN then FMAX: NaN stays NaN)
    kai_imatmul_clamp_f32_f32p_f32p_ukernel uk;
};

struct ImatmulLhsPacker {
    const char* name;
    uint32_t features;
    size_t (*get_m_step)(void);
    size_t (*get_lhs_packed_offset)(size_t m_idx, size_t k_chunk_count, size_t k_chunk_length);
    size_t (*get_lhs_packed_size)(size_t m, size_t k_chunk_count, size_t k_chunk_length);
    void (*run)(size_t m, size_t k_chunk_count, size_t k_chunk_length, const void* const* lhs_ptrs,
                size_t lhs_ptr_offset, const void* pad_ptr, void* lhs_packed);
};

struct ImatmulRhsPacker {
    const char* name;
    uint32_t features;
    size_t (*get_n_step)(void);
    size_t (*get_rhs_offset)(size_t n_idx);
    size_t (*get_bias_offset)(size_t n_idx);
    size_t (*get_rhs_packed_stride)(size_t k_chunk_count, size_t k_chunk_length);
    size_t (*get_rhs_packed_offset)(size_t n_idx, size_t k_chunk_count, size_t k_chunk_length);
    size_t (*get_rhs_packed_size)(size_t n, size_t k_chunk_count, size_t k_chunk_length);
    void (*run)(size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs,
                const void* bias, void* rhs_packed);
};

// The f16 indirect GEMM kernels (family imatmul_f16p); their packers have the f32 packers' signatures.
struct ImatmulF16Variant {
    const char* name;
    uint32_t features;
    bool fclamp;  // SME2 (FCLAMP: NaN -> clamp_min) rather than SME (FMIN then FMAX: NaN stays NaN)
    kai_imatmul_clamp_f16_f16p_f16p_ukernel uk;
};

const std::vector<ImatmulVariant>& imatmul_variants();
const std::vector<ImatmulLhsPacker>& imatmul_lhs_packers();
const std::vector<ImatmulRhsPacker>& imatmul_rhs_packers();
const std::vector<ImatmulF16Variant>& imatmul_f16_variants();
const std::vector<ImatmulLhsPacker>& imatmul_f16_lhs_packers();
const std::vector<ImatmulRhsPacker>& imatmul_f16_rhs_packers();

}  // namespace kai_registry
