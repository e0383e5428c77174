// SPDX-License-Identifier: Apache-2.0
#include "test/registry/imatmul_registry.h"
#include "test/registry/registry_select.h"

#include <iterator>

#include "test/common/cpu_features.h"

// Only this family's headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl).
#define KAI_HEADERS_imatmul_f32p
#define KAI_HEADERS_imatmul_f16p
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

// KAI_KEEP_IF (test/registry/registry_select.h) keeps the imatmul_f32p entries and drops every other family's.
#define KAI_IMF_MATMUL_imatmul_f32p(stem, features)                                                              \
    {"kai_" #stem, (features), ((features) & KAI_FEATURE_SME2) != 0,                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_lhs_packed_offset_##stem,                             \
      kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}},
#define KAI_IMF_MATMUL_imatmul_f32p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_IMF_MATMUL_##family##_KEEP, KAI_IMF_MATMUL_##family(stem, features))
const ImatmulVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_IMF_LHS_imatmul_f32p(stem, features)                                                        \
    {"kai_" #stem, (features), kai_get_m_step_##stem, kai_get_lhs_packed_offset_##stem,                  \
     kai_get_lhs_packed_size_##stem, kai_run_##stem},
#define KAI_IMF_LHS_imatmul_f32p_KEEP KAI_KEEP
#define KAI_REGISTRY_LHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_IMF_LHS_##family##_KEEP, KAI_IMF_LHS_##family(stem, features))
const ImatmulLhsPacker kLhsPackers[] = {
#include "kai/kai_registry.inc"
};

#define KAI_IMF_RHS_imatmul_f32p(stem, features)                                                          \
    {"kai_" #stem, (features), kai_get_n_step_##stem, kai_get_rhs_offset_##stem, kai_get_bias_offset_##stem, \
     kai_get_rhs_packed_stride_##stem, kai_get_rhs_packed_offset_##stem, kai_get_rhs_packed_size_##stem,    \
     kai_run_##stem},
#define KAI_IMF_RHS_imatmul_f32p_KEEP KAI_KEEP
#define KAI_REGISTRY_RHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_IMF_RHS_##family##_KEEP, KAI_IMF_RHS_##family(stem, features))
const ImatmulRhsPacker kRhsPackers[] = {
#include "kai/kai_registry.inc"
};

// The f16 family (imatmul_f16p): the same X-macros, keeping its entries.
#undef KAI_REGISTRY_MATMUL
#undef KAI_REGISTRY_LHS_PACKER
#undef KAI_REGISTRY_RHS_PACKER
#define KAI_IMF_MATMUL_imatmul_f16p KAI_IMF_MATMUL_imatmul_f32p
#define KAI_IMF_MATMUL16_imatmul_f16p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_IMF_MATMUL16_##family##_KEEP, KAI_IMF_MATMUL_##family(stem, features))
const ImatmulF16Variant kF16Variants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_IMF_LHS_imatmul_f16p KAI_IMF_LHS_imatmul_f32p
#define KAI_IMF_LHS16_imatmul_f16p_KEEP KAI_KEEP
#define KAI_REGISTRY_LHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_IMF_LHS16_##family##_KEEP, KAI_IMF_LHS_##family(stem, features))
const ImatmulLhsPacker kF16LhsPackers[] = {
#include "kai/kai_registry.inc"
};

#define KAI_IMF_RHS_imatmul_f16p KAI_IMF_RHS_imatmul_f32p
#define KAI_IMF_RHS16_imatmul_f16p_KEEP KAI_KEEP
#define KAI_REGISTRY_RHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_IMF_RHS16_##family##_KEEP, KAI_IMF_RHS_##family(stem, features))
const ImatmulRhsPacker kF16RhsPackers[] = {
#include "kai/kai_registry.inc"
};

}  // namespace

const std::vector<ImatmulVariant>& imatmul_variants() {
    static const std::vector<ImatmulVariant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

const std::vector<ImatmulLhsPacker>& imatmul_lhs_packers() {
    static const std::vector<ImatmulLhsPacker> v(std::begin(kLhsPackers), std::end(kLhsPackers));
    return v;
}

const std::vector<ImatmulRhsPacker>& imatmul_rhs_packers() {
    static const std::vector<ImatmulRhsPacker> v(std::begin(kRhsPackers), std::end(kRhsPackers));
    return v;
}

const std::vector<ImatmulF16Variant>& imatmul_f16_variants() {
    static const std::vector<ImatmulF16Variant> v(std::begin(kF16Variants), std::end(kF16Variants));
    return v;
}

const std::vector<ImatmulLhsPacker>& imatmul_f16_lhs_packers() {
    static const std::vector<ImatmulLhsPacker> v(std::begin(kF16LhsPackers), std::end(kF16LhsPackers));
    return v;
}

const std::vector<ImatmulRhsPacker>& imatmul_f16_rhs_packers() {
    static const std::vector<ImatmulRhsPacker> v(std::begin(kF16RhsPackers), std::end(kF16RhsPackers));
    return v;
}

}  // namespace kai_registry
