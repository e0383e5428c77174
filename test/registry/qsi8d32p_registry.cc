// SPDX-License-Identifier: Apache-2.0
#include "test/registry/qsi8d32p_registry.h"
#include "test/registry/registry_select.h"

#include <cstring>
#include <iterator>

#include "test/common/cpu_features.h"

// The family's headers (explicit, so that other families' code is not needed to build this).
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_4x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32_neon.h"

namespace kai_registry {

namespace {

// Keep only this family's entries: KAI_KEEP_IF (test/registry/registry_select.h) keeps
// KAI_Q40_<kind>_<family> for the family flagged _KEEP, qsi8d32p.
#define KAI_Q40_MATMUL_qsi8d32p(stem, features)                                                                \
    {"kai_" #stem,                                                                                            \
     (features),                                                                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}},

#define KAI_Q40_MATMUL_qsi8d32p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_Q40_MATMUL_##family##_KEEP, KAI_Q40_MATMUL_##family(stem, features))

const Qsi8d32pVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_Q40_LHS_qsi8d32p(stem, features) \
    {"kai_" #stem, (features), std::strstr(#stem, "sb_") != nullptr, kai_get_lhs_packed_size_##stem, \
     kai_get_lhs_packed_offset_##stem, kai_run_##stem},

#define KAI_Q40_LHS_qsi8d32p_KEEP KAI_KEEP
#define KAI_REGISTRY_LHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_Q40_LHS_##family##_KEEP, KAI_Q40_LHS_##family(stem, features))

const Qsi8d32pLhsPacker kLhsPackers[] = {
#include "kai/kai_registry.inc"
};

}  // namespace

bool Qsi8d32pLhsPacker::accepts(size_t mr, size_t kr, size_t sr) const {
    if (std::strstr(name, "4x8sb") != nullptr) return mr == 4 && kr == 16 && sr == 2;
    return true;
}

// The SME kernels read the layouts of spec §11.5 / §14.1 (scales after the data, vector-length dependent nr),
// which the NEON / SVE suite does not pack: qsi8d32p_sme_test covers them.
static bool is_sme(const Qsi8d32pVariant& v) {
    return std::strstr(v.name, "_sme") != nullptr;
}

const std::vector<Qsi8d32pVariant>& qsi8d32p_variants() {
    static const std::vector<Qsi8d32pVariant> v = [] {
        std::vector<Qsi8d32pVariant> out;
        for (const Qsi8d32pVariant& k : kVariants) {
            if (!is_sme(k)) out.push_back(k);
        }
        return out;
    }();
    return v;
}

const std::vector<Qsi8d32pVariant>& qsi8d32p_sme_variants() {
    static const std::vector<Qsi8d32pVariant> v = [] {
        std::vector<Qsi8d32pVariant> out;
        for (const Qsi8d32pVariant& k : kVariants) {
            if (is_sme(k)) out.push_back(k);
        }
        return out;
    }();
    return v;
}

const std::vector<Qsi8d32pLhsPacker>& qsi8d32p_lhs_packers() {
    static const std::vector<Qsi8d32pLhsPacker> v = [] {
        std::vector<Qsi8d32pLhsPacker> out;
        for (const Qsi8d32pLhsPacker& p : kLhsPackers) {
            // kai_lhs_quant_pack_qsi8d32p_f32_neon writes the layout of KleidiAI's SME kernels (the scales
            // after the data, spec §11.5), which no kernel of this family reads; qsi8d32p_pack_test covers it.
            if (std::strcmp(p.name, "kai_lhs_quant_pack_qsi8d32p_f32_neon") != 0) out.push_back(p);
        }
        return out;
    }();
    return v;
}

std::vector<const Qsi8d32pLhsPacker*> qsi8d32p_lhs_packers_for(const Qsi8d32pVariant& v) {
    std::vector<const Qsi8d32pLhsPacker*> out;
    for (const auto& p : qsi8d32p_lhs_packers()) {
        if (p.accepts(v.ukernel.get_mr(), v.ukernel.get_kr(), v.ukernel.get_sr())) out.push_back(&p);
    }
    return out;
}

}  // namespace kai_registry
