// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the f16 SME/SME2 GEMMs, GEMVs and their packers (families f16p_f16p, f16_f16p), from their registry. The packed
// sizes follow the SVL of the running thread (the emulator's or the CPU's default).
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

#include "benchmark/bench_matmul.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/reference_common.h"
#include "test/reference/sme_f16_ref.h"
#include "test/registry/sme_f16_registry.h"

namespace kai_bench {

namespace {

using kai_registry::SmeF16GemvVariant;
using kai_registry::SmeF16LhsPacker;
using kai_registry::SmeF16RhsPacker;
using kai_registry::SmeF16Variant;

std::vector<uint16_t> random_f16(size_t n, uint64_t seed) {
    const std::vector<float> f = kai_test::random_f32(n, -1.0f, 1.0f, seed);
    std::vector<uint16_t> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = kai_ref::f16_from_f32(f[i]);
    return h;
}

const SmeF16RhsPacker* kxn_packer() {
    for (const auto& p : kai_registry::sme_f16_rhs_packers())
        if (p.kxn) return &p;
    return nullptr;
}

// A GEMM (v) or a GEMV (g): the GEMV reads the f16 rows directly, one call per row.
class SmeF16Problem : public MatmulProblem {
public:
    SmeF16Problem(const SmeF16Variant* v, const SmeF16GemvVariant* g, const Shape& s) : v_(v), g_(g), s_(s) {}
    size_t m_step() const override { return g_ ? 1 : v_->ukernel.get_m_step(); }
    size_t n_step() const override { return g_ ? g_->ukernel.get_n_step() : v_->ukernel.get_n_step(); }
    size_t mr() const override { return g_ ? 1 : v_->ukernel.get_mr(); }
    size_t nr() const { return g_ ? g_->ukernel.get_nr() : v_->ukernel.get_nr(); }
    // 0 on a CPU without the kernel's features: the size getters read the SVL (RDSVL), which needs SME.
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(g_ ? g_->features : v_->features).empty()) return 0;
        return static_cast<double>(kxn_packer()->get_rhs_packed_size(s_.n, s_.k));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(g_ ? g_->name : v_->name) + s_.str());
        lhs_ = random_f16(s_.m * s_.k, seed);
        rhs_ = random_f16(s_.k * s_.n, seed + 1);  // K x N
        bias_ = random_f16(s_.n, seed + 2);
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        kxn_packer()->run(1, s_.n, s_.k, nr(), 2, 1, s_.n * 2, rhs_.data(), bias_.data(), nullptr,
                          rhs_packed_[0].data(), 0, nullptr);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        dst_.assign(s_.m * s_.n, 0);
        if (g_) return;
        const SmeF16LhsPacker& lp = kai_registry::sme_f16_lhs_packers().at(0);
        lhs_packed_.assign(lp.get_lhs_packed_size(s_.m, s_.k, mr(), 2, 1), 0);
        pack_lhs(0, s_.m);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        if (g_) return;
        const SmeF16LhsPacker& lp = kai_registry::sme_f16_lhs_packers().at(0);
        lp.run(m1 - m0, s_.k, mr(), 2, 1, 0, lhs_.data() + m0 * s_.k, s_.k * 2,
               lhs_packed_.data() + lp.get_lhs_packed_offset(m0, s_.k, mr(), 2, 1));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        if (g_) {
            const auto& gk = g_->ukernel;
            for (size_t r = m0; r < m1; ++r) {
                gk.run_matmul(1, n1 - n0, s_.k, lhs_.data() + r * s_.k, s_.k * 2,
                              rhs_packed_[copy].data() + gk.get_rhs_packed_offset(n0, s_.k), dst_.data() + r * s_.n + n0,
                              s_.n * 2, 2, -FLT_MAX, FLT_MAX);
            }
            return;
        }
        const auto& uk = v_->ukernel;
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k), dst_.data() + m0 * s_.n + n0,
                      s_.n * 2, 2, -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<uint16_t> a, w(s_.k * cols.size()), bias;
        for (size_t r : rows) a.insert(a.end(), lhs_.begin() + static_cast<long>(r * s_.k),
                                        lhs_.begin() + static_cast<long>((r + 1) * s_.k));
        for (size_t kk = 0; kk < s_.k; ++kk)
            for (size_t j = 0; j < cols.size(); ++j) w[kk * cols.size() + j] = rhs_[kk * s_.n + cols[j]];
        for (size_t c : cols) bias.push_back(bias_[c]);
        std::vector<double> exact, abs_sum;
        kai_ref::sme_matmul_f16_exact(a.data(), w.data(), bias.data(), rows.size(), cols.size(), s_.k, &exact, &abs_sum);
        for (size_t i = 0; i < rows.size(); ++i)
            for (size_t j = 0; j < cols.size(); ++j) {
                const size_t e = i * cols.size() + j;
                const double want = kai_ref::f32_from_f16(kai_ref::sme_f16_output(exact[e], -FLT_MAX, FLT_MAX, g_ ? g_->fclamp : v_->fclamp));
                const double got = kai_ref::f32_from_f16(dst_[rows[i] * s_.n + cols[j]]);
                const double bound = kai_ref::sme_f16_error_bound(abs_sum[e], s_.k, std::fmax(std::fabs(got), std::fabs(want)));
                if (!(std::fabs(got - want) <= bound)) {
                    std::ostringstream os;
                    os.precision(9);
                    os << "(" << rows[i] << ", " << cols[j] << "): got " << got << ", reference " << want << ", bound "
                       << bound;
                    return os.str();
                }
            }
        return "";
    }

    void release() override {
        std::vector<uint16_t>().swap(lhs_);
        std::vector<uint16_t>().swap(rhs_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<uint16_t>().swap(dst_);
    }

private:
    const SmeF16Variant* v_;
    const SmeF16GemvVariant* g_;
    Shape s_;
    std::vector<uint16_t> lhs_, rhs_, bias_, dst_;
    std::vector<uint8_t> lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    for (const SmeF16LhsPacker& lp : kai_registry::sme_f16_lhs_packers()) {
        struct State {
            std::vector<uint16_t> src;
            std::vector<uint8_t> packed;
            size_t mr = 0;
        };
        auto st = std::make_shared<State>();
        const SmeF16LhsPacker* pk = &lp;
        PackerSpec p;
        p.name = lp.name;
        p.family = "f16p_f16p";
        p.kind = "lhs_packer";
        p.features = lp.features;
        p.shape = {m, 0, k};
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = 128;  // a multiple of mr = 2 * SVL / 32 at every SVL up to 2048 bits
        p.prepare = [st, pk, m, k] {
            st->src = random_f16(m * k, 61);
            st->mr = kai_registry::sme_f16_variants().at(0).ukernel.get_mr();
            st->packed.assign(pk->get_lhs_packed_size(m, k, st->mr, 2, 1), 0);
        };
        p.pack = [st, pk, k](size_t b, size_t e) {
            pk->run(e - b, k, st->mr, 2, 1, 0, st->src.data() + b * k, k * 2,
                    st->packed.data() + pk->get_lhs_packed_offset(b, k, st->mr, 2, 1));
        };
        p.check = [st, m, k](bool) {
            const std::vector<uint8_t> ref = kai_ref::sme_pack_lhs_x16p2vlx2(st->src.data(), m, k, k, st->mr);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    for (const SmeF16RhsPacker& rp : kai_registry::sme_f16_rhs_packers()) {
        struct State {
            std::vector<uint16_t> src, bias;  // K x N (kxn packer) or N x K
            std::vector<uint8_t> packed;
            size_t nr = 0;
        };
        auto st = std::make_shared<State>();
        const SmeF16RhsPacker* pk = &rp;
        PackerSpec p;
        p.name = rp.name;
        p.family = "f16p_f16p";
        p.kind = "rhs_packer";
        p.features = rp.features;
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = 128;  // a multiple of nr at every SVL up to 2048 bits
        p.prepare = [st, pk, n, k] {
            st->src = random_f16(k * n, 62);
            st->bias = random_f16(n, 63);
            st->nr = pk->get_n_step();
            st->packed.assign(pk->get_rhs_packed_size(n, k), 0);
        };
        p.pack = [st, pk, n, k](size_t b, size_t e) {
            const size_t stride = (pk->kxn ? n : k) * 2;
            const uint16_t* src = pk->kxn ? st->src.data() + b : st->src.data() + b * k;
            pk->run(1, e - b, k, st->nr, 2, 1, stride, src, st->bias.data() + b, nullptr,
                    st->packed.data() + pk->get_rhs_packed_offset(b, k), 0, nullptr);
        };
        p.check = [st, pk, n, k](bool) {
            const std::vector<uint8_t> ref =
                kai_ref::sme_pack_rhs_x16p2vlx2b(st->src.data(), pk->kxn, pk->kxn ? n : k, st->bias.data(), n, k, st->nr);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_sme_f16_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const SmeF16Variant& v : kai_registry::sme_f16_variants()) {
        // The small emulated shapes (bf16 = true): SME is emulated in software, like BF16.
        for (const Shape& s : suite_shapes(opt, false, true)) {
            add_matmul_cases(opt, v.name, "f16 pack+kernel", "f16p_f16p", v.features, s, 0, "GFLOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new SmeF16Problem(&v, nullptr, s)); }, out);
        }
    }
    for (const SmeF16GemvVariant& g : kai_registry::sme_f16_gemv_variants()) {
        for (const Shape& s : suite_shapes(opt, true, true)) {
            add_matmul_cases(opt, g.name, "", "f16_f16p", g.features, s, 0, "GFLOP/s",
                             [&g, s] { return std::unique_ptr<MatmulProblem>(new SmeF16Problem(nullptr, &g, s)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
