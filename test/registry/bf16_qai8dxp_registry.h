// SPDX-License-Identifier: Apache-2.0
// The bf16-output int4 kernels (families bf16_qsi4cxp and bf16_qsi4c32p of kai/kernels.bzl,
// through kai/kai_registry.inc): the one list the tests and the benchmark iterate. Their LHS comes
// from kai_lhs_quant_pack_qai8dxp_bf16_neon (bf16 activations) or _f32, their RHS from the
// unchanged qsi4cxp / qsi4c32p packers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4c32p/kai_matmul_clamp_bf16_qai8dxp_qsi4c32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4cxp/kai_matmul_clamp_bf16_qai8dxp_qsi4cxp_interface.h"

namespace kai_registry {

// A per-channel (qsi4cxp) bf16-output kernel.
struct Bf16CxVariant {
    const char* name;   // full kernel name
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_bf16_qai8dxp_qsi4cxp_ukernel ukernel;
};

// A block-wise (qsi4c32p) bf16-output kernel.
struct Bf16C32Variant {
    const char* name;
    uint32_t features;
    kai_matmul_clamp_bf16_qai8dxp_qsi4c32p_ukernel ukernel;
};

// Every kernel of the two families, in list order.
const std::vector<Bf16CxVariant>& bf16_qsi4cxp_variants();
const std::vector<Bf16C32Variant>& bf16_qsi4c32p_variants();

}  // namespace kai_registry
