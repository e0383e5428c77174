// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the INT4 block-wise family (qai8dxp x qsi4c32p), from its registry; the SME2 kernels take the
// SME-side RHS packer (kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon) at this thread's SVL.
#include <cfloat>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"
#include "test/common/rng.h"
#include "test/reference/qsi4c32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi4c32p_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Qsi4c32pVariant;

// Random block-wise int4 weights: N rows of K/2 bytes (unsigned nibbles, zero point 8) and
// N x K/bl bf16 scales.
struct C32Weights {
    std::vector<uint8_t> w;
    std::vector<uint16_t> scales;
    std::vector<float> bias;
    void make(size_t n, size_t k, size_t bl, uint64_t seed) {
        w = kai_test::random_bytes(n * (k / 2), seed);
        const std::vector<float> s = kai_test::random_f32(n * (k / bl), 0.002f, 0.05f, seed + 1);
        scales.resize(s.size());
        for (size_t i = 0; i < s.size(); ++i) scales[i] = kai_ref::bf16_from_f32(s[i]);
        bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    }
};

class C32Problem : public MatmulProblem {
public:
    C32Problem(const Qsi4c32pVariant& v, const Shape& s, size_t bl)
        : v_(v), s_(s), bl_(bl), sme2_(std::strstr(v.name, "_sme2_") != nullptr) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    double packed_rhs_bytes() const override {
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        return static_cast<double>(
            sme2_ ? kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(s_.n, s_.k, nr, kr, sr, bl_, kai_dt_bf16)
                  : kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(s_.n, s_.k, nr, kr, sr, bl_, kai_dt_bf16));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        wt_.make(s_.n, s_.k, bl_, seed + 1);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
        (sme2_ ? kai_run_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon : kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(
            1, s_.n, s_.k, nr, kr, sr, bl_, wt_.w.data(), s_.k / 2, wt_.bias.data(), wt_.scales.data(),
            (s_.k / bl_) * 2, rhs_packed_[0].data(), 0, &params);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(s_.m, s_.k, mr(), kr, sr), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0.0f);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        kai_run_lhs_quant_pack_qai8dxp_f32(
            m1 - m0, s_.k, mr(), kr, sr, 0, lhs_.data() + m0 * s_.k, s_.k * sizeof(float),
            lhs_packed_.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(m0, s_.k, mr(), kr, sr));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * sizeof(float);
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, bl_, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k, bl_),
                      reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(m0, n0, stride)),
                      stride, sizeof(float), -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<float> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr(), nb = s_.k / bl_;
        std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(rows.size(), s_.k, 1));
        kai_ref::pack_qai8dxp(rows.size(), s_.k, 1, kr, sr, 0, lhs_rows.data(), s_.k * sizeof(float), packed.data());
        const kai_ref::Qai8dxpUnpacked q = kai_ref::unpack_qai8dxp(packed.data(), rows.size(), s_.k, 1, kr, sr);
        std::vector<int8_t> w;
        std::vector<float> d, row_sum, bias;
        for (size_t c : cols) {
            for (size_t kk = 0; kk < s_.k; ++kk) {
                w.push_back(static_cast<int8_t>(kai_ref::qsu4_nxk_nibble(wt_.w.data(), s_.k / 2, c, kk) - 8));
            }
            for (size_t b = 0; b < nb; ++b) d.push_back(kai_ref::f32_from_bf16(wt_.scales[c * nb + b]));
            // The SME-side nxk packer rounds the row sum once per 32-chunk (a group of 16 bytes).
            row_sum.push_back(kai_ref::qsi4c32p_row_sum(&w[w.size() - s_.k], &d[d.size() - nb], s_.k, bl_, sme2_ ? 16 : kr / sr));
            bias.push_back(wt_.bias[c]);
        }
        const std::vector<float> ref =
            (sme2_ ? kai_ref::matmul_qai8dxp_qsi4c32_sme2 : kai_ref::matmul_qai8dxp_qsi4c32)(
                q, cols.size(), s_.k, bl_, w.data(), d.data(), row_sum.data(), bias.data(), -FLT_MAX, FLT_MAX);
        return compare_sampled_bits(dst_.data(), s_.n, rows, cols, ref);
    }

    void release() override {
        std::vector<float>().swap(lhs_);
        wt_ = C32Weights();
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<float>().swap(dst_);
    }

private:
    const Qsi4c32pVariant& v_;
    Shape s_;
    size_t bl_;
    bool sme2_;
    std::vector<float> lhs_, dst_;
    C32Weights wt_;
    std::vector<uint8_t> lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t bl = opt.bl, nr = 8, kr = 16, sr = 2;
    if (k % bl != 0) return;
    for (int kxn = 0; kxn < 2; ++kxn) {
        struct State {
            C32Weights wt;
            std::vector<uint8_t> src, packed;  // src: the weights in the packer's layout
        };
        auto st = std::make_shared<State>();
        PackerSpec p;
        p.name = kxn ? "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0" : "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0";
        p.family = "qsi4c32p";
        p.kind = "rhs_packer";
        p.shape = {0, n, k};
        p.bl = bl;
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = nr;
        const size_t stride = kxn ? (n + 1) / 2 : k / 2;
        p.prepare = [st, n, k, bl, kxn] {
            st->wt.make(n, k, bl, 31);
            st->src = st->wt.w;
            if (kxn) {  // the same weights, stored K x N
                st->src.assign(k * ((n + 1) / 2), 0);
                for (size_t j = 0; j < n; ++j) {
                    for (size_t kk = 0; kk < k; ++kk) {
                        const uint8_t v = kai_ref::qsu4_nxk_nibble(st->wt.w.data(), k / 2, j, kk);
                        st->src[kk * ((n + 1) / 2) + j / 2] |= static_cast<uint8_t>(v << ((j % 2) * 4));
                    }
                }
            }
            st->packed.assign(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(n, k, nr, kr, sr, bl, kai_dt_bf16), 0);
        };
        p.pack = [st, k, bl, kxn, stride](size_t b, size_t e) {
            uint8_t* dst = st->packed.data() +
                           kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(b, k, nr, kr, sr, bl, kai_dt_bf16);
            const uint16_t* scales = st->wt.scales.data() + b * (k / bl);
            if (kxn) {
                const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
                kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0(1, e - b, k, nr, kr, sr, bl, st->src.data() + b / 2, stride,
                                                         st->wt.bias.data() + b, scales, (k / bl) * 2, dst, 0, &params);
            } else {
                const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
                kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, e - b, k, nr, kr, sr, bl, st->src.data() + b * stride,
                                                         stride, st->wt.bias.data() + b, scales, (k / bl) * 2, dst, 0,
                                                         &params);
            }
        };
        p.check = [st, n, k, bl, kxn, stride](bool) {
            const std::vector<uint8_t> ref =
                kxn ? kai_ref::pack_qsi4c32p_kxn(n, k, nr, kr, sr, bl, st->src.data(), stride, st->wt.bias.data(),
                                                 reinterpret_cast<const uint8_t*>(st->wt.scales.data()), (k / bl) * 2)
                    : kai_ref::pack_qsi4c32p_nxk(n, k, nr, kr, sr, bl, st->src.data(), stride, st->wt.bias.data(),
                                                 reinterpret_cast<const uint8_t*>(st->wt.scales.data()), (k / bl) * 2);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_qsi4c32p_cases(const Options& opt, std::vector<BenchCase>& out) {
    // The NEON and the SME2 kernels, in stable storage (the cases keep references).
    static const std::vector<Qsi4c32pVariant> all = [] {
        std::vector<Qsi4c32pVariant> v = kai_registry::qsi4c32p_variants();
        v.insert(v.end(), kai_registry::qsi4c32p_sme2_variants().begin(), kai_registry::qsi4c32p_sme2_variants().end());
        return v;
    }();
    for (const Qsi4c32pVariant& v : all) {
        const bool gemv = v.ukernel.get_m_step() == 1;
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            if (s.k % opt.bl != 0) continue;  // the family needs K to be a multiple of bl
            const size_t bl = opt.bl;
            add_matmul_cases(opt, v.name, "qai8dxp pack+kernel", "qsi4c32p", v.features, s, bl, "GOP/s",
                             [&v, s, bl] { return std::unique_ptr<MatmulProblem>(new C32Problem(v, s, bl)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
