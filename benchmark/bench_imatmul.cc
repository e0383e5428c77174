// SPDX-License-Identifier: Apache-2.0
// Benchmark adapter of the f32 and f16 indirect GEMMs (families imatmul_f32p, imatmul_f16p), from their registry. An
// M x N x K problem is read as K = k_chunk_count chunks of k_chunk_length = 64 values (one chunk of K when 64 does
// not divide K), every chunk through its own pointer of the table, as a convolution's im2col-free GEMM reads its
// taps. The packed sizes follow the SVL of the running thread. One template serves both element types (a trait
// gives the registry lists, the data and the reference check).
#include <cfloat>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "benchmark/bench_matmul.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/imatmul_ref.h"
#include "test/reference/reference_common.h"
#include "test/reference/sme_f16_ref.h"
#include "test/registry/imatmul_registry.h"

namespace kai_bench {

namespace {

using kai_registry::ImatmulF16Variant;
using kai_registry::ImatmulLhsPacker;
using kai_registry::ImatmulRhsPacker;
using kai_registry::ImatmulVariant;

size_t chunk_length(size_t k) {
    return k % 64 == 0 ? 64 : k;
}

// The pointer table of an m x k row-major matrix read in chunks (the packers' blocked order, mr rows a block).
template <typename T>
std::vector<const void*> chunk_table(const T* a, size_t m, size_t k, size_t mr) {
    const size_t kcl = chunk_length(k), kcc = k / kcl, blocks = (m + mr - 1) / mr;
    std::vector<const void*> t(blocks * mr * kcc, a);
    for (size_t i = 0; i < m; ++i)
        for (size_t c = 0; c < kcc; ++c) t[(i / mr) * mr * kcc + c * mr + i % mr] = a + i * k + c * kcl;
    return t;
}

// f32: bit-exact against the fma recipe.
struct F32 {
    using T = float;
    using Variant = ImatmulVariant;
    static constexpr const char* family = "imatmul_f32p";
    static constexpr const char* what = "f32 imatmul pack+kernel";
    static const std::vector<Variant>& variants() { return kai_registry::imatmul_variants(); }
    static const std::vector<ImatmulLhsPacker>& lhs_packers() { return kai_registry::imatmul_lhs_packers(); }
    static const std::vector<ImatmulRhsPacker>& rhs_packers() { return kai_registry::imatmul_rhs_packers(); }
    static std::vector<T> random(size_t n, uint64_t seed) { return kai_test::random_f32(n, -1.0f, 1.0f, seed); }
    static std::vector<uint8_t> pack_lhs_ref(const void* const* t, size_t m, size_t kcc, size_t kcl, size_t mr) {
        return kai_ref::imatmul_pack_lhs_x32p2vlx1(t, m, kcc, kcl, mr, 0, nullptr);
    }
    static std::vector<uint8_t> pack_rhs_ref(const T* src, const T* bias, size_t n, size_t kcc, size_t kcl, size_t nr) {
        return kai_ref::imatmul_pack_rhs_x32p2vlx1b(reinterpret_cast<const uint8_t*>(src), n * sizeof(T),
                                                    reinterpret_cast<const uint8_t*>(bias), n, kcc * kcl, nr);
    }
    // a: rows x k, w: k x cols, dst: the kernel's output (row stride ld).
    static std::string check(const Variant& v, const std::vector<T>& a, const std::vector<T>& w, const std::vector<T>& bias,
                             size_t k, const T* dst, size_t ld, const std::vector<size_t>& rows,
                             const std::vector<size_t>& cols) {
        const std::vector<float> ref = kai_ref::imatmul_f32_fma(
            a.data(), w.data(), bias.data(), rows.size(), cols.size(), k, -FLT_MAX, FLT_MAX,
            v.fclamp ? kai_ref::ImatmulClamp::fclamp : kai_ref::ImatmulClamp::min_max);
        return compare_sampled_bits(dst, ld, rows, cols, ref);
    }
};

// f16: within sme_f16_error_bound of the exact sum (the pad of an odd chunk adds 0 to it; the bound uses Kp).
struct F16 {
    using T = uint16_t;
    using Variant = ImatmulF16Variant;
    static constexpr const char* family = "imatmul_f16p";
    static constexpr const char* what = "f16 imatmul pack+kernel";
    static const std::vector<Variant>& variants() { return kai_registry::imatmul_f16_variants(); }
    static const std::vector<ImatmulLhsPacker>& lhs_packers() { return kai_registry::imatmul_f16_lhs_packers(); }
    static const std::vector<ImatmulRhsPacker>& rhs_packers() { return kai_registry::imatmul_f16_rhs_packers(); }
    static std::vector<T> random(size_t n, uint64_t seed) {
        const std::vector<float> f = kai_test::random_f32(n, -1.0f, 1.0f, seed);
        std::vector<T> h(n);
        for (size_t i = 0; i < n; ++i) h[i] = kai_ref::f16_from_f32(f[i]);
        return h;
    }
    static std::vector<uint8_t> pack_lhs_ref(const void* const* t, size_t m, size_t kcc, size_t kcl, size_t mr) {
        return kai_ref::imatmul_pack_lhs_x16p2vlx2(t, m, kcc, kcl, mr, 0, nullptr);
    }
    static std::vector<uint8_t> pack_rhs_ref(const T* src, const T* bias, size_t n, size_t kcc, size_t kcl, size_t nr) {
        return kai_ref::imatmul_pack_rhs_x16p2vlx2b(reinterpret_cast<const uint8_t*>(src), n * sizeof(T),
                                                    reinterpret_cast<const uint8_t*>(bias), n, kcc, kcl, nr);
    }
    static std::string check(const Variant& v, const std::vector<T>& a, const std::vector<T>& w, const std::vector<T>& bias,
                             size_t k, const T* dst, size_t ld, const std::vector<size_t>& rows,
                             const std::vector<size_t>& cols) {
        std::vector<double> exact, abs_sum;
        kai_ref::sme_matmul_f16_exact(a.data(), w.data(), bias.data(), rows.size(), cols.size(), k, &exact, &abs_sum);
        const size_t kcl = chunk_length(k), kp = k / kcl * ((kcl + 1) / 2 * 2);
        for (size_t i = 0; i < rows.size(); ++i)
            for (size_t j = 0; j < cols.size(); ++j) {
                const size_t e = i * cols.size() + j;
                const double want = kai_ref::f32_from_f16(kai_ref::sme_f16_output(exact[e], -FLT_MAX, FLT_MAX, v.fclamp));
                const double got = kai_ref::f32_from_f16(dst[rows[i] * ld + cols[j]]);
                const double bound = kai_ref::sme_f16_error_bound(abs_sum[e], kp, std::fmax(std::fabs(got), std::fabs(want)));
                if (!(std::fabs(got - want) <= bound)) {
                    std::ostringstream os;
                    os << "(" << rows[i] << ", " << cols[j] << "): got " << got << ", reference " << want;
                    return os.str();
                }
            }
        return "";
    }
};

template <typename E>
class ImatmulProblem : public MatmulProblem {
public:
    using T = typename E::T;
    ImatmulProblem(const typename E::Variant& v, const Shape& s)
        : v_(v), s_(s), lp_(E::lhs_packers()[0]), rp_(E::rhs_packers()[0]), kcl_(chunk_length(s.k)), kcc_(s.k / kcl_) {}
    size_t m_step() const override { return v_.uk.get_m_step(); }
    size_t n_step() const override { return v_.uk.get_n_step(); }
    size_t mr() const override { return v_.uk.get_m_step(); }
    // 0 on a CPU without the kernel's features: the size getters read the SVL (RDSVL), which needs SME.
    double packed_rhs_bytes() const override {
        if (!kai_test::missing_features(v_.features).empty()) return 0;
        return static_cast<double>(rp_.get_rhs_packed_size(s_.n, kcc_, kcl_));
    }

    void prepare(size_t copies) override {
        const uint64_t seed = kai_test::seed_from(std::string(v_.name) + s_.str());
        lhs_ = E::random(s_.m * s_.k, seed);
        rhs_ = E::random(s_.k * s_.n, seed + 1);  // K x N
        bias_ = E::random(s_.n, seed + 2);
        table_ = chunk_table(lhs_.data(), s_.m, s_.k, mr());
        rhs_packed_.assign(copies, std::vector<uint8_t>(static_cast<size_t>(packed_rhs_bytes())));
        rp_.run(s_.n, kcc_, kcl_, s_.n * sizeof(T), rhs_.data(), bias_.data(), rhs_packed_[0].data());
        for (size_t c = 1; c < copies; ++c) rhs_packed_[c] = rhs_packed_[0];
        lhs_packed_.assign(lp_.get_lhs_packed_size(s_.m, kcc_, kcl_), 0);
        pack_lhs(0, s_.m);
        dst_.assign(s_.m * s_.n, 0);
    }

    void pack_lhs(size_t m0, size_t m1) override {
        lp_.run(m1 - m0, kcc_, kcl_, table_.data() + m0 * kcc_, 0, nullptr,
                lhs_packed_.data() + lp_.get_lhs_packed_offset(m0, kcc_, kcl_));
    }

    void run_tile(size_t m0, size_t m1, size_t n0, size_t n1, size_t copy) override {
        const auto& uk = v_.uk;
        uk.run_imatmul(m1 - m0, n1 - n0, kcc_, kcl_, lhs_packed_.data() + uk.get_lhs_packed_offset(m0, kcc_, kcl_),
                       rhs_packed_[copy].data() + uk.get_rhs_packed_offset(n0, kcc_, kcl_),
                       dst_.data() + m0 * s_.n + n0, s_.n * sizeof(T), -FLT_MAX, FLT_MAX);
    }

    std::string check(const std::vector<size_t>& rows, const std::vector<size_t>& cols) override {
        std::vector<T> a, w(s_.k * cols.size()), bias;
        for (size_t r : rows)
            a.insert(a.end(), lhs_.begin() + static_cast<long>(r * s_.k), lhs_.begin() + static_cast<long>((r + 1) * s_.k));
        for (size_t kk = 0; kk < s_.k; ++kk)
            for (size_t j = 0; j < cols.size(); ++j) w[kk * cols.size() + j] = rhs_[kk * s_.n + cols[j]];
        for (size_t c : cols) bias.push_back(bias_[c]);
        return E::check(v_, a, w, bias, s_.k, dst_.data(), s_.n, rows, cols);
    }

    void release() override {
        std::vector<T>().swap(lhs_);
        std::vector<T>().swap(rhs_);
        std::vector<const void*>().swap(table_);
        std::vector<std::vector<uint8_t>>().swap(rhs_packed_);
        std::vector<uint8_t>().swap(lhs_packed_);
        std::vector<T>().swap(dst_);
    }

private:
    const typename E::Variant& v_;
    Shape s_;
    const ImatmulLhsPacker& lp_;
    const ImatmulRhsPacker& rp_;
    size_t kcl_, kcc_;
    std::vector<T> lhs_, rhs_, bias_, dst_;
    std::vector<const void*> table_;
    std::vector<uint8_t> lhs_packed_;
    std::vector<std::vector<uint8_t>> rhs_packed_;
};

template <typename E>
void add_packers(const Options& opt, std::vector<BenchCase>& out) {
    using T = typename E::T;
    const size_t m = opt.shapes.empty() ? 128 : opt.shapes[0].m;
    const size_t n = opt.shapes.empty() ? 4096 : opt.shapes[0].n;
    const size_t k = opt.shapes.empty() ? 4096 : opt.shapes[0].k;
    const size_t kcl = chunk_length(k), kcc = k / kcl;
    for (const ImatmulLhsPacker& lp : E::lhs_packers()) {
        struct State {
            std::vector<T> src;
            std::vector<const void*> table;
            std::vector<uint8_t> packed;
            size_t mr = 0;
        };
        auto st = std::make_shared<State>();
        const ImatmulLhsPacker* pk = &lp;
        PackerSpec p;
        p.name = lp.name;
        p.family = E::family;
        p.kind = "lhs_packer";
        p.features = lp.features;
        p.shape = {m, 0, k};
        p.elements = static_cast<double>(m * k);
        p.extent = m;
        p.granule = 128;  // a multiple of mr = 2 * SVL / 32 at every SVL up to 2048 bits
        p.prepare = [st, pk, m, k, kcc, kcl] {
            st->src = E::random(m * k, 61);
            st->mr = pk->get_m_step();
            st->table = chunk_table(st->src.data(), m, k, st->mr);
            st->packed.assign(pk->get_lhs_packed_size(m, kcc, kcl), 0);
        };
        p.pack = [st, pk, kcc, kcl](size_t b, size_t e) {
            pk->run(e - b, kcc, kcl, st->table.data() + b * kcc, 0, nullptr,
                    st->packed.data() + pk->get_lhs_packed_offset(b, kcc, kcl));
        };
        p.check = [st, m, kcc, kcl](bool) {
            const std::vector<uint8_t> ref = E::pack_lhs_ref(st->table.data(), m, kcc, kcl, st->mr);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed LHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
    for (const ImatmulRhsPacker& rp : E::rhs_packers()) {
        struct State {
            std::vector<T> src, bias;  // K x N
            std::vector<uint8_t> packed;
            size_t nr = 0;
        };
        auto st = std::make_shared<State>();
        const ImatmulRhsPacker* pk = &rp;
        PackerSpec p;
        p.name = rp.name;
        p.family = E::family;
        p.kind = "rhs_packer";
        p.features = rp.features;
        p.shape = {0, n, k};
        p.elements = static_cast<double>(n * k);
        p.extent = n;
        p.granule = 128;  // a multiple of nr at every SVL up to 2048 bits
        p.prepare = [st, pk, n, k, kcc, kcl] {
            st->src = E::random(k * n, 62);
            st->bias = E::random(n, 63);
            st->nr = pk->get_n_step();
            st->packed.assign(pk->get_rhs_packed_size(n, kcc, kcl), 0);
        };
        p.pack = [st, pk, n, kcc, kcl](size_t b, size_t e) {
            pk->run(e - b, kcc, kcl, n * sizeof(T), st->src.data() + b, st->bias.data() + b,
                    st->packed.data() + pk->get_rhs_packed_offset(b, kcc, kcl));
        };
        p.check = [st, n, kcc, kcl](bool) {
            const std::vector<uint8_t> ref = E::pack_rhs_ref(st->src.data(), st->bias.data(), n, kcc, kcl, st->nr);
            if (ref.size() != st->packed.size()) return std::string("packed size differs from the reference");
            return compare_bytes(st->packed.data(), ref.data(), ref.size(), nullptr, "packed RHS");
        };
        p.release = [st] { *st = State(); };
        add_packer_case(p, out);
    }
}

template <typename E>
void add_family(const Options& opt, std::vector<BenchCase>& out) {
    for (const typename E::Variant& v : E::variants()) {
        // The small emulated shapes (bf16 = true): SME is emulated in software, like BF16.
        for (const Shape& s : suite_shapes(opt, false, true)) {
            add_matmul_cases(opt, v.name, E::what, E::family, v.features, s, 0, "GFLOP/s",
                             [&v, s] { return std::unique_ptr<MatmulProblem>(new ImatmulProblem<E>(v, s)); }, out);
        }
    }
    add_packers<E>(opt, out);
}

}  // namespace

void add_imatmul_cases(const Options& opt, std::vector<BenchCase>& out) {
    add_family<F32>(opt, out);
    add_family<F16>(opt, out);
}

}  // namespace kai_bench
