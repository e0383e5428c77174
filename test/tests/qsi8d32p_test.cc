// SPDX-License-Identifier: Apache-2.0
// Tests of the GGUF Q4_0 family matmul_clamp_f32_qsi8d32p_qsi4c32p and its packers
// (docs/matmul_q4_0.md, docs/formats.md, "qsi8d32p matmul"): kernels bit-exact against the reference recipe over shapes,
// sub-tiles, clamps and strides; packers byte-exact against the reference; the KleidiAI v1.30.0
// vectors replayed; Q4_0 edge blocks; bad-input assertions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon.h"
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
#include "test/common/limits.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi8d32p_registry.h"

namespace {

using kai_registry::Qsi8d32pLhsPacker;
using kai_registry::Qsi8d32pVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;

// ---------------------------------------------------------------------------------------------
// Inputs.
// ---------------------------------------------------------------------------------------------

// m x k f32 LHS with row stride `stride` floats: uniform [-2, 2) times a per-row power of two,
// and, when m >= 5, the special rows of the compat vectors: zeros, two constants, and a tie row
// (half-integers with one +-127 per block: scale 1, every value an exact tie or integer).
std::vector<float> make_lhs(size_t m, size_t k, size_t bl, size_t stride, uint64_t seed) {
    kai_test::Rng rng(seed);
    std::vector<float> x(m * stride, 0.0f);
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

// n Q4_0-style rows: random nibbles, f16 scales of random sign in [0.001, 0.06), and the edge
// blocks of the compat vectors when n >= 4: zero block, subnormal scale, largest scale, negative
// subnormal scale with every nibble 0.
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

kai_ref::Q8Rounding rounding_of(const Qsi8d32pLhsPacker& p) {
    return p.ties_to_even ? kai_ref::Q8Rounding::kTiesEven : kai_ref::Q8Rounding::kTiesAway;
}

std::string short_name(const char* full) {
    std::string s = full;
    const std::string prefix = "kai_matmul_clamp_f32_";
    if (s.rfind(prefix, 0) == 0) s = s.substr(prefix.size());
    return s;
}

// Clamp bounds: none, biting (20 % and 80 % quantiles of the unclamped result), min > max, or one
// bound finite: kRelu = [0, +FLT_MAX], kMaxOnly = [-FLT_MAX, 60 % quantile].
enum class Clamp { kNone, kBite, kInverted, kRelu, kMaxOnly };

void clamp_bounds(Clamp c, const std::vector<float>& unclamped, float* lo, float* hi) {
    *lo = -FLT_MAX;
    *hi = FLT_MAX;
    if (c == Clamp::kNone || unclamped.empty()) return;
    std::vector<float> s = unclamped;
    std::sort(s.begin(), s.end());
    const float q20 = s[s.size() / 5], q80 = s[s.size() * 4 / 5];
    if (c == Clamp::kBite) {
        *lo = q20;
        *hi = q80;
    } else if (c == Clamp::kRelu) {
        *lo = 0.0f;
    } else if (c == Clamp::kMaxOnly) {
        *hi = s[s.size() * 3 / 5];
    } else {
        *lo = q80 + 1.0f;
        *hi = q20 - 1.0f;
    }
}

// Packs the LHS with packer p for variant v into a guarded buffer of exactly the packed size.
std::unique_ptr<GuardedBuffer> pack_lhs(const Qsi8d32pLhsPacker& p, const Qsi8d32pVariant& v, size_t m, size_t k,
                                        size_t bl, const float* lhs, size_t lhs_stride_bytes) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    auto buf = std::make_unique<GuardedBuffer>(KAI_ABI(p.get_lhs_packed_size)(m, k, bl, mr, kr, sr));
    KAI_ABI(p.run)(m, k, bl, mr, kr, sr, 0, lhs, lhs_stride_bytes, buf->data());
    return buf;
}

std::unique_ptr<GuardedBuffer> pack_rhs(const Qsi8d32pVariant& v, size_t n, size_t k, size_t bl, const uint8_t* rows) {
    const auto& uk = v.ukernel;
    const size_t nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    auto buf = std::make_unique<GuardedBuffer>(
        KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(n, k, nr, kr, bl));
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(1, n, k, nr, kr, sr, bl, rows, nullptr, buf->data(), 0, &params);
    return buf;
}

// ---------------------------------------------------------------------------------------------
// SVE kernels at every vector length (Linux prctl(PR_SVE_SET_VL)): the same packed buffers give
// the same bits at 256, 512, 1024 and 2048 bits; 128 bits is refused in every build.
// ---------------------------------------------------------------------------------------------

#if defined(__linux__) && defined(__aarch64__)
#ifndef PR_SVE_SET_VL
#define PR_SVE_SET_VL 50
#define PR_SVE_GET_VL 51
#endif

// Sets this thread's SVE vector length to `bytes`; returns whether the length in force is now
// exactly that (hardware offers only some lengths).
bool set_sve_vl(size_t bytes) {
    const int r = prctl(PR_SVE_SET_VL, static_cast<unsigned long>(bytes), 0ul, 0ul, 0ul);
    return r >= 0 && static_cast<size_t>(r & 0xffff) == bytes;
}

size_t sve_vl() {
    const int r = prctl(PR_SVE_GET_VL, 0ul, 0ul, 0ul, 0ul);
    return r < 0 ? 0 : static_cast<size_t>(r & 0xffff);
}

std::vector<size_t> sve_variants() {
    std::vector<size_t> out;
    const auto& vs = kai_registry::qsi8d32p_variants();
    for (size_t i = 0; i < vs.size(); ++i) {
        if (std::strstr(vs[i].name, "_sve_") != nullptr) out.push_back(i);
    }
    return out;
}

TEST(Qsi8d32pSve, SameBitsAtEveryVectorLength) {
    ASSERT_EQ(sve_variants().size(), 2u) << "the two SVE kernels of kernels.bzl";
    for (size_t vi : sve_variants()) {
        const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[vi];
        SCOPED_TRACE(v.name);
        KAI_TEST_SKIP_UNLESS(v.features);
        const size_t initial = sve_vl();
        const auto& uk = v.ukernel;
        for (size_t bl : {32, 64}) {
            const size_t m = 19, n = 37, k = 8 * bl;
            const uint64_t seed = kai_test::seed_from(std::string(v.name) + "_vl_" + std::to_string(bl));
            SCOPED_TRACE(kai_test::seed_trace(seed));
            const std::vector<float> lhs = make_lhs(m, k, bl, k, seed);
            const std::vector<uint8_t> rows = make_rows(n, k, bl, seed + 1);
            const Qsi8d32pLhsPacker& packer = *kai_registry::qsi8d32p_lhs_packers_for(v)[0];
            const kai_ref::Qsi8d32 q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), k * 4, rounding_of(packer));
            const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), -FLT_MAX, FLT_MAX);
            // Packed once, at whatever length is in force: the layout does not depend on it.
            auto lhs_p = pack_lhs(packer, v, m, k, bl, lhs.data(), k * 4);
            auto rhs_p = pack_rhs(v, n, k, bl, rows.data());
            size_t lengths_run = 0;
            for (size_t bytes : {32, 64, 128, 256}) {
                SCOPED_TRACE("SVE vector length " + std::to_string(8 * bytes) + " bits");
                if (!set_sve_vl(bytes)) continue;  // not offered by this CPU
                ++lengths_run;
                DstBuffer dst(m, n, sizeof(float), n * sizeof(float));
                KAI_ABI(uk.run_matmul)(m, n, k, bl, lhs_p->data(), rhs_p->data(), reinterpret_cast<float*>(dst.at(0, 0)),
                              n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
                std::vector<float> got(m * n);
                for (size_t i = 0; i < m; ++i) std::memcpy(&got[i * n], dst.at(i, 0), n * 4);
                EXPECT_TRUE(kai_test::f32_bits_equal(got.data(), n * 4, ref.data(), n * 4, m, n));
                EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
            }
            ASSERT_TRUE(set_sve_vl(initial));
            // Under qemu every length is offered; on hardware at least the one in force runs.
            if (std::getenv("KAI_CPU_MODEL") != nullptr) {
                EXPECT_EQ(lengths_run, 4u);
            } else {
                EXPECT_GE(lengths_run, 1u);
            }
        }
    }
}

TEST(Qsi8d32pSve, RefusesA128BitVectorLength) {
    for (size_t vi : sve_variants()) {
        const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[vi];
        SCOPED_TRACE(v.name);
        KAI_TEST_SKIP_UNLESS(v.features);
        const auto& uk = v.ukernel;
        const size_t initial = sve_vl();
        if (!set_sve_vl(16)) {
            ASSERT_TRUE(set_sve_vl(initial));
            continue;  // a CPU without 128-bit SVE cannot run the case
        }
        ASSERT_TRUE(set_sve_vl(initial));
        std::vector<uint8_t> lhs_p(uk.get_lhs_packed_offset(uk.get_mr(), 32, 32)), rhs_p(uk.get_rhs_packed_offset(uk.get_nr(), 32, 32));
        float out[8];
        const std::string file = std::string(v.name) + ".c";
        EXPECT_DEATH(
            {
                set_sve_vl(16);
                uk.run_matmul(1, 1, 32, 32, lhs_p.data(), rhs_p.data(), out, 32, 4, -FLT_MAX, FLT_MAX);
            },
            kai_test::kai_error_regex(file, "needs an SVE vector length of at least 256 bits"));
    }
}
#endif

// ---------------------------------------------------------------------------------------------
// Matmul: variant x shape x LHS packer x clamp x tiling.
// ---------------------------------------------------------------------------------------------

enum class Tiling { kWhole, kTiles, kOneTile };

struct MatmulCase {
    size_t variant;
    size_t packer;  // index into qsi8d32p_lhs_packers_for(variant)
    size_t m, n, k, bl;
    Clamp clamp;
    Tiling tiling;
};

std::vector<MatmulCase> matmul_cases() {
    std::vector<MatmulCase> out;
    const auto& vs = kai_registry::qsi8d32p_variants();
    for (size_t vi = 0; vi < vs.size(); ++vi) {
        const size_t ms = KAI_ABI(vs[vi].ukernel.get_m_step)();
        struct Shape {
            size_t m, n, k, bl;
        };
        std::vector<Shape> shapes = {
            {1, 1, 32, 32},        {ms, 4, 64, 32},       {ms + 1, 5, 96, 32},  {ms, 3, 128, 64},
            {2 * ms + 1, 9, 288, 96}, {13, 33, 224, 32},  {37, 53, 256, 64},   {ms + 3, 11, 1024, 256},
            {5, 7, 4096, 128},     {19, 13, 128, 128},
            {9, 5, 8224, 32},  // 257 blocks: more than the i8mm kernels precompute scale vectors for
        };
        if (ms > 1) shapes.push_back({ms - 1, 4, 64, 32});
        const size_t npk = kai_registry::qsi8d32p_lhs_packers_for(vs[vi]).size();
        for (const auto& s : shapes) {
            for (size_t p = 0; p < npk; ++p) {
                for (Clamp c : {Clamp::kNone, Clamp::kBite, Clamp::kInverted}) {
                    out.push_back({vi, p, s.m, s.n, s.k, s.bl, c, c == Clamp::kBite ? Tiling::kTiles : Tiling::kWhole});
                }
                out.push_back({vi, p, s.m, s.n, s.k, s.bl, Clamp::kNone, Tiling::kOneTile});
            }
        }
        // The prime shape of the style guide, once per variant (K kept small for emulation).
        out.push_back({vi, 0, 257, 113, 64, 32, Clamp::kBite, Tiling::kTiles});
        // K of real models and past 16384 (every path of the K loops) on M = 1 or mr + 1, N = nr + 1, each once
        // per LHS packer; the reduced sweep keeps the deepest.
        const size_t mr = KAI_ABI(vs[vi].ukernel.get_mr)(), nr = KAI_ABI(vs[vi].ukernel.get_nr)();
        const std::vector<Shape> deep = {{1, nr + 1, 16448, 64}, {mr + 1, nr + 1, 11008, 128}};
        for (size_t si = 0; si < (kai_test::reduced_sweep() ? 1 : deep.size()); ++si) {
            for (size_t p = 0; p < npk; ++p) {
                out.push_back({vi, p, deep[si].m, deep[si].n, deep[si].k, deep[si].bl, si == 0 ? Clamp::kBite : Clamp::kNone,
                               si == 0 ? Tiling::kTiles : Tiling::kWhole});
            }
        }
        // One-sided clamps (only one bound finite), once each per variant.
        out.push_back({vi, 0, ms + 1, 5, 96, 32, Clamp::kRelu, Tiling::kTiles});
        out.push_back({vi, 0, 13, 33, 224, 32, Clamp::kMaxOnly, Tiling::kWhole});
    }
    return out;
}

std::string matmul_case_name(const testing::TestParamInfo<MatmulCase>& info) {
    const MatmulCase& c = info.param;
    const auto& v = kai_registry::qsi8d32p_variants()[c.variant];
    const auto packers = kai_registry::qsi8d32p_lhs_packers_for(v);
    std::string name = short_name(v.name) + "__m" + std::to_string(c.m) + "_n" + std::to_string(c.n) + "_k" +
                       std::to_string(c.k) + "_bl" + std::to_string(c.bl) +
                       (packers[c.packer]->ties_to_even ? "_lhs4x8sb" : "") +
                       (c.clamp == Clamp::kNone      ? ""
                        : c.clamp == Clamp::kBite    ? "_clamp"
                        : c.clamp == Clamp::kRelu    ? "_relu"
                        : c.clamp == Clamp::kMaxOnly ? "_maxonly"
                                                     : "_inverted") +
                       (c.tiling == Tiling::kTiles ? "_tiles" : c.tiling == Tiling::kOneTile ? "_onetile" : "");
    return name;
}

// One case (the caller checked the CPU's features); full_scale: LHS row 0 constant 1.0 (every quantised
// value 127, the widest block sums; the internal limits' full-scale data).
void check_matmul(const MatmulCase& c, bool full_scale) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[c.variant];
    const auto& uk = v.ukernel;
    const Qsi8d32pLhsPacker& packer = *kai_registry::qsi8d32p_lhs_packers_for(v)[c.packer];
    const uint64_t seed = kai_test::seed_from(matmul_case_name(testing::TestParamInfo<MatmulCase>(c, 0)));
    SCOPED_TRACE(kai_test::seed_trace(seed));

    const size_t m = c.m, n = c.n, k = c.k, bl = c.bl;
    const size_t lhs_stride = k + 3;  // floats; wider than the row
    std::vector<float> lhs = make_lhs(m, k, bl, lhs_stride, seed);
    if (full_scale) std::fill(lhs.begin(), lhs.begin() + static_cast<std::ptrdiff_t>(k), 1.0f);
    const std::vector<uint8_t> rows = make_rows(n, k, bl, seed + 1);

    const kai_ref::Qsi8d32 q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), lhs_stride * 4, rounding_of(packer));
    float lo, hi;
    clamp_bounds(c.clamp, kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), -FLT_MAX, FLT_MAX), &lo, &hi);
    const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), lo, hi);

    auto lhs_p = pack_lhs(packer, v, m, k, bl, lhs.data(), lhs_stride * 4);
    auto rhs_p = pack_rhs(v, n, k, bl, rows.data());

    const size_t stride = (n + 5) * sizeof(float);
    DstBuffer dst(m, n + 2, sizeof(float), stride);
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    auto run_tile = [&](size_t m0, size_t mh, size_t n0, size_t nw) {
        KAI_ABI(uk.run_matmul)(mh, nw, k, bl, lhs_p->data() + KAI_ABI(uk.get_lhs_packed_offset)(m0, k, bl),
                      rhs_p->data() + KAI_ABI(uk.get_rhs_packed_offset)(n0, k, bl),
                      reinterpret_cast<float*>(dst.at(0, 0) + KAI_ABI(uk.get_dst_offset)(m0, n0, stride)), stride, sizeof(float),
                      lo, hi);
    };
    size_t r0 = 0, rn = m, c0 = 0, cn = n;
    switch (c.tiling) {
        case Tiling::kWhole:
            run_tile(0, m, 0, n);
            break;
        case Tiling::kTiles:
            for (size_t m0 = 0; m0 < m; m0 += ms) {
                for (size_t n0 = 0; n0 < n; n0 += 2 * ns) run_tile(m0, std::min(ms, m - m0), n0, std::min(2 * ns, n - n0));
            }
            break;
        case Tiling::kOneTile:
            // The second tile in each direction when there is one, else the first.
            r0 = m > ms ? ms : 0;
            c0 = n > ns ? ns : 0;
            rn = std::min(ms, m - r0);
            cn = std::min(ns, n - c0);
            run_tile(r0, rn, c0, cn);
            break;
    }
    EXPECT_TRUE(dst.untouched_outside(r0, rn, c0, cn));
    std::vector<float> got(rn * cn), want(rn * cn);
    for (size_t i = 0; i < rn; ++i) {
        for (size_t j = 0; j < cn; ++j) {
            std::memcpy(&got[i * cn + j], dst.at(r0 + i, c0 + j), 4);
            want[i * cn + j] = ref[(r0 + i) * n + c0 + j];
        }
    }
    EXPECT_TRUE(kai_test::f32_bits_equal(got.data(), cn * 4, want.data(), cn * 4, rn, cn));
}

// The plain Armv8.0 pair reads the buffers of the DotProd pair of the same mr (docs/matmul_q4_0.md): the
// same (mr, nr, kr, sr), so an engine packs once and dispatches by core; and each is bit-exact against the
// reference on a multi-tile case, tile by tile, on every core (no feature to skip on).
TEST(PlainNeon, ReadTheDotProdBuffersBitExactly) {
    const auto& vs = kai_registry::qsi8d32p_variants();
    auto index = [&](const char* name) {
        for (size_t i = 0; i < vs.size(); ++i)
            if (std::string(vs[i].name) == name) return i;
        ADD_FAILURE() << name << " is not in the registry";
        return vs.size();
    };
    const char* pairs[2][2] = {
        {"kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon", "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod"},
        {"kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_4x4_neon", "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod"},
    };
    for (const auto& pr : pairs) {
        SCOPED_TRACE(pr[0]);
        const size_t pi = index(pr[0]), di = index(pr[1]);
        if (pi == vs.size() || di == vs.size()) continue;
        EXPECT_EQ(vs[pi].features, 0u) << "a plain kernel needs no feature";
        const auto& p = vs[pi].ukernel;
        const auto& d = vs[di].ukernel;
        EXPECT_EQ(KAI_ABI(p.get_mr)(), KAI_ABI(d.get_mr)());
        EXPECT_EQ(KAI_ABI(p.get_nr)(), KAI_ABI(d.get_nr)());
        EXPECT_EQ(KAI_ABI(p.get_kr)(), KAI_ABI(d.get_kr)());
        EXPECT_EQ(KAI_ABI(p.get_sr)(), KAI_ABI(d.get_sr)());
        for (size_t pk = 0; pk < kai_registry::qsi8d32p_lhs_packers_for(vs[pi]).size(); ++pk) {
            check_matmul(MatmulCase{pi, pk, 9, 13, 96, 32, Clamp::kBite, Tiling::kTiles}, false);
        }
    }
}

class Qsi8d32pMatmul : public testing::TestWithParam<MatmulCase> {};

TEST_P(Qsi8d32pMatmul, BitExact) {
    const MatmulCase& c = GetParam();
    KAI_TEST_SKIP_UNLESS(kai_registry::qsi8d32p_variants()[c.variant].features);
    check_matmul(c, false);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Qsi8d32pMatmul, testing::ValuesIn(matmul_cases()), matmul_case_name);

// Each variant at its internal limits (test/common/limits.cc: the i8mm GEMMs' precomputed scale vectors, long
// blocks up to bl = k = 4096 with full-scale data) at limit - 1, limit and limit + 1, in both sweeps: the whole
// call, no clamp, every LHS packer of the variant.
using LimitParam = std::tuple<MatmulCase, bool /*full scale*/>;

std::vector<LimitParam> limit_matmul_cases() {
    std::vector<LimitParam> out;
    const auto& vs = kai_registry::qsi8d32p_variants();
    for (size_t vi = 0; vi < vs.size(); ++vi) {
        for (const kai_test::LimitCase& l : kai_test::limit_cases(vs[vi].name)) {
            for (size_t p = 0; p < kai_registry::qsi8d32p_lhs_packers_for(vs[vi]).size(); ++p) {
                out.emplace_back(MatmulCase{vi, p, l.m, l.n, l.k, l.bl, Clamp::kNone, Tiling::kWhole},
                                 l.data == kai_test::LimitData::kFullScale);
            }
        }
    }
    return out;
}

std::string limit_case_name(const testing::TestParamInfo<LimitParam>& info) {
    return matmul_case_name(testing::TestParamInfo<MatmulCase>(std::get<0>(info.param), 0)) +
           (std::get<1>(info.param) ? "_full" : "");
}

class Qsi8d32pMatmulLimit : public testing::TestWithParam<LimitParam> {};

TEST_P(Qsi8d32pMatmulLimit, BitExact) {
    const MatmulCase& c = std::get<0>(GetParam());
    KAI_TEST_SKIP_UNLESS(kai_registry::qsi8d32p_variants()[c.variant].features);
    check_matmul(c, std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Limits, Qsi8d32pMatmulLimit, testing::ValuesIn(limit_matmul_cases()), limit_case_name);

// m == 0 and n == 0 write nothing; getters return the spec's values (docs/formats.md, "Interface structs").
class Qsi8d32pVariantTest : public testing::TestWithParam<size_t> {};

std::string variant_name(const testing::TestParamInfo<size_t>& info) {
    return short_name(kai_registry::qsi8d32p_variants()[info.param].name);
}

TEST_P(Qsi8d32pVariantTest, EmptyAndGetters) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)();
    // nr as the name states it (..._qsi4c32p<nr>x<kr>_...): 4 for the NEON kernels, 8 for the SVE ones.
    const std::string name = v.name;
    const size_t at = name.find("_qsi4c32p") + std::string("_qsi4c32p").size();
    EXPECT_EQ(nr, std::stoul(name.substr(at, name.find('x', at) - at)));
    EXPECT_EQ(KAI_ABI(uk.get_sr)(), 2u);
    EXPECT_EQ(KAI_ABI(uk.get_n_step)(), nr);
    EXPECT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(2 * mr, 64, 32), 2 * mr * 2 * 34);
    EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(8, 64, 32), 2 * 4 * 2 * 18u);
    EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(8, 256, 128),
              KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(8, 256, nr, KAI_ABI(uk.get_kr)(), 128));
    EXPECT_EQ(KAI_ABI(uk.get_dst_offset)(KAI_ABI(uk.get_m_step)(), nr, 20), KAI_ABI(uk.get_m_step)() * 20 + nr * 4);
    EXPECT_EQ(KAI_ABI(uk.get_dst_size)(3, 5), 60u);
    DstBuffer dst(2, 4, 4, 16);
    KAI_ABI(uk.run_matmul)(0, 4, 32, 32, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 16, 4, -FLT_MAX, FLT_MAX);
    KAI_ABI(uk.run_matmul)(2, 0, 32, 32, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 16, 4, -FLT_MAX, FLT_MAX);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
}

// K from 32 to 4096 in steps of 32 with bl = 32, and with one block of bl = K for every 8th K.
TEST_P(Qsi8d32pVariantTest, KSweep) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const Qsi8d32pLhsPacker& packer = *kai_registry::qsi8d32p_lhs_packers_for(v)[0];
    const size_t m = 5, n = 5;
    for (size_t k = 32; k <= 4096; k += 32) {
        for (size_t bl : {size_t{32}, k}) {
            if (bl == k && (k / 32) % 8 != 0) continue;
            const uint64_t seed = kai_test::seed_from(std::string(v.name) + std::to_string(k) + "_" + std::to_string(bl));
            SCOPED_TRACE(kai_test::seed_trace(seed) + " k=" + std::to_string(k) + " bl=" + std::to_string(bl));
            const std::vector<float> lhs = make_lhs(m, k, bl, k, seed);
            const std::vector<uint8_t> rows = make_rows(n, k, bl, seed + 1);
            const auto q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), k * 4, rounding_of(packer));
            const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), -FLT_MAX, FLT_MAX);
            auto lhs_p = pack_lhs(packer, v, m, k, bl, lhs.data(), k * 4);
            auto rhs_p = pack_rhs(v, n, k, bl, rows.data());
            DstBuffer dst(m, n, 4, n * 4);
            KAI_ABI(uk.run_matmul)(m, n, k, bl, lhs_p->data(), rhs_p->data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4,
                          -FLT_MAX, FLT_MAX);
            ASSERT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, ref.data(), n * 4,
                                                 m, n));
        }
    }
}

// GGUF writer blocks (docs/formats.md, "qsi4c32pscalef16 RHS"): a block whose max-magnitude value is positive (d < 0), one
// where it is negative, an all-zero block and a block whose scale is subnormal in f16.
TEST_P(Qsi8d32pVariantTest, Q4_0EdgeBlocks) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t m = 3, n = 4, k = 128, bl = 32;
    std::vector<float> w(n * k);
    kai_test::Rng rng(7);
    for (auto& x : w) x = rng.uniform(-1.0f, 1.0f);
    // Row 0: block 0 max +3 (d = -3/8), block 1 max -3 (d = +3/8), block 2 zero, block 3 tiny.
    w[5] = 3.0f;
    w[32 + 9] = -3.0f;
    for (size_t kk = 64; kk < 96; ++kk) w[kk] = 0.0f;
    for (size_t kk = 96; kk < 128; ++kk) w[kk] *= 1e-6f;
    std::vector<uint8_t> rows(n * kai_ref::q4_0_row_bytes(k, bl));
    for (size_t j = 0; j < n; ++j) kai_ref::quantize_row_q4_0(&w[j * k], k, bl, &rows[j * kai_ref::q4_0_row_bytes(k, bl)]);
    // Check the writer rule on row 0: scale signs, the max element at nibble 0, zero block.
    EXPECT_EQ(kai_ref::q4_0_scale(rows.data(), k, bl, 0, 0), kai_ref::f16_from_f32(-3.0f / 8.0f));
    EXPECT_EQ(kai_ref::q4_0_scale(rows.data(), k, bl, 0, 1), kai_ref::f16_from_f32(3.0f / 8.0f));
    EXPECT_EQ(kai_ref::q4_0_weight(rows.data(), k, bl, 0, 5), -8);
    EXPECT_EQ(kai_ref::q4_0_weight(rows.data(), k, bl, 0, 41), -8);
    EXPECT_EQ(kai_ref::q4_0_scale(rows.data(), k, bl, 0, 2), 0x8000);  // d = 0 / -8 = -0, as ggml writes it
    EXPECT_LT(kai_ref::q4_0_scale(rows.data(), k, bl, 0, 3) & 0x7FFF, 0x0400);  // subnormal
    for (const Qsi8d32pLhsPacker* p : kai_registry::qsi8d32p_lhs_packers_for(v)) {
        const std::vector<float> lhs = make_lhs(m, k, bl, k, 11);
        const auto q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), k * 4, rounding_of(*p));
        const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), -FLT_MAX, FLT_MAX);
        auto lhs_p = pack_lhs(*p, v, m, k, bl, lhs.data(), k * 4);
        auto rhs_p = pack_rhs(v, n, k, bl, rows.data());
        DstBuffer dst(m, n, 4, n * 4);
        KAI_ABI(uk.run_matmul)(m, n, k, bl, lhs_p->data(), rhs_p->data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4,
                      -FLT_MAX, FLT_MAX);
        EXPECT_TRUE(
            kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, ref.data(), n * 4, m, n))
            << p->name;
    }
}

#ifndef NDEBUG
// Bad input stops with a message naming the parameter (debug builds).
TEST_P(Qsi8d32pVariantTest, BadInputDies) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    GTEST_FLAG_SET(death_test_style, "fast");
    const auto& uk = v.ukernel;
    std::vector<uint8_t> buf(4096);
    float out[16];
    EXPECT_DEATH(KAI_ABI(uk.run_matmul)(1, 4, 96, 48, buf.data(), buf.data(), out, 16, 4, -FLT_MAX, FLT_MAX),
                 "bl must be a non-zero multiple of 32");
    EXPECT_DEATH(KAI_ABI(uk.run_matmul)(1, 4, 96, 64, buf.data(), buf.data(), out, 16, 4, -FLT_MAX, FLT_MAX),
                 "k must be a multiple of bl");
    EXPECT_DEATH(KAI_ABI(uk.run_matmul)(1, 4, 64, 32, buf.data(), buf.data(), out, 16, 8, -FLT_MAX, FLT_MAX),
                 "dst_stride_col must be");
    EXPECT_DEATH(KAI_ABI(uk.get_lhs_packed_offset)(0, 64, 48), "bl must be");
    EXPECT_DEATH(KAI_ABI(uk.get_rhs_packed_offset)(2, 64, 32), "n_idx must be a multiple of nr");
}
#endif

INSTANTIATE_TEST_SUITE_P(Variants, Qsi8d32pVariantTest,
                         testing::Range(size_t{0}, kai_registry::qsi8d32p_variants().size()), variant_name);

// ---------------------------------------------------------------------------------------------
// Packers.
// ---------------------------------------------------------------------------------------------

struct LhsPackCase {
    size_t packer;  // index into qsi8d32p_lhs_packers()
    size_t mr, kr, sr;
    size_t m, k, bl;
};

std::vector<LhsPackCase> lhs_pack_cases() {
    std::vector<LhsPackCase> out;
    const auto& ps = kai_registry::qsi8d32p_lhs_packers();
    const size_t geo[][3] = {{4, 16, 2}, {4, 8, 2}, {1, 16, 2}, {1, 8, 2}, {8, 4, 1}, {2, 32, 2}, {3, 4, 2}};
    const size_t shapes[][3] = {{1, 32, 32}, {3, 64, 32}, {5, 128, 64}, {9, 288, 96}, {37, 256, 32}, {8, 1024, 128}};
    for (size_t p = 0; p < ps.size(); ++p) {
        for (const auto& g : geo) {
            if (!ps[p].accepts(g[0], g[1], g[2])) continue;
            for (const auto& s : shapes) out.push_back({p, g[0], g[1], g[2], s[0], s[1], s[2]});
        }
    }
    return out;
}

std::string lhs_pack_case_name(const testing::TestParamInfo<LhsPackCase>& info) {
    const LhsPackCase& c = info.param;
    std::string name = kai_registry::qsi8d32p_lhs_packers()[c.packer].name;
    name = name.substr(std::string("kai_lhs_quant_pack_").size());
    return name + "__m" + std::to_string(c.m) + "_k" + std::to_string(c.k) + "_bl" + std::to_string(c.bl) + "_mr" +
           std::to_string(c.mr) + "_kr" + std::to_string(c.kr) + "_sr" + std::to_string(c.sr);
}

class Qsi8d32pLhsPack : public testing::TestWithParam<LhsPackCase> {};

// Byte-exact against the reference with a padded row stride; unwritten lanes untouched; packing
// in two row chunks (both docs/formats.md, "qsi8d32p LHS" ways) gives the same bytes.
TEST_P(Qsi8d32pLhsPack, ByteExact) {
    const LhsPackCase& c = GetParam();
    const Qsi8d32pLhsPacker& p = kai_registry::qsi8d32p_lhs_packers()[c.packer];
    KAI_TEST_SKIP_UNLESS(p.features);
    const uint64_t seed = kai_test::seed_from(lhs_pack_case_name(testing::TestParamInfo<LhsPackCase>(c, 0)));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t stride = c.k + 5;  // floats
    const std::vector<float> lhs = make_lhs(c.m, c.k, c.bl, stride, seed);
    const auto q = kai_ref::quantize_qsi8d32(c.m, c.k, c.bl, lhs.data(), stride * 4, rounding_of(p));
    std::vector<uint8_t> mask;
    const std::vector<uint8_t> want = kai_ref::pack_qsi8d32p(q, c.mr, c.kr / c.sr, 0xA5, &mask);
    const size_t size = KAI_ABI(p.get_lhs_packed_size)(c.m, c.k, c.bl, c.mr, c.kr, c.sr);
    ASSERT_EQ(size, want.size());
    GuardedBuffer got(size, 0xA5);
    KAI_ABI(p.run)(c.m, c.k, c.bl, c.mr, c.kr, c.sr, 0, lhs.data(), stride * 4, got.data());
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));  // unwritten bytes keep 0xA5

    // Row chunks at a multiple of mr.
    const size_t m0 = c.m > c.mr ? c.mr : 0;
    if (m0 == 0) return;
    const size_t off = KAI_ABI(p.get_lhs_packed_offset)(m0, c.k, c.bl, c.mr, c.kr, c.sr);
    GuardedBuffer chunked(size, 0xA5);
    KAI_ABI(p.run)(m0, c.k, c.bl, c.mr, c.kr, c.sr, 0, lhs.data(), stride * 4, chunked.data());
    KAI_ABI(p.run)(c.m - m0, c.k, c.bl, c.mr, c.kr, c.sr, 0, lhs.data() + m0 * stride, stride * 4, chunked.data() + off);
    EXPECT_TRUE(kai_test::bytes_equal(chunked.data(), want.data(), size));
    GuardedBuffer started(size, 0xA5);
    KAI_ABI(p.run)(m0, c.k, c.bl, c.mr, c.kr, c.sr, 0, lhs.data(), stride * 4, started.data());
    KAI_ABI(p.run)(c.m - m0, c.k, c.bl, c.mr, c.kr, c.sr, m0, lhs.data(), stride * 4, started.data() + off);
    EXPECT_TRUE(kai_test::bytes_equal(started.data(), want.data(), size));
}

INSTANTIATE_TEST_SUITE_P(Shapes, Qsi8d32pLhsPack, testing::ValuesIn(lhs_pack_cases()), lhs_pack_case_name);

// The two tie rules on exact ties (scale 1): 2.5 -> 3 / 2, -2.5 -> -3 / -2, 0.5 -> 1 / 0, 3.5 -> 4 / 4.
TEST(Qsi8d32pLhsPackTies, TiesAwayVersusEven) {
    std::vector<float> x(32, 0.0f);
    x[0] = 127.0f;
    x[1] = 2.5f;
    x[2] = -2.5f;
    x[3] = 0.5f;
    x[4] = 3.5f;
    std::vector<uint8_t> a(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(1, 32, 32, 4, 16, 2));
    std::vector<uint8_t> e(a.size());
    KAI_ABI(kai_run_lhs_quant_pack_qsi8d32p_f32)(1, 32, 32, 4, 16, 2, 0, x.data(), 128, a.data());
    KAI_ABI(kai_run_lhs_quant_pack_qsi8d32p4x8sb_f32_neon)(1, 32, 32, 4, 16, 2, 0, x.data(), 128, e.data());
    EXPECT_EQ(a[0] | (a[1] << 8), 0x3C00);
    EXPECT_EQ(e[0] | (e[1] << 8), 0x3C00);
    const int8_t* qa = reinterpret_cast<const int8_t*>(a.data() + 8);
    const int8_t* qe = reinterpret_cast<const int8_t*>(e.data() + 8);
    EXPECT_EQ(qa[1], 3);
    EXPECT_EQ(qa[2], -3);
    EXPECT_EQ(qa[3], 1);
    EXPECT_EQ(qa[4], 4);
    EXPECT_EQ(qe[1], 2);
    EXPECT_EQ(qe[2], -2);
    EXPECT_EQ(qe[3], 0);
    EXPECT_EQ(qe[4], 4);
}

// Degenerate blocks, every LHS packer and geometry (bl = 32, K = 96, 4 dense rows):
// - tiny blocks (0 < amax < 127 / 2^128 ~ 3.7e-37): scale = amax / 127 is an f32 subnormal whose
//   reciprocal is +inf and whose f16 is +0. KleidiAI converts x * inf with a saturating FCVT*
//   (+inf -> INT32_MAX, -inf -> INT32_MIN, 0 * inf = NaN -> 0) and keeps the low byte: -1 for
//   x > 0, 0 for x <= 0, with a zero scale (the block dequantises to 0);
// - +-0 blocks: scale 0, every q = 0 (so is a block of f32 subnormals whose amax / 127 underflows
//   to 0; one larger tiny value keeps the infinite reciprocal); a constant block: +-127;
// - huge blocks (amax 3e38): q exact, the f16 scale +inf (0x7C00), as docs/formats.md, "qsi8d32p LHS" states.
// The reference quantiser is pinned to these bytes here, then every packer must give exactly the
// reference's packing (whichever of its paths, scalar or NEON, the geometry selects).
TEST(Qsi8d32pLhsPackDegenerate, TinyZeroConstantAndHugeBlocks) {
    const size_t m = 4, k = 96, bl = 32;
    std::vector<float> x(m * k, 0.0f);
    for (size_t j = 0; j < bl; ++j) {
        x[0 * k + j] = j % 3 == 0 ? 1.0e-38f : (j % 3 == 1 ? -2.5e-39f : 0.0f);  // tiny, mixed signs
        x[1 * k + j] = j % 2 ? -0.0f : 0.0f;                                     // +-0
        x[2 * k + j] = 0.75f;                                                    // constant
        x[3 * k + j] = j % 2 ? -3.0e38f : 1.5e38f;                               // huge
        x[0 * k + bl + j] = -1.0e-39f * static_cast<float>(j + 1);               // tiny, negative
        x[1 * k + bl + j] = j % 2 ? 3.0e-37f : 1.4e-45f;                         // tiny with a subnormal
        x[2 * k + bl + j] = -0.75f;
        x[3 * k + bl + j] = static_cast<float>(j) - 16.0f;                       // an ordinary block
    }
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 2 * bl; j < k; ++j) x[i * k + j] = 0.125f * static_cast<float>((i * 7 + j) % 17) - 1.0f;
    for (auto rounding : {kai_ref::Q8Rounding::kTiesAway, kai_ref::Q8Rounding::kTiesEven}) {
        const kai_ref::Qsi8d32 q = kai_ref::quantize_qsi8d32(m, k, bl, x.data(), k * 4, rounding);
        const size_t nb = k / bl;
        for (size_t j = 0; j < bl; ++j) {
            ASSERT_EQ(q.q[0 * k + j], x[0 * k + j] > 0.0f ? -1 : 0) << j;
            ASSERT_EQ(q.q[1 * k + j], 0) << j;
            ASSERT_EQ(q.q[2 * k + j], 127) << j;
            ASSERT_EQ(q.q[0 * k + bl + j], 0) << j;
            ASSERT_EQ(q.q[1 * k + bl + j], -1) << j;  // 1.4e-45 * inf and 3e-37 * inf
            ASSERT_EQ(q.q[2 * k + bl + j], -127) << j;
        }
        EXPECT_EQ(q.q[3 * k + 1], -127);  // -3e38 * (127 / 3e38)
        EXPECT_EQ(q.scales[0 * nb], 0x0000);
        EXPECT_EQ(q.scales[0 * nb + 1], 0x0000);
        EXPECT_EQ(q.scales[1 * nb], 0x0000);
        EXPECT_EQ(q.scales[1 * nb + 1], 0x0000);
        EXPECT_EQ(q.scales[3 * nb], 0x7C00);
    }
    const size_t geo[][3] = {{4, 16, 2}, {4, 8, 2}, {1, 16, 2}, {1, 8, 2}, {8, 4, 1}, {2, 32, 2}, {3, 4, 2}};
    for (const Qsi8d32pLhsPacker& p : kai_registry::qsi8d32p_lhs_packers()) {
        if (!kai_test::missing_features(p.features).empty()) continue;
        const kai_ref::Qsi8d32 q = kai_ref::quantize_qsi8d32(m, k, bl, x.data(), k * 4, rounding_of(p));
        for (const auto& g : geo) {
            if (!p.accepts(g[0], g[1], g[2])) continue;
            const std::vector<uint8_t> want = kai_ref::pack_qsi8d32p(q, g[0], g[1] / g[2], 0xA5, nullptr);
            const size_t size = KAI_ABI(p.get_lhs_packed_size)(m, k, bl, g[0], g[1], g[2]);
            ASSERT_EQ(size, want.size());
            std::vector<uint8_t> got(size, 0xA5);
            KAI_ABI(p.run)(m, k, bl, g[0], g[1], g[2], 0, x.data(), k * 4, got.data());
            EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size))
                << p.name << " mr " << g[0] << " kr " << g[1] << " sr " << g[2];
        }
    }
}

struct RhsPackCase {
    size_t n, k, bl, nr, kr;
};

std::vector<RhsPackCase> rhs_pack_cases() {
    std::vector<RhsPackCase> out;
    const size_t shapes[][3] = {{1, 32, 32}, {5, 64, 32}, {13, 128, 64}, {8, 288, 96}, {53, 256, 128}, {9, 1024, 32}};
    const size_t geo[][2] = {{4, 16}, {4, 8}, {8, 16}, {8, 8}, {1, 16}, {4, 4}, {3, 2}};
    for (const auto& s : shapes) {
        for (const auto& g : geo) {
            if (s[2] % g[1] != 0) continue;
            out.push_back({s[0], s[1], s[2], g[0], g[1]});
        }
    }
    return out;
}

std::string rhs_pack_case_name(const testing::TestParamInfo<RhsPackCase>& info) {
    const RhsPackCase& c = info.param;
    return "n" + std::to_string(c.n) + "_k" + std::to_string(c.k) + "_bl" + std::to_string(c.bl) + "_nr" +
           std::to_string(c.nr) + "_kr" + std::to_string(c.kr);
}

class Qsi8d32pRhsPack : public testing::TestWithParam<RhsPackCase> {};

// Byte-exact against the reference (every byte written), and column chunks at multiples of nr.
TEST_P(Qsi8d32pRhsPack, ByteExact) {
    const RhsPackCase& c = GetParam();
    const uint64_t seed = kai_test::seed_from(rhs_pack_case_name(testing::TestParamInfo<RhsPackCase>(c, 0)));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const std::vector<uint8_t> rows = make_rows(c.n, c.k, c.bl, seed);
    const std::vector<uint8_t> want = kai_ref::pack_qsi4c32pscalef16(c.n, c.k, c.bl, c.nr, c.kr, rows.data());
    const size_t size = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(c.n, c.k, c.nr, c.kr, c.bl);
    ASSERT_EQ(size, want.size());
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    GuardedBuffer got(size, 0xA5);
    KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(1, c.n, c.k, c.nr, c.kr, 2, c.bl, rows.data(), nullptr,
                                                       got.data(), 0, &params);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));

    const size_t n0 = c.n > c.nr ? c.nr : 0;
    if (n0 == 0) return;
    const size_t row_stride = kai_ref::q4_0_row_bytes(c.k, c.bl);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n0, row_stride), n0 * row_stride);
    GuardedBuffer chunked(size, 0xA5);
    KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(1, n0, c.k, c.nr, c.kr, 2, c.bl, rows.data(), nullptr,
                                                       chunked.data(), 0, &params);
    KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(
        1, c.n - n0, c.k, c.nr, c.kr, 2, c.bl, rows.data() + n0 * row_stride, nullptr,
        chunked.data() + KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(n0, c.k, c.nr, c.kr, c.bl),
        0, &params);
    EXPECT_TRUE(kai_test::bytes_equal(chunked.data(), want.data(), size));
}

INSTANTIATE_TEST_SUITE_P(Shapes, Qsi8d32pRhsPack, testing::ValuesIn(rhs_pack_cases()), rhs_pack_case_name);

#ifndef NDEBUG
TEST(Qsi8d32pPackers, BadInputDies) {
    GTEST_FLAG_SET(death_test_style, "fast");
    std::vector<float> lhs(256);
    std::vector<uint8_t> out(4096);
    std::vector<uint8_t> rows(512);
    const float bias[4] = {0, 0, 0, 0};
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    const kai_rhs_pack_qs4cxs1s0_param bad_zp = {1, 0};
    EXPECT_DEATH(kai_run_lhs_quant_pack_qsi8d32p_f32(1, 96, 48, 4, 16, 2, 0, lhs.data(), 384, out.data()),
                 "bl must be a non-zero multiple of 32");
    EXPECT_DEATH(kai_run_lhs_quant_pack_qsi8d32p_f32(1, 96, 64, 4, 16, 2, 0, lhs.data(), 384, out.data()),
                 "k must be a multiple of bl");
    EXPECT_DEATH(kai_run_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(1, 64, 32, 1, 16, 2, 0, lhs.data(), 256, out.data()),
                 "mr must be 4");
    EXPECT_DEATH(kai_run_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(1, 96, 48, 4, 16, 2, 0, lhs.data(), 384, out.data()),
                 "bl must be");
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, 4, 64, 4, 16, 2, 32, rows.data(), bias,
                                                                    out.data(), 0, &params),
                 "bias must be NULL");
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, 4, 96, 4, 16, 2, 48, rows.data(), nullptr,
                                                                    out.data(), 0, &params),
                 "bl must be a non-zero multiple of 32");
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, 4, 96, 4, 16, 2, 64, rows.data(), nullptr,
                                                                    out.data(), 0, &params),
                 "k must be a multiple of bl");
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, 4, 64, 4, 16, 2, 32, rows.data(), nullptr,
                                                                    out.data(), 0, &bad_zp),
                 "rhs_zero_point must be 8");
}
#endif

// ---------------------------------------------------------------------------------------------
// Preconditions: one death test per distinct (function, message) of the family's KAI_ASSUME_MSG
// checks (debug builds only: KAI_ASSUME is compiled out with NDEBUG), plus the sizes and offsets
// that do not fit in size_t (kai_common.h's checked arithmetic, aborting in every build). Each
// case calls its function twice: once with valid arguments, which must return normally (so the
// baseline is valid), then in a death test with exactly one argument broken, which must abort with
// "<file>:<line> <message>" printed by the source file that holds the check (kai_common.h for
// "size computation overflows size_t"; release builds print nothing, so they match any output).
// The (function, message) pairs already checked by Qsi8d32pVariantTest.BadInputDies and
// Qsi8d32pPackers.BadInputDies above are not repeated. Checks that no argument can violate are
// absent: "m_idx must be a multiple of mr (1)" and "... of m_step (1)" of the 1-row kernels.
// ---------------------------------------------------------------------------------------------

using kai_test::expect_preconditions;
using kai_test::PreconditionCase;
const std::string kCommonFile = kai_test::kKaiCommonFile;
const std::string kOverflow = kai_test::kSizeOverflow;
// The largest multiple of 32 (so of bl = 32 and of kr = 16): a k that passes every shape check but
// whose packed sizes do not fit in size_t.
constexpr size_t kHugeK = SIZE_MAX - 31;

// The family's shape: every kernel and packer accepts it (mr = 4 / 1, nr = 4, kr = 16 / 8, sr = 2).
constexpr size_t kK = 64, kBl = 32;

#ifndef NDEBUG
class Qsi8d32pKernelPreconditionsDeathTest : public testing::TestWithParam<size_t> {};

TEST_P(Qsi8d32pKernelPreconditionsDeathTest, Kernels) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const std::string stem = std::string(v.name).substr(std::string("kai_").size());
    const std::string file = std::string(v.name) + ".c";
    const size_t m = 2, n = 4, mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), m_step = KAI_ABI(uk.get_m_step)(), n_step = KAI_ABI(uk.get_n_step)();
    const std::vector<float> lhs = make_lhs(m, kK, kBl, kK, 91);
    const std::vector<uint8_t> rows = make_rows(n, kK, kBl, 92);
    auto lhs_p = pack_lhs(*kai_registry::qsi8d32p_lhs_packers_for(v)[0], v, m, kK, kBl, lhs.data(), kK * 4);
    auto rhs_p = pack_rhs(v, n, kK, kBl, rows.data());
    std::vector<float> dst(m * n);
    auto run = [&](const void* l, const void* r, float* d) {
        KAI_ABI(uk.run_matmul)(m, n, kK, kBl, l, r, d, n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    };
    const std::string lhs_fn = "kai_get_lhs_packed_offset_" + stem, rhs_fn = "kai_get_rhs_packed_offset_" + stem,
                      dst_fn = "kai_get_dst_offset_" + stem, run_fn = "kai_run_" + stem;
    // BadInputDies covers: bl of get_lhs_packed_offset and run, k and dst_stride_col of run, n_idx
    // of get_rhs_packed_offset.
    std::vector<PreconditionCase> cases = {
        {lhs_fn, file, "k must be a multiple of bl",
         [&](bool bad) { (void)uk.get_lhs_packed_offset(mr, bad ? 48 : kK, kBl); }},
        {rhs_fn, file, "bl must be a non-zero multiple of 32",
         [&](bool bad) { (void)uk.get_rhs_packed_offset(nr, kK, bad ? 0 : kBl); }},
        {rhs_fn, file, "k must be a multiple of bl",
         [&](bool bad) { (void)uk.get_rhs_packed_offset(nr, bad ? 48 : kK, kBl); }},
        {dst_fn, file, "n_idx must be a multiple of n_step (" + std::to_string(n_step) + ")",
         [&](bool bad) { (void)uk.get_dst_offset(m_step, bad ? n_step / 2 : n_step, 64); }},
        {run_fn, file, "lhs_packed must not be NULL",
         [&](bool bad) { run(bad ? nullptr : lhs_p->data(), rhs_p->data(), dst.data()); }},
        {run_fn, file, "rhs_packed must not be NULL",
         [&](bool bad) { run(lhs_p->data(), bad ? nullptr : rhs_p->data(), dst.data()); }},
        {run_fn, file, "dst must not be NULL",
         [&](bool bad) { run(lhs_p->data(), rhs_p->data(), bad ? nullptr : dst.data()); }},
        // Two rows one float closer than a row of n.
        {run_fn, file, "dst_stride_row must be at least n * sizeof(float) when m > 1",
         [&](bool bad) {
             KAI_ABI(uk.run_matmul)(m, n, kK, kBl, lhs_p->data(), rhs_p->data(), dst.data(),
                           (bad ? n - 1 : n) * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
         }},
    };
    if (mr > 1) {
        cases.push_back({lhs_fn, file, "m_idx must be a multiple of mr (" + std::to_string(mr) + ")",
                         [&](bool bad) { (void)uk.get_lhs_packed_offset(bad ? mr / 2 : mr, kK, kBl); }});
    }
    if (m_step > 1) {
        cases.push_back({dst_fn, file, "m_idx must be a multiple of m_step (" + std::to_string(m_step) + ")",
                         [&](bool bad) { (void)uk.get_dst_offset(bad ? m_step / 2 : m_step, n_step, 64); }});
    }
    expect_preconditions(cases);
}

INSTANTIATE_TEST_SUITE_P(Variants, Qsi8d32pKernelPreconditionsDeathTest,
                         testing::Range(size_t{0}, kai_registry::qsi8d32p_variants().size()), variant_name);

TEST(Qsi8d32pPackerPreconditionsDeathTest, LhsPackers) {
    const size_t m = 5, mr = 4, kr = 16, sr = 2;  // accepted by both packers
    const std::vector<float> lhs = make_lhs(m, kK, kBl, kK, 93);
    for (const Qsi8d32pLhsPacker& p : kai_registry::qsi8d32p_lhs_packers()) {
        SCOPED_TRACE(p.name);
        KAI_TEST_SKIP_UNLESS(p.features);
        const std::string name = p.name, stem = name.substr(std::string("kai_").size()), file = name + ".c";
        const bool sb = name == "kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon";
        const std::string offset_fn = "kai_get_lhs_packed_offset_" + stem, size_fn = "kai_get_lhs_packed_size_" + stem,
                          run_fn = "kai_run_" + stem;
        std::vector<uint8_t> out(KAI_ABI(p.get_lhs_packed_size)(m, kK, kBl, mr, kr, sr));
        // The getters and the run with one argument replaced when the case is broken.
        struct Args {
            size_t m_idx, k, bl, mr, kr, sr;
            const float* lhs;
            void* out;
        };
        const Args ok{0, kK, kBl, mr, kr, sr, lhs.data(), out.data()};
        auto edited = [&](bool bad, const std::function<void(Args&)>& edit) {
            Args a = ok;
            if (bad) edit(a);
            return a;
        };
        std::vector<PreconditionCase> cases;
        // The shape checks, shared by the three functions.
        const std::pair<const char*, std::function<void(Args&)>> shape[] = {
            {"bl must be a non-zero multiple of 32", [](Args& a) { a.bl = 0; }},
            {"k must be a multiple of bl", [](Args& a) { a.k = 48; }},
            {"mr must be non-zero", [](Args& a) { a.mr = 0; }},
            {"kr must be a non-zero multiple of sr", [](Args& a) { a.kr = 15; }},
            {"kr / sr must divide bl", [](Args& a) { a.kr = 6; }},
        };
        for (const auto& s : shape) {
            const auto edit = s.second;
            cases.push_back({offset_fn, file, s.first, [&, edit](bool bad) {
                                 const Args a = edited(bad, edit);
                                 (void)p.get_lhs_packed_offset(mr, a.k, a.bl, a.mr, a.kr, a.sr);
                             }});
            cases.push_back({size_fn, file, s.first, [&, edit](bool bad) {
                                 const Args a = edited(bad, edit);
                                 (void)p.get_lhs_packed_size(m, a.k, a.bl, a.mr, a.kr, a.sr);
                             }});
            // BadInputDies covers bl and k of both runs (bl = 48 leaves k % bl != 0 unreached).
            if (s.first == std::string("bl must be a non-zero multiple of 32")) continue;
            if (s.first == std::string("k must be a multiple of bl") && !sb) continue;
            cases.push_back({run_fn, file, s.first, [&, edit](bool bad) {
                                 const Args a = edited(bad, edit);
                                 KAI_ABI(p.run)(m, a.k, a.bl, a.mr, a.kr, a.sr, a.m_idx, a.lhs, kK * 4, a.out);
                             }});
        }
        auto run_case = [&](const char* message, std::function<void(Args&)> edit) {
            cases.push_back({run_fn, file, message, [&, edit](bool bad) {
                                 const Args a = edited(bad, edit);
                                 KAI_ABI(p.run)(m, a.k, a.bl, a.mr, a.kr, a.sr, a.m_idx, a.lhs, kK * 4, a.out);
                             }});
        };
        run_case("lhs must not be NULL", [](Args& a) { a.lhs = nullptr; });
        run_case("lhs_packed must not be NULL", [](Args& a) { a.out = nullptr; });
        // Rows one float closer than a row of k (m > 1).
        cases.push_back({run_fn, file, "lhs_stride must be at least k * sizeof(float) when m > 1", [&](bool bad) {
                             KAI_ABI(p.run)(m, kK, kBl, mr, kr, sr, 0, lhs.data(), (bad ? kK - 1 : kK) * 4, out.data());
                         }});
        if (sb) {
            // "mr must be 4": BadInputDies.
            run_case("kr must be 16", [](Args& a) { a.kr = 8; });
            run_case("sr must be 2", [](Args& a) { a.sr = 4; });
            run_case("m_idx_start must be a multiple of 4", [](Args& a) { a.m_idx = 2; });
        }
        expect_preconditions(cases);
    }
}

TEST(Qsi8d32pPackerPreconditionsDeathTest, RhsPacker) {
    const std::string stem = "rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0";
    const std::string file = "kai_" + stem + ".c";
    const std::string stride_fn = "kai_get_rhs_packed_stride_" + stem, offset_fn = "kai_get_rhs_packed_offset_" + stem,
                      size_fn = "kai_get_rhs_packed_size_" + stem, run_fn = "kai_run_" + stem;
    const size_t n = 5, nr = 4, kr = 16, sr = 2;
    const std::vector<uint8_t> rows = make_rows(n, kK, kBl, 94);
    std::vector<uint8_t> out(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n, kK, nr, kr, kBl));
    struct Args {
        size_t num_groups, k, nr, kr, sr, bl;
        const uint8_t* rhs;
        void* out;
        size_t extra_bytes;
        kai_rhs_pack_qs4cxs1s0_param params;
        bool null_params;
    };
    const Args ok{1, kK, nr, kr, sr, kBl, rows.data(), out.data(), 0, {1, 8}, false};
    auto edited = [&](bool bad, const std::function<void(Args&)>& edit) {
        Args a = ok;
        if (bad) edit(a);
        return a;
    };
    auto run = [&](const Args& a) {
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(a.num_groups, n, a.k, a.nr, a.kr, a.sr, a.bl, a.rhs, nullptr,
                                                           a.out, a.extra_bytes, a.null_params ? nullptr : &a.params);
    };
    std::vector<PreconditionCase> cases;
    const std::pair<const char*, std::function<void(Args&)>> shape[] = {
        {"bl must be a non-zero multiple of 32", [](Args& a) { a.bl = 0; }},
        {"k must be a multiple of bl", [](Args& a) { a.k = 48; }},
        {"nr must be non-zero", [](Args& a) { a.nr = 0; }},
        {"kr must be even, at most 16 and divide bl", [](Args& a) { a.kr = 32; }},
    };
    for (const auto& s : shape) {
        const auto edit = s.second;
        cases.push_back({stride_fn, file, s.first, [&, edit](bool bad) {
                             const Args a = edited(bad, edit);
                             (void)KAI_ABI(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(a.k, a.nr, a.kr,
                                                                                                        a.bl);
                         }});
        cases.push_back({offset_fn, file, s.first, [&, edit](bool bad) {
                             const Args a = edited(bad, edit);
                             (void)KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(nr, a.k, a.nr,
                                                                                                        a.kr, a.bl);
                         }});
        cases.push_back({size_fn, file, s.first, [&, edit](bool bad) {
                             const Args a = edited(bad, edit);
                             (void)KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(n, a.k, a.nr, a.kr,
                                                                                                      a.bl);
                         }});
        // BadInputDies covers bl and k of the run.
        if (s.first == std::string("nr must be non-zero") ||
            s.first == std::string("kr must be even, at most 16 and divide bl")) {
            cases.push_back({run_fn, file, s.first, [&, edit](bool bad) { run(edited(bad, edit)); }});
        }
    }
    cases.push_back({offset_fn, file, "n_idx must be a multiple of nr", [&](bool bad) {
                         (void)KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(bad ? nr / 2 : nr, kK,
                                                                                                    nr, kr, kBl);
                     }});
    // BadInputDies covers "bias must be NULL..." and "params->rhs_zero_point must be 8".
    const std::pair<const char*, std::function<void(Args&)>> run_only[] = {
        {"num_groups must be 1", [](Args& a) { a.num_groups = 2; }},
        {"sr must be 2", [](Args& a) { a.sr = 1; }},
        {"extra_bytes must be 0", [](Args& a) { a.extra_bytes = 4; }},
        {"params must not be NULL", [](Args& a) { a.null_params = true; }},
        {"params->lhs_zero_point must be 1", [](Args& a) { a.params.lhs_zero_point = 0; }},
        {"rhs must not be NULL", [](Args& a) { a.rhs = nullptr; }},
        {"rhs_packed must not be NULL", [](Args& a) { a.out = nullptr; }},
    };
    for (const auto& s : run_only) {
        const auto edit = s.second;
        cases.push_back({run_fn, file, s.first, [&, edit](bool bad) { run(edited(bad, edit)); }});
    }
    expect_preconditions(cases);
}
#endif  // NDEBUG

// Sizes and offsets that do not fit in size_t abort in every build instead of wrapping to a small
// value that a caller would allocate or add to a pointer. For overflow cases `function` also names
// the absurd argument, so that two ways of overflowing one getter are two cases.
class Qsi8d32pKernelSizeOverflowDeathTest : public testing::TestWithParam<size_t> {};

TEST_P(Qsi8d32pKernelSizeOverflowDeathTest, Getters) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const std::string stem = std::string(v.name).substr(std::string("kai_").size());
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), m_step = KAI_ABI(uk.get_m_step)(), n_step = KAI_ABI(uk.get_n_step)();
    const std::string lhs_fn = "kai_get_lhs_packed_offset_" + stem, rhs_fn = "kai_get_rhs_packed_offset_" + stem,
                      dst_fn = "kai_get_dst_offset_" + stem, size_fn = "kai_get_dst_size_" + stem;
    const size_t huge_m_idx = SIZE_MAX / 16 * 16;  // a multiple of mr, nr, m_step and n_step
    const std::vector<PreconditionCase> cases = {
        {lhs_fn + " (k = SIZE_MAX - 31)", kCommonFile, kOverflow,
         [&](bool bad) { (void)uk.get_lhs_packed_offset(mr, bad ? kHugeK : kK, kBl); }},
        {lhs_fn + " (m_idx = SIZE_MAX / 16 * 16)", kCommonFile, kOverflow,
         [&](bool bad) { (void)uk.get_lhs_packed_offset(bad ? huge_m_idx : mr, kK, kBl); }},
        {rhs_fn + " (k = SIZE_MAX - 31)", kCommonFile, kOverflow,
         [&](bool bad) { (void)uk.get_rhs_packed_offset(nr, bad ? kHugeK : kK, kBl); }},
        {rhs_fn + " (n_idx = SIZE_MAX / 16 * 16)", kCommonFile, kOverflow,
         [&](bool bad) { (void)uk.get_rhs_packed_offset(bad ? huge_m_idx : nr, kK, kBl); }},
        {dst_fn + " (dst_stride = SIZE_MAX)", kCommonFile, kOverflow,
         [&](bool bad) { (void)uk.get_dst_offset(m_step, n_step, bad ? SIZE_MAX : 64); }},
        {size_fn + " (m = SIZE_MAX)", kCommonFile, kOverflow,
         [&](bool bad) { (void)uk.get_dst_size(bad ? SIZE_MAX : 3, 5); }},
        {size_fn + " (n = SIZE_MAX / 2)", kCommonFile, kOverflow,
         [&](bool bad) { (void)uk.get_dst_size(1, bad ? SIZE_MAX / 2 : 5); }},
    };
    expect_preconditions(cases);
}

// The n_idx * sizeof(float) term of get_dst_offset: n_idx = 2^62 (a multiple of n_step) gave 0.
TEST_P(Qsi8d32pKernelSizeOverflowDeathTest, DstOffsetColumn) {
    const Qsi8d32pVariant& v = kai_registry::qsi8d32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const std::string stem = std::string(v.name).substr(std::string("kai_").size());
    expect_preconditions({{"kai_get_dst_offset_" + stem + " (n_idx = 2^62)", kCommonFile, kOverflow,
                           [&](bool bad) { (void)uk.get_dst_offset(0, bad ? size_t{1} << 62 : uk.get_n_step(), 64); }}});
}

INSTANTIATE_TEST_SUITE_P(Variants, Qsi8d32pKernelSizeOverflowDeathTest,
                         testing::Range(size_t{0}, kai_registry::qsi8d32p_variants().size()), variant_name);

TEST(Qsi8d32pPackerSizeOverflowDeathTest, LhsPackers) {
    const size_t mr = 4, kr = 16, sr = 2;
    for (const Qsi8d32pLhsPacker& p : kai_registry::qsi8d32p_lhs_packers()) {
        SCOPED_TRACE(p.name);
        KAI_TEST_SKIP_UNLESS(p.features);
        const std::string stem = std::string(p.name).substr(std::string("kai_").size());
        const std::string offset_fn = "kai_get_lhs_packed_offset_" + stem, size_fn = "kai_get_lhs_packed_size_" + stem;
        const std::vector<PreconditionCase> cases = {
            {offset_fn + " (k = SIZE_MAX - 31)", kCommonFile, kOverflow,
             [&](bool bad) { (void)p.get_lhs_packed_offset(mr, bad ? kHugeK : kK, kBl, mr, kr, sr); }},
            {offset_fn + " (m_idx = SIZE_MAX)", kCommonFile, kOverflow,
             [&](bool bad) { (void)p.get_lhs_packed_offset(bad ? SIZE_MAX : mr, kK, kBl, mr, kr, sr); }},
            {size_fn + " (k = SIZE_MAX - 31)", kCommonFile, kOverflow,
             [&](bool bad) { (void)p.get_lhs_packed_size(5, bad ? kHugeK : kK, kBl, mr, kr, sr); }},
            {size_fn + " (m = SIZE_MAX)", kCommonFile, kOverflow,
             [&](bool bad) { (void)p.get_lhs_packed_size(bad ? SIZE_MAX : 5, kK, kBl, mr, kr, sr); }},
            {size_fn + " (mr = SIZE_MAX)", kCommonFile, kOverflow,
             [&](bool bad) { (void)p.get_lhs_packed_size(5, kK, kBl, bad ? SIZE_MAX : mr, kr, sr); }},
        };
        expect_preconditions(cases);
    }
}

TEST(Qsi8d32pPackerSizeOverflowDeathTest, RhsPacker) {
    const std::string stem = "rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0";
    const size_t nr = 4, kr = 16;
    const std::vector<PreconditionCase> cases = {
        {"kai_get_rhs_packed_stride_" + stem + " (k = SIZE_MAX - 31)", kCommonFile, kOverflow,
         [&](bool bad) {
             (void)KAI_ABI(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(bad ? kHugeK : kK, nr, kr, kBl);
         }},
        {"kai_get_rhs_packed_stride_" + stem + " (nr = SIZE_MAX)", kCommonFile, kOverflow,
         [&](bool bad) {
             (void)KAI_ABI(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(kK, bad ? SIZE_MAX : nr, kr, kBl);
         }},
        {"kai_get_rhs_packed_offset_" + stem + " (k = SIZE_MAX - 31)", kCommonFile, kOverflow,
         [&](bool bad) {
             (void)KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(nr, bad ? kHugeK : kK, nr, kr,
                                                                                        kBl);
         }},
        {"kai_get_rhs_packed_offset_" + stem + " (n_idx = SIZE_MAX / 4 * 4)", kCommonFile, kOverflow,
         [&](bool bad) {
             (void)KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(bad ? SIZE_MAX / 4 * 4 : nr, kK,
                                                                                        nr, kr, kBl);
         }},
        {"kai_get_rhs_packed_size_" + stem + " (k = SIZE_MAX - 31)", kCommonFile, kOverflow,
         [&](bool bad) {
             (void)KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(5, bad ? kHugeK : kK, nr, kr, kBl);
         }},
        {"kai_get_rhs_packed_size_" + stem + " (n = SIZE_MAX)", kCommonFile, kOverflow,
         [&](bool bad) {
             (void)KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(bad ? SIZE_MAX : 5, kK, nr, kr, kBl);
         }},
    };
    expect_preconditions(cases);
}

// The row-offset getters of the three packers: 2^32 rows of 2^32 bytes gave offset 0.
TEST(Qsi8d32pPackerSizeOverflowDeathTest, RowOffsets) {
    const size_t big = size_t{1} << 32;
    const std::vector<PreconditionCase> cases = {
        {"kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32", kCommonFile, kOverflow,
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32)(bad ? big : 4, big); }},
        {"kai_get_lhs_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon", kCommonFile, kOverflow,
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon)(bad ? big : 4, big); }},
        {"kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0", kCommonFile, kOverflow,
         [&](bool bad) { (void)KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(bad ? big : 4, big); }},
    };
    expect_preconditions(cases);
}

// ---------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 reference vectors (test/data/compat, format in ../shared/compat/README.md).
// ---------------------------------------------------------------------------------------------

const Qsi8d32pLhsPacker* lhs_packer_named(const std::string& name) {
    for (const auto& p : kai_registry::qsi8d32p_lhs_packers()) {
        if (name == p.name) return &p;
    }
    return nullptr;
}

TEST(Qsi8d32pCompat, LhsPackers) {
    size_t files = 0;
    for (const auto& p : kai_registry::qsi8d32p_lhs_packers()) {
        for (const std::string& path : kai_test::list_compat_vectors(std::string(p.name) + "__")) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector v = kai_test::load_compat_vector(path);
            const size_t m = v.size("m"), k = v.size("k"), bl = v.size("bl");
            const size_t mr = v.size("mr"), kr = v.size("kr"), sr = v.size("sr");
            const auto& want = v.section("lhs_packed");
            ASSERT_EQ(KAI_ABI(p.get_lhs_packed_size)(m, k, bl, mr, kr, sr), want.bytes.size());
            std::vector<uint8_t> got(want.bytes.size(), 0);
            KAI_ABI(p.run)(m, k, bl, mr, kr, sr, 0, v.section("lhs").f32(), v.size("lhs_stride"), got.data());
            EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), got.size(), want.mask.data()));
            ++files;
        }
    }
    EXPECT_EQ(files, 12u);
}

TEST(Qsi8d32pCompat, RhsPacker) {
    size_t files = 0;
    for (const std::string& path :
         kai_test::list_compat_vectors("kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0__")) {
        SCOPED_TRACE(path);
        const kai_test::CompatVector v = kai_test::load_compat_vector(path);
        const size_t n = v.size("n"), k = v.size("k"), bl = v.size("bl"), nr = v.size("nr"), kr = v.size("kr");
        const auto& want = v.section("rhs_packed");
        ASSERT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n, k, nr, kr, bl), want.bytes.size());
        const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
        GuardedBuffer got(want.bytes.size());
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(1, n, k, nr, kr, v.size("sr"), bl,
                                                           v.section("rhs").bytes.data(), nullptr, got.data(), 0,
                                                           &params);
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
        ++files;
    }
    EXPECT_EQ(files, 7u);
}

TEST(Qsi8d32pCompat, Kernels) {
    size_t files = 0, listed = 0;
    std::string not_run;
    for (const Qsi8d32pVariant& var : kai_registry::qsi8d32p_variants()) {
        const std::vector<std::string> paths = kai_test::list_compat_vectors(std::string(var.name) + "__");
        listed += paths.size();
        const std::string missing = kai_test::missing_features(var.features);
        if (!missing.empty()) {
            not_run += std::string(" ") + var.name + " (needs " + missing + ")";
            continue;
        }
        const auto& uk = var.ukernel;
        for (const std::string& path : paths) {
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
            // Our packers reproduce the stored packed buffers.
            const Qsi8d32pLhsPacker* packer = lhs_packer_named(v.str("lhs_packer"));
            ASSERT_NE(packer, nullptr) << v.str("lhs_packer");
            std::vector<uint8_t> mine(lp.bytes.size(), 0);
            KAI_ABI(packer->run)(m, k, bl, KAI_ABI(uk.get_mr)(), KAI_ABI(uk.get_kr)(), KAI_ABI(uk.get_sr)(), 0, v.section("lhs").f32(),
                        v.size("lhs_stride"), mine.data());
            EXPECT_TRUE(kai_test::bytes_equal(mine.data(), lp.bytes.data(), mine.size(), lp.mask.data()));
            // The kernel on the stored buffers, in guarded copies.
            GuardedBuffer lhs_p(lp.bytes.size());
            GuardedBuffer rhs_p(rp.bytes.size());
            std::memcpy(lhs_p.data(), lp.bytes.data(), lp.bytes.size());
            std::memcpy(rhs_p.data(), rp.bytes.data(), rp.bytes.size());
            DstBuffer dst(m, n, 4, (n + 1) * 4);
            KAI_ABI(uk.run_matmul)(m, n, k, bl, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), (n + 1) * 4,
                          4, v.clamp_min(), v.clamp_max());
            EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), (n + 1) * 4,
                                                 v.section("dst").f32(), n * 4, m, n));
            EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
            ++files;
        }
    }
    EXPECT_EQ(listed, 40u);  // 32 NEON + 8 SVE (made at SVE VL 256; the SVE kernels give the same bits at any length)
    if (!not_run.empty()) {
        GTEST_SKIP() << "replayed " << files << " of " << listed << " vectors; the CPU lacks features for" << not_run;
    }
    EXPECT_EQ(files, 40u);
}

// The block length is checked in every build (release too) by every hand-written function of the
// family that takes it: bl = 0 must not divide by zero in one function while another aborts.
TEST(Qsi8d32pBlockDeathTest, BadBlAbortsInEveryBuild) {
    const std::string bl_msg = "bl must be a non-zero multiple of 32", k_msg = "k must be a multiple of bl";
    const auto re = [](const char* file, const std::string& msg) { return kai_test::kai_error_regex(file, msg); };
    const char* lhs = "kai_lhs_quant_pack_qsi8d32p_f32.c";
    const char* lhs_sb = "kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon.c";
    const char* rhs = "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.c";
    for (size_t bl : {0, 48}) {
        const std::string& msg = bl_msg;
        EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(4, 96, bl, 4, 16, 2), re(lhs, msg));
        EXPECT_DEATH((void)kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32(4, 96, bl, 4, 16, 2), re(lhs, msg));
        EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(4, 96, bl, 4, 16, 2),
                     re(lhs_sb, msg));
        EXPECT_DEATH((void)kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(4, 96, bl, 4, 16, 2),
                     re(lhs_sb, msg));
        EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(4, 96, 4, 16, bl),
                     re(rhs, msg));
        EXPECT_DEATH((void)kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(4, 96, 4, 16, bl),
                     re(rhs, msg));
        EXPECT_DEATH((void)kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod(1, 96, bl),
                     re("kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.c", msg));
        EXPECT_DEATH(
            (void)kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(4, 96, bl),
            re("kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.c", msg));
        EXPECT_DEATH((void)kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(4, 96, bl),
                     re("kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod.c", msg));
        // The generated I8MM kernels and the packers of the SME GEMVs check bl in every build too.
        EXPECT_DEATH((void)kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(4, 96, bl),
                     re("kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.c", msg));
        EXPECT_DEATH((void)kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm(4, 96, bl),
                     re("kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm.c", msg));
        EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(4, 96, bl, 1, 4, 1),
                     re("kai_lhs_quant_pack_qsi8d32p_f32_neon.c", msg));
        EXPECT_DEATH(
            (void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(4, 96, 4, 4, bl),
            re("kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.c", msg));
        EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(4, 96, 4, 4, bl),
                     re("kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.c", msg));
    }
    // k not a multiple of bl.
    EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(4, 96, 64, 4, 16, 2), re(lhs, k_msg));
    EXPECT_DEATH((void)kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod(4, 96, 64),
                 re("kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.c", k_msg));
}

}  // namespace
