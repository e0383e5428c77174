// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//
// aten_style_op.h on kai: the layouts and kernels PyTorch's KleidiAI path uses, chosen at run time
// with kai_select's pair helper on the one packed buffer (nr, kr, sr) = (8, 16, 2).
#include "examples/aten_style_op/aten_style_op.h"

#include <cfloat>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "kai/kai_common.h"
#include "kai/kai_cpu.h"
#include "kai/kai_select.h"
#include "kai/kai_threading.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"

namespace aten_style {

Layout layout_for(int64_t block_size, int64_t in_features) {
    if (block_size <= 0 || in_features <= 0) return Layout::kUnsupported;
    if (block_size == in_features) return Layout::kChannelwise;
    if (block_size % 32 == 0 && in_features % block_size == 0) return Layout::kGroupwise;
    return Layout::kUnsupported;
}

size_t packed_weight_size(int64_t block_size, int64_t in_features, int64_t out_features) {
    const size_t n = static_cast<size_t>(out_features), k = static_cast<size_t>(in_features);
    switch (layout_for(block_size, in_features)) {
        case Layout::kChannelwise:
            return kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, kNr, kKr, kSr);
        case Layout::kGroupwise:
            return kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(n, k, kNr, kKr, kSr,
                                                                            static_cast<size_t>(block_size), kai_dt_bf16);
        default:
            return n * k;
    }
}

namespace {

uint64_t features() {
    static const uint64_t f = kai_cpu_get_features();
    return f;
}

void require_dotprod() {
    // PyTorch's can_use_kleidiai() requires cpuinfo_has_arm_neon_dot(): every kernel reading this
    // layout needs at least DotProd.
    if (!kai_cpu_has(features(), KAI_CPU_FEATURE_DOTPROD)) {
        throw std::invalid_argument("aten_style: the CPU lacks FEAT_DotProd (PyTorch would use its reference path)");
    }
}

// Runs `fn(t)` on nthreads threads (the calling thread is thread 0), as at::parallel_for would.
template <typename Fn>
void parallel(int nthreads, Fn fn) {
    std::vector<std::thread> pool;
    for (int t = 1; t < nthreads; ++t) pool.emplace_back(fn, static_cast<size_t>(t));
    fn(size_t{0});
    for (auto& th : pool) th.join();
}

}  // namespace

void pack_4bit_weight(uint8_t* packed, const uint8_t* weights, const void* scales_zeros, DType scales_dtype,
                      const float* bias, int64_t block_size, int64_t in_features, int64_t out_features) {
    const Layout layout = layout_for(block_size, in_features);
    const size_t n = static_cast<size_t>(out_features), k = static_cast<size_t>(in_features);
    if (out_features <= 0) throw std::invalid_argument("aten_style: out_features must be positive");
    if (layout == Layout::kChannelwise && scales_dtype == DType::kFloat32) {
        require_dotprod();
        // Channel-wise: f32 scale per output channel; nibbles unsigned with zero point 8.
        const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
        kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, n, k, kNr, kKr, kSr, weights, bias,
                                               static_cast<const float*>(scales_zeros), packed, 0, &params);
        return;
    }
    if (layout == Layout::kGroupwise && scales_dtype == DType::kBFloat16) {
        require_dotprod();
        // Group-wise: bf16 scale per (channel, block); rows of ceil(K / 2) bytes, K / bl scales.
        const size_t bl = static_cast<size_t>(block_size);
        const size_t rhs_stride = kai_roundup(k, 2) / 2;
        const size_t scale_stride = (kai_roundup(k, bl) / bl) * sizeof(uint16_t);
        const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
        kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, n, k, kNr, kKr, kSr, bl, weights, rhs_stride, bias, scales_zeros,
                                                  scale_stride, packed, 0, &params);
        return;
    }
    throw std::invalid_argument(
        "aten_style: KleidiAI layouts need block_size == in_features with f32 scales, or a multiple of 32 "
        "dividing in_features with bf16 scales");
}

std::string kernels_used(int64_t block_size, int64_t in_features, int64_t m) {
    const uint64_t f = features();
    if (layout_for(block_size, in_features) == Layout::kChannelwise) {
        const auto p = kai_select_pair_qsi4cxp(f, kNr, kKr, kSr);
        return KAI_SELECT_NAME(m > 1 && p.gemm ? p.gemm : p.gemv);
    }
    const auto p = kai_select_pair_qsi4c32p(f, kNr, kKr, kSr);
    std::string s = KAI_SELECT_NAME(m > 1 && p.gemm ? p.gemm : p.gemv);
    if (m > 1 && p.gemm == nullptr && p.gemv != nullptr) {
        s += " (fallback: the I8MM GEMM of this layout, 4x8x32, is not in kai yet)";
    }
    return s;
}

void matmul_4bit(void* out, const void* input, DType input_dtype, int64_t m_, const uint8_t* packed,
                 int64_t block_size, int64_t in_features, int64_t out_features, int nthreads) {
    require_dotprod();
    if (m_ <= 0 || out_features <= 0 || nthreads < 1) throw std::invalid_argument("aten_style: bad shape or thread count");
    const size_t m = static_cast<size_t>(m_), n = static_cast<size_t>(out_features), k = static_cast<size_t>(in_features);
    const size_t bl = static_cast<size_t>(block_size);
    const Layout layout = layout_for(block_size, in_features);
    if (layout == Layout::kUnsupported) throw std::invalid_argument("aten_style: unsupported block_size");

    // The kernel: the GEMM of the pair for m > 1 when the CPU runs it, else the GEMV (which
    // accepts any m). Both read `packed` as it is: no repacking per CPU.
    const uint64_t f = features();
    size_t mr, kr, sr, m_step, n_step;
    const kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* cx = nullptr;
    const kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* c32 = nullptr;
    if (layout == Layout::kChannelwise) {
        const auto p = kai_select_pair_qsi4cxp(f, kNr, kKr, kSr);
        cx = (m > 1 && p.gemm) ? p.gemm : p.gemv;
        mr = cx->get_mr(), kr = cx->get_kr(), sr = cx->get_sr(), m_step = cx->get_m_step(), n_step = cx->get_n_step();
    } else {
        // Explicit fallback: the group-wise I8MM GEMM that reads nr = 8 (4x8x32) does not exist in
        // kai yet, so p.gemm is NULL and the DotProd GEMV computes every m.
        const auto p = kai_select_pair_qsi4c32p(f, kNr, kKr, kSr);
        c32 = (m > 1 && p.gemm) ? p.gemm : p.gemv;
        mr = c32->get_mr(), kr = c32->get_kr(), sr = c32->get_sr(), m_step = c32->get_m_step(),
        n_step = c32->get_n_step();
    }

    // Activations as f32 rows (bf16 widened exactly).
    std::vector<float> widened;
    const float* lhs = static_cast<const float*>(input);
    if (input_dtype == DType::kBFloat16) {
        widened.resize(m * k);
        const uint16_t* src = static_cast<const uint16_t*>(input);
        for (size_t i = 0; i < m * k; ++i) widened[i] = kai_cast_f32_bf16(src[i]);
        lhs = widened.data();
    }
    std::vector<float> out_f32;
    float* dst = static_cast<float*>(out);
    if (input_dtype == DType::kBFloat16) {
        out_f32.resize(m * n);
        dst = out_f32.data();
    }

    // Quantise and pack the activations once, split by rows in mr chunks; then the output tiles.
    std::vector<uint8_t> lhs_packed(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    const size_t T = static_cast<size_t>(nthreads);
    parallel(nthreads, [&](size_t t) {
        size_t b, e;
        kai_split_range(m, mr, T, t, &b, &e);
        if (e > b) {
            kai_run_lhs_quant_pack_qai8dxp_f32(e - b, k, mr, kr, sr, 0, lhs + b * k, k * sizeof(float),
                                               lhs_packed.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(b, k, mr, kr, sr));
        }
    });
    size_t rows, cols;
    kai_split_grid(m, n, m_step, n_step, T, &rows, &cols);
    const size_t dst_stride = n * sizeof(float);
    parallel(nthreads, [&](size_t t) {
        const kai_split_tile tl = kai_split_get_tile(m, n, m_step, n_step, rows, cols, t);
        if (tl.m == 0 || tl.n == 0) return;
        if (cx != nullptr) {
            cx->run_matmul(tl.m, tl.n, k, lhs_packed.data() + cx->get_lhs_packed_offset(tl.m0, k),
                           packed + cx->get_rhs_packed_offset(tl.n0, k),
                           reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(dst) + cx->get_dst_offset(tl.m0, tl.n0, dst_stride)),
                           dst_stride, sizeof(float), -FLT_MAX, FLT_MAX);
        } else {
            c32->run_matmul(tl.m, tl.n, k, bl, lhs_packed.data() + c32->get_lhs_packed_offset(tl.m0, k),
                            packed + c32->get_rhs_packed_offset(tl.n0, k, bl),
                            reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(dst) + c32->get_dst_offset(tl.m0, tl.n0, dst_stride)),
                            dst_stride, sizeof(float), -FLT_MAX, FLT_MAX);
        }
    });
    if (input_dtype == DType::kBFloat16) {
        uint16_t* o = static_cast<uint16_t*>(out);
        for (size_t i = 0; i < m * n; ++i) o[i] = kai_cast_bf16_f32(out_f32[i]);
    }
}

}  // namespace aten_style
