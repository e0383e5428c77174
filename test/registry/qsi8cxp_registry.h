// SPDX-License-Identifier: Apache-2.0
// The variants of matmul_clamp_f32_qai8dxp_qsi8cxp, generated from kai/kernels.bzl (through
// kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp_qsi8cxp_interface.h"

namespace kai_registry {

// One kernel variant and the packers that feed it.
struct Qsi8cxpVariant {
    const char* name;    // full kernel name (kai_matmul_clamp_f32_...)
    uint32_t features;   // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel ukernel;
    // Packers: LHS kai_run_lhs_quant_pack_qai8dxp_f32 with (mr, kr, sr) = the getters; RHS
    // kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon or ..._kxn_... with (nr, kr, sr) = the getters.
    const char* lhs_packer;
    const char* rhs_packer_nxk;
    const char* rhs_packer_kxn;
};

// Every variant in kai/kernels.bzl's qsi8cxp section, in list order.
const std::vector<Qsi8cxpVariant>& qsi8cxp_variants();

}  // namespace kai_registry
