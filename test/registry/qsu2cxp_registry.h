// SPDX-License-Identifier: Apache-2.0
// The variants of matmul_clamp_f32_qai8dxp_qsu2cxp, generated from kai/kernels.bzl (through
// kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsu2cxp/kai_matmul_clamp_f32_qai8dxp_qsu2cxp_interface.h"

namespace kai_registry {

// One kernel variant and the packers that feed it.
struct Qsu2cxpVariant {
    const char* name;    // full kernel name (kai_matmul_clamp_f32_...)
    uint32_t features;   // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_ukernel ukernel;
    // Packers: LHS kai_run_lhs_quant_pack_qai8dxp_f32 with (mr, kr, sr) = the getters; RHS rhs_packer with
    // (nr, kr, sr) = the getters.
    const char* lhs_packer;
    const char* rhs_packer;
};

// Every variant in kai/kernels.bzl's qsu2cxp section, in list order.
const std::vector<Qsu2cxpVariant>& qsu2cxp_variants();

}  // namespace kai_registry
