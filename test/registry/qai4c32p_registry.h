// SPDX-License-Identifier: Apache-2.0
// The variants of the asymmetric int4 families matmul_clamp_{f32,f16}_qsi8d32p_qai4c32p and the
// packers that feed them, generated from kai/kernels.bzl (through kai/kai_registry.inc): the one
// list the tests and the benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f16_qsi8d32p_qai4c32p/kai_matmul_clamp_f16_qsi8d32p_qai4c32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qai4c32p/kai_matmul_clamp_f32_qsi8d32p_qai4c32p_interface.h"

namespace kai_registry {

// One kernel variant of either family. Its RHS packer is
// kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon with (nr, kr, sr) = the getters; its LHS
// packers are kai_lhs_quant_pack_qsi8d32pscalef32_{f32,f16}_neon with (mr, kr, sr).
struct Qai4c32pVariant {
    const char* name;   // full kernel name (kai_matmul_clamp_...)
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    bool f16_out;       // dst elements are f16 (2 bytes), else f32
    // The getters (same signatures in both families) and the run function of the output type.
    kai_matmul_clamp_f32_qsi8d32p_qai4c32p_ukernel f32;  // run_matmul NULL for f16 variants
    kai_matmul_clamp_f16_qsi8d32p_qai4c32p_ukernel f16;  // run_matmul NULL for f32 variants
    size_t m_step() const { return f16_out ? f16.get_m_step() : f32.get_m_step(); }
    size_t n_step() const { return f16_out ? f16.get_n_step() : f32.get_n_step(); }
    size_t mr() const { return f16_out ? f16.get_mr() : f32.get_mr(); }
    size_t nr() const { return f16_out ? f16.get_nr() : f32.get_nr(); }
    size_t kr() const { return f16_out ? f16.get_kr() : f32.get_kr(); }
    size_t sr() const { return f16_out ? f16.get_sr() : f32.get_sr(); }
    size_t dst_elem() const { return f16_out ? 2 : 4; }
};

// One LHS packer (f32 or f16 input).
struct Qai4c32pLhsPacker {
    const char* name;
    uint32_t features;
    bool f16_in;  // input rows are f16
    size_t (*get_lhs_packed_size)(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);
    size_t (*get_lhs_packed_offset)(size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);
};

// Every NEON kernel of kai/kernels.bzl's qai4c32p and f16_qai4c32p sections, in list order.
const std::vector<Qai4c32pVariant>& qai4c32p_variants();
// The SME2 kernels of those sections (the "_sme2" names), in list order: they read the SME2-side RHS layout
// (kai_rhs_pack_nxk_qai4c32ps1s0nrx4_*), with mr / nr read from the SVL, so the NEON suite does not pack for them;
// test/tests/qai4c32p_sme_test.cc covers them.
const std::vector<Qai4c32pVariant>& qai4c32p_sme2_variants();
// Both LHS packers, f32 input first.
const std::vector<Qai4c32pLhsPacker>& qai4c32p_lhs_packers();

}  // namespace kai_registry
