// SPDX-License-Identifier: Apache-2.0
// The kernels and packers of the BF16 families (bf16: f32 output and all packers; bf16o: bf16
// output), generated from kai/kernels.bzl (through kai/kai_registry.inc): the one list the tests
// and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p_bf16p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p_bf16p_interface.h"

namespace kai_registry {

// An LHS packer: kai_run_lhs_*_bf16p{8,1}x4_{f32,bf16}_neon.
struct Bf16LhsPacker {
    const char* name;
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    size_t mr;          // 8 (GEMM layout) or 1 (GEMV layout), from the name
    bool bf16_source;   // true: the input is bf16 patterns; false: f32
    size_t (*get_m_step)(size_t mr);
    size_t (*get_lhs_offset)(size_t m_idx, size_t lhs_stride);
    size_t (*get_lhs_packed_offset)(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);
    size_t (*get_lhs_packed_size)(size_t m, size_t k, size_t mr, size_t kr, size_t sr);
    void (*run)(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
                size_t lhs_stride, void* lhs_packed);
};

// An RHS packer: kai_run_rhs_*_{kxn,nxk}_bf16p12x4biasf32_{f32,bf16}_neon (all write one layout).
struct Bf16RhsPacker {
    const char* name;
    uint32_t features;
    bool nxk;          // true: the input is N x K (one row per output column); false: K x N
    bool bf16_source;  // true: bf16 patterns; false: f32
    size_t (*get_n_step)(void);
    size_t (*get_bias_offset)(size_t n_idx);
    size_t (*get_rhs_packed_offset)(size_t n_idx, size_t k, size_t nr, size_t kr);
    size_t (*get_rhs_packed_size)(size_t n, size_t k, size_t nr, size_t kr);
    void (*run)(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride,
                const void* rhs, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
                const void* params);
};

// A kernel. Both families' interface structs have the same members and signatures; `ukernel`
// holds the f32-output struct's functions for family bf16 and the bf16-output struct's (stored
// through the identical f32 struct type) for bf16o, whose `dst` holds uint16_t bf16 patterns.
// Any LHS packer with the kernel's mr and any of the RHS packers feed it, with the kr/sr/nr
// from the getters.
struct Bf16Variant {
    const char* name;
    uint32_t features;
    bool bf16_output;  // family bf16o: dst elements are bf16 (2 bytes), dst_stride_col = 2
    kai_matmul_clamp_f32_bf16p_bf16p_ukernel ukernel;
};

const std::vector<Bf16Variant>& bf16_variants();
const std::vector<Bf16LhsPacker>& bf16_lhs_packers();
const std::vector<Bf16RhsPacker>& bf16_rhs_packers();

// Size in bytes of one dst element of the variant (4 or 2).
inline size_t bf16_dst_elem_size(const Bf16Variant& v) {
    return v.bf16_output ? 2 : 4;
}

}  // namespace kai_registry
