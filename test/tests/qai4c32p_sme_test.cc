// SPDX-License-Identifier: Apache-2.0
// Tests of the SME2 kernels of the asymmetric int4 families (docs/matmul_int4_asymmetric.md; docs/formats.md,
// "qai4c32p SME2 matmul"): kai_matmul_clamp_{f32,f16}_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa and
// kai_matmul_clamp_{f32,f16}_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot, at SVL 128 and 512 bits (prctl: mr, nr, the
// steps and the packed layouts change with it):
//  - bit-exact against the reference recipe over shapes (tile - 1 / tile / tile + 1, several row and column tiles,
//    K from one block to past 16384), bl 32 to 256, both LHS packers, both nrx4 RHS packers, bias or none, clamps
//    (none, biting, inverted, one-sided), sub-tiles through the offset getters and a wider dst stride with a sentinel
//    around the tile;
//  - special inputs: NaN / infinite scales and zeros give FCLAMP's bound (KleidiAI's bits);
//  - the getters at each SVL, m == 0 / n == 0;
//  - the KleidiAI v1.30.0 vectors (SVL 128 and 512): kai's packers reproduce the packed buffers, the kernels the
//    outputs;
//  - every documented precondition (death tests, debug builds).
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1); every kernel call goes through KAI_ABI, which checks
// the callee-saved registers.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qai4c32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qai4c32p_registry.h"

#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#endif

extern "C" {
// test/tests/sme_abi_probe.S: a caller with live ZA and a pending lazy save, and the state after the call.
void kai_test_za_arm_lazy_save(const void* pattern, void* tpidr2_block);
void kai_test_za_finish(uint64_t* tpidr2, uint64_t* svcr);
}

namespace {

using kai_registry::Qai4c32pVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;

const std::vector<Qai4c32pVariant>& variants() {
    return kai_registry::qai4c32p_sme2_variants();
}

// Streaming vector lengths in bytes: 128 and 512 bits.
constexpr size_t kSvls[] = {16, 64};

// Sets the SVL of this thread; true when it took.
bool use_svl(size_t bytes) {
    const int r = prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0);
    return r >= 0 && static_cast<size_t>(r & 0xffff) == bytes;
}

bool is_gemm(const Qai4c32pVariant& v) {
    return std::strstr(v.name, "_mopa") != nullptr;
}

kai_ref::Sme2Recipe recipe(const Qai4c32pVariant& v) {
    if (!is_gemm(v)) return kai_ref::Sme2Recipe::kDot;
    return v.f16_out ? kai_ref::Sme2Recipe::kMopaF16 : kai_ref::Sme2Recipe::kMopa;
}

std::string tag(const Qai4c32pVariant& v) {
    return std::string(v.f16_out ? "f16_" : "f32_") + (is_gemm(v) ? "mopa" : "dot");
}

// ---------------------------------------------------------------------------------------------
// Inputs: activations exact in f16 (so both LHS packers see the same values), with a zero row, a
// constant row and a tie row (one +-127 per block, half-integers elsewhere: scale exactly 1) when m >= 4;
// AWQ-style weights, scale in [0.003, 0.04), zero = scale * (8 - zp), zp in [0, 15].
// ---------------------------------------------------------------------------------------------

struct Inputs {
    size_t m, n, k, bl;
    std::vector<float> x;
    std::vector<uint16_t> xh;
    std::vector<uint8_t> rows;     // s0s1, n x k / 2
    std::vector<uint8_t> rows10;   // the same nibbles, s1s0
    std::vector<float> scale, zero, bias;
};

Inputs make_inputs(size_t m, size_t n, size_t k, size_t bl, uint64_t seed) {
    kai_test::Rng rng(seed);
    Inputs in{m, n, k, bl, {}, {}, {}, {}, {}, {}, {}};
    const size_t nb = k / bl;
    in.x.resize(m * k);
    for (size_t i = 0; i < m; ++i) {
        const float span = std::ldexp(1.5f, static_cast<int>(rng.integer(-4, 2)));
        for (size_t kk = 0; kk < k; ++kk) {
            float v = rng.uniform(-span, span);
            if (m >= 4 && i == 1) v = 0.0f;
            if (m >= 4 && i == 2) v = 0.8125f;
            if (m >= 4 && i == 3) {
                v = kk % bl == 3 ? ((kk / bl) % 2 ? 127.0f : -127.0f) : static_cast<float>(rng.integer(-126, 125)) + 0.5f;
            }
            in.x[i * k + kk] = kai_ref::f32_from_f16(kai_ref::f16_from_f32(v));
        }
    }
    in.xh.resize(in.x.size());
    for (size_t i = 0; i < in.x.size(); ++i) in.xh[i] = kai_ref::f16_from_f32(in.x[i]);
    in.rows.resize(n * k / 2);
    in.rows10.resize(n * k / 2);
    for (size_t i = 0; i < in.rows.size(); ++i) {
        in.rows[i] = static_cast<uint8_t>(rng.next_u64() >> 17);
        in.rows10[i] = static_cast<uint8_t>((in.rows[i] >> 4) | (in.rows[i] << 4));
    }
    in.scale.resize(n * nb);
    in.zero.resize(n * nb);
    in.bias.resize(n);
    for (size_t j = 0; j < n; ++j) {
        for (size_t b = 0; b < nb; ++b) {
            const float s = rng.uniform(0.003f, 0.04f);
            in.scale[j * nb + b] = s;
            in.zero[j * nb + b] = s * static_cast<float>(8 - static_cast<int>(rng.integer(0, 15)));
        }
        in.bias[j] = rng.uniform(-0.75f, 0.75f);
    }
    return in;
}

// The packed operands at the SVL in force: LHS from the f32 or f16 packer, RHS from the s0s1 or s1s0 packer.
struct Packed {
    std::unique_ptr<GuardedBuffer> lhs, rhs;
};

Packed pack(const Qai4c32pVariant& v, const Inputs& in, bool f16_lhs, bool s1s0, bool bias) {
    Packed p;
    const size_t mr = v.mr(), nr = v.nr(), kr = v.kr(), sr = v.sr();
    if (f16_lhs) {
        p.lhs = std::make_unique<GuardedBuffer>(
            KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(in.m, in.k, in.bl, mr, kr, sr));
        KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(in.m, in.k, in.bl, mr, kr, sr, 0, in.xh.data(), in.k * 2,
                                                                  p.lhs->data());
    } else {
        p.lhs = std::make_unique<GuardedBuffer>(
            KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(in.m, in.k, in.bl, mr, kr, sr));
        KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(in.m, in.k, in.bl, mr, kr, sr, 0, in.x.data(), in.k * 4,
                                                                  p.lhs->data());
    }
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    const float* b = bias ? in.bias.data() : nullptr;
    p.rhs = std::make_unique<GuardedBuffer>(
        KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon)(in.n, in.k, nr, kr, in.bl));
    if (s1s0) {
        KAI_ABI(kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon)(
            1, in.n, in.k, nr, kr, sr, in.bl, in.rows10.data(), in.zero.data(), b, in.scale.data(), p.rhs->data(), 0, &params);
    } else {
        KAI_ABI(kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon)(
            1, in.n, in.k, nr, kr, sr, in.bl, in.rows.data(), in.zero.data(), b, in.scale.data(), p.rhs->data(), 0, &params);
    }
    return p;
}

std::vector<float> reference(const Qai4c32pVariant& v, const Inputs& in, bool f16_lhs, bool bias, float lo, float hi) {
    const kai_ref::Qsi8d32s q = f16_lhs ? kai_ref::quantize_qsi8d32s_f16(in.m, in.k, in.bl, in.xh.data(), in.k * 2)
                                        : kai_ref::quantize_qsi8d32s_f32(in.m, in.k, in.bl, in.x.data(), in.k * 4);
    return kai_ref::matmul_qsi8d32p_qai4c32p_sme2(q, in.n, in.rows.data(), in.scale.data(), in.zero.data(),
                                                  bias ? in.bias.data() : nullptr, lo, hi, recipe(v));
}

uint32_t want_bits(const Qai4c32pVariant& v, float y) {
    return v.f16_out ? kai_ref::f16_from_f32(y) : kai_ref::f32_bits(y);
}

void run(const Qai4c32pVariant& v, size_t m, size_t n, size_t k, size_t bl, const void* lp, const void* rp, void* dst,
         size_t stride, float lo, float hi) {
    if (v.f16_out) {
        KAI_ABI(v.f16.run_matmul)(m, n, k, bl, lp, rp, dst, stride, 2, lo, hi);
    } else {
        KAI_ABI(v.f32.run_matmul)(m, n, k, bl, lp, rp, static_cast<float*>(dst), stride, 4, lo, hi);
    }
}

size_t lhs_off(const Qai4c32pVariant& v, size_t m_idx, size_t k, size_t bl) {
    return v.f16_out ? v.f16.get_lhs_packed_offset(m_idx, k, bl) : v.f32.get_lhs_packed_offset(m_idx, k, bl);
}
size_t rhs_off(const Qai4c32pVariant& v, size_t n_idx, size_t k, size_t bl) {
    return v.f16_out ? v.f16.get_rhs_packed_offset(n_idx, k, bl) : v.f32.get_rhs_packed_offset(n_idx, k, bl);
}
size_t dst_off(const Qai4c32pVariant& v, size_t m_idx, size_t n_idx, size_t stride) {
    return v.f16_out ? v.f16.get_dst_offset(m_idx, n_idx, stride) : v.f32.get_dst_offset(m_idx, n_idx, stride);
}

// ---------------------------------------------------------------------------------------------
// Kernels against the reference.
// ---------------------------------------------------------------------------------------------

enum class Clamp { kNone, kBite, kInverted, kRelu };
enum class Split { kWhole, kTiles, kOneTile };

struct Case {
    size_t variant, svl;  // svl in bytes
    size_t m, n, k, bl;   // m / n may be given in tiles: see cases()
    bool f16_lhs, s1s0, bias;
    Clamp clamp;
    Split split;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    const bool reduced = kai_test::reduced_sweep();
    for (size_t vi = 0; vi < variants().size(); ++vi) {
        const bool gemm = is_gemm(variants()[vi]);
        for (size_t svl : kSvls) {
            const size_t vl = svl / 4, ms = gemm ? vl : 1, ns = 4 * vl;
            struct Shape {
                size_t m, n, k, bl;
            };
            std::vector<Shape> shapes = {
                {1, 1, 32, 32},
                {ms + 1, ns + 1, 128, 64},
                {2 * ms + 3, 2 * ns + 3, 96, 32},
                {ms, ns - 1, 256, 256},
                {gemm ? ms - 1 : 3, ns, 320, 160},
            };
            if (!reduced) {
                shapes.push_back({7, 3 * ns + 5, 1024, 128});
                shapes.push_back({gemm ? 3 * ms + 1 : 2, 9, 2048, 32});
            }
            if (svl == 16) shapes.push_back({gemm ? ms + 1 : 1, ns + 1, 16448, 64});  // past 16384
            size_t c = 0;
            for (const Shape& s : shapes) {
                for (int t = 0; t < (reduced ? 2 : 4); ++t, ++c) {
                    const Clamp cl = static_cast<Clamp>((c + t) % 4);
                    const Split sp = static_cast<Split>(c % 3);
                    out.push_back({vi, svl, s.m, s.n, s.k, s.bl, (c % 2) == 1, (c / 2) % 2 == 1, c % 3 != 2, cl, sp});
                    if (s.k > 4096) break;  // once
                }
            }
        }
    }
    return out;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
    const Case& c = info.param;
    static const char* clamps[] = {"", "_clamp", "_inverted", "_relu"};
    static const char* splits[] = {"", "_tiles", "_onetile"};
    return tag(variants()[c.variant]) + "_svl" + std::to_string(c.svl * 8) + "_m" + std::to_string(c.m) + "_n" +
           std::to_string(c.n) + "_k" + std::to_string(c.k) + "_bl" + std::to_string(c.bl) + (c.f16_lhs ? "_lhsf16" : "") +
           (c.s1s0 ? "_s1s0" : "") + (c.bias ? "_bias" : "") + clamps[static_cast<int>(c.clamp)] +
           splits[static_cast<int>(c.split)] + "_" + std::to_string(info.index);
}

void bounds(Clamp c, std::vector<float> y, float* lo, float* hi) {
    *lo = -FLT_MAX;
    *hi = FLT_MAX;
    if (c == Clamp::kNone) return;
    std::sort(y.begin(), y.end());
    const float a = y[y.size() / 4], b = y[y.size() * 3 / 4];
    if (c == Clamp::kBite) {
        *lo = a;
        *hi = b;
    } else if (c == Clamp::kInverted) {
        *lo = b + 0.5f;
        *hi = a - 0.5f;
    } else {
        *lo = 0.0f;
    }
}

class Qai4c32pSme2Matmul : public testing::TestWithParam<Case> {};

TEST_P(Qai4c32pSme2Matmul, BitExact) {
    const Case& c = GetParam();
    const Qai4c32pVariant& v = variants()[c.variant];
    KAI_TEST_SKIP_UNLESS(v.features | KAI_FEATURE_FP16);
    ASSERT_TRUE(use_svl(c.svl));
    const uint64_t seed = kai_test::seed_from(case_name(testing::TestParamInfo<Case>(c, 0)));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t m = c.m, n = c.n, k = c.k, bl = c.bl;
    ASSERT_EQ(v.nr(), 4 * c.svl / 4);
    const Inputs in = make_inputs(m, n, k, bl, seed);
    float lo, hi;
    bounds(c.clamp, reference(v, in, c.f16_lhs, c.bias, -FLT_MAX, FLT_MAX), &lo, &hi);
    const std::vector<float> ref = reference(v, in, c.f16_lhs, c.bias, lo, hi);
    const Packed p = pack(v, in, c.f16_lhs, c.s1s0, c.bias);

    const size_t es = v.dst_elem(), stride = (n + 3) * es, ms = v.m_step(), ns = v.n_step();
    DstBuffer dst(m, n + 1, es, stride);
    auto tile = [&](size_t m0, size_t mh, size_t n0, size_t nw) {
        run(v, mh, nw, k, bl, p.lhs->data() + lhs_off(v, m0, k, bl), p.rhs->data() + rhs_off(v, n0, k, bl),
            dst.at(0, 0) + dst_off(v, m0, n0, stride), stride, lo, hi);
    };
    size_t r0 = 0, rn = m, c0 = 0, cn = n;
    if (c.split == Split::kWhole) {
        tile(0, m, 0, n);
    } else if (c.split == Split::kTiles) {
        for (size_t m0 = 0; m0 < m; m0 += ms) {
            for (size_t n0 = 0; n0 < n; n0 += ns) tile(m0, std::min(ms, m - m0), n0, std::min(ns, n - n0));
        }
    } else {
        r0 = m > ms ? ms : 0;
        c0 = n > ns ? ns : 0;
        rn = std::min(ms, m - r0);
        cn = std::min(ns, n - c0);
        tile(r0, rn, c0, cn);
    }
    EXPECT_TRUE(dst.untouched_outside(r0, rn, c0, cn));
    size_t bad = 0;
    for (size_t i = r0; i < r0 + rn && bad < 5; ++i) {
        for (size_t j = c0; j < c0 + cn && bad < 5; ++j) {
            const uint32_t got = dst.bits(i, j), want = want_bits(v, ref[i * n + j]);
            if (got != want) {
                ++bad;
                ADD_FAILURE() << "dst[" << i << "][" << j << "] bits 0x" << std::hex << got << ", expected 0x" << want
                              << std::dec << " (" << ref[i * n + j] << ")";
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Qai4c32pSme2Matmul, testing::ValuesIn(cases()), case_name);

class Qai4c32pSme2Variant : public testing::TestWithParam<size_t> {};

std::string variant_tag(const testing::TestParamInfo<size_t>& info) {
    return tag(variants()[info.param]);
}

// NaN and infinite scales / zeros: the sum is NaN or infinite, and FCLAMP gives the bound for a NaN (KleidiAI's
// bits; docs/formats.md, "qai4c32p SME2 matmul").
TEST_P(Qai4c32pSme2Variant, NonFiniteWeightsGiveTheClampBound) {
    const Qai4c32pVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(use_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t m = is_gemm(v) ? 5 : 2, n = 9, k = 64, bl = 32;
        Inputs in = make_inputs(m, n, k, bl, 404 + svl);
        const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
        in.scale[0 * 2 + 1] = nan;  // column 0: NaN
        in.zero[1 * 2 + 0] = inf;   // column 1: +inf (NaN where the LHS sum is 0, row 1)
        in.zero[2 * 2 + 1] = -inf;  // column 2: -inf
        in.zero[3 * 2 + 0] = inf;   // column 3: inf - inf
        in.zero[3 * 2 + 1] = -inf;
        in.scale[4 * 2 + 0] = inf;  // column 4: infinite scale
        for (const float lo : {-FLT_MAX, -0.25f}) {
            const float hi = lo == -FLT_MAX ? FLT_MAX : 0.5f;
            const std::vector<float> ref = reference(v, in, false, true, lo, hi);
            const Packed p = pack(v, in, false, false, true);
            DstBuffer dst(m, n, v.dst_elem(), n * v.dst_elem());
            run(v, m, n, k, bl, p.lhs->data(), p.rhs->data(), dst.at(0, 0), n * v.dst_elem(), lo, hi);
            size_t nans = 0;
            for (size_t i = 0; i < m; ++i) {
                for (size_t j = 0; j < n; ++j) {
                    ASSERT_EQ(dst.bits(i, j), want_bits(v, ref[i * n + j])) << i << "," << j << " lo " << lo;
                    EXPECT_FALSE(std::isnan(dst.value(i, j))) << i << "," << j;
                    nans += std::isnan(kai_ref::matmul_qsi8d32p_qai4c32p_sme2(
                                kai_ref::quantize_qsi8d32s_f32(1, k, bl, in.x.data() + i * k, k * 4), 1,
                                in.rows.data() + j * k / 2, in.scale.data() + j * 2, in.zero.data() + j * 2, nullptr,
                                std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN(),
                                recipe(v))[0]);
                }
            }
            EXPECT_GT(nans, 0u) << "no NaN sum: the case does not test FCLAMP";
        }
    }
}

// Getters at each SVL (docs/formats.md, "qai4c32p SME2 matmul"); m == 0 and n == 0 write nothing.
TEST_P(Qai4c32pSme2Variant, GettersFollowTheSvl) {
    const Qai4c32pVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(use_svl(svl));
        const size_t vl = svl / 4, k = 96, bl = 32, nb = k / bl;
        EXPECT_EQ(v.m_step(), is_gemm(v) ? vl : 1u);
        EXPECT_EQ(v.mr(), is_gemm(v) ? vl : 1u);
        EXPECT_EQ(v.n_step(), 4 * vl);
        EXPECT_EQ(v.nr(), 4 * vl);
        EXPECT_EQ(v.kr(), 8u);
        EXPECT_EQ(v.sr(), 2u);
        EXPECT_EQ(lhs_off(v, 3 * v.mr(), k, bl), 3 * v.mr() * nb * (bl + 8));
        EXPECT_EQ(rhs_off(v, 2 * v.nr(), k, bl), 2 * v.nr() * (nb * (bl / 2 + 8) + 4));
        EXPECT_EQ(dst_off(v, v.m_step(), v.n_step(), 1000), 1000 * v.m_step() + v.n_step() * v.dst_elem());
        const size_t size = v.f16_out ? v.f16.get_dst_size(3, 7) : v.f32.get_dst_size(3, 7);
        EXPECT_EQ(size, 21 * v.dst_elem());
        EXPECT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(5, k, v.nr(), 8, bl),
                  rhs_off(v, v.nr(), k, bl));
        DstBuffer dst(2, 3, v.dst_elem(), 3 * v.dst_elem());
        GuardedBuffer lp(16), rp(16);
        run(v, 0, 3, k, bl, lp.data(), rp.data(), dst.at(0, 0), 3 * v.dst_elem(), -FLT_MAX, FLT_MAX);
        run(v, 2, 0, k, bl, lp.data(), rp.data(), dst.at(0, 0), 3 * v.dst_elem(), -FLT_MAX, FLT_MAX);
        EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
    }
}

// A caller with live ZA and a pending lazy save (AAPCS64 SME): the kernel saves ZA to the caller's buffer, clears
// TPIDR2_EL0 and returns with streaming mode and ZA off, and its result is unchanged.
TEST_P(Qai4c32pSme2Variant, CommitsAPendingLazyZaSave) {
    const Qai4c32pVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(use_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t m = is_gemm(v) ? svl / 4 + 1 : 1, n = 11, k = 64, bl = 32;
        const Inputs in = make_inputs(m, n, k, bl, 31 + svl);
        const std::vector<float> ref = reference(v, in, false, true, -FLT_MAX, FLT_MAX);
        const Packed p = pack(v, in, false, false, true);
        DstBuffer dst(m, n, v.dst_elem(), n * v.dst_elem());
        std::vector<uint8_t> pattern(svl * svl), save(svl * svl, 0);
        for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 13 + i / svl + 5);
        struct alignas(16) {
            uint64_t buffer;
            uint16_t slices;
            uint8_t reserved[6];
        } block = {reinterpret_cast<uint64_t>(save.data()), static_cast<uint16_t>(svl), {}};
        kai_test_za_arm_lazy_save(pattern.data(), &block);
        if (v.f16_out) {
            v.f16.run_matmul(m, n, k, bl, p.lhs->data(), p.rhs->data(), dst.at(0, 0), n * 2, 2, -FLT_MAX, FLT_MAX);
        } else {
            v.f32.run_matmul(m, n, k, bl, p.lhs->data(), p.rhs->data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4,
                             -FLT_MAX, FLT_MAX);
        }
        uint64_t tpidr2 = 1, svcr = 1;
        kai_test_za_finish(&tpidr2, &svcr);
        EXPECT_EQ(tpidr2, 0u) << "TPIDR2_EL0 not cleared: the lazy save was not committed";
        EXPECT_EQ(svcr & 3u, 0u) << "SVCR.SM / SVCR.ZA after the call";
        EXPECT_TRUE(kai_test::bytes_equal(save.data(), pattern.data(), pattern.size())) << "ZA save buffer";
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) ASSERT_EQ(dst.bits(i, j), want_bits(v, ref[i * n + j])) << i << "," << j;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, Qai4c32pSme2Variant, testing::Range(size_t{0}, variants().size()), variant_tag);

// ---------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 vectors (test/data/compat, SVL 128 and 512): kai's packers reproduce the packed buffers from the
// stored inputs, and the kernels the outputs from the stored packed buffers.
// ---------------------------------------------------------------------------------------------

TEST(Qai4c32pSme2Compat, KernelsAndPackers) {
    size_t files = 0;
    for (const Qai4c32pVariant& v : variants()) {
        KAI_TEST_SKIP_UNLESS(v.features | KAI_FEATURE_FP16);
        for (const std::string& path : kai_test::list_compat_vectors(std::string(v.name) + "__")) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector f = kai_test::load_compat_vector(path);
            const std::string vlen = f.str("vector_length");
            ASSERT_TRUE(vlen == "svl128" || vlen == "svl512") << vlen;
            ASSERT_TRUE(use_svl(vlen == "svl128" ? 16 : 64));
            const size_t m = f.size("m"), n = f.size("n"), k = f.size("k"), bl = f.size("bl");
            EXPECT_EQ(v.m_step(), f.size("m_step"));
            EXPECT_EQ(v.n_step(), f.size("n_step"));
            EXPECT_EQ(v.mr(), f.size("mr"));
            EXPECT_EQ(v.nr(), f.size("nr"));
            EXPECT_EQ(v.kr(), f.size("kr"));
            EXPECT_EQ(v.sr(), f.size("sr"));
            const auto& lp = f.section("lhs_packed");
            const auto& rp = f.section("rhs_packed");
            // kai's packers on the stored inputs.
            GuardedBuffer lhs_k(lp.bytes.size(), 0x00), rhs_k(rp.bytes.size(), 0xEE);
            if (v.f16_out) {
                KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(m, k, bl, v.mr(), v.kr(), v.sr(), 0,
                                                                          f.section("lhs").bytes.data(), k * 2, lhs_k.data());
            } else {
                KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(m, k, bl, v.mr(), v.kr(), v.sr(), 0,
                                                                          f.section("lhs").f32(), k * 4, lhs_k.data());
            }
            EXPECT_TRUE(kai_test::bytes_equal(lhs_k.data(), lp.bytes.data(), lp.bytes.size(), lp.mask.data()));
            const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
            ASSERT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(n, k, v.nr(), 8, bl),
                      rp.bytes.size());
            KAI_ABI(kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon)(
                1, n, k, v.nr(), v.kr(), v.sr(), bl, f.section("rhs").bytes.data(), f.section("zero").bytes.data(),
                f.has_section("bias") ? f.section("bias").bytes.data() : nullptr, f.section("scale").bytes.data(),
                rhs_k.data(), 0, &params);
            EXPECT_TRUE(kai_test::bytes_equal(rhs_k.data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
            // The kernel on KleidiAI's packed buffers (copied into guarded buffers), its rows gathered densely.
            std::memcpy(lhs_k.data(), lp.bytes.data(), lp.bytes.size());
            std::memcpy(rhs_k.data(), rp.bytes.data(), rp.bytes.size());
            const size_t es = v.dst_elem();
            DstBuffer dst(m, n, es, (n + 2) * es);
            run(v, m, n, k, bl, lhs_k.data(), rhs_k.data(), dst.at(0, 0), (n + 2) * es, f.clamp_min(), f.clamp_max());
            std::vector<uint8_t> got(m * n * es);
            for (size_t i = 0; i < m; ++i) std::memcpy(got.data() + i * n * es, dst.at(i, 0), n * es);
            EXPECT_TRUE(kai_test::bytes_equal(got.data(), f.section("dst").bytes.data(), got.size(), nullptr)) << "dst";
            EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
            ++files;
        }
    }
    EXPECT_EQ(files, 32u);  // 4 kernels x 4 shapes x 2 SVLs
}

// ---------------------------------------------------------------------------------------------
// Preconditions (debug builds print the message; release builds only abort).
// ---------------------------------------------------------------------------------------------

#ifndef NDEBUG
class Qai4c32pSme2DeathTest : public testing::TestWithParam<size_t> {};

TEST_P(Qai4c32pSme2DeathTest, EachViolationAbortsNamingTheParameter) {
    const Qai4c32pVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(use_svl(16));
    const std::string stem = std::string(v.name).substr(std::string("kai_").size());
    const std::string file = std::string(v.name) + ".c";
    const size_t m = 2, n = 4, k = 64, bl = 32, es = v.dst_elem();
    const Inputs in = make_inputs(m, n, k, bl, 77);
    const Packed p = pack(v, in, false, false, false);
    std::vector<uint8_t> dst(m * n * es);
    auto call = [&](const void* l, const void* r, void* d, size_t kk, size_t b, size_t stride, size_t col) {
        if (v.f16_out) {
            v.f16.run_matmul(m, n, kk, b, l, r, d, stride, col, -FLT_MAX, FLT_MAX);
        } else {
            v.f32.run_matmul(m, n, kk, b, l, r, static_cast<float*>(d), stride, col, -FLT_MAX, FLT_MAX);
        }
    };
    const std::string run_fn = "kai_run_" + stem;
    std::vector<kai_test::PreconditionCase> cs = {
        {run_fn, file, "bl must be a non-zero multiple of 32",
         [&](bool bad) { call(p.lhs->data(), p.rhs->data(), dst.data(), k, bad ? 48 : bl, n * es, es); }},
        {run_fn, file, "k must be a multiple of bl",
         [&](bool bad) { call(p.lhs->data(), p.rhs->data(), dst.data(), bad ? 48 : k, bl, n * es, es); }},
        {run_fn, file, "dst_stride_col must be the dst element size",
         [&](bool bad) { call(p.lhs->data(), p.rhs->data(), dst.data(), k, bl, n * es, bad ? 8 : es); }},
        {run_fn, file, "lhs_packed must not be NULL",
         [&](bool bad) { call(bad ? nullptr : p.lhs->data(), p.rhs->data(), dst.data(), k, bl, n * es, es); }},
        {run_fn, file, "rhs_packed must not be NULL",
         [&](bool bad) { call(p.lhs->data(), bad ? nullptr : p.rhs->data(), dst.data(), k, bl, n * es, es); }},
        {run_fn, file, "dst must not be NULL",
         [&](bool bad) { call(p.lhs->data(), p.rhs->data(), bad ? nullptr : dst.data(), k, bl, n * es, es); }},
        {run_fn, file, "dst_stride_row must be at least n elements when m > 1",
         [&](bool bad) { call(p.lhs->data(), p.rhs->data(), dst.data(), k, bl, (bad ? n - 1 : n) * es, es); }},
        {"kai_get_rhs_packed_offset_" + stem, file, "n_idx must be a multiple of nr",
         [&](bool bad) { (void)rhs_off(v, bad ? v.nr() / 2 : v.nr(), k, bl); }},
        {"kai_get_dst_offset_" + stem, file, "n_idx must be a multiple of n_step",
         [&](bool bad) { (void)dst_off(v, 0, bad ? v.n_step() / 2 : v.n_step(), 64); }},
    };
    if (is_gemm(v)) {
        cs.push_back({"kai_get_lhs_packed_offset_" + stem, file, "m_idx must be a multiple of mr",
                      [&](bool bad) { (void)lhs_off(v, bad ? v.mr() / 2 : v.mr(), k, bl); }});
        cs.push_back({"kai_get_dst_offset_" + stem, file, "m_idx must be a multiple of m_step",
                      [&](bool bad) { (void)dst_off(v, bad ? v.m_step() / 2 : v.m_step(), 0, 64); }});
    }
    kai_test::expect_preconditions(cs);
}

INSTANTIATE_TEST_SUITE_P(Variants, Qai4c32pSme2DeathTest, testing::Range(size_t{0}, variants().size()), variant_tag);
#endif  // NDEBUG

// The block checks abort in every build (release too), getters included.
TEST(Qai4c32pSme2BlockDeathTest, BadBlAbortsInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    for (const Qai4c32pVariant& v : variants()) {
        const std::string re = kai_test::kai_error_regex(std::string(v.name) + ".c", "bl must be a non-zero multiple of 32");
        EXPECT_DEATH((void)lhs_off(v, 0, 96, 0), re) << v.name;
        EXPECT_DEATH((void)rhs_off(v, 0, 96, 48), re) << v.name;
        EXPECT_DEATH((void)rhs_off(v, 0, 96, 64),
                     kai_test::kai_error_regex(std::string(v.name) + ".c", "k must be a multiple of bl"))
            << v.name;
    }
}

}  // namespace
