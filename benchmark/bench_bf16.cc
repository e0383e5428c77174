// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the BF16 families (f32 and bf16 output), from their registry.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

#include "benchmark/bench_matmul.h"
#include "test/common/rng.h"
#include "test/reference/bf16_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/bf16_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Bf16LhsPacker;
using kai_registry::Bf16RhsPacker;
using kai_registry::Bf16Variant;

const Bf16LhsPacker* lhs_packer_for(size_t mr, bool bf16_source) {
    for (const Bf16LhsPacker& p : kai_registry::bf16_lhs_packers()) {
        if (p.mr == mr && p.bf16_source == bf16_source) return &p;
    }
    return nullptr;
}

const Bf16RhsPacker* rhs_packer(bool nxk, bool bf16_source) {
    for (const Bf16RhsPacker& p : kai_registry::bf16_rhs_packers()) {
        if (p.nxk == nxk && p.bf16_source == bf16_source) return &p;
    }
    return nullptr;
}

// f32 activations and weights (K x N) packed to bf16 on the fly, as frameworks run f32 models
// in "bf16 fast-math" mode.
class Bf16Problem : public MatmulProblem {
public:
    Bf16Problem(const Bf16Variant& v, const Shape& s)
        : v_(v), s_(s), lhs_packer_(lhs_packer_for(v.ukernel.get_mr(), false)), rhs_packer_(rhs_packer(false, false)) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    double packed_rhs_bytes() const override {
        return static_cast<double>(rhs_packer_->get_rhs_packed_size(s_.n, s_.k, v_.ukernel.get_nr(), v_.ukernel.get_kr()));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        rhs_ = kai_test::random_f32(s_.k * s_.n, -1.0f, 1.0f, seed + 1);
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 2);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        rhs_packer_->run(1, s_.n, s_.k, nr, kr, sr, s_.n * sizeof(float), rhs_.data(), bias_.data(), nullptr,
                         rhs_packed_[0].data(), 0, nullptr);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(lhs_packer_->get_lhs_packed_size(s_.m, s_.k, mr(), kr, sr), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n * elem(), 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        lhs_packer_->run(m1 - m0, s_.k, mr(), kr, sr, 0, lhs_.data() + m0 * s_.k, s_.k * sizeof(float),
                         lhs_packed_.data() + lhs_packer_->get_lhs_packed_offset(m0, s_.k, mr(), kr, sr));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * elem();
        uk.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k),
                      rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, s_.k),
                      dst_.data() + m0 * stride + n0 * elem(), stride, elem(), -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        // Reference on bf16-rounded inputs in double, with the per-element bound the tests use.
        std::vector<uint16_t> a, b(s_.k * cols.size());
        std::vector<float> bias;
        for (size_t r : rows) {
            for (size_t kk = 0; kk < s_.k; ++kk) a.push_back(kai_ref::bf16_from_f32(lhs_[r * s_.k + kk]));
        }
        for (size_t kk = 0; kk < s_.k; ++kk) {
            for (size_t j = 0; j < cols.size(); ++j) b[kk * cols.size() + j] = kai_ref::bf16_from_f32(rhs_[kk * s_.n + cols[j]]);
        }
        for (size_t c : cols) bias.push_back(bias_[c]);
        std::vector<double> exact, abs_sum;
        kai_ref::bf16_matmul(a.data(), b.data(), bias.data(), rows.size(), cols.size(), s_.k, &exact, &abs_sum);
        for (size_t i = 0; i < rows.size(); ++i) {
            for (size_t j = 0; j < cols.size(); ++j) {
                const double want = kai_ref::bf16_clamp(exact[i * cols.size() + j], -FLT_MAX, FLT_MAX);
                const double bound = kai_ref::bf16_error_bound(abs_sum[i * cols.size() + j], want, s_.k, v_.bf16_output);
                const double got = value(rows[i], cols[j]);
                if (!(std::fabs(got - want) <= bound)) {
                    std::ostringstream os;
                    os.precision(9);
                    os << "(" << rows[i] << ", " << cols[j] << "): got " << got << ", reference " << want << ", bound "
                       << bound;
                    return os.str();
                }
            }
        }
        return "";
    }

    void release() override {
        std::vector<float>().swap(lhs_);
        std::vector<float>().swap(rhs_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<uint8_t>().swap(dst_);
    }

private:
    size_t elem() const { return kai_registry::bf16_dst_elem_size(v_); }
    double value(size_t r, size_t c) const {
        const uint8_t* p = dst_.data() + (r * s_.n + c) * elem();
        if (elem() == 2) {
            uint16_t h;
            std::memcpy(&h, p, 2);
            return static_cast<double>(kai_ref::f32_from_bf16(h));
        }
        float f;
        std::memcpy(&f, p, 4);
        return static_cast<double>(f);
    }
    const Bf16Variant& v_;
    Shape s_;
    const Bf16LhsPacker* lhs_packer_;
    const Bf16RhsPacker* rhs_packer_;
    std::vector<float> lhs_, rhs_, bias_;
    std::vector<uint8_t> lhs_packed_, dst_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    for (const Bf16LhsPacker& lp : kai_registry::bf16_lhs_packers()) {
        const size_t rows = lp.mr == 1 ? 1 : m;  // the 1x4 (GEMV) layout packs one row
        struct State {
            std::vector<float> f32;
            std::vector<uint16_t> bf16;
            std::vector<uint8_t> packed;
        };
        auto st = std::make_shared<State>();
        const Bf16LhsPacker* pk = &lp;
        PackerSpec p;
        p.name = lp.name;
        p.family = "bf16";
        p.kind = "lhs_packer";
        p.features = lp.features;
        p.shape = {rows, 0, k};
        p.elements = static_cast<double>(rows * k);
        p.extent = rows;
        p.granule = lp.mr;
        p.prepare = [st, pk, rows, k] {
            st->f32 = kai_test::random_f32(rows * k, -1.0f, 1.0f, 41);
            st->bf16.resize(st->f32.size());
            for (size_t i = 0; i < st->f32.size(); ++i) st->bf16[i] = kai_ref::bf16_from_f32(st->f32[i]);
            st->packed.assign(pk->get_lhs_packed_size(rows, k, pk->mr, 4, 1), 0);
        };
        p.pack = [st, pk, k](size_t b, size_t e) {
            const size_t elem = pk->bf16_source ? 2 : 4;
            const uint8_t* src = pk->bf16_source ? reinterpret_cast<const uint8_t*>(st->bf16.data())
                                                 : reinterpret_cast<const uint8_t*>(st->f32.data());
            pk->run(e - b, k, pk->mr, 4, 1, 0, src + b * k * elem, k * elem,
                    st->packed.data() + pk->get_lhs_packed_offset(b, k, pk->mr, 4, 1));
        };
        p.check = [st, pk, rows, k](bool) {
            const std::vector<uint8_t> ref = kai_ref::bf16_pack_lhs(st->bf16.data(), rows, k, pk->mr);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    for (const Bf16RhsPacker& rp : kai_registry::bf16_rhs_packers()) {
        struct State {
            std::vector<float> f32, bias;  // K x N values
            std::vector<uint16_t> bf16;    // K x N
            std::vector<uint8_t> src, packed;
        };
        auto st = std::make_shared<State>();
        const Bf16RhsPacker* pk = &rp;
        PackerSpec p;
        p.name = rp.name;
        p.family = "bf16";
        p.kind = "rhs_packer";
        p.features = rp.features;
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = 12;
        p.prepare = [st, pk, n, k] {
            st->f32 = kai_test::random_f32(k * n, -1.0f, 1.0f, 42);
            st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 43);
            st->bf16.resize(st->f32.size());
            for (size_t i = 0; i < st->f32.size(); ++i) st->bf16[i] = kai_ref::bf16_from_f32(st->f32[i]);
            // The packer's source layout: K x N or N x K, f32 or bf16.
            const size_t elem = pk->bf16_source ? 2 : 4;
            st->src.assign(n * k * elem, 0);
            for (size_t kk = 0; kk < k; ++kk) {
                for (size_t j = 0; j < n; ++j) {
                    const size_t at = (pk->nxk ? j * k + kk : kk * n + j) * elem;
                    if (pk->bf16_source) {
                        std::memcpy(&st->src[at], &st->bf16[kk * n + j], 2);
                    } else {
                        std::memcpy(&st->src[at], &st->f32[kk * n + j], 4);
                    }
                }
            }
            st->packed.assign(pk->get_rhs_packed_size(n, k, 12, 4), 0);
        };
        p.pack = [st, pk, n, k](size_t b, size_t e) {
            const size_t elem = pk->bf16_source ? 2 : 4;
            const size_t stride = pk->nxk ? k * elem : n * elem;
            const uint8_t* src = st->src.data() + (pk->nxk ? b * k * elem : b * elem);
            pk->run(1, e - b, k, 12, 4, 1, stride, src, st->bias.data() + b, nullptr,
                    st->packed.data() + pk->get_rhs_packed_offset(b, k, 12, 4), 0, nullptr);
        };
        p.check = [st, n, k](bool) {
            std::vector<uint8_t> mask;
            const std::vector<uint8_t> ref = kai_ref::bf16_pack_rhs(st->bf16.data(), st->bias.data(), n, k, &mask);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_bf16_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const Bf16Variant& v : kai_registry::bf16_variants()) {
        const bool gemv = v.ukernel.get_m_step() == 1;
        for (const Shape& s : suite_shapes(opt, gemv, true)) {
            add_matmul_cases(opt, v.name, "bf16 pack+kernel", v.bf16_output ? "bf16o" : "bf16", v.features, s, 0,
                             "GFLOP/s", [&v, s] { return std::unique_ptr<MatmulProblem>(new Bf16Problem(v, s)); }, out);
        }
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
