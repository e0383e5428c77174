// SPDX-License-Identifier: Apache-2.0
#include "test/registry/qsu2cxp_registry.h"
#include "test/registry/registry_select.h"

#include "test/common/cpu_features.h"

// The family's headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only this family's, so that other
// families' code is not needed to build this.
#define KAI_HEADERS_qsu2cxp
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

// Keep only this family's matmul entries: KAI_KEEP_IF (test/registry/registry_select.h) keeps
// KAI_I2CX_ENTRY_<family> for the family flagged _KEEP, qsu2cxp.
#define KAI_I2CX_ENTRY_qsu2cxp(stem, features)                                                                 \
    {"kai_" #stem,                                                                                            \
     (features),                                                                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem},                                   \
     "kai_lhs_quant_pack_qai8dxp_f32",                                                                        \
     "kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon"},

#define KAI_I2CX_ENTRY_qsu2cxp_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_I2CX_ENTRY_##family##_KEEP, KAI_I2CX_ENTRY_##family(stem, features))

const Qsu2cxpVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

#undef KAI_I2CX_ENTRY_qsu2cxp

}  // namespace

const std::vector<Qsu2cxpVariant>& qsu2cxp_variants() {
    static const std::vector<Qsu2cxpVariant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

}  // namespace kai_registry
