// SPDX-License-Identifier: Apache-2.0
#include "test/registry/bf16_qai8dxp_registry.h"
#include "test/registry/registry_select.h"

#include <iterator>

#include "test/common/cpu_features.h"

// The families' headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only these families', so that other
// families' code is not needed to build this.
#define KAI_HEADERS_bf16_qsi4cxp
#define KAI_HEADERS_bf16_qsi4c32p
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

#define KAI_BF16Q_UKERNEL(stem)                                                                               \
    {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
     kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
     kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}

// KAI_BF16CX_<family> / KAI_BF16C32_<family> give the entry of their family; KAI_KEEP_IF
// (test/registry/registry_select.h) keeps it only for the family flagged _KEEP.
#define KAI_BF16CX_bf16_qsi4cxp(stem, features) {"kai_" #stem, (features), KAI_BF16Q_UKERNEL(stem)},
#define KAI_BF16CX_bf16_qsi4cxp_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_BF16CX_##family##_KEEP, KAI_BF16CX_##family(stem, features))
const Bf16CxVariant kCx[] = {
#include "kai/kai_registry.inc"
};
#undef KAI_BF16CX_bf16_qsi4cxp

#define KAI_BF16C32_bf16_qsi4c32p(stem, features) {"kai_" #stem, (features), KAI_BF16Q_UKERNEL(stem)},
#define KAI_BF16C32_bf16_qsi4c32p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_BF16C32_##family##_KEEP, KAI_BF16C32_##family(stem, features))
const Bf16C32Variant kC32[] = {
#include "kai/kai_registry.inc"
};
#undef KAI_BF16C32_bf16_qsi4c32p

}  // namespace

const std::vector<Bf16CxVariant>& bf16_qsi4cxp_variants() {
    static const std::vector<Bf16CxVariant> v(std::begin(kCx), std::end(kCx));
    return v;
}

const std::vector<Bf16C32Variant>& bf16_qsi4c32p_variants() {
    static const std::vector<Bf16C32Variant> v(std::begin(kC32), std::end(kC32));
    return v;
}

}  // namespace kai_registry
