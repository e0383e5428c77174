// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of family f16p_qsi4c32p: the f16 x Q4_0 SME2 MOPA
// kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa (LHS kai_lhs_pack_f16pmrx2_f32_neon, RHS
// kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon at this thread's SVL), verified as sme_q4_0_test does:
// within test/reference/f16p_qsi4c32p_ref's bound of the exact sum of its f16 operands; and its LHS packer alone,
// byte-exact.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>

#include "benchmark/bench_matmul.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f16p_qsi4c32p/kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa.h"
#include "kai/ukernels/pack/kai_lhs_pack_f16pmrx2_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/f16p_qsi4c32p_ref.h"
#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"

namespace kai_bench {

namespace {

const char kMopaName[] = "kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa";
const char kF16PackName[] = "kai_lhs_pack_f16pmrx2_f32_neon";

// The f16 x Q4_0 SME2 MOPA at one shape (LHS kai_lhs_pack_f16pmrx2_f32_neon, RHS
// kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon at this thread's SVL).
class F16MopaProblem : public MatmulProblem {
public:
    F16MopaProblem(const Shape& s, size_t bl) : s_(s), bl_(bl) {}
    size_t m_step() const override { return kai_get_m_step_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(); }
    size_t n_step() const override { return kai_get_n_step_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(); }
    size_t mr() const override { return kai_get_mr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(); }
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(KAI_FEATURE_SME2).empty()) return 0;
        return static_cast<double>(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(
            s_.n, s_.k, nr(), kr(), bl_));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(kMopaName) + s_.str());
        lhs_ = kai_test::random_f32(s_.m * s_.k, -1.0f, 1.0f, seed);
        rows_ = random_q4_0_rows(s_.n, s_.k, bl_, seed + 1);
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
        kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(1, s_.n, s_.k, nr(), kr(), sr(), bl_, rows_.data(),
                                                                    nullptr, rhs_packed_[0].data(), 0, &params);
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(s_.m, s_.k, bl_, mr(), kr(), sr()), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0.0f);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        kai_run_lhs_pack_f16pmrx2_f32_neon(
            m1 - m0, s_.k, bl_, mr(), kr(), sr(), 0, lhs_.data() + m0 * s_.k, s_.k * sizeof(float),
            lhs_packed_.data() + kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon(m0, s_.k, bl_, mr(), kr(), sr()));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const size_t stride = s_.n * sizeof(float);
        kai_run_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(
            m1 - m0, n1 - n0, s_.k, bl_,
            lhs_packed_.data() + kai_get_lhs_packed_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(m0, s_.k, bl_),
            rhs_packed_[copy].data() + kai_get_rhs_packed_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(n0, s_.k, bl_),
            reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(dst_.data()) +
                                     kai_get_dst_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(m0, n0, stride)),
            stride, sizeof(float), -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<float> lhs_rows;
        for (size_t r : rows) lhs_rows.insert(lhs_rows.end(), &lhs_[r * s_.k], &lhs_[r * s_.k] + s_.k);
        const size_t rb = kai_ref::q4_0_row_bytes(s_.k, bl_);
        std::vector<uint8_t> w;
        for (size_t c : cols) w.insert(w.end(), &rows_[c * rb], &rows_[c * rb] + rb);
        std::vector<double> exact, abs_sum;
        kai_ref::matmul_f16_q4_0_exact(lhs_rows.data(), s_.k * sizeof(float), rows.size(), s_.k, bl_, w.data(),
                                       cols.size(), &exact, &abs_sum);
        for (size_t i = 0; i < rows.size(); ++i) {
            for (size_t j = 0; j < cols.size(); ++j) {
                const double got = static_cast<double>(dst_[rows[i] * s_.n + cols[j]]);
                const double want = kai_ref::clamp_f16_q4_0(exact[i * cols.size() + j], -FLT_MAX, FLT_MAX);
                const double bound = kai_ref::f16_q4_0_error_bound(abs_sum[i * cols.size() + j], s_.k);
                if (!(std::fabs(got - want) <= bound)) {
                    return "(" + std::to_string(rows[i]) + ", " + std::to_string(cols[j]) + "): got " +
                           std::to_string(got) + ", exact " + std::to_string(want) + ", bound " + std::to_string(bound);
                }
            }
        }
        return "";
    }

    void release() override {
        std::vector<float>().swap(lhs_);
        std::vector<uint8_t>().swap(rows_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<float>().swap(dst_);
    }

private:
    static size_t nr() { return kai_get_nr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(); }
    static size_t kr() { return kai_get_kr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(); }
    static size_t sr() { return kai_get_sr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(); }
    Shape s_;
    size_t bl_;
    std::vector<float> lhs_, dst_;
    std::vector<uint8_t> rows_, lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

// kai_lhs_pack_f16pmrx2_f32_neon alone (plain NEON): mr = 16 rows per block (the MOPA's mr at SVL 512), kr = 4,
// sr = 2 (its layout ignores kr), byte-exact against test/reference/f16p_qsi4c32p_ref.
void add_f16_packer(const Options& opt, std::vector<BenchCase>& out) {
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t bl = opt.bl;
    if (k % bl != 0 || k % 2 != 0) return;
    const size_t mr = 16, kr = 4, sr = 2;
    struct State {
        std::vector<float> lhs;
        std::vector<uint8_t> packed;
    };
    auto st = std::make_shared<State>();
    PackerSpec p;
    p.name = kF16PackName;
    p.family = "f16p_qsi4c32p";
    p.kind = "lhs_packer";
    p.shape = {m, 0, k};
    p.bl = bl;
    p.elements = static_cast<double>(m * k);
    p.extent = m;
    p.granule = mr;
    p.prepare = [st, m, k, bl] {
        st->lhs = kai_test::random_f32(m * k, -1.0f, 1.0f, 61);
        st->packed.assign(kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(m, k, bl, mr, kr, sr), 0);
    };
    p.pack = [st, k, bl](size_t b, size_t e) {
        kai_run_lhs_pack_f16pmrx2_f32_neon(e - b, k, bl, mr, kr, sr, 0, st->lhs.data() + b * k, k * sizeof(float),
                                           st->packed.data() + kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon(b, k, bl, mr, kr, sr));
    };
    p.check = [st, m, k](bool) {
        std::vector<uint8_t> mask;
        const std::vector<uint8_t> ref = kai_ref::pack_lhs_f16pmrx2(st->lhs.data(), m, k, k * sizeof(float), mr, 0, &mask);
        if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
        return compare_bytes(st->packed.data(), ref.data(), ref.size(), mask.data(), "packed LHS");
    };
    p.release = [st] { *st = State(); };
    add_packer_case(p, out);
}

}  // namespace

void add_f16p_qsi4c32p_cases(const Options& opt, std::vector<BenchCase>& out) {
    const size_t bl = opt.bl;
    for (const Shape& s : suite_shapes(opt, false, true)) {
        if (s.k % bl != 0) continue;
        add_matmul_cases(opt, kMopaName, "f16 pack+kernel", "f16p_qsi4c32p", KAI_FEATURE_SME2, s, bl, "GFLOP/s",
                         [s, bl] { return std::unique_ptr<MatmulProblem>(new F16MopaProblem(s, bl)); }, out);
    }
    add_f16_packer(opt, out);
}

}  // namespace kai_bench
