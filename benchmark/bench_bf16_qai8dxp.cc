// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the bf16-activation, bf16-output int4 kernels (families bf16_qsi4cxp and
// bf16_qsi4c32p) and of kai_lhs_quant_pack_qai8dxp_bf16_neon, from their registry. The per-token
// case quantises the bf16 activations with the bf16 packer.
#include <cfloat>
#include <cstring>
#include <memory>
#include <sstream>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_bf16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4c32p_ref.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/bf16_qai8dxp_registry.h"

namespace kai_bench {

namespace {

using kai_registry::Bf16C32Variant;
using kai_registry::Bf16CxVariant;

// One problem for both families: V is Bf16CxVariant (bl = 0) or Bf16C32Variant.
template <typename V>
class Bf16Problem : public MatmulProblem {
public:
    Bf16Problem(const V& v, const Shape& s, size_t bl) : v_(v), s_(s), bl_(bl) {}
    size_t m_step() const override { return v_.ukernel.get_m_step(); }
    size_t n_step() const override { return v_.ukernel.get_n_step(); }
    size_t mr() const override { return v_.ukernel.get_mr(); }
    double packed_rhs_bytes() const override { return static_cast<double>(rhs_size()); }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = kai_test::random_bf16(s_.m * s_.k, -1.0f, 1.0f, seed);
        w_ = kai_test::random_bytes(s_.n * row_bytes(), seed + 1);
        bias_ = kai_test::random_f32(s_.n, -1.0f, 1.0f, seed + 3);
        const std::vector<float> s = kai_test::random_f32(c32() ? s_.n * (s_.k / bl_) : s_.n, 0.002f, 0.05f, seed + 2);
        scale_ = s;
        scale_bf16_.resize(s.size());
        for (size_t i = 0; i < s.size(); ++i) scale_bf16_[i] = kai_ref::bf16_from_f32(s[i]);
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        rhs_packed_.assign(copies, std::vector<uint8_t>(rhs_size()));
        if (c32()) {
            const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
            kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, s_.n, s_.k, nr, kr, sr, bl_, w_.data(), row_bytes(),
                                                     bias_.data(), scale_bf16_.data(), (s_.k / bl_) * 2,
                                                     rhs_packed_[0].data(), 0, &params);
        } else {
            const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
            kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, s_.n, s_.k, nr, kr, sr, w_.data(), bias_.data(), scale_.data(),
                                                  rhs_packed_[0].data(), 0, &params);
        }
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(s_.m, s_.k, mr(), kr, sr), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        kai_run_lhs_quant_pack_qai8dxp_bf16_neon(
            m1 - m0, s_.k, mr(), kr, sr, 0, lhs_.data() + m0 * s_.k, s_.k * 2,
            lhs_packed_.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon(m0, s_.k, mr(), kr, sr));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.ukernel;
        const size_t stride = s_.n * 2;
        uint8_t* d = reinterpret_cast<uint8_t*>(dst_.data()) + uk.get_dst_offset(m0, n0, stride);
        const uint8_t* l = lhs_packed_.data() + uk.get_lhs_packed_offset(m0, s_.k);
        run(m1 - m0, n1 - n0, l, rhs_packed_[copy].data(), n0, d, stride);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<uint16_t> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        const size_t kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(rows.size(), s_.k, 1));
        kai_ref::pack_qai8dxp_bf16(rows.size(), s_.k, 1, kr, sr, 0, lhs_rows.data(), s_.k * 2, packed.data());
        const kai_ref::Qai8dxpUnpacked q = kai_ref::unpack_qai8dxp(packed.data(), rows.size(), s_.k, 1, kr, sr);
        std::vector<int8_t> w;
        std::vector<float> scale, d, row_sum, bias;
        const size_t nb = c32() ? s_.k / bl_ : 0;
        for (size_t c : cols) {
            for (size_t kk = 0; kk < s_.k; ++kk)
                w.push_back(static_cast<int8_t>(kai_ref::qsu4_nxk_nibble(w_.data(), row_bytes(), c, kk) - 8));
            bias.push_back(bias_[c]);
            if (!c32()) {
                scale.push_back(scale_[c]);
                continue;
            }
            for (size_t b = 0; b < nb; ++b) d.push_back(kai_ref::f32_from_bf16(scale_bf16_[c * nb + b]));
            row_sum.push_back(kai_ref::qsi4c32p_row_sum(&w[w.size() - s_.k], &d[d.size() - nb], s_.k, bl_, kr / sr));
        }
        const std::vector<uint16_t> ref =
            c32() ? kai_ref::matmul_qai8dxp_qsi4c32_bf16(q, cols.size(), s_.k, bl_, w.data(), d.data(), row_sum.data(),
                                                         bias.data(), -FLT_MAX, FLT_MAX)
                  : kai_ref::matmul_qai8dxp_qsi4cx_bf16(q, cols.size(), s_.k, w.data(), scale.data(), bias.data(),
                                                        -FLT_MAX, FLT_MAX);
        for (size_t i = 0; i < rows.size(); ++i)
            for (size_t j = 0; j < cols.size(); ++j) {
                const uint16_t got = dst_[rows[i] * s_.n + cols[j]], want = ref[i * cols.size() + j];
                if (got != want) {
                    std::ostringstream os;
                    os << std::hex << "(" << rows[i] << ", " << cols[j] << "): got bf16 0x" << got << ", reference 0x"
                       << want;
                    return os.str();
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
    bool c32() const { return bl_ != 0; }
    size_t row_bytes() const { return (s_.k + 1) / 2; }
    size_t rhs_size() const {
        const size_t nr = v_.ukernel.get_nr(), kr = v_.ukernel.get_kr(), sr = v_.ukernel.get_sr();
        return c32() ? kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(s_.n, s_.k, nr, kr, sr, bl_, kai_dt_bf16)
                     : kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(s_.n, s_.k, nr, kr, sr);
    }
    void run(size_t m, size_t n, const uint8_t* l, const uint8_t* rhs, size_t n0, uint8_t* d, size_t stride);
    const V& v_;
    Shape s_;
    size_t bl_;
    std::vector<uint16_t> lhs_, scale_bf16_, dst_;
    std::vector<float> scale_, bias_;
    std::vector<uint8_t> w_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

template <>
void Bf16Problem<Bf16CxVariant>::run(size_t m, size_t n, const uint8_t* l, const uint8_t* rhs, size_t n0, uint8_t* d,
                                     size_t stride) {
    const auto& uk = v_.ukernel;
    uk.run_matmul(m, n, s_.k, l, rhs + uk.get_rhs_packed_offset(n0, s_.k), d, stride, 2, -FLT_MAX, FLT_MAX);
}

template <>
void Bf16Problem<Bf16C32Variant>::run(size_t m, size_t n, const uint8_t* l, const uint8_t* rhs, size_t n0, uint8_t* d,
                                      size_t stride) {
    const auto& uk = v_.ukernel;
    uk.run_matmul(m, n, s_.k, bl_, l, rhs + uk.get_rhs_packed_offset(n0, s_.k, bl_), d, stride, 2, -FLT_MAX, FLT_MAX);
}

void add_bf16_lhs_packer(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t mr = 4, kr = 16, sr = 2;
    struct State {
        std::vector<uint16_t> lhs;
        std::vector<uint8_t> packed;
    };
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = "kai_lhs_quant_pack_qai8dxp_bf16_neon";
    p.family = "qai8dxp";
    p.kind = "lhs_packer";
    p.shape = {m, 0, k};
    p.elements = static_cast<double>(m * k);
    p.extent = m;
    p.granule = mr;
    p.prepare = [st, m, k] {
        st->lhs = kai_test::random_bf16(m * k, -1.0f, 1.0f, 41);
        st->packed.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m, k, mr, kr, sr), 0);
    };
    p.pack = [st, k](size_t b, size_t e) {
        kai_run_lhs_quant_pack_qai8dxp_bf16_neon(
            e - b, k, mr, kr, sr, 0, st->lhs.data() + b * k, k * 2,
            st->packed.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon(b, k, mr, kr, sr));
    };
    p.check = [st, m, k](bool) {
        std::vector<uint8_t> ref(st->packed.size());
        kai_ref::pack_qai8dxp_bf16(m, k, mr, kr, sr, 0, st->lhs.data(), k * 2, ref.data());
        const std::vector<uint8_t> mask = kai_ref::qai8dxp_written_mask(m, k, mr, kr, sr);
        return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed LHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

}  // namespace

void add_bf16_qai8dxp_cases(const Options& opt, std::vector<BenchCase>& out) {
    for (const Bf16CxVariant& v : kai_registry::bf16_qsi4cxp_variants()) {
        const bool gemv = v.ukernel.get_m_step() == 1;
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            add_matmul_cases(opt, v.name, "bf16 qai8dxp pack+kernel", "bf16_qsi4cxp", v.features, s, 0, "GOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new Bf16Problem<Bf16CxVariant>(v, s, 0)); },
                             out);
        }
    }
    for (const Bf16C32Variant& v : kai_registry::bf16_qsi4c32p_variants()) {
        const bool gemv = v.ukernel.get_m_step() == 1;
        const size_t bl = opt.bl;
        for (const Shape& s : suite_shapes(opt, gemv, false)) {
            if (s.k % bl != 0) continue;
            add_matmul_cases(
                opt, v.name, "bf16 qai8dxp pack+kernel", "bf16_qsi4c32p", v.features, s, bl, "GOP/s",
                [&v, s, bl] { return std::unique_ptr<MatmulProblem>(new Bf16Problem<Bf16C32Variant>(v, s, bl)); }, out);
        }
    }
    add_bf16_lhs_packer(opt, out);
}

}  // namespace kai_bench
