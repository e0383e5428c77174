// SPDX-License-Identifier: Apache-2.0
#include "test/registry/qai4c32p_registry.h"
#include "test/registry/registry_select.h"

#include <cstring>
#include <iterator>

#include "test/common/cpu_features.h"

// The families' headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only these families', so that other
// families' code is not needed to build this.
#define KAI_HEADERS_qai4c32p
#define KAI_HEADERS_f16_qai4c32p
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

#define KAI_A4_GETTERS(stem)                                                                                 \
    kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
        kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,              \
        kai_get_dst_offset_##stem, kai_get_dst_size_##stem
#define KAI_A4_MATMUL_qai4c32p(stem, features) \
    {"kai_" #stem, (features), false, {KAI_A4_GETTERS(stem), kai_run_##stem}, {KAI_A4_GETTERS(stem), nullptr}},
#define KAI_A4_MATMUL_f16_qai4c32p(stem, features) \
    {"kai_" #stem, (features), true, {KAI_A4_GETTERS(stem), nullptr}, {KAI_A4_GETTERS(stem), kai_run_##stem}},
#define KAI_A4_MATMUL_qai4c32p_KEEP KAI_KEEP
#define KAI_A4_MATMUL_f16_qai4c32p_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_A4_MATMUL_##family##_KEEP, KAI_A4_MATMUL_##family(stem, features))

const Qai4c32pVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

const Qai4c32pLhsPacker kLhsPackers[] = {
    {"kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", 0, false,
     kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f32_neon,
     kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon},
    {"kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", KAI_FEATURE_FP16, true,
     kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f16_neon,
     kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f16_neon},
};

bool is_sme2(const Qai4c32pVariant& v) {
    return std::strstr(v.name, "_sme2_") != nullptr;
}

std::vector<Qai4c32pVariant> variants_where(bool sme2) {
    std::vector<Qai4c32pVariant> out;
    for (const Qai4c32pVariant& v : kVariants) {
        if (is_sme2(v) == sme2) out.push_back(v);
    }
    return out;
}

}  // namespace

const std::vector<Qai4c32pVariant>& qai4c32p_variants() {
    static const std::vector<Qai4c32pVariant> v = variants_where(false);
    return v;
}

const std::vector<Qai4c32pVariant>& qai4c32p_sme2_variants() {
    static const std::vector<Qai4c32pVariant> v = variants_where(true);
    return v;
}

const std::vector<Qai4c32pLhsPacker>& qai4c32p_lhs_packers() {
    static const std::vector<Qai4c32pLhsPacker> v(std::begin(kLhsPackers), std::end(kLhsPackers));
    return v;
}

}  // namespace kai_registry
