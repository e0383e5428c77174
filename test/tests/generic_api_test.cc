// SPDX-License-Identifier: Apache-2.0
// KleidiAI's generic API headers (kai/ukernels/matmul/kai_matmul.h, kai_matmul_pack_lhs.h, kai_matmul_pack_rhs.h
// and their _types.h) as kai keeps them: the struct layouts an engine compiled against KleidiAI v1.30.0 passes
// (sizes and member offsets recorded by compiling KleidiAI v1.30.0's own headers for AArch64 LP64 with a probe
// program), the flag value, every declared function's name and signature, and the structs in use: a call
// described by kai_matmul_uker_args, dispatched through a kai_matmul_uker_api that this test fills around kai's
// f32 NEON GEMM, gives that kernel's own result.
#include <gtest/gtest.h>

#include <cfloat>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kai/ukernels/matmul/kai_matmul.h"
#include "kai/ukernels/matmul/kai_matmul_pack_lhs.h"
#include "kai/ukernels/matmul/kai_matmul_pack_rhs.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p/kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon.h"
#include "test/common/rng.h"

namespace {

TEST(GenericApi, LayoutsAreKleidiAIs) {
    EXPECT_EQ(sizeof(kai_matmul_uker_args), 168u);
    EXPECT_EQ(offsetof(kai_matmul_uker_args, shape), 8u);
    EXPECT_EQ(offsetof(kai_matmul_uker_args, operand), 32u);
    EXPECT_EQ(offsetof(kai_matmul_uker_args, activation), 152u);
    EXPECT_EQ(offsetof(kai_matmul_uker_operand_args, lhs), 16u);
    EXPECT_EQ(offsetof(kai_matmul_uker_operand_args, rhs), 32u);
    EXPECT_EQ(offsetof(kai_matmul_uker_operand_args, bias), 48u);
    EXPECT_EQ(offsetof(kai_matmul_uker_operand_args, scale), 96u);
    EXPECT_EQ(offsetof(kai_matmul_uker_bias_args, scale_bias_n), 40u);
    EXPECT_EQ(offsetof(kai_matmul_uker_scale_args, acc_scale_n), 16u);
    EXPECT_EQ(sizeof(kai_matmul_uker_api), 72u);
    EXPECT_EQ(offsetof(kai_matmul_uker_api, get_rhs_offset), 40u);
    EXPECT_EQ(offsetof(kai_matmul_uker_api, get_dst_size), 64u);
    EXPECT_EQ(sizeof(kai_matmul_uker_config), 8u);
    EXPECT_EQ(sizeof(kai_matmul_uker_dim_args), 24u);
    EXPECT_EQ(sizeof(kai_matmul_pack_lhs_uker_args), 56u);
    EXPECT_EQ(offsetof(kai_matmul_pack_lhs_uker_args, operand), 24u);
    EXPECT_EQ(offsetof(kai_matmul_pack_lhs_uker_operand_args, lhs), 16u);
    EXPECT_EQ(sizeof(kai_matmul_pack_lhs_uker_api), 56u);
    EXPECT_EQ(offsetof(kai_matmul_pack_lhs_uker_api, get_lhs_packed_size), 48u);
    EXPECT_EQ(sizeof(kai_matmul_pack_lhs_uker_config), 24u);
    EXPECT_EQ(sizeof(kai_matmul_pack_rhs_uker_args), 96u);
    EXPECT_EQ(offsetof(kai_matmul_pack_rhs_uker_args, operand), 24u);
    EXPECT_EQ(offsetof(kai_matmul_pack_rhs_uker_operand_args, rhs_packed), 24u);
    EXPECT_EQ(offsetof(kai_matmul_pack_rhs_uker_operand_args, bias_n), 40u);
    EXPECT_EQ(offsetof(kai_matmul_pack_rhs_uker_operand_args, scale_global), 64u);
    EXPECT_EQ(sizeof(kai_matmul_pack_rhs_uker_api), 72u);
    EXPECT_EQ(offsetof(kai_matmul_pack_rhs_uker_api, get_bias_n_offset), 56u);
    EXPECT_EQ(offsetof(kai_matmul_pack_rhs_uker_api, get_scale_n_offset), 64u);
    EXPECT_EQ(sizeof(kai_matmul_pack_rhs_uker_config), 32u);
    EXPECT_EQ(sizeof(kai_matmul_pack_rhs_uker_rhs_args), 24u);
    EXPECT_EQ(static_cast<unsigned>(KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP), 0x10000u);
}

// Every function KleidiAI v1.30.0 declares in the three headers, by name and type (decltype does not odr-use
// them, so nothing needs a definition).
#define KAI_EXPECT_DECL(api, fn) static_assert(std::is_same<decltype(fn), api(void)>::value, #fn)
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot);
KAI_EXPECT_DECL(kai_matmul_uker_api, kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot);
KAI_EXPECT_DECL(kai_matmul_pack_lhs_uker_api, kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme);
KAI_EXPECT_DECL(kai_matmul_pack_lhs_uker_api, kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme);
KAI_EXPECT_DECL(kai_matmul_pack_rhs_uker_api, kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme);

// A kai_matmul_uker_api around kai's f32 NEON GEMM, as an engine's dispatch table would hold one.
void run_f32(const kai_matmul_uker_config*, const kai_matmul_uker_args* a) {
    const bool clamp = (a->flags & KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP) != 0;
    const float lo = clamp ? *static_cast<const float*>(a->activation.clamp.min_ptr) : -FLT_MAX;
    const float hi = clamp ? *static_cast<const float*>(a->activation.clamp.max_ptr) : FLT_MAX;
    kai_run_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(
        a->shape.m, a->shape.n, a->shape.k, a->operand.lhs.ptr, a->operand.lhs.stride.m, a->operand.rhs.ptr,
        a->operand.dst.ptr, a->operand.dst.stride.m, sizeof(float), lo, hi);
}
kai_matmul_uker_dim_args step_f32(const kai_matmul_uker_config*) {
    return {6, 8, 0};
}
size_t dst_offset_f32(const kai_matmul_uker_config*, const kai_matmul_uker_dst_dim_args* i, const kai_matmul_uker_dst_stride_args* s) {
    return kai_get_dst_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(i->m, i->n, s->m);
}

TEST(GenericApi, ArgsStructsDriveAKernel) {
    kai_matmul_uker_api api;
    std::memset(&api, 0, sizeof(api));
    api.run = run_f32;
    api.get_step = step_f32;
    api.get_dst_offset = dst_offset_f32;
    const size_t m = 9, n = 19, k = 13;
    const std::vector<float> lhs = kai_test::random_f32(m * k, -1.0f, 1.0f, 5);
    const std::vector<float> rhs = kai_test::random_f32(k * n, -1.0f, 1.0f, 6);
    const std::vector<float> bias = kai_test::random_f32(n, -1.0f, 1.0f, 7);
    std::vector<uint8_t> packed(kai_get_rhs_packed_size_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(n, k));
    kai_run_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(1, n, k, 8, 1, 1, n * 4, rhs.data(), bias.data(), nullptr,
                                                     packed.data(), 0, nullptr);
    std::vector<float> direct(m * n), generic(m * n, 0.0f);
    kai_run_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(m, n, k, lhs.data(), k * 4, packed.data(), direct.data(),
                                                               n * 4, 4, -0.5f, 0.5f);
    const float lo = -0.5f, hi = 0.5f;
    const kai_matmul_uker_config config = {{0}};
    // Two calls, one per band of rows the step allows, as a threaded engine splits the problem.
    const kai_matmul_uker_dim_args step = api.get_step(&config);
    for (size_t m0 = 0; m0 < m; m0 += step.m) {
        kai_matmul_uker_args a;
        std::memset(&a, 0, sizeof(a));
        a.flags = KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP;
        a.shape = {std::min(step.m, m - m0), n, k};
        a.operand.lhs.ptr = lhs.data() + m0 * k;
        a.operand.lhs.stride.m = k * 4;
        a.operand.rhs.ptr = packed.data();
        const kai_matmul_uker_dst_dim_args at = {m0, 0};
        const kai_matmul_uker_dst_stride_args ds = {n * 4};
        a.operand.dst.ptr = reinterpret_cast<uint8_t*>(generic.data()) + api.get_dst_offset(&config, &at, &ds);
        a.operand.dst.stride = ds;
        a.activation.clamp.min_ptr = &lo;
        a.activation.clamp.max_ptr = &hi;
        api.run(&config, &a);
    }
    EXPECT_EQ(0, std::memcmp(direct.data(), generic.data(), direct.size() * 4));
}

}  // namespace
