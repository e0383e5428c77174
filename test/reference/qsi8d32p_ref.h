// SPDX-License-Identifier: Apache-2.0
// Reference of the GGUF Q4_0 family (docs/formats.md, "qsi8d32p matmul"): the qsi8d32p LHS quantiser and packer (both tie
// rules), the Q4_0 RHS packer and the matmul recipe with its per-block fused multiply-add, written
// from the spec in plain C++ (no intrinsics): the oracle of the qsi8d32p tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

enum class Q8Rounding { kTiesAway, kTiesEven };

// Per-block symmetric int8 quantisation of an m x k f32 matrix (row i at lhs + i * lhs_stride
// bytes), docs/formats.md, "qsi8d32p LHS": q is m x k int8, scales is m x (k / bl) f16 bit patterns.
struct Qsi8d32 {
    size_t m = 0, k = 0, bl = 0;
    std::vector<int8_t> q;
    std::vector<uint16_t> scales;
};
Qsi8d32 quantize_qsi8d32(size_t m, size_t k, size_t bl, const float* lhs, size_t lhs_stride, Q8Rounding rounding);

// Packed size of the qsi8d32p layout: ceil(m / mr) * mr * (k / bl) * (bl + 2).
size_t qsi8d32p_packed_size(size_t m, size_t k, size_t bl, size_t mr);

// Packs quantised rows (docs/formats.md, "qsi8d32p LHS") with mr rows per block and groups of kbl values into a
// buffer of qsi8d32p_packed_size bytes; unwritten lanes (rows >= m) keep `fill`. mask (same
// size) gets 1 for written bytes, 0 for unwritten ones.
std::vector<uint8_t> pack_qsi8d32p(const Qsi8d32& q, size_t mr, size_t kbl, uint8_t fill, std::vector<uint8_t>* mask);

// Q4_0-style rows (docs/formats.md, "qsi4c32pscalef16 RHS" input): n rows of k / bl blocks of bl / 2 + 2 bytes.
size_t q4_0_row_bytes(size_t k, size_t bl);
// Signed weight w[j][kk] = nibble - 8 and scale pattern d[j][b] of Q4_0-style rows.
int q4_0_weight(const uint8_t* rows, size_t k, size_t bl, size_t j, size_t kk);
uint16_t q4_0_scale(const uint8_t* rows, size_t k, size_t bl, size_t j, size_t b);
// The rows as the SME Q4_0 GEMV computes with them when its RHS comes from
// kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon, which stores f16(d / 16) (to nearest even, lossy
// below 2^-10): every scale d replaced by the f16 16 * f16(d / 16) (a NaN keeps f16(d / 16)), so docs/formats.md, "qsi8d32p matmul"'s
// recipe on these rows gives that kernel's result exactly. n rows, k / bl blocks each.
std::vector<uint8_t> q4_0_rows_scales_via_sixteenths(const uint8_t* rows, size_t n, size_t k, size_t bl);

// Packed RHS (docs/formats.md, "qsi4c32pscalef16 RHS") for nr rows per block and kr: every byte written.
size_t qsi4c32pscalef16_packed_size(size_t n, size_t k, size_t bl, size_t nr);
std::vector<uint8_t> pack_qsi4c32pscalef16(size_t n, size_t k, size_t bl, size_t nr, size_t kr, const uint8_t* rows);

// The matmul recipe of docs/formats.md, "qsi8d32p matmul" (per block acc = fmaf(I, a * d, acc), then max(min), min(max)):
// dst is m x n dense.
std::vector<float> matmul_qsi8d32p_qsi4c32p(const Qsi8d32& lhs, size_t n, const uint8_t* rows, float clamp_min,
                                            float clamp_max);

// GGUF writer quantisation of one row (docs/formats.md, "qsi4c32pscalef16 RHS", ggml's quantize_row_q4_0_ref generalised to
// bl with the (j, j + bl/2) pairing): d = signed max-magnitude / -8, u = min(15, (int8)(x / d + 8.5)).
void quantize_row_q4_0(const float* x, size_t k, size_t bl, uint8_t* out);

}  // namespace kai_ref
