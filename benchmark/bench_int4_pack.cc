// SPDX-License-Identifier: Apache-2.0
// Benchmark cases of the int4 RHS packers beside the portable ones: the NEON nrx4 / nrx8 block-wise RHS packers and
// the packers of KleidiAI's SME-side layouts (qsi4cxps1s0, qsi4c32ps1s0 nxk / kxn, the two Q4_0 RHS
// layouts and the qsi8d32p LHS with the scales last), each checked against test/reference. The
// parameters are those of their consumers: nr 8 / 4 with kr 16 / 8 (NEON kernels), nr 16 at an SME
// vector length of 128 bits (kr 4 or 8), mr 4 for the LHS.
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.h"
#include "test/common/rng.h"
#include "test/reference/int4_pack_ref.h"
#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"

namespace kai_bench {

namespace {

struct State {
    std::vector<uint8_t> src, scales, packed;
    std::vector<float> lhs, scale, bias;
};

// One block-wise bf16-scale RHS packer (nxk or kxn) with its reference.
using C32Run = void (*)(size_t, size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*, size_t, const float*,
                        const void*, size_t, void*, size_t, const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params*);
using C32Offset = size_t (*)(size_t, size_t, size_t, size_t, size_t, size_t, kai_datatype);
using C32Ref = std::vector<uint8_t> (*)(size_t n, size_t k, size_t nr, size_t bl, const uint8_t* rhs, size_t stride,
                                        const float* bias, const uint8_t* scale, size_t scale_stride);

void run_kxn(size_t g, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs, size_t rs,
             const float* bias, const void* scale, size_t ss, void* out, size_t extra,
             const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params* p) {
    const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params q{p->lhs_zero_point, p->rhs_zero_point, p->scale_dt};
    kai_run_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(g, n, k, nr, kr, sr, bl, rhs, rs, bias, scale, ss, out, extra,
                                                          &q);
}

std::vector<uint8_t> ref_nrx4(size_t n, size_t k, size_t nr, size_t bl, const uint8_t* r, size_t s, const float* b,
                              const uint8_t* sc, size_t ss) {
    return kai_ref::pack_qsi4c32p_nxk_chunk_sums(n, k, nr, 4, bl, r, s, b, sc, ss);
}
std::vector<uint8_t> ref_nrx8(size_t n, size_t k, size_t nr, size_t bl, const uint8_t* r, size_t s, const float* b,
                              const uint8_t* sc, size_t ss) {
    return kai_ref::pack_qsi4c32p_nxk_chunk_sums(n, k, nr, 8, bl, r, s, b, sc, ss);
}

void add_c32(const Options& opt, const char* name, C32Run run, C32Offset offset, C32Ref ref, size_t nr, size_t kr,
             bool kxn, std::vector<BenchCase>& out) {
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t bl = opt.bl, sr = 2;
    if (k % bl != 0 || bl % kr != 0) return;
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = name;
    p.family = "qsi4c32p";
    p.kind = "rhs_packer";
    p.shape = {0, n, k};
    p.bl = bl;
    p.elements = static_cast<double>(n * k);
    p.extent = n;
    p.granule = nr;
    const size_t stride = kxn ? (n + 1) / 2 : k / 2;
    const size_t scale_stride = 2 * (k / bl);
    p.prepare = [st, n, k, bl, kxn, stride, offset, nr, kr, scale_stride] {
        st->src = kai_test::random_bytes((kxn ? k : n) * stride, 41);
        const auto s = kai_test::random_f32(n * (k / bl), 0.002f, 0.05f, 42);
        st->scales.resize(2 * s.size());
        for (size_t i = 0; i < s.size(); ++i) {
            const uint16_t h = kai_ref::bf16_from_f32(s[i]);
            std::memcpy(&st->scales[2 * i], &h, 2);
        }
        st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 43);
        st->packed.assign(offset(kai_div_ceil(n, nr) * nr, k, nr, kr, sr, bl, kai_dt_bf16), 0);
        (void)scale_stride;
    };
    p.pack = [st, k, bl, kxn, stride, run, offset, nr, kr, scale_stride](size_t b, size_t e) {
        const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
        run(1, e - b, k, nr, kr, sr, bl, st->src.data() + (kxn ? b / 2 : b * stride), stride, st->bias.data() + b,
            st->scales.data() + b * scale_stride, scale_stride, st->packed.data() + offset(b, k, nr, kr, sr, bl, kai_dt_bf16),
            0, &params);
    };
    p.check = [st, n, k, bl, stride, ref, nr, scale_stride](bool) {
        const auto want = ref(n, k, nr, bl, st->src.data(), stride, st->bias.data(), st->scales.data(), scale_stride);
        if (want.size() != st->packed.size()) return std::string("packed size differs from the reference");
        return compare_bytes(st->packed.data(), want.data(), want.size(), nullptr, "packed RHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

void add_cxps1s0(const Options& opt, std::vector<BenchCase>& out) {
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t nr = 16, kr = 4, sr = 1, row = (k + 1) / 2;
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = "kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon";
    p.family = "qsi4cxp";
    p.kind = "rhs_packer";
    p.shape = {0, n, k};
    p.elements = static_cast<double>(n * k);
    p.extent = n;
    p.granule = nr;
    p.prepare = [st, n, k, row] {
        st->src = kai_test::random_bytes(n * row, 51);
        st->scale = kai_test::random_f32(n, 0.001f, 0.01f, 52);
        st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 53);
        st->packed.assign(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, nr, kr, sr), 0);
    };
    p.pack = [st, k, row](size_t b, size_t e) {
        const kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params params = {1, 8};
        kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(
            1, e - b, k, nr, kr, sr, st->src.data() + b * row, st->bias.data() + b, st->scale.data() + b,
            st->packed.data() + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(b, k, nr, kr, sr), 0,
            &params);
    };
    p.check = [st, n, k](bool) {
        const auto want = kai_ref::pack_qsi4cxps1s0(n, k, nr, kr, st->src.data(), st->bias.data(), st->scale.data(), 8);
        if (want.size() != st->packed.size()) return std::string("packed size differs from the reference");
        return compare_bytes(st->packed.data(), want.data(), want.size(), nullptr, "packed RHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

using Q40Run = void (*)(size_t, size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*, const float*, void*,
                        size_t, const kai_rhs_pack_qs4cxs1s0_param*);
using Q40Offset = size_t (*)(size_t, size_t, size_t, size_t, size_t);
using Q40Ref = std::vector<uint8_t> (*)(size_t, size_t, size_t, size_t, const uint8_t*);

void add_q40(const Options& opt, const char* name, Q40Run run, Q40Offset offset, Q40Ref ref,
             std::vector<BenchCase>& out) {
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t bl = opt.bl, nr = 16, kr = 4;
    if (k % bl != 0 || bl > 256) return;
    const size_t row = kai_ref::q4_0_row_bytes(k, bl);
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = name;
    p.family = "qsi8d32p";
    p.kind = "rhs_packer";
    p.shape = {0, n, k};
    p.bl = bl;
    p.elements = static_cast<double>(n * k);
    p.extent = n;
    p.granule = nr;
    p.prepare = [st, n, k, bl, row, offset] {
        st->src = kai_test::random_bytes(n * row, 61);
        const auto d = kai_test::random_f32(n * (k / bl), -0.06f, 0.06f, 62);
        for (size_t b = 0; b < d.size(); ++b) {
            const uint16_t h = kai_ref::f16_from_f32(d[b]);
            std::memcpy(&st->src[b * (bl / 2 + 2)], &h, 2);
        }
        st->packed.assign(offset(kai_div_ceil(n, nr) * nr, k, nr, kr, bl), 0);
    };
    p.pack = [st, k, bl, row, run, offset](size_t b, size_t e) {
        const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
        run(1, e - b, k, nr, kr, 2, bl, st->src.data() + b * row, nullptr, st->packed.data() + offset(b, k, nr, kr, bl),
            0, &params);
    };
    p.check = [st, n, k, bl, ref](bool) {
        const auto want = ref(n, k, bl, nr, st->src.data());
        if (want.size() != st->packed.size()) return std::string("packed size differs from the reference");
        return compare_bytes(st->packed.data(), want.data(), want.size(), nullptr, "packed RHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

void add_lhs_neon(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t bl = opt.bl, mr = 4, kr = 4, sr = 1;
    if (k % bl != 0 || m == 0) return;
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = "kai_lhs_quant_pack_qsi8d32p_f32_neon";
    p.family = "qsi8d32p";
    p.kind = "lhs_packer";
    p.shape = {m, 0, k};
    p.bl = bl;
    p.elements = static_cast<double>(m * k);
    p.extent = m;
    p.granule = mr;
    p.prepare = [st, m, k, bl] {
        st->lhs = kai_test::random_f32(m * k, -3.0f, 3.0f, 71);
        st->packed.assign(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, kr, sr), 0);
    };
    p.pack = [st, k, bl](size_t b, size_t e) {
        kai_run_lhs_quant_pack_qsi8d32p_f32_neon(
            e - b, k, bl, mr, kr, sr, 0, st->lhs.data() + b * k, k * sizeof(float),
            st->packed.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon(b, k, bl, mr, kr, sr));
    };
    p.check = [st, m, k, bl](bool) {
        const auto q = kai_ref::quantize_qsi8d32(m, k, bl, st->lhs.data(), k * sizeof(float),
                                                 kai_ref::Q8Rounding::kTiesAway);
        std::vector<uint8_t> mask;
        const auto want = kai_ref::pack_qsi8d32p_scales_last(q, mr, 0, &mask);
        if (want.size() != st->packed.size()) return std::string("packed size differs from the reference");
        return compare_bytes(st->packed.data(), want.data(), want.size(), mask.data(), "packed LHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

}  // namespace

void add_int4_pack_cases(const Options& opt, std::vector<BenchCase>& out) {
    add_cxps1s0(opt, out);
    add_c32(opt, "kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon", kai_run_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon,
            kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon, ref_nrx4, 4, 8, false, out);
    add_c32(opt, "kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon", kai_run_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon,
            kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon, ref_nrx8, 8, 16, false, out);
    add_c32(opt, "kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon",
            kai_run_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon,
            kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon, kai_ref::pack_qsi4c32ps1s0_nxk, 16, 8,
            false, out);
    add_c32(opt, "kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon", run_kxn,
            kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon, kai_ref::pack_qsi4c32ps1s0_kxn, 16, 8,
            true, out);
    add_q40(opt, "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon",
            kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon,
            kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon,
            kai_ref::pack_qsi4c32ps1s0scalef16, out);
    add_q40(opt, "kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon",
            kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon,
            kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon, kai_ref::pack_qsi4c32ps4s0sf16,
            out);
    add_lhs_neon(opt, out);
}

}  // namespace kai_bench
