// SPDX-License-Identifier: Apache-2.0
#include "test/registry/bf16_qai8dxp_registry.h"

#include <iterator>

#include "test/common/cpu_features.h"

// The families' headers (explicit, so that other families' code is not needed to build this).
#include "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4c32p/kai_matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4c32p/kai_matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4cxp/kai_matmul_clamp_bf16_qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4cxp/kai_matmul_clamp_bf16_qai8dxp4x8_qsi4cxp8x8_8x8_neon_i8mm.h"

namespace kai_registry {

namespace {

#define KAI_BF16Q_UKERNEL(stem)                                                                               \
    {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
     kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
     kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}

// KAI_BF16CX_<family> / KAI_BF16C32_<family> expand to an entry for their family and to nothing
// for every other family of kernels.bzl.
#define KAI_BF16CX_qsi4cxp(stem, features)
#define KAI_BF16CX_bf16(stem, features)
#define KAI_BF16CX_bf16o(stem, features)
#define KAI_BF16CX_qai8dxp(stem, features)
#define KAI_BF16CX_qsi4c32p(stem, features)
#define KAI_BF16CX_qsi8d32p(stem, features)
#define KAI_BF16CX_qsi8cxp(stem, features)
#define KAI_BF16CX_f32p_f32p(stem, features)
#define KAI_BF16CX_f32_f32p(stem, features)
#define KAI_BF16CX_bf16p_sme(stem, features)
#define KAI_BF16CX_f32_bf16p(stem, features)
#define KAI_BF16CX_bf16_qsi4cxp(stem, features) {"kai_" #stem, (features), KAI_BF16Q_UKERNEL(stem)},
#define KAI_BF16CX_bf16_qsi4c32p(stem, features)
#define KAI_BF16CX_bf16f16(stem, features)
#define KAI_BF16CX_qsi4cxpf16(stem, features)
#define KAI_BF16CX_qsi8cxpf16(stem, features)
#define KAI_BF16CX_f16p_qsi4c32p(stem, features)
#define KAI_BF16CX_f16_qai4c32p(stem, features)
#define KAI_BF16CX_qai4c32p(stem, features)
#define KAI_REGISTRY_MATMUL(family, stem, features) KAI_BF16CX_##family(stem, features)
const Bf16CxVariant kCx[] = {
#include "kai/kai_registry.inc"
};
#undef KAI_BF16CX_qsi4cxp
#undef KAI_BF16CX_bf16
#undef KAI_BF16CX_bf16o
#undef KAI_BF16CX_qai8dxp
#undef KAI_BF16CX_qsi4c32p
#undef KAI_BF16CX_qsi8d32p
#undef KAI_BF16CX_qsi8cxp
#undef KAI_BF16CX_f32p_f32p
#undef KAI_BF16CX_f32_f32p
#undef KAI_BF16CX_bf16p_sme
#undef KAI_BF16CX_f32_bf16p
#undef KAI_BF16CX_bf16_qsi4cxp
#undef KAI_BF16CX_bf16_qsi4c32p

#define KAI_BF16C32_qsi4cxp(stem, features)
#define KAI_BF16C32_bf16(stem, features)
#define KAI_BF16C32_bf16o(stem, features)
#define KAI_BF16C32_qai8dxp(stem, features)
#define KAI_BF16C32_qsi4c32p(stem, features)
#define KAI_BF16C32_qsi8d32p(stem, features)
#define KAI_BF16C32_qsi8cxp(stem, features)
#define KAI_BF16C32_f32p_f32p(stem, features)
#define KAI_BF16C32_f32_f32p(stem, features)
#define KAI_BF16C32_bf16p_sme(stem, features)
#define KAI_BF16C32_f32_bf16p(stem, features)
#define KAI_BF16C32_bf16_qsi4cxp(stem, features)
#define KAI_BF16C32_bf16_qsi4c32p(stem, features) {"kai_" #stem, (features), KAI_BF16Q_UKERNEL(stem)},
#define KAI_BF16C32_bf16f16(stem, features)
#define KAI_BF16C32_qsi4cxpf16(stem, features)
#define KAI_BF16C32_qsi8cxpf16(stem, features)
#define KAI_BF16C32_f16p_qsi4c32p(stem, features)
#define KAI_BF16C32_f16_qai4c32p(stem, features)
#define KAI_BF16C32_qai4c32p(stem, features)
#define KAI_REGISTRY_MATMUL(family, stem, features) KAI_BF16C32_##family(stem, features)
const Bf16C32Variant kC32[] = {
#include "kai/kai_registry.inc"
};
#undef KAI_BF16C32_qsi4cxp
#undef KAI_BF16C32_bf16
#undef KAI_BF16C32_bf16o
#undef KAI_BF16C32_qai8dxp
#undef KAI_BF16C32_qsi4c32p
#undef KAI_BF16C32_qsi8d32p
#undef KAI_BF16C32_qsi8cxp
#undef KAI_BF16C32_f32p_f32p
#undef KAI_BF16C32_f32_f32p
#undef KAI_BF16C32_bf16p_sme
#undef KAI_BF16C32_f32_bf16p
#undef KAI_BF16C32_bf16_qsi4cxp
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
