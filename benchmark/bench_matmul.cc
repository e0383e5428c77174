// SPDX-License-Identifier: Apache-2.0
#include "benchmark/bench_matmul.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>

#include "test/common/compare.h"

namespace kai_bench {

std::vector<size_t> sample_indices(size_t count, bool sampled, size_t max_samples) {
    std::vector<size_t> idx;
    if (!sampled || count <= max_samples) {
        for (size_t i = 0; i < count; ++i) idx.push_back(i);
        return idx;
    }
    // First and last few (edge tiles), and an even spread in between.
    for (size_t i = 0; i < 3; ++i) idx.push_back(i);
    for (size_t i = 0; i < 3; ++i) idx.push_back(count - 1 - i);
    const size_t spread = max_samples - 6;
    for (size_t i = 1; i <= spread; ++i) idx.push_back(i * (count - 1) / (spread + 1));
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    return idx;
}

std::string compare_sampled_bits(const float* dst, size_t ld, const std::vector<size_t>& rows,
                                 const std::vector<size_t>& cols, const std::vector<float>& ref) {
    for (size_t i = 0; i < rows.size(); ++i) {
        for (size_t j = 0; j < cols.size(); ++j) {
            const float got = dst[rows[i] * ld + cols[j]];
            const float want = ref[i * cols.size() + j];
            if (std::memcmp(&got, &want, sizeof(float)) != 0) {
                std::ostringstream os;
                os.precision(9);
                os << "(" << rows[i] << ", " << cols[j] << "): got " << got << ", reference " << want;
                return os.str();
            }
        }
    }
    return "";
}

std::string compare_bytes(const uint8_t* got, const uint8_t* want, size_t n, const uint8_t* mask, const char* what) {
    const ::testing::AssertionResult r = kai_test::bytes_equal(got, want, n, mask);
    return r ? std::string() : std::string(what) + ": " + r.message();
}

std::vector<Shape> suite_shapes(const Options& opt, bool gemv, bool bf16) {
    std::vector<Shape> shapes;
    if (!opt.shapes.empty()) {
        for (const Shape& s : opt.shapes) {
            if (!gemv || s.m == 1) shapes.push_back(s);
        }
        return shapes;
    }
    if (opt.emulated) {
        // Under an emulator the suite keeps one decode and one prefill shape per kernel (the
        // runner says so), sized so that the whole default run stays within minutes: BF16
        // instructions are emulated in software, ~100x slower than SMMLA, and a 128-row prefill
        // at K = N = 4096 costs 5-15 s per call under qemu, so prefill keeps M = 128 at N = K = 1024.
        if (bf16) {
            shapes.push_back(gemv ? Shape{1, 1024, 1024} : Shape{256, 256, 256});
        } else {
            shapes.push_back(gemv ? Shape{1, 4096, 4096} : Shape{128, 1024, 1024});
        }
        return shapes;
    }
    const size_t m = gemv ? 1 : 128;
    shapes.push_back({m, 4096, 4096});
    shapes.push_back({m, 11008, 4096});
    if (bf16) {
        if (gemv) {
            shapes.push_back({1, 256, 256});
            shapes.push_back({1, 1024, 1024});
        } else {
            shapes.push_back({256, 256, 256});
            shapes.push_back({1024, 1024, 1024});
        }
    }
    return shapes;
}

namespace {

struct Shared {
    std::unique_ptr<MatmulProblem> p;
    SpinBarrier barrier;
};

}  // namespace

void add_matmul_cases(const Options& opt, const std::string& kernel_name, const std::string& pipeline_what,
                      const std::string& family, uint32_t features, const Shape& shape, size_t bl, const char* ops_unit,
                      std::function<std::unique_ptr<MatmulProblem>()> make, std::vector<BenchCase>& out) {
    for (int pipeline = 0; pipeline < (pipeline_what.empty() ? 1 : 2); ++pipeline) {
        auto shared = std::make_shared<Shared>();
        BenchCase c;
        c.name = kernel_name;
        c.what = pipeline ? pipeline_what : "kernel";
        c.family = family;
        c.kind = pipeline ? "pipeline" : "matmul";
        c.shape = shape;
        c.bl = bl;
        c.features = features;
        c.ops = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k);
        c.ops_unit = ops_unit;
        const unsigned threads = opt.threads;
        c.setup = [shared, make, threads](size_t copies) {
            shared->barrier.reset(threads);
            shared->p = make();
            shared->p->prepare(copies);
        };
        c.run = [shared, shape, pipeline](unsigned t, unsigned T, size_t copy) {
            MatmulProblem& p = *shared->p;
            if (pipeline) {
                // Each thread quantizes/packs its own rows, then all wait before the matmul.
                size_t r0, r1;
                split_range(shape.m, p.mr(), t, T, &r0, &r1);
                if (r1 > r0) p.pack_lhs(r0, r1);
                if (T > 1) shared->barrier.wait();
            }
            size_t m0, m1, n0, n1;
            if (p.m_step() == 1 && shape.m == 1) {
                // GEMV: N-chunks of n_step multiples.
                m0 = 0;
                m1 = 1;
                split_range(shape.n, p.n_step(), t, T, &n0, &n1);
            } else {
                split_2d(shape.m, shape.n, p.m_step(), p.n_step(), t, T, &m0, &m1, &n0, &n1);
            }
            if (m1 > m0 && n1 > n0) p.run_tile(m0, m1, n0, n1, copy);
        };
        c.verify = [shared, shape](bool sampled) {
            const std::vector<size_t> rows = sample_indices(shape.m, sampled, 8);
            const std::vector<size_t> cols = sample_indices(shape.n, sampled, 48);
            return shared->p->check(rows, cols);
        };
        c.teardown = [shared] {
            shared->p->release();
            shared->p.reset();
        };
        // The weights dominate what a call reads; the runner rotates copies of them.
        auto probe = make();
        c.working_set = static_cast<size_t>(probe->packed_rhs_bytes());
        if (shape.m == 1) c.weight_bytes = probe->packed_rhs_bytes();  // GEMV: bound by weight bandwidth
        out.push_back(std::move(c));
    }
}

void add_packer_case(const PackerSpec& spec, std::vector<BenchCase>& out) {
    BenchCase c;
    c.name = spec.name;
    c.family = spec.family;
    c.kind = spec.kind;
    c.what = "pack";
    c.shape = spec.shape;
    c.features = spec.features;
    c.bl = spec.bl;
    c.ops = spec.elements;
    c.ops_unit = "Gelem/s";
    c.working_set = 0;
    auto p = std::make_shared<PackerSpec>(spec);
    c.setup = [p](size_t) { p->prepare(); };
    c.run = [p](unsigned t, unsigned T, size_t) {
        size_t b, e;
        split_range(p->extent, p->granule, t, T, &b, &e);
        if (e > b) p->pack(b, e);
    };
    c.verify = [p](bool sampled) { return p->check(sampled); };
    c.teardown = [p] { p->release(); };
    out.push_back(std::move(c));
}

}  // namespace kai_bench
