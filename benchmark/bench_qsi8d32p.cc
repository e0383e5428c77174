// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the GGUF Q4_0 family (qsi8d32p x qsi4c32p), from its registry: the NEON / SVE kernels
// (RHS kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0) and the SME / SME2 GEMVs (LHS
// kai_lhs_quant_pack_qsi8d32p_f32_neon; RHS kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon for sme2_sdot,
// kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon for its SME twin, verified on the rows as that packer stores
// them, as sme_q4_0_test does).
#include <cfloat>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi8d32p_registry.h"

namespace kai_bench {

std::vector<uint8_t> random_q4_0_rows(size_t n, size_t k, size_t bl, uint64_t seed) {
    const size_t block = bl / 2 + 2;
    std::vector<uint8_t> rows = kai_test::random_bytes(n * (k / bl) * block, seed);
    const std::vector<float> d = kai_test::random_f32(n * (k / bl), -0.06f, 0.06f, seed + 1);
    for (size_t b = 0; b < d.size(); ++b) {
        const uint16_t h = kai_ref::f16_from_f32(d[b]);
        std::memcpy(&rows[b * block], &h, 2);
    }
    return rows;
}

namespace {

using kai_registry::Qsi8d32pLhsPacker;
using kai_registry::Qsi8d32pVariant;

// The packed RHS layout a kernel reads.
enum class Rhs {
    kScalef16,      // kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0 (NEON / SVE kernels)
    kS1s0Scalef16,  // kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon (SME2 sdot GEMV)
    kS4s0Sf16,      // kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon (its SME twin: scales f16(d / 16))
};

// The SME GEMVs' LHS packer (scales after the data, docs/formats.md, "Q4_0 layouts of the SME kernels"; ties away from zero).
const Qsi8d32pLhsPacker kSmeLhsPacker = {
    "kai_lhs_quant_pack_qsi8d32p_f32_neon", 0, false, kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon,
    kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon, kai_run_lhs_quant_pack_qsi8d32p_f32_neon};

class Q40Problem : public MatmulProblem {
public:
    Q40Problem(const Qsi8d32pVariant& v, const Qsi8d32pLhsPacker& lp, const Shape& s, size_t bl, Rhs rhs)
        : v_(v), lp_(lp), s_(s), bl_(bl), rhs_(rhs) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    // 0 for an SME kernel on a CPU without its features: its getters read the SVL (RDSVL, SME only).
    double packed_rhs_bytes() const override {
        const size_t n = s_.n, k = s_.k;
        switch (rhs_) {
            case Rhs::kScalef16:
                return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
                    n, k, v_.ukernel.get_nr(), v_.ukernel.get_kr(), bl_));
            case Rhs::kS1s0Scalef16:
                if (!kai_test::missing_features(v_.features).empty()) return 0;
                return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(
                    n, k, v_.ukernel.get_nr(), v_.ukernel.get_kr(), bl_));
            case Rhs::kS4s0Sf16:
                if (!kai_test::missing_features(v_.features).empty()) return 0;
                return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(
                    n, k, v_.ukernel.get_nr(), v_.ukernel.get_kr(), bl_));
        }
        return 0;
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        rows_ = random_q4_0_rows(s_.n, s_.k, bl_, seed + 1);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
        uint8_t* out = rhs_packed_[0].data();
        switch (rhs_) {
            case Rhs::kScalef16:
                kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, s_.n, s_.k, nr, kr, sr, bl_, rows_.data(), nullptr,
                                                                   out, 0, &params);
                break;
            case Rhs::kS1s0Scalef16:
                kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(1, s_.n, s_.k, nr, kr, sr, bl_, rows_.data(),
                                                                            nullptr, out, 0, &params);
                break;
            case Rhs::kS4s0Sf16:
                kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(1, s_.n, s_.k, nr, kr, sr, bl_, rows_.data(),
                                                                        nullptr, out, 0, &params);
                break;
        }
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(lp_.get_lhs_packed_size(s_.m, s_.k, bl_, mr(), kr, sr), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0.0f);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        lp_.run(m1 - m0, s_.k, bl_, mr(), kr, sr, 0, lhs_.data() + m0 * s_.k, s_.k * sizeof(float),
                lhs_packed_.data() + lp_.get_lhs_packed_offset(m0, s_.k, bl_, mr(), kr, sr));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * sizeof(float);
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, bl_, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k, bl_),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k, bl_),
                      reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(m0, n0, stride)),
                      stride, sizeof(float), -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<float> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        const kai_ref::Qsi8d32 q = kai_ref::quantize_qsi8d32(
            rows.size(), s_.k, bl_, lhs_rows.data(), s_.k * sizeof(float),
            lp_.ties_to_even ? kai_ref::Q8Rounding::kTiesEven : kai_ref::Q8Rounding::kTiesAway);
        const size_t rb = kai_ref::q4_0_row_bytes(s_.k, bl_);
        std::vector<uint8_t> w;
        for (size_t c : cols) w.insert(w.end(), &rows_[c * rb], &rows_[c * rb] + rb);
        if (rhs_ == Rhs::kS4s0Sf16) w = kai_ref::q4_0_rows_scales_via_sixteenths(w.data(), cols.size(), s_.k, bl_);
        const std::vector<float> ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, cols.size(), w.data(), -FLT_MAX, FLT_MAX);
        return compare_sampled_bits(dst_.data(), s_.n, rows, cols, ref);
    }

    void release() override {
        std::vector<float>().swap(lhs_);
        std::vector<uint8_t>().swap(rows_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<float>().swap(dst_);
    }

private:
    const Qsi8d32pVariant& v_;
    const Qsi8d32pLhsPacker& lp_;
    Shape s_;
    size_t bl_;
    Rhs rhs_;
    std::vector<float> lhs_, dst_;
    std::vector<uint8_t> rows_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t bl = opt.bl;
    if (k % bl != 0) return;
    for (const Qsi8d32pLhsPacker& lp : kai_registry::qsi8d32p_lhs_packers()) {
        const size_t mr = 4, kr = 16, sr = 2;  // the i8mm kernels' layout, accepted by every packer
        struct State {
            std::vector<float> lhs;
            std::vector<uint8_t> packed;
        };
        auto st = std::make_shared<State>();
        const Qsi8d32pLhsPacker* pk = &lp;
        PackerSpec p;
        p.name = lp.name;
        p.family = "qsi8d32p";
        p.kind = "lhs_packer";
        p.features = lp.features;
        p.shape = {m, 0, k};
        p.bl = bl;
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = mr;
        p.prepare = [st, pk, m, k, bl] {
            st->lhs = kai_test::random_f32(m * k, -1.0f, 1.0f, 51);
            st->packed.assign(pk->get_lhs_packed_size(m, k, bl, mr, kr, sr), 0);
        };
        p.pack = [st, pk, k, bl](size_t b, size_t e) {
            pk->run(e - b, k, bl, mr, kr, sr, 0, st->lhs.data() + b * k, k * sizeof(float),
                    st->packed.data() + pk->get_lhs_packed_offset(b, k, bl, mr, kr, sr));
        };
        p.check = [st, pk, m, k, bl](bool) {
            const kai_ref::Qsi8d32 q = kai_ref::quantize_qsi8d32(
                m, k, bl, st->lhs.data(), k * sizeof(float),
                pk->ties_to_even ? kai_ref::Q8Rounding::kTiesEven : kai_ref::Q8Rounding::kTiesAway);
            std::vector<uint8_t> mask;
            const std::vector<uint8_t> ref = kai_ref::pack_qsi8d32p(q, mr, kr / sr, 0, &mask);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    {
        const size_t nr = 4, kr = 16, sr = 2;
        struct State {
            std::vector<uint8_t> rows, packed;
        };
        auto st = std::make_shared<State>();
        PackerSpec p;
        p.name = "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0";
        p.family = "qsi8d32p";
        p.kind = "rhs_packer";
        p.shape = {0, n, k};
        p.bl = bl;
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = nr;
        p.prepare = [st, n, k, bl] {
            st->rows = random_q4_0_rows(n, k, bl, 52);
            st->packed.assign(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n, k, nr, kr, bl), 0);
        };
        p.pack = [st, k, bl](size_t b, size_t e) {
            const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
            kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
                1, e - b, k, nr, kr, sr, bl, st->rows.data() + b * kai_ref::q4_0_row_bytes(k, bl), nullptr,
                st->packed.data() + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(b, k, nr, kr, bl),
                0, &params);
        };
        p.check = [st, n, k, bl](bool) {
            const std::vector<uint8_t> ref = kai_ref::pack_qsi4c32pscalef16(n, k, bl, nr, kr, st->rows.data());
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_qsi8d32p_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const Qsi8d32pVariant& v : kai_registry::qsi8d32p_variants()) {
        const std::vector<const Qsi8d32pLhsPacker*> packers = kai_registry::qsi8d32p_lhs_packers_for(v);
        if (packers.empty()) continue;
        // The pairing engines use: the ties-to-even 4x8sb packer for the i8mm kernels where it
        // applies, the scalar packer otherwise.
        const Qsi8d32pLhsPacker* lp = packers.front();
        for (const Qsi8d32pLhsPacker* p : packers) {
            if (p->ties_to_even) lp = p;
        }
        const bool gemv = v.ukernel.get_m_step() == 1;
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            if (s.k % opt.bl != 0) continue;
            const size_t bl = opt.bl;
            add_matmul_cases(opt, v.name, std::string(lp->ties_to_even ? "q8 4x8sb" : "q8") + " pack+kernel", "qsi8d32p",
                             v.features, s, bl, "GOP/s",
                             [&v, lp, s, bl] {
                                 return std::unique_ptr<MatmulProblem>(new Q40Problem(v, *lp, s, bl, Rhs::kScalef16));
                             },
                             out);
        }
    }
    for (const Qsi8d32pVariant& v : kai_registry::qsi8d32p_sme_variants()) {
        const Rhs rhs = std::strstr(v.name, "_sme_dot") != nullptr ? Rhs::kS4s0Sf16 : Rhs::kS1s0Scalef16;
        // The small emulated shapes (bf16 = true): SME is emulated in software.
        for (const Shape& s : suite_shapes(opt, true, true)) {
            if (s.k % opt.bl != 0) continue;
            const size_t bl = opt.bl;
            add_matmul_cases(opt, v.name, "q8 pack+kernel", "qsi8d32p", v.features, s, bl, "GOP/s",
                             [&v, s, bl, rhs] {
                                 return std::unique_ptr<MatmulProblem>(new Q40Problem(v, kSmeLhsPacker, s, bl, rhs));
                             },
                             out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
