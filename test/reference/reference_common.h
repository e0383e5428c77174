// SPDX-License-Identifier: Apache-2.0
// Reference helpers shared by the families: written independently of kai_common.h so that the
// oracle does not share code with what it checks.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kai_ref {

// f32 -> bf16 bit pattern, round to nearest even, NaN quietened (BFCVT semantics).
uint16_t bf16_from_f32(float x);
// bf16 bit pattern -> f32 (exact).
float f32_from_bf16(uint16_t b);
// f32 rounded to the nearest bf16 value, returned as f32.
float round_to_bf16(float x);
// f32 -> IEEE f16 bit pattern, round to nearest even (FCVT semantics), via double arithmetic.
uint16_t f16_from_f32(float x);
// IEEE f16 bit pattern -> f32 (exact).
float f32_from_f16(uint16_t h);
// Raw bits of a float and back.
uint32_t f32_bits(float x);
float f32_from_bits(uint32_t b);

// dst[m][n] = sum_k lhs[m][k] * rhs[k][n] in double; lhs is M x K (row stride lhs_ld elements),
// rhs is K x N (row stride rhs_ld elements), dst is M x N dense.
void matmul_f64(size_t m, size_t n, size_t k, const float* lhs, size_t lhs_ld, const float* rhs,
                size_t rhs_ld, double* dst);

}  // namespace kai_ref
