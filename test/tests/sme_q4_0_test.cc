// SPDX-License-Identifier: Apache-2.0
// Tests of the SME / SME2 GGUF Q4_0 kernels (docs/matmul_q4_0.md, docs/formats.md, "qsi8d32p matmul", "Q4_0 layouts of the SME kernels" and "SME packed layouts"), each at SVL 128, 512 and 2048
// bits (prctl(PR_SME_SET_VL) in the test: nr, n_step and the packed RHS layout change with it):
//  - kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot, the SME twin of the GEMV below (RHS packer
//    kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon), through the same cases, bit-exact on the rows as it sees
//    them (scales 16 * f16(d / 16));
//  - kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa within 2 (K + 2) 2^-24 sum |a w| of the exact sum
//    of its f16 operands (test/reference/f16p_qsi4c32p_ref), and kai_lhs_pack_f16pmrx2_f32_neon byte-exact;
//  - kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot (family qsi8d32p, packers
//    kai_lhs_quant_pack_qsi8d32p_f32_neon and kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon): bit-exact
//    against the recipe of docs/formats.md, "qsi8d32p matmul" (test/reference/qsi8d32p_ref) and against the NEON 1x4 dotprod kernel of the
//    family on the same f32 / Q4_0 inputs, over shapes (1x1x32, tile +- 1, primes, K up to 14336, several bl), m > 1,
//    five clamp modes, whole / tile by tile / one sub-tile through the offset getters, a NaN-sentinel destination
//    with a wider row stride, packed inputs ending at guard pages, Q4_0 edge blocks, NaN / inf;
//  - the calling convention (x18-x28, d8-d15 through an assembly canary trampoline; SVCR and a pending lazy ZA
//    save), the KleidiAI v1.30.0 vectors (SVL 512) and every documented precondition (death tests, debug builds).
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1); nothing skips there.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f16p_qsi4c32p/kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f16p_qsi4c32p/kai_matmul_clamp_f32_f16p_qsi4c32p_interface.h"
#include "kai/ukernels/pack/kai_lhs_pack_f16pmrx2_f32_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/f16p_qsi4c32p_ref.h"
#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi8d32p_registry.h"

#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#define PR_SME_GET_VL 64
#endif
#ifndef PR_SME_VL_LEN_MASK
#define PR_SME_VL_LEN_MASK 0xffff
#endif

extern "C" {
struct AbiFrame {
    uint64_t fn;
    uint64_t x[8];
    uint64_t stack_arg;
    float s0, s1;
    uint64_t in_gpr[11];  // x18 ... x28
    uint64_t in_d[8];     // d8 ... d15
    uint64_t out_gpr[11];
    uint64_t out_d[8];
};
void kai_test_abi_call(AbiFrame* f);
void kai_test_za_arm_lazy_save(const void* pattern, void* tpidr2_block);
void kai_test_za_finish(uint64_t* tpidr2, uint64_t* svcr);
}
static_assert(offsetof(AbiFrame, stack_arg) == 72, "frame layout of sme_abi_probe.S");
static_assert(offsetof(AbiFrame, in_gpr) == 88, "frame layout of sme_abi_probe.S");

namespace {

using kai_registry::Qsi8d32pVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;

// The streaming vector lengths the suite runs at, in bytes (128, 512 and 2048 bits).
const std::vector<size_t>& svls() {
    static const std::vector<size_t> v = {16, 64, 256};
    return v;
}

::testing::AssertionResult set_svl(size_t bytes) {
    const int r = prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0);
    if (r < 0) return ::testing::AssertionFailure() << "prctl(PR_SME_SET_VL, " << bytes << ") failed";
    const int got = prctl(PR_SME_GET_VL, 0, 0, 0, 0) & PR_SME_VL_LEN_MASK;
    if (static_cast<size_t>(got) != bytes) {
        return ::testing::AssertionFailure() << "SVL is " << got << " bytes, asked for " << bytes;
    }
    return ::testing::AssertionSuccess();
}

std::string short_name(const char* full) {
    std::string s = full;
    const std::string prefix = "kai_matmul_clamp_f32_";
    if (s.rfind(prefix, 0) == 0) s = s.substr(prefix.size());
    return s;
}

// ------------------------------------------------------------------------------------------------
// Inputs (as the NEON suite's, test/tests/qsi8d32p_test.cc).
// ------------------------------------------------------------------------------------------------

// m x k f32 LHS with row stride `stride` floats: uniform [-2, 2) times a per-row power of two, and, when m >= 5,
// rows of zeros, two constants and exact ties.
std::vector<float> make_lhs(size_t m, size_t k, size_t bl, size_t stride, uint64_t seed) {
    kai_test::Rng rng(seed);
    std::vector<float> x(std::max<size_t>(m * stride, 1), 0.0f);
    for (size_t i = 0; i < m; ++i) {
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3)));
        for (size_t kk = 0; kk < k; ++kk) x[i * stride + kk] = rng.uniform(-2.0f, 2.0f) * mul;
    }
    if (m >= 5) {
        for (size_t kk = 0; kk < k; ++kk) {
            x[1 * stride + kk] = 0.0f;
            x[2 * stride + kk] = 0.8125f;
            x[3 * stride + kk] = -1.375f;
            x[4 * stride + kk] = kk % bl == 0 ? ((kk / bl) % 2 ? -127.0f : 127.0f)
                                              : static_cast<float>(rng.integer(-120, 120)) + 0.5f;
        }
    }
    return x;
}

// n Q4_0-style rows: random nibbles, f16 scales of random sign in [0.001, 0.06), and edge blocks when n >= 4:
// zero block, subnormal scale, largest scale, negative subnormal scale with every nibble 0.
std::vector<uint8_t> make_rows(size_t n, size_t k, size_t bl, uint64_t seed) {
    kai_test::Rng rng(seed);
    const size_t row_bytes = kai_ref::q4_0_row_bytes(k, bl), blk = bl / 2 + 2, nb = k / bl;
    std::vector<uint8_t> rows(n * row_bytes);
    for (auto& b : rows) b = static_cast<uint8_t>(rng.next_u64());
    auto set_scale = [&](size_t j, size_t b, uint16_t h) {
        rows[j * row_bytes + b * blk] = static_cast<uint8_t>(h & 0xFF);
        rows[j * row_bytes + b * blk + 1] = static_cast<uint8_t>(h >> 8);
    };
    for (size_t j = 0; j < n; ++j) {
        for (size_t b = 0; b < nb; ++b) {
            const float d = rng.uniform(0.001f, 0.06f) * (rng.integer(0, 1) ? -1.0f : 1.0f);
            set_scale(j, b, kai_ref::f16_from_f32(d));
        }
    }
    if (n >= 4) {
        set_scale(0, 0, 0x0000);
        std::memset(&rows[0 * row_bytes + 2], 0x88, bl / 2);
        set_scale(1, nb - 1, 0x0005);
        set_scale(2, 0, 0x7BFF);
        set_scale(3, nb - 1, 0x8003);
        std::memset(&rows[3 * row_bytes + (nb - 1) * blk + 2], 0x00, bl / 2);
    }
    return rows;
}

// Clamp bounds from the unclamped result: none, both (20 % / 80 % quantiles), lower only, upper only, inverted.
enum class Clamp { kNone, kBoth, kLow, kHigh, kInverted };

const char* clamp_name(Clamp c) {
    switch (c) {
        case Clamp::kNone: return "";
        case Clamp::kBoth: return "_clamp";
        case Clamp::kLow: return "_min";
        case Clamp::kHigh: return "_max";
        case Clamp::kInverted: return "_inverted";
    }
    return "";
}

void clamp_bounds(Clamp c, const std::vector<float>& unclamped, float* lo, float* hi) {
    *lo = -FLT_MAX;
    *hi = FLT_MAX;
    std::vector<float> s;
    for (float x : unclamped) {
        if (std::isfinite(x)) s.push_back(x);  // quantiles of the finite outputs
    }
    if (c == Clamp::kNone || s.empty()) return;
    std::sort(s.begin(), s.end());
    const float q20 = s[s.size() / 5], q80 = s[s.size() * 4 / 5];
    switch (c) {
        case Clamp::kBoth: *lo = q20; *hi = q80; break;
        case Clamp::kLow: *lo = q20; break;
        case Clamp::kHigh: *hi = q80; break;
        case Clamp::kInverted: *lo = q80 + 1.0f; *hi = q20 - 1.0f; break;
        default: break;
    }
}

const Qsi8d32pVariant& sme_variant(const char* tag) {
    const auto& vs = kai_registry::qsi8d32p_sme_variants();
    for (const auto& v : vs) {
        if (std::strstr(v.name, tag) != nullptr) return v;
    }
    ADD_FAILURE() << "no " << tag << " kernel in the registry";
    return vs.at(0);
}

// The SME2 GEMV (RHS kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon, FCLAMP) and its SME twin (RHS
// kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon, scales d / 16; FMAX / FMIN).
const Qsi8d32pVariant& sdot() {
    return sme_variant("_sme2_sdot");
}
bool is_sme1(const Qsi8d32pVariant& v) {
    return std::strstr(v.name, "_sme_dot") != nullptr;
}
const std::vector<const Qsi8d32pVariant*>& gemvs() {
    static const std::vector<const Qsi8d32pVariant*> g = {&sme_variant("_sme2_sdot"), &sme_variant("_sme_dot")};
    return g;
}

// The Q4_0 rows as a kernel sees them: the twin's packer stores f16(d / 16) (ties to even, lossy below 2^-10), and
// 16 * f16(d / 16) is an f16 again, so the recipe of docs/formats.md, "qsi8d32p matmul" on rows with that scale is the twin's exactly.
std::vector<uint8_t> rows_as_seen(const Qsi8d32pVariant& v, const std::vector<uint8_t>& rows, size_t n, size_t k,
                                  size_t bl) {
    if (!is_sme1(v)) return rows;
    return kai_ref::q4_0_rows_scales_via_sixteenths(rows.data(), n, k, bl);
}

// The packed operands of the SME kernels, at the SVL in force.
struct Packed {
    std::unique_ptr<GuardedBuffer> lhs, rhs;
};

Packed pack_sme(const Qsi8d32pVariant& v, size_t m, size_t n, size_t k, size_t bl, const float* lhs,
                size_t lhs_stride_bytes, const uint8_t* rows) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    Packed p;
    p.lhs = std::make_unique<GuardedBuffer>(
        KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon)(m, k, bl, mr, kr, sr));
    KAI_ABI(kai_run_lhs_quant_pack_qsi8d32p_f32_neon)(m, k, bl, mr, kr, sr, 0, lhs, lhs_stride_bytes, p.lhs->data());
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    if (is_sme1(v)) {
        p.rhs = std::make_unique<GuardedBuffer>(
            KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon)(n, k, nr, kr, bl));
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon)(1, n, k, nr, kr, sr, bl, rows, nullptr,
                                                                        p.rhs->data(), 0, &params);
        return p;
    }
    p.rhs = std::make_unique<GuardedBuffer>(
        KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(n, k, nr, kr, bl));
    KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(1, n, k, nr, kr, sr, bl, rows, nullptr,
                                                                        p.rhs->data(), 0, &params);
    return p;
}

// The SME kernels' FCLAMP on a result of the reference recipe (whose clamp, FMAX / FMIN as in the NEON kernels,
// keeps NaN): a NaN becomes minNum(lo, hi), every other value is the same.
std::vector<float> fclamp_nan(const std::vector<float>& ref, float lo, float hi, bool fclamp = true) {
    std::vector<float> out = ref;
    if (!fclamp) return out;
    for (float& x : out) {
        if (std::isnan(x)) x = std::fmin(lo, hi);
    }
    return out;
}

// The NEON 1x4 dotprod kernel of the family on the same inputs (its own packers): m x n dense.
std::vector<float> neon_result(size_t m, size_t n, size_t k, size_t bl, const float* lhs, size_t lhs_stride_bytes,
                               const uint8_t* rows, float lo, float hi) {
    const size_t mr = 1, nr = 4, kr = 8, sr = 2;
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(m, k, bl, mr, kr, sr));
    kai_run_lhs_quant_pack_qsi8d32p_f32(m, k, bl, mr, kr, sr, 0, lhs, lhs_stride_bytes, lp.data());
    std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n, k, nr, kr, bl));
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, n, k, nr, kr, sr, bl, rows, nullptr, rp.data(), 0, &params);
    std::vector<float> out(m * n);
    kai_run_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod(m, n, k, bl, lp.data(), rp.data(), out.data(),
                                                                       n * 4, 4, lo, hi);
    return out;
}

// ------------------------------------------------------------------------------------------------
// The sdot GEMV: SVL x shape x clamp x tiling.
// ------------------------------------------------------------------------------------------------

enum class Tiling { kWhole, kTiles, kOneTile };

struct SdotCase {
    size_t variant;  // index into gemvs()
    size_t svl;      // bytes
    size_t m, n, k, bl;
    Clamp clamp;
    Tiling tiling;
};

std::vector<SdotCase> sdot_cases() {
    const bool reduced = kai_test::reduced_sweep();
    std::vector<SdotCase> out;
    for (size_t vi = 0; vi < 2; ++vi)
    for (size_t svl : svls()) {
        const size_t nr = svl;  // 4VL = SVL / 8 columns
        struct Shape {
            size_t m, n, k, bl;
        };
        std::vector<Shape> shapes = {
            {1, 1, 32, 32},         {1, nr - 1, 64, 32},   {1, nr, 64, 32},     {1, nr + 1, 96, 32},
            {1, 2 * nr + 3, 128, 64}, {1, 37, 288, 96},    {1, 53, 256, 256},   {3, 11, 224, 32},
            {1, 13, 4096, 128},     {1, 7, 11008, 32},
            {1, nr + 1, 16448, 64},  // past 16384: every path of the K loops (SVL 128 only, twice)
        };
        if (!reduced) {
            shapes.push_back({1, 3, 14336, 32});
            shapes.push_back({2, 131, 1024, 256});
            shapes.push_back({1, 3 * nr + 5, 160, 32});
        }
        for (const auto& s : shapes) {
            const bool big = s.k > 1024;
            if (reduced && big && svl != 64 && s.k <= 16384) continue;
            if (s.k > 16384 && svl != 16) continue;
            for (Clamp c : {Clamp::kNone, Clamp::kBoth, Clamp::kLow, Clamp::kHigh, Clamp::kInverted}) {
                if ((big || reduced) && (c == Clamp::kLow || c == Clamp::kHigh)) continue;
                if (reduced && c == Clamp::kBoth) continue;  // the tiled run below clamps on both sides
                if (s.k > 16384 && c != Clamp::kInverted) continue;
                out.push_back({vi, svl, s.m, s.n, s.k, s.bl, c, Tiling::kWhole});
            }
            out.push_back({vi, svl, s.m, s.n, s.k, s.bl, Clamp::kBoth, Tiling::kTiles});
            if (!big) out.push_back({vi, svl, s.m, s.n, s.k, s.bl, Clamp::kNone, Tiling::kOneTile});
        }
    }
    return out;
}

std::string sdot_case_name(const testing::TestParamInfo<SdotCase>& info) {
    const SdotCase& c = info.param;
    return std::string(c.variant == 0 ? "sme2_sdot" : "sme_dot") + "_svl" + std::to_string(c.svl * 8) + "_m" + std::to_string(c.m) + "_n" + std::to_string(c.n) + "_k" +
           std::to_string(c.k) + "_bl" + std::to_string(c.bl) + clamp_name(c.clamp) +
           (c.tiling == Tiling::kTiles ? "_tiles" : c.tiling == Tiling::kOneTile ? "_onetile" : "");
}

class SmeSdotTest : public testing::TestWithParam<SdotCase> {};

TEST_P(SmeSdotTest, BitExactWithReferenceAndNeon) {
    const SdotCase& c = GetParam();
    const Qsi8d32pVariant& v = *gemvs()[c.variant];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(set_svl(c.svl));
    const auto& uk = v.ukernel;
    const uint64_t seed = kai_test::seed_from(sdot_case_name(testing::TestParamInfo<SdotCase>(c, 0)));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t m = c.m, n = c.n, k = c.k, bl = c.bl;
    const size_t lhs_stride = k + 3;  // floats: a wider row than k (the packer honours lhs_stride)
    const std::vector<float> lhs = make_lhs(m, k, bl, lhs_stride, seed);
    const std::vector<uint8_t> rows = make_rows(n, k, bl, seed + 1);
    const std::vector<uint8_t> seen = rows_as_seen(v, rows, n, k, bl);

    const kai_ref::Qsi8d32 q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), lhs_stride * 4, kai_ref::Q8Rounding::kTiesAway);
    float lo, hi;
    clamp_bounds(c.clamp, kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, seen.data(), -FLT_MAX, FLT_MAX), &lo, &hi);
    const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, seen.data(), lo, hi);
    if ((kai_test::cpu_features() & KAI_FEATURE_DOTPROD) != 0) {
        const std::vector<float> neon = neon_result(m, n, k, bl, lhs.data(), lhs_stride * 4, seen.data(), lo, hi);
        ASSERT_TRUE(kai_test::f32_bits_equal(neon.data(), n * 4, ref.data(), n * 4, m, n)) << "NEON 1x4 vs reference";
    }

    const std::vector<float> want_all = fclamp_nan(ref, lo, hi, !is_sme1(v));
    Packed p = pack_sme(v, m, n, k, bl, lhs.data(), lhs_stride * 4, rows.data());
    const size_t stride = (n + 5) * sizeof(float);
    DstBuffer dst(m, n + 2, sizeof(float), stride);
    const size_t ns = KAI_ABI(uk.get_n_step)();
    EXPECT_EQ(ns, c.svl);
    auto run_tile = [&](size_t m0, size_t mh, size_t n0, size_t nw) {
        KAI_ABI(uk.run_matmul)(mh, nw, k, bl, p.lhs->data() + KAI_ABI(uk.get_lhs_packed_offset)(m0, k, bl),
                               p.rhs->data() + KAI_ABI(uk.get_rhs_packed_offset)(n0, k, bl),
                               reinterpret_cast<float*>(dst.at(0, 0) + KAI_ABI(uk.get_dst_offset)(m0, n0, stride)),
                               stride, sizeof(float), lo, hi);
    };
    size_t r0 = 0, rn = m, c0 = 0, cn = n;
    switch (c.tiling) {
        case Tiling::kWhole:
            run_tile(0, m, 0, n);
            break;
        case Tiling::kTiles:
            for (size_t m0 = 0; m0 < m; ++m0) {
                for (size_t n0 = 0; n0 < n; n0 += ns) run_tile(m0, 1, n0, std::min(ns, n - n0));
            }
            break;
        case Tiling::kOneTile:
            r0 = m > 1 ? 1 : 0;
            c0 = n > ns ? ns : 0;
            rn = 1;
            cn = std::min(ns, n - c0);
            run_tile(r0, rn, c0, cn);
            break;
    }
    EXPECT_TRUE(dst.untouched_outside(r0, rn, c0, cn));
    std::vector<float> got(rn * cn), want(rn * cn);
    for (size_t i = 0; i < rn; ++i) {
        for (size_t j = 0; j < cn; ++j) {
            std::memcpy(&got[i * cn + j], dst.at(r0 + i, c0 + j), 4);
            want[i * cn + j] = want_all[(r0 + i) * n + c0 + j];
        }
    }
    EXPECT_TRUE(kai_test::f32_bits_equal(got.data(), cn * 4, want.data(), cn * 4, rn, cn));
}

INSTANTIATE_TEST_SUITE_P(Shapes, SmeSdotTest, testing::ValuesIn(sdot_cases()), sdot_case_name);

// GGUF writer blocks (docs/formats.md, "qsi4c32pscalef16 RHS"), and RHS scales of inf and NaN (f16 0x7C00, 0xFC00, 0x7E00): IEEE arithmetic
// as in the reference (0 * inf = NaN); a NaN result becomes the clamp bound (FCLAMP, KleidiAI's bits).
class SmeSdotSpecial : public testing::TestWithParam<size_t> {};

TEST_P(SmeSdotSpecial, EdgeBlocksAndNonFiniteScales) {
    const Qsi8d32pVariant& v = *gemvs()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t n = 9, k = 128, bl = 32, row_bytes = kai_ref::q4_0_row_bytes(k, bl);
        std::vector<float> w(n * k);
        kai_test::Rng rng(7);
        for (auto& x : w) x = rng.uniform(-1.0f, 1.0f);
        w[5] = 3.0f;
        w[32 + 9] = -3.0f;
        for (size_t kk = 64; kk < 96; ++kk) w[kk] = 0.0f;
        for (size_t kk = 96; kk < 128; ++kk) w[kk] *= 1e-6f;
        std::vector<uint8_t> rows(n * row_bytes);
        for (size_t j = 0; j < n; ++j) kai_ref::quantize_row_q4_0(&w[j * k], k, bl, &rows[j * row_bytes]);
        for (int special = 0; special < 2; ++special) {
            if (special == 1) {
                const uint16_t scales[3] = {0x7C00, 0xFC00, 0x7E00};
                for (size_t j = 5; j < 8; ++j) {
                    rows[j * row_bytes + 2 * 18] = static_cast<uint8_t>(scales[j - 5] & 0xFF);
                    rows[j * row_bytes + 2 * 18 + 1] = static_cast<uint8_t>(scales[j - 5] >> 8);
                }
            }
            const std::vector<float> lhs = make_lhs(1, k, bl, k, 11 + special);
            const auto q = kai_ref::quantize_qsi8d32(1, k, bl, lhs.data(), k * 4, kai_ref::Q8Rounding::kTiesAway);
            const std::vector<uint8_t> seen = rows_as_seen(v, rows, n, k, bl);
            const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, seen.data(), -FLT_MAX, FLT_MAX);
            Packed p = pack_sme(v, 1, n, k, bl, lhs.data(), k * 4, rows.data());
            DstBuffer dst(1, n, 4, n * 4);
            KAI_ABI(uk.run_matmul)(1, n, k, bl, p.lhs->data(), p.rhs->data(), reinterpret_cast<float*>(dst.at(0, 0)),
                                   n * 4, 4, -FLT_MAX, FLT_MAX);
            const std::vector<float> want = fclamp_nan(ref, -FLT_MAX, FLT_MAX, !is_sme1(v));
            EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, want.data(), n * 4, 1, n))
                << "case " << special;
            if (special == 1) {
                EXPECT_TRUE(std::isnan(ref[7]));
                if (is_sme1(v)) {
                    EXPECT_TRUE(std::isnan(dst.value(0, 7)));  // FMAX / FMIN
                } else {
                    EXPECT_EQ(dst.value(0, 7), -FLT_MAX);  // FCLAMP
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Gemvs, SmeSdotSpecial, testing::Range(size_t{0}, size_t{2}),
                         [](const testing::TestParamInfo<size_t>& i) { return std::string(i.param == 0 ? "sme2_sdot" : "sme_dot"); });

// Getters: the spec's values at every SVL (docs/formats.md, "SME packed layouts"), and m == 0 / n == 0 write nothing.
class SmeSdotGetters : public testing::TestWithParam<size_t> {};

TEST_P(SmeSdotGetters, FollowTheThreadsSvl) {
    const Qsi8d32pVariant& v = *gemvs()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        const size_t nr = svl;  // 4 * SVL / 32 bits
        EXPECT_EQ(KAI_ABI(uk.get_m_step)(), 1u);
        EXPECT_EQ(KAI_ABI(uk.get_n_step)(), nr);
        EXPECT_EQ(KAI_ABI(uk.get_mr)(), 1u);
        EXPECT_EQ(KAI_ABI(uk.get_nr)(), nr);
        EXPECT_EQ(KAI_ABI(uk.get_kr)(), 4u);
        EXPECT_EQ(KAI_ABI(uk.get_sr)(), 2u);
        EXPECT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(3, 256, 64), 3u * 4 * 66);
        EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(2 * nr, 256, 64),
                  KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(2 * nr, 256, nr, 4, 64));
        EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(nr, 64, 32), nr * 2 * 18);
        EXPECT_EQ(KAI_ABI(uk.get_dst_offset)(2, nr, 1000), 2000 + nr * 4);
        EXPECT_EQ(KAI_ABI(uk.get_dst_size)(3, 5), 60u);
        DstBuffer dst(2, 4, 4, 16);
        KAI_ABI(uk.run_matmul)(0, 4, 32, 32, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 16, 4, -FLT_MAX, FLT_MAX);
        KAI_ABI(uk.run_matmul)(1, 0, 32, 32, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 16, 4, -FLT_MAX, FLT_MAX);
        EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
    }
}

INSTANTIATE_TEST_SUITE_P(Gemvs, SmeSdotGetters, testing::Range(size_t{0}, size_t{2}),
                         [](const testing::TestParamInfo<size_t>& i) { return std::string(i.param == 0 ? "sme2_sdot" : "sme_dot"); });

// ------------------------------------------------------------------------------------------------
// Calling convention.
// ------------------------------------------------------------------------------------------------

class SmeSdotAbi : public testing::TestWithParam<size_t> {};

TEST_P(SmeSdotAbi, CalleeSavedRegistersSurviveACall) {
    const Qsi8d32pVariant& v = *gemvs()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t m = 1, n = 2 * svl + 3, k = 96, bl = 32;
        const std::vector<float> lhs = make_lhs(m, k, bl, k, 21);
        const std::vector<uint8_t> rows = make_rows(n, k, bl, 22);
        const auto q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), k * 4, kai_ref::Q8Rounding::kTiesAway);
        const std::vector<float> ref =
            kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows_as_seen(v, rows, n, k, bl).data(), -0.5f, 0.5f);
        Packed p = pack_sme(v, m, n, k, bl, lhs.data(), k * 4, rows.data());
        DstBuffer dst(m, n, 4, n * 4);
        AbiFrame f = {};
        f.fn = reinterpret_cast<uint64_t>(v.ukernel.run_matmul);
        const uint64_t x[8] = {m, n, k, bl, reinterpret_cast<uint64_t>(p.lhs->data()),
                               reinterpret_cast<uint64_t>(p.rhs->data()), reinterpret_cast<uint64_t>(dst.at(0, 0)), n * 4};
        std::memcpy(f.x, x, sizeof(x));
        f.stack_arg = sizeof(float);  // dst_stride_col, the 9th integer argument
        f.s0 = -0.5f;
        f.s1 = 0.5f;
        for (size_t i = 0; i < 11; ++i) f.in_gpr[i] = 0x1800000000000000ull + i * 0x0101010101010101ull;
        for (size_t i = 0; i < 8; ++i) f.in_d[i] = 0x3ff0000000000000ull + (i + 1) * 0x0000111111111111ull;
        kai_test_abi_call(&f);
        for (size_t i = 0; i < 11; ++i) EXPECT_EQ(f.out_gpr[i], f.in_gpr[i]) << "x" << 18 + i;
        for (size_t i = 0; i < 8; ++i) EXPECT_EQ(f.out_d[i], f.in_d[i]) << "d" << 8 + i;
        EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, ref.data(), n * 4, m, n));
        uint64_t tpidr2 = 1, svcr = 1;
        kai_test_za_finish(&tpidr2, &svcr);
        EXPECT_EQ(svcr & 3u, 0u) << "SVCR.SM / SVCR.ZA after the call";
        EXPECT_EQ(tpidr2, 0u);
    }
}

TEST_P(SmeSdotAbi, CommitsAPendingLazyZaSave) {
    const Qsi8d32pVariant& v = *gemvs()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t n = 21, k = 64, bl = 32;
        const std::vector<float> lhs = make_lhs(1, k, bl, k, 23);
        const std::vector<uint8_t> rows = make_rows(n, k, bl, 24);
        const auto q = kai_ref::quantize_qsi8d32(1, k, bl, lhs.data(), k * 4, kai_ref::Q8Rounding::kTiesAway);
        const std::vector<float> ref =
            kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows_as_seen(v, rows, n, k, bl).data(), -FLT_MAX, FLT_MAX);
        Packed p = pack_sme(v, 1, n, k, bl, lhs.data(), k * 4, rows.data());
        DstBuffer dst(1, n, 4, n * 4);
        std::vector<uint8_t> pattern(svl * svl);
        for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + i / svl + 1);
        std::vector<uint8_t> save(svl * svl, 0);
        struct alignas(16) Tpidr2Block {
            uint64_t za_save_buffer;
            uint16_t num_za_save_slices;
            uint8_t reserved[6];
        } block = {reinterpret_cast<uint64_t>(save.data()), static_cast<uint16_t>(svl), {}};
        kai_test_za_arm_lazy_save(pattern.data(), &block);
        v.ukernel.run_matmul(1, n, k, bl, p.lhs->data(), p.rhs->data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4,
                             -FLT_MAX, FLT_MAX);
        uint64_t tpidr2 = 1, svcr = 1;
        kai_test_za_finish(&tpidr2, &svcr);
        EXPECT_EQ(tpidr2, 0u) << "TPIDR2_EL0 not cleared: the lazy save was not committed";
        EXPECT_EQ(svcr & 3u, 0u);
        EXPECT_TRUE(kai_test::bytes_equal(save.data(), pattern.data(), pattern.size())) << "ZA save buffer";
        EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, ref.data(), n * 4, 1, n));
    }
}

INSTANTIATE_TEST_SUITE_P(Gemvs, SmeSdotAbi, testing::Range(size_t{0}, size_t{2}),
                         [](const testing::TestParamInfo<size_t>& i) { return std::string(i.param == 0 ? "sme2_sdot" : "sme_dot"); });

// ------------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 vectors (SVL 512): our packers reproduce the packed buffers, the kernel the outputs.
// ------------------------------------------------------------------------------------------------

TEST(SmeSdotCompat, Kernel) {
    const Qsi8d32pVariant& var = sdot();
    KAI_TEST_SKIP_UNLESS(var.features);
    ASSERT_TRUE(set_svl(64));
    const auto& uk = var.ukernel;
    size_t files = 0;
    for (const std::string& path : kai_test::list_compat_vectors(std::string(var.name) + "__")) {
        SCOPED_TRACE(path);
        const kai_test::CompatVector v = kai_test::load_compat_vector(path);
        const size_t m = v.size("m"), n = v.size("n"), k = v.size("k"), bl = v.size("bl");
        EXPECT_EQ(KAI_ABI(uk.get_m_step)(), v.size("m_step"));
        EXPECT_EQ(KAI_ABI(uk.get_n_step)(), v.size("n_step"));
        EXPECT_EQ(KAI_ABI(uk.get_mr)(), v.size("mr"));
        EXPECT_EQ(KAI_ABI(uk.get_nr)(), v.size("nr"));
        EXPECT_EQ(KAI_ABI(uk.get_kr)(), v.size("kr"));
        EXPECT_EQ(KAI_ABI(uk.get_sr)(), v.size("sr"));
        const auto& lp = v.section("lhs_packed");
        const auto& rp = v.section("rhs_packed");
        Packed mine = pack_sme(var, m, n, k, bl, v.section("lhs").f32(), v.size("lhs_stride"), v.section("rhs").bytes.data());
        ASSERT_EQ(mine.lhs->size(), lp.bytes.size());
        ASSERT_EQ(mine.rhs->size(), rp.bytes.size());
        EXPECT_TRUE(kai_test::bytes_equal(mine.lhs->data(), lp.bytes.data(), lp.bytes.size(), lp.mask.data()));
        EXPECT_TRUE(kai_test::bytes_equal(mine.rhs->data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
        GuardedBuffer lhs_p(lp.bytes.size()), rhs_p(rp.bytes.size());
        std::memcpy(lhs_p.data(), lp.bytes.data(), lp.bytes.size());
        std::memcpy(rhs_p.data(), rp.bytes.data(), rp.bytes.size());
        DstBuffer dst(m, n, 4, (n + 1) * 4);
        KAI_ABI(uk.run_matmul)(m, n, k, bl, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), (n + 1) * 4, 4,
                               v.clamp_min(), v.clamp_max());
        EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), (n + 1) * 4,
                                             v.section("dst").f32(), n * 4, m, n));
        EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
        ++files;
    }
    EXPECT_EQ(files, 4u);
}

// ------------------------------------------------------------------------------------------------
// Preconditions (debug builds only: KAI_ASSUME is compiled out with NDEBUG; the block checks abort always).
// ------------------------------------------------------------------------------------------------

struct Violation {
    const char* function;
    std::string message;
    std::function<void()> call;
};

void expect_each_aborts(const char* stem, const std::vector<Violation>& table) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string file = std::string(stem) + ".c";
    for (const Violation& v : table) {
        EXPECT_DEATH(v.call(), kai_test::kai_error_regex(file, v.message)) << v.function << ": \"" << v.message << "\"";
    }
}

class SmeSdotDeathTest : public testing::TestWithParam<size_t> {};

TEST_P(SmeSdotDeathTest, BlockChecksAbortInEveryBuild) {
    const Qsi8d32pVariant& v = *gemvs()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(set_svl(64));
    const auto& uk = v.ukernel;
    static uint8_t buf[4096];
    static float out[64];
    auto run = [&](size_t k, size_t bl) { uk.run_matmul(1, 4, k, bl, buf, buf, out, 16, 4, -FLT_MAX, FLT_MAX); };
    run(64, 32);  // valid
    expect_each_aborts(v.name, {
        {"get_lhs_packed_offset", "bl must be a non-zero multiple of 32", [&] { (void)uk.get_lhs_packed_offset(0, 96, 48); }},
        {"get_lhs_packed_offset", "k must be a multiple of bl", [&] { (void)uk.get_lhs_packed_offset(0, 96, 64); }},
        {"get_rhs_packed_offset", "bl must be a non-zero multiple of 32", [&] { (void)uk.get_rhs_packed_offset(0, 64, 0); }},
        {"get_rhs_packed_offset", "k must be a multiple of bl", [&] { (void)uk.get_rhs_packed_offset(0, 48, 32); }},
        {"run_matmul", "bl must be a non-zero multiple of 32", [&] { run(96, 48); }},
        {"run_matmul", "k must be a multiple of bl", [&] { run(96, 64); }},
    });
}

#ifndef NDEBUG
TEST_P(SmeSdotDeathTest, EachViolationAbortsNamingTheParameter) {
    const Qsi8d32pVariant& v = *gemvs()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(set_svl(64));
    const auto& uk = v.ukernel;
    const size_t nr = KAI_ABI(uk.get_nr)();
    static uint8_t buf[8192];
    static float out[256];
    auto run = [&](size_t m, const void* l, const void* r, float* d, size_t dsr, size_t dsc) {
        uk.run_matmul(m, 4, 64, 32, l, r, d, dsr, dsc, -FLT_MAX, FLT_MAX);
    };
    run(2, buf, buf, out, 16, 4);  // valid
    expect_each_aborts(v.name, {
        {"get_rhs_packed_offset", "n_idx must be a multiple of nr", [&] { (void)uk.get_rhs_packed_offset(nr / 2, 64, 32); }},
        {"get_dst_offset", "n_idx must be a multiple of n_step", [&] { (void)uk.get_dst_offset(0, nr / 2, 64); }},
        {"run_matmul", "dst_stride_col must be sizeof(float)", [&] { run(1, buf, buf, out, 16, 8); }},
        {"run_matmul", "lhs_packed must not be NULL", [&] { run(1, nullptr, buf, out, 16, 4); }},
        {"run_matmul", "rhs_packed must not be NULL", [&] { run(1, buf, nullptr, out, 16, 4); }},
        {"run_matmul", "dst must not be NULL", [&] { run(1, buf, buf, nullptr, 16, 4); }},
        {"run_matmul", "dst_stride_row must be at least n * sizeof(float) when m > 1", [&] { run(2, buf, buf, out, 12, 4); }},
    });
}
#endif

// Sizes and offsets that do not fit in size_t abort in every build.
TEST_P(SmeSdotDeathTest, SizeOverflowAborts) {
    const Qsi8d32pVariant& v = *gemvs()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(set_svl(64));
    const auto& uk = v.ukernel;
    GTEST_FLAG_SET(death_test_style, "fast");
    const std::string re = kai_test::kai_error_regex(kai_test::kKaiCommonFile, kai_test::kSizeOverflow);
    const size_t huge_k = SIZE_MAX - 31;
    (void)uk.get_lhs_packed_offset(1, 64, 32);
    EXPECT_DEATH((void)uk.get_lhs_packed_offset(1, huge_k, 32), re);
    EXPECT_DEATH((void)uk.get_lhs_packed_offset(SIZE_MAX, 64, 32), re);
    EXPECT_DEATH((void)uk.get_rhs_packed_offset(64, huge_k, 32), re);
    EXPECT_DEATH((void)uk.get_rhs_packed_offset(SIZE_MAX / 64 * 64, 64, 32), re);
    EXPECT_DEATH((void)uk.get_dst_offset(2, 64, SIZE_MAX), re);
    EXPECT_DEATH((void)uk.get_dst_offset(0, size_t{1} << 62, 64), re);
    EXPECT_DEATH((void)uk.get_dst_size(SIZE_MAX, 5), re);
}

INSTANTIATE_TEST_SUITE_P(Gemvs, SmeSdotDeathTest, testing::Range(size_t{0}, size_t{2}),
                         [](const testing::TestParamInfo<size_t>& i) { return std::string(i.param == 0 ? "sme2_sdot" : "sme_dot"); });

// ------------------------------------------------------------------------------------------------
// The f16 x Q4_0 MOPA and its LHS packer kai_lhs_pack_f16pmrx2_f32_neon.
// ------------------------------------------------------------------------------------------------

#define KAI_F16_UK(stem)                                                                                          \
    kai_matmul_clamp_f32_f16p_qsi4c32p_ukernel {                                                                  \
        kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem,    \
            kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                \
            kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem                                    \
    }

const kai_matmul_clamp_f32_f16p_qsi4c32p_ukernel& f16_mopa() {
    static const kai_matmul_clamp_f32_f16p_qsi4c32p_ukernel uk =
        KAI_F16_UK(matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa);
    return uk;
}
const char kF16Name[] = "kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa";
const char kF16PackName[] = "kai_lhs_pack_f16pmrx2_f32_neon";

Packed pack_f16(size_t m, size_t n, size_t k, size_t bl, const float* lhs, size_t lhs_stride_bytes, const uint8_t* rows) {
    const auto& uk = f16_mopa();
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    Packed p;
    p.lhs = std::make_unique<GuardedBuffer>(KAI_ABI(kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon)(m, k, bl, mr, kr, sr));
    KAI_ABI(kai_run_lhs_pack_f16pmrx2_f32_neon)(m, k, bl, mr, kr, sr, 0, lhs, lhs_stride_bytes, p.lhs->data());
    p.rhs = std::make_unique<GuardedBuffer>(
        KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(n, k, nr, kr, bl));
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(1, n, k, nr, kr, sr, bl, rows, nullptr,
                                                                        p.rhs->data(), 0, &params);
    return p;
}

// The outputs of a tile within the bound of test/reference/f16p_qsi4c32p_ref.h around the clamped exact sum (the
// clamp bound where that is NaN, equal infinities), naming the first element outside it.
::testing::AssertionResult within_bound(DstBuffer& dst, size_t r0, size_t rn, size_t c0, size_t cn, size_t n, size_t k,
                                        const std::vector<double>& exact, const std::vector<double>& abs_sum, float lo,
                                        float hi) {
    size_t bad = 0;
    std::string first;
    for (size_t i = r0; i < r0 + rn; ++i) {
        for (size_t j = c0; j < c0 + cn; ++j) {
            const float got = dst.value(i, j);
            const double want = kai_ref::clamp_f16_q4_0(exact[i * n + j], lo, hi);
            bool ok;
            if (std::isinf(want)) {
                ok = static_cast<double>(got) == want;
            } else {
                const double bound = kai_ref::f16_q4_0_error_bound(abs_sum[i * n + j], k);
                ok = static_cast<double>(got) == want || std::fabs(static_cast<double>(got) - want) <= bound;
            }
            if (!ok && bad++ == 0) {
                first = "(" + std::to_string(i) + ", " + std::to_string(j) + "): got " + std::to_string(got) + ", exact " +
                        std::to_string(want) + ", abs sum " + std::to_string(abs_sum[i * n + j]);
            }
        }
    }
    if (bad == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << bad << " of " << rn * cn << " outputs outside the bound; first " << first;
}

struct F16Case {
    size_t svl;
    size_t m, n, k, bl;
    Clamp clamp;
    Tiling tiling;
};

std::vector<F16Case> f16_cases() {
    const bool reduced = kai_test::reduced_sweep();
    std::vector<F16Case> out;
    for (size_t svl : svls()) {
        const size_t vl = svl / 4, nr = 4 * vl;
        struct Shape {
            size_t m, n, k, bl;
        };
        std::vector<Shape> shapes = {
            {1, 1, 32, 32},      {vl, nr, 64, 32},      {vl + 1, nr + 1, 96, 32}, {2 * vl + 1, 2 * nr + 3, 128, 64},
            {37, 53, 288, 96},   {13, 19, 256, 256},    {3, 5, 4096, 128},        {2, 3, 11008, 32},
            {vl + 1, 3, 16448, 64},  // past 16384: every path of the K loops (SVL 128 only, twice)
        };
        if (vl > 1) shapes.push_back({vl - 1, nr - 1, 64, 32});
        if (!reduced) {
            shapes.push_back({1, 3, 14336, 32});
            shapes.push_back({67, 29, 160, 32});
            shapes.push_back({3 * vl + 2, 3 * nr + 1, 64, 32});
        }
        // Emulating FMOPA costs about SVL^2: at 2048 bits only K <= 1024 and fewer clamp modes; large K at 128 / 512.
        const bool wide = svl == 256;
        for (const auto& s : shapes) {
            const bool big = s.k > 1024;
            if (wide && (big || s.m > vl + 1 || (reduced && s.m * s.n > 64))) continue;
            if (reduced && big && svl != 64 && s.k <= 16384) continue;
            if (s.k > 16384 && svl != 16) continue;
            for (Clamp c : {Clamp::kNone, Clamp::kBoth, Clamp::kLow, Clamp::kHigh, Clamp::kInverted}) {
                if ((big || reduced || wide) && (c == Clamp::kLow || c == Clamp::kHigh)) continue;
                if (s.k > 16384 && c != Clamp::kInverted) continue;
                if ((big || wide || reduced) && c == Clamp::kBoth) continue;  // the tiled run below clamps on both sides
                if (reduced && big && c == Clamp::kInverted) continue;
                out.push_back({svl, s.m, s.n, s.k, s.bl, c, Tiling::kWhole});
            }
            out.push_back({svl, s.m, s.n, s.k, s.bl, Clamp::kBoth, Tiling::kTiles});
            if (!big) out.push_back({svl, s.m, s.n, s.k, s.bl, Clamp::kNone, Tiling::kOneTile});
        }
    }
    return out;
}

std::string f16_case_name(const testing::TestParamInfo<F16Case>& info) {
    const F16Case& c = info.param;
    return "svl" + std::to_string(c.svl * 8) + "_m" + std::to_string(c.m) + "_n" + std::to_string(c.n) + "_k" +
           std::to_string(c.k) + "_bl" + std::to_string(c.bl) + clamp_name(c.clamp) +
           (c.tiling == Tiling::kTiles ? "_tiles" : c.tiling == Tiling::kOneTile ? "_onetile" : "");
}

class SmeF16MopaTest : public testing::TestWithParam<F16Case> {};

TEST_P(SmeF16MopaTest, WithinBoundOfExactSum) {
    const F16Case& c = GetParam();
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    ASSERT_TRUE(set_svl(c.svl));
    const auto& uk = f16_mopa();
    const uint64_t seed = kai_test::seed_from(f16_case_name(testing::TestParamInfo<F16Case>(c, 0)));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t m = c.m, n = c.n, k = c.k, bl = c.bl;
    const size_t lhs_stride = k + 3;  // floats: a wider row than k (the packer honours lhs_stride)
    const std::vector<float> lhs = make_lhs(m, k, bl, lhs_stride, seed);
    const std::vector<uint8_t> rows = make_rows(n, k, bl, seed + 1);
    std::vector<double> exact, abs_sum;
    kai_ref::matmul_f16_q4_0_exact(lhs.data(), lhs_stride * 4, m, k, bl, rows.data(), n, &exact, &abs_sum);
    float lo, hi;
    clamp_bounds(c.clamp, std::vector<float>(exact.begin(), exact.end()), &lo, &hi);

    Packed p = pack_f16(m, n, k, bl, lhs.data(), lhs_stride * 4, rows.data());
    const size_t stride = (n + 5) * sizeof(float);
    DstBuffer dst(m, n + 2, sizeof(float), stride);
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    EXPECT_EQ(ms, c.svl / 4);
    EXPECT_EQ(ns, c.svl);
    auto run_tile = [&](size_t m0, size_t mh, size_t n0, size_t nw) {
        KAI_ABI(uk.run_matmul)(mh, nw, k, bl, p.lhs->data() + KAI_ABI(uk.get_lhs_packed_offset)(m0, k, bl),
                               p.rhs->data() + KAI_ABI(uk.get_rhs_packed_offset)(n0, k, bl),
                               reinterpret_cast<float*>(dst.at(0, 0) + KAI_ABI(uk.get_dst_offset)(m0, n0, stride)),
                               stride, sizeof(float), lo, hi);
    };
    size_t r0 = 0, rn = m, c0 = 0, cn = n;
    switch (c.tiling) {
        case Tiling::kWhole:
            run_tile(0, m, 0, n);
            break;
        case Tiling::kTiles:
            for (size_t m0 = 0; m0 < m; m0 += ms) {
                for (size_t n0 = 0; n0 < n; n0 += ns) run_tile(m0, std::min(ms, m - m0), n0, std::min(ns, n - n0));
            }
            break;
        case Tiling::kOneTile:
            r0 = m > ms ? ms : 0;
            c0 = n > ns ? ns : 0;
            rn = std::min(ms, m - r0);
            cn = std::min(ns, n - c0);
            run_tile(r0, rn, c0, cn);
            break;
    }
    EXPECT_TRUE(dst.untouched_outside(r0, rn, c0, cn));
    EXPECT_TRUE(dst.written_inside(r0, rn, c0, cn));
    EXPECT_TRUE(within_bound(dst, r0, rn, c0, cn, n, k, exact, abs_sum, lo, hi));
}

INSTANTIATE_TEST_SUITE_P(Shapes, SmeF16MopaTest, testing::ValuesIn(f16_cases()), f16_case_name);

// RHS scales of inf, -inf and NaN and the edge blocks of make_rows: IEEE arithmetic, a NaN sum clamped to the
// bound (FCLAMP), the other columns within the bound.
TEST(SmeF16MopaSpecial, NonFiniteScales) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    const auto& uk = f16_mopa();
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t m = 7, n = 9, k = 96, bl = 32, row_bytes = kai_ref::q4_0_row_bytes(k, bl);
        std::vector<uint8_t> rows = make_rows(n, k, bl, 31);
        const uint16_t scales[3] = {0x7C00, 0xFC00, 0x7E00};
        for (size_t j = 5; j < 8; ++j) {
            rows[j * row_bytes + 18] = static_cast<uint8_t>(scales[j - 5] & 0xFF);
            rows[j * row_bytes + 19] = static_cast<uint8_t>(scales[j - 5] >> 8);
        }
        const std::vector<float> lhs = make_lhs(m, k, bl, k, 32);
        std::vector<double> exact, abs_sum;
        kai_ref::matmul_f16_q4_0_exact(lhs.data(), k * 4, m, k, bl, rows.data(), n, &exact, &abs_sum);
        Packed p = pack_f16(m, n, k, bl, lhs.data(), k * 4, rows.data());
        DstBuffer dst(m, n, 4, n * 4);
        KAI_ABI(uk.run_matmul)(m, n, k, bl, p.lhs->data(), p.rhs->data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4,
                               -FLT_MAX, FLT_MAX);
        EXPECT_TRUE(within_bound(dst, 0, m, 0, n, n, k, exact, abs_sum, -FLT_MAX, FLT_MAX));
        EXPECT_TRUE(std::isnan(exact[7]));
        EXPECT_EQ(dst.value(0, 7), -FLT_MAX);  // FCLAMP: a NaN gives the bound
    }
}

TEST(SmeF16MopaGetters, FollowTheThreadsSvl) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    const auto& uk = f16_mopa();
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        const size_t vl = svl / 4, nr = 4 * vl;
        EXPECT_EQ(KAI_ABI(uk.get_m_step)(), vl);
        EXPECT_EQ(KAI_ABI(uk.get_n_step)(), nr);
        EXPECT_EQ(KAI_ABI(uk.get_mr)(), vl);
        EXPECT_EQ(KAI_ABI(uk.get_nr)(), nr);
        EXPECT_EQ(KAI_ABI(uk.get_kr)(), 4u);
        EXPECT_EQ(KAI_ABI(uk.get_sr)(), 2u);
        EXPECT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(2 * vl, 256, 64),
                  KAI_ABI(kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon)(2 * vl, 256, 64, vl, 4, 2));
        EXPECT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(vl, 64, 32), vl * 64 * 2);
        EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(2 * nr, 256, 64),
                  KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(2 * nr, 256, nr, 4, 64));
        EXPECT_EQ(KAI_ABI(uk.get_dst_offset)(vl, nr, 1000), vl * 1000 + nr * 4);
        EXPECT_EQ(KAI_ABI(uk.get_dst_size)(3, 5), 60u);
        EXPECT_EQ(KAI_ABI(kai_get_m_step_lhs_pack_f16pmrx2_f32_neon)(vl), vl);
        DstBuffer dst(2, 4, 4, 16);
        KAI_ABI(uk.run_matmul)(0, 4, 32, 32, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 16, 4, -FLT_MAX, FLT_MAX);
        KAI_ABI(uk.run_matmul)(2, 0, 32, 32, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 16, 4, -FLT_MAX, FLT_MAX);
        EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
    }
}

TEST(SmeF16MopaAbi, CalleeSavedRegistersAndLazyZaSave) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    const auto& uk = f16_mopa();
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t vl = svl / 4, m = vl + 3, n = 4 * vl + 5, k = 64, bl = 32;
        const std::vector<float> lhs = make_lhs(m, k, bl, k, 41);
        const std::vector<uint8_t> rows = make_rows(n, k, bl, 42);
        std::vector<double> exact, abs_sum;
        kai_ref::matmul_f16_q4_0_exact(lhs.data(), k * 4, m, k, bl, rows.data(), n, &exact, &abs_sum);
        Packed p = pack_f16(m, n, k, bl, lhs.data(), k * 4, rows.data());
        {
            DstBuffer dst(m, n, 4, n * 4);
            AbiFrame f = {};
            f.fn = reinterpret_cast<uint64_t>(uk.run_matmul);
            const uint64_t x[8] = {m, n, k, bl, reinterpret_cast<uint64_t>(p.lhs->data()),
                                   reinterpret_cast<uint64_t>(p.rhs->data()), reinterpret_cast<uint64_t>(dst.at(0, 0)), n * 4};
            std::memcpy(f.x, x, sizeof(x));
            f.stack_arg = sizeof(float);
            f.s0 = -2.0f;
            f.s1 = 2.0f;
            for (size_t i = 0; i < 11; ++i) f.in_gpr[i] = 0x1800000000000000ull + i * 0x0101010101010101ull;
            for (size_t i = 0; i < 8; ++i) f.in_d[i] = 0x3ff0000000000000ull + (i + 1) * 0x0000111111111111ull;
            kai_test_abi_call(&f);
            for (size_t i = 0; i < 11; ++i) EXPECT_EQ(f.out_gpr[i], f.in_gpr[i]) << "x" << 18 + i;
            for (size_t i = 0; i < 8; ++i) EXPECT_EQ(f.out_d[i], f.in_d[i]) << "d" << 8 + i;
            EXPECT_TRUE(within_bound(dst, 0, m, 0, n, n, k, exact, abs_sum, -2.0f, 2.0f));
            uint64_t tpidr2 = 1, svcr = 1;
            kai_test_za_finish(&tpidr2, &svcr);
            EXPECT_EQ(svcr & 3u, 0u) << "SVCR.SM / SVCR.ZA after the call";
            EXPECT_EQ(tpidr2, 0u);
        }
        {
            DstBuffer dst(m, n, 4, n * 4);
            std::vector<uint8_t> pattern(svl * svl);
            for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 5 + i / svl + 3);
            std::vector<uint8_t> save(svl * svl, 0);
            struct alignas(16) Tpidr2Block {
                uint64_t za_save_buffer;
                uint16_t num_za_save_slices;
                uint8_t reserved[6];
            } block = {reinterpret_cast<uint64_t>(save.data()), static_cast<uint16_t>(svl), {}};
            kai_test_za_arm_lazy_save(pattern.data(), &block);
            uk.run_matmul(m, n, k, bl, p.lhs->data(), p.rhs->data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4,
                          -FLT_MAX, FLT_MAX);
            uint64_t tpidr2 = 1, svcr = 1;
            kai_test_za_finish(&tpidr2, &svcr);
            EXPECT_EQ(tpidr2, 0u) << "TPIDR2_EL0 not cleared: the lazy save was not committed";
            EXPECT_EQ(svcr & 3u, 0u);
            EXPECT_TRUE(kai_test::bytes_equal(save.data(), pattern.data(), pattern.size())) << "ZA save buffer";
            EXPECT_TRUE(within_bound(dst, 0, m, 0, n, n, k, exact, abs_sum, -FLT_MAX, FLT_MAX));
        }
    }
}

// The packer: byte-exact against the reference over mr (the three SVLs' VL and others), k tails and a padded row
// stride; the lanes of rows past m untouched; two row chunks at a multiple of mr give the same bytes.
struct F16PackCase {
    size_t m, k, mr;
};

std::vector<F16PackCase> f16_pack_cases() {
    std::vector<F16PackCase> out;
    for (size_t mr : {4, 16, 64, 1, 3, 5, 8}) {
        for (const auto& mk : std::vector<std::pair<size_t, size_t>>{{1, 32}, {3, 64}, {17, 128}, {22, 96}, {9, 34},
                                                                        {5, 6}, {70, 1024}, {4, 2}}) {
            out.push_back({mk.first, mk.second, mr});
        }
    }
    return out;
}

class SmeF16Pack : public testing::TestWithParam<F16PackCase> {};

TEST_P(SmeF16Pack, ByteExact) {
    const F16PackCase& c = GetParam();
    const size_t stride = c.k + 5;  // floats
    const size_t bl = c.k;          // any divisor of k: the layout does not depend on it
    const size_t kr = c.k % 4 == 0 ? 4 : 2;
    std::vector<float> lhs = make_lhs(c.m, c.k, bl, stride, c.m * 1000 + c.k * 10 + c.mr);
    // Exact f16 ties, subnormals, overflow and NaN somewhere in the matrix.
    const float special[] = {1.0f + std::ldexp(1.0f, -11), 1.0f + 3 * std::ldexp(1.0f, -11), 3e-6f, -7e-8f, 70000.0f,
                             65519.0f, std::numeric_limits<float>::quiet_NaN(), -0.0f};
    for (size_t i = 0; i < std::min<size_t>(8, c.m * c.k); ++i) lhs[(i % c.m) * stride + (i * 7) % c.k] = special[i];
    std::vector<uint8_t> mask;
    const std::vector<uint8_t> want = kai_ref::pack_lhs_f16pmrx2(lhs.data(), c.m, c.k, stride * 4, c.mr, 0xA5, &mask);
    const size_t size = KAI_ABI(kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon)(c.m, c.k, bl, c.mr, kr, 2);
    ASSERT_EQ(size, want.size());
    GuardedBuffer got(size, 0xA5);
    KAI_ABI(kai_run_lhs_pack_f16pmrx2_f32_neon)(c.m, c.k, bl, c.mr, kr, 2, 0, lhs.data(), stride * 4, got.data());
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));  // unwritten lanes keep 0xA5
    const size_t m0 = c.m > c.mr ? c.mr : 0;
    if (m0 == 0) return;
    GuardedBuffer chunked(size, 0xA5);
    KAI_ABI(kai_run_lhs_pack_f16pmrx2_f32_neon)(m0, c.k, bl, c.mr, kr, 2, 0, lhs.data(), stride * 4, chunked.data());
    KAI_ABI(kai_run_lhs_pack_f16pmrx2_f32_neon)(
        c.m - m0, c.k, bl, c.mr, kr, 2, m0, lhs.data() + m0 * stride, stride * 4,
        chunked.data() + KAI_ABI(kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon)(m0, c.k, bl, c.mr, kr, 2));
    EXPECT_TRUE(kai_test::bytes_equal(chunked.data(), want.data(), size));
    EXPECT_EQ(kai_get_lhs_offset_lhs_pack_f16pmrx2_f32_neon(m0, stride * 4), m0 * stride * 4);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SmeF16Pack, testing::ValuesIn(f16_pack_cases()),
                         [](const testing::TestParamInfo<F16PackCase>& info) {
                             return "m" + std::to_string(info.param.m) + "_k" + std::to_string(info.param.k) + "_mr" +
                                    std::to_string(info.param.mr);
                         });

// KleidiAI v1.30.0 vectors (SVL 512): the packer byte for byte, the kernel within the vectors' f16_q4_0 tolerance
// (../shared/compat/README_sme.md: c_in = 2^-11 for the kernel's f16 rounding of (u - 8) * d).
TEST(SmeF16Compat, PackerAndKernel) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    ASSERT_TRUE(set_svl(64));
    size_t packs = 0, kernels = 0;
    for (const std::string& path : kai_test::list_compat_vectors(std::string(kF16PackName) + "__")) {
        SCOPED_TRACE(path);
        const kai_test::CompatVector v = kai_test::load_compat_vector(path);
        const size_t m = v.size("m"), k = v.size("k"), bl = v.size("bl"), mr = v.size("mr"), kr = v.size("kr"), sr = v.size("sr");
        const auto& want = v.section("lhs_packed");
        ASSERT_EQ(KAI_ABI(kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon)(m, k, bl, mr, kr, sr), want.bytes.size());
        GuardedBuffer got(want.bytes.size());
        KAI_ABI(kai_run_lhs_pack_f16pmrx2_f32_neon)(m, k, bl, mr, kr, sr, 0, v.section("lhs").f32(), v.size("lhs_stride"),
                                                    got.data());
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
        ++packs;
    }
    const auto& uk = f16_mopa();
    for (const std::string& path : kai_test::list_compat_vectors(std::string(kF16Name) + "__")) {
        SCOPED_TRACE(path);
        const kai_test::CompatVector v = kai_test::load_compat_vector(path);
        const size_t m = v.size("m"), n = v.size("n"), k = v.size("k"), bl = v.size("bl");
        EXPECT_EQ(KAI_ABI(uk.get_m_step)(), v.size("m_step"));
        EXPECT_EQ(KAI_ABI(uk.get_n_step)(), v.size("n_step"));
        EXPECT_EQ(KAI_ABI(uk.get_mr)(), v.size("mr"));
        EXPECT_EQ(KAI_ABI(uk.get_nr)(), v.size("nr"));
        EXPECT_EQ(KAI_ABI(uk.get_kr)(), v.size("kr"));
        EXPECT_EQ(KAI_ABI(uk.get_sr)(), v.size("sr"));
        const auto& lp = v.section("lhs_packed");
        const auto& rp = v.section("rhs_packed");
        Packed mine = pack_f16(m, n, k, bl, v.section("lhs").f32(), v.size("lhs_stride"), v.section("rhs").bytes.data());
        ASSERT_EQ(mine.lhs->size(), lp.bytes.size());
        ASSERT_EQ(mine.rhs->size(), rp.bytes.size());
        EXPECT_TRUE(kai_test::bytes_equal(mine.lhs->data(), lp.bytes.data(), lp.bytes.size(), lp.mask.data()));
        EXPECT_TRUE(kai_test::bytes_equal(mine.rhs->data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
        DstBuffer dst(m, n, 4, (n + 1) * 4);
        KAI_ABI(uk.run_matmul)(m, n, k, bl, mine.lhs->data(), mine.rhs->data(), reinterpret_cast<float*>(dst.at(0, 0)),
                               (n + 1) * 4, 4, v.clamp_min(), v.clamp_max());
        EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
        std::vector<double> exact, abs_sum;
        kai_ref::matmul_f16_q4_0_exact(v.section("lhs").f32(), v.size("lhs_stride"), m, k, bl, v.section("rhs").bytes.data(),
                                       n, &exact, &abs_sum);
        EXPECT_TRUE(within_bound(dst, 0, m, 0, n, n, k, exact, abs_sum, v.clamp_min(), v.clamp_max()));
        // Against KleidiAI's outputs: the vectors' tolerance, with abs sum over the f16-rounded weights (which
        // differ from the exact (u - 8) * d by at most 2^-11 relative, folded into c_in).
        const float* ref = v.section("dst").f32();
        size_t bad = 0;
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const double got = dst.value(i, j), want = ref[i * n + j];
                const double tol = (std::ldexp(1.0, -11) + 4.0 * static_cast<double>(k + 2) * std::ldexp(1.0, -24)) *
                                   abs_sum[i * n + j] * (1.0 + std::ldexp(1.0, -10));
                if (!(got == want || std::fabs(got - want) <= tol)) {
                    if (bad++ < 3) ADD_FAILURE() << "(" << i << ", " << j << "): got " << got << ", KleidiAI " << want;
                }
            }
        }
        EXPECT_EQ(bad, 0u) << "outputs outside the compat tolerance";
        ++kernels;
    }
    EXPECT_EQ(packs, 4u);
    EXPECT_EQ(kernels, 4u);
}

TEST(SmeF16DeathTest, BlockChecksAbortInEveryBuild) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    ASSERT_TRUE(set_svl(64));
    const auto& uk = f16_mopa();
    static uint8_t buf[16384];
    static float out[1024];
    auto run = [&](size_t k, size_t bl) { uk.run_matmul(1, 4, k, bl, buf, buf, out, 16, 4, -FLT_MAX, FLT_MAX); };
    run(64, 32);  // valid
    expect_each_aborts(kF16Name, {
        {"get_lhs_packed_offset", "bl must be a non-zero multiple of 32", [&] { (void)uk.get_lhs_packed_offset(0, 96, 48); }},
        {"get_lhs_packed_offset", "k must be a multiple of bl", [&] { (void)uk.get_lhs_packed_offset(0, 96, 64); }},
        {"get_rhs_packed_offset", "bl must be a non-zero multiple of 32", [&] { (void)uk.get_rhs_packed_offset(0, 64, 0); }},
        {"get_rhs_packed_offset", "k must be a multiple of bl", [&] { (void)uk.get_rhs_packed_offset(0, 48, 32); }},
        {"run_matmul", "bl must be a non-zero multiple of 32", [&] { run(96, 48); }},
        {"run_matmul", "k must be a multiple of bl", [&] { run(96, 64); }},
    });
}

// Its LHS packer takes bl as well and, like the kernel, refuses a bad one in every build (no
// SME instruction runs: the packer is NEON code and its getters are plain arithmetic).
TEST(SmeF16DeathTest, PackerBlockCheckAbortsInEveryBuild) {
    const size_t mr = 16, kr = 2, sr = 1;
    EXPECT_GT(kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(1, 64, 32, mr, kr, sr), 0u);
    expect_each_aborts(kF16PackName, {
        {"get_lhs_packed_size", "k must be a multiple of bl (non-zero)",
         [&] { (void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(1, 64, 0, mr, kr, sr); }},
        {"get_lhs_packed_offset", "k must be a multiple of bl (non-zero)",
         [&] { (void)kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon(0, 64, 0, mr, kr, sr); }},
        {"get_lhs_packed_size", "k must be a multiple of bl (non-zero)",
         [&] { (void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(1, 96, 64, mr, kr, sr); }},
    });
}

#ifndef NDEBUG
TEST(SmeF16DeathTest, EachViolationAbortsNamingTheParameter) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    ASSERT_TRUE(set_svl(64));
    const auto& uk = f16_mopa();
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)();
    static uint8_t buf[16384];
    static float out[1024];
    auto run = [&](size_t m, const void* l, const void* r, float* d, size_t dsr, size_t dsc) {
        uk.run_matmul(m, 4, 64, 32, l, r, d, dsr, dsc, -FLT_MAX, FLT_MAX);
    };
    run(2, buf, buf, out, 16, 4);  // valid
    expect_each_aborts(kF16Name, {
        {"get_lhs_packed_offset", "m_idx must be a multiple of mr", [&] { (void)uk.get_lhs_packed_offset(mr / 2, 64, 32); }},
        {"get_rhs_packed_offset", "n_idx must be a multiple of nr", [&] { (void)uk.get_rhs_packed_offset(nr / 2, 64, 32); }},
        {"get_dst_offset", "m_idx must be a multiple of m_step", [&] { (void)uk.get_dst_offset(1, 0, 64); }},
        {"get_dst_offset", "n_idx must be a multiple of n_step", [&] { (void)uk.get_dst_offset(0, nr / 2, 64); }},
        {"run_matmul", "dst_stride_col must be sizeof(float)", [&] { run(1, buf, buf, out, 16, 8); }},
        {"run_matmul", "lhs_packed must not be NULL", [&] { run(1, nullptr, buf, out, 16, 4); }},
        {"run_matmul", "rhs_packed must not be NULL", [&] { run(1, buf, nullptr, out, 16, 4); }},
        {"run_matmul", "dst must not be NULL", [&] { run(1, buf, buf, nullptr, 16, 4); }},
        {"run_matmul", "dst_stride_row must be at least n * sizeof(float) when m > 1", [&] { run(2, buf, buf, out, 12, 4); }},
    });
    static float lhs[256];
    auto pack = [&](size_t m, size_t k, size_t sr, const void* l, size_t stride, void* o) {
        kai_run_lhs_pack_f16pmrx2_f32_neon(m, k, 32, 16, 4, sr, 0, l, stride, o);
    };
    pack(2, 64, 2, lhs, 256, buf);  // valid
    (void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(2, 64, 32, 16, 4, 2);
    expect_each_aborts(kF16PackName, {
        {"run", "sr must be 2", [&] { pack(2, 64, 1, lhs, 256, buf); }},
        {"run", "k must be even", [&] { pack(2, 63, 2, lhs, 256, buf); }},
        {"run", "lhs must not be NULL", [&] { pack(2, 64, 2, nullptr, 256, buf); }},
        {"run", "lhs_packed must not be NULL", [&] { pack(2, 64, 2, lhs, 256, nullptr); }},
        {"run", "lhs_stride must be at least k * sizeof(float) when m > 1", [&] { pack(2, 64, 2, lhs, 252, buf); }},
        {"run", "mr must be non-zero", [&] { kai_run_lhs_pack_f16pmrx2_f32_neon(2, 64, 32, 0, 4, 2, 0, lhs, 256, buf); }},
        {"get_lhs_packed_size", "k must be even", [&] { (void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(2, 63, 63, 16, 1, 2); }},
        {"get_lhs_packed_size", "k must be a multiple of bl (non-zero)", [&] { (void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(2, 64, 48, 16, 4, 2); }},
        {"get_lhs_packed_size", "mr must be non-zero", [&] { (void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(2, 64, 32, 0, 4, 2); }},
        {"get_lhs_packed_size", "k must be a multiple of kr (non-zero)", [&] { (void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(2, 64, 32, 16, 3, 2); }},
        {"get_lhs_packed_offset", "m_idx must be a multiple of mr", [&] { (void)kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon(8, 64, 32, 16, 4, 2); }},
    });
}
#endif

TEST(SmeF16DeathTest, SizeOverflowAborts) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    ASSERT_TRUE(set_svl(64));
    const auto& uk = f16_mopa();
    GTEST_FLAG_SET(death_test_style, "fast");
    const std::string re = kai_test::kai_error_regex(kai_test::kKaiCommonFile, kai_test::kSizeOverflow);
    const size_t huge_k = SIZE_MAX - 31;
    (void)uk.get_lhs_packed_offset(16, 64, 32);
    EXPECT_DEATH((void)uk.get_lhs_packed_offset(16, huge_k, 32), re);
    EXPECT_DEATH((void)uk.get_lhs_packed_offset(SIZE_MAX / 16 * 16, 64, 32), re);
    EXPECT_DEATH((void)uk.get_rhs_packed_offset(64, huge_k, 32), re);
    EXPECT_DEATH((void)uk.get_dst_offset(16, 64, SIZE_MAX), re);
    EXPECT_DEATH((void)uk.get_dst_size(SIZE_MAX, 5), re);
    EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(SIZE_MAX, 64, 32, 16, 4, 2), re);
    EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(16, huge_k, 32, 16, 4, 2), re);
    EXPECT_DEATH((void)kai_get_lhs_offset_lhs_pack_f16pmrx2_f32_neon(size_t{1} << 32, size_t{1} << 32), re);
}

}  // namespace
