// SPDX-License-Identifier: Apache-2.0
// The variants of matmul_clamp_f32_qsi8d32p_qsi4c32p (GGUF Q4_0) and the packers that feed them,
// generated from kai/kernels.bzl (through kai/kai_registry.inc): the one list the tests and the
// benchmark iterate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"

namespace kai_registry {

// One LHS packer of the family (same signatures for both).
struct Qsi8d32pLhsPacker {
    const char* name;   // full packer name (kai_lhs_quant_pack_...)
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    bool ties_to_even;  // data rounding: true for ..._4x8sb_..., false (ties away) otherwise
    size_t (*get_lhs_packed_size)(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);
    size_t (*get_lhs_packed_offset)(size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);
    void (*run)(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
                size_t lhs_stride, void* lhs_packed);
    // Whether the packer accepts (mr, kr, sr): the 4x8sb packer only (4, 16, 2).
    bool accepts(size_t mr, size_t kr, size_t sr) const;
};

// One kernel variant. Its RHS packer is kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0 with
// (nr, kr, sr) = the kernel's getters; its LHS packers are those of qsi8d32p_lhs_packers() that
// accept the kernel's (mr, kr, sr).
struct Qsi8d32pVariant {
    const char* name;   // full kernel name (kai_matmul_clamp_f32_...)
    uint32_t features;  // KAI_FEATURE_* bits the CPU needs
    kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel ukernel;
};

// Every NEON / SVE kernel of kai/kernels.bzl's qsi8d32p section (docs/formats.md, "qsi8d32p matmul" layouts), in list order.
const std::vector<Qsi8d32pVariant>& qsi8d32p_variants();
// The SME / SME2 kernels of the section (LHS kai_lhs_quant_pack_qsi8d32p_f32_neon, RHS
// kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon; nr depends on the SVL), in list order.
const std::vector<Qsi8d32pVariant>& qsi8d32p_sme_variants();
// Every LHS packer of the section that writes the layout of docs/formats.md, "qsi8d32p LHS" (all but
// kai_lhs_quant_pack_qsi8d32p_f32_neon, whose layout only KleidiAI's SME kernels read), in list order.
const std::vector<Qsi8d32pLhsPacker>& qsi8d32p_lhs_packers();
// The LHS packers that can feed variant v.
std::vector<const Qsi8d32pLhsPacker*> qsi8d32p_lhs_packers_for(const Qsi8d32pVariant& v);

}  // namespace kai_registry
