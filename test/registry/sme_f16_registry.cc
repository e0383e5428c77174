// SPDX-License-Identifier: Apache-2.0
#include "test/registry/sme_f16_registry.h"
#include "test/registry/registry_select.h"

#include <cstring>
#include <iterator>

#include "test/common/cpu_features.h"

// Only this family's headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl).
#define KAI_HEADERS_f16p_f16p
#define KAI_HEADERS_f16_f16p
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

// Keep only family f16p_f16p (KAI_KEEP_IF, test/registry/registry_select.h). The SME2 kernel clamps with FCLAMP.
#define KAI_SMEH_MATMUL_f16p_f16p(stem, features)                                                                 \
    {"kai_" #stem, (features), ((features) & KAI_FEATURE_SME2) != 0,                                               \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem,       \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                       \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}},
#define KAI_SMEH_MATMUL_f16p_f16p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_SMEH_MATMUL_##family##_KEEP, KAI_SMEH_MATMUL_##family(stem, features))
const SmeF16Variant kVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_SMEH_GEMV_f16_f16p(stem, features)                                                                    \
    {"kai_" #stem, (features), ((features) & KAI_FEATURE_SME2) != 0,                                               \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_nr_##stem, kai_get_kr_##stem, kai_get_sr_##stem,       \
      nullptr, kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem, kai_get_dst_size_##stem,               \
      kai_run_##stem}},
#define KAI_SMEH_GEMV_f16_f16p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_SMEH_GEMV_##family##_KEEP, KAI_SMEH_GEMV_##family(stem, features))
const SmeF16GemvVariant kGemvVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_SMEH_LHS_f16p_f16p(stem, features)                                                   \
    {"kai_" #stem, (features), kai_get_m_step_##stem, kai_get_lhs_offset_##stem,                 \
     kai_get_lhs_packed_offset_##stem, kai_get_lhs_packed_size_##stem, kai_run_##stem},
#define KAI_SMEH_LHS_f16p_f16p_KEEP KAI_KEEP
#define KAI_REGISTRY_LHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_SMEH_LHS_##family##_KEEP, KAI_SMEH_LHS_##family(stem, features))
const SmeF16LhsPacker kLhsPackers[] = {
#include "kai/kai_registry.inc"
};

// The nxk packer's get_rhs_offset takes a stride; the table needs neither form, so it holds no rhs offset.
#define KAI_SMEH_RHS_f16p_f16p(stem, features)                                                                     \
    {"kai_" #stem, (features), std::strstr(#stem, "_kxn_") != nullptr, kai_get_n_step_##stem,                      \
     kai_get_bias_offset_##stem, kai_get_rhs_packed_stride_##stem, kai_get_rhs_packed_offset_##stem,               \
     kai_get_rhs_packed_size_##stem, kai_run_##stem},
#define KAI_SMEH_RHS_f16p_f16p_KEEP KAI_KEEP
#define KAI_REGISTRY_RHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_SMEH_RHS_##family##_KEEP, KAI_SMEH_RHS_##family(stem, features))
const SmeF16RhsPacker kRhsPackers[] = {
#include "kai/kai_registry.inc"
};

}  // namespace

const std::vector<SmeF16Variant>& sme_f16_variants() {
    static const std::vector<SmeF16Variant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

const std::vector<SmeF16GemvVariant>& sme_f16_gemv_variants() {
    static const std::vector<SmeF16GemvVariant> v(std::begin(kGemvVariants), std::end(kGemvVariants));
    return v;
}

const std::vector<SmeF16LhsPacker>& sme_f16_lhs_packers() {
    static const std::vector<SmeF16LhsPacker> v(std::begin(kLhsPackers), std::end(kLhsPackers));
    return v;
}

const std::vector<SmeF16RhsPacker>& sme_f16_rhs_packers() {
    static const std::vector<SmeF16RhsPacker> v(std::begin(kRhsPackers), std::end(kRhsPackers));
    return v;
}

}  // namespace kai_registry
