// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the GGUF K-quant families q4k and q6k (qsi8d256p x Q4_K / Q6_K), from their
// registry: every kernel on GGUF rows packed once, the per-token case with the LHS quantizer, and
// the three packers (LHS quantizer, Q4_K and Q6_K RHS packers from GGUF bytes).
#include <cfloat>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d256p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q4kp_q4k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q6kp_q6k_neon.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/kquant_ref.h"
#include "test/registry/kquant_registry.h"

namespace kai_bench {

namespace {

using kai_ref::Kquant;
using kai_registry::KquantVariant;

size_t rhs_packed_size(Kquant f, size_t n, size_t k) {
    return f == Kquant::q4k ? kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(n, k, 4, 8, 1)
                            : kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(n, k, 4, 8, 1);
}

void pack_rhs(Kquant f, size_t n, size_t k, const uint8_t* rows, size_t stride, const float* bias, uint8_t* out) {
    if (f == Kquant::q4k) {
        kai_run_rhs_pack_nxk_q4kp_q4k_neon(n, k, 4, 8, 1, rows, stride, bias, out);
    } else {
        kai_run_rhs_pack_nxk_q6kp_q6k_neon(n, k, 4, 8, 1, rows, stride, bias, out);
    }
}

class KquantProblem : public MatmulProblem {
public:
    KquantProblem(const KquantVariant& v, const Shape& s) : v_(v), s_(s), f_(v.q4k ? Kquant::q4k : Kquant::q6k) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    double packed_rhs_bytes() const override { return static_cast<double>(rhs_packed_size(f_, s_.n, s_.k)); }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        stride_ = s_.k / 256 * kai_ref::kquant_block_bytes(f_);
        rows_ = kai_ref::kquant_random_rows(f_, s_.n, s_.k, stride_, 0.004f, static_cast<uint32_t>(seed));
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 3);
        rhs_packed_.assign(copies, std::vector<uint8_t>(rhs_packed_size(f_, s_.n, s_.k)));
        pack_rhs(f_, s_.n, s_.k, rows_.data(), stride_, bias_.data(), rhs_packed_[0].data());
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(s_.m, s_.k, mr(), v_.ukernel.get_kr(), 1), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0.0f);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr();
        kai_run_lhs_quant_pack_qsi8d256p_f32_neon(
            m1 - m0, s_.k, mr(), kr, 1, 0, lhs_.data() + m0 * s_.k, s_.k * sizeof(float),
            lhs_packed_.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon(m0, s_.k, mr(), kr, 1));
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
        std::vector<float> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        std::vector<uint8_t> w_cols;
        std::vector<float> bias_cols;
        for (size_t c : cols) {
            w_cols.insert(w_cols.end(), &rows_[c * stride_], &rows_[c * stride_] + stride_);
            bias_cols.push_back(bias_[c]);
        }
        const std::vector<float> ref = kai_ref::kquant_matmul(f_, rows.size(), cols.size(), s_.k, lhs_rows.data(),
                                                              s_.k * sizeof(float), w_cols.data(), stride_, bias_cols.data(),
                                                              -FLT_MAX, FLT_MAX);
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
    const KquantVariant& v_;
    Shape s_;
    Kquant f_;
    size_t stride_ = 0;
    std::vector<float> lhs_, bias_, dst_;
    std::vector<uint8_t> rows_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

void add_rhs_packer(const Options& opt, Kquant f, std::vector<BenchCase>& out) {
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k / 256 * 256;
    const size_t stride = k / 256 * kai_ref::kquant_block_bytes(f);
    struct State {
        std::vector<uint8_t> rows, packed;
        std::vector<float> bias;
    };
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = f == Kquant::q4k ? "kai_rhs_pack_nxk_q4kp_q4k_neon" : "kai_rhs_pack_nxk_q6kp_q6k_neon";
    p.family = f == Kquant::q4k ? "q4k" : "q6k";
    p.kind = "rhs_packer";
    p.shape = {0, n, k};
    p.elements = static_cast<double>(n * k);
    p.extent = n;
    p.granule = 4;
    p.prepare = [st, f, n, k, stride] {
        st->rows = kai_ref::kquant_random_rows(f, n, k, stride, 0.004f, 31);
        st->bias = kai_test::random_f32(n, -1.0f, 1.0f, 32);
        st->packed.assign(rhs_packed_size(f, n, k), 0);
    };
    p.pack = [st, f, k, stride](size_t b, size_t e) {
        const size_t off = f == Kquant::q4k ? kai_get_rhs_packed_offset_rhs_pack_nxk_q4kp_q4k_neon(b, k, 4, 8, 1)
                                            : kai_get_rhs_packed_offset_rhs_pack_nxk_q6kp_q6k_neon(b, k, 4, 8, 1);
        pack_rhs(f, e - b, k, st->rows.data() + b * stride, stride, st->bias.data() + b, st->packed.data() + off);
    };
    p.check = [st, f, n, k, stride](bool) {
        const std::vector<uint8_t> ref = kai_ref::kquant_pack_rhs(f, n, k, st->rows.data(), stride, st->bias.data());
        if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
        return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

void add_lhs_packer(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k / 256 * 256;
    const size_t mr = 4, kr = 8;
    struct State {
        std::vector<float> x;
        std::vector<uint8_t> packed;
    };
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = "kai_lhs_quant_pack_qsi8d256p_f32_neon";
    p.family = "q4k";
    p.kind = "lhs_packer";
    p.shape = {m, 0, k};
    p.elements = static_cast<double>(m * k);
    p.extent = m;
    p.granule = mr;
    p.prepare = [st, m, k] {
        st->x = kai_test::random_f32(m * k, -1.0f, 1.0f, 41);
        st->packed.assign(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(m, k, mr, kr, 1), 0);
    };
    p.pack = [st, k](size_t b, size_t e) {
        kai_run_lhs_quant_pack_qsi8d256p_f32_neon(
            e - b, k, mr, kr, 1, 0, st->x.data() + b * k, k * sizeof(float),
            st->packed.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon(b, k, mr, kr, 1));
    };
    p.check = [st, m, k](bool) {
        std::vector<uint8_t> ref(st->packed.size(), 0);
        kai_ref::kquant_pack_lhs(m, k, mr, kr, 0, st->x.data(), k * sizeof(float), ref.data());
        return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

}  // namespace

void add_kquant_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const KquantVariant& v : kai_registry::kquant_variants()) {
        const bool gemv = v.ukernel.get_m_step() == 1;
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            if (s.k % 256 != 0) continue;
            add_matmul_cases(opt, v.name, "qsi8d256p pack+kernel", v.q4k ? "q4k" : "q6k", v.features, s, 0, "GOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new KquantProblem(v, s)); }, out);
        }
    }
    add_lhs_packer(opt, out);
    add_rhs_packer(opt, Kquant::q4k, out);
    add_rhs_packer(opt, Kquant::q6k, out);
}

}  // namespace kai_bench
