// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the static int8 SME families (qai8p_qsi8cxpsb, qai8_qsi8cxp): the two GEMMs, the GEMV, the
// two packers and the two indirect packers (K as 9 chunks, a 3x3 convolution's taps), checked
// against test/reference/qai8_static_ref. The packed sizes follow the SVL of the running thread.
#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp/kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp/kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp/kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8_qsi8cxp/kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot.h"
#include "kai/ukernels/pack/kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme.h"
#include "kai/ukernels/pack/kai_lhs_pack_x8p2vlx4_x8_sme.h"
#include "kai/ukernels/pack/kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/qai8_static_ref.h"

namespace kai_bench {

namespace {

constexpr const char* kFamily = "qai8p_qsi8cxpsb";

#define KAI_QAI8_UKERNEL(stem, feature)                                                                          \
    {                                                                                                            \
        "kai_" #stem, feature,                                                                                  \
        {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem,  \
         kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,                 \
         kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}                                    \
    }

struct Kernel {
    const char* name;
    uint32_t features;
    kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_ukernel u;
};

constexpr const char* kGemv = "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot";

const Kernel kKernels[] = {
    KAI_QAI8_UKERNEL(matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa, KAI_FEATURE_SME),
    KAI_QAI8_UKERNEL(matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa, KAI_FEATURE_SME2),
};

// Inputs of one problem: int8 LHS (m x k) and RHS (k x n), biases, scales and the quantization parameters.
struct Inputs {
    std::vector<int8_t> lhs, rhs;
    std::vector<int32_t> bias;
    std::vector<float> scale;
    kai_ref::Qai8Params p{};
    void make(size_t m, size_t n, size_t k, uint64_t seed) {
        lhs = kai_test::random_i8(m * k, -128, 127, seed);
        rhs = kai_test::random_i8(k * n, -128, 127, seed + 1);
        kai_test::Rng rng(seed + 2);
        bias.resize(n);
        scale.resize(n);
        for (auto& b : bias) b = static_cast<int32_t>(rng.integer(-20000, 20000));
        for (auto& s : scale) s = rng.uniform(1e-6f, 2e-5f);
        p = {5, 0.5f, -3, -128, 127};
    }
    void pack_rhs(size_t n0, size_t n1, size_t n, size_t k, uint8_t* packed) const {
        const size_t nr = kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme();
        const kai_rhs_pack_qsi8cx_params rp{p.lhs_zero_point, p.scale_multiplier};
        kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
            1, n1 - n0, k, nr, 4, 1, n, rhs.data() + n0, bias.data() + n0, scale.data() + n0,
            packed + kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(n0, k), 0, &rp);
    }
};

// Compares the sampled outputs with the reference on the raw inputs; "" when they are equal.
std::string check_against_reference(const Inputs& in, const Shape& s, const std::vector<int8_t>& dst,
                                    const std::vector<size_t>& rows, const std::vector<size_t>& cols) {
    std::vector<int8_t> a, w(s.k * cols.size());
    std::vector<int32_t> bias;
    std::vector<float> scale;
    for (size_t r : rows)
        a.insert(a.end(), in.lhs.begin() + static_cast<long>(r * s.k),
                 in.lhs.begin() + static_cast<long>((r + 1) * s.k));
    for (size_t kk = 0; kk < s.k; ++kk)
        for (size_t j = 0; j < cols.size(); ++j) w[kk * cols.size() + j] = in.rhs[kk * s.n + cols[j]];
    for (size_t c : cols) {
        bias.push_back(in.bias[c]);
        scale.push_back(in.scale[c]);
    }
    const std::vector<int8_t> ref = kai_ref::matmul_qai8_static(rows.size(), cols.size(), s.k, a.data(), w.data(),
                                                                bias.data(), scale.data(), in.p);
    for (size_t i = 0; i < rows.size(); ++i)
        for (size_t j = 0; j < cols.size(); ++j) {
            const int got = dst[rows[i] * s.n + cols[j]], want = ref[i * cols.size() + j];
            if (got != want) {
                std::ostringstream os;
                os << "(" << rows[i] << ", " << cols[j] << "): got " << got << ", reference " << want;
                return os.str();
            }
        }
    return "";
}

class Qai8StaticProblem : public MatmulProblem {
public:
    Qai8StaticProblem(const Kernel& k, const Shape& s) : k_(k), s_(s) {}
    size_t m_step() const override { return k_.u.get_m_step(); }
    size_t n_step() const override { return k_.u.get_n_step(); }
    size_t mr() const override { return k_.u.get_mr(); }
    // 0 on a CPU without SME: the size getters read the SVL (RDSVL).
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(k_.features).empty()) return 0;
        return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(s_.n, s_.k));
    }

    void prepare(size_t copies) override {
        in_.make(s_.m, s_.n, s_.k, kai_test::seed_from(std::string(k_.name) + s_.str()));
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        in_.pack_rhs(0, s_.n, s_.n, s_.k, rhs_packed_[0].data());
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_pack_x8p2vlx4_x8_sme(s_.m, s_.k, mr(), 4, 1), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        kai_run_lhs_pack_x8p2vlx4_x8_sme(
            m1 - m0, s_.k, mr(), 4, 1, 0, in_.lhs.data() + m0 * s_.k, s_.k,
            lhs_packed_.data() + kai_get_lhs_packed_offset_lhs_pack_x8p2vlx4_x8_sme(m0, s_.k, mr(), 4, 1));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const kai_matmul_requantize32_params qp{in_.p.min_value, in_.p.max_value, in_.p.output_zero_point};
        k_.u.run_matmul(m1 - m0, n1 - n0, s_.k, lhs_packed_.data() + k_.u.get_lhs_packed_offset(m0, s_.k),
                        rhs_packed_[copy].data() + k_.u.get_rhs_packed_offset(n0, s_.k), dst_.data() + m0 * s_.n + n0,
                        s_.n, 1, &qp);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        return check_against_reference(in_, s_, dst_, rows, cols);
    }

    void release() override {
        in_ = Inputs();
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<int8_t>().swap(dst_);
    }

private:
    const Kernel& k_;
    Shape s_;
    Inputs in_;
    std::vector<uint8_t> lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
    std::vector<int8_t> dst_;
};

// The SME2 GEMV: rows of an unpacked LHS, one call per row (m_step 1) over the same packed RHS.
class Qai8StaticGemvProblem : public MatmulProblem {
public:
    explicit Qai8StaticGemvProblem(const Shape& s) : s_(s) {}
    size_t m_step() const override { return 1; }
    size_t n_step() const override { return kai_get_n_step_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(); }
    size_t mr() const override { return 1; }
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(KAI_FEATURE_SME2).empty()) return 0;
        return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(s_.n, s_.k));
    }
    void prepare(size_t copies) override {
        in_.make(s_.m, s_.n, s_.k, kai_test::seed_from(std::string(kGemv) + s_.str()));
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        in_.pack_rhs(0, s_.n, s_.n, s_.k, rhs_packed_[0].data());
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        dst_.assign(s_.m * s_.n, 0);
    }
    void pack_lhs(size_t, size_t) override {}  // the GEMV reads the int8 rows directly
    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const kai_matmul_requantize32_params qp{in_.p.min_value, in_.p.max_value, in_.p.output_zero_point};
        for (size_t r = m0; r < m1; ++r) {
            kai_run_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(
                1, n1 - n0, s_.k, in_.lhs.data() + r * s_.k,
                rhs_packed_[copy].data() +
                    kai_get_rhs_packed_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(n0, s_.k),
                dst_.data() + r * s_.n + n0, s_.n, 1, &qp);
        }
    }
    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        return check_against_reference(in_, s_, dst_, rows, cols);
    }
    void release() override {
        in_ = Inputs();
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<int8_t>().swap(dst_);
    }

private:
    Shape s_;
    Inputs in_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
    std::vector<int8_t> dst_;
};

void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    struct State {
        Inputs in;
        std::vector<uint8_t> packed;
        size_t tile = 0;
    };
    {
        auto st = std::make_shared<State>();
        PackerSpec p;
        p.name = "kai_lhs_pack_x8p2vlx4_x8_sme";
        p.family = kFamily;
        p.kind = "lhs_packer";
        p.features = KAI_FEATURE_SME;
        p.shape = {m, 0, k};
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = 128;  // a multiple of mr = 2 * SVL / 32 at every SVL up to 2048 bits
        p.prepare = [st, m, k] {
            st->in.lhs = kai_test::random_i8(m * k, -128, 127, 61);
            st->tile = kKernels[0].u.get_mr();
            st->packed.assign(kai_get_lhs_packed_size_lhs_pack_x8p2vlx4_x8_sme(m, k, st->tile, 4, 1), 0);
        };
        p.pack = [st, k](size_t b, size_t e) {
            kai_run_lhs_pack_x8p2vlx4_x8_sme(
                e - b, k, st->tile, 4, 1, 0, st->in.lhs.data() + b * k, k,
                st->packed.data() + kai_get_lhs_packed_offset_lhs_pack_x8p2vlx4_x8_sme(b, k, st->tile, 4, 1));
        };
        p.check = [st, m, k](bool) {
            const std::vector<uint8_t> ref = kai_ref::pack_lhs_x8p2vlx4(
                m, k, st->tile, reinterpret_cast<const uint8_t*>(st->in.lhs.data()), k);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    {
        auto st = std::make_shared<State>();
        PackerSpec p;
        p.name = "kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme";
        p.family = kFamily;
        p.kind = "rhs_packer";
        p.features = KAI_FEATURE_SME;
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = 128;  // a multiple of nr at every SVL up to 2048 bits
        p.prepare = [st, n, k] {
            st->in.make(1, n, k, 62);
            st->tile = kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme();
            st->packed.assign(kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(n, k), 0);
        };
        p.pack = [st, n, k](size_t b, size_t e) { st->in.pack_rhs(b, e, n, k, st->packed.data()); };
        p.check = [st, n, k](bool) {
            const std::vector<uint8_t> ref = kai_ref::pack_rhs_qsi8cxp2vlx4sb(
                n, k, st->tile, st->in.rhs.data(), n, st->in.bias.data(), st->in.scale.data(),
                st->in.p.lhs_zero_point, st->in.p.scale_multiplier);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    {
        // Indirect LHS: each row is 9 chunks of k / 9 bytes reached through the pointer table.
        struct IndirectState {
            std::vector<uint8_t> src, packed;
            std::vector<const void*> table;
            std::vector<const uint8_t*> rows;
            size_t tile = 0;
        };
        auto st = std::make_shared<IndirectState>();
        const size_t kcc = 9, kcl = std::max<size_t>(k / kcc, 1);
        PackerSpec p;
        p.name = "kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme";
        p.family = kFamily;
        p.kind = "lhs_packer";
        p.features = KAI_FEATURE_SME;
        p.shape = {m, 0, kcc * kcl};
        p.elements = static_cast<double>(m * kcc * kcl);
        p.extent = m;
        p.granule = 128;  // a multiple of mr at every SVL up to 2048 bits
        p.prepare = [st, m, kcc, kcl] {
            st->tile = kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme();
            const auto bytes = kai_test::random_i8(m * kcc * kcl, -128, 127, 63);
            st->src.assign(bytes.begin(), bytes.end());
            st->table.assign((m + st->tile - 1) / st->tile * st->tile * kcc, nullptr);
            st->rows.resize(m * kcc);
            for (size_t i = 0; i < m; ++i)
                for (size_t c = 0; c < kcc; ++c) {
                    st->rows[i * kcc + c] = st->src.data() + (i * kcc + c) * kcl;
                    st->table[(i / st->tile * kcc + c) * st->tile + i % st->tile] = st->rows[i * kcc + c];
                }
            st->packed.assign(kai_get_lhs_packed_size_lhs_imatmul_pack_x8p2vlx4_x8p_sme(m, kcc, kcl), 0);
        };
        p.pack = [st, kcc, kcl](size_t b, size_t e) {
            kai_run_lhs_imatmul_pack_x8p2vlx4_x8p_sme(
                e - b, kcc, kcl, st->table.data() + b * kcc, 0, nullptr,
                st->packed.data() + kai_get_lhs_packed_offset_lhs_imatmul_pack_x8p2vlx4_x8p_sme(b, kcc, kcl));
        };
        p.check = [st, m, kcc, kcl](bool) {
            const std::vector<uint8_t> ref = kai_ref::pack_lhs_indirect_x8p2vlx4(m, kcc, kcl, st->tile, st->rows);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
        };
        p.release = [st] { *st = IndirectState(); };
        add_packer_case(p, out);
    }
    {
        auto st = std::make_shared<State>();
        const size_t kcc = 9, kcl = std::max<size_t>(k / kcc, 1);
        PackerSpec p;
        p.name = "kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme";
        p.family = kFamily;
        p.kind = "rhs_packer";
        p.features = KAI_FEATURE_SME;
        p.shape = {0, n, kcc * kcl};
        p.elements = static_cast<double>(n * kcc * kcl);
        p.extent = n;
        p.granule = 128;  // a multiple of nr at every SVL up to 2048 bits
        p.prepare = [st, n, kcc, kcl] {
            st->in.make(1, n, kcc * kcl, 64);
            st->tile = kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme();
            st->packed.assign(kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(n, kcc, kcl), 0);
        };
        p.pack = [st, n, kcc, kcl](size_t b, size_t e) {
            const kai_rhs_pack_qsi8cx_params rp{st->in.p.lhs_zero_point, st->in.p.scale_multiplier};
            kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
                e - b, kcc, kcl, n, st->in.rhs.data() + b, st->in.bias.data() + b, st->in.scale.data() + b,
                st->packed.data() + kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(b, kcc, kcl),
                &rp);
        };
        p.check = [st, n, kcc, kcl](bool) {
            const std::vector<uint8_t> ref = kai_ref::pack_rhs_indirect_qsi8cxp2vlx4sb(
                n, kcc, kcl, st->tile, st->in.rhs.data(), n, st->in.bias.data(), st->in.scale.data(),
                st->in.p.lhs_zero_point, st->in.p.scale_multiplier);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

}  // namespace

void add_qai8_static_cases(const Options& opt, std::vector<BenchCase>& out) {
    // The small emulated shapes (bf16 = true): SME is emulated in software, like BF16.
    for (const Kernel& k : kKernels) {
        for (const Shape& s : suite_shapes(opt, false, true)) {
            add_matmul_cases(opt, k.name, "x8 pack+kernel", kFamily, k.features, s, 0, "GOP/s",
                             [&k, s] { return std::unique_ptr<MatmulProblem>(new Qai8StaticProblem(k, s)); }, out);
        }
    }
    for (const Shape& s : suite_shapes(opt, true, true)) {
        add_matmul_cases(opt, kGemv, "", "qai8_qsi8cxp", KAI_FEATURE_SME2, s, 0, "GOP/s",
                         [s] { return std::unique_ptr<MatmulProblem>(new Qai8StaticGemvProblem(s)); }, out);
    }
    add_packers(opt, out);
}

}  // namespace kai_bench
