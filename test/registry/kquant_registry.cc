// SPDX-License-Identifier: Apache-2.0
#include "test/registry/kquant_registry.h"
#include "test/registry/registry_select.h"

#include <iterator>

#include "test/common/cpu_features.h"

// The families' headers (explicit, so that other families' code is not needed to build this).
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm.h"

namespace kai_registry {

namespace {

#define KAI_KQ_ENTRY(stem, features, is_q4k)                                                                       \
    {"kai_" #stem, (features), (is_q4k),                                                                             \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem,       \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                       \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}},
#define KAI_KQ_MATMUL_q4k(stem, features) KAI_KQ_ENTRY(stem, features, true)
#define KAI_KQ_MATMUL_q6k(stem, features) KAI_KQ_ENTRY(stem, features, false)
#define KAI_KQ_MATMUL_q4k_KEEP KAI_KEEP
#define KAI_KQ_MATMUL_q6k_KEEP KAI_KEEP
#define KAI_REGISTRY_MATMUL(family, stem, features) \
    KAI_KEEP_IF(KAI_KQ_MATMUL_##family##_KEEP, KAI_KQ_MATMUL_##family(stem, features))

const KquantVariant kVariants[] = {
#include "kai/kai_registry.inc"
};

}  // namespace

const std::vector<KquantVariant>& kquant_variants() {
    static const std::vector<KquantVariant> v(std::begin(kVariants), std::end(kVariants));
    return v;
}

}  // namespace kai_registry
