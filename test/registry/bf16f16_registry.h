// SPDX-License-Identifier: Apache-2.0
// The kernel and packers of family bf16f16 (BF16 arithmetic on f16 data: the f16-output GEMM
// matmul_clamp_f16_bf16p_bf16p and the f16-input packers), generated from kai/kernels.bzl
// (through kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f16_bf16p_bf16p/kai_matmul_clamp_f16_bf16p_bf16p_interface.h"

namespace kai_registry {

// An LHS packer: kai_run_lhs_pack_bf16p8x4_f16_neon (f16 rows -> the bf16p8x4 layout).
struct Bf16F16LhsPacker {
    const char* name;
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    size_t (*get_m_step)(size_t mr);
    size_t (*get_lhs_offset)(size_t m_idx, size_t lhs_stride);
    size_t (*get_lhs_packed_offset)(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);
    size_t (*get_lhs_packed_size)(size_t m, size_t k, size_t mr, size_t kr, size_t sr);
    void (*run)(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
                size_t lhs_stride, void* lhs_packed);
};

// An RHS packer from f16 weights: kai_run_rhs_pack_{kxn,nxk}_bf16p12x4bias{f16,f32}_f16_neon.
// biasf16 packers feed the f16-output kernel, biasf32 ones the f32- and bf16-output kernels.
struct Bf16F16RhsPacker {
    const char* name;
    uint32_t features;
    bool nxk;        // true: the input is N x K (one row per output column); false: K x N
    bool bias_f16;   // true: bf16p12x4biasf16 (f16 bias, 2 bytes); false: bf16p12x4biasf32
    size_t (*get_n_step)(void);
    size_t (*get_bias_offset)(size_t n_idx);
    size_t (*get_rhs_packed_offset)(size_t n_idx, size_t k);
    size_t (*get_rhs_packed_size)(size_t n, size_t k);
    void (*run)(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride,
                const void* rhs, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
                const void* params);
};

// A kernel: dst holds f16 patterns (2 bytes, dst_stride_col = 2); its packed RHS comes from a
// biasf16 packer, its packed LHS from any bf16p8x4 LHS packer.
struct Bf16F16Variant {
    const char* name;
    uint32_t features;
    kai_matmul_clamp_f16_bf16p_bf16p_ukernel ukernel;
};

const std::vector<Bf16F16Variant>& bf16f16_variants();
const std::vector<Bf16F16LhsPacker>& bf16f16_lhs_packers();
const std::vector<Bf16F16RhsPacker>& bf16f16_rhs_packers();

}  // namespace kai_registry
