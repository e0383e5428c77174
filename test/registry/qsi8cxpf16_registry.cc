// SPDX-License-Identifier: Apache-2.0
#include "test/registry/qsi8cxpf16_registry.h"
#include "test/registry/registry_select.h"

#include "test/common/cpu_features.h"

// The family's headers (explicit, so that other families' code is not needed to build this).
#include "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp/kai_matmul_clamp_f16_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp/kai_matmul_clamp_f16_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp/kai_matmul_clamp_f16_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp/kai_matmul_clamp_f16_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm.h"

namespace kai_registry {

namespace {

// Keep only this family's matmul entries.
#define KAI_I8H_ENTRY_qsi8cxpf16(stem, features)                                                                \
    {"kai_" #stem,                                                                                            \
     (features),                                                                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}},
#define KAI_I8H_ENTRY_qsi8cxpf16_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_I8H_ENTRY_##family##_KEEP, KAI_I8H_ENTRY_##family(stem, features))

const Qsi8cxpF16Variant kVariants[] = {
#include "kai/kai_registry.inc"
};

#undef KAI_I8H_ENTRY_qsi8cxpf16

}  // namespace

const std::vector<Qsi8cxpF16Variant>& qsi8cxpf16_variants() {
    static const std::vector<Qsi8cxpF16Variant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

}  // namespace kai_registry
