// SPDX-License-Identifier: Apache-2.0
#include "test/registry/qsi4cxpf16_registry.h"
#include "test/registry/registry_select.h"

#include "test/common/cpu_features.h"

// The family's headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only this family's, so that other
// families' code is not needed to build this.
#define KAI_HEADERS_qsi4cxpf16
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

// Keep only this family's matmul entries.
#define KAI_CXH_ENTRY_qsi4cxpf16(stem, features)                                                                \
    {"kai_" #stem,                                                                                            \
     (features),                                                                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}},
#define KAI_CXH_ENTRY_qsi4cxpf16_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_CXH_ENTRY_##family##_KEEP, KAI_CXH_ENTRY_##family(stem, features))

const Qsi4cxpF16Variant kVariants[] = {
#include "kai/kai_registry.inc"
};

#undef KAI_CXH_ENTRY_qsi4cxpf16

}  // namespace

const std::vector<Qsi4cxpF16Variant>& qsi4cxpf16_variants() {
    static const std::vector<Qsi4cxpF16Variant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

}  // namespace kai_registry
