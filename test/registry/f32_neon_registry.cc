// SPDX-License-Identifier: Apache-2.0
#include "test/registry/f32_neon_registry.h"
#include "test/registry/registry_select.h"

#include <iterator>

#include "test/common/cpu_features.h"

// The family's headers (kai/kai_all_headers.inc, generated from kai/kernels.bzl): only this family's.
#define KAI_HEADERS_f32_neon
#include "kai/kai_all_headers.inc"

namespace kai_registry {

namespace {

#define KAI_F32N_MATMUL_f32_neon(stem, features)                                                               \
    {"kai_" #stem,                                                                                            \
     (features),                                                                                              \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_nr_##stem, kai_get_kr_##stem, kai_get_sr_##stem, \
      kai_get_lhs_offset_##stem, kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem,                \
      kai_get_dst_size_##stem, kai_run_##stem}},
#define KAI_F32N_MATMUL_f32_neon_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_F32N_MATMUL_##family##_KEEP, KAI_F32N_MATMUL_##family(stem, features))
const F32NeonVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

#define KAI_F32N_RHS_f32_neon(stem, features)                                                                \
    {"kai_" #stem,           (features),                      kai_get_n_step_##stem,                          \
     kai_get_rhs_offset_##stem, kai_get_bias_offset_##stem,  kai_get_rhs_packed_offset_##stem,               \
     kai_get_rhs_packed_size_##stem, kai_run_##stem},
#define KAI_F32N_RHS_f32_neon_KEEP KAI_KEEP
#define KAI_REGISTRY_RHS_PACKER(family, stem, features) \
    KAI_KEEP_IF(KAI_F32N_RHS_##family##_KEEP, KAI_F32N_RHS_##family(stem, features))
const F32NeonRhsPacker kRhsPackers[] = {
#include "kai/kai_registry.inc"
};

}  // namespace

const std::vector<F32NeonVariant>& f32_neon_variants() {
    static const std::vector<F32NeonVariant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

const std::vector<F32NeonRhsPacker>& f32_neon_rhs_packers() {
    static const std::vector<F32NeonRhsPacker> v(std::begin(kRhsPackers), std::end(kRhsPackers));
    return v;
}

}  // namespace kai_registry
