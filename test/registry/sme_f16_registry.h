// SPDX-License-Identifier: Apache-2.0
// The f16 SME/SME2 kernels and packers (families f16p_f16p and f16_f16p), generated from kai/kernels.bzl (through
// kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f16_f16_f16p/kai_matmul_clamp_f16_f16_f16p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f16_f16p_f16p/kai_matmul_clamp_f16_f16p_f16p_interface.h"

namespace kai_registry {

struct SmeF16Variant {
    const char* name;
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    bool fclamp;        // SME2 kernel: FCLAMP (a NaN gives the lower bound); SME kernel: FMIN/FMAX (NaN stays)
    kai_matmul_clamp_f16_f16p_f16p_ukernel ukernel;
};

// A GEMV (family f16_f16p). KleidiAI names the LHS-offset getter get_lhs_packed_offset in the SME2 kernel and
// get_lhs_offset in the SME one, so the table leaves ukernel.get_lhs_packed_offset NULL (the suite calls both by
// name).
struct SmeF16GemvVariant {
    const char* name;
    uint32_t features;
    bool fclamp;
    kai_matmul_clamp_f16_f16_f16p_ukernel ukernel;
};

struct SmeF16LhsPacker {
    const char* name;
    uint32_t features;
    size_t (*get_m_step)(size_t mr);
    size_t (*get_lhs_offset)(size_t m_idx, size_t lhs_stride);
    size_t (*get_lhs_packed_offset)(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);
    size_t (*get_lhs_packed_size)(size_t m, size_t k, size_t mr, size_t kr, size_t sr);
    void (*run)(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
                size_t lhs_stride, void* lhs_packed);
};

struct SmeF16RhsPacker {
    const char* name;
    uint32_t features;
    bool kxn;  // K rows of N (else N rows of K)
    size_t (*get_n_step)(void);
    size_t (*get_bias_offset)(size_t n_idx);
    size_t (*get_rhs_packed_stride)(size_t k);
    size_t (*get_rhs_packed_offset)(size_t n_idx, size_t k);
    size_t (*get_rhs_packed_size)(size_t n, size_t k);
    void (*run)(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride,
                const void* rhs, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
                const void* params);
};

const std::vector<SmeF16Variant>& sme_f16_variants();
const std::vector<SmeF16GemvVariant>& sme_f16_gemv_variants();
const std::vector<SmeF16LhsPacker>& sme_f16_lhs_packers();
const std::vector<SmeF16RhsPacker>& sme_f16_rhs_packers();

}  // namespace kai_registry
