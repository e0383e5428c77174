// SPDX-License-Identifier: Apache-2.0
// Seeded property test over the kernel families: each case draws a family, a variant (and for the SME / SVE kernels a
// vector length), a shape (1, primes and tile +-1 included), a sub-rectangle of tiles reached through the offset
// getters, a DST row stride wider than the row, a block length (block-wise families), a clamp (none, infinite,
// ReLU [0, FLT_MAX], one-sided, two-sided, inverted) and the data (random, zeros, constant rows, edge rows), packs
// with kai's packers, runs the kernel on the sub-rectangle only, and compares it to the portable references of
// test/reference: bit-exact for the integer families, within the derived bound for the bf16 family. Everything
// outside the sub-rectangle must keep its sentinel.
// Families: qsi4cxp, qsi4cxpf16, bf16_qsi4cxp, qsi8cxp (NEON and SME / SME2 at SVL 128, 512, 2048), qsi8cxpf16,
// qsi4c32p, bf16_qsi4c32p, qsi8d32p (NEON and SVE at VL 256, 512, 2048; not the SME Q4_0 kernels), qai4c32p
// (f32 and f16 output), bf16, bf16o, bf16f16 (f16 data and output, within the f16 interval of the bf16 bound), q4k
// and q6k (GGUF K-quants, bit-exact against test/reference/kquant_ref) and
// qsi8d32p_sme (the SME and SME2 Q4_0 GEMVs at SVL 128, 512, 2048). Not yet drawn: the SME float families and the
// f16 x Q4_0 MOPA (their own suites cover them).
//
// Environment (bazel test --test_env=...):
//   KAI_PROPERTY_SEED     base seed (default 20), printed with every failure.
//   KAI_PROPERTY_FIRST    index of the first case (default 0): with KAI_PROPERTY_CASES=1 replays one case.
//   KAI_PROPERTY_CASES    number of cases (default: as many as the time budget allows).
//   KAI_PROPERTY_SECONDS  time budget in seconds (default 60, 20 with KAI_TEST_REDUCED=1).
// Case i draws from its own seed (base seed and i), so a failing case replays alone.
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1) so that the SME kernels run too.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d256p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q4kp_q4k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q6kp_q6k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/rng.h"
#include "test/reference/bf16_ref.h"
#include "test/reference/kquant_ref.h"
#include "test/reference/qai4c32p_ref.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4c32p_ref.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/reference/qsi8cxp_ref.h"
#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/bf16_qai8dxp_registry.h"
#include "test/registry/bf16_registry.h"
#include "test/registry/bf16f16_registry.h"
#include "test/registry/kquant_registry.h"
#include "test/registry/qai4c32p_registry.h"
#include "test/registry/qsi4c32p_registry.h"
#include "test/registry/qsi4cxp_registry.h"
#include "test/registry/qsi4cxpf16_registry.h"
#include "test/registry/qsi8cxp_registry.h"
#include "test/registry/qsi8cxpf16_registry.h"
#include "test/registry/qsi8d32p_registry.h"

#ifndef PR_SVE_SET_VL
#define PR_SVE_SET_VL 50
#define PR_SVE_GET_VL 51
#endif
#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#define PR_SME_GET_VL 64
#endif

namespace {

using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;
using ::testing::AssertionFailure;
using ::testing::AssertionResult;
using ::testing::AssertionSuccess;

// ------------------------------------------------------------------------------------------
// Environment.
// ------------------------------------------------------------------------------------------

uint64_t env_u64(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    if (v == nullptr || v[0] == '\0') return fallback;
    return std::strtoull(v, nullptr, 0);
}

double env_double(const char* name, double fallback) {
    const char* v = std::getenv(name);
    if (v == nullptr || v[0] == '\0') return fallback;
    return std::strtod(v, nullptr);
}

// The seed of case i: SplitMix64 of the base seed and the index.
uint64_t case_seed(uint64_t base, uint64_t i) {
    uint64_t z = base * 0x9E3779B97F4A7C15ull + i + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// ------------------------------------------------------------------------------------------
// Random choices shared by the families.
// ------------------------------------------------------------------------------------------

size_t pick(Rng& rng, const std::vector<size_t>& v) { return v[static_cast<size_t>(rng.integer(0, v.size() - 1))]; }

// A dimension around a tile of `step`: 1, small primes, step - 1, step, step + 1, 2 step + 1, or random up to `cap`.
size_t pick_dim(Rng& rng, size_t step, size_t cap) {
    std::vector<size_t> c = {1, 2, 3, 5, 7, 11, 13, 17, step + 1, 2 * step + 1, 2 * step, 3 * step - 1};
    if (step > 1) c.push_back(step - 1);
    c.push_back(step);
    c.push_back(static_cast<size_t>(rng.integer(1, static_cast<int64_t>(cap))));
    size_t d = pick(rng, c);
    return std::max<size_t>(1, std::min(d, std::max(cap, step + 1)));
}

// A sub-rectangle of whole tiles (the last one possibly ragged): the start a multiple of the step, the extent a
// number of steps or up to the end.
void pick_rect(Rng& rng, size_t dim, size_t step, size_t* start, size_t* count) {
    const size_t tiles = (dim + step - 1) / step;
    const size_t t0 = static_cast<size_t>(rng.integer(0, static_cast<int64_t>(tiles) - 1));
    const size_t t1 = static_cast<size_t>(rng.integer(static_cast<int64_t>(t0) + 1, static_cast<int64_t>(tiles)));
    *start = t0 * step;
    *count = std::min(dim, t1 * step) - *start;
}

enum class Clamp { kNone, kInfinite, kRelu, kMinOnly, kMaxOnly, kBoth, kInverted, kCount };
const char* const kClampNames[] = {"none", "infinite", "relu", "min-only", "max-only", "both", "inverted"};

// Clamp bounds for the clamp kind from the unclamped outputs (quantiles, so that the clamp bites).
void clamp_bounds(Clamp c, std::vector<double> v, float* lo, float* hi) {
    *lo = -FLT_MAX;
    *hi = FLT_MAX;
    std::vector<double> finite;
    for (double x : v)
        if (std::isfinite(x)) finite.push_back(x);
    std::sort(finite.begin(), finite.end());
    const float q20 = finite.empty() ? -1.0f : static_cast<float>(finite[finite.size() / 5]);
    const float q80 = finite.empty() ? 1.0f : static_cast<float>(finite[finite.size() * 4 / 5]);
    switch (c) {
        case Clamp::kNone:
        case Clamp::kCount:
            return;
        case Clamp::kInfinite:
            *lo = -INFINITY, *hi = INFINITY;
            return;
        case Clamp::kRelu:
            *lo = 0.0f;
            return;
        case Clamp::kMinOnly:
            *lo = q20, *hi = INFINITY;
            return;
        case Clamp::kMaxOnly:
            *lo = -INFINITY, *hi = q80;
            return;
        case Clamp::kBoth:
            *lo = q20, *hi = q80;
            return;
        case Clamp::kInverted:
            *lo = q80 + 1.0f, *hi = q20;
            return;
    }
}

template <typename T>
std::vector<double> to_double(const std::vector<T>& v) {
    return std::vector<double>(v.begin(), v.end());
}

// LHS data kinds: random with a per-row power of two; all zeros; constant rows; rows mixing the quantisers' edge
// cases (zeros, constants, one outlier, tiny values, half-integer ties).
enum class Data { kRandom, kZeros, kConstantRows, kEdgeRows, kCount };
const char* const kDataNames[] = {"random", "zeros", "constant-rows", "edge-rows"};

std::vector<float> make_lhs(Rng& rng, Data d, size_t m, size_t k, size_t stride, bool tiny_ok) {
    std::vector<float> x(m * stride, std::numeric_limits<float>::quiet_NaN());
    for (size_t i = 0; i < m; ++i) {
        float* r = x.data() + i * stride;
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3)));
        for (size_t kk = 0; kk < k; ++kk) r[kk] = rng.uniform(-2.0f, 2.0f) * mul;
        int kind = 0;
        if (d == Data::kZeros) kind = 1;
        if (d == Data::kConstantRows) kind = 2;
        if (d == Data::kEdgeRows) kind = static_cast<int>(rng.integer(0, tiny_ok ? 5 : 4));
        switch (kind) {
            case 1:
                std::fill(r, r + k, 0.0f);
                break;
            case 2:
                std::fill(r, r + k, rng.uniform(-3.0f, 3.0f));
                break;
            case 3:
                r[rng.integer(0, static_cast<int64_t>(k) - 1)] = 3.0e4f;
                break;
            case 4:
                for (size_t kk = 0; kk < k; ++kk) r[kk] = static_cast<float>(rng.integer(-120, 120)) + 0.5f;
                break;
            case 5:
                for (size_t kk = 0; kk < k; ++kk) r[kk] = rng.uniform(-1.0f, 1.0f) * 1.0e-39f;
                break;
            default:
                break;
        }
    }
    return x;
}

// A DST pointer for run functions taking float* or void*.
struct AnyPtr {
    uint8_t* p;
    operator float*() const { return reinterpret_cast<float*>(p); }
    operator void*() const { return p; }
};

// Description of one case, printed with any failure.
struct Desc {
    std::ostringstream os;
    std::string str() const { return os.str(); }
};

// The DST: sentinel-filled, stride wider than the row; checks the tile's values and the rest untouched.
size_t pick_stride_elems(Rng& rng, size_t n) { return n + pick(rng, {0, 1, 3, 8, 17}); }

AssertionResult check_f32_tile(DstBuffer& dst, size_t m0, size_t mh, size_t n0, size_t nw,
                               const std::vector<float>& want, size_t n) {
    std::vector<float> w(mh * nw);
    for (size_t i = 0; i < mh; ++i)
        for (size_t j = 0; j < nw; ++j) w[i * nw + j] = want[(m0 + i) * n + n0 + j];
    AssertionResult r = kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(m0, n0)), dst.stride(), w.data(),
                                                 nw * 4, mh, nw);
    if (!r) return r;
    return dst.untouched_outside(m0, mh, n0, nw);
}

AssertionResult check_u16_tile(DstBuffer& dst, size_t m0, size_t mh, size_t n0, size_t nw,
                               const std::vector<uint16_t>& want, size_t n) {
    for (size_t i = 0; i < mh; ++i)
        for (size_t j = 0; j < nw; ++j) {
            const uint32_t got = dst.bits(m0 + i, n0 + j), exp = want[(m0 + i) * n + n0 + j];
            if (got != exp) {
                return AssertionFailure() << "dst[" << m0 + i << "][" << n0 + j << "] = 0x" << std::hex << got
                                          << ", expected 0x" << exp << std::dec;
            }
        }
    return dst.untouched_outside(m0, mh, n0, nw);
}

// ------------------------------------------------------------------------------------------
// Instances: a variant of a family at one vector length.
// ------------------------------------------------------------------------------------------

struct Instance {
    std::string family;
    std::string name;
    uint32_t features;
    size_t index;  // into the family's registry list
    size_t svl;    // SME streaming vector length in bytes (0: not SME)
    size_t sve;    // SVE vector length in bytes (0: not SVE)
};

bool set_vl(int op_set, int op_get, size_t bytes) {
    const int r = prctl(op_set, static_cast<unsigned long>(bytes), 0ul, 0ul, 0ul);
    if (r < 0) return false;
    return static_cast<size_t>(prctl(op_get, 0ul, 0ul, 0ul, 0ul) & 0xffff) == bytes;
}

bool is_sme(uint32_t f) { return (f & (KAI_FEATURE_SME | KAI_FEATURE_SME2)) != 0; }

std::vector<Instance> all_instances() {
    std::vector<Instance> out;
    const auto& q4 = kai_registry::qsi4cxp_variants();
    for (size_t i = 0; i < q4.size(); ++i) {
        // The SME2 kernels read another RHS layout ("qsi4cxps1s0 RHS"): the qsi4cxp suite sweeps them.
        if (!is_sme(q4[i].features)) out.push_back({"qsi4cxp", q4[i].name, q4[i].features, i, 0, 0});
    }
    const auto& q8 = kai_registry::qsi8cxp_variants();
    for (size_t i = 0; i < q8.size(); ++i) {
        if (is_sme(q8[i].features)) {
            for (size_t svl : {16, 64, 256}) out.push_back({"qsi8cxp", q8[i].name, q8[i].features, i, svl, 0});
        } else {
            out.push_back({"qsi8cxp", q8[i].name, q8[i].features, i, 0, 0});
        }
    }
    const auto& c32 = kai_registry::qsi4c32p_variants();
    for (size_t i = 0; i < c32.size(); ++i) out.push_back({"qsi4c32p", c32[i].name, c32[i].features, i, 0, 0});
    const auto& d32 = kai_registry::qsi8d32p_variants();
    for (size_t i = 0; i < d32.size(); ++i) {
        if (std::strstr(d32[i].name, "_sve_") != nullptr) {
            for (size_t vl : {32, 64, 256}) out.push_back({"qsi8d32p", d32[i].name, d32[i].features, i, 0, vl});
        } else {
            out.push_back({"qsi8d32p", d32[i].name, d32[i].features, i, 0, 0});
        }
    }
    const auto& d32s = kai_registry::qsi8d32p_sme_variants();
    for (size_t i = 0; i < d32s.size(); ++i) {
        for (size_t svl : {16, 64, 256}) out.push_back({"qsi8d32p_sme", d32s[i].name, d32s[i].features, i, svl, 0});
    }
    const auto& bf = kai_registry::bf16_variants();
    for (size_t i = 0; i < bf.size(); ++i) {
        out.push_back({bf[i].bf16_output ? "bf16o" : "bf16", bf[i].name, bf[i].features, i, 0, 0});
    }
    const auto& bcx = kai_registry::bf16_qsi4cxp_variants();
    for (size_t i = 0; i < bcx.size(); ++i) out.push_back({"bf16_qsi4cxp", bcx[i].name, bcx[i].features, i, 0, 0});
    const auto& bc32 = kai_registry::bf16_qsi4c32p_variants();
    for (size_t i = 0; i < bc32.size(); ++i) out.push_back({"bf16_qsi4c32p", bc32[i].name, bc32[i].features, i, 0, 0});
    const auto& h4 = kai_registry::qsi4cxpf16_variants();
    for (size_t i = 0; i < h4.size(); ++i) out.push_back({"qsi4cxpf16", h4[i].name, h4[i].features, i, 0, 0});
    const auto& h8 = kai_registry::qsi8cxpf16_variants();
    for (size_t i = 0; i < h8.size(); ++i) {
        if (is_sme(h8[i].features)) {
            for (size_t svl : {16, 64, 256}) out.push_back({"qsi8cxpf16", h8[i].name, h8[i].features, i, svl, 0});
        } else {
            out.push_back({"qsi8cxpf16", h8[i].name, h8[i].features, i, 0, 0});
        }
    }
    const auto& a4 = kai_registry::qai4c32p_variants();
    for (size_t i = 0; i < a4.size(); ++i) out.push_back({"qai4c32p", a4[i].name, a4[i].features, i, 0, 0});
    const auto& hb = kai_registry::bf16f16_variants();
    for (size_t i = 0; i < hb.size(); ++i) out.push_back({"bf16f16", hb[i].name, hb[i].features, i, 0, 0});
    const auto& kq = kai_registry::kquant_variants();
    for (size_t i = 0; i < kq.size(); ++i) out.push_back({kq[i].q4k ? "q4k" : "q6k", kq[i].name, kq[i].features, i, 0, 0});
    return out;
}

// ------------------------------------------------------------------------------------------
// qai8dxp LHS (families qsi4cxp, qsi8cxp, qsi4c32p and their bf16-output forms).
// ------------------------------------------------------------------------------------------

struct Qai8dxpLhs {
    std::unique_ptr<GuardedBuffer> packed;
    kai_ref::Qai8dxpUnpacked ref;
};

Qai8dxpLhs pack_qai8dxp(const std::vector<float>& x, size_t m, size_t k, size_t stride, size_t mr, size_t kr,
                        size_t sr) {
    Qai8dxpLhs l;
    l.packed = std::make_unique<GuardedBuffer>(KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr));
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, x.data(), stride * 4, l.packed->data());
    // Expected values come from the reference packer, never from kai's packed bytes.
    std::vector<uint8_t> rp(kai_ref::qai8dxp_packed_size(m, k, mr));
    kai_ref::pack_qai8dxp(m, k, mr, kr, sr, 0, x.data(), stride * 4, rp.data());
    l.ref = kai_ref::unpack_qai8dxp(rp.data(), m, k, mr, kr, sr);
    return l;
}

// Common draw of a case: shape, sub-rectangle, stride, clamp, data.
struct Draw {
    size_t m, n, k, bl = 0;
    size_t m0, mh, n0, nw;
    size_t stride_elems;
    Clamp clamp;
    Data data;
    bool bias, kxn;
};

Draw draw_common(Rng& rng, size_t ms, size_t ns, size_t mcap, size_t ncap, bool gemv) {
    Draw w{};
    w.m = gemv && rng.integer(0, 3) != 0 ? 1 : pick_dim(rng, ms, mcap);
    w.n = pick_dim(rng, ns, ncap);
    w.clamp = static_cast<Clamp>(rng.integer(0, static_cast<int64_t>(Clamp::kCount) - 1));
    w.data = static_cast<Data>(rng.integer(0, static_cast<int64_t>(Data::kCount) - 1));
    w.bias = rng.integer(0, 1) != 0;
    w.kxn = rng.integer(0, 1) != 0;
    pick_rect(rng, w.m, ms, &w.m0, &w.mh);
    pick_rect(rng, w.n, ns, &w.n0, &w.nw);
    w.stride_elems = pick_stride_elems(rng, w.n);
    return w;
}

void describe(Desc& d, const Draw& w) {
    d.os << " m=" << w.m << " n=" << w.n << " k=" << w.k;
    if (w.bl != 0) d.os << " bl=" << w.bl;
    d.os << " tile=[" << w.m0 << "+" << w.mh << ")x[" << w.n0 << "+" << w.nw << ") stride=" << w.stride_elems
         << " clamp=" << kClampNames[static_cast<int>(w.clamp)] << " data=" << kDataNames[static_cast<int>(w.data)]
         << (w.bias ? " bias" : " nobias") << (w.kxn ? " kxn" : " nxk");
}

size_t pick_k(Rng& rng, size_t kr) {
    return pick(rng, {1, 2, 3, 7, 31, 32, 33, kr - 1, kr, kr + 1, 2 * kr + 1, 64, 97, 127, 128, 255, 257,
                      static_cast<size_t>(rng.integer(1, 600))});
}

// ------------------------------------------------------------------------------------------
// Family qsi4cxp (and bf16_qsi4cxp: the same operands, bf16 output).
// ------------------------------------------------------------------------------------------

enum class Out { kF32, kBf16, kF16 };

// The expected bits of a 16-bit output from the f32 results: bf16 or f16, nearest even.
std::vector<uint16_t> narrow(const std::vector<float>& y, Out out) {
    std::vector<uint16_t> h(y.size());
    for (size_t i = 0; i < y.size(); ++i) h[i] = out == Out::kBf16 ? kai_ref::bf16_from_f32(y[i]) : kai_ref::f16_from_f32(y[i]);
    return h;
}

template <typename Ukernel>
AssertionResult run_qsi4cxp(Rng& rng, const Ukernel& uk, Out out, Desc& d) {
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    Draw w = draw_common(rng, ms, ns, 3 * ms + 2, 3 * ns + 2, ms == 1);
    w.k = pick_k(rng, kr);
    const uint8_t zp = rng.integer(0, 3) == 0 ? 0 : 8;
    describe(d, w);
    d.os << " zp=" << int(zp);
    const size_t m = w.m, n = w.n, k = w.k;

    const size_t lhs_stride = k + pick(rng, {0, 3});
    const auto x = make_lhs(rng, w.data, m, k, lhs_stride, true);
    const size_t rbytes = w.kxn ? k * ((n + 1) / 2) : n * ((k + 1) / 2);
    std::vector<uint8_t> rhs = kai_test::random_bytes(rbytes, rng.next_u64());
    if (rng.integer(0, 7) == 0) std::fill(rhs.begin(), rhs.end(), static_cast<uint8_t>(rng.next_u64()));
    std::vector<float> scale(n), bias(n);
    for (auto& s : scale) s = rng.uniform(0.002f, 0.05f) * (rng.integer(0, 1) ? 1.0f : -1.0f);
    for (auto& b : bias) b = rng.uniform(-1.0f, 1.0f);
    const float* b = w.bias ? bias.data() : nullptr;

    auto lhs = pack_qai8dxp(x, m, k, lhs_stride, mr, kr, sr);
    GuardedBuffer rp(KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n, k, nr, kr, sr));
    kai_rhs_pack_qs4cxs1s0_param params{1, zp};
    if (w.kxn) {
        KAI_ABI(kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(1, n, k, nr, kr, sr, rhs.data(), b, scale.data(), rp.data(), 0, &params);
    } else {
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(1, n, k, nr, kr, sr, rhs.data(), b, scale.data(), rp.data(), 0, &params);
    }
    const auto wv = w.kxn ? kai_ref::qs4_kxn_values(rhs.data(), n, k, zp) : kai_ref::qs4_nxk_values(rhs.data(), n, k, zp);
    float lo, hi;
    clamp_bounds(w.clamp,
                 to_double(kai_ref::matmul_qai8dxp_qsi4cx(lhs.ref, n, k, wv.data(), scale.data(), b, -FLT_MAX, FLT_MAX)),
                 &lo, &hi);

    const size_t es = out == Out::kF32 ? 4 : 2;
    DstBuffer dst(m, n, es, w.stride_elems * es);
    const size_t lo_off = KAI_ABI(uk.get_lhs_packed_offset)(w.m0, k);
    const size_t ro_off = KAI_ABI(uk.get_rhs_packed_offset)(w.n0, k);
    if (lo_off != KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(w.m0, k, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(w.n0, k, nr, kr, sr))
        return AssertionFailure() << "rhs packed offset differs from the packer's";
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(uk.run_matmul)(w.mh, w.nw, k, lhs.packed->data() + lo_off, rp.data() + ro_off,
                           AnyPtr{dst.at(w.m0, w.n0)}, dst.stride(), es, lo, hi);
    if (out == Out::kBf16) {
        return check_u16_tile(dst, w.m0, w.mh, w.n0, w.nw,
                              kai_ref::matmul_qai8dxp_qsi4cx_bf16(lhs.ref, n, k, wv.data(), scale.data(), b, lo, hi), n);
    }
    const auto y = kai_ref::matmul_qai8dxp_qsi4cx(lhs.ref, n, k, wv.data(), scale.data(), b, lo, hi);
    if (out == Out::kF16) return check_u16_tile(dst, w.m0, w.mh, w.n0, w.nw, narrow(y, Out::kF16), n);
    return check_f32_tile(dst, w.m0, w.mh, w.n0, w.nw, y, n);
}

// ------------------------------------------------------------------------------------------
// Family qsi8cxp (NEON and SME / SME2; the instance's SVL is set before the getters are read).
// ------------------------------------------------------------------------------------------

template <typename Variant>
AssertionResult run_qsi8cxp(Rng& rng, const Variant& v, Out out, Desc& d) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    Draw w = draw_common(rng, ms, ns, std::min<size_t>(3 * ms + 2, 70), std::min<size_t>(3 * ns + 2, 160), ms == 1);
    w.k = pick_k(rng, kr);
    if (ns >= 256) w.k = std::min<size_t>(w.k, 130);  // SVL 2048: the emulated tiles are costly
    describe(d, w);
    const size_t m = w.m, n = w.n, k = w.k;

    const size_t lhs_stride = k + pick(rng, {0, 3});
    const auto x = make_lhs(rng, w.data, m, k, lhs_stride, true);
    std::vector<int8_t> wt = kai_test::random_i8(n * k, -128, 127, rng.next_u64());
    if (rng.integer(0, 7) == 0) {
        for (size_t i = 0; i < wt.size(); ++i) wt[i] = i % 3 == 0 ? int8_t{127} : int8_t{-128};
    }
    std::vector<float> scale(n), bias(n);
    for (auto& s : scale) s = rng.uniform(0.0005f, 0.02f) * (rng.integer(0, 1) ? 1.0f : -1.0f);
    for (auto& b : bias) b = rng.uniform(-1.0f, 1.0f);
    const float* b = w.bias ? bias.data() : nullptr;

    auto lhs = pack_qai8dxp(x, m, k, lhs_stride, mr, kr, sr);
    GuardedBuffer rp(KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon)(n, k, nr, kr, sr));
    const kai_rhs_pack_qsi8cx_params params{1, 1.0f};
    if (w.kxn) {
        std::vector<int8_t> t(n * k);
        for (size_t j = 0; j < n; ++j)
            for (size_t kk = 0; kk < k; ++kk) t[kk * n + j] = wt[j * k + kk];
        KAI_ABI(kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon)(1, n, k, nr, kr, sr, t.data(), b, scale.data(), rp.data(), 0, &params);
    } else {
        KAI_ABI(kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon)(1, n, k, nr, kr, sr, wt.data(), b, scale.data(), rp.data(), 0, &params);
    }
    // The SME / SME2 DOT GEMVs fuse scale and bias in one multiply-add (docs/formats.md, "SME matmul recipes").
    const bool fused = is_sme(v.features) && std::strstr(v.name, "_dot") != nullptr;
    float lo, hi;
    clamp_bounds(w.clamp,
                 to_double(kai_ref::matmul_qai8dxp_qsi8cx(lhs.ref, n, k, wt.data(), scale.data(), b, -FLT_MAX, FLT_MAX,
                                                          fused)),
                 &lo, &hi);
    const size_t es = out == Out::kF32 ? 4 : 2;
    DstBuffer dst(m, n, es, w.stride_elems * es);
    const size_t lo_off = KAI_ABI(uk.get_lhs_packed_offset)(w.m0, k);
    const size_t ro_off = KAI_ABI(uk.get_rhs_packed_offset)(w.n0, k);
    if (lo_off != KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(w.m0, k, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon)(w.n0, k, nr, kr, sr))
        return AssertionFailure() << "rhs packed offset differs from the packer's";
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(uk.run_matmul)(w.mh, w.nw, k, lhs.packed->data() + lo_off, rp.data() + ro_off, AnyPtr{dst.at(w.m0, w.n0)},
                           dst.stride(), es, lo, hi);
    const auto y = kai_ref::matmul_qai8dxp_qsi8cx(lhs.ref, n, k, wt.data(), scale.data(), b, lo, hi, fused);
    if (out == Out::kF16) return check_u16_tile(dst, w.m0, w.mh, w.n0, w.nw, narrow(y, Out::kF16), n);
    return check_f32_tile(dst, w.m0, w.mh, w.n0, w.nw, y, n);
}

// ------------------------------------------------------------------------------------------
// Family qsi4c32p (and bf16_qsi4c32p: the same operands, bf16 output).
// ------------------------------------------------------------------------------------------

template <typename Ukernel>
AssertionResult run_qsi4c32p(Rng& rng, const Ukernel& uk, bool bf16_out, Desc& d) {
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    Draw w = draw_common(rng, ms, ns, 3 * ms + 2, 3 * ns + 2, ms == 1);
    w.bl = pick(rng, {32, 64, 128, 256});
    w.k = w.bl * static_cast<size_t>(rng.integer(1, static_cast<int64_t>(std::max<size_t>(1, 1024 / w.bl))));
    describe(d, w);
    const size_t m = w.m, n = w.n, k = w.k, bl = w.bl, nb = k / bl;

    const size_t lhs_stride = k + pick(rng, {0, 3});
    const auto x = make_lhs(rng, w.data, m, k, lhs_stride, true);
    const size_t rhs_stride = (w.kxn ? (n + 1) / 2 : k / 2) + pick(rng, {0, 5});
    std::vector<uint8_t> rhs = kai_test::random_bytes((w.kxn ? k : n) * rhs_stride, rng.next_u64());
    if (rng.integer(0, 7) == 0) std::fill(rhs.begin(), rhs.end(), static_cast<uint8_t>(rng.next_u64()));
    const size_t scale_stride = 2 * nb + pick(rng, {0, 6});
    std::vector<uint8_t> scales(n * scale_stride, 0xEE);
    std::vector<float> dv(n * nb), bias(n);
    for (size_t j = 0; j < n; ++j)
        for (size_t bb = 0; bb < nb; ++bb) {
            const uint16_t raw = kai_ref::bf16_from_f32(rng.uniform(0.002f, 0.05f) * (rng.integer(0, 1) ? 1.0f : -1.0f));
            std::memcpy(scales.data() + j * scale_stride + 2 * bb, &raw, 2);
            dv[j * nb + bb] = kai_ref::f32_from_bf16(raw);
        }
    for (auto& b : bias) b = rng.uniform(-1.0f, 1.0f);
    const float* b = w.bias ? bias.data() : nullptr;

    auto lhs = pack_qai8dxp(x, m, k, lhs_stride, mr, kr, sr);
    size_t rsize, roff_packer;
    if (w.kxn) {
        rsize = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(n, k, nr, kr, sr, bl, kai_dt_bf16);
        roff_packer = KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(w.n0, k, nr, kr, sr, bl, kai_dt_bf16);
    } else {
        rsize = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(n, k, nr, kr, sr, bl, kai_dt_bf16);
        roff_packer = KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(w.n0, k, nr, kr, sr, bl, kai_dt_bf16);
    }
    GuardedBuffer rp(rsize);
    if (w.kxn) {
        const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
        KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(1, n, k, nr, kr, sr, bl, rhs.data(), rhs_stride, b,
                                                           scales.data(), scale_stride, rp.data(), 0, &p);
    } else {
        const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(1, n, k, nr, kr, sr, bl, rhs.data(), rhs_stride, b,
                                                           scales.data(), scale_stride, rp.data(), 0, &p);
    }
    std::vector<int8_t> wv(n * k);
    std::vector<float> sums(n);
    for (size_t j = 0; j < n; ++j) {
        for (size_t kk = 0; kk < k; ++kk) {
            const uint8_t u = w.kxn ? kai_ref::qsu4_kxn_nibble(rhs.data(), rhs_stride, j, kk)
                                    : kai_ref::qsu4_nxk_nibble(rhs.data(), rhs_stride, j, kk);
            wv[j * k + kk] = static_cast<int8_t>(static_cast<int>(u) - 8);
        }
        sums[j] = kai_ref::qsi4c32p_row_sum(wv.data() + j * k, dv.data() + j * nb, k, bl, kr / sr);
    }
    float lo, hi;
    clamp_bounds(w.clamp,
                 to_double(kai_ref::matmul_qai8dxp_qsi4c32(lhs.ref, n, k, bl, wv.data(), dv.data(), sums.data(), b,
                                                           -FLT_MAX, FLT_MAX)),
                 &lo, &hi);
    const size_t es = bf16_out ? 2 : 4;
    DstBuffer dst(m, n, es, w.stride_elems * es);
    const size_t lo_off = KAI_ABI(uk.get_lhs_packed_offset)(w.m0, k);
    const size_t ro_off = KAI_ABI(uk.get_rhs_packed_offset)(w.n0, k, bl);
    if (lo_off != KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(w.m0, k, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != roff_packer) return AssertionFailure() << "rhs packed offset differs from the packer's";
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(uk.run_matmul)(w.mh, w.nw, k, bl, lhs.packed->data() + lo_off, rp.data() + ro_off,
                           AnyPtr{dst.at(w.m0, w.n0)}, dst.stride(), es, lo, hi);
    if (bf16_out) {
        return check_u16_tile(dst, w.m0, w.mh, w.n0, w.nw,
                              kai_ref::matmul_qai8dxp_qsi4c32_bf16(lhs.ref, n, k, bl, wv.data(), dv.data(), sums.data(),
                                                                   b, lo, hi),
                              n);
    }
    return check_f32_tile(
        dst, w.m0, w.mh, w.n0, w.nw,
        kai_ref::matmul_qai8dxp_qsi4c32(lhs.ref, n, k, bl, wv.data(), dv.data(), sums.data(), b, lo, hi), n);
}

// ------------------------------------------------------------------------------------------
// Family qsi8d32p (GGUF Q4_0; NEON and SVE at the instance's vector length).
// ------------------------------------------------------------------------------------------

// n Q4_0 rows (k / bl blocks): random nibbles, f16 scales of either sign in [0.001, 0.06].
std::vector<uint8_t> random_q4_0_rows(Rng& rng, size_t n, size_t k, size_t bl) {
    const size_t row_bytes = kai_ref::q4_0_row_bytes(k, bl), blk = bl / 2 + 2;
    std::vector<uint8_t> rows = kai_test::random_bytes(n * row_bytes, rng.next_u64());
    for (size_t j = 0; j < n; ++j)
        for (size_t bb = 0; bb < k / bl; ++bb) {
            const uint16_t h = kai_ref::f16_from_f32(rng.uniform(0.001f, 0.06f) * (rng.integer(0, 1) ? -1.0f : 1.0f));
            rows[j * row_bytes + bb * blk] = static_cast<uint8_t>(h & 0xFF);
            rows[j * row_bytes + bb * blk + 1] = static_cast<uint8_t>(h >> 8);
        }
    return rows;
}

AssertionResult run_qsi8d32p(Rng& rng, const kai_registry::Qsi8d32pVariant& v, Desc& d) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    const auto packers = kai_registry::qsi8d32p_lhs_packers_for(v);
    const auto& packer = *packers[static_cast<size_t>(rng.integer(0, packers.size() - 1))];
    Draw w = draw_common(rng, ms, ns, 3 * ms + 2, 3 * ns + 2, ms == 1);
    w.kxn = false;
    w.bias = false;  // the family has no bias
    w.bl = 32 * pick(rng, {1, 1, 2, 3, 4, 8});
    w.k = w.bl * static_cast<size_t>(rng.integer(1, static_cast<int64_t>(std::max<size_t>(1, 1024 / w.bl))));
    describe(d, w);
    d.os << " lhs=" << packer.name;
    const size_t m = w.m, n = w.n, k = w.k, bl = w.bl;

    const size_t lhs_stride = k + pick(rng, {0, 3});
    const auto x = make_lhs(rng, w.data, m, k, lhs_stride, false);
    const std::vector<uint8_t> rows = random_q4_0_rows(rng, n, k, bl);

    GuardedBuffer lp(KAI_ABI(packer.get_lhs_packed_size)(m, k, bl, mr, kr, sr));
    KAI_ABI(packer.run)(m, k, bl, mr, kr, sr, 0, x.data(), lhs_stride * 4, lp.data());
    GuardedBuffer rp(KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(n, k, nr, kr, bl));
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(1, n, k, nr, kr, sr, bl, rows.data(), nullptr, rp.data(), 0,
                                                                 &params);
    const auto q = kai_ref::quantize_qsi8d32(m, k, bl, x.data(), lhs_stride * 4,
                                             packer.ties_to_even ? kai_ref::Q8Rounding::kTiesEven
                                                                 : kai_ref::Q8Rounding::kTiesAway);
    float lo, hi;
    clamp_bounds(w.clamp, to_double(kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), -FLT_MAX, FLT_MAX)), &lo, &hi);
    DstBuffer dst(m, n, 4, w.stride_elems * 4);
    const size_t lo_off = KAI_ABI(uk.get_lhs_packed_offset)(w.m0, k, bl);
    const size_t ro_off = KAI_ABI(uk.get_rhs_packed_offset)(w.n0, k, bl);
    if (lo_off != KAI_ABI(packer.get_lhs_packed_offset)(w.m0, k, bl, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0)(w.n0, k, nr, kr, bl))
        return AssertionFailure() << "rhs packed offset differs from the packer's";
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(uk.run_matmul)(w.mh, w.nw, k, bl, lp.data() + lo_off, rp.data() + ro_off, AnyPtr{dst.at(w.m0, w.n0)},
                           dst.stride(), 4, lo, hi);
    return check_f32_tile(dst, w.m0, w.mh, w.n0, w.nw, kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), lo, hi), n);
}

// ------------------------------------------------------------------------------------------
// Family qsi8d32p_sme (the SME2 sdot GEMV and its SME twin at the instance's SVL): LHS
// kai_lhs_quant_pack_qsi8d32p_f32_neon (ties away), RHS ..._ps1s0scalef16_..._neon (SME2) or ..._ps4s0sf16_..._neon
// (SME, which stores f16(d / 16): the reference then runs on the rows with scale 16 f16(d / 16), exactly the twin's).
// ------------------------------------------------------------------------------------------

AssertionResult run_qsi8d32p_sme(Rng& rng, const kai_registry::Qsi8d32pVariant& v, Desc& d) {
    const auto& uk = v.ukernel;
    const bool sme1 = std::strstr(v.name, "_sme_dot") != nullptr;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    Draw w = draw_common(rng, ms, ns, 3, 3 * ns + 2, true);
    w.kxn = false;
    w.bias = false;
    w.bl = 32 * pick(rng, {1, 1, 2, 3, 4, 8});
    w.k = w.bl * static_cast<size_t>(rng.integer(1, static_cast<int64_t>(std::max<size_t>(1, 512 / w.bl))));
    describe(d, w);
    const size_t m = w.m, n = w.n, k = w.k, bl = w.bl;

    const size_t lhs_stride = k + pick(rng, {0, 3});
    const auto x = make_lhs(rng, w.data, m, k, lhs_stride, false);
    const std::vector<uint8_t> rows = random_q4_0_rows(rng, n, k, bl);
    const std::vector<uint8_t> seen = sme1 ? kai_ref::q4_0_rows_scales_via_sixteenths(rows.data(), n, k, bl) : rows;

    GuardedBuffer lp(KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon)(m, k, bl, mr, kr, sr));
    KAI_ABI(kai_run_lhs_quant_pack_qsi8d32p_f32_neon)(m, k, bl, mr, kr, sr, 0, x.data(), lhs_stride * 4, lp.data());
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    const size_t rp_size =
        sme1 ? KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon)(n, k, nr, kr, bl)
             : KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(n, k, nr, kr, bl);
    GuardedBuffer rp(rp_size);
    if (sme1) {
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon)(1, n, k, nr, kr, sr, bl, rows.data(), nullptr,
                                                                        rp.data(), 0, &params);
    } else {
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(1, n, k, nr, kr, sr, bl, rows.data(),
                                                                            nullptr, rp.data(), 0, &params);
    }
    const auto q = kai_ref::quantize_qsi8d32(m, k, bl, x.data(), lhs_stride * 4, kai_ref::Q8Rounding::kTiesAway);
    float lo, hi;
    clamp_bounds(w.clamp, to_double(kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, seen.data(), -FLT_MAX, FLT_MAX)), &lo, &hi);
    DstBuffer dst(m, n, 4, w.stride_elems * 4);
    const size_t lo_off = KAI_ABI(uk.get_lhs_packed_offset)(w.m0, k, bl);
    const size_t ro_off = KAI_ABI(uk.get_rhs_packed_offset)(w.n0, k, bl);
    if (lo_off != KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon)(w.m0, k, bl, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    const size_t ro_want =
        sme1 ? KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon)(w.n0, k, nr, kr, bl)
             : KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon)(w.n0, k, nr, kr, bl);
    if (ro_off != ro_want) return AssertionFailure() << "rhs packed offset differs from the packer's";
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(uk.run_matmul)(w.mh, w.nw, k, bl, lp.data() + lo_off, rp.data() + ro_off, AnyPtr{dst.at(w.m0, w.n0)},
                           dst.stride(), 4, lo, hi);
    return check_f32_tile(dst, w.m0, w.mh, w.n0, w.nw, kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, seen.data(), lo, hi), n);
}

// ------------------------------------------------------------------------------------------
// Family bf16 (f32 and bf16 output): within the bound bf16_ref.cc derives from K and the error scale.
// ------------------------------------------------------------------------------------------

constexpr size_t kBf16Nr = 12, kBf16Kr = 4, kBf16Sr = 1;

// Rows x cols of f32 values (with exact bf16 ties mixed in) as raw bytes: f32, or their bf16 patterns.
std::vector<uint8_t> bf16_source(const std::vector<float>& f, const std::vector<uint16_t>& h, size_t rows, size_t cols,
                                 bool bf16, size_t pad, size_t* stride) {
    const size_t es = bf16 ? 2 : 4;
    *stride = (cols + pad) * es;
    std::vector<uint8_t> out(std::max<size_t>(rows * *stride, 1), 0xFF);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) {
            if (bf16) {
                std::memcpy(out.data() + i * *stride + j * 2, &h[i * cols + j], 2);
            } else {
                std::memcpy(out.data() + i * *stride + j * 4, &f[i * cols + j], 4);
            }
        }
    return out;
}

AssertionResult run_bf16(Rng& rng, const kai_registry::Bf16Variant& v, Desc& d) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    std::vector<const kai_registry::Bf16LhsPacker*> lps;
    for (const auto& p : kai_registry::bf16_lhs_packers())
        if (p.mr == mr && kai_test::missing_features(p.features).empty()) lps.push_back(&p);
    std::vector<const kai_registry::Bf16RhsPacker*> rps;
    for (const auto& p : kai_registry::bf16_rhs_packers())
        if (kai_test::missing_features(p.features).empty()) rps.push_back(&p);
    if (lps.empty() || rps.empty()) return AssertionFailure() << "no packer can run for " << v.name;
    const auto& lp = *lps[static_cast<size_t>(rng.integer(0, lps.size() - 1))];
    const auto& rpk = *rps[static_cast<size_t>(rng.integer(0, rps.size() - 1))];
    Draw w = draw_common(rng, ms, ns, 3 * ms + 2, 3 * ns + 2, mr == 1);
    if (mr == 1) w.m = 1, w.m0 = 0, w.mh = 1;
    w.k = pick_k(rng, kr);
    w.kxn = !rpk.nxk;
    describe(d, w);
    d.os << " lhs=" << lp.name << " rhs=" << rpk.name;
    const size_t m = w.m, n = w.n, k = w.k;

    // LHS m x k and RHS k x n values, RNE-rounded to bf16 for the reference; every 7th value an exact bf16 tie.
    auto make = [&](size_t rows, size_t cols, bool lhs_data, std::vector<float>* f, std::vector<uint16_t>* h) {
        if (lhs_data) {
            *f = make_lhs(rng, w.data, rows, cols, cols, false);
        } else {
            *f = kai_test::random_f32(rows * cols, -1.0f, 1.0f, rng.next_u64());
        }
        for (size_t t = 0; t < f->size(); t += 7) {
            (*f)[t] = kai_ref::f32_from_bits((kai_ref::f32_bits((*f)[t]) & 0xFFFF0000u) | 0x8000u);
        }
        h->resize(f->size());
        for (size_t t = 0; t < f->size(); ++t) (*h)[t] = kai_ref::bf16_from_f32((*f)[t]);
    };
    std::vector<float> af, bf;
    std::vector<uint16_t> ah, bh;
    make(m, k, true, &af, &ah);
    make(k, n, false, &bf, &bh);
    std::vector<float> bias = kai_test::random_f32(n, -1.0f, 1.0f, rng.next_u64());

    size_t ls = 0;
    const auto lsrc = bf16_source(af, ah, m, k, lp.bf16_source, pick(rng, {0, 3}), &ls);
    GuardedBuffer lpk(KAI_ABI(lp.get_lhs_packed_size)(m, k, mr, kr, sr));
    KAI_ABI(lp.run)(m, k, mr, kr, sr, 0, lsrc.data(), ls, lpk.data());
    std::vector<float> bt(n * k);
    std::vector<uint16_t> bth(n * k);
    for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) bt[j * k + kk] = bf[kk * n + j], bth[j * k + kk] = bh[kk * n + j];
    size_t rs = 0;
    const auto rsrc = rpk.nxk ? bf16_source(bt, bth, n, k, rpk.bf16_source, pick(rng, {0, 5}), &rs)
                              : bf16_source(bf, bh, k, n, rpk.bf16_source, pick(rng, {0, 5}), &rs);
    GuardedBuffer rpb(KAI_ABI(rpk.get_rhs_packed_size)(n, k, kBf16Nr, kBf16Kr));
    KAI_ABI(rpk.run)(1, n, k, kBf16Nr, kBf16Kr, kBf16Sr, rs, rsrc.data(), w.bias ? bias.data() : nullptr, nullptr,
                     rpb.data(), 0, nullptr);

    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(ah.data(), bh.data(), w.bias ? bias.data() : nullptr, m, n, k, &ref, &abs_sum);
    float lo, hi;
    clamp_bounds(w.clamp, ref, &lo, &hi);

    const size_t es = kai_registry::bf16_dst_elem_size(v);
    DstBuffer dst(m, n, es, w.stride_elems * es);
    const size_t lo_off = KAI_ABI(uk.get_lhs_packed_offset)(w.m0, k);
    const size_t ro_off = KAI_ABI(uk.get_rhs_packed_offset)(w.n0, k);
    if (lo_off != KAI_ABI(lp.get_lhs_packed_offset)(w.m0, k, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != KAI_ABI(rpk.get_rhs_packed_offset)(w.n0, k, kBf16Nr, kBf16Kr))
        return AssertionFailure() << "rhs packed offset differs from the packer's";
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(uk.run_matmul)(w.mh, w.nw, k, lpk.data() + lo_off, rpb.data() + ro_off, dst.at(w.m0, w.n0), dst.stride(), es,
                           lo, hi);
    for (size_t i = w.m0; i < w.m0 + w.mh; ++i)
        for (size_t j = w.n0; j < w.n0 + w.nw; ++j) {
            const double expected = kai_ref::bf16_clamp(ref[i * n + j], lo, hi);
            const double bound = kai_ref::bf16_error_bound(abs_sum[i * n + j], expected, k, v.bf16_output);
            const double got = dst.value(i, j);
            if (!(std::fabs(got - expected) <= bound)) {
                return AssertionFailure() << "dst[" << i << "][" << j << "] = " << got << ", expected " << expected
                                          << " +- " << bound;
            }
        }
    return dst.untouched_outside(w.m0, w.mh, w.n0, w.nw);
}

// ------------------------------------------------------------------------------------------
// Family bf16f16 (f16 data, BF16 arithmetic, f16 output): each output within the f16 interval
// kai_ref::f16_output_interval gives around the exact sum of the bf16 operands (f32 bound of bf16_ref.cc).
// ------------------------------------------------------------------------------------------

AssertionResult run_bf16f16(Rng& rng, const kai_registry::Bf16F16Variant& v, Desc& d) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    std::vector<const kai_registry::Bf16F16LhsPacker*> lps;
    for (const auto& p : kai_registry::bf16f16_lhs_packers())
        if (kai_test::missing_features(p.features).empty()) lps.push_back(&p);
    std::vector<const kai_registry::Bf16F16RhsPacker*> rps;  // the f16-output kernel reads biasf16 blocks
    for (const auto& p : kai_registry::bf16f16_rhs_packers())
        if (p.bias_f16 && kai_test::missing_features(p.features).empty()) rps.push_back(&p);
    if (lps.empty() || rps.empty()) return AssertionFailure() << "no packer can run for " << v.name;
    const auto& lp = *lps[static_cast<size_t>(rng.integer(0, lps.size() - 1))];
    const auto& rpk = *rps[static_cast<size_t>(rng.integer(0, rps.size() - 1))];
    Draw w = draw_common(rng, ms, ns, 3 * ms + 2, 3 * ns + 2, false);
    w.k = pick_k(rng, kr);
    w.kxn = !rpk.nxk;
    describe(d, w);
    d.os << " lhs=" << lp.name << " rhs=" << rpk.name;
    const size_t m = w.m, n = w.n, k = w.k;

    // f16 data (LHS from make_lhs: its edge rows reach 3e4, still finite in f16), every 7th value an exact bf16 tie
    // of the f16 -> bf16 rounding; the reference multiplies the bf16 patterns the packers produce.
    auto to_f16 = [&](const std::vector<float>& f, size_t rows, size_t cols, size_t src_stride) {
        std::vector<uint16_t> h(rows * cols);
        for (size_t i = 0; i < rows; ++i)
            for (size_t j = 0; j < cols; ++j) h[i * cols + j] = kai_ref::f16_from_f32(f[i * src_stride + j]);
        for (size_t t = 3; t < h.size(); t += 7) h[t] = static_cast<uint16_t>((h[t] & 0xFFF8u) | 0x0004u);
        return h;
    };
    const std::vector<uint16_t> ah = to_f16(make_lhs(rng, w.data, m, k, k, false), m, k, k);
    const std::vector<uint16_t> bh = to_f16(kai_test::random_f32(k * n, -1.0f, 1.0f, rng.next_u64()), k, n, n);
    std::vector<uint16_t> bias_h(n);
    for (size_t j = 0; j < n; ++j) bias_h[j] = kai_ref::f16_from_f32(rng.uniform(-1.0f, 1.0f));
    std::vector<uint16_t> ab(ah.size()), bb(bh.size());
    for (size_t t = 0; t < ah.size(); ++t) ab[t] = kai_ref::bf16_from_f16(ah[t]);
    for (size_t t = 0; t < bh.size(); ++t) bb[t] = kai_ref::bf16_from_f16(bh[t]);
    std::vector<float> bias_f(n);
    for (size_t j = 0; j < n; ++j) bias_f[j] = kai_ref::f32_from_f16(bias_h[j]);

    // Sources with a wider row stride (0xFFFF in the gaps: an f16 NaN, which must not be read).
    const size_t lpad = pick(rng, {0, 3});
    std::vector<uint16_t> lsrc(std::max<size_t>(m * (k + lpad), 1), 0xFFFF);
    for (size_t i = 0; i < m; ++i) std::memcpy(&lsrc[i * (k + lpad)], &ah[i * k], k * 2);
    GuardedBuffer lpk(KAI_ABI(lp.get_lhs_packed_size)(m, k, mr, kr, sr));
    KAI_ABI(lp.run)(m, k, mr, kr, sr, 0, lsrc.data(), (k + lpad) * 2, lpk.data());
    const size_t rpad = pick(rng, {0, 5});
    const size_t rows = rpk.nxk ? n : k, cols = rpk.nxk ? k : n;
    std::vector<uint16_t> rsrc(std::max<size_t>(rows * (cols + rpad), 1), 0xFFFF);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) rsrc[i * (cols + rpad) + j] = rpk.nxk ? bh[j * n + i] : bh[i * n + j];
    GuardedBuffer rpb(KAI_ABI(rpk.get_rhs_packed_size)(n, k));
    KAI_ABI(rpk.run)(1, n, k, nr, kr, sr, (cols + rpad) * 2, rsrc.data(), w.bias ? bias_h.data() : nullptr, nullptr,
                     rpb.data(), 0, nullptr);

    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(ab.data(), bb.data(), w.bias ? bias_f.data() : nullptr, m, n, k, &ref, &abs_sum);
    float lo, hi;
    clamp_bounds(w.clamp, ref, &lo, &hi);

    DstBuffer dst(m, n, 2, w.stride_elems * 2);
    const size_t lo_off = KAI_ABI(uk.get_lhs_packed_offset)(w.m0, k);
    const size_t ro_off = KAI_ABI(uk.get_rhs_packed_offset)(w.n0, k);
    if (lo_off != KAI_ABI(lp.get_lhs_packed_offset)(w.m0, k, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != KAI_ABI(rpk.get_rhs_packed_offset)(w.n0, k))
        return AssertionFailure() << "rhs packed offset differs from the packer's";
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(uk.run_matmul)(w.mh, w.nw, k, lpk.data() + lo_off, rpb.data() + ro_off, dst.at(w.m0, w.n0), dst.stride(), 2,
                           lo, hi);
    for (size_t i = w.m0; i < w.m0 + w.mh; ++i)
        for (size_t j = w.n0; j < w.n0 + w.nw; ++j) {
            const double exact = ref[i * n + j];
            const double bound = kai_ref::bf16_error_bound(abs_sum[i * n + j], exact, k, false);
            float ilo = 0, ihi = 0;
            kai_ref::f16_output_interval(exact, bound, lo, hi, &ilo, &ihi);
            const float got = kai_ref::f32_from_f16(static_cast<uint16_t>(dst.bits(i, j)));
            const bool ok = std::isnan(ilo) ? std::isnan(got) : (got >= ilo && got <= ihi);
            if (!ok) {
                return AssertionFailure() << "dst[" << i << "][" << j << "] = " << got << " (0x" << std::hex
                                          << dst.bits(i, j) << std::dec << "), expected in [" << ilo << ", " << ihi
                                          << "] (exact " << exact << ")";
            }
        }
    return dst.untouched_outside(w.m0, w.mh, w.n0, w.nw);
}

// ------------------------------------------------------------------------------------------
// Family qai4c32p (asymmetric int4 weights; f32 and f16 output, f32 and f16 LHS packers).
// ------------------------------------------------------------------------------------------

AssertionResult run_qai4c32p(Rng& rng, const kai_registry::Qai4c32pVariant& v, Desc& d) {
    std::vector<const kai_registry::Qai4c32pLhsPacker*> lps;
    for (const auto& p : kai_registry::qai4c32p_lhs_packers())
        if (kai_test::missing_features(p.features).empty()) lps.push_back(&p);
    if (lps.empty()) return AssertionFailure() << "no LHS packer can run";
    const auto& packer = *lps[static_cast<size_t>(rng.integer(0, lps.size() - 1))];
    const size_t mr = v.mr(), nr = v.nr(), kr = v.kr(), sr = v.sr(), ms = v.m_step(), ns = v.n_step();
    Draw w = draw_common(rng, ms, ns, 3 * ms + 2, 3 * ns + 2, ms == 1);
    w.kxn = false;
    w.bl = 32 * pick(rng, {1, 1, 2, 3, 4, 5, 8});
    w.k = w.bl * static_cast<size_t>(rng.integer(1, static_cast<int64_t>(std::max<size_t>(1, 1024 / w.bl))));
    describe(d, w);
    d.os << " lhs=" << packer.name;
    const size_t m = w.m, n = w.n, k = w.k, bl = w.bl, nb = k / bl;

    // f16-representable LHS values, so that both packers see the same numbers.
    const size_t lhs_stride = k + pick(rng, {0, 3});
    std::vector<float> x = make_lhs(rng, w.data, m, k, lhs_stride, false);
    std::vector<uint16_t> xh(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        xh[i] = kai_ref::f16_from_f32(x[i]);
        x[i] = kai_ref::f32_from_f16(xh[i]);
    }
    std::vector<uint8_t> rows = kai_test::random_bytes(n * k / 2, rng.next_u64());
    std::vector<float> scale(n * nb), zero(n * nb), bias(n);
    for (size_t t = 0; t < n * nb; ++t) {
        scale[t] = rng.uniform(0.002f, 0.05f);
        zero[t] = scale[t] * static_cast<float>(8 - rng.integer(0, 15));
    }
    for (auto& b : bias) b = rng.uniform(-1.0f, 1.0f);
    const float* b = w.bias ? bias.data() : nullptr;

    GuardedBuffer lp(KAI_ABI(packer.get_lhs_packed_size)(m, k, bl, mr, kr, sr));
    if (packer.f16_in) {
        KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon)(m, k, bl, mr, kr, sr, 0, xh.data(), lhs_stride * 2,
                                                                  lp.data());
    } else {
        KAI_ABI(kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon)(m, k, bl, mr, kr, sr, 0, x.data(), lhs_stride * 4,
                                                                  lp.data());
    }
    GuardedBuffer rp(KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(n, k, nr, kr, bl));
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    KAI_ABI(kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(1, n, k, nr, kr, sr, bl, rows.data(), zero.data(), b,
                                                                        scale.data(), rp.data(), 0, &params);
    const auto q = packer.f16_in ? kai_ref::quantize_qsi8d32s_f16(m, k, bl, xh.data(), lhs_stride * 2)
                                 : kai_ref::quantize_qsi8d32s_f32(m, k, bl, x.data(), lhs_stride * 4);
    float lo, hi;
    clamp_bounds(w.clamp,
                 to_double(kai_ref::matmul_qsi8d32p_qai4c32p(q, n, rows.data(), scale.data(), zero.data(), b, -FLT_MAX,
                                                             FLT_MAX)),
                 &lo, &hi);
    const std::vector<float> ref =
        kai_ref::matmul_qsi8d32p_qai4c32p(q, n, rows.data(), scale.data(), zero.data(), b, lo, hi);

    const size_t es = v.dst_elem();
    DstBuffer dst(m, n, es, w.stride_elems * es);
    const size_t lo_off = v.f16_out ? KAI_ABI(v.f16.get_lhs_packed_offset)(w.m0, k, bl)
                                    : KAI_ABI(v.f32.get_lhs_packed_offset)(w.m0, k, bl);
    const size_t ro_off = v.f16_out ? KAI_ABI(v.f16.get_rhs_packed_offset)(w.n0, k, bl)
                                    : KAI_ABI(v.f32.get_rhs_packed_offset)(w.n0, k, bl);
    const size_t dst_off = v.f16_out ? KAI_ABI(v.f16.get_dst_offset)(w.m0, w.n0, dst.stride())
                                     : KAI_ABI(v.f32.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (lo_off != KAI_ABI(packer.get_lhs_packed_offset)(w.m0, k, bl, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(w.n0, k, nr, kr, bl))
        return AssertionFailure() << "rhs packed offset differs from the packer's";
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    if (v.f16_out) {
        KAI_ABI(v.f16.run_matmul)(w.mh, w.nw, k, bl, lp.data() + lo_off, rp.data() + ro_off, dst.at(w.m0, w.n0),
                                  dst.stride(), 2, lo, hi);
        // f16 output: the f16 of the clamped f32 result, nearest even.
        std::vector<uint16_t> want(ref.size());
        for (size_t t = 0; t < ref.size(); ++t) want[t] = kai_ref::f16_from_f32(ref[t]);
        return check_u16_tile(dst, w.m0, w.mh, w.n0, w.nw, want, n);
    }
    KAI_ABI(v.f32.run_matmul)(w.mh, w.nw, k, bl, lp.data() + lo_off, rp.data() + ro_off,
                              reinterpret_cast<float*>(dst.at(w.m0, w.n0)), dst.stride(), 4, lo, hi);
    return check_f32_tile(dst, w.m0, w.mh, w.n0, w.nw, ref, n);
}

// ------------------------------------------------------------------------------------------
// Families q4k and q6k (GGUF K-quants; RHS packed from random GGUF blocks, k a multiple of 256).
// ------------------------------------------------------------------------------------------

AssertionResult run_kquant(Rng& rng, const kai_registry::KquantVariant& v, Desc& d) {
    const auto& u = v.ukernel;
    const kai_ref::Kquant f = v.q4k ? kai_ref::Kquant::q4k : kai_ref::Kquant::q6k;
    const size_t mr = u.get_mr(), nr = u.get_nr(), kr = u.get_kr(), sr = u.get_sr(), ms = u.get_m_step(), ns = u.get_n_step();
    Draw w = draw_common(rng, ms, ns, 3 * ms + 2, 3 * ns + 2, ms == 1);
    w.kxn = false;
    w.k = 256 * static_cast<size_t>(rng.integer(1, 6));
    describe(d, w);
    const size_t m = w.m, n = w.n, k = w.k;
    const size_t lhs_stride = k + pick(rng, {0, 3});
    // No tiny rows: 127 / amax overflows there, and the rounding of an infinite product is not specified.
    const std::vector<float> x = make_lhs(rng, w.data, m, k, lhs_stride, false);
    const size_t rhs_stride = k / 256 * kai_ref::kquant_block_bytes(f) + pick(rng, {0, 5});
    const std::vector<uint8_t> rows =
        kai_ref::kquant_random_rows(f, n, k, rhs_stride, rng.uniform(0.001f, 0.01f), static_cast<uint32_t>(rng.next_u64()));
    std::vector<float> bias(n);
    for (auto& b : bias) b = rng.uniform(-1.0f, 1.0f);
    const float* b = w.bias ? bias.data() : nullptr;

    GuardedBuffer lp(KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon)(m, k, mr, kr, sr));
    KAI_ABI(kai_run_lhs_quant_pack_qsi8d256p_f32_neon)(m, k, mr, kr, sr, 0, x.data(), lhs_stride * 4, lp.data());
    size_t rp_size, ro_want;
    if (v.q4k) {
        rp_size = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon)(n, k, nr, kr, sr);
        ro_want = KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_q4kp_q4k_neon)(w.n0, k, nr, kr, sr);
    } else {
        rp_size = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon)(n, k, nr, kr, sr);
        ro_want = KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_q6kp_q6k_neon)(w.n0, k, nr, kr, sr);
    }
    GuardedBuffer rp(rp_size);
    if (v.q4k) {
        KAI_ABI(kai_run_rhs_pack_nxk_q4kp_q4k_neon)(n, k, nr, kr, sr, rows.data(), rhs_stride, b, rp.data());
    } else {
        KAI_ABI(kai_run_rhs_pack_nxk_q6kp_q6k_neon)(n, k, nr, kr, sr, rows.data(), rhs_stride, b, rp.data());
    }
    float lo, hi;
    clamp_bounds(w.clamp,
                 to_double(kai_ref::kquant_matmul(f, m, n, k, x.data(), lhs_stride * 4, rows.data(), rhs_stride, b,
                                                  -FLT_MAX, FLT_MAX)),
                 &lo, &hi);
    const std::vector<float> ref =
        kai_ref::kquant_matmul(f, m, n, k, x.data(), lhs_stride * 4, rows.data(), rhs_stride, b, lo, hi);

    DstBuffer dst(m, n, 4, w.stride_elems * 4);
    const size_t lo_off = KAI_ABI(u.get_lhs_packed_offset)(w.m0, k);
    const size_t ro_off = KAI_ABI(u.get_rhs_packed_offset)(w.n0, k);
    const size_t dst_off = KAI_ABI(u.get_dst_offset)(w.m0, w.n0, dst.stride());
    if (lo_off != KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon)(w.m0, k, mr, kr, sr))
        return AssertionFailure() << "lhs packed offset differs from the packer's";
    if (ro_off != ro_want) return AssertionFailure() << "rhs packed offset differs from the packer's";
    if (dst.at(0, 0) + dst_off != dst.at(w.m0, w.n0)) return AssertionFailure() << "dst offset " << dst_off;
    KAI_ABI(u.run_matmul)(w.mh, w.nw, k, lp.data() + lo_off, rp.data() + ro_off,
                          reinterpret_cast<float*>(dst.at(w.m0, w.n0)), dst.stride(), 4, lo, hi);
    return check_f32_tile(dst, w.m0, w.mh, w.n0, w.nw, ref, n);
}

// ------------------------------------------------------------------------------------------
// The driver.
// ------------------------------------------------------------------------------------------

AssertionResult run_instance(Rng& rng, const Instance& in, Desc& d) {
    if (in.family == "qsi4cxp") return run_qsi4cxp(rng, kai_registry::qsi4cxp_variants()[in.index].ukernel, Out::kF32, d);
    if (in.family == "bf16_qsi4cxp") {
        return run_qsi4cxp(rng, kai_registry::bf16_qsi4cxp_variants()[in.index].ukernel, Out::kBf16, d);
    }
    if (in.family == "qsi4cxpf16") {
        return run_qsi4cxp(rng, kai_registry::qsi4cxpf16_variants()[in.index].ukernel, Out::kF16, d);
    }
    if (in.family == "qsi8cxp") return run_qsi8cxp(rng, kai_registry::qsi8cxp_variants()[in.index], Out::kF32, d);
    if (in.family == "qsi8cxpf16") return run_qsi8cxp(rng, kai_registry::qsi8cxpf16_variants()[in.index], Out::kF16, d);
    if (in.family == "qsi4c32p") return run_qsi4c32p(rng, kai_registry::qsi4c32p_variants()[in.index].ukernel, false, d);
    if (in.family == "bf16_qsi4c32p") {
        return run_qsi4c32p(rng, kai_registry::bf16_qsi4c32p_variants()[in.index].ukernel, true, d);
    }
    if (in.family == "qsi8d32p") return run_qsi8d32p(rng, kai_registry::qsi8d32p_variants()[in.index], d);
    if (in.family == "qsi8d32p_sme") {
        return run_qsi8d32p_sme(rng, kai_registry::qsi8d32p_sme_variants()[in.index], d);
    }
    if (in.family == "bf16" || in.family == "bf16o") return run_bf16(rng, kai_registry::bf16_variants()[in.index], d);
    if (in.family == "qai4c32p") return run_qai4c32p(rng, kai_registry::qai4c32p_variants()[in.index], d);
    if (in.family == "bf16f16") return run_bf16f16(rng, kai_registry::bf16f16_variants()[in.index], d);
    if (in.family == "q4k" || in.family == "q6k") return run_kquant(rng, kai_registry::kquant_variants()[in.index], d);
    return AssertionFailure() << "unknown family " << in.family;
}

std::string instance_label(const Instance& in) {
    std::string s = in.name;
    if (in.svl != 0) s += " @SVL" + std::to_string(in.svl * 8);
    if (in.sve != 0) s += " @VL" + std::to_string(in.sve * 8);
    return s;
}

TEST(Property, RandomCasesMatchTheReferences) {
    const uint64_t base = env_u64("KAI_PROPERTY_SEED", 20);
    const uint64_t first = env_u64("KAI_PROPERTY_FIRST", 0);
    const uint64_t max_cases = env_u64("KAI_PROPERTY_CASES", 0);  // 0: as many as the time allows
    const bool cases_set = max_cases != 0;
    const double seconds = env_double("KAI_PROPERTY_SECONDS", cases_set ? 1e9 : (kai_test::reduced_sweep() ? 20 : 60));

    std::vector<Instance> runnable;
    std::vector<std::string> skipped;
    for (const Instance& in : all_instances()) {
        const std::string missing = kai_test::missing_features(in.features);
        bool ok = missing.empty();
        if (ok && in.svl != 0) ok = set_vl(PR_SME_SET_VL, PR_SME_GET_VL, in.svl);
        if (ok && in.sve != 0) ok = set_vl(PR_SVE_SET_VL, PR_SVE_GET_VL, in.sve);
        if (ok) {
            runnable.push_back(in);
        } else {
            skipped.push_back(instance_label(in) + (missing.empty() ? " (vector length refused)" : " (lacks " + missing + ")"));
        }
    }
    std::printf("[property] %zu variant instances runnable, %zu skipped on this CPU\n", runnable.size(), skipped.size());
    for (const auto& s : skipped) std::printf("[property]   skipped: %s\n", s.c_str());
    if (runnable.empty()) GTEST_SKIP() << "no variant of any family can run on this CPU";
    std::vector<std::vector<size_t>> families;
    {
        std::map<std::string, std::vector<size_t>> by_family;
        for (size_t i = 0; i < runnable.size(); ++i) by_family[runnable[i].family].push_back(i);
        for (auto& [f, list] : by_family) families.push_back(list);
    }

    std::map<std::string, size_t> per_family, per_instance;
    const auto t0 = std::chrono::steady_clock::now();
    size_t run = 0, failures = 0;
    for (uint64_t i = first;; ++i) {
        if (cases_set && run >= max_cases) break;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (elapsed >= seconds) break;
        const uint64_t seed = case_seed(base, i);
        Rng rng(seed);
        // A family first (each equally likely), then one of its runnable instances.
        const auto& fam = families[static_cast<size_t>(rng.integer(0, families.size() - 1))];
        const Instance& in = runnable[fam[static_cast<size_t>(rng.integer(0, fam.size() - 1))]];
        if (in.svl != 0) {
            ASSERT_TRUE(set_vl(PR_SME_SET_VL, PR_SME_GET_VL, in.svl));
        }
        if (in.sve != 0) {
            ASSERT_TRUE(set_vl(PR_SVE_SET_VL, PR_SVE_GET_VL, in.sve));
        }
        Desc d;
        d.os << "case " << i << " (" << in.family << " " << instance_label(in) << ")";
        const std::string replay = "replay with --test_env=KAI_PROPERTY_SEED=" + std::to_string(base) +
                                   " --test_env=KAI_PROPERTY_FIRST=" + std::to_string(i) +
                                   " --test_env=KAI_PROPERTY_CASES=1";
        // Failures reported inside the case (the ABI trampoline, the buffers) carry the case in their trace.
        SCOPED_TRACE(d.str() + "; " + replay);
        const bool had_failure = ::testing::Test::HasFailure();
        const AssertionResult r = run_instance(rng, in, d);
        ++run;
        ++per_family[in.family];
        ++per_instance[instance_label(in)];
        if (!r || (!had_failure && ::testing::Test::HasFailure())) {
            ADD_FAILURE() << d.str() << "\n  " << r.message() << "\n  " << replay;
            if (++failures >= 5) break;
        }
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[property] seed %llu: %zu cases from case %llu in %.1f s, %zu failed; %zu of %zu instances drawn\n",
                static_cast<unsigned long long>(base), run, static_cast<unsigned long long>(first), elapsed, failures,
                per_instance.size(), runnable.size());
    for (const auto& [f, c] : per_family) std::printf("[property]   family %-14s %zu cases\n", f.c_str(), c);
    for (const auto& [v, c] : per_instance) std::printf("[property]     %4zu  %s\n", c, v.c_str());
}

}  // namespace
