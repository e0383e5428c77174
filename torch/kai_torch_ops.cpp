// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//
// kai's kernels as PyTorch operators (TORCH_LIBRARY(kai, m)); docs/pytorch.md describes the ops,
// their schemas, packed formats and numerics. Every op picks its kernel for the running CPU with
// kai/kai_select.h and splits the output into tiles with kai/kai_threading.h, one at::parallel_for
// task per tile (the offset API: each task computes its own tile of the same packed buffers).
//
//   dyn_quant_pack_4bit_weight / dyn_quant_matmul_4bit  PyTorch's aten ops of the same names on their
//       KleidiAI path: int4 weights (channel-wise f32 scales, or group-wise bf16 scales), int8
//       activations quantised per row inside the call; packed bytes at (nr, kr, sr) = (8, 16, 2).
//   pack_linear_bf16 / linear_bf16  f32 (or bf16) linear with BFMMLA / BFDOT on bf16-rounded operands.
//   pack_gguf / linear_gguf  GGUF Q4_0 weights kept 4-bit (qsi8d32p x qsi4c32p kernels); Q8_0 folded to
//       per-channel int8 (qai8dxp x qsi8cxp kernels); Q4_K and Q6_K kept as the file has them
//       (qsi8d256p x q4kp / q6kp kernels, docs/matmul_gguf_kquants.md).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/library.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/kai_cpu.h"
#include "kai/kai_select.h"
#include "kai/kai_threading.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p1x4_f32_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p8x4_f32_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p_q4kp_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d256p_f32_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q4kp_q4k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q6kp_q6k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon.h"

namespace {

using at::Tensor;

uint64_t cpu_features() {
    static const uint64_t f = kai_cpu_get_features();
    return f;
}

void require_feature(uint64_t feature, const char* op, const char* name) {
    TORCH_CHECK(kai_cpu_has(cpu_features(), feature), op, ": this CPU lacks ", name,
                " (every kai kernel of this operator needs it)");
}

// ---- argument checks: every message names the argument -------------------------------------------

void check_cpu_dense(const Tensor& t, const char* op, const char* arg) {
    TORCH_CHECK(t.device().is_cpu(), op, ": ", arg, " must be a CPU tensor, got device ", t.device());
    TORCH_CHECK(t.layout() == at::kStrided, op, ": ", arg, " must be a dense (strided) tensor, got layout ",
                t.layout());
}

void check_dtype(const Tensor& t, at::ScalarType want, const char* op, const char* arg) {
    TORCH_CHECK(t.scalar_type() == want, op, ": ", arg, " must have dtype ", want, ", got ", t.scalar_type());
}

void check_contiguous(const Tensor& t, const char* op, const char* arg) {
    TORCH_CHECK(t.is_contiguous(), op, ": ", arg, " must be contiguous (call .contiguous() first)");
}

void check_float_input(const Tensor& x, int64_t k, const char* op) {
    check_cpu_dense(x, op, "input");
    TORCH_CHECK(x.scalar_type() == at::kFloat || x.scalar_type() == at::kBFloat16, op,
                ": input must have dtype float32 or bfloat16, got ", x.scalar_type());
    TORCH_CHECK(x.dim() >= 1, op, ": input must have at least one dimension");
    TORCH_CHECK(x.size(-1) == k, op, ": input's last dimension (", x.size(-1), ") must equal in_features (", k, ")");
}

// Activations as a contiguous f32 matrix of rows of k (bf16 widened exactly).
Tensor f32_rows(const Tensor& x, int64_t k) {
    return x.to(at::kFloat).contiguous().reshape({-1, k});
}

// Output shape: input's leading dimensions, then n.
std::vector<int64_t> out_shape(const Tensor& x, int64_t n) {
    std::vector<int64_t> s(x.sizes().begin(), x.sizes().end());
    s.back() = n;
    return s;
}

c10::SymDimVector out_sym_shape(const Tensor& x, int64_t n) {
    c10::SymDimVector s(x.sym_sizes().begin(), x.sym_sizes().end());
    s.back() = c10::SymInt(n);
    return s;
}

// Runs fn(tile) for every tile of an m x n output split for at::get_num_threads() workers, one
// at::parallel_for task per tile (grain 1): kai's kernels compute any tile given its offsets.
template <typename Fn>
void for_each_tile(size_t m, size_t n, size_t m_step, size_t n_step, Fn fn) {
    const size_t T = static_cast<size_t>(std::max(1, at::get_num_threads()));
    size_t rows, cols;
    kai_split_grid(m, n, m_step, n_step, T, &rows, &cols);
    const int64_t tiles = static_cast<int64_t>(rows * cols);
    at::parallel_for(0, tiles, 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
            const kai_split_tile tl = kai_split_get_tile(m, n, m_step, n_step, rows, cols, static_cast<size_t>(t));
            if (tl.m != 0 && tl.n != 0) fn(tl);
        }
    });
}

// Row chunks of mr for the activation packers, one task per chunk range.
template <typename Fn>
void for_each_row_range(size_t m, size_t mr, Fn fn) {
    const size_t T = static_cast<size_t>(std::max(1, at::get_num_threads()));
    at::parallel_for(0, static_cast<int64_t>(T), 1, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
            size_t r0, r1;
            kai_split_range(m, mr, T, static_cast<size_t>(t), &r0, &r1);
            if (r1 > r0) fn(r0, r1);
        }
    });
}

// f32 result rows -> the output tensor in the input's dtype and leading shape.
Tensor finish(const Tensor& out_f32, const Tensor& input, int64_t n) {
    Tensor out = out_f32.reshape(out_shape(input, n));
    return input.scalar_type() == at::kFloat ? out : out.to(input.scalar_type());
}

// ---- dyn_quant_*_4bit: PyTorch's _dyn_quant_pack_4bit_weight / _dyn_quant_matmul_4bit ----------

constexpr size_t kDqNr = 8, kDqKr = 16, kDqSr = 2;  // the KleidiAI GEMV layout PyTorch packs
const char* const kPackOp = "kai::dyn_quant_pack_4bit_weight";
const char* const kMatmulOp = "kai::dyn_quant_matmul_4bit";

bool dq_channelwise(int64_t bl, int64_t k) { return bl == k; }  // checked first, as PyTorch does

void check_dq_shape(int64_t bl, int64_t k, int64_t n, const char* op) {
    TORCH_CHECK(k > 0, op, ": in_features must be positive, got ", k);
    TORCH_CHECK(n > 0, op, ": out_features must be positive, got ", n);
    TORCH_CHECK(dq_channelwise(bl, k) || (bl > 0 && bl % 32 == 0 && k % bl == 0), op,
                ": block_size must equal in_features (channel-wise) or be a positive multiple of 32 that divides "
                "in_features (group-wise); got block_size ",
                bl, " with in_features ", k);
}

size_t dq_packed_size(int64_t bl, int64_t k, int64_t n) {
    const size_t nn = static_cast<size_t>(n), kk = static_cast<size_t>(k);
    if (dq_channelwise(bl, k)) return kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(nn, kk, kDqNr, kDqKr, kDqSr);
    return kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(nn, kk, kDqNr, kDqKr, kDqSr,
                                                                    static_cast<size_t>(bl), kai_dt_bf16);
}

void check_dq_pack_args(const Tensor& w, const Tensor& sz, const std::optional<Tensor>& bias, int64_t bl, int64_t k,
                        int64_t n) {
    check_dq_shape(bl, k, n, kPackOp);
    check_cpu_dense(w, kPackOp, "weights");
    check_dtype(w, at::kByte, kPackOp, "weights");
    const int64_t row_bytes = (k + 1) / 2;
    TORCH_CHECK(w.numel() == n * row_bytes, kPackOp, ": weights must hold out_features x ceil(in_features / 2) = ", n,
                " x ", row_bytes, " bytes (two 4-bit values per byte), got ", w.numel(), " elements of shape ",
                w.sizes());
    check_cpu_dense(sz, kPackOp, "scales_zeros");
    if (dq_channelwise(bl, k)) {
        check_dtype(sz, at::kFloat, kPackOp, "scales_zeros (channel-wise, block_size == in_features)");
        TORCH_CHECK(sz.numel() == n, kPackOp, ": scales_zeros must hold out_features = ", n,
                    " scales (channel-wise), got ", sz.numel());
    } else {
        check_dtype(sz, at::kBFloat16, kPackOp, "scales_zeros (group-wise)");
        TORCH_CHECK(sz.numel() == n * (k / bl), kPackOp, ": scales_zeros must hold out_features x in_features / "
                    "block_size = ", n, " x ", k / bl, " scales (group-wise), got ", sz.numel());
    }
    if (bias.has_value()) {
        check_cpu_dense(*bias, kPackOp, "bias");
        check_dtype(*bias, at::kFloat, kPackOp, "bias");
        TORCH_CHECK(bias->numel() == n, kPackOp, ": bias must hold out_features = ", n, " values, got ", bias->numel());
    }
}

Tensor dyn_quant_pack_4bit_weight(const Tensor& weights, const Tensor& scales_zeros, const std::optional<Tensor>& bias,
                                  int64_t block_size, int64_t in_features, int64_t out_features) {
    check_dq_pack_args(weights, scales_zeros, bias, block_size, in_features, out_features);
    require_feature(KAI_CPU_FEATURE_DOTPROD, kPackOp, "FEAT_DotProd");
    const Tensor w = weights.contiguous(), s = scales_zeros.contiguous();
    const Tensor b = bias.has_value() ? bias->contiguous() : Tensor();
    const float* bptr = b.defined() ? b.data_ptr<float>() : nullptr;
    Tensor packed = at::empty({static_cast<int64_t>(dq_packed_size(block_size, in_features, out_features))},
                              weights.options().dtype(at::kByte));
    const size_t n = static_cast<size_t>(out_features), k = static_cast<size_t>(in_features);
    uint8_t* dst = packed.data_ptr<uint8_t>();
    const uint8_t* src = w.data_ptr<uint8_t>();
    const size_t row_bytes = (k + 1) / 2;
    // Column ranges of nr, packed in parallel at their offsets.
    for_each_row_range(n, kDqNr, [&](size_t n0, size_t n1) {
        const float* bp = bptr ? bptr + n0 : nullptr;
        if (dq_channelwise(block_size, in_features)) {
            const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
            kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(
                1, n1 - n0, k, kDqNr, kDqKr, kDqSr, src + n0 * row_bytes, bp, s.data_ptr<float>() + n0,
                dst + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n0, k, kDqNr, kDqKr, kDqSr), 0, &params);
        } else {
            const size_t bl = static_cast<size_t>(block_size);
            const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
            const size_t scale_stride = (k / bl) * sizeof(uint16_t);
            kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(
                1, n1 - n0, k, kDqNr, kDqKr, kDqSr, bl, src + n0 * row_bytes, row_bytes, bp,
                static_cast<const uint8_t*>(s.data_ptr()) + n0 * scale_stride, scale_stride,
                dst + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(n0, k, kDqNr, kDqKr, kDqSr, bl,
                                                                                  kai_dt_bf16),
                0, &params);
        }
    });
    return packed;
}

void check_dq_matmul_args(const Tensor& x, const Tensor& packed, int64_t bl, int64_t k, int64_t n) {
    check_dq_shape(bl, k, n, kMatmulOp);
    check_float_input(x, k, kMatmulOp);
    TORCH_CHECK(x.dim() == 2, kMatmulOp, ": input must be 2-D (M x in_features), as for aten::_dyn_quant_matmul_4bit; got ",
                x.dim(), "-D");
    check_cpu_dense(packed, kMatmulOp, "packed_weights");
    check_dtype(packed, at::kByte, kMatmulOp, "packed_weights");
    check_contiguous(packed, kMatmulOp, "packed_weights");
    const int64_t want = static_cast<int64_t>(dq_packed_size(bl, k, n));
    TORCH_CHECK(packed.numel() == want, kMatmulOp, ": packed_weights must hold ", want,
                " bytes for this block_size, in_features and out_features (from dyn_quant_pack_4bit_weight), got ",
                packed.numel());
}

Tensor dyn_quant_matmul_4bit(const Tensor& input, const Tensor& packed_weights, int64_t block_size, int64_t in_features,
                             int64_t out_features) {
    check_dq_matmul_args(input, packed_weights, block_size, in_features, out_features);
    require_feature(KAI_CPU_FEATURE_DOTPROD, kMatmulOp, "FEAT_DotProd");
    const size_t k = static_cast<size_t>(in_features), n = static_cast<size_t>(out_features);
    const size_t bl = static_cast<size_t>(block_size);
    const Tensor x = f32_rows(input, in_features);
    const size_t m = static_cast<size_t>(x.size(0));
    Tensor out = at::empty({x.size(0), out_features}, x.options());
    if (m == 0) return finish(out, input, out_features);
    const uint64_t f = cpu_features();
    const bool cw = dq_channelwise(block_size, in_features);
    // The pair of kernels that read this one layout: the GEMM for m > 1 where the CPU runs it, else the GEMV.
    const kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* cx = nullptr;
    const kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* c32 = nullptr;
    size_t mr, kr, sr, m_step, n_step;
    if (cw) {
        const auto p = kai_select_pair_qsi4cxp(f, kDqNr, kDqKr, kDqSr);
        cx = (m > 1 && p.gemm) ? p.gemm : p.gemv;
        TORCH_CHECK(cx != nullptr, kMatmulOp, ": no kai kernel of this CPU reads the (8, 16, 2) channel-wise layout");
        mr = cx->get_mr(), kr = cx->get_kr(), sr = cx->get_sr(), m_step = cx->get_m_step(), n_step = cx->get_n_step();
    } else {
        const auto p = kai_select_pair_qsi4c32p(f, kDqNr, kDqKr, kDqSr);
        c32 = (m > 1 && p.gemm) ? p.gemm : p.gemv;
        TORCH_CHECK(c32 != nullptr, kMatmulOp, ": no kai kernel of this CPU reads the (8, 16, 2) group-wise layout");
        mr = c32->get_mr(), kr = c32->get_kr(), sr = c32->get_sr(), m_step = c32->get_m_step(),
        n_step = c32->get_n_step();
    }
    std::vector<uint8_t> lhs(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    const float* xs = x.data_ptr<float>();
    for_each_row_range(m, mr, [&](size_t r0, size_t r1) {
        kai_run_lhs_quant_pack_qai8dxp_f32(r1 - r0, k, mr, kr, sr, 0, xs + r0 * k, k * sizeof(float),
                                           lhs.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(r0, k, mr, kr, sr));
    });
    const uint8_t* rhs = packed_weights.data_ptr<uint8_t>();
    uint8_t* dst = reinterpret_cast<uint8_t*>(out.data_ptr<float>());
    const size_t ds = n * sizeof(float);
    for_each_tile(m, n, m_step, n_step, [&](const kai_split_tile& t) {
        if (cx != nullptr) {
            cx->run_matmul(t.m, t.n, k, lhs.data() + cx->get_lhs_packed_offset(t.m0, k),
                           rhs + cx->get_rhs_packed_offset(t.n0, k),
                           reinterpret_cast<float*>(dst + cx->get_dst_offset(t.m0, t.n0, ds)), ds, sizeof(float),
                           -FLT_MAX, FLT_MAX);
        } else {
            c32->run_matmul(t.m, t.n, k, bl, lhs.data() + c32->get_lhs_packed_offset(t.m0, k),
                            rhs + c32->get_rhs_packed_offset(t.n0, k, bl),
                            reinterpret_cast<float*>(dst + c32->get_dst_offset(t.m0, t.n0, ds)), ds, sizeof(float),
                            -FLT_MAX, FLT_MAX);
        }
    });
    return finish(out, input, out_features);
}

// ---- pack_linear_bf16 / linear_bf16 ------------------------------------------------------------------
// packed: uint8 (N, L) with L = ceil(size / N), size the bf16p12x4biasf32 packed size of (N, K): the
// shape carries N, and L checks K, so the output shape is known without reading the bytes (Meta).

const char* const kPackBf16Op = "kai::pack_linear_bf16";
const char* const kLinearBf16Op = "kai::linear_bf16";
constexpr size_t kBfNr = 12, kBfKr = 4;

int64_t bf16_row_len(int64_t n, int64_t k) {
    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon(static_cast<size_t>(n),
                                                                                         static_cast<size_t>(k), kBfNr, kBfKr);
    return static_cast<int64_t>((size + static_cast<size_t>(n) - 1) / static_cast<size_t>(n));
}

void check_bf16_pack_args(const Tensor& w, const std::optional<Tensor>& bias) {
    check_cpu_dense(w, kPackBf16Op, "weight");
    TORCH_CHECK(w.scalar_type() == at::kFloat || w.scalar_type() == at::kBFloat16, kPackBf16Op,
                ": weight must have dtype float32 or bfloat16, got ", w.scalar_type());
    TORCH_CHECK(w.dim() == 2, kPackBf16Op, ": weight must be 2-D (out_features x in_features), got ", w.dim(), "-D");
    TORCH_CHECK(w.size(0) > 0 && w.size(1) > 0, kPackBf16Op, ": weight must not be empty, got shape ", w.sizes());
    if (bias.has_value()) {
        check_cpu_dense(*bias, kPackBf16Op, "bias");
        TORCH_CHECK(bias->scalar_type() == at::kFloat || bias->scalar_type() == at::kBFloat16, kPackBf16Op,
                    ": bias must have dtype float32 or bfloat16, got ", bias->scalar_type());
        TORCH_CHECK(bias->dim() == 1 && bias->size(0) == w.size(0), kPackBf16Op, ": bias must have shape [",
                    w.size(0), "] (out_features), got ", bias->sizes());
    }
}

Tensor pack_linear_bf16(const Tensor& weight, const std::optional<Tensor>& bias) {
    check_bf16_pack_args(weight, bias);
    require_feature(KAI_CPU_FEATURE_BF16, kPackBf16Op, "FEAT_BF16");
    const int64_t n = weight.size(0), k = weight.size(1);
    const Tensor w = weight.contiguous();
    const Tensor b = bias.has_value() ? bias->to(at::kFloat).contiguous() : Tensor();
    Tensor packed = at::empty({n, bf16_row_len(n, k)}, weight.options().dtype(at::kByte));
    uint8_t* dst = packed.data_ptr<uint8_t>();
    const size_t kk = static_cast<size_t>(k);
    const bool is_bf16 = weight.scalar_type() == at::kBFloat16;
    const size_t row = kk * (is_bf16 ? 2 : 4);
    const uint8_t* src = static_cast<const uint8_t*>(w.data_ptr());
    for_each_row_range(static_cast<size_t>(n), kBfNr, [&](size_t n0, size_t n1) {
        const float* bp = b.defined() ? b.data_ptr<float>() + n0 : nullptr;
        uint8_t* d = dst + kai_get_rhs_packed_offset_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon(n0, kk, kBfNr, kBfKr);
        if (is_bf16) {
            kai_run_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon(1, n1 - n0, kk, kBfNr, kBfKr, 1, row, src + n0 * row, bp,
                                                            nullptr, d, 0, nullptr);
        } else {
            kai_run_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon(1, n1 - n0, kk, kBfNr, kBfKr, 1, row, src + n0 * row,
                                                                 bp, nullptr, d, 0, nullptr);
        }
    });
    return packed;
}

void check_bf16_linear_args(const Tensor& input, const Tensor& packed) {
    check_cpu_dense(packed, kLinearBf16Op, "packed");
    check_dtype(packed, at::kByte, kLinearBf16Op, "packed");
    TORCH_CHECK(packed.dim() == 2 && packed.size(0) > 0, kLinearBf16Op,
                ": packed must be the 2-D uint8 tensor from kai::pack_linear_bf16, got shape ", packed.sizes());
    check_contiguous(packed, kLinearBf16Op, "packed");
    check_cpu_dense(input, kLinearBf16Op, "input");
    TORCH_CHECK(input.dim() >= 1, kLinearBf16Op, ": input must have at least one dimension");
    const int64_t k = input.size(-1);
    TORCH_CHECK(k > 0 && packed.size(1) == bf16_row_len(packed.size(0), k), kLinearBf16Op,
                ": packed was not made from a weight with in_features = input's last dimension (", k, ")");
    check_float_input(input, k, kLinearBf16Op);
}

Tensor linear_bf16(const Tensor& input, const Tensor& packed) {
    check_bf16_linear_args(input, packed);
    require_feature(KAI_CPU_FEATURE_BF16, kLinearBf16Op, "FEAT_BF16");
    const int64_t k = input.size(-1), n = packed.size(0);
    const Tensor x = f32_rows(input, k);
    const size_t m = static_cast<size_t>(x.size(0)), kk = static_cast<size_t>(k), nn = static_cast<size_t>(n);
    Tensor out = at::empty({x.size(0), n}, x.options());
    if (m == 0) return finish(out, input, n);
    const auto p = kai_select_pair_bf16(cpu_features(), kBfNr, kBfKr, 1);
    // The GEMVs take m == 1 only; the GEMM takes any m.
    const kai_matmul_clamp_f32_bf16p_bf16p_ukernel* uk = (m == 1 && p.gemv) ? p.gemv : p.gemm;
    TORCH_CHECK(uk != nullptr, kLinearBf16Op, ": no kai BF16 kernel of this CPU reads the 12x4 layout");
    const size_t mr = uk->get_mr();
    std::vector<uint8_t> lhs(mr == 1 ? kai_get_lhs_packed_size_lhs_quant_pack_bf16p1x4_f32_neon(m, kk, 1, kBfKr, 1)
                                     : kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon(m, kk, mr, kBfKr, 1));
    const float* xs = x.data_ptr<float>();
    for_each_row_range(m, mr, [&](size_t r0, size_t r1) {
        if (mr == 1) {
            kai_run_lhs_quant_pack_bf16p1x4_f32_neon(r1 - r0, kk, 1, kBfKr, 1, 0, xs + r0 * kk, kk * sizeof(float),
                                                     lhs.data() + kai_get_lhs_packed_offset_lhs_quant_pack_bf16p1x4_f32_neon(r0, kk, 1, kBfKr, 1));
        } else {
            kai_run_lhs_quant_pack_bf16p8x4_f32_neon(r1 - r0, kk, mr, kBfKr, 1, 0, xs + r0 * kk, kk * sizeof(float),
                                                     lhs.data() + kai_get_lhs_packed_offset_lhs_quant_pack_bf16p8x4_f32_neon(r0, kk, mr, kBfKr, 1));
        }
    });
    const uint8_t* rhs = packed.data_ptr<uint8_t>();
    uint8_t* dst = reinterpret_cast<uint8_t*>(out.data_ptr<float>());
    const size_t ds = nn * sizeof(float);
    for_each_tile(m, nn, uk->get_m_step(), uk->get_n_step(), [&](const kai_split_tile& t) {
        uk->run_matmul(t.m, t.n, kk, lhs.data() + uk->get_lhs_packed_offset(t.m0, kk), rhs + uk->get_rhs_packed_offset(t.n0, kk),
                       dst + uk->get_dst_offset(t.m0, t.n0, ds), ds, sizeof(float), -FLT_MAX, FLT_MAX);
    });
    return finish(out, input, n);
}

// ---- pack_gguf / linear_gguf ----------------------------------------------------------------------------
// packed: uint8 1-D, a 16-byte header (magic "KAIG", type, nr, kr, sr as uint32) then the kernels' RHS.

const char* const kPackGgufOp = "kai::pack_gguf";
const char* const kLinearGgufOp = "kai::linear_gguf";
constexpr size_t kQK = 32;    // GGUF's block length for Q4_0 and Q8_0
constexpr size_t kQKK = 256;  // and for the K-quants (super-blocks)
constexpr size_t kHeader = 16;
constexpr uint32_t kMagic = 0x4749414bu;  // "KAIG"

enum class Gguf : uint32_t { kQ4_0 = 2, kQ8_0 = 8, kQ4_K = 12, kQ6_K = 14 };  // ggml's type numbers

Gguf gguf_type(const std::string& type, const char* op) {
    if (type == "Q4_0" || type == "q4_0") return Gguf::kQ4_0;
    if (type == "Q8_0" || type == "q8_0") return Gguf::kQ8_0;
    if (type == "Q4_K" || type == "q4_k") return Gguf::kQ4_K;
    if (type == "Q6_K" || type == "q6_k") return Gguf::kQ6_K;
    TORCH_CHECK(false, op, ": type must be \"Q4_0\", \"Q8_0\", \"Q4_K\" or \"Q6_K\", got \"", type, "\"");
}

bool gguf_kquant(Gguf t) { return t == Gguf::kQ4_K || t == Gguf::kQ6_K; }

// Weights per GGUF block, and its bytes: Q4_0 f16 d + 16 bytes of nibbles; Q8_0 f16 d + 32 int8;
// Q4_K f16 d, f16 dmin, 12 bytes of 6-bit scales and mins, 128 bytes of nibbles; Q6_K 128 bytes of
// low nibbles, 64 of high 2-bit pairs, 16 int8 scales, f16 d.
size_t gguf_block_len(Gguf t) { return gguf_kquant(t) ? kQKK : kQK; }
size_t gguf_block_bytes(Gguf t) {
    switch (t) {
        case Gguf::kQ4_0: return 2 + kQK / 2;
        case Gguf::kQ8_0: return 2 + kQK;
        case Gguf::kQ4_K: return 144;
        case Gguf::kQ6_K: return 210;
    }
    return 0;
}

struct GgufLayout {
    size_t nr, kr, sr;
};

// The int8 SME / SME2 kernels read another RHS packer's layout (kai_rhs_pack_nxk_qsi8cxp..._sme); the
// Q8_0 path packs with the NEON packer, so it selects among the NEON kernels only.
uint64_t q8_features(uint64_t f) { return f & ~(static_cast<uint64_t>(KAI_CPU_FEATURE_SME) | KAI_CPU_FEATURE_SME2); }

// The K-quant kernels of one format (the q4kp and q6kp families have the same functions): GEMV
// (DotProd), GEMM (DotProd), GEMM (I8MM). All three read the one packed RHS of (nr, kr, sr) = (4, 8, 1).
// The q4kp interface struct holds the q6kp kernels too: same members, same signatures.
struct KquantKernel {
    const char* name;
    kai_matmul_clamp_f32_qsi8d256p_q4kp_ukernel uk;
};
#define KAI_TORCH_KQUANT(stem)                                                                             \
    {"kai_" #stem,                                                                                         \
     {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
      kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,               \
      kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}}
const KquantKernel kKquant[2][3] = {
    {KAI_TORCH_KQUANT(matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod),
     KAI_TORCH_KQUANT(matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod),
     KAI_TORCH_KQUANT(matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm)},
    {KAI_TORCH_KQUANT(matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod),
     KAI_TORCH_KQUANT(matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod),
     KAI_TORCH_KQUANT(matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm)},
};
#undef KAI_TORCH_KQUANT
constexpr size_t kKqNr = 4, kKqKr = 8, kKqSr = 1;

// The kernel for m rows: the GEMV for one row, else the I8MM GEMM where the CPU has FEAT_I8MM, else the
// DotProd GEMM. Every one needs FEAT_DotProd.
const KquantKernel& kquant_kernel(Gguf t, size_t m, const char* op) {
    const uint64_t f = cpu_features();
    TORCH_CHECK(kai_cpu_has(f, KAI_CPU_FEATURE_DOTPROD), op, ": this CPU has no kai ",
                t == Gguf::kQ4_K ? "Q4_K" : "Q6_K", " kernel (needs FEAT_DotProd)");
    const KquantKernel* row = kKquant[t == Gguf::kQ4_K ? 0 : 1];
    if (m == 1) return row[0];
    return kai_cpu_has(f, KAI_CPU_FEATURE_I8MM) ? row[2] : row[1];
}

// The layout pack_gguf uses on this CPU: that of the best GEMM, whose pair GEMV reads the same bytes.
GgufLayout gguf_layout(Gguf t, const char* op) {
    const uint64_t f = cpu_features();
    if (gguf_kquant(t)) {
        kquant_kernel(t, 1, op);  // the CPU check
        return {kKqNr, kKqKr, kKqSr};
    }
    if (t == Gguf::kQ4_0) {
        const auto* g = kai_select_qsi8d32p(f, 2, 1, kQK, kQK);
        TORCH_CHECK(g != nullptr, op, ": this CPU has no kai Q4_0 kernel (needs FEAT_DotProd)");
        return {g->get_nr(), g->get_kr(), g->get_sr()};
    }
    const auto* g = kai_select_qsi8cxp(q8_features(f), 2, 1, kQK);
    TORCH_CHECK(g != nullptr, op, ": this CPU has no kai int8 kernel for Q8_0 (needs FEAT_DotProd)");
    return {g->get_nr(), g->get_kr(), g->get_sr()};
}

size_t gguf_rhs_size(Gguf t, const GgufLayout& l, size_t n, size_t k) {
    if (t == Gguf::kQ4_K) return kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(n, k, l.nr, l.kr, l.sr);
    if (t == Gguf::kQ6_K) return kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(n, k, l.nr, l.kr, l.sr);
    if (t == Gguf::kQ4_0) return kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n, k, l.nr, l.kr, kQK);
    return kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, l.nr, l.kr, l.sr);
}

void check_gguf_shape(Gguf t, int64_t n, int64_t k, const char* op) {
    TORCH_CHECK(n > 0, op, ": n (output features) must be positive, got ", n);
    const int64_t bl = static_cast<int64_t>(gguf_block_len(t));
    TORCH_CHECK(k > 0 && k % bl == 0, op, ": k (input features) must be a positive multiple of ", bl, " (GGUF ",
                gguf_kquant(t) ? "super-blocks" : "blocks", "), got ", k);
}

Tensor pack_gguf(const Tensor& blocks, const std::string& type, int64_t n, int64_t k) {
    const Gguf t = gguf_type(type, kPackGgufOp);
    check_gguf_shape(t, n, k, kPackGgufOp);
    check_cpu_dense(blocks, kPackGgufOp, "blocks");
    check_dtype(blocks, at::kByte, kPackGgufOp, "blocks");
    const size_t nn = static_cast<size_t>(n), kk = static_cast<size_t>(k);
    const size_t row = (kk / gguf_block_len(t)) * gguf_block_bytes(t);
    TORCH_CHECK(blocks.numel() == static_cast<int64_t>(nn * row), kPackGgufOp, ": blocks must hold n x (k / ",
                gguf_block_len(t), ") ", type, " blocks of ", gguf_block_bytes(t), " bytes = ", nn * row,
                " bytes, got ", blocks.numel());
    const GgufLayout l = gguf_layout(t, kPackGgufOp);
    const Tensor src_t = blocks.contiguous();
    const uint8_t* src = src_t.data_ptr<uint8_t>();
    Tensor packed = at::empty({static_cast<int64_t>(kHeader + gguf_rhs_size(t, l, nn, kk))}, blocks.options());
    uint8_t* out = packed.data_ptr<uint8_t>();
    const uint32_t header[4] = {kMagic, static_cast<uint32_t>(t) | (static_cast<uint32_t>(l.sr) << 16),
                                static_cast<uint32_t>(l.nr), static_cast<uint32_t>(l.kr)};
    std::memcpy(out, header, sizeof(header));
    uint8_t* rhs = out + kHeader;
    if (gguf_kquant(t)) {  // the GGUF bytes as they are: the packers move them, changing nothing
        for_each_row_range(nn, l.nr, [&](size_t n0, size_t n1) {
            if (t == Gguf::kQ4_K) {
                kai_run_rhs_pack_nxk_q4kp_q4k_neon(
                    n1 - n0, kk, l.nr, l.kr, l.sr, src + n0 * row, row, nullptr,
                    rhs + kai_get_rhs_packed_offset_rhs_pack_nxk_q4kp_q4k_neon(n0, kk, l.nr, l.kr, l.sr));
            } else {
                kai_run_rhs_pack_nxk_q6kp_q6k_neon(
                    n1 - n0, kk, l.nr, l.kr, l.sr, src + n0 * row, row, nullptr,
                    rhs + kai_get_rhs_packed_offset_rhs_pack_nxk_q6kp_q6k_neon(n0, kk, l.nr, l.kr, l.sr));
            }
        });
        return packed;
    }
    if (t == Gguf::kQ4_0) {
        const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
        for_each_row_range(nn, l.nr, [&](size_t n0, size_t n1) {
            kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
                1, n1 - n0, kk, l.nr, l.kr, l.sr, kQK, src + n0 * row, nullptr,
                rhs + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n0, kk, l.nr, l.kr, kQK), 0, &params);
        });
        return packed;
    }
    // Q8_0: the per-block f16 scales are folded into one f32 scale per row: w = d_b * q, scale =
    // max|w| / 127, q' = round(w / scale) (ties away from zero), as ggml's KleidiAI path does.
    std::vector<int8_t> q(nn * kk);
    std::vector<float> scale(nn);
    at::parallel_for(0, n, 1, [&](int64_t b, int64_t e) {
        std::vector<float> w(kk);
        for (int64_t j = b; j < e; ++j) {
            const uint8_t* r = src + static_cast<size_t>(j) * row;
            float amax = 0.0f;
            for (size_t blk = 0; blk < kk / kQK; ++blk) {
                const uint8_t* bp = r + blk * gguf_block_bytes(t);
                uint16_t d16;
                std::memcpy(&d16, bp, 2);
                const float d = kai_cast_f32_f16(d16);
                for (size_t i = 0; i < kQK; ++i) {
                    w[blk * kQK + i] = d * static_cast<float>(static_cast<int8_t>(bp[2 + i]));
                    amax = std::max(amax, std::fabs(w[blk * kQK + i]));
                }
            }
            const float s = amax / 127.0f;
            scale[static_cast<size_t>(j)] = s;
            for (size_t i = 0; i < kk; ++i) {
                const float v = s != 0.0f ? std::round(w[i] / s) : 0.0f;
                q[static_cast<size_t>(j) * kk + i] = static_cast<int8_t>(std::max(-127.0f, std::min(127.0f, v)));
            }
        }
    });
    const kai_rhs_pack_qsi8cx_params params = {1, 1.0f};
    for_each_row_range(nn, l.nr, [&](size_t n0, size_t n1) {
        kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(
            1, n1 - n0, kk, l.nr, l.kr, l.sr, q.data() + n0 * kk, nullptr, scale.data() + n0,
            rhs + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n0, kk, l.nr, l.kr, l.sr), 0, &params);
    });
    return packed;
}

Tensor linear_gguf(const Tensor& input, const Tensor& packed, const std::string& type, int64_t n, int64_t k) {
    const Gguf t = gguf_type(type, kLinearGgufOp);
    check_gguf_shape(t, n, k, kLinearGgufOp);
    check_float_input(input, k, kLinearGgufOp);
    check_cpu_dense(packed, kLinearGgufOp, "packed");
    check_dtype(packed, at::kByte, kLinearGgufOp, "packed");
    check_contiguous(packed, kLinearGgufOp, "packed");
    TORCH_CHECK(packed.dim() == 1 && packed.numel() > static_cast<int64_t>(kHeader), kLinearGgufOp,
                ": packed must be the 1-D uint8 tensor from kai::pack_gguf, got shape ", packed.sizes());
    const uint8_t* pb = packed.data_ptr<uint8_t>();
    uint32_t header[4];
    std::memcpy(header, pb, sizeof(header));
    TORCH_CHECK(header[0] == kMagic && (header[1] & 0xffffu) == static_cast<uint32_t>(t), kLinearGgufOp,
                ": packed was not made by kai::pack_gguf with type ", type);
    const GgufLayout l = {header[2], header[3], header[1] >> 16};
    const size_t nn = static_cast<size_t>(n), kk = static_cast<size_t>(k);
    TORCH_CHECK(packed.numel() == static_cast<int64_t>(kHeader + gguf_rhs_size(t, l, nn, kk)), kLinearGgufOp,
                ": packed does not hold n = ", n, " x k = ", k, " weights of type ", type);
    const Tensor x = f32_rows(input, k);
    const size_t m = static_cast<size_t>(x.size(0));
    Tensor out = at::empty({x.size(0), n}, x.options());
    if (m == 0) return finish(out, input, n);
    const uint64_t f = cpu_features();
    const float* xs = x.data_ptr<float>();
    const uint8_t* rhs = pb + kHeader;
    uint8_t* dst = reinterpret_cast<uint8_t*>(out.data_ptr<float>());
    const size_t ds = nn * sizeof(float);
    std::vector<uint8_t> lhs;
    if (gguf_kquant(t)) {
        const kai_matmul_clamp_f32_qsi8d256p_q4kp_ukernel& uk = kquant_kernel(t, m, kLinearGgufOp).uk;
        const size_t mr = uk.get_mr(), kr = uk.get_kr();
        TORCH_CHECK(l.nr == kKqNr && l.kr == kKqKr && l.sr == kKqSr, kLinearGgufOp,
                    ": packed has an unknown layout for ", type, " (nr ", l.nr, ", kr ", l.kr, ", sr ", l.sr, ")");
        lhs.resize(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(m, kk, mr, kr, 1));
        for_each_row_range(m, mr, [&](size_t r0, size_t r1) {
            kai_run_lhs_quant_pack_qsi8d256p_f32_neon(
                r1 - r0, kk, mr, kr, 1, 0, xs + r0 * kk, kk * sizeof(float),
                lhs.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon(r0, kk, mr, kr, 1));
        });
        for_each_tile(m, nn, uk.get_m_step(), uk.get_n_step(), [&](const kai_split_tile& tl) {
            uk.run_matmul(tl.m, tl.n, kk, lhs.data() + uk.get_lhs_packed_offset(tl.m0, kk),
                          rhs + uk.get_rhs_packed_offset(tl.n0, kk),
                          reinterpret_cast<float*>(dst + uk.get_dst_offset(tl.m0, tl.n0, ds)), ds, sizeof(float),
                          -FLT_MAX, FLT_MAX);
        });
    } else if (t == Gguf::kQ4_0) {
        const auto p = kai_select_pair_qsi8d32p(f, l.nr, l.kr, l.sr);
        const auto* uk = (m == 1 && p.gemv) ? p.gemv : p.gemm ? p.gemm : p.gemv;
        TORCH_CHECK(uk != nullptr, kLinearGgufOp, ": no kai kernel of this CPU reads this packed Q4_0 layout (nr ", l.nr,
                    ", kr ", l.kr, ", sr ", l.sr, "); pack it again on this CPU");
        const size_t mr = uk->get_mr();
        lhs.resize(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(m, kk, kQK, mr, l.kr, l.sr));
        for_each_row_range(m, mr, [&](size_t r0, size_t r1) {
            kai_run_lhs_quant_pack_qsi8d32p_f32(r1 - r0, kk, kQK, mr, l.kr, l.sr, 0, xs + r0 * kk, kk * sizeof(float),
                                                lhs.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32(r0, kk, kQK, mr, l.kr, l.sr));
        });
        for_each_tile(m, nn, uk->get_m_step(), uk->get_n_step(), [&](const kai_split_tile& tl) {
            uk->run_matmul(tl.m, tl.n, kk, kQK, lhs.data() + uk->get_lhs_packed_offset(tl.m0, kk, kQK),
                           rhs + uk->get_rhs_packed_offset(tl.n0, kk, kQK),
                           reinterpret_cast<float*>(dst + uk->get_dst_offset(tl.m0, tl.n0, ds)), ds, sizeof(float),
                           -FLT_MAX, FLT_MAX);
        });
    } else {
        const auto p = kai_select_pair_qsi8cxp(q8_features(f), l.nr, l.kr, l.sr);
        const auto* uk = (m == 1 && p.gemv) ? p.gemv : p.gemm ? p.gemm : p.gemv;
        TORCH_CHECK(uk != nullptr, kLinearGgufOp, ": no kai kernel of this CPU reads this packed Q8_0 layout (nr ", l.nr,
                    ", kr ", l.kr, ", sr ", l.sr, "); pack it again on this CPU");
        const size_t mr = uk->get_mr();
        lhs.resize(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, kk, mr, l.kr, l.sr));
        for_each_row_range(m, mr, [&](size_t r0, size_t r1) {
            kai_run_lhs_quant_pack_qai8dxp_f32(r1 - r0, kk, mr, l.kr, l.sr, 0, xs + r0 * kk, kk * sizeof(float),
                                               lhs.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(r0, kk, mr, l.kr, l.sr));
        });
        for_each_tile(m, nn, uk->get_m_step(), uk->get_n_step(), [&](const kai_split_tile& tl) {
            uk->run_matmul(tl.m, tl.n, kk, lhs.data() + uk->get_lhs_packed_offset(tl.m0, kk),
                           rhs + uk->get_rhs_packed_offset(tl.n0, kk),
                           reinterpret_cast<float*>(dst + uk->get_dst_offset(tl.m0, tl.n0, ds)), ds, sizeof(float),
                           -FLT_MAX, FLT_MAX);
        });
    }
    return finish(out, input, n);
}

// Which kernels an op would run for an m-row input on this CPU (for logs and tests).
std::string kernels_used(const std::string& op, int64_t m, int64_t block_size, int64_t in_features) {
    const uint64_t f = cpu_features();
    const bool many = m > 1;
    if (op == "dyn_quant_matmul_4bit") {
        if (dq_channelwise(block_size, in_features)) {
            const auto p = kai_select_pair_qsi4cxp(f, kDqNr, kDqKr, kDqSr);
            return KAI_SELECT_NAME(many && p.gemm ? p.gemm : p.gemv);
        }
        const auto p = kai_select_pair_qsi4c32p(f, kDqNr, kDqKr, kDqSr);
        return KAI_SELECT_NAME(many && p.gemm ? p.gemm : p.gemv);
    }
    if (op == "linear_bf16") {
        const auto p = kai_select_pair_bf16(f, kBfNr, kBfKr, 1);
        return KAI_SELECT_NAME(!many && p.gemv ? p.gemv : p.gemm);
    }
    if (op == "linear_gguf_q4_k" || op == "linear_gguf_q6_k") {
        return kquant_kernel(op == "linear_gguf_q4_k" ? Gguf::kQ4_K : Gguf::kQ6_K, many ? 2 : 1, "kai::kernels_used").name;
    }
    if (op == "linear_gguf_q4_0" || op == "linear_gguf_q8_0") {
        const bool q4 = op == "linear_gguf_q4_0";
        const GgufLayout l = gguf_layout(q4 ? Gguf::kQ4_0 : Gguf::kQ8_0, "kai::kernels_used");
        if (q4) {
            const auto p = kai_select_pair_qsi8d32p(f, l.nr, l.kr, l.sr);
            return KAI_SELECT_NAME(!many && p.gemv ? p.gemv : p.gemm ? p.gemm : p.gemv);
        }
        const auto p = kai_select_pair_qsi8cxp(q8_features(f), l.nr, l.kr, l.sr);
        return KAI_SELECT_NAME(!many && p.gemv ? p.gemv : p.gemm ? p.gemm : p.gemv);
    }
    TORCH_CHECK(false, "kai::kernels_used: op must be dyn_quant_matmul_4bit, linear_bf16, linear_gguf_q4_0, "
                       "linear_gguf_q8_0, linear_gguf_q4_k or linear_gguf_q6_k, got \"", op, "\"");
}

// ---- Meta kernels: shapes and dtypes only, for torch.compile / torch.export --------------------------

Tensor dyn_quant_pack_4bit_weight_meta(const Tensor& weights, const Tensor& scales_zeros,
                                       const std::optional<Tensor>& bias, int64_t block_size, int64_t in_features,
                                       int64_t out_features) {
    check_dq_shape(block_size, in_features, out_features, kPackOp);
    (void)scales_zeros, (void)bias;
    return at::empty({static_cast<int64_t>(dq_packed_size(block_size, in_features, out_features))},
                     weights.options().dtype(at::kByte));
}

Tensor dyn_quant_matmul_4bit_meta(const Tensor& input, const Tensor& packed_weights, int64_t block_size,
                                  int64_t in_features, int64_t out_features) {
    check_dq_shape(block_size, in_features, out_features, kMatmulOp);
    TORCH_CHECK(input.dim() == 2, kMatmulOp, ": input must be 2-D (M x in_features), got ", input.dim(), "-D");
    TORCH_CHECK(input.scalar_type() == at::kFloat || input.scalar_type() == at::kBFloat16, kMatmulOp,
                ": input must have dtype float32 or bfloat16, got ", input.scalar_type());
    (void)packed_weights;
    return at::empty_symint(out_sym_shape(input, out_features), input.options());
}

Tensor pack_linear_bf16_meta(const Tensor& weight, const std::optional<Tensor>& bias) {
    TORCH_CHECK(weight.dim() == 2, kPackBf16Op, ": weight must be 2-D, got ", weight.dim(), "-D");
    (void)bias;
    return at::empty({weight.size(0), bf16_row_len(weight.size(0), weight.size(1))}, weight.options().dtype(at::kByte));
}

Tensor linear_bf16_meta(const Tensor& input, const Tensor& packed) {
    TORCH_CHECK(packed.dim() == 2, kLinearBf16Op, ": packed must be 2-D, got ", packed.dim(), "-D");
    TORCH_CHECK(input.dim() >= 1, kLinearBf16Op, ": input must have at least one dimension");
    return at::empty_symint(out_sym_shape(input, packed.size(0)), input.options());
}

Tensor pack_gguf_meta(const Tensor& blocks, const std::string& type, int64_t n, int64_t k) {
    const Gguf t = gguf_type(type, kPackGgufOp);
    check_gguf_shape(t, n, k, kPackGgufOp);
    const GgufLayout l = gguf_layout(t, kPackGgufOp);
    return at::empty({static_cast<int64_t>(kHeader + gguf_rhs_size(t, l, static_cast<size_t>(n), static_cast<size_t>(k)))},
                     blocks.options().dtype(at::kByte));
}

Tensor linear_gguf_meta(const Tensor& input, const Tensor& packed, const std::string& type, int64_t n, int64_t k) {
    const Gguf t = gguf_type(type, kLinearGgufOp);
    check_gguf_shape(t, n, k, kLinearGgufOp);
    (void)packed;
    return at::empty_symint(out_sym_shape(input, n), input.options());
}

}  // namespace

TORCH_LIBRARY(kai, m) {
    m.def("dyn_quant_pack_4bit_weight(Tensor weights, Tensor scales_zeros, Tensor? bias, int block_size, "
          "int in_features, int out_features) -> Tensor");
    m.def("dyn_quant_matmul_4bit(Tensor input, Tensor packed_weights, int block_size, int in_features, "
          "int out_features) -> Tensor");
    m.def("pack_linear_bf16(Tensor weight, Tensor? bias) -> Tensor");
    m.def("linear_bf16(Tensor input, Tensor packed) -> Tensor");
    m.def("pack_gguf(Tensor blocks, str type, int n, int k) -> Tensor");
    m.def("linear_gguf(Tensor input, Tensor packed, str type, int n, int k) -> Tensor");
    m.def("kernels_used(str op, int m, int block_size=0, int in_features=0) -> str", &kernels_used);
}

TORCH_LIBRARY_IMPL(kai, CPU, m) {
    m.impl("dyn_quant_pack_4bit_weight", &dyn_quant_pack_4bit_weight);
    m.impl("dyn_quant_matmul_4bit", &dyn_quant_matmul_4bit);
    m.impl("pack_linear_bf16", &pack_linear_bf16);
    m.impl("linear_bf16", &linear_bf16);
    m.impl("pack_gguf", &pack_gguf);
    m.impl("linear_gguf", &linear_gguf);
}

TORCH_LIBRARY_IMPL(kai, Meta, m) {
    m.impl("dyn_quant_pack_4bit_weight", &dyn_quant_pack_4bit_weight_meta);
    m.impl("dyn_quant_matmul_4bit", &dyn_quant_matmul_4bit_meta);
    m.impl("pack_linear_bf16", &pack_linear_bf16_meta);
    m.impl("linear_bf16", &linear_bf16_meta);
    m.impl("pack_gguf", &pack_gguf_meta);
    m.impl("linear_gguf", &linear_gguf_meta);
}
