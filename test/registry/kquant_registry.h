// SPDX-License-Identifier: Apache-2.0
// The variants of the GGUF K-quant families matmul_clamp_f32_qsi8d256p_q4kp (family q4k) and
// matmul_clamp_f32_qsi8d256p_q6kp (family q6k), generated from kai/kernels.bzl (through
// kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p_q4kp_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p_q6kp_interface.h"

namespace kai_registry {

// One kernel of either family. The two interface structs have the same members and signatures;
// `q4k` says which format (and so which RHS packer: kai_rhs_pack_nxk_q4kp_q4k_neon or
// kai_rhs_pack_nxk_q6kp_q6k_neon). The LHS packer is kai_lhs_quant_pack_qsi8d256p_f32_neon with
// (mr, kr, sr) from the getters.
struct KquantVariant {
    const char* name;   // full kernel name (kai_matmul_clamp_...)
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    bool q4k;           // Q4_K weights, else Q6_K
    kai_matmul_clamp_f32_qsi8d256p_q4kp_ukernel ukernel;  // for Q6_K kernels, the same pointers cast
};

// Every kernel of kai/kernels.bzl's q4k and q6k sections, in list order.
const std::vector<KquantVariant>& kquant_variants();

}  // namespace kai_registry
