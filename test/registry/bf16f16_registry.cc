// SPDX-License-Identifier: Apache-2.0
#include "test/registry/bf16f16_registry.h"
#include "test/registry/registry_select.h"

#include <cstring>
#include <iterator>

#include "test/common/cpu_features.h"

// The family's headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only this family's, so that other
// families' code is not needed to build this.
#define KAI_HEADERS_bf16f16
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

// Each table below defines the X-macro it needs and includes kai/kai_registry.inc (which #undefs
// it again at its end); KAI_KEEP_IF (test/registry/registry_select.h) keeps an entry only for
// family bf16f16, the one flagged KAI_KEEP.
#define KAI_BF16F16_IS_bf16f16 KAI_KEEP

#define KAI_REGISTRY_MATMUL(family, stem, features)                                                          \
    KAI_KEEP_IF(KAI_BF16F16_IS_##family, {"kai_" #stem, (features),                                                      \
                             {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, \
                              kai_get_kr_##stem, kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem,        \
                              kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem,                   \
                              kai_get_dst_size_##stem, kai_run_##stem}},)
const Bf16F16Variant kVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_REGISTRY_LHS_PACKER(family, stem, features)                                                    \
    KAI_KEEP_IF(KAI_BF16F16_IS_##family, {"kai_" #stem, (features), kai_get_m_step_##stem, kai_get_lhs_offset_##stem,  \
                             kai_get_lhs_packed_offset_##stem, kai_get_lhs_packed_size_##stem, kai_run_##stem},)
const Bf16F16LhsPacker kLhsPackers[] = {
#include "kai/kai_registry.inc"
};

#define KAI_REGISTRY_RHS_PACKER(family, stem, features)                                                     \
    KAI_KEEP_IF(KAI_BF16F16_IS_##family, {"kai_" #stem, (features), std::strstr(#stem, "_nxk_") != nullptr,            \
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
