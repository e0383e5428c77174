// SPDX-License-Identifier: Apache-2.0
#include "test/registry/qsi4c32p_registry.h"
#include "test/registry/registry_select.h"

#include <cstring>
#include <iterator>

#include "test/common/cpu_features.h"

// The family's headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only this family's, so that other
// families' code is not needed to build this.
#define KAI_HEADERS_qsi4c32p
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

// Keep only this family's matmul entries: KAI_KEEP_IF (test/registry/registry_select.h) keeps
// KAI_C32_ENTRY_<family> for the family flagged _KEEP, qsi4c32p.
#define KAI_C32_ENTRY_qsi4c32p(stem, features)                                                                 \
    {"kai_" #stem,                                                                                            \
     (features),                                                                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem},                                   \
     "kai_lhs_quant_pack_qai8dxp_f32",                                                                        \
     "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0",                                                                 \
     "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0"},

#define KAI_C32_ENTRY_qsi4c32p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_C32_ENTRY_##family##_KEEP, KAI_C32_ENTRY_##family(stem, features))

const Qsi4c32pVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

#undef KAI_C32_ENTRY_qsi4c32p

std::vector<Qsi4c32pVariant> variants_where(bool sme2) {
    std::vector<Qsi4c32pVariant> out;
    for (const Qsi4c32pVariant& v : kVariants)
        if ((std::strstr(v.name, "_sme2_") != nullptr) == sme2) out.push_back(v);
    return out;
}

}  // namespace

const std::vector<Qsi4c32pVariant>& qsi4c32p_variants() {
    static const std::vector<Qsi4c32pVariant> v = variants_where(false);
    return v;
}

const std::vector<Qsi4c32pVariant>& qsi4c32p_sme2_variants() {
    static const std::vector<Qsi4c32pVariant> v = variants_where(true);
    return v;
}

}  // namespace kai_registry
