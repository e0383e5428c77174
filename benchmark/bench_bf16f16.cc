// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of family bf16f16 (BF16 GEMM on f16 data with f16 output, and the f16-input
// packers), from its registry.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

#include "benchmark/bench_matmul.h"
#include "test/common/rng.h"
#include "test/reference/bf16_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/bf16f16_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Bf16F16LhsPacker;
using kai_registry::Bf16F16RhsPacker;
using kai_registry::Bf16F16Variant;

const Bf16F16RhsPacker* rhs_packer(bool nxk, bool bias_f16) {
    for (const Bf16F16RhsPacker& p : kai_registry::bf16f16_rhs_packers()) {
        if (p.nxk == nxk && p.bias_f16 == bias_f16) return &p;
    }
    return nullptr;
}

std::vector<uint16_t> random_f16(size_t count, uint64_t seed) {
    const std::vector<float> f = kai_test::random_f32(count, -1.0f, 1.0f, seed);
    std::vector<uint16_t> out(count);
    for (size_t i = 0; i < count; ++i) out[i] = kai_ref::f16_from_f32(f[i]);
    return out;
}

// f16 activations, f16 weights (K x N) and an f16 bias, packed to bf16 on the fly, f16 output:
// an f16 model run through the BF16 GEMM.
class Bf16F16Problem : public MatmulProblem {
public:
    Bf16F16Problem(const Bf16F16Variant& v, const Shape& s)
        : v_(v), s_(s), lhs_packer_(&kai_registry::bf16f16_lhs_packers().at(0)), rhs_packer_(rhs_packer(false, true)) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    double packed_rhs_bytes() const override { return static_cast<double>(rhs_packer_->get_rhs_packed_size(s_.n, s_.k)); }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = random_f16(s_.m * s_.k, seed);
        rhs_ = random_f16(s_.k * s_.n, seed + 1);
        bias_ = random_f16(s_.n, seed + 2);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        rhs_packer_->run(1, s_.n, s_.k, nr, kr, sr, s_.n * 2, rhs_.data(), bias_.data(), nullptr, rhs_packed_[0].data(),
                         0, nullptr);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(lhs_packer_->get_lhs_packed_size(s_.m, s_.k, mr(), kr, sr), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        lhs_packer_->run(m1 - m0, s_.k, mr(), kr, sr, 0, lhs_.data() + m0 * s_.k, s_.k * 2,
                         lhs_packed_.data() + lhs_packer_->get_lhs_packed_offset(m0, s_.k, mr(), kr, sr));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * 2;
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k), dst_.data() + m0 * s_.n + n0,
                      stride, 2, -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        // Reference on the bf16 roundings of the f16 inputs in double; the f16 result must lie in
        // the interval the tests use (f32 accumulation bound, then the f16 rounding).
        std::vector<uint16_t> a, b(s_.k * cols.size());
        std::vector<float> bias;
        for (size_t r : rows) {
            for (size_t kk = 0; kk < s_.k; ++kk) a.push_back(kai_ref::bf16_from_f16(lhs_[r * s_.k + kk]));
        }
        for (size_t kk = 0; kk < s_.k; ++kk) {
            for (size_t j = 0; j < cols.size(); ++j) b[kk * cols.size() + j] = kai_ref::bf16_from_f16(rhs_[kk * s_.n + cols[j]]);
        }
        for (size_t c : cols) bias.push_back(kai_ref::f32_from_f16(bias_[c]));
        std::vector<double> exact, abs_sum;
        kai_ref::bf16_matmul(a.data(), b.data(), bias.data(), rows.size(), cols.size(), s_.k, &exact, &abs_sum);
        for (size_t i = 0; i < rows.size(); ++i) {
            for (size_t j = 0; j < cols.size(); ++j) {
                const double e = exact[i * cols.size() + j];
                const double bound = kai_ref::bf16_error_bound(abs_sum[i * cols.size() + j], e, s_.k, false);
                float lo = 0, hi = 0;
                kai_ref::f16_output_interval(e, bound, -FLT_MAX, FLT_MAX, &lo, &hi);
                const float got = kai_ref::f32_from_f16(dst_[rows[i] * s_.n + cols[j]]);
                if (!(got >= lo && got <= hi)) {
                    std::ostringstream os;
                    os.precision(9);
                    os << "(" << rows[i] << ", " << cols[j] << "): got " << got << ", expected in [" << lo << ", " << hi
                       << "]";
                    return os.str();
                }
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
    const Bf16F16Variant& v_;
    Shape s_;
    const Bf16F16LhsPacker* lhs_packer_;
    const Bf16F16RhsPacker* rhs_packer_;
    std::vector<uint16_t> lhs_, rhs_, bias_, dst_;
    std::vector<uint8_t> lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    for (const Bf16F16LhsPacker& lp : kai_registry::bf16f16_lhs_packers()) {
        struct State {
            std::vector<uint16_t> f16, bf16;
            std::vector<uint8_t> packed;
        };
        auto st = std::make_shared<State>();
        const Bf16F16LhsPacker* pk = &lp;
        PackerSpec p;
        p.name = lp.name;
        p.family = "bf16f16";
        p.kind = "lhs_packer";
        p.features = lp.features;
        p.shape = {m, 0, k};
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = 8;
        p.prepare = [st, pk, m, k] {
            st->f16 = random_f16(m * k, 41);
            st->bf16.resize(st->f16.size());
            for (size_t i = 0; i < st->f16.size(); ++i) st->bf16[i] = kai_ref::bf16_from_f16(st->f16[i]);
            st->packed.assign(pk->get_lhs_packed_size(m, k, 8, 4, 1), 0);
        };
        p.pack = [st, pk, k](size_t b, size_t e) {
            pk->run(e - b, k, 8, 4, 1, 0, st->f16.data() + b * k, k * 2,
                    st->packed.data() + pk->get_lhs_packed_offset(b, k, 8, 4, 1));
        };
        p.check = [st, m, k](bool) {
            const std::vector<uint8_t> ref = kai_ref::bf16_pack_lhs(st->bf16.data(), m, k, 8);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    for (const Bf16F16RhsPacker& rp : kai_registry::bf16f16_rhs_packers()) {
        struct State {
            std::vector<uint16_t> f16, bf16, bias16;  // K x N
            std::vector<float> bias32;
            std::vector<uint16_t> src;                // K x N or N x K
            std::vector<uint8_t> packed;
        };
        auto st = std::make_shared<State>();
        const Bf16F16RhsPacker* pk = &rp;
        PackerSpec p;
        p.name = rp.name;
        p.family = "bf16f16";
        p.kind = "rhs_packer";
        p.features = rp.features;
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = 12;
        p.prepare = [st, pk, n, k] {
            st->f16 = random_f16(k * n, 42);
            st->bias16 = random_f16(n, 43);
            st->bias32.resize(n);
            for (size_t j = 0; j < n; ++j) st->bias32[j] = kai_ref::f32_from_f16(st->bias16[j]);
            st->bf16.resize(st->f16.size());
            for (size_t i = 0; i < st->f16.size(); ++i) st->bf16[i] = kai_ref::bf16_from_f16(st->f16[i]);
            st->src.assign(n * k, 0);
            for (size_t kk = 0; kk < k; ++kk) {
                for (size_t j = 0; j < n; ++j) st->src[pk->nxk ? j * k + kk : kk * n + j] = st->f16[kk * n + j];
            }
            st->packed.assign(pk->get_rhs_packed_size(n, k), 0);
        };
        p.pack = [st, pk, n, k](size_t b, size_t e) {
            const size_t stride = pk->nxk ? k * 2 : n * 2;
            const uint16_t* src = st->src.data() + (pk->nxk ? b * k : b);
            const void* bias = pk->bias_f16 ? static_cast<const void*>(st->bias16.data() + b)
                                            : static_cast<const void*>(st->bias32.data() + b);
            pk->run(1, e - b, k, 12, 4, 1, stride, src, bias, nullptr, st->packed.data() + pk->get_rhs_packed_offset(b, k),
                    0, nullptr);
        };
        p.check = [st, pk, n, k](bool) {
            std::vector<uint8_t> mask;
            const std::vector<uint8_t> ref = pk->bias_f16
                                                 ? kai_ref::bf16_pack_rhs_biasf16(st->bf16.data(), st->bias16.data(), n, k, &mask)
                                                 : kai_ref::bf16_pack_rhs(st->bf16.data(), st->bias32.data(), n, k, &mask);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_bf16f16_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const Bf16F16Variant& v : kai_registry::bf16f16_variants()) {
        for (const Shape& s : suite_shapes(opt, false, true)) {
            add_matmul_cases(opt, v.name, "bf16 pack+kernel (f16 data)", "bf16f16", v.features, s, 0, "GFLOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new Bf16F16Problem(v, s)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
