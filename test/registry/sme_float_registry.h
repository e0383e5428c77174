// SPDX-License-Identifier: Apache-2.0
// The f32 and bf16 SME/SME2 kernels and packers (families f32p_f32p, f32_f32p, bf16p_sme, f32_bf16p), generated from
// kai/kernels.bzl (through kai/kai_registry.inc): the one list the tests iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p/kai_matmul_clamp_f32_f32_f32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p/kai_matmul_clamp_f32_f32p_f32p_interface.h"

namespace kai_registry {

// A kernel. Packed-LHS kernels (families f32p_f32p and bf16p_sme; the bf16 interface struct has the same
// members and signatures as the f32p one) fill `packed`; the GEMVs (families f32_f32p and f32_bf16p, whose
// interface structs are alike) fill `gemv`.
struct SmeFloatVariant {
    const char* name;
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    bool bf16;          // RHS packed by the bf16 packer (families bf16p_sme, f32_bf16p)
    bool is_gemv;       // families f32_f32p, f32_bf16p: unpacked f32 LHS, m == 1
    kai_matmul_clamp_f32_f32p_f32p_ukernel packed;
    kai_matmul_clamp_f32_f32_f32p_ukernel gemv;
};

struct SmeFloatLhsPacker {
    const char* name;
    uint32_t features;
    bool bf16;  // bf16p2vlx2 (kr 2) rather than f32p2vlx1 (kr 1)
    size_t (*get_m_step)(size_t mr);
    size_t (*get_lhs_offset)(size_t m_idx, size_t lhs_stride);
    size_t (*get_lhs_packed_offset)(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);
    size_t (*get_lhs_packed_size)(size_t m, size_t k, size_t mr, size_t kr, size_t sr);
    void (*run)(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
                size_t lhs_stride, void* lhs_packed);
};

struct SmeFloatRhsPacker {
    const char* name;
    uint32_t features;
    bool bf16;  // kxn bf16p2vlx2b (kr 2) rather than f32p2vlx1biasf32 (kr 1)
    bool kxn;   // reads a K x N source (every bf16 packer, and the kxn f32 one); else N x K
    size_t (*get_n_step)(void);
    size_t (*get_bias_offset)(size_t n_idx);
    size_t (*get_rhs_packed_stride)(size_t k);
    size_t (*get_rhs_packed_offset)(size_t n_idx, size_t k);
    size_t (*get_rhs_packed_size)(size_t n, size_t k);
    void (*run)(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride,
                const void* rhs, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
                const void* params);
};

const std::vector<SmeFloatVariant>& sme_float_variants();
const std::vector<SmeFloatLhsPacker>& sme_float_lhs_packers();
const std::vector<SmeFloatRhsPacker>& sme_float_rhs_packers();

}  // namespace kai_registry
