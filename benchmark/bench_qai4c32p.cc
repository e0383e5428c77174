// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the asymmetric int4 families (qsi8d32p x qai4c32p, f32 and f16 output), from
// their registry: kernels with the f32-input LHS packer (the SME2 kernels with the nrx4 s0s1 RHS packer), and the
// five packers.
#include <cfloat>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/qai4c32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qai4c32p_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Qai4c32pVariant;

// AWQ-style weights: random nibbles, scales in [0.002, 0.05), integer zero points (zero = s (8 - zp)).
struct Weights {
    std::vector<uint8_t> rows;
    std::vector<float> scale, zero, bias;
};

Weights random_weights(size_t n, size_t k, size_t bl, uint64_t seed) {
    Weights w;
    w.rows = kai_test::random_bytes(n * k / 2, seed);
    w.scale = kai_test::random_f32(n * (k / bl), 0.002f, 0.05f, seed + 1);
    const std::vector<uint8_t> zp = kai_test::random_bytes(n * (k / bl), seed + 2);
    w.zero.resize(w.scale.size());
    for (size_t i = 0; i < w.zero.size(); ++i) w.zero[i] = w.scale[i] * static_cast<float>(8 - (zp[i] & 15));
    w.bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 3);
    return w;
}

class A4Problem : public MatmulProblem {
public:
    A4Problem(const Qai4c32pVariant& v, const Shape& s, size_t bl, bool sme2) : v_(v), s_(s), bl_(bl), sme2_(sme2) {}
    size_t m_step() const override { return v_.m_step(); }
    size_t n_step() const override { return v_.n_step(); }
    size_t mr() const override { return v_.mr(); }
    double packed_rhs_bytes() const override {
        return static_cast<double>(
            sme2_ ? kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(s_.n, s_.k, v_.nr(), v_.kr(), bl_)
                  : kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(s_.n, s_.k, v_.nr(), v_.kr(), bl_));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        w_ = random_weights(s_.n, s_.k, bl_, seed + 1);
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
        (sme2_ ? kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon
               : kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon)(1, s_.n, s_.k, v_.nr(), v_.kr(), v_.sr(), bl_,
                                                                           w_.rows.data(), w_.zero.data(), w_.bias.data(),
                                                                           w_.scale.data(), rhs_packed_[0].data(), 0, &params);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f32_neon(s_.m, s_.k, bl_, mr(), v_.kr(), v_.sr()), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n * v_.dst_elem(), 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon(
            m1 - m0, s_.k, bl_, mr(), v_.kr(), v_.sr(), 0, lhs_.data() + m0 * s_.k, s_.k * sizeof(float),
            lhs_packed_.data() +
                kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon(m0, s_.k, bl_, mr(), v_.kr(), v_.sr()));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const size_t es = v_.dst_elem(), stride = s_.n * es;
        if (v_.f16_out) {
            const auto& uk = v_.f16;
            uk.run_matmul(m1 - m0, n1 - n0, s_.k, bl_, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k, bl_),
                          rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k, bl_),
                          dst_.data() + uk.get_dst_offset(m0, n0, stride), stride, es, -FLT_MAX, FLT_MAX);
        } else {
            const auto& uk = v_.f32;
            uk.run_matmul(m1 - m0, n1 - n0, s_.k, bl_, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k, bl_),
                          rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k, bl_),
                          reinterpret_cast<float*>(dst_.data() + uk.get_dst_offset(m0, n0, stride)), stride, es,
                          -FLT_MAX, FLT_MAX);
        }
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<float> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        const kai_ref::Qsi8d32s q =
            kai_ref::quantize_qsi8d32s_f32(rows.size(), s_.k, bl_, lhs_rows.data(), s_.k * sizeof(float));
        const size_t nb = s_.k / bl_;
        std::vector<uint8_t> wr;
        std::vector<float> sc, ze, bi;
        for (size_t c : cols) {
            wr.insert(wr.end(), &w_.rows[c * s_.k / 2], &w_.rows[c * s_.k / 2] + s_.k / 2);
            sc.insert(sc.end(), &w_.scale[c * nb], &w_.scale[c * nb] + nb);
            ze.insert(ze.end(), &w_.zero[c * nb], &w_.zero[c * nb] + nb);
            bi.push_back(w_.bias[c]);
        }
        const kai_ref::Sme2Recipe recipe = std::strstr(v_.name, "_mopa") == nullptr ? kai_ref::Sme2Recipe::kDot
                                           : v_.f16_out                              ? kai_ref::Sme2Recipe::kMopaF16
                                                                                     : kai_ref::Sme2Recipe::kMopa;
        const std::vector<float> ref =
            sme2_ ? kai_ref::matmul_qsi8d32p_qai4c32p_sme2(q, cols.size(), wr.data(), sc.data(), ze.data(), bi.data(),
                                                          -FLT_MAX, FLT_MAX, recipe)
                  : kai_ref::matmul_qsi8d32p_qai4c32p(q, cols.size(), wr.data(), sc.data(), ze.data(), bi.data(), -FLT_MAX,
                                                      FLT_MAX);
        if (!v_.f16_out) return compare_sampled_bits(reinterpret_cast<const float*>(dst_.data()), s_.n, rows, cols, ref);
        for (size_t i = 0; i < rows.size(); ++i) {
            for (size_t j = 0; j < cols.size(); ++j) {
                uint16_t got;
                std::memcpy(&got, dst_.data() + (rows[i] * s_.n + cols[j]) * 2, 2);
                if (got != kai_ref::f16_from_f32(ref[i * cols.size() + j])) {
                    return "dst[" + std::to_string(rows[i]) + "][" + std::to_string(cols[j]) + "] differs from the reference";
                }
            }
        }
        return "";
    }

    void release() override {
        std::vector<float>().swap(lhs_);
        w_ = Weights();
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<uint8_t>().swap(dst_);
    }

private:
    const Qai4c32pVariant& v_;
    Shape s_;
    size_t bl_;
    bool sme2_;
    std::vector<float> lhs_;
    Weights w_;
    std::vector<uint8_t> lhs_packed_, dst_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t bl = opt.bl;
    if (k % bl != 0 || bl % 32 != 0) return;
    for (int f16 = 0; f16 < 2; ++f16) {
        const size_t mr = 4, kr = 16, sr = 2;  // the i8mm kernels' layout
        struct State {
            std::vector<float> lhs;
            std::vector<uint16_t> lhs16;
            std::vector<uint8_t> packed;
        };
        auto st = std::make_shared<State>();
        PackerSpec p;
        p.name = f16 ? "kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon" : "kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon";
        p.family = "qai4c32p";
        p.kind = "lhs_packer";
        p.features = f16 ? KAI_FEATURE_FP16 : 0;
        p.shape = {m, 0, k};
        p.bl = bl;
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = mr;
        p.prepare = [st, m, k, bl] {
            st->lhs = kai_test::random_f32(m * k, -1.0f, 1.0f, 61);
            st->lhs16.resize(m * k);
            for (size_t i = 0; i < m * k; ++i) st->lhs16[i] = kai_ref::f16_from_f32(st->lhs[i]);
            st->packed.assign(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f32_neon(m, k, bl, mr, kr, sr), 0);
        };
        p.pack = [st, f16, k, bl](size_t b, size_t e) {
            uint8_t* dst = st->packed.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon(b, k, bl, mr, kr, sr);
            if (f16) {
                kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon(e - b, k, bl, mr, kr, sr, 0, st->lhs16.data() + b * k, k * 2, dst);
            } else {
                kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon(e - b, k, bl, mr, kr, sr, 0, st->lhs.data() + b * k, k * 4, dst);
            }
        };
        p.check = [st, f16, m, k, bl](bool) {
            const kai_ref::Qsi8d32s q = f16 ? kai_ref::quantize_qsi8d32s_f16(m, k, bl, st->lhs16.data(), k * 2)
                                            : kai_ref::quantize_qsi8d32s_f32(m, k, bl, st->lhs.data(), k * 4);
            std::vector<uint8_t> mask;
            const std::vector<uint8_t> ref = kai_ref::pack_qsi8d32pscalef32(q, mr, kr / sr, 0, &mask);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    using Run = void (*)(size_t, size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*, const void*, const void*,
                         const void*, void*, size_t, const kai_rhs_pack_qs4cxs1s0_param*);
    using Offset = size_t (*)(size_t, size_t, size_t, size_t, size_t);
    struct Rhs {
        const char* name;
        Run run;
        Offset offset;
        size_t nr, kr;
        int layout;  // 0: NEON kernels' layout, 1: nrx4 from s0s1, 2: nrx4 from s1s0
    };
    const Rhs rhs[] = {
        {"kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon", kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon,
         kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon, 4, 16, 0},
        {"kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon",
         kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon,
         kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon, 16, 8, 1},
        {"kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon",
         kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon,
         kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon, 16, 8, 2},
    };
    for (const Rhs& r : rhs) {
        auto st = std::make_shared<Weights>();
        auto packed = std::make_shared<std::vector<uint8_t>>();
        PackerSpec p;
        p.name = r.name;
        p.family = "qai4c32p";
        p.kind = "rhs_packer";
        p.shape = {0, n, k};
        p.bl = bl;
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = r.nr;
        p.prepare = [st, packed, n, k, bl, r] {
            *st = random_weights(n, k, bl, 62);
            packed->assign(kai_ref::qai4c32p_packed_size(n, k, bl, r.nr), 0);
        };
        p.pack = [st, packed, k, bl, r](size_t b, size_t e) {
            const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
            const size_t nb = k / bl;
            r.run(1, e - b, k, r.nr, r.kr, 2, bl, st->rows.data() + b * k / 2, st->zero.data() + b * nb, st->bias.data() + b,
                  st->scale.data() + b * nb, packed->data() + r.offset(b, k, r.nr, r.kr, bl), 0, &params);
        };
        p.check = [st, packed, n, k, bl, r](bool) {
            std::vector<uint8_t> ref;
            if (r.layout == 0) {
                ref = kai_ref::pack_qai4c32p(n, k, bl, r.nr, r.kr, st->rows.data(), st->scale.data(), st->zero.data(),
                                             st->bias.data());
            } else {
                std::vector<uint8_t> rows = st->rows;  // the s1s0 packer reads the same nibbles swapped
                ref = kai_ref::pack_qai4c32ps1s0nrx4(n, k, bl, r.nr, rows.data(), r.layout == 1, st->scale.data(),
                                                     st->zero.data(), st->bias.data());
            }
            if (ref.size() != packed->size()) return std::string("packed size differs from the reference");
            return compare_bytes(packed->data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st, packed] {
            *st = Weights();
            std::vector<uint8_t>().swap(*packed);
        };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_qai4c32p_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const bool sme2 : {false, true}) {
        for (const Qai4c32pVariant& v : sme2 ? kai_registry::qai4c32p_sme2_variants() : kai_registry::qai4c32p_variants()) {
            const bool gemv = std::strstr(v.name, "_1x4") != nullptr;
            const std::string family = v.f16_out ? "f16_qai4c32p" : "qai4c32p";
            for (const Shape& s : suite_shapes(opt, gemv, false)) {
                if (s.k % opt.bl != 0 || opt.bl % 32 != 0) continue;
                const size_t bl = opt.bl;
                add_matmul_cases(opt, v.name, "q8 scalef32 pack+kernel", family, v.features, s, bl, "GOP/s",
                                 [&v, s, bl, sme2] { return std::unique_ptr<MatmulProblem>(new A4Problem(v, s, bl, sme2)); },
                                 out);
            }
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
