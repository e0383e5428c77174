// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the f32 and bf16 SME/SME2 kernels (families f32p_f32p, f32_f32p, bf16p_sme), from their
// registry. The packed sizes follow the SVL of the running thread (the emulator's or the CPU's default).
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

#include "benchmark/bench_matmul.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/sme_float_ref.h"
#include "test/registry/sme_float_registry.h"

namespace kai_bench {

namespace {

using kai_registry::SmeFloatLhsPacker;
using kai_registry::SmeFloatRhsPacker;
using kai_registry::SmeFloatVariant;

const SmeFloatLhsPacker* lhs_packer_for(bool bf16) {
    for (const auto& p : kai_registry::sme_float_lhs_packers())
        if (p.bf16 == bf16) return &p;
    return nullptr;
}

const SmeFloatRhsPacker* rhs_packer_for(bool bf16) {
    for (const auto& p : kai_registry::sme_float_rhs_packers())
        if (p.bf16 == bf16) return &p;
    return nullptr;
}

class SmeFloatProblem : public MatmulProblem {
public:
    SmeFloatProblem(const SmeFloatVariant& v, const Shape& s)
        : v_(v), s_(s), lhs_packer_(lhs_packer_for(v.bf16)), rhs_packer_(rhs_packer_for(v.bf16)) {}
    size_t m_step() const override { return v_.is_gemv ? v_.gemv.get_m_step() : v_.packed.get_m_step(); }
    size_t n_step() const override { return v_.is_gemv ? v_.gemv.get_n_step() : v_.packed.get_n_step(); }
    size_t mr() const override { return v_.is_gemv ? 1 : v_.packed.get_mr(); }
    // 0 on a CPU without the kernel's features: the size getters read the SVL (RDSVL), which needs SME.
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(v_.features).empty()) return 0;
        return static_cast<double>(rhs_packer_->get_rhs_packed_size(s_.n, s_.k));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        rhs_ = kai_test::random_f32(s_.k * s_.n, -1.0f, 1.0f, seed + 1);  // K x N
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 2);
        const size_t nr = v_.is_gemv ? v_.gemv.get_nr() : v_.packed.get_nr();
        const size_t kr = v_.is_gemv ? v_.gemv.get_kr() : v_.packed.get_kr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        if (v_.bf16) {
            rhs_packer_->run(1, s_.n, s_.k, nr, kr, 1, s_.n * sizeof(float), rhs_.data(), bias_.data(), nullptr,
                             rhs_packed_[0].data(), 0, nullptr);
        } else {
            rhs_nxk_.resize(rhs_.size());
            for (size_t kk = 0; kk < s_.k; ++kk)
                for (size_t j = 0; j < s_.n; ++j) rhs_nxk_[j * s_.k + kk] = rhs_[kk * s_.n + j];
            rhs_packer_->run(1, s_.n, s_.k, nr, kr, 1, s_.k * sizeof(float), rhs_nxk_.data(), bias_.data(), nullptr,
                             rhs_packed_[0].data(), 0, nullptr);
        }
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        if (!v_.is_gemv) {
            lhs_packed_.assign(lhs_packer_->get_lhs_packed_size(s_.m, s_.k, mr(), kr, 1), 0);
            pack_lhs(0, s_.m);
        }
        dst_.assign(s_.m * s_.n, 0.0f);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        if (v_.is_gemv) return;  // the GEMV reads the f32 rows directly
        const size_t kr = v_.packed.get_kr();
        lhs_packer_->run(m1 - m0, s_.k, mr(), kr, 1, 0, lhs_.data() + m0 * s_.k, s_.k * sizeof(float),
                         lhs_packed_.data() + lhs_packer_->get_lhs_packed_offset(m0, s_.k, mr(), kr, 1));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const size_t stride = s_.n * sizeof(float);
        if (v_.is_gemv) {
            const auto& uk = v_.gemv;
            for (size_t r = m0; r < m1; ++r) {
                uk.run_matmul(1, n1 - n0, s_.k, lhs_.data() + r * s_.k, s_.k * sizeof(float),
                              rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k), dst_.data() + r * s_.n + n0,
                              stride, sizeof(float), -FLT_MAX, FLT_MAX);
            }
            return;
        }
        const auto& uk = v_.packed;
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k), dst_.data() + m0 * s_.n + n0,
                      stride, sizeof(float), -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<float> a, w_kxn(s_.k * cols.size()), w_nxk(s_.k * cols.size()), bias;
        for (size_t r : rows) a.insert(a.end(), lhs_.begin() + static_cast<long>(r * s_.k),
                                        lhs_.begin() + static_cast<long>((r + 1) * s_.k));
        for (size_t kk = 0; kk < s_.k; ++kk)
            for (size_t j = 0; j < cols.size(); ++j) {
                w_kxn[kk * cols.size() + j] = rhs_[kk * s_.n + cols[j]];
                w_nxk[j * s_.k + kk] = rhs_[kk * s_.n + cols[j]];
            }
        for (size_t c : cols) bias.push_back(bias_[c]);
        if (!v_.bf16) {
            const std::vector<float> ref = kai_ref::sme_matmul_f32_fma(a.data(), w_nxk.data(), bias.data(), rows.size(),
                                                                       cols.size(), s_.k, -FLT_MAX, FLT_MAX);
            return compare_sampled_bits(dst_.data(), s_.n, rows, cols, ref);
        }
        std::vector<double> exact, abs_sum;
        kai_ref::sme_matmul_bf16_exact(a.data(), w_kxn.data(), bias.data(), rows.size(), cols.size(), s_.k, &exact,
                                       &abs_sum);
        for (size_t i = 0; i < rows.size(); ++i)
            for (size_t j = 0; j < cols.size(); ++j) {
                const double want = exact[i * cols.size() + j];
                const double bound = kai_ref::sme_bf16_error_bound(abs_sum[i * cols.size() + j], s_.k);
                const double got = static_cast<double>(dst_[rows[i] * s_.n + cols[j]]);
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
        std::vector<float>().swap(lhs_);
        std::vector<float>().swap(rhs_);
        std::vector<float>().swap(rhs_nxk_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<float>().swap(dst_);
    }

private:
    const SmeFloatVariant& v_;
    Shape s_;
    const SmeFloatLhsPacker* lhs_packer_;
    const SmeFloatRhsPacker* rhs_packer_;
    std::vector<float> lhs_, rhs_, rhs_nxk_, bias_, dst_;
    std::vector<uint8_t> lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    for (const SmeFloatLhsPacker& lp : kai_registry::sme_float_lhs_packers()) {
        struct State {
            std::vector<float> f32;
            std::vector<uint8_t> packed;
            size_t mr = 0;
        };
        auto st = std::make_shared<State>();
        const SmeFloatLhsPacker* pk = &lp;
        const size_t kr = lp.bf16 ? 2 : 1;
        PackerSpec p;
        p.name = lp.name;
        p.family = lp.bf16 ? "bf16p_sme" : "f32p_f32p";
        p.kind = "lhs_packer";
        p.features = lp.features;
        p.shape = {m, 0, k};
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = 128;  // a multiple of mr = 2 * SVL / 32 at every SVL up to 2048 bits
        p.prepare = [st, pk, m, k, kr] {
            st->f32 = kai_test::random_f32(m * k, -1.0f, 1.0f, 51);
            // mr = 2 * SVL / 32, as the kernels' getters report it on this thread.
            for (const auto& v : kai_registry::sme_float_variants())
                if (!v.is_gemv && v.bf16 == pk->bf16) st->mr = v.packed.get_mr();
            st->packed.assign(pk->get_lhs_packed_size(m, k, st->mr, kr, 1), 0);
        };
        p.pack = [st, pk, k, kr](size_t b, size_t e) {
            pk->run(e - b, k, st->mr, kr, 1, 0, st->f32.data() + b * k, k * sizeof(float),
                    st->packed.data() + pk->get_lhs_packed_offset(b, k, st->mr, kr, 1));
        };
        p.check = [st, pk, m, k](bool) {
            const std::vector<uint8_t> ref = pk->bf16 ? kai_ref::sme_pack_lhs_bf16p2vlx2(st->f32.data(), m, k, k, st->mr)
                                                      : kai_ref::sme_pack_lhs_f32p2vlx1(st->f32.data(), m, k, k, st->mr);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    for (const SmeFloatRhsPacker& rp : kai_registry::sme_float_rhs_packers()) {
        struct State {
            std::vector<float> src, bias;  // K x N (kxn packers) or N x K (nxk f32 packer)
            std::vector<uint8_t> packed;
            size_t nr = 0;
        };
        auto st = std::make_shared<State>();
        const SmeFloatRhsPacker* pk = &rp;
        const size_t kr = rp.bf16 ? 2 : 1;
        PackerSpec p;
        p.name = rp.name;
        p.family = rp.bf16 ? "bf16p_sme" : "f32p_f32p";
        p.kind = "rhs_packer";
        p.features = rp.features;
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = 128;  // a multiple of nr at every SVL up to 2048 bits
        p.prepare = [st, pk, n, k] {
            st->src = kai_test::random_f32(k * n, -1.0f, 1.0f, 52);
            st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 53);
            st->nr = pk->get_n_step();
            st->packed.assign(pk->get_rhs_packed_size(n, k), 0);
        };
        p.pack = [st, pk, n, k, kr](size_t b, size_t e) {
            const size_t stride = (pk->kxn ? n : k) * sizeof(float);
            const float* src = pk->kxn ? st->src.data() + b : st->src.data() + b * k;
            pk->run(1, e - b, k, st->nr, kr, 1, stride, src, st->bias.data() + b, nullptr,
                    st->packed.data() + pk->get_rhs_packed_offset(b, k), 0, nullptr);
        };
        p.check = [st, pk, n, k](bool) {
            // The kxn f32 packer writes the nxk layout: the nxk reference of the transposed source.
            std::vector<float> nxk;
            if (pk->kxn && !pk->bf16) {
                nxk.resize(n * k);
                for (size_t kk = 0; kk < k; ++kk)
                    for (size_t j = 0; j < n; ++j) nxk[j * k + kk] = st->src[kk * n + j];
            }
            const std::vector<uint8_t> ref =
                pk->bf16  ? kai_ref::sme_pack_rhs_kxn_bf16p2vlx2b(st->src.data(), n, st->bias.data(), n, k, st->nr)
                : pk->kxn ? kai_ref::sme_pack_rhs_nxk_f32p2vlx1biasf32(nxk.data(), k, st->bias.data(), n, k, st->nr)
                          : kai_ref::sme_pack_rhs_nxk_f32p2vlx1biasf32(st->src.data(), k, st->bias.data(), n, k, st->nr);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_sme_float_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const SmeFloatVariant& v : kai_registry::sme_float_variants()) {
        const char* family = v.is_gemv ? (v.bf16 ? "f32_bf16p" : "f32_f32p") : (v.bf16 ? "bf16p_sme" : "f32p_f32p");
        // The small emulated shapes (bf16 = true): SME is emulated in software, like BF16.
        for (const Shape& s : suite_shapes(opt, v.is_gemv, true)) {
            add_matmul_cases(opt, v.name, v.is_gemv ? "" : (v.bf16 ? "bf16 pack+kernel" : "f32 pack+kernel"), family,
                             v.features, s, 0, "GFLOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new SmeFloatProblem(v, s)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
