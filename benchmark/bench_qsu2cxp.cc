// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the 2-bit per-channel family (qai8dxp x qsu2cxp, llama.cpp's KleidiAI path), from its
// registry, with the symmetric look-up table {-3, -1, 1, 3}. The SME2 kernels' packed sizes and tiles follow the SVL
// of the running thread.
#include <cfloat>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/qsu2cxp_ref.h"
#include "test/registry/qsu2cxp_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Qsu2cxpVariant;

const kai_rhs_pack_qs4cxs1s0_param kParams = {1, 2};
const int32_t kLut[4] = {-3, -1, 1, 3};

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
    kai_test::Rng rng(seed);
    std::vector<uint8_t> r(n);
    for (auto& b : r) b = static_cast<uint8_t>(rng.integer(0, 255));
    return r;
}

class I2cxProblem : public MatmulProblem {
public:
    I2cxProblem(const Qsu2cxpVariant& v, const Shape& s) : v_(v), s_(s) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    // 0 for an SME2 kernel on a CPU without SME: the getters read the SVL (RDSVL), which needs SME.
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(v_.features).empty()) return 0;
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        return static_cast<double>(
            sme() ? kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(s_.n, s_.k, nr, kr, sr)
                  : kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(s_.n, s_.k, nr, kr, sr));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        w_ = random_bytes(s_.n * s_.k / 4, seed + 1);
        scale_ = kai_test::random_f32(s_.n, 0.0005f, 0.02f, seed + 2);
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 3);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        auto* pack = sme() ? kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon : kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon;
        pack(1, s_.n, s_.k, nr, kr, sr, w_.data(), bias_.data(), scale_.data(), rhs_packed_[0].data(), 0, &kParams, kLut);
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
        // The NEON GEMV takes one row per call.
        const size_t rows = std::strstr(v_.name, "_1x4_neon") ? 1 : m1 - m0;
        for (size_t i = m0; i < m1; i += rows) {
            uk.run_matmul(rows, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(i, s_.k),
                          rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k),
                          reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(i, n0, stride)),
                          stride, sizeof(float), -FLT_MAX, FLT_MAX, kLut);
        }
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        // Reference on the sampled rows and columns: those LHS rows packed by the reference packer (one row per
        // block) and those channels' codes.
        std::vector<float> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(rows.size(), s_.k, 1));
        kai_ref::pack_qai8dxp(rows.size(), s_.k, 1, kr, sr, 0, lhs_rows.data(), s_.k * sizeof(float), packed.data());
        const kai_ref::Qai8dxpUnpacked q = kai_ref::unpack_qai8dxp(packed.data(), rows.size(), s_.k, 1, kr, sr);
        std::vector<uint8_t> w_cols;
        std::vector<float> scale_cols, bias_cols;
        for (size_t c : cols) {
            w_cols.insert(w_cols.end(), &w_[c * s_.k / 4], &w_[c * s_.k / 4] + s_.k / 4);
            scale_cols.push_back(scale_[c]);
            bias_cols.push_back(bias_[c]);
        }
        using kai_ref::Qsu2Epilogue;
        const Qsu2Epilogue e = std::strstr(v_.name, "_sme2_mopa")  ? Qsu2Epilogue::kSme2Mopa
                               : std::strstr(v_.name, "_sme2_dot") ? Qsu2Epilogue::kSme2Dot
                               : std::strstr(v_.name, "_8x4_")     ? Qsu2Epilogue::kNeonGemm
                                                                    : Qsu2Epilogue::kNeonGemv;
        const std::vector<float> ref = kai_ref::matmul_qai8dxp_qsu2cx(q, cols.size(), s_.k, w_cols.data(), kLut,
                                                                      scale_cols.data(), bias_cols.data(), -FLT_MAX,
                                                                      FLT_MAX, e);
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
    bool sme() const { return (v_.features & KAI_FEATURE_SME2) != 0; }
    const Qsu2cxpVariant& v_;
    Shape s_;
    std::vector<float> lhs_, scale_, bias_, dst_;
    std::vector<uint8_t> w_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

// The two RHS packers at the default depth: the NEON kernels' (nr 4) and the SME2 kernels' (nr 64, 4VL at SVL 512;
// a NEON packer, it runs anywhere).
void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    for (int vl = 0; vl < 2; ++vl) {
        struct State {
            std::vector<uint8_t> w, packed;
            std::vector<float> scale, bias;
        };
        auto st = std::make_shared<State>();
        const size_t nr = vl ? 64 : 4;
        auto* size_fn = vl ? kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
                           : kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon;
        auto* offset_fn = vl ? kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
                             : kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon;
        auto* run_fn = vl ? kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon : kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon;
        PackerSpec p;
        p.name = vl ? "kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon" : "kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon";
        p.family = "qsu2cxp";
        p.kind = "rhs_packer";
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = nr;
        p.prepare = [st, n, k, nr, size_fn] {
            st->w = random_bytes(n * k / 4, 22);
            st->scale = kai_test::random_f32(n, 0.0005f, 0.02f, 23);
            st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 24);
            st->packed.assign(size_fn(n, k, nr, 4, 1), 0);
        };
        p.pack = [st, k, nr, offset_fn, run_fn](size_t b, size_t e) {
            run_fn(1, e - b, k, nr, 4, 1, st->w.data() + b * k / 4, st->bias.data() + b, st->scale.data() + b,
                   st->packed.data() + offset_fn(b, k, nr, 4, 1), 0, &kParams, kLut);
        };
        p.check = [st, n, k, nr, vl](bool) {
            const std::vector<uint8_t> ref =
                vl ? kai_ref::pack_qsu2cxp4vlx4(n, k, nr, st->w.data(), st->bias.data(), st->scale.data(), kLut)
                   : kai_ref::pack_qsu2cxp4x4(n, k, st->w.data(), st->bias.data(), st->scale.data(), kLut);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_qsu2cxp_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const Qsu2cxpVariant& v : kai_registry::qsu2cxp_variants()) {
        // From the name: an SME kernel's m_step getter needs SME (RDSVL). GEMVs have a 1xN tile.
        const bool gemv = std::strstr(v.name, "_1x") != nullptr;
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            if (s.k % 32 != 0) continue;  // the family takes K in multiples of 32
            add_matmul_cases(opt, v.name, "qai8dxp pack+kernel", "qsu2cxp", v.features, s, 0, "GOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new I2cxProblem(v, s)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
