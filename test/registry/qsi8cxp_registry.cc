// SPDX-License-Identifier: Apache-2.0
#include "test/registry/qsi8cxp_registry.h"
#include "test/registry/registry_select.h"

#include "test/common/cpu_features.h"

// The family's headers (explicit, so that other families' code is not needed to build this).
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_4x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot.h"

namespace kai_registry {

namespace {

// Keep only this family's matmul entries: KAI_KEEP_IF (test/registry/registry_select.h) keeps
// KAI_I8CX_ENTRY_<family> for the family flagged _KEEP, qsi8cxp.
#define KAI_I8CX_ENTRY_qsi8cxp(stem, features)                                                                 \
    {"kai_" #stem,                                                                                            \
     (features),                                                                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem},                                   \
     "kai_lhs_quant_pack_qai8dxp_f32",                                                                        \
     "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon",                                                                  \
     "kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon"},

#define KAI_I8CX_ENTRY_qsi8cxp_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_I8CX_ENTRY_##family##_KEEP, KAI_I8CX_ENTRY_##family(stem, features))

const Qsi8cxpVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

#undef KAI_I8CX_ENTRY_qsi8cxp

}  // namespace

const std::vector<Qsi8cxpVariant>& qsi8cxp_variants() {
    static const std::vector<Qsi8cxpVariant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

}  // namespace kai_registry
