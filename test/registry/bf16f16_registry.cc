// SPDX-License-Identifier: Apache-2.0
#include "test/registry/bf16f16_registry.h"

#include <cstring>
#include <iterator>

#include "test/common/cpu_features.h"

// The family's headers (explicit, so that other families' code is not needed to build this).
#include "kai/ukernels/matmul/matmul_clamp_f16_bf16p_bf16p/kai_matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/pack/kai_lhs_pack_bf16p8x4_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf32_f16_neon.h"

namespace kai_registry {

namespace {

// KAI_BF16F16_IS_<family>(x) keeps x for family bf16f16 and drops it for every other family of
// kernels.bzl; each table below defines the X-macro it needs and includes kai/kai_registry.inc
// (which #undefs it again at its end).
#define KAI_BF16F16_KEEP(...) __VA_ARGS__
#define KAI_BF16F16_DROP(...)
#define KAI_BF16F16_IS_bf16f16 KAI_BF16F16_KEEP
#define KAI_BF16F16_IS_bf16 KAI_BF16F16_DROP
#define KAI_BF16F16_IS_bf16o KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qai8dxp KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qsi4cxp KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qsi4c32p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qsi8d32p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qsi8cxp KAI_BF16F16_DROP
#define KAI_BF16F16_IS_f32p_f32p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_f32_f32p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_bf16p_sme KAI_BF16F16_DROP
#define KAI_BF16F16_IS_f32_bf16p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qsi4cxpf16 KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qsi8cxpf16 KAI_BF16F16_DROP
#define KAI_BF16F16_IS_bf16_qsi4c32p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_bf16_qsi4cxp KAI_BF16F16_DROP
#define KAI_BF16F16_IS_f16p_qsi4c32p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_f16_qai4c32p KAI_BF16F16_DROP
#define KAI_BF16F16_IS_qai4c32p KAI_BF16F16_DROP

#define KAI_REGISTRY_MATMUL(family, stem, features)                                                          \
    KAI_BF16F16_IS_##family({"kai_" #stem, (features),                                                      \
                             {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, \
                              kai_get_kr_##stem, kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem,        \
                              kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem,                   \
                              kai_get_dst_size_##stem, kai_run_##stem}},)
const Bf16F16Variant kVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_REGISTRY_LHS_PACKER(family, stem, features)                                                    \
    KAI_BF16F16_IS_##family({"kai_" #stem, (features), kai_get_m_step_##stem, kai_get_lhs_offset_##stem,  \
                             kai_get_lhs_packed_offset_##stem, kai_get_lhs_packed_size_##stem, kai_run_##stem},)
const Bf16F16LhsPacker kLhsPackers[] = {
#include "kai/kai_registry.inc"
};

#define KAI_REGISTRY_RHS_PACKER(family, stem, features)                                                     \
    KAI_BF16F16_IS_##family({"kai_" #stem, (features), std::strstr(#stem, "_nxk_") != nullptr,            \
                             std::strstr(#stem, "biasf16") != nullptr, kai_get_n_step_##stem,               \
                             kai_get_bias_offset_##stem, kai_get_rhs_packed_offset_##stem,                  \
                             kai_get_rhs_packed_size_##stem, kai_run_##stem},)
const Bf16F16RhsPacker kRhsPackers[] = {
#include "kai/kai_registry.inc"
};

}  // namespace

const std::vector<Bf16F16Variant>& bf16f16_variants() {
    static const std::vector<Bf16F16Variant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

const std::vector<Bf16F16LhsPacker>& bf16f16_lhs_packers() {
    static const std::vector<Bf16F16LhsPacker> v(std::begin(kLhsPackers), std::end(kLhsPackers));
    return v;
}

const std::vector<Bf16F16RhsPacker>& bf16f16_rhs_packers() {
    static const std::vector<Bf16F16RhsPacker> v(std::begin(kRhsPackers), std::end(kRhsPackers));
    return v;
}

}  // namespace kai_registry
