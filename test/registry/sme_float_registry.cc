// SPDX-License-Identifier: Apache-2.0
#include "test/registry/sme_float_registry.h"
#include "test/registry/registry_select.h"

#include <iterator>

#include "test/common/cpu_features.h"

// The families' headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only these families', so that other
// families' code is not needed to build this.
#define KAI_HEADERS_f32p_f32p
#define KAI_HEADERS_f32_f32p
#define KAI_HEADERS_bf16p_sme
#define KAI_HEADERS_f32_bf16p
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

#define KAI_SMEF_PACKED(stem)                                                                                 \
    {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
     kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
     kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}
#define KAI_SMEF_GEMV(stem)                                                                                  \
    {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_nr_##stem, kai_get_kr_##stem, kai_get_sr_##stem, \
     kai_get_lhs_offset_##stem, kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem,                \
     kai_get_dst_size_##stem, kai_run_##stem}

// Keep only this registry's families: KAI_KEEP_IF (test/registry/registry_select.h) keeps
// KAI_SMEF_<kind>_<family> for the families flagged _KEEP (f32p_f32p, f32_f32p, bf16p_sme, f32_bf16p).
#define KAI_SMEF_MATMUL_f32p_f32p(stem, features) {"kai_" #stem, (features), false, false, KAI_SMEF_PACKED(stem), {}},
#define KAI_SMEF_MATMUL_bf16p_sme(stem, features) {"kai_" #stem, (features), true, false, KAI_SMEF_PACKED(stem), {}},
#define KAI_SMEF_MATMUL_f32_f32p(stem, features) {"kai_" #stem, (features), false, true, {}, KAI_SMEF_GEMV(stem)},
// The bf16 GEMV's interface struct has the f32 GEMV's members and signatures.
#define KAI_SMEF_MATMUL_f32_bf16p(stem, features) {"kai_" #stem, (features), true, true, {}, KAI_SMEF_GEMV(stem)},

#define KAI_SMEF_MATMUL_f32p_f32p_KEEP KAI_KEEP
#define KAI_SMEF_MATMUL_bf16p_sme_KEEP KAI_KEEP
#define KAI_SMEF_MATMUL_f32_f32p_KEEP KAI_KEEP
#define KAI_SMEF_MATMUL_f32_bf16p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_SMEF_MATMUL_##family##_KEEP, KAI_SMEF_MATMUL_##family(stem, features))
const SmeFloatVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_SMEF_LHS(stem, features, is_bf16)                                                              \
    {"kai_" #stem, (features), is_bf16, kai_get_m_step_##stem, kai_get_lhs_offset_##stem,                  \
     kai_get_lhs_packed_offset_##stem, kai_get_lhs_packed_size_##stem, kai_run_##stem},
#define KAI_SMEF_LHS_f32p_f32p(stem, features) KAI_SMEF_LHS(stem, features, false)
#define KAI_SMEF_LHS_bf16p_sme(stem, features) KAI_SMEF_LHS(stem, features, true)

#define KAI_SMEF_LHS_f32p_f32p_KEEP KAI_KEEP
#define KAI_SMEF_LHS_bf16p_sme_KEEP KAI_KEEP
#define KAI_REGISTRY_LHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_SMEF_LHS_##family##_KEEP, KAI_SMEF_LHS_##family(stem, features))
const SmeFloatLhsPacker kLhsPackers[] = {
#include "kai/kai_registry.inc"
};

// True when the packer's name says it reads a K x N source ("_kxn_"); constant, so the table is initialised
// before any other file's static initialisers read it.
constexpr bool names_kxn(const char* s) {
    for (; *s != '\0'; ++s) {
        if (s[0] == '_' && s[1] == 'k' && s[2] == 'x' && s[3] == 'n' && s[4] == '_') return true;
    }
    return false;
}

#define KAI_SMEF_RHS(stem, features, is_bf16)                                                              \
    {"kai_" #stem, (features), is_bf16, names_kxn(#stem), kai_get_n_step_##stem, kai_get_bias_offset_##stem, \
     kai_get_rhs_packed_stride_##stem, kai_get_rhs_packed_offset_##stem, kai_get_rhs_packed_size_##stem,   \
     kai_run_##stem},
#define KAI_SMEF_RHS_f32p_f32p(stem, features) KAI_SMEF_RHS(stem, features, false)
#define KAI_SMEF_RHS_bf16p_sme(stem, features) KAI_SMEF_RHS(stem, features, true)

#define KAI_SMEF_RHS_f32p_f32p_KEEP KAI_KEEP
#define KAI_SMEF_RHS_bf16p_sme_KEEP KAI_KEEP
#define KAI_REGISTRY_RHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_SMEF_RHS_##family##_KEEP, KAI_SMEF_RHS_##family(stem, features))
const SmeFloatRhsPacker kRhsPackers[] = {
#include "kai/kai_registry.inc"
};

}  // namespace

const std::vector<SmeFloatVariant>& sme_float_variants() {
    static const std::vector<SmeFloatVariant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

const std::vector<SmeFloatLhsPacker>& sme_float_lhs_packers() {
    static const std::vector<SmeFloatLhsPacker> v(std::begin(kLhsPackers), std::end(kLhsPackers));
    return v;
}

const std::vector<SmeFloatRhsPacker>& sme_float_rhs_packers() {
    static const std::vector<SmeFloatRhsPacker> v(std::begin(kRhsPackers), std::end(kRhsPackers));
    return v;
}

}  // namespace kai_registry
