// SPDX-License-Identifier: Apache-2.0
// Tests of the asymmetric int4 families matmul_clamp_{f32,f16}_qsi8d32p_qai4c32p and their packers
// (docs/matmul_int4_asymmetric.md, docs/formats.md, "qai4c32p matmul"): kernels bit-exact against the reference recipe over
// shapes, block sizes 32 to 256, sub-tiles, bias, clamps and strides; packers byte-exact against the
// reference (ties, zero blocks, blocks whose scale is exactly 1, zero points at both ends); the
// KleidiAI v1.30.0 vectors replayed; accuracy of AWQ-style weights against f64; precondition deaths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/limits.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qai4c32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qai4c32p_registry.h"

namespace {

using kai_registry::Qai4c32pLhsPacker;
using kai_registry::Qai4c32pVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::PreconditionCase;

// ---------------------------------------------------------------------------------------------
// Inputs.
// ---------------------------------------------------------------------------------------------

// m x k LHS values (row stride `stride` elements), f16-representable so that the same values
// feed both packers: uniform [-2, 2) times a per-row power of two, and, when m >= 5, special
// rows: zeros, a constant, tiny values, and a tie row (one +-127 per block, so the block's scale is exactly 1,
// and half-integers elsewhere: every product an exact tie); when m >= 7 also +-0 and +-65504 rows.
std::vector<float> make_lhs(size_t m, size_t k, size_t bl, size_t stride, uint64_t seed) {
    kai_test::Rng rng(seed);
    std::vector<float> x(m * stride, 0.0f);
    for (size_t i = 0; i < m; ++i) {
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3)));
        for (size_t kk = 0; kk < k; ++kk) {
            x[i * stride + kk] = kai_ref::f32_from_f16(kai_ref::f16_from_f32(rng.uniform(-2.0f, 2.0f) * mul));
        }
    }
    if (m >= 5) {
        for (size_t kk = 0; kk < k; ++kk) {
            x[1 * stride + kk] = 0.0f;
            x[2 * stride + kk] = -1.375f;
            // Tiny values (f32 input only; f16 flushes them to 0): amax < 127 / FLT_MAX, so the
            // block's scale overflows to infinity and the quantiser saturates (zeros give 0).
            x[3 * stride + kk] = kk % 3 == 0 ? 0.0f : (kk % 2 ? -1.0e-38f : 2.5e-38f);
            x[4 * stride + kk] = kk % bl == 0 ? ((kk / bl) % 2 ? -127.0f : 127.0f)
                                              : static_cast<float>(rng.integer(-120, 120)) + 0.5f;
        }
    }
    if (m >= 7) {
        // +-0 (scale 0, q 0) and the largest f16 magnitudes (the f32 packer's widest range that the
        // f16 packer can be given too; 127 / 65504 and its reciprocal are far from overflow).
        for (size_t kk = 0; kk < k; ++kk) {
            x[5 * stride + kk] = kk % 2 ? -0.0f : 0.0f;
            x[6 * stride + kk] = kk % 3 == 0 ? 65504.0f : (kk % 3 == 1 ? -65504.0f : 1.0f);
        }
    }
    return x;
}

std::vector<uint16_t> to_f16(const std::vector<float>& x) {
    std::vector<uint16_t> h(x.size());
    for (size_t i = 0; i < x.size(); ++i) h[i] = kai_ref::f16_from_f32(x[i]);
    return h;
}

// Weights: n rows of k s0s1 nibbles, per-block scale in [0.002, 0.05) and zero = scale * (8 - zp)
// with zp in [0, 15] (AWQ style, w = scale * (u - zp)); rows 0 and 1 use zp = 0 and zp = 15 (both
// ends), row 2 has scale exactly 1, row 3 a zero block (scale 0, zero 0).
struct Weights {
    std::vector<uint8_t> rows;
    std::vector<float> scale, zero, bias;
};

Weights make_weights(size_t n, size_t k, size_t bl, uint64_t seed) {
    kai_test::Rng rng(seed);
    const size_t nb = k / bl;
    Weights w;
    w.rows.resize(n * k / 2);
    for (auto& b : w.rows) b = static_cast<uint8_t>(rng.next_u64());
    w.scale.resize(n * nb);
    w.zero.resize(n * nb);
    w.bias.resize(n);
    for (size_t j = 0; j < n; ++j) {
        for (size_t b = 0; b < nb; ++b) {
            const float s = rng.uniform(0.002f, 0.05f);
            int zp = static_cast<int>(rng.integer(0, 15));
            if (j == 0) zp = 0;
            if (j == 1) zp = 15;
            w.scale[j * nb + b] = j == 2 ? 1.0f : s;
            w.zero[j * nb + b] = w.scale[j * nb + b] * static_cast<float>(8 - zp);
        }
        w.bias[j] = rng.uniform(-1.0f, 1.0f);
    }
    if (n >= 4) {
        w.scale[3 * nb] = 0.0f;
        w.zero[3 * nb] = 0.0f;
    }
    return w;
}

std::string short_name(const char* full) {
    std::string s = full;
    const std::string prefix = "kai_matmul_clamp_";
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

// Runs LHS packer p (f32 or f16 input) over rows [0, m) into a guarded buffer of exactly the packed size.
std::unique_ptr<GuardedBuffer> pack_lhs(const Qai4c32pLhsPacker& p, size_t m, size_t k, size_t bl, size_t mr, size_t kr,
                                        size_t sr, const std::vector<float>& x, const std::vector<uint16_t>& xh,
                                        size_t stride_elems) {
    auto buf = std::make_unique<GuardedBuffer>(KAI_ABI(p.get_lhs_packed_size)(m, k, bl, mr, kr, sr), 0x00);
    if (p.f16_in) {
        KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(m, k, bl, mr, kr, sr, 0, xh.data(), stride_elems * 2,
                                                                  buf->data());
    } else {
        KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(m, k, bl, mr, kr, sr, 0, x.data(), stride_elems * 4,
                                                                  buf->data());
    }
    return buf;
}

kai_ref::Qsi8d32s quantize_ref(const Qai4c32pLhsPacker& p, size_t m, size_t k, size_t bl, const std::vector<float>& x,
                               const std::vector<uint16_t>& xh, size_t stride_elems) {
    return p.f16_in ? kai_ref::quantize_qsi8d32s_f16(m, k, bl, xh.data(), stride_elems * 2)
                    : kai_ref::quantize_qsi8d32s_f32(m, k, bl, x.data(), stride_elems * 4);
}

std::unique_ptr<GuardedBuffer> pack_rhs(size_t n, size_t k, size_t bl, size_t nr, size_t kr, const Weights& w,
                                        bool with_bias) {
    auto buf = std::make_unique<GuardedBuffer>(
        KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(n, k, nr, kr, bl));
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    KAI_ABI(kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(
        1, n, k, nr, kr, 2, bl, w.rows.data(), w.zero.data(), with_bias ? w.bias.data() : nullptr, w.scale.data(),
        buf->data(), 0, &params);
    return buf;
}

// The kernel's run through the variant's output type.
void run_kernel(const Qai4c32pVariant& v, size_t m, size_t n, size_t k, size_t bl, const void* lp, const void* rp,
                void* dst, size_t stride, float lo, float hi) {
    if (v.f16_out) {
        KAI_ABI(v.f16.run_matmul)(m, n, k, bl, lp, rp, dst, stride, 2, lo, hi);
    } else {
        KAI_ABI(v.f32.run_matmul)(m, n, k, bl, lp, rp, static_cast<float*>(dst), stride, 4, lo, hi);
    }
}

size_t lhs_offset(const Qai4c32pVariant& v, size_t m_idx, size_t k, size_t bl) {
    return v.f16_out ? KAI_ABI(v.f16.get_lhs_packed_offset)(m_idx, k, bl) : KAI_ABI(v.f32.get_lhs_packed_offset)(m_idx, k, bl);
}
size_t rhs_offset(const Qai4c32pVariant& v, size_t n_idx, size_t k, size_t bl) {
    return v.f16_out ? KAI_ABI(v.f16.get_rhs_packed_offset)(n_idx, k, bl) : KAI_ABI(v.f32.get_rhs_packed_offset)(n_idx, k, bl);
}
size_t dst_offset(const Qai4c32pVariant& v, size_t m_idx, size_t n_idx, size_t stride) {
    return v.f16_out ? KAI_ABI(v.f16.get_dst_offset)(m_idx, n_idx, stride) : KAI_ABI(v.f32.get_dst_offset)(m_idx, n_idx, stride);
}

// Expected bits of one output: f32 bits, or the f16 of the clamped f32 (nearest even).
uint32_t expected_bits(const Qai4c32pVariant& v, float y) {
    return v.f16_out ? kai_ref::f16_from_f32(y) : kai_ref::f32_bits(y);
}

// ---------------------------------------------------------------------------------------------
// Kernels against the reference recipe.
// ---------------------------------------------------------------------------------------------

enum class Tiling { kWhole, kTiles, kOneTile };

struct MatmulCase {
    size_t variant;
    size_t packer;  // 0: f32 LHS packer, 1: f16 LHS packer
    size_t m, n, k, bl;
    bool bias;
    Clamp clamp;
    Tiling tiling;
};

std::vector<MatmulCase> matmul_cases() {
    std::vector<MatmulCase> out;
    const bool reduced = kai_test::reduced_sweep();
    const auto& vs = kai_registry::qai4c32p_variants();
    for (size_t vi = 0; vi < vs.size(); ++vi) {
        const size_t ms = vs[vi].m_step();
        struct Shape {
            size_t m, n, k, bl;
        };
        std::vector<Shape> shapes = {
            {1, 1, 32, 32}, {ms + 1, 5, 96, 32}, {13, 33, 224, 32}, {ms + 3, 11, 1024, 256}, {19, 13, 384, 128},
            // The 8x4 dotprod GEMMs' decoded-RHS path: more than 16 row tiles and several K ranges of the
            // buffer (bl 32: 38 blocks each), a 5-row last tile; bl 256 (the FSUB bound) in two K ranges.
            {17 * ms + 5, 6, 2048, 32}, {2 * ms + 5, 5, 2048, 256},
            // The 8x4 i8mm GEMMs' decoded-RHS path: row groups of 256 / nb tiles, so 16 tiles only for nb <= 16:
            // 18 row tiles in two groups of up to 16 (a 5-row last tile), one K range.
            {17 * ms + 5, 6, 512, 32},
        };
        // Past 16384 (every path of the K loops), M = mr + 1, N = nr + 1: once per variant in both sweeps, the LHS
        // packers alternating.
        out.push_back({vi, vi % 2, vs[vi].mr() + 1, vs[vi].nr() + 1, 16448, 64, vi % 2 == 0, Clamp::kBite,
                       vi % 2 == 0 ? Tiling::kTiles : Tiling::kWhole});
        if (reduced) {
            // Each shape once per LHS packer, with bias and clamps alternating, tiles or one tile.
            for (const auto& s : shapes) {
                out.push_back({vi, 0, s.m, s.n, s.k, s.bl, true, Clamp::kNone, Tiling::kWhole});
                out.push_back({vi, 1, s.m, s.n, s.k, s.bl, false, Clamp::kBite, Tiling::kTiles});
            }
            out.push_back({vi, 0, 2 * ms + 1, 9, 288, 96, true, Clamp::kInverted, Tiling::kOneTile});
            out.push_back({vi, 0, ms + 1, 5, 96, 32, false, Clamp::kRelu, Tiling::kTiles});
            out.push_back({vi, 1, 13, 33, 224, 32, true, Clamp::kMaxOnly, Tiling::kWhole});
            continue;
        }
        const std::vector<Shape> more = {
            {ms, 4, 64, 32},     {ms, 3, 128, 64},   {3, 17, 320, 160}, {2 * ms + 1, 9, 288, 96}, {37, 53, 256, 64},
            {5, 7, 4096, 128},
            {9, 5, 8224, 32},    // 257 blocks: past the i8mm kernels' precomputed vectors
            {2, 6, 11008, 64},   // LLaMA-7B FFN depth
            {1, 4, 14336, 32},   // LLaMA-3-8B FFN depth
        };
        shapes.insert(shapes.end(), more.begin(), more.end());
        if (ms > 1) shapes.push_back({ms - 1, 4, 64, 32});
        for (const auto& s : shapes) {
            if (s.m * s.n * s.k > 60000) {
                // Heavy shapes (deep K, wide tiles): once per LHS packer, bias and clamps alternating.
                out.push_back({vi, 0, s.m, s.n, s.k, s.bl, true, Clamp::kNone, Tiling::kWhole});
                out.push_back({vi, 1, s.m, s.n, s.k, s.bl, false, Clamp::kBite, Tiling::kTiles});
                continue;
            }
            for (size_t p = 0; p < 2; ++p) {
                for (Clamp c : {Clamp::kNone, Clamp::kBite, Clamp::kInverted}) {
                    out.push_back({vi, p, s.m, s.n, s.k, s.bl, c != Clamp::kInverted, c,
                                   c == Clamp::kBite ? Tiling::kTiles : Tiling::kWhole});
                }
                out.push_back({vi, p, s.m, s.n, s.k, s.bl, p == 0, Clamp::kNone, Tiling::kOneTile});
            }
        }
        // The prime shape of the style guide, once per variant (K kept small for emulation).
        out.push_back({vi, 0, 257, 113, 64, 32, true, Clamp::kBite, Tiling::kTiles});
        // One-sided clamps (only one bound finite), once each per variant.
        out.push_back({vi, 0, ms + 1, 5, 96, 32, false, Clamp::kRelu, Tiling::kTiles});
        out.push_back({vi, 1, 13, 33, 224, 32, true, Clamp::kMaxOnly, Tiling::kWhole});
    }
    return out;
}

std::string matmul_case_name(const testing::TestParamInfo<MatmulCase>& info) {
    const MatmulCase& c = info.param;
    const auto& v = kai_registry::qai4c32p_variants()[c.variant];
    return short_name(v.name) + "__m" + std::to_string(c.m) + "_n" + std::to_string(c.n) + "_k" + std::to_string(c.k) +
           "_bl" + std::to_string(c.bl) + (c.packer ? "_lhsf16" : "") + (c.bias ? "_bias" : "") +
           (c.clamp == Clamp::kNone      ? ""
                        : c.clamp == Clamp::kBite    ? "_clamp"
                        : c.clamp == Clamp::kRelu    ? "_relu"
                        : c.clamp == Clamp::kMaxOnly ? "_maxonly"
                                                     : "_inverted") +
           (c.tiling == Tiling::kTiles ? "_tiles" : c.tiling == Tiling::kOneTile ? "_onetile" : "");
}

// The internal limits' full-scale data: LHS row 0 constant 1.0 (every quantised value 127, so each
// block's int16 sums in the LHS packer are at their widest) and, when given, weight row 0 all nibbles 0
// (w = -8, the operand 16 w = -128): output (0, 0) has |I| = 127 * 128 * bl per block, the widest
// integer block sum (past 2^22 for bl > 258, the decoded-RHS path's FSUB bound).
void make_full_scale(std::vector<float>* x, size_t k, Weights* w) {
    std::fill(x->begin(), x->begin() + static_cast<std::ptrdiff_t>(k), 1.0f);
    if (w != nullptr) std::fill(w->rows.begin(), w->rows.begin() + static_cast<std::ptrdiff_t>(k / 2), uint8_t{0});
}

// One case (the caller checked the CPU's features): pack, run, compare every output's bits.
void check_matmul(const MatmulCase& c, bool full_scale, uint64_t seed) {
    const Qai4c32pVariant& v = kai_registry::qai4c32p_variants()[c.variant];
    const Qai4c32pLhsPacker& packer = kai_registry::qai4c32p_lhs_packers()[c.packer];
    SCOPED_TRACE(kai_test::seed_trace(seed));

    const size_t m = c.m, n = c.n, k = c.k, bl = c.bl;
    const size_t lhs_stride = k + 3;  // elements; wider than the row
    std::vector<float> x = make_lhs(m, k, bl, lhs_stride, seed);
    Weights w = make_weights(n, k, bl, seed + 1);
    if (full_scale) make_full_scale(&x, k, &w);
    const std::vector<uint16_t> xh = to_f16(x);
    const float* bias = c.bias ? w.bias.data() : nullptr;

    const kai_ref::Qsi8d32s q = quantize_ref(packer, m, k, bl, x, xh, lhs_stride);
    float lo, hi;
    clamp_bounds(c.clamp,
                 kai_ref::matmul_qsi8d32p_qai4c32p(q, n, w.rows.data(), w.scale.data(), w.zero.data(), bias, -FLT_MAX, FLT_MAX),
                 &lo, &hi);
    const std::vector<float> ref =
        kai_ref::matmul_qsi8d32p_qai4c32p(q, n, w.rows.data(), w.scale.data(), w.zero.data(), bias, lo, hi);

    auto lhs_p = pack_lhs(packer, m, k, bl, v.mr(), v.kr(), v.sr(), x, xh, lhs_stride);
    auto rhs_p = pack_rhs(n, k, bl, v.nr(), v.kr(), w, c.bias);

    const size_t es = v.dst_elem();
    const size_t stride = (n + 5) * es;
    DstBuffer dst(m, n + 2, es, stride);
    const size_t ms = v.m_step(), ns = v.n_step();
    auto run_tile = [&](size_t m0, size_t mh, size_t n0, size_t nw) {
        run_kernel(v, mh, nw, k, bl, lhs_p->data() + lhs_offset(v, m0, k, bl), rhs_p->data() + rhs_offset(v, n0, k, bl),
                   dst.at(0, 0) + dst_offset(v, m0, n0, stride), stride, lo, hi);
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
            r0 = m > ms ? ms : 0;
            c0 = n > ns ? ns : 0;
            rn = std::min(ms, m - r0);
            cn = std::min(ns, n - c0);
            run_tile(r0, rn, c0, cn);
            break;
    }
    EXPECT_TRUE(dst.untouched_outside(r0, rn, c0, cn));
    size_t bad = 0;
    for (size_t i = 0; i < rn && bad < 5; ++i) {
        for (size_t j = 0; j < cn && bad < 5; ++j) {
            const uint32_t got = dst.bits(r0 + i, c0 + j), want = expected_bits(v, ref[(r0 + i) * n + c0 + j]);
            if (got != want) {
                ++bad;
                ADD_FAILURE() << "dst[" << r0 + i << "][" << c0 + j << "] bits 0x" << std::hex << got << ", expected 0x"
                              << want << std::dec << " (" << ref[(r0 + i) * n + c0 + j] << ")";
            }
        }
    }
}

class Qai4c32pMatmul : public testing::TestWithParam<MatmulCase> {};

TEST_P(Qai4c32pMatmul, BitExact) {
    const MatmulCase& c = GetParam();
    KAI_TEST_SKIP_UNLESS(kai_registry::qai4c32p_variants()[c.variant].features |
                         kai_registry::qai4c32p_lhs_packers()[c.packer].features);
    check_matmul(c, false, kai_test::seed_from(matmul_case_name(testing::TestParamInfo<MatmulCase>(c, 0))));
}

INSTANTIATE_TEST_SUITE_P(Shapes, Qai4c32pMatmul, testing::ValuesIn(matmul_cases()), matmul_case_name);

// Each variant at its internal limits (test/common/limits.cc): limit - 1, limit and limit + 1 in the dimension
// that crosses it, in both sweeps; the whole call with bias and no clamp (every output compared), the f32 LHS
// packer (the acceptance cases of the LHS packer's int16 flush go through its mr = 1 path).
struct LimitMatmulCase {
    size_t variant;
    kai_test::LimitCase limit;
};

std::vector<LimitMatmulCase> limit_matmul_cases() {
    std::vector<LimitMatmulCase> out;
    const auto& vs = kai_registry::qai4c32p_variants();
    for (size_t vi = 0; vi < vs.size(); ++vi) {
        for (const kai_test::LimitCase& lc : kai_test::limit_cases(vs[vi].name)) out.push_back({vi, lc});
    }
    return out;
}

std::string limit_matmul_case_name(const testing::TestParamInfo<LimitMatmulCase>& info) {
    const LimitMatmulCase& c = info.param;
    const kai_test::LimitCase& l = c.limit;
    return short_name(kai_registry::qai4c32p_variants()[c.variant].name) + "__" + l.label + "__m" + std::to_string(l.m) +
           "_n" + std::to_string(l.n) + "_k" + std::to_string(l.k) + "_bl" + std::to_string(l.bl);
}

class Qai4c32pLimit : public testing::TestWithParam<LimitMatmulCase> {};

TEST_P(Qai4c32pLimit, BitExact) {
    const LimitMatmulCase& lc = GetParam();
    const kai_test::LimitCase& l = lc.limit;
    KAI_TEST_SKIP_UNLESS(kai_registry::qai4c32p_variants()[lc.variant].features);
    const MatmulCase c{lc.variant, 0, l.m, l.n, l.k, l.bl, true, Clamp::kNone, Tiling::kWhole};
    check_matmul(c, l.data == kai_test::LimitData::kFullScale,
                 kai_test::seed_from(limit_matmul_case_name(testing::TestParamInfo<LimitMatmulCase>(lc, 0))));
}

INSTANTIATE_TEST_SUITE_P(Limits, Qai4c32pLimit, testing::ValuesIn(limit_matmul_cases()), limit_matmul_case_name);

class Qai4c32pVariantTest : public testing::TestWithParam<size_t> {};

std::string variant_name(const testing::TestParamInfo<size_t>& info) {
    return short_name(kai_registry::qai4c32p_variants()[info.param].name);
}

// m == 0 and n == 0 write nothing; getters return the spec's values (docs/formats.md, "qai4c32p matmul").
TEST_P(Qai4c32pVariantTest, EmptyAndGetters) {
    const Qai4c32pVariant& v = kai_registry::qai4c32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const size_t k = 64, bl = 32, nb = k / bl;
    EXPECT_EQ(lhs_offset(v, 2 * v.mr(), k, bl), 2 * v.mr() * nb * (bl + 8));
    EXPECT_EQ(rhs_offset(v, 3 * v.nr(), k, bl), 3 * v.nr() * (nb * (bl / 2 + 8) + 4));
    EXPECT_EQ(dst_offset(v, v.m_step(), v.n_step(), 1000), 1000 * v.m_step() + v.n_step() * v.dst_elem());
    const size_t size = v.f16_out ? KAI_ABI(v.f16.get_dst_size)(3, 5) : KAI_ABI(v.f32.get_dst_size)(3, 5);
    EXPECT_EQ(size, 15 * v.dst_elem());
    DstBuffer dst(2, 4, v.dst_elem(), 4 * v.dst_elem());
    GuardedBuffer lp(16), rp(16);
    run_kernel(v, 0, 4, k, bl, lp.data(), rp.data(), dst.at(0, 0), 4 * v.dst_elem(), -FLT_MAX, FLT_MAX);
    run_kernel(v, 2, 0, k, bl, lp.data(), rp.data(), dst.at(0, 0), 4 * v.dst_elem(), -FLT_MAX, FLT_MAX);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
}

// Every K from bl to 8 bl for one small tile, and both LHS packers: the block loops at every count.
TEST_P(Qai4c32pVariantTest, KSweep) {
    const Qai4c32pVariant& v = kai_registry::qai4c32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features | KAI_FEATURE_FP16);
    const size_t bl = 32, m = v.m_step() + 1, n = 6;
    for (size_t k = bl; k <= 8 * bl; k += bl) {
        for (const Qai4c32pLhsPacker& p : kai_registry::qai4c32p_lhs_packers()) {
            SCOPED_TRACE("k = " + std::to_string(k) + " " + p.name);
            const std::vector<float> x = make_lhs(m, k, bl, k, k);
            const std::vector<uint16_t> xh = to_f16(x);
            const Weights w = make_weights(n, k, bl, k + 7);
            const kai_ref::Qsi8d32s q = quantize_ref(p, m, k, bl, x, xh, k);
            const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qai4c32p(q, n, w.rows.data(), w.scale.data(),
                                                                             w.zero.data(), w.bias.data(), -FLT_MAX, FLT_MAX);
            auto lp = pack_lhs(p, m, k, bl, v.mr(), v.kr(), v.sr(), x, xh, k);
            auto rp = pack_rhs(n, k, bl, v.nr(), v.kr(), w, true);
            DstBuffer dst(m, n, v.dst_elem(), n * v.dst_elem());
            run_kernel(v, m, n, k, bl, lp->data(), rp->data(), dst.at(0, 0), n * v.dst_elem(), -FLT_MAX, FLT_MAX);
            for (size_t i = 0; i < m; ++i) {
                for (size_t j = 0; j < n; ++j) {
                    ASSERT_EQ(dst.bits(i, j), expected_bits(v, ref[i * n + j])) << i << "," << j;
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, Qai4c32pVariantTest,
                         testing::Range(size_t{0}, kai_registry::qai4c32p_variants().size()), variant_name);

// ---------------------------------------------------------------------------------------------
// Packers against the reference.
// ---------------------------------------------------------------------------------------------

struct LhsPackCase {
    size_t packer, m, k, bl, mr, kr;
    bool full;  // full-scale data (the internal limits' cases)
};

std::vector<LhsPackCase> lhs_pack_cases() {
    std::vector<LhsPackCase> out;
    struct Shape {
        size_t m, k, bl;
    };
    const std::vector<Shape> shapes = {{1, 32, 32}, {3, 64, 32}, {5, 96, 32}, {13, 256, 64}, {8, 512, 256},
                                       {9, 384, 128}, {17, 160, 160}};
    for (size_t p = 0; p < 2; ++p) {
        for (const auto& s : shapes) {
            for (size_t mr : {size_t{1}, size_t{4}, size_t{8}}) {
                for (size_t kr : {size_t{8}, size_t{16}}) out.push_back({p, s.m, s.k, s.bl, mr, kr, false});
            }
        }
    }
    return out;
}

std::string lhs_pack_case_name(const testing::TestParamInfo<LhsPackCase>& info) {
    const LhsPackCase& c = info.param;
    return std::string(c.packer ? "f16" : "f32") + "__m" + std::to_string(c.m) + "_k" + std::to_string(c.k) + "_bl" +
           std::to_string(c.bl) + "_mr" + std::to_string(c.mr) + "_kr" + std::to_string(c.kr) + (c.full ? "_full" : "");
}

// The whole matrix at once, then row by row from every m_idx_start (the threading split).
void check_lhs_pack(const LhsPackCase& c, bool full_scale, uint64_t seed) {
    const Qai4c32pLhsPacker& p = kai_registry::qai4c32p_lhs_packers()[c.packer];
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t stride = c.k + 5;
    std::vector<float> x = make_lhs(c.m, c.k, c.bl, stride, seed);
    if (full_scale) make_full_scale(&x, c.k, nullptr);
    const std::vector<uint16_t> xh = to_f16(x);
    const kai_ref::Qsi8d32s q = quantize_ref(p, c.m, c.k, c.bl, x, xh, stride);
    std::vector<uint8_t> mask;
    const std::vector<uint8_t> want = kai_ref::pack_qsi8d32pscalef32(q, c.mr, c.kr / 2, 0x00, &mask);
    auto got = pack_lhs(p, c.m, c.k, c.bl, c.mr, c.kr, 2, x, xh, stride);
    ASSERT_EQ(got->size(), want.size());
    EXPECT_TRUE(kai_test::bytes_equal(got->data(), want.data(), want.size(), mask.data()));
    EXPECT_TRUE(got->front_intact());
    // Row by row, each into the packed block that holds it.
    GuardedBuffer rows(want.size(), 0x00);
    for (size_t r = 0; r < c.m; ++r) {
        const size_t off = KAI_ABI(p.get_lhs_packed_offset)(r / c.mr * c.mr, c.k, c.bl, c.mr, c.kr, 2);
        if (p.f16_in) {
            KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(1, c.k, c.bl, c.mr, c.kr, 2, r, xh.data(), stride * 2,
                                                                      rows.data() + off);
        } else {
            KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(1, c.k, c.bl, c.mr, c.kr, 2, r, x.data(), stride * 4,
                                                                      rows.data() + off);
        }
    }
    EXPECT_TRUE(kai_test::bytes_equal(rows.data(), want.data(), want.size(), mask.data()));
}

class Qai4c32pLhsPack : public testing::TestWithParam<LhsPackCase> {};

TEST_P(Qai4c32pLhsPack, ByteExact) {
    const LhsPackCase& c = GetParam();
    KAI_TEST_SKIP_UNLESS(kai_registry::qai4c32p_lhs_packers()[c.packer].features);
    check_lhs_pack(c, c.full, kai_test::seed_from(lhs_pack_case_name(testing::TestParamInfo<LhsPackCase>(c, 0))));
}

INSTANTIATE_TEST_SUITE_P(Shapes, Qai4c32pLhsPack, testing::ValuesIn(lhs_pack_cases()), lhs_pack_case_name);

// Each LHS packer at its internal limits (test/common/limits.cc) through the mr = 1 path (the row contiguous)
// and both mr = 4 paths (kbl 4 and 8).
std::vector<LhsPackCase> limit_lhs_pack_cases() {
    std::vector<LhsPackCase> out;
    for (size_t p = 0; p < kai_registry::qai4c32p_lhs_packers().size(); ++p) {
        for (const kai_test::LimitCase& l : kai_test::limit_cases(kai_registry::qai4c32p_lhs_packers()[p].name)) {
            const bool full = l.data == kai_test::LimitData::kFullScale;
            out.push_back({p, l.m, l.k, l.bl, 1, 16, full});
            out.push_back({p, l.m, l.k, l.bl, 4, 8, full});
            out.push_back({p, l.m, l.k, l.bl, 4, 16, full});
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Limits, Qai4c32pLhsPack, testing::ValuesIn(limit_lhs_pack_cases()), lhs_pack_case_name);

// The two tie rules on exact ties (scale 1: a block holding 127 and half-integers).
TEST(Qai4c32pLhsPackTies, EvenForF32AwayForF16) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_FP16);
    const size_t k = 32, bl = 32;
    std::vector<float> x(k);
    x[0] = 127.0f;
    for (size_t i = 1; i < k; ++i) x[i] = static_cast<float>(static_cast<int>(i) - 16) + 0.5f;  // -14.5 .. 15.5
    const std::vector<uint16_t> xh = to_f16(x);
    std::vector<int8_t> a(bl + 8), b(bl + 8);
    KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(1, k, bl, 1, 8, 2, 0, x.data(), k * 4, a.data());
    KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(1, k, bl, 1, 8, 2, 0, xh.data(), k * 2, b.data());
    for (size_t i = 1; i < k; ++i) {
        const float v = x[i];
        const float even = std::nearbyint(v), away = std::round(v);
        EXPECT_EQ(a[i], static_cast<int8_t>(even)) << v;
        EXPECT_EQ(b[i], static_cast<int8_t>(away)) << v;
    }
    float recip;
    std::memcpy(&recip, a.data() + bl + 4, 4);
    EXPECT_EQ(recip, 1.0f);  // scale exactly 1
}

struct RhsPackCase {
    int packer;  // 0: qai4c32p (NEON kernels), 1: nrx4 s0s1, 2: nrx4 s1s0
    size_t n, k, bl, nr, kr;
    bool bias;
};

std::vector<RhsPackCase> rhs_pack_cases() {
    std::vector<RhsPackCase> out;
    struct Shape {
        size_t n, k, bl;
    };
    const std::vector<Shape> shapes = {{1, 32, 32}, {5, 64, 32}, {13, 96, 32}, {37, 128, 64}, {9, 512, 256},
                                       {16, 384, 128}, {7, 160, 160}};
    for (const auto& s : shapes) {
        for (size_t nr : {size_t{4}, size_t{8}}) {
            for (size_t kr : {size_t{4}, size_t{8}, size_t{16}}) {
                out.push_back({0, s.n, s.k, s.bl, nr, kr, s.n % 2 == 1});
            }
        }
        for (int p = 1; p <= 2; ++p) {
            for (size_t nr : {size_t{4}, size_t{16}, size_t{32}}) out.push_back({p, s.n, s.k, s.bl, nr, 8, s.n % 2 == 0});
        }
    }
    return out;
}

std::string rhs_pack_case_name(const testing::TestParamInfo<RhsPackCase>& info) {
    const RhsPackCase& c = info.param;
    static const char* names[] = {"qai4c32p", "nrx4_s0s1", "nrx4_s1s0"};
    return std::string(names[c.packer]) + "__n" + std::to_string(c.n) + "_k" + std::to_string(c.k) + "_bl" +
           std::to_string(c.bl) + "_nr" + std::to_string(c.nr) + "_kr" + std::to_string(c.kr) + (c.bias ? "_bias" : "");
}

class Qai4c32pRhsPack : public testing::TestWithParam<RhsPackCase> {};

TEST_P(Qai4c32pRhsPack, ByteExact) {
    const RhsPackCase& c = GetParam();
    const uint64_t seed = kai_test::seed_from(rhs_pack_case_name(testing::TestParamInfo<RhsPackCase>(c, 0)));
    const Weights w = make_weights(c.n, c.k, c.bl, seed);
    const float* bias = c.bias ? w.bias.data() : nullptr;
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    std::vector<uint8_t> want;
    size_t size = 0;
    if (c.packer == 0) {
        size = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(c.n, c.k, c.nr, c.kr, c.bl);
        want = kai_ref::pack_qai4c32p(c.n, c.k, c.bl, c.nr, c.kr, w.rows.data(), w.scale.data(), w.zero.data(), bias);
    } else {
        size = c.packer == 1
                   ? KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon)(c.n, c.k, c.nr, c.kr, c.bl)
                   : KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon)(c.n, c.k, c.nr, c.kr, c.bl);
        want = kai_ref::pack_qai4c32ps1s0nrx4(c.n, c.k, c.bl, c.nr, w.rows.data(), c.packer == 1, w.scale.data(),
                                              w.zero.data(), bias);
    }
    ASSERT_EQ(size, want.size());
    GuardedBuffer got(size, 0xEE);
    if (c.packer == 0) {
        KAI_ABI(kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(1, c.n, c.k, c.nr, c.kr, 2, c.bl, w.rows.data(),
                                                                            w.zero.data(), bias, w.scale.data(), got.data(), 0, &params);
    } else if (c.packer == 1) {
        KAI_ABI(kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon)(
            1, c.n, c.k, c.nr, c.kr, 2, c.bl, w.rows.data(), w.zero.data(), bias, w.scale.data(), got.data(), 0, &params);
    } else {
        KAI_ABI(kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon)(
            1, c.n, c.k, c.nr, c.kr, 2, c.bl, w.rows.data(), w.zero.data(), bias, w.scale.data(), got.data(), 0, &params);
    }
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size, nullptr));
    EXPECT_TRUE(got.front_intact());
}

INSTANTIATE_TEST_SUITE_P(Shapes, Qai4c32pRhsPack, testing::ValuesIn(rhs_pack_cases()), rhs_pack_case_name);

// The two nrx4 packers agree when the input nibbles are swapped accordingly.
TEST(Qai4c32pRhsPack, Nrx4OrdersAgree) {
    const size_t n = 11, k = 128, bl = 64, nr = 16;
    const Weights w = make_weights(n, k, bl, 5);
    std::vector<uint8_t> swapped(w.rows.size());
    for (size_t i = 0; i < swapped.size(); ++i) swapped[i] = static_cast<uint8_t>((w.rows[i] >> 4) | (w.rows[i] << 4));
    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(n, k, nr, 8, bl);
    std::vector<uint8_t> a(size), b(size);
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    KAI_ABI(kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon)(1, n, k, nr, 8, 2, bl, w.rows.data(), w.zero.data(),
                                                                                w.bias.data(), w.scale.data(), a.data(), 0, &params);
    KAI_ABI(kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon)(1, n, k, nr, 8, 2, bl, swapped.data(), w.zero.data(),
                                                                                w.bias.data(), w.scale.data(), b.data(), 0, &params);
    EXPECT_TRUE(kai_test::bytes_equal(a.data(), b.data(), size, nullptr));
}

// ---------------------------------------------------------------------------------------------
// Accuracy of AWQ/GPTQ-style weights (integer zero point zp per group: w = s (u - zp), converted
// to zero = s (8 - zp)) against an f64 product with the dequantized weights: the error is that of
// the LHS quantisation (at most recip / 2 per value) plus f32 rounding, a bound derived per output.
// ---------------------------------------------------------------------------------------------

TEST(Qai4c32pAccuracy, AwqGroupsAgainstF64) {
    const auto& vs = kai_registry::qai4c32p_variants();
    const size_t m = 4, n = 64, k = 2048, bl = 128, nb = k / bl;
    const std::vector<float> x = make_lhs(m, k, bl, k, 77);
    const std::vector<uint16_t> xh = to_f16(x);
    const Weights w = make_weights(n, k, bl, 78);
    const std::vector<double> wd = kai_ref::dequantize_qai4c32(n, k, bl, w.rows.data(), w.scale.data(), w.zero.data());
    const kai_ref::Qsi8d32s q = kai_ref::quantize_qsi8d32s_f32(m, k, bl, x.data(), k * 4);
    size_t checked = 0;
    for (const Qai4c32pVariant& v : vs) {
        if (!kai_test::missing_features(v.features).empty() || v.f16_out) continue;
        SCOPED_TRACE(v.name);
        auto lp = pack_lhs(kai_registry::qai4c32p_lhs_packers()[0], m, k, bl, v.mr(), v.kr(), v.sr(), x, xh, k);
        auto rp = pack_rhs(n, k, bl, v.nr(), v.kr(), w, true);
        std::vector<float> y(m * n);
        run_kernel(v, m, n, k, bl, lp->data(), rp->data(), y.data(), n * 4, -FLT_MAX, FLT_MAX);
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                double exact = w.bias[j], bound = 0.0, mag = std::fabs(w.bias[j]);
                for (size_t kk = 0; kk < k; ++kk) {
                    exact += static_cast<double>(x[i * k + kk]) * wd[j * k + kk];
                    mag += std::fabs(static_cast<double>(x[i * k + kk]) * wd[j * k + kk]);
                    bound += 0.5 * q.recip[i * nb + kk / bl] * std::fabs(wd[j * k + kk]);
                }
                bound += 4.0 * (nb + 2) * FLT_EPSILON * mag;  // f32 roundings of the per-block FMAs
                EXPECT_LE(std::fabs(y[i * n + j] - exact), bound) << i << "," << j;
            }
        }
        ++checked;
    }
    if (checked == 0) GTEST_SKIP() << "the CPU lacks the features of every f32 variant";
}

// ---------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 reference vectors (test/data/compat, format in ../shared/compat/README.md).
// ---------------------------------------------------------------------------------------------

TEST(Qai4c32pCompat, Packers) {
    size_t files = 0, not_run = 0;
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    for (const Qai4c32pLhsPacker& p : kai_registry::qai4c32p_lhs_packers()) {
        if (!kai_test::missing_features(p.features).empty()) {
            not_run += kai_test::list_compat_vectors(std::string(p.name) + "__").size();
            continue;
        }
        for (const std::string& path : kai_test::list_compat_vectors(std::string(p.name) + "__")) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector v = kai_test::load_compat_vector(path);
            const size_t m = v.size("m"), k = v.size("k"), bl = v.size("bl"), mr = v.size("mr"), kr = v.size("kr"),
                         sr = v.size("sr");
            const auto& want = v.section("lhs_packed");
            ASSERT_EQ(KAI_ABI(p.get_lhs_packed_size)(m, k, bl, mr, kr, sr), want.bytes.size());
            GuardedBuffer got(want.bytes.size(), 0x00);
            if (p.f16_in) {
                KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(m, k, bl, mr, kr, sr, 0, v.section("lhs").bytes.data(),
                                                                          v.size("lhs_stride"), got.data());
            } else {
                KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(m, k, bl, mr, kr, sr, 0, v.section("lhs").f32(),
                                                                          v.size("lhs_stride"), got.data());
            }
            EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
            ++files;
        }
    }
    using Run = void (*)(size_t, size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*, const void*, const void*,
                         const void*, void*, size_t, const kai_rhs_pack_qs4cxs1s0_param*);
    using Size = size_t (*)(size_t, size_t, size_t, size_t, size_t);
    struct Rhs {
        const char* name;
        Size size;
        Run run;
    };
    const Rhs rhs[] = {
        {"kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon",
         kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon,
         kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon},
        {"kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon",
         kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon,
         kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon},
        {"kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon",
         kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon,
         kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon},
    };
    for (const Rhs& r : rhs) {
        for (const std::string& path : kai_test::list_compat_vectors(std::string(r.name) + "__")) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector v = kai_test::load_compat_vector(path);
            const size_t n = v.size("n"), k = v.size("k"), bl = v.size("bl"), nr = v.size("nr"), kr = v.size("kr"),
                         sr = v.size("sr");
            const auto& want = v.section("rhs_packed");
            ASSERT_EQ(KAI_ABI(r.size)(n, k, nr, kr, bl), want.bytes.size());
            GuardedBuffer got(want.bytes.size(), 0xEE);
            KAI_ABI(r.run)(1, n, k, nr, kr, sr, bl, v.section("rhs").bytes.data(), v.section("zero").bytes.data(),
                           v.has_section("bias") ? v.section("bias").bytes.data() : nullptr, v.section("scale").bytes.data(),
                           got.data(), 0, &params);
            EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
            ++files;
        }
    }
    EXPECT_EQ(files + not_run, 30u);
    if (not_run != 0) {
        GTEST_SKIP() << "replayed " << files << " of 30 vectors; the CPU lacks FEAT_FP16 for the f16 LHS packer";
    }
}

TEST(Qai4c32pCompat, Kernels) {
    size_t files = 0, listed = 0;
    std::string not_run;
    for (const Qai4c32pVariant& var : kai_registry::qai4c32p_variants()) {
        const std::vector<std::string> paths = kai_test::list_compat_vectors(std::string(var.name) + "__");
        listed += paths.size();
        const std::string missing = kai_test::missing_features(var.features);
        if (!missing.empty()) {
            not_run += std::string(" ") + var.name + " (needs " + missing + ")";
            continue;
        }
        for (const std::string& path : paths) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector v = kai_test::load_compat_vector(path);
            const size_t m = v.size("m"), n = v.size("n"), k = v.size("k"), bl = v.size("bl");
            EXPECT_EQ(var.m_step(), v.size("m_step"));
            EXPECT_EQ(var.n_step(), v.size("n_step"));
            EXPECT_EQ(var.mr(), v.size("mr"));
            EXPECT_EQ(var.nr(), v.size("nr"));
            EXPECT_EQ(var.kr(), v.size("kr"));
            EXPECT_EQ(var.sr(), v.size("sr"));
            const auto& lp = v.section("lhs_packed");
            const auto& rp = v.section("rhs_packed");
            GuardedBuffer lhs_p(lp.bytes.size());
            GuardedBuffer rhs_p(rp.bytes.size());
            std::memcpy(lhs_p.data(), lp.bytes.data(), lp.bytes.size());
            std::memcpy(rhs_p.data(), rp.bytes.data(), rp.bytes.size());
            const size_t es = var.dst_elem();
            DstBuffer dst(m, n, es, (n + 1) * es);
            run_kernel(var, m, n, k, bl, lhs_p.data(), rhs_p.data(), dst.at(0, 0), (n + 1) * es, v.clamp_min(), v.clamp_max());
            const auto& want = v.section("dst");
            for (size_t i = 0; i < m; ++i) {
                for (size_t j = 0; j < n; ++j) {
                    uint32_t e = 0;
                    std::memcpy(&e, want.bytes.data() + (i * n + j) * es, es);
                    ASSERT_EQ(dst.bits(i, j), e) << "dst[" << i << "][" << j << "]";
                }
            }
            EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
            ++files;
        }
    }
    EXPECT_EQ(listed, 48u);
    if (!not_run.empty()) {
        GTEST_SKIP() << "replayed " << files << " of " << listed << " vectors; the CPU lacks features for" << not_run;
    }
    EXPECT_EQ(files, 48u);
}

// ---------------------------------------------------------------------------------------------
// Preconditions (debug builds print the message; release builds only abort).
// ---------------------------------------------------------------------------------------------

#ifndef NDEBUG
constexpr size_t kK = 64, kBl = 32;

class Qai4c32pKernelPreconditionsDeathTest : public testing::TestWithParam<size_t> {};

TEST_P(Qai4c32pKernelPreconditionsDeathTest, Kernels) {
    const Qai4c32pVariant& v = kai_registry::qai4c32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const std::string stem = std::string(v.name).substr(std::string("kai_").size());
    const std::string file = std::string(v.name) + ".c";
    const size_t m = 2, n = 4, es = v.dst_elem();
    const std::vector<float> x = make_lhs(m, kK, kBl, kK, 91);
    const std::vector<uint16_t> xh = to_f16(x);
    const Weights w = make_weights(n, kK, kBl, 92);
    auto lp = pack_lhs(kai_registry::qai4c32p_lhs_packers()[0], m, kK, kBl, v.mr(), v.kr(), v.sr(), x, xh, kK);
    auto rp = pack_rhs(n, kK, kBl, v.nr(), v.kr(), w, true);
    std::vector<uint8_t> dst(m * n * es);
    auto run = [&](const void* l, const void* r, void* d, size_t k, size_t bl, size_t stride, size_t col) {
        if (v.f16_out) {
            v.f16.run_matmul(m, n, k, bl, l, r, d, stride, col, -FLT_MAX, FLT_MAX);
        } else {
            v.f32.run_matmul(m, n, k, bl, l, r, static_cast<float*>(d), stride, col, -FLT_MAX, FLT_MAX);
        }
    };
    const std::string run_fn = "kai_run_" + stem;
    const std::string lhs_fn = "kai_get_lhs_packed_offset_" + stem, dst_fn = "kai_get_dst_offset_" + stem;
    std::vector<PreconditionCase> cases = {
        {run_fn, file, "bl must be a non-zero multiple of 32",
         [&](bool bad) { run(lp->data(), rp->data(), dst.data(), kK, bad ? 48 : kBl, n * es, es); }},
        {run_fn, file, "k must be a multiple of bl",
         [&](bool bad) { run(lp->data(), rp->data(), dst.data(), bad ? 48 : kK, kBl, n * es, es); }},
        {run_fn, file, "dst_stride_col must be the dst element size",
         [&](bool bad) { run(lp->data(), rp->data(), dst.data(), kK, kBl, n * es, bad ? 8 : es); }},
        {run_fn, file, "lhs_packed must not be NULL",
         [&](bool bad) { run(bad ? nullptr : lp->data(), rp->data(), dst.data(), kK, kBl, n * es, es); }},
        {run_fn, file, "rhs_packed must not be NULL",
         [&](bool bad) { run(lp->data(), bad ? nullptr : rp->data(), dst.data(), kK, kBl, n * es, es); }},
        {run_fn, file, "dst must not be NULL",
         [&](bool bad) { run(lp->data(), rp->data(), bad ? nullptr : dst.data(), kK, kBl, n * es, es); }},
        {run_fn, file, "dst_stride_row must be at least n elements when m > 1",
         [&](bool bad) { run(lp->data(), rp->data(), dst.data(), kK, kBl, (bad ? n - 1 : n) * es, es); }},
        {dst_fn, file, "n_idx must be a multiple of n_step (" + std::to_string(v.n_step()) + ")",
         [&](bool bad) { (void)dst_offset(v, v.m_step(), bad ? v.n_step() / 2 : v.n_step(), 64); }},
    };
    if (v.mr() > 1) {
        cases.push_back({lhs_fn, file, "m_idx must be a multiple of mr (" + std::to_string(v.mr()) + ")",
                         [&](bool bad) { (void)lhs_offset(v, bad ? v.mr() / 2 : v.mr(), kK, kBl); }});
    }
    if (v.m_step() > 1) {
        cases.push_back({dst_fn, file, "m_idx must be a multiple of m_step (" + std::to_string(v.m_step()) + ")",
                         [&](bool bad) { (void)dst_offset(v, bad ? v.m_step() / 2 : v.m_step(), v.n_step(), 64); }});
    }
    kai_test::expect_preconditions(cases);
}

INSTANTIATE_TEST_SUITE_P(Variants, Qai4c32pKernelPreconditionsDeathTest,
                         testing::Range(size_t{0}, kai_registry::qai4c32p_variants().size()), variant_name);

TEST(Qai4c32pPackerPreconditionsDeathTest, Packers) {
    const size_t m = 5, n = 5, mr = 4, kr = 16, sr = 2, nr = 4;
    const std::vector<float> x = make_lhs(m, kK, kBl, kK, 93);
    const Weights w = make_weights(n, kK, kBl, 94);
    std::vector<uint8_t> out(1 << 16);
    const std::string lf = "kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon.c";
    const std::string rf = "kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon.c";
    const std::string nf = "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon.c";
    kai_rhs_pack_qs4cxs1s0_param good = {1, 8};
    auto lhs = [&](size_t k, size_t bl, size_t kr_, size_t sr_, const float* p) {
        kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon(m, k, bl, mr, kr_, sr_, 0, p, kK * 4, out.data());
    };
    auto rhs = [&](size_t k, size_t bl, size_t kr_, size_t sr_, const void* zero, const kai_rhs_pack_qs4cxs1s0_param* p) {
        kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(1, n, k, nr, kr_, sr_, bl, w.rows.data(), zero,
                                                                   nullptr, w.scale.data(), out.data(), 0, p);
    };
    kai_rhs_pack_qs4cxs1s0_param bad_zp = {1, 0};
    std::vector<PreconditionCase> cases = {
        {"lhs bl", lf, "bl must be a non-zero multiple of 32", [&](bool bad) { lhs(kK, bad ? 48 : kBl, kr, sr, x.data()); }},
        {"lhs k", lf, "k must be a multiple of bl", [&](bool bad) { lhs(bad ? 48 : kK, kBl, kr, sr, x.data()); }},
        {"lhs kr/sr", lf, "kr / sr must be 4 or 8", [&](bool bad) { lhs(kK, kBl, bad ? 32 : kr, sr, x.data()); }},
        {"lhs NULL", lf, "lhs must not be NULL", [&](bool bad) { lhs(kK, kBl, kr, sr, bad ? nullptr : x.data()); }},
        {"rhs sr", rf, "sr must be 2", [&](bool bad) { rhs(kK, kBl, kr, bad ? 1 : sr, w.zero.data(), &good); }},
        {"rhs bl", rf, "bl must be a non-zero multiple of 32", [&](bool bad) { rhs(kK, bad ? 16 : kBl, kr, sr, w.zero.data(), &good); }},
        {"rhs zero", rf, "zero must not be NULL", [&](bool bad) { rhs(kK, kBl, kr, sr, bad ? nullptr : w.zero.data(), &good); }},
        {"rhs zp", rf, "params->rhs_zero_point must be 8", [&](bool bad) { rhs(kK, kBl, kr, sr, w.zero.data(), bad ? &bad_zp : &good); }},
        {"nrx4 nr", nf, "nr must be a multiple of 4",
         [&](bool bad) {
             kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(1, n, kK, bad ? 6 : 8, 8, 2, kBl, w.rows.data(),
                                                                                w.zero.data(), nullptr, w.scale.data(),
                                                                                out.data(), 0, &good);
         }},
        {"nrx4 kr", nf, "kr / sr must be 4",
         [&](bool bad) {
             kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(1, n, kK, 8, bad ? 16 : 8, 2, kBl, w.rows.data(),
                                                                                w.zero.data(), nullptr, w.scale.data(),
                                                                                out.data(), 0, &good);
         }},
    };
    kai_test::expect_preconditions(cases);
}
#endif  // NDEBUG

// The block length is checked in every build (release too) by every function of the family that
// takes it, kernels' getters and run functions and all five packers alike: bl = 0 never divides by
// zero and no getter returns an offset for a block length another function refuses.
TEST(Qai4c32pBlockDeathTest, BadBlAbortsInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string bl_msg = "bl must be a non-zero multiple of 32", k_msg = "k must be a multiple of bl";
    const auto re = [](const std::string& name, const std::string& msg) {
        return kai_test::kai_error_regex(name + ".c", msg);
    };
    for (const Qai4c32pVariant& v : kai_registry::qai4c32p_variants()) {
        // The getters are plain arithmetic: no CPU feature needed.
        auto lhs_off = [&](size_t k, size_t bl) {
            return v.f16_out ? v.f16.get_lhs_packed_offset(0, k, bl) : v.f32.get_lhs_packed_offset(0, k, bl);
        };
        auto rhs_off = [&](size_t k, size_t bl) {
            return v.f16_out ? v.f16.get_rhs_packed_offset(0, k, bl) : v.f32.get_rhs_packed_offset(0, k, bl);
        };
        EXPECT_EQ(lhs_off(96, 32), 0u);
        for (size_t bl : {0, 48}) {
            EXPECT_DEATH((void)lhs_off(96, bl), re(v.name, bl_msg)) << v.name;
            EXPECT_DEATH((void)rhs_off(96, bl), re(v.name, bl_msg)) << v.name;
        }
        EXPECT_DEATH((void)rhs_off(96, 64), re(v.name, k_msg)) << v.name;
    }
    for (const Qai4c32pLhsPacker& p : kai_registry::qai4c32p_lhs_packers()) {
        EXPECT_DEATH((void)p.get_lhs_packed_size(1, 96, 0, 1, 4, 1), re(p.name, bl_msg)) << p.name;
        EXPECT_DEATH((void)p.get_lhs_packed_offset(0, 96, 64, 1, 4, 1), re(p.name, k_msg)) << p.name;
    }
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(4, 96, 4, 4, 0),
                 re("kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon", bl_msg));
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(4, 96, 4, 4, 0),
                 re("kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon", bl_msg));
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon(4, 96, 4, 4, 64),
                 re("kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon", k_msg));
}

}  // namespace
