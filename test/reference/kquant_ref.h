// SPDX-License-Identifier: Apache-2.0
// Reference (oracle) for the GGUF K-quant families q4k and q6k (docs/matmul_gguf_kquants.md): GGUF
// Q4_K / Q6_K decoding as ggml defines it, the packers byte for byte, and the kernels' arithmetic
// (exact integer sums, then the documented f32 operations in order). Portable C++, no intrinsics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

constexpr size_t kQK = 256;           // values per GGUF super-block
constexpr size_t kQ4KBlock = 144;     // bytes of one block_q4_K
constexpr size_t kQ6KBlock = 210;     // bytes of one block_q6_K
constexpr size_t kKquantLhsRow = 276; // packed LHS bytes per row and super-block

enum class Kquant { q4k, q6k };

// Bytes of one GGUF block of the format.
size_t kquant_block_bytes(Kquant f);

// The 6-bit scale and min of sub-block j (0..7) of a block_q4_K's 12 scale bytes (get_scale_min_k4).
void q4k_scale_min(const uint8_t* scales12, int j, int* sc, int* mn);

// Weight i (0..255) of one GGUF block as its integer parts: Q4_K: q in 0..15, the sub-block's sc and
// m; Q6_K: q - 32 in -32..31 and the int8 scale (mn = 0).
void kquant_weight(Kquant f, const uint8_t* block, size_t i, int* q, int* sc, int* mn);

// Dequantizes one GGUF row of k values as ggml does (f32: d * sc * q - dmin * m, d * sc * (q - 32)).
void kquant_dequant_row(Kquant f, const uint8_t* row, size_t k, float* out);

// Random GGUF rows: n rows of k / 256 blocks at a row stride of `stride` bytes (>= the row's bytes);
// every field random, d (and dmin) f16 of magnitude about `scale`.
std::vector<uint8_t> kquant_random_rows(Kquant f, size_t n, size_t k, size_t stride, float scale, uint32_t seed);

// The LHS quantization of one row's block of 256: q (256 int8), the 8 sums of 32, returns the scale.
float kquant_quant_block(const float* x, int8_t* q, int16_t* sums);

// kai_lhs_quant_pack_qsi8d256p_f32_neon's output for rows [0, m) starting at lane m_idx_start % mr,
// written into dst (only the bytes the packer writes are touched).
void kquant_pack_lhs(size_t m, size_t k, size_t mr, size_t kr, size_t m_idx_start, const float* lhs,
                     size_t lhs_stride, uint8_t* dst);
size_t kquant_lhs_packed_size(size_t m, size_t k, size_t mr);

// kai_rhs_pack_nxk_{q4kp_q4k,q6kp_q6k}_neon's output (nr = 4), the whole buffer.
std::vector<uint8_t> kquant_pack_rhs(Kquant f, size_t n, size_t k, const uint8_t* rhs, size_t rhs_stride,
                                     const float* bias);

// The kernels' result for the m x n problem from the unpacked inputs: the LHS quantized as the packer
// does, the integer sums I (and M) from the GGUF bytes, then the f32 steps of the family document.
std::vector<float> kquant_matmul(Kquant f, size_t m, size_t n, size_t k, const float* lhs, size_t lhs_stride,
                                 const uint8_t* rhs, size_t rhs_stride, const float* bias, float clamp_min,
                                 float clamp_max);

// The exact result in f64: the f32 activations times the GGUF weights dequantized as ggml does.
std::vector<double> kquant_matmul_exact(Kquant f, size_t m, size_t n, size_t k, const float* lhs,
                                        const uint8_t* rhs, size_t rhs_stride, const float* bias);

// ggml's own path for comparison: activations quantized to Q8_K (per 256: iscale = -127 / max,
// q = nearest(iscale * x) capped at 127, d = 1 / iscale), the dot products of each weight block in
// integers, then f32 scaling as ggml's vec_dot (d = block d * q8 d; dmin term from the Q8_K sums).
std::vector<double> kquant_matmul_q8k(Kquant f, size_t m, size_t n, size_t k, const float* lhs,
                                      const uint8_t* rhs, size_t rhs_stride, const float* bias);

}  // namespace kai_ref
