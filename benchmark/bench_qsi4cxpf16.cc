// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the f16-output INT4 and INT8 per-channel kernels (qai8dxp f16 activations x
// qsi4cxp or qsi8cxp, families qsi4cxpf16 and qsi8cxpf16) and of the f16 LHS quantizer
// kai_lhs_quant_pack_qai8dxp_f16_neon.
#include <cfloat>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/reference/qsi8cxp_ref.h"
#include "test/registry/qsi4cxpf16_registry.h"
#include "test/registry/qsi8cxpf16_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Qsi4cxpF16Variant;
using kai_registry::Qsi8cxpF16Variant;

std::vector<uint16_t> random_f16(size_t count, uint64_t seed) {
    const std::vector<float> f = kai_test::random_f32(count, -1.0f, 1.0f, seed);
    std::vector<uint16_t> h(count);
    for (size_t i = 0; i < count; ++i) h[i] = kai_cast_f16_f32(f[i]);
    return h;
}

class CxF16Problem : public MatmulProblem {
public:
    CxF16Problem(const Qsi4cxpF16Variant& v, const Shape& s) : v_(v), s_(s) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    double packed_rhs_bytes() const override {
        return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(
            s_.n, s_.k, v_.ukernel.get_nr(), v_.ukernel.get_kr(), v_.ukernel.get_sr()));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = random_f16(s_.m * s_.k, seed);
        w_ = kai_test::random_bytes(s_.n * row_bytes(), seed + 1);
        scale_ = kai_test::random_f32(s_.n, 0.002f, 0.05f, seed + 2);
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 3);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(
                                       kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(s_.n, s_.k, nr, kr, sr)));
        const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
        kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, s_.n, s_.k, nr, kr, sr, w_.data(), bias_.data(), scale_.data(),
                                              rhs_packed_[0].data(), 0, &params);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(s_.m, s_.k, mr(), kr, sr), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        kai_run_lhs_quant_pack_qai8dxp_f16_neon(
            m1 - m0, s_.k, mr(), kr, sr, 0, lhs_.data() + m0 * s_.k, s_.k * 2,
            lhs_packed_.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f16_neon(m0, s_.k, mr(), kr, sr));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * 2;
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k),
                      reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(m0, n0, stride), stride, 2, -FLT_MAX,
                      FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        // The reference packs the whole LHS (the f16 packer's bytes depend on M and mr), then the
        // sampled rows and columns go through the f32 recipe and one rounding to f16.
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(s_.m, s_.k, mr()));
        kai_ref::pack_qai8dxp_f16(s_.m, s_.k, mr(), kr, sr, 0, lhs_.data(), s_.k * 2, packed.data());
        const kai_ref::Qai8dxpUnpacked all = kai_ref::unpack_qai8dxp(packed.data(), s_.m, s_.k, mr(), kr, sr);
        kai_ref::Qai8dxpUnpacked q;
        q.m = rows.size();
        q.kp = all.kp;
        for (size_t r : rows) {
            q.q.insert(q.q.end(), all.q.begin() + static_cast<std::ptrdiff_t>(r * all.kp),
                       all.q.begin() + static_cast<std::ptrdiff_t>((r + 1) * all.kp));
            q.offset.push_back(all.offset[r]);
            q.scale.push_back(all.scale[r]);
        }
        std::vector<uint8_t> w_cols;
        std::vector<float> scale_cols, bias_cols;
        for (size_t c : cols) {
            w_cols.insert(w_cols.end(), &w_[c * row_bytes()], &w_[c * row_bytes()] + row_bytes());
            scale_cols.push_back(scale_[c]);
            bias_cols.push_back(bias_[c]);
        }
        const std::vector<int8_t> wv = kai_ref::qs4_nxk_values(w_cols.data(), cols.size(), s_.k, 8);
        const std::vector<float> ref = kai_ref::matmul_qai8dxp_qsi4cx(q, cols.size(), s_.k, wv.data(), scale_cols.data(),
                                                                      bias_cols.data(), -FLT_MAX, FLT_MAX);
        for (size_t i = 0; i < rows.size(); ++i) {
            for (size_t j = 0; j < cols.size(); ++j) {
                const uint16_t got = dst_[rows[i] * s_.n + cols[j]];
                const uint16_t want = kai_cast_f16_f32(ref[i * cols.size() + j]);
                if (got != want) {
                    return "(" + std::to_string(rows[i]) + ", " + std::to_string(cols[j]) + "): got f16 bits " +
                           std::to_string(got) + ", reference " + std::to_string(want);
                }
            }
        }
        return "";
    }

    void release() override {
        std::vector<uint16_t>().swap(lhs_);
        std::vector<uint8_t>().swap(w_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<uint16_t>().swap(dst_);
    }

private:
    size_t row_bytes() const { return (s_.k + 1) / 2; }
    const Qsi4cxpF16Variant& v_;
    Shape s_;
    std::vector<uint16_t> lhs_, dst_;
    std::vector<float> scale_, bias_;
    std::vector<uint8_t> w_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

class I8F16Problem : public MatmulProblem {
public:
    I8F16Problem(const Qsi8cxpF16Variant& v, const Shape& s) : v_(v), s_(s) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    // 0 for an SME kernel on a CPU without SME: the getters read the SVL (RDSVL), which needs SME.
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(v_.features).empty()) return 0;
        return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(
            s_.n, s_.k, v_.ukernel.get_nr(), v_.ukernel.get_kr(), v_.ukernel.get_sr()));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = random_f16(s_.m * s_.k, seed);
        w_ = kai_test::random_bytes(s_.n * row_bytes(), seed + 1);
        scale_ = kai_test::random_f32(s_.n, 0.002f, 0.05f, seed + 2);
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 3);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(
                                       kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(s_.n, s_.k, nr, kr, sr)));
        const kai_rhs_pack_qsi8cx_params params = {1, 1.0f};
        kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, s_.n, s_.k, nr, kr, sr, reinterpret_cast<const int8_t*>(w_.data()),
                                                bias_.data(), scale_.data(), rhs_packed_[0].data(), 0, &params);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(s_.m, s_.k, mr(), kr, sr), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        kai_run_lhs_quant_pack_qai8dxp_f16_neon(
            m1 - m0, s_.k, mr(), kr, sr, 0, lhs_.data() + m0 * s_.k, s_.k * 2,
            lhs_packed_.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f16_neon(m0, s_.k, mr(), kr, sr));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * 2;
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k),
                      reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(m0, n0, stride), stride, 2, -FLT_MAX,
                      FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        // The reference packs the whole LHS (the f16 packer's bytes depend on M and mr), then the
        // sampled rows and columns go through the f32 recipe and one rounding to f16.
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(s_.m, s_.k, mr()));
        kai_ref::pack_qai8dxp_f16(s_.m, s_.k, mr(), kr, sr, 0, lhs_.data(), s_.k * 2, packed.data());
        const kai_ref::Qai8dxpUnpacked all = kai_ref::unpack_qai8dxp(packed.data(), s_.m, s_.k, mr(), kr, sr);
        kai_ref::Qai8dxpUnpacked q;
        q.m = rows.size();
        q.kp = all.kp;
        for (size_t r : rows) {
            q.q.insert(q.q.end(), all.q.begin() + static_cast<std::ptrdiff_t>(r * all.kp),
                       all.q.begin() + static_cast<std::ptrdiff_t>((r + 1) * all.kp));
            q.offset.push_back(all.offset[r]);
            q.scale.push_back(all.scale[r]);
        }
        std::vector<uint8_t> w_cols;
        std::vector<float> scale_cols, bias_cols;
        for (size_t c : cols) {
            w_cols.insert(w_cols.end(), &w_[c * row_bytes()], &w_[c * row_bytes()] + row_bytes());
            scale_cols.push_back(scale_[c]);
            bias_cols.push_back(bias_[c]);
        }
        const std::vector<int8_t> wv(w_cols.begin(), w_cols.end());
        // The SME2 kernels: FCLAMP, and the DOT GEMV fuses scale and bias (docs/formats.md, "SME matmul recipes").
        const bool sme = (v_.features & (KAI_FEATURE_SME | KAI_FEATURE_SME2)) != 0;
        const std::vector<float> ref =
            kai_ref::matmul_qai8dxp_qsi8cx(q, cols.size(), s_.k, wv.data(), scale_cols.data(), bias_cols.data(), -FLT_MAX,
                                           FLT_MAX, sme && std::strstr(v_.name, "_dot") != nullptr, sme);
        for (size_t i = 0; i < rows.size(); ++i) {
            for (size_t j = 0; j < cols.size(); ++j) {
                const uint16_t got = dst_[rows[i] * s_.n + cols[j]];
                const uint16_t want = kai_cast_f16_f32(ref[i * cols.size() + j]);
                if (got != want) {
                    return "(" + std::to_string(rows[i]) + ", " + std::to_string(cols[j]) + "): got f16 bits " +
                           std::to_string(got) + ", reference " + std::to_string(want);
                }
            }
        }
        return "";
    }

    void release() override {
        std::vector<uint16_t>().swap(lhs_);
        std::vector<uint8_t>().swap(w_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<uint16_t>().swap(dst_);
    }

private:
    size_t row_bytes() const { return s_.k; }
    const Qsi8cxpF16Variant& v_;
    Shape s_;
    std::vector<uint16_t> lhs_, dst_;
    std::vector<float> scale_, bias_;
    std::vector<uint8_t> w_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_f16_lhs_packer(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t mr = 4, kr = 16, sr = 2;
    struct State {
        std::vector<uint16_t> lhs;
        std::vector<uint8_t> packed;
    };
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = "kai_lhs_quant_pack_qai8dxp_f16_neon";
    p.family = "qai8dxp";
    p.kind = "lhs_packer";
    p.features = KAI_FEATURE_FP16;
    p.shape = {m, 0, k};
    p.elements = static_cast<double>(m * k);
    p.extent = m;
    p.granule = mr;
    p.prepare = [st, m, k] {
        st->lhs = random_f16(m * k, 31);
        st->packed.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(m, k, mr, kr, sr), 0);
    };
    p.pack = [st, k](size_t b, size_t e) {
        kai_run_lhs_quant_pack_qai8dxp_f16_neon(
            e - b, k, mr, kr, sr, 0, st->lhs.data() + b * k, k * 2,
            st->packed.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f16_neon(b, k, mr, kr, sr));
    };
    p.check = [st, m, k](bool) {
        std::vector<uint8_t> ref(st->packed.size());
        kai_ref::pack_qai8dxp_f16(m, k, mr, kr, sr, 0, st->lhs.data(), k * 2, ref.data());
        const std::vector<uint8_t> mask = kai_ref::qai8dxp_written_mask(m, k, mr, kr, sr);
        return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed LHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

}  // namespace

void add_qsi4cxpf16_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const Qsi4cxpF16Variant& v : kai_registry::qsi4cxpf16_variants()) {
        const bool gemv = v.ukernel.get_m_step() == 1;
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            add_matmul_cases(opt, v.name, "qai8dxp f16 pack+kernel", "qsi4cxpf16", v.features, s, 0, "GOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new CxF16Problem(v, s)); }, out);
        }
    }
    for (const Qsi8cxpF16Variant& v : kai_registry::qsi8cxpf16_variants()) {
        const bool gemv = std::strstr(v.name, "_1x") != nullptr;  // the SME getters need the SVL
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            add_matmul_cases(opt, v.name, "qai8dxp f16 pack+kernel", "qsi8cxpf16", v.features, s, 0, "GOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new I8F16Problem(v, s)); }, out);
        }
    }
    add_f16_lhs_packer(opt, out);
}

}  // namespace kai_bench
