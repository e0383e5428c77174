// SPDX-License-Identifier: Apache-2.0
// Reference of the qsu2cxp family (2-bit per-channel weights through a 4-entry look-up table), written from
// docs/formats.md, "qsu2cxp4x4 RHS" and "qsu2cxp matmul" in plain C++: the RHS packer byte for byte (padded
// channels included) and the matmul (integer accumulation and f32 epilogue in the spec's order, bit-exact).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "test/reference/qai8dxp_ref.h"

namespace kai_ref {

// The look-up table a NULL lut stands for: {-2, -1, 0, 1}.
const int32_t* qsu2_default_lut();

// The code of K index kk of row j of an nxk input (n rows of k / 4 bytes).
int qsu2_code(const uint8_t* rhs, size_t k, size_t j, size_t kk);

// Block stride 4 * (k / 4 + 12) and packed size ceil(n / 4) * stride (k a multiple of 32).
size_t qsu2cxp4x4_block_stride(size_t k);
size_t qsu2cxp4x4_packed_size(size_t n, size_t k);

// Packs like kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon (docs/formats.md, "qsu2cxp4x4 RHS"); lut NULL means
// the default table.
std::vector<uint8_t> pack_qsu2cxp4x4(size_t n, size_t k, const uint8_t* rhs, const float* bias, const float* scale,
                                     const int32_t* lut);

// Block stride nr * (k / 4 + 12) and packed size ceil(n / nr) * stride of "qsu2cxp4vlx4 RHS".
size_t qsu2cxp4vlx4_block_stride(size_t k, size_t nr);
size_t qsu2cxp4vlx4_packed_size(size_t n, size_t k, size_t nr);

// Packs like kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon (docs/formats.md, "qsu2cxp4vlx4 RHS"); lut NULL means the
// default table.
std::vector<uint8_t> pack_qsu2cxp4vlx4(size_t n, size_t k, size_t nr, const uint8_t* rhs, const float* bias,
                                       const float* scale, const int32_t* lut);

// The f32 epilogues of docs/formats.md, "qsu2cxp matmul": the NEON GEMV (f * (ls * rs) + b, FMAX / FMIN), the NEON
// GEMM ((f * rs) * ls + b, FMAX / FMIN), the SME2 MOPA GEMM (f * (ls * rs) + b, FCLAMP) and the SME2 DOT GEMV
// (fmaf(f, rs * ls, b), FCLAMP).
enum class Qsu2Epilogue { kNeonGemv, kNeonGemm, kSme2Mopa, kSme2Dot };

// docs/formats.md, "qsu2cxp matmul" for the m x n output from a packed LHS read back with unpack_qai8dxp (m rows),
// the nxk codes, the table (NULL: default), scales and optional bias, with the kernel's epilogue. Returns m x n
// floats, row-major.
std::vector<float> matmul_qai8dxp_qsu2cx(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const uint8_t* rhs,
                                         const int32_t* lut, const float* scale, const float* bias, float clamp_min,
                                         float clamp_max, Qsu2Epilogue epilogue);

}  // namespace kai_ref
