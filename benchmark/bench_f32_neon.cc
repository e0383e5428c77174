// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the f32 NEON GEMM (family f32_neon), from its registry: the kernel reads the f32 LHS rows
// directly (no LHS packing), the RHS is packed once by the family's kxn packer.
#include <cfloat>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/f32_neon_ref.h"
#include "test/registry/f32_neon_registry.h"

namespace kai_bench {

namespace {

using kai_registry::F32NeonRhsPacker;
using kai_registry::F32NeonVariant;

const F32NeonRhsPacker& rhs_packer() {
    return kai_registry::f32_neon_rhs_packers().at(0);
}

class F32NeonProblem : public MatmulProblem {
public:
    F32NeonProblem(const F32NeonVariant& v, const Shape& s) : v_(v), s_(s) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_m_step(); }
    double packed_rhs_bytes() const override { return static_cast<double>(rhs_packer().get_rhs_packed_size(s_.n, s_.k)); }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        rhs_ = kai_test::random_f32(s_.k * s_.n, -1.0f, 1.0f, seed + 1);  // K x N
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 2);
        const auto& uk = v_.ukernel;
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        rhs_packer().run(1, s_.n, s_.k, uk.get_nr(), uk.get_kr(), uk.get_sr(), s_.n * sizeof(float), rhs_.data(),
                         bias_.data(), nullptr, rhs_packed_[0].data(), 0, nullptr);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        dst_.assign(s_.m * s_.n, 0.0f);
    }

    void pack_lhs(size_t, size_t) override {}  // the kernel reads the f32 rows directly

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * sizeof(float);
        uk.run_matmul(m1 - m0, n1 - n0, s_.k,
                      reinterpret_cast<const uint8_t*>(lhs_.data()) + uk.get_lhs_offset(m0, s_.k * sizeof(float)),
                      s_.k * sizeof(float), rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k),
                      reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(m0, n0, stride), stride, sizeof(float),
                      -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<float> a, w(s_.k * cols.size()), bias;
        for (size_t r : rows) a.insert(a.end(), lhs_.begin() + static_cast<long>(r * s_.k),
                                        lhs_.begin() + static_cast<long>((r + 1) * s_.k));
        for (size_t kk = 0; kk < s_.k; ++kk)
            for (size_t j = 0; j < cols.size(); ++j) w[kk * cols.size() + j] = rhs_[kk * s_.n + cols[j]];
        for (size_t c : cols) bias.push_back(bias_[c]);
        const std::vector<float> ref = kai_ref::f32_matmul_fma(a.data(), s_.k, w.data(), cols.size(), bias.data(),
                                                               rows.size(), cols.size(), s_.k, -FLT_MAX, FLT_MAX);
        return compare_sampled_bits(dst_.data(), s_.n, rows, cols, ref);
    }

    void release() override {
        std::vector<float>().swap(lhs_);
        std::vector<float>().swap(rhs_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<float>().swap(dst_);
    }

private:
    const F32NeonVariant& v_;
    Shape s_;
    std::vector<float> lhs_, rhs_, bias_, dst_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

// The kxn RHS packer at the default shape, split over threads by blocks of 8 columns.
void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    for (const F32NeonRhsPacker& pk : kai_registry::f32_neon_rhs_packers()) {
        struct State {
            std::vector<float> src, bias;
            std::vector<uint8_t> packed;
        };
        auto st = std::make_shared<State>();
        const F32NeonRhsPacker* p_pk = &pk;
        PackerSpec p;
        p.name = pk.name;
        p.family = "f32_neon";
        p.kind = "rhs_packer";
        p.features = pk.features;
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = pk.get_n_step();
        p.prepare = [st, p_pk, n, k] {
            st->src = kai_test::random_f32(k * n, -1.0f, 1.0f, 31);
            st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 32);
            st->packed.assign(p_pk->get_rhs_packed_size(n, k), 0);
        };
        p.pack = [st, p_pk, n, k](size_t b, size_t e) {
            p_pk->run(1, e - b, k, 8, 1, 1, n * sizeof(float), st->src.data() + b, st->bias.data() + b, nullptr,
                      st->packed.data() + p_pk->get_rhs_packed_offset(b, k), 0, nullptr);
        };
        p.check = [st, n, k](bool) {
            const std::vector<uint8_t> ref = kai_ref::f32_pack_rhs_kxn_bias(st->src.data(), n, st->bias.data(), n, k, 8);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_f32_neon_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const F32NeonVariant& v : kai_registry::f32_neon_variants()) {
        for (const Shape& s : suite_shapes(opt, false, false)) {
            add_matmul_cases(opt, v.name, "", "f32_neon", v.features, s, 0, "GFLOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new F32NeonProblem(v, s)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
