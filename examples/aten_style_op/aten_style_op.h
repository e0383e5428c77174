// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//
// PyTorch's dynamic-int4 linear ops over plain buffers, on kai's kernels: the semantics of
// torch.ops.aten._dyn_quant_pack_4bit_weight and _dyn_quant_matmul_4bit on PyTorch's KleidiAI path
// (aten/src/ATen/native/kleidiai/, behaviour described in docs/integration_runtime.md), with no
// torch dependency. Written for this repository; no PyTorch code is used.
//
// Where an ATen op would call each function (a CPU kernel registered for the op):
//
//   Tensor _dyn_quant_pack_4bit_weight_cpu(weights, scales_zeros, bias, block_size, in_f, out_f) {
//     auto packed = at::empty({(int64_t)aten_style::packed_weight_size(block_size, in_f, out_f)}, kByte);
//     aten_style::pack_4bit_weight(packed.data_ptr<uint8_t>(), weights.data_ptr<uint8_t>(),
//                                  scales_zeros.data_ptr(), dtype_of(scales_zeros),
//                                  bias ? bias->data_ptr<float>() : nullptr, block_size, in_f, out_f);
//     return packed;
//   }
//   Tensor _dyn_quant_matmul_4bit_cpu(input, packed, block_size, in_f, out_f) {
//     auto out = at::empty({input.size(0), out_f}, input.options());   // output dtype = input dtype
//     aten_style::matmul_4bit(out.data_ptr(), input.data_ptr(), dtype_of(input), input.size(0),
//                             packed.data_ptr<uint8_t>(), block_size, in_f, out_f, at::get_num_threads());
//     return out;
//   }
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace aten_style {

enum class DType { kFloat32, kBFloat16 };

// The packed layout PyTorch's KleidiAI path produces: the GEMV layout nr = 8, kr = 16, sr = 2
// (the one of kai_matmul_clamp_f32_qai8dxp1x8_qsi4{cxp,c32p}8x8_1x8x32_neon_dotprod), so that the
// DotProd GEMV and the I8MM GEMM (8x8x32 for channel-wise) run on the same buffer.
constexpr size_t kNr = 8;
constexpr size_t kKr = 16;
constexpr size_t kSr = 2;

// Which layout a (block_size, in_features) pair selects, exactly as PyTorch decides it:
// channel-wise when block_size == in_features (checked first: it wins when both could apply),
// group-wise when block_size is a multiple of 32 dividing in_features, otherwise none (PyTorch then
// takes its non-KleidiAI reference path, which this example does not reproduce).
enum class Layout { kChannelwise, kGroupwise, kUnsupported };
Layout layout_for(int64_t block_size, int64_t in_features);

// Bytes of the packed weight (PyTorch's kai_pack_rhs_int4_size): the qsi4cxp or qsi4c32p (bf16
// scales) packed size at (nr, kr, sr) = (8, 16, 2); N * K for an unsupported layout.
size_t packed_weight_size(int64_t block_size, int64_t in_features, int64_t out_features);

// _dyn_quant_pack_4bit_weight. weights: out_features rows of ceil(in_features / 2) bytes, two
// unsigned nibbles per byte (element k in the low nibble for even k), value = nibble - 8.
// scales_zeros: out_features f32 scales (channel-wise; scales_dtype must be kFloat32) or
// out_features x (in_features / block_size) bf16 scales (group-wise; kBFloat16), row-major.
// bias: out_features f32 or nullptr. packed: packed_weight_size(...) bytes.
// Throws std::invalid_argument for an unsupported layout or scale type (PyTorch's
// can_use_kleidiai() would send those to its fallback) or a CPU without FEAT_DotProd.
void pack_4bit_weight(uint8_t* packed, const uint8_t* weights, const void* scales_zeros, DType scales_dtype,
                      const float* bias, int64_t block_size, int64_t in_features, int64_t out_features);

// _dyn_quant_matmul_4bit: out (m x out_features, same dtype as the input) = input (m x
// in_features, f32 or bf16) x dequant(weights)^T + bias, activations quantised per row to int8
// (asymmetric) inside the call. Work is split over nthreads std::threads (any count >= 1).
// bf16 input is widened to f32 exactly and the f32 result rounded to bf16 (nearest even).
void matmul_4bit(void* out, const void* input, DType input_dtype, int64_t m, const uint8_t* packed,
                 int64_t block_size, int64_t in_features, int64_t out_features, int nthreads);

// The kernel names matmul_4bit uses for an m-row input on this CPU (for logs and tests), and
// whether the group-wise GEMM fallback applies (see docs/integration_runtime.md).
std::string kernels_used(int64_t block_size, int64_t in_features, int64_t m);

}  // namespace aten_style
