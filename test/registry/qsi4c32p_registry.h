// SPDX-License-Identifier: Apache-2.0
// The variants of matmul_clamp_f32_qai8dxp_qsi4c32p, generated from kai/kernels.bzl (through
// kai/kai_registry.inc): the one list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp_qsi4c32p_interface.h"

namespace kai_registry {

// One kernel variant and the packers that feed it.
struct Qsi4c32pVariant {
    const char* name;    // full kernel name (kai_matmul_clamp_f32_...)
    uint32_t features;   // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel ukernel;
    // Packers: LHS kai_run_lhs_quant_pack_qai8dxp_f32 with (mr, kr, sr) = the getters; RHS
    // kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0 or ..._kxn_... with (nr, kr, sr) = the getters,
    // the kernel's bl and scale_dt = kai_dt_bf16.
    const char* lhs_packer;
    const char* rhs_packer_nxk;
    const char* rhs_packer_kxn;
};

// Every variant in kai/kernels.bzl's qsi4c32p section, in list order.
// The NEON kernels (the packers above).
const std::vector<Qsi4c32pVariant>& qsi4c32p_variants();

// The SME2 kernels (the "_sme2_" names), in list order: they read the SME-side RHS layout (docs/formats.md,
// "qsi4c32ps1s0nrx4 RHS": kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon or its kxn twin) at the SVL of the
// calling thread, and are tested by test/tests/qsi4c32p_sme_test.cc under the SME2 emulator.
const std::vector<Qsi4c32pVariant>& qsi4c32p_sme2_variants();

}  // namespace kai_registry
