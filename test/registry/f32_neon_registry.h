// SPDX-License-Identifier: Apache-2.0
// The f32 NEON GEMM kernels and their RHS packers (family f32_neon), generated from kai/kernels.bzl (through
// kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p/kai_matmul_clamp_f32_f32_f32p_interface.h"

namespace kai_registry {

// A kernel: unpacked f32 LHS, f32pNx1biasf32 RHS packed with the getters' (nr, kr, sr).
struct F32NeonVariant {
    const char* name;
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_f32_f32_f32p_ukernel ukernel;
};

// A kxn RHS packer of the family.
struct F32NeonRhsPacker {
    const char* name;
    uint32_t features;
    size_t (*get_n_step)(void);
    size_t (*get_rhs_offset)(size_t n_idx);
    size_t (*get_bias_offset)(size_t n_idx);
    size_t (*get_rhs_packed_offset)(size_t n_idx, size_t k);
    size_t (*get_rhs_packed_size)(size_t n, size_t k);
    void (*run)(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride,
                const void* rhs, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
                const void* params);
};

const std::vector<F32NeonVariant>& f32_neon_variants();
const std::vector<F32NeonRhsPacker>& f32_neon_rhs_packers();

}  // namespace kai_registry
