// SPDX-License-Identifier: Apache-2.0
// The variants of matmul_clamp_f16_qai8dxp_qsi4cxp (int4 per-channel weights, f16 output),
// generated from kai/kernels.bzl (through kai/kai_registry.inc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi4cxp/kai_matmul_clamp_f16_qai8dxp_qsi4cxp_interface.h"

namespace kai_registry {

// One kernel variant; its packers: LHS kai_run_lhs_quant_pack_qai8dxp_f16_neon (or _f32) with
// (mr, kr, sr) = the getters, RHS kai_run_rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0 with (nr, kr, sr).
struct Qsi4cxpF16Variant {
    const char* name;    // full kernel name (kai_matmul_clamp_f16_...)
    uint32_t features;   // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_f16_qai8dxp_qsi4cxp_ukernel ukernel;
};

// Every variant in kai/kernels.bzl's qsi4cxpf16 entries, in list order.
const std::vector<Qsi4cxpF16Variant>& qsi4cxpf16_variants();

}  // namespace kai_registry
