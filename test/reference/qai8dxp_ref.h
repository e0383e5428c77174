// SPDX-License-Identifier: Apache-2.0
// Reference of kai_lhs_quant_pack_qai8dxp_f32 (per-row asymmetric int8 quantisation and packing),
// written from docs/formats.md, "qai8dxp LHS" in plain C++: the oracle of the qai8dxp packer tests and the input of the
// int4 matmul references.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// One quantised row (docs/formats.md, "qai8dxp LHS").
struct Qai8dxRow {
    std::vector<int8_t> q;  // K values
    float scale = 1.0f;     // quantisation multiplier (255 / range)
    float recip = 1.0f;     // stored dequantisation scale
    int32_t zp = 0;         // ZP; the stored offset is -zp
    bool finite = true;     // false for rows with NaN/Inf (informative: they quantise as below)
    int8_t pad = 0;         // the K padding: x[K-1] quantised by the scalar rule
};

// Quantises one row of K f32 values as KleidiAI v1.30.0's AArch64 f32 packer does (docs/formats.md, "qai8dxp LHS"): f32
// arithmetic, each operation rounded, data rounded half away from zero, the zero point half to
// even; special rows by the same IEEE arithmetic (docs/reliability.md, "Special inputs"): the range
// is NaN-propagating over the first 8 floor(K/8) values and skips NaN (fminf / fmaxf) after them;
// 255 / inf = 0 (an infinity or an overflowing range gives multiplier 0 and scale 0); a datum
// converts with saturation (NaN -> 0) and, for kbl = kr / sr of 4 or 8 in full kbl blocks, goes
// through int16 with a wrapping ZP add, elsewhere (and in the padding) through int32.
Qai8dxRow quantize_qai8dx_row(const float* x, size_t k, size_t kbl = 16);

// The bf16 packer's quantisation of one row of K bf16 values (docs/formats.md, "qai8dxp LHS from bf16 and f16"): the values widened
// exactly, range, scale and zero point as quantize_qai8dx_row (same special-row arithmetic), but
// q[k] rounded half to even in int16 for k < 8 * floor(K / 8) and half away in int32 after.
// pad is the value of the K padding: x[K-1] quantised half away from zero.
struct Qai8dxRowBf16 {
    Qai8dxRow row;
    int8_t pad = 0;
};
Qai8dxRowBf16 quantize_qai8dx_row_bf16(const uint16_t* x, size_t k);

// Packs m bf16 rows like kai_run_lhs_quant_pack_qai8dxp_bf16_neon (kr / sr must be 8): the layout
// of pack_qai8dxp with the rounding of quantize_qai8dx_row_bf16. Lanes past m are left unchanged.
void pack_qai8dxp_bf16(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const uint16_t* lhs,
                       size_t lhs_stride, uint8_t* packed);

// Packed size and block stride of the qai8dxp layout: stride mr * (roundup(k, 32) + 8).
size_t qai8dxp_block_stride(size_t k, size_t mr);
size_t qai8dxp_packed_size(size_t m, size_t k, size_t mr);

// Packs m rows (row i of lhs at lhs + i * lhs_stride bytes) like
// kai_run_lhs_quant_pack_qai8dxp_f32: lanes (i + m_idx_start) % mr, groups of kr / sr bytes,
// K padding = q[K-1], offsets -ZP then scales after the data. Lanes past m are left unchanged.
void pack_qai8dxp(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
                  size_t lhs_stride, uint8_t* packed);

// Mask of the bytes pack_qai8dxp writes for m rows from m_idx_start = 0 (1 = written), for
// comparisons that must ignore the unwritten lanes of the last block.
std::vector<uint8_t> qai8dxp_written_mask(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

// A packed LHS read back: q[i][k] for k < Kp (padding included), offset (-ZP) and scale per row.
struct Qai8dxpUnpacked {
    size_t m = 0, kp = 0;
    std::vector<int8_t> q;        // m x kp
    std::vector<int32_t> offset;  // m
    std::vector<float> scale;     // m
};
Qai8dxpUnpacked unpack_qai8dxp(const uint8_t* packed, size_t m, size_t k, size_t mr, size_t kr, size_t sr);

// Reference of kai_lhs_quant_pack_qai8dxp_f16_neon (docs/formats.md, "qai8dxp LHS from bf16 and f16"), from the spec in plain C++: the
// same layout as pack_qai8dxp; f16 inputs (IEEE binary16 bit patterns, row i at lhs + i *
// lhs_stride bytes) widened exactly; range, multiplier and zero point as docs/formats.md, "qai8dxp LHS" with KleidiAI's
// NaN behaviour (a NaN anywhere in a row gives the range [0, 0]); the data rounding by position
// and path: rows in complete groups of 4 when mr == 4 truncate for k < 8 floor(K/8), other rows
// round half to even for k < 8 (floor(K/8) - 1) (kbl 8) or 4 (floor(K/4) - 2) (kbl 4), half away
// from zero elsewhere (and in the K padding). kr / sr must be 4 or 8.
void pack_qai8dxp_f16(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const uint16_t* lhs,
                      size_t lhs_stride, uint8_t* packed);

}  // namespace kai_ref
