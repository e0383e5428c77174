// SPDX-License-Identifier: Apache-2.0
// The variants of matmul_clamp_f16_qai8dxp_qsi8cxp (int8 per-channel weights, f16 output),
// generated from kai/kernels.bzl (through kai/kai_registry.inc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp/kai_matmul_clamp_f16_qai8dxp_qsi8cxp_interface.h"

namespace kai_registry {

// One kernel variant; its packers: LHS kai_run_lhs_quant_pack_qai8dxp_f16_neon (or _f32) with
// (mr, kr, sr) = the getters, RHS kai_run_rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon with (nr, kr, sr).
struct Qsi8cxpF16Variant {
    const char* name;    // full kernel name (kai_matmul_clamp_f16_...)
    uint32_t features;   // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_f16_qai8dxp_qsi8cxp_ukernel ukernel;
};

// Every variant in kai/kernels.bzl's qsi8cxpf16 entries, in list order.
const std::vector<Qsi8cxpF16Variant>& qsi8cxpf16_variants();

}  // namespace kai_registry
