// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the INT4 per-channel family (qai8dxp x qsi4cxp), from its registry.
#include <cfloat>
#include <cstring>
#include <memory>
#include <sstream>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/reference/qsi8cxp_ref.h"
#include "test/registry/qsi4cxp_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Qsi4cxpVariant;

class CxProblem : public MatmulProblem {
public:
    CxProblem(const Qsi4cxpVariant& v, const Shape& s) : v_(v), s_(s) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    // 0 for an SME kernel on a CPU without SME: the getters read the SVL (RDSVL), which needs SME.
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(v_.features).empty()) return 0;
        return static_cast<double>(rhs_size());
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        w_ = kai_test::random_bytes(s_.n * row_bytes(), seed + 1);
        scale_ = kai_test::random_f32(s_.n, 0.002f, 0.05f, seed + 2);
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 3);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(rhs_size()));
        const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
        if (sme2()) {  // KleidiAI's SME2 kernels: "qsi4cxps1s0 RHS"; the SME (SME1) ones read "qsi4cxp RHS"
            kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(1, s_.n, s_.k, nr, kr, sr, w_.data(), bias_.data(),
                                                             scale_.data(), rhs_packed_[0].data(), 0, &params);
        } else {
            kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, s_.n, s_.k, nr, kr, sr, w_.data(), bias_.data(), scale_.data(),
                                                  rhs_packed_[0].data(), 0, &params);
        }
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
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k),
                      reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(m0, n0, stride)),
                      stride, sizeof(float), -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        // Reference on the sampled rows and columns only: quantize those LHS rows with the
        // reference packer (one row per block) and take those channels' weights.
        std::vector<float> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(rows.size(), s_.k, 1));
        kai_ref::pack_qai8dxp(rows.size(), s_.k, 1, kr, sr, 0, lhs_rows.data(), s_.k * sizeof(float), packed.data());
        const kai_ref::Qai8dxpUnpacked q = kai_ref::unpack_qai8dxp(packed.data(), rows.size(), s_.k, 1, kr, sr);
        std::vector<uint8_t> w_cols;
        std::vector<float> scale_cols, bias_cols;
        for (size_t c : cols) {
            w_cols.insert(w_cols.end(), &w_[c * row_bytes()], &w_[c * row_bytes()] + row_bytes());
            scale_cols.push_back(scale_[c]);
            bias_cols.push_back(bias_[c]);
        }
        const std::vector<int8_t> wv = kai_ref::qs4_nxk_values(w_cols.data(), cols.size(), s_.k, 8);
        // The SME2 kernels: the "qsi8cxp matmul" recipe on the nibbles, the GEMV's scale and bias fused, FCLAMP. The
        // SME (SME1) GEMM: the NEON kernels' recipe; its GEMV: fused, FMAX / FMIN.
        const std::vector<float> ref =
            sme2() || gemv_dot() ? kai_ref::matmul_qai8dxp_qsi8cx(q, cols.size(), s_.k, wv.data(), scale_cols.data(),
                                                                 bias_cols.data(), -FLT_MAX, FLT_MAX, gemv_dot(), sme2())
                  : kai_ref::matmul_qai8dxp_qsi4cx(q, cols.size(), s_.k, wv.data(), scale_cols.data(),
                                                   bias_cols.data(), -FLT_MAX, FLT_MAX);
        return compare_sampled_bits(dst_.data(), s_.n, rows, cols, ref);
    }

    void release() override {
        std::vector<float>().swap(lhs_);
        std::vector<uint8_t>().swap(w_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<float>().swap(dst_);
    }

private:
    size_t row_bytes() const { return (s_.k + 1) / 2; }
    bool sme2() const { return (v_.features & KAI_FEATURE_SME2) != 0; }
    // KleidiAI's SME / SME2 DOT GEMVs ("_sme_dot", "_sme2_sdot"; not the NEON "_dotprod" kernels): scale and bias fused.
    bool gemv_dot() const {
        return (v_.features & (KAI_FEATURE_SME | KAI_FEATURE_SME2)) != 0 && std::strstr(v_.name, "dot") != nullptr;
    }
    size_t rhs_size() const {
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        return sme2() ? kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(s_.n, s_.k, nr, kr, sr)
                      : kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(s_.n, s_.k, nr, kr, sr);
    }
    const Qsi4cxpVariant& v_;
    Shape s_;
    std::vector<float> lhs_, scale_, bias_, dst_;
    std::vector<uint8_t> w_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

// The LHS quantizer (shared with the block-wise family) and the two RHS packers, at the default
// decode/prefill depth.
void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t mr = 4, nr = 8, kr = 16, sr = 2;
    {
        struct State {
            std::vector<float> lhs;
            std::vector<uint8_t> packed;
        };
        auto st = std::make_shared<State>();
        PackerSpec p;
        p.name = "kai_lhs_quant_pack_qai8dxp_f32";
        p.family = "qai8dxp";
        p.kind = "lhs_packer";
        p.shape = {m, 0, k};
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = mr;
        p.prepare = [st, m, k] {
            st->lhs = kai_test::random_f32(m * k, -1.0f, 1.0f, 21);
            st->packed.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr), 0);
        };
        p.pack = [st, k](size_t b, size_t e) {
            kai_run_lhs_quant_pack_qai8dxp_f32(e - b, k, mr, kr, sr, 0, st->lhs.data() + b * k, k * sizeof(float),
                                              st->packed.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(b, k, mr, kr, sr));
        };
        p.check = [st, m, k](bool) {
            std::vector<uint8_t> ref(st->packed.size());
            kai_ref::pack_qai8dxp(m, k, mr, kr, sr, 0, st->lhs.data(), k * sizeof(float), ref.data());
            const std::vector<uint8_t> mask = kai_ref::qai8dxp_written_mask(m, k, mr, kr, sr);
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    for (int kxn = 0; kxn < 2; ++kxn) {
        struct State {
            std::vector<uint8_t> w, packed;
            std::vector<float> scale, bias;
        };
        auto st = std::make_shared<State>();
        PackerSpec p;
        p.name = kxn ? "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0" : "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0";
        p.family = "qsi4cxp";
        p.kind = "rhs_packer";
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        // The kxn signature derives the source stride from n: it packs all columns in one call.
        p.granule = kxn ? n : nr;
        const size_t src_bytes = kxn ? k * ((n + 1) / 2) : n * ((k + 1) / 2);
        p.prepare = [st, n, k, src_bytes] {
            st->w = kai_test::random_bytes(src_bytes, 22);
            st->scale = kai_test::random_f32(n, 0.002f, 0.05f, 23);
            st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 24);
            st->packed.assign(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kr, sr), 0);
        };
        p.pack = [st, n, k, kxn](size_t b, size_t e) {
            if (kxn) {
                const kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0_params params = {1, 8};
                kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(1, n, k, nr, kr, sr, st->w.data(), st->bias.data(),
                                                      st->scale.data(), st->packed.data(), 0, &params);
                return;
            }
            const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
            kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(
                1, e - b, k, nr, kr, sr, st->w.data() + b * ((k + 1) / 2), st->bias.data() + b, st->scale.data() + b,
                st->packed.data() + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(b, k, nr, kr, sr), 0,
                &params);
        };
        p.check = [st, n, k, kxn](bool) {
            const std::vector<uint8_t> ref =
                kxn ? kai_ref::pack_qsi4cxp_kxn(n, k, nr, kr, sr, st->w.data(), st->bias.data(), st->scale.data(), 8)
                    : kai_ref::pack_qsi4cxp_nxk(n, k, nr, kr, sr, st->w.data(), st->bias.data(), st->scale.data(), 8);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_qsi4cxp_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const Qsi4cxpVariant& v : kai_registry::qsi4cxp_variants()) {
        const bool gemv = std::strstr(v.name, "_1x") != nullptr;  // the SME getters need the SVL
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            add_matmul_cases(opt, v.name, "qai8dxp pack+kernel", "qsi4cxp", v.features, s, 0, "GOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new CxProblem(v, s)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
