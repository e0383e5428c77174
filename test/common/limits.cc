// SPDX-License-Identifier: Apache-2.0
// The internal limits of kai's kernels and packers (see limits.h). Each entry restates the source's
// "Internal limit:" line; `limit` is computed from that formula here, by hand, so that a source whose
// constant changes without its test moving shows up as a boundary no longer straddled (the cases
// still run, bit-exact, on both sides of the old value; docs/reliability.md lists them).
#include "test/common/limits.h"

#include <algorithm>
#include <cstring>

#include "test/common/environment.h"

namespace kai_test {
namespace {

using D = LimitDim;
constexpr LimitData kR = LimitData::kRandom;
constexpr LimitData kF = LimitData::kFullScale;

// Names shared by several entries.
#define KAI_QAI4_GEMV16_F32 "kai_matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod"
#define KAI_QAI4_GEMV16_F16 "kai_matmul_clamp_f16_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod"
#define KAI_QAI4_GEMV8_F32 "kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod"
#define KAI_QAI4_GEMV8_F16 "kai_matmul_clamp_f16_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod"
#define KAI_QAI4_DOT_F32 "kai_matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod"
#define KAI_QAI4_DOT_F16 "kai_matmul_clamp_f16_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod"
#define KAI_QAI4_MMLA_F32 "kai_matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm"
#define KAI_QAI4_MMLA_F16 "kai_matmul_clamp_f16_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm"

// The asymmetric GEMVs with kr = 16: the row's LHS duplicated into a 20,480-byte stack buffer when
// n >= 16 and nb * (2 * bl + 8) <= 20480 (bl 32: nb <= 284, k <= 9088; bl 64: nb <= 150, k <= 9600).
// k = 9216 (nb 288) lies where a buffer sized without the 8 bytes of S and recip per block
// (nb * 2 * bl <= 20480: nb <= 320) would overflow by 288 * 8 - 256 bytes.
#define KAI_QAI4_GEMV_DUP(name)                                                                                      \
    {name, "LHS dup buffer: n >= 16 and nb * (2 * bl + 8) <= 20480 (bl 32: last k 9088)", D::kK, 9088, 32, 1, 16, 0, \
     32, kR, 9216},                                                                                                   \
        {name, "LHS dup buffer: nb * (2 * bl + 8) <= 20480 (bl 64: last k 9600)", D::kK, 9600, 64, 1, 17, 0, 64, kR, \
         0},                                                                                                          \
        {name, "LHS dup buffer only from n = 16 (four 4-column blocks)", D::kN, 16, 1, 1, 0, 1024, 32, kR, 0}

// Every consumer of kai_lhs_quant_pack_qsi8d32pscalef32_{f32,f16}_neon: a block of bl > 2048 values
// goes through the packer's int16 flush (and through the kernels' K loops as one long block):
// bl = 2048 +- 32 and bl = k = 4096, full-scale rows.
#define KAI_QAI4_LONG_BLOCK(name, m)                                                                              \
    {name, "LHS packer: int16 block sums flushed every 2048 values (bl 2048 +- 32, bl = k = 4096)", D::kBl, 2048, \
     32, m, 16, 2048, 2048, kF, 4096}

// The 8x4 GEMMs' decoded-RHS path: calls with two or more 8-row tiles (a tile of more than 4 rows)
// and bl <= 256; K in ranges of KAI_UBUF_BYTES / (4 * bl + extra) blocks (dotprod extra 32: 38 blocks
// at bl 32; i8mm extra 64: 32 blocks), 16 row tiles per pass (m 132: 16 tiles and a 4-row rest; 133:
// 17 tiles).
#define KAI_QAI4_GEMM_UBUF(name, kblk)                                                                               \
    {name, "decoded-RHS path from two 8-row tiles (m 13)", D::kM, 13, 1, 0, 5, 256, 32, kR, 0},                     \
        {name, "decoded-RHS path only for bl <= 256 (the FSUB bound)", D::kBl, 256, 32, 17, 5, 512, 256, kF, 0},      \
        {name, "decoded-RHS K range: KAI_UBUF_BYTES / (4 * bl + extra) blocks", D::kK, 32 * (kblk), 32, 17, 5, 0, 32, \
         kR, 0},                                                                                                      \
        {name, "KAI_ROW_TILES 16 row tiles per pass (m 132: 16 tiles + 4 rows)", D::kM, 132, 1, 0, 5, 96, 32, kR, 0}

// qsi4cxp I8MM GEMMs: RHS blocks unpacked into KAI_PRE_BYTES (8 KiB) of stack when
// m >= 2 * m_step, n >= nr and kp <= KAI_PRE_BYTES / nr (kp = k rounded up to 32), in stripes of
// KAI_PRE_ROWS (256) rows.
#define KAI_QSI4CX_PRE(name, ms, nr)                                                                                \
    {name, "unpacked RHS: kp <= KAI_PRE_BYTES / nr", D::kK, 8192 / (nr), 1, 2 * (ms), (nr) + 1, 0, 0, kR, 0},       \
        {name, "unpacked RHS from m = 2 * m_step", D::kM, 2 * (ms), 1, 0, (nr) + 1, 64, 0, kR, 0},                  \
        {name, "unpacked RHS in stripes of KAI_PRE_ROWS = 256 rows", D::kM, 256, ms, 0, (nr) + 1, 64, 0, kR, 0}

// qsi4cxp SDOT GEMVs (kr 8): the row's LHS duplicated for kp <= KAI_DUP_K (4096); past it K runs in
// passes of KAI_DUP_K, the column sums kept between them.
#define KAI_QSI4CX_DUP(name, nr) \
    {name, "LHS dup buffer: kp <= KAI_DUP_K = 4096, then K passes", D::kK, 4096, 1, 1, 2 * (nr) + 1, 0, 0, kR, 0}

// The f16 and bf16 SDOT GEMVs: past KAI_DUP_K the column sums wait in an int32 buffer of KAI_OUT_COLS (1024)
// columns, so N runs in passes of 1024 columns.
#define KAI_QSI4CX_OUT_COLS(name, nr) \
    {name, "K passes: n in passes of KAI_OUT_COLS = 1024 columns (kp > KAI_DUP_K)", D::kN, 1024, nr, 1, 0, 4097, 0, kR, 0}

// The plain qsi4cxp kernels: int16 lanes take 4 products (q * w, in [-1016, 1024]) per chunk of 32 K and are
// widened every kai_flush_chunks = 7 chunks (K 224), full-scale rows.
#define KAI_QSI4CX_PLAIN_FLUSH(name, m) \
    {name, "int16 accumulators flushed every kai_flush_chunks = 7 chunks (K 224)", D::kK, 224, 32, m, 5, 0, 0, kF, 0}

// The bf16-output qsi4c32p kernels: the f32 tile computed KAI_BF16_COLS = 2048 / m_step columns at a time.
#define KAI_QSI4C32_BF16_COLS(name, ms, nr)                                                                      \
    {name, "bf16 output: n in passes of KAI_BF16_COLS = 2048 / m_step columns", D::kN, 2048 / (ms), nr, (ms) + 1, 0, \
     64, 32, kR, 0}

// Block lengths: every block-wise kernel takes any multiple of 32 up to k. Its int32 block sums reach
// 127 * 128 * bl at full scale (f32-exact up to bl 1031, then rounded as the reference rounds them):
// bl 1024 +- 32 and bl = k = 4096, full-scale data.
#define KAI_LONG_BLOCK(name, m)                                                                                 \
    {name, "long blocks: bl up to k (bl 1024 +- 32, bl = k = 4096), full-scale data", D::kBl, 1024, 32, m, 5, 1024, \
     1024, kF, 4096}

// qsi4c32p I8MM GEMMs (asm form): the RHS column group unpacked into KAI_C32_UNPACKED_BYTES (8 KiB)
// when m > m_step and nb <= 8192 / ((bl / 32) * 128 + 32): bl 32: nb <= 51 (k 1632); bl 128: nb <= 15
// (k 1920).
#define KAI_QSI4C32_UNPACKED(name, ms)                                                                              \
    {name, "unpacked RHS: nb <= 8192 / ((bl / 32) * 128 + 32) (bl 32: last k 1632)", D::kK, 1632, 32, (ms) + 1, 5, \
     0, 32, kR, 0},                                                                                                 \
        {name, "unpacked RHS: nb <= 8192 / ((bl / 32) * 128 + 32) (bl 128: last k 1920)", D::kK, 1920, 128,       \
         (ms) + 1, 5, 0, 128, kR, 0},                                                                               \
        {name, "unpacked RHS from m = m_step + 1", D::kM, (ms) + 1, 1, 0, 5, 256, 32, kR, 0}

// qsi4c32p SDOT GEMVs (asm form, kr 8): the row's LHS duplicated into 2 * KAI_C32_DUP_K bytes when
// k <= KAI_C32_DUP_K (4096) and n >= 16.
#define KAI_QSI4C32_DUP(name)                                                                                   \
    {name, "LHS dup buffer: k <= KAI_C32_DUP_K = 4096 and n >= 16", D::kK, 4096, 32, 1, 16, 0, 32, kR, 0},     \
        {name, "LHS dup buffer only from n = 16", D::kN, 16, 1, 1, 0, 256, 32, kR, 0}

// qsi4c32p SDOT GEMMs: the buffered path for m > 16 and bl <= KAI_C32D_BUF_K (1024), K in ranges of
// KAI_C32D_BUF_K values.
#define KAI_QSI4C32_C32D(name)                                                                                     \
    {name, "buffered path from m = 17", D::kM, 17, 1, 0, 5, 256, 32, kR, 0},                                        \
        {name, "buffered path only for bl <= KAI_C32D_BUF_K = 1024", D::kBl, 1024, 32, 17, 5, 2048, 1024, kR, 0}, \
        {name, "buffered K range: KAI_C32D_BUF_K = 1024 values", D::kK, 1024, 32, 17, 5, 0, 32, kR, 0}

const InternalLimit kLimits[] = {
    // --- qai4c32p, f16_qai4c32p ---
    KAI_QAI4_GEMV_DUP(KAI_QAI4_GEMV16_F32),
    KAI_QAI4_GEMV_DUP(KAI_QAI4_GEMV16_F16),
    KAI_QAI4_LONG_BLOCK(KAI_QAI4_GEMV16_F32, 1),
    KAI_QAI4_LONG_BLOCK(KAI_QAI4_GEMV16_F16, 1),
    KAI_QAI4_LONG_BLOCK(KAI_QAI4_GEMV8_F32, 1),
    KAI_QAI4_LONG_BLOCK(KAI_QAI4_GEMV8_F16, 1),
    KAI_QAI4_LONG_BLOCK(KAI_QAI4_DOT_F32, 5),
    KAI_QAI4_LONG_BLOCK(KAI_QAI4_MMLA_F32, 5),
    KAI_QAI4_GEMM_UBUF(KAI_QAI4_DOT_F32, 38),
    KAI_QAI4_GEMM_UBUF(KAI_QAI4_DOT_F16, 38),
    KAI_QAI4_GEMM_UBUF(KAI_QAI4_MMLA_F32, 32),
    KAI_QAI4_GEMM_UBUF(KAI_QAI4_MMLA_F16, 32),
    {KAI_QAI4_MMLA_F32, "decoded-RHS path only for 2 * nb <= KAI_PARAM_VECTOR_BLOCKS = 256", D::kK, 4096, 32, 17, 5, 0,
     32, kR, 0},
    {KAI_QAI4_MMLA_F16, "decoded-RHS path only for 2 * nb <= KAI_PARAM_VECTOR_BLOCKS = 256", D::kK, 4096, 32, 17, 5, 0,
     32, kR, 0},
    {KAI_QAI4_MMLA_F32, "row group of min(16, 256 / nb) tiles (nb 16: 16 tiles)", D::kK, 512, 32, 133, 5, 0, 32, kR, 0},
    // The LHS packers on their own (the packer suite runs every (mr, kr, sr) it knows at these bl).
    {"kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", "int16 block sums flushed every 2048 values", D::kBl, 2048, 32, 5,
     0, 2048, 2048, kF, 4096},
    {"kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", "int16 block sums flushed every 2048 values", D::kBl, 2048, 32, 5,
     0, 2048, 2048, kF, 4096},

    // --- qsi4cxp ---
    KAI_QSI4CX_PRE("kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm", 8, 4),
    KAI_QSI4CX_PRE("kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", 8, 8),
    KAI_QSI4CX_PRE("kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm", 16, 4),
    KAI_QSI4CX_DUP("kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod", 4),
    KAI_QSI4CX_DUP("kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod", 8),
    KAI_QSI4CX_PRE("kai_matmul_clamp_f16_qai8dxp4x8_qsi4cxp4x8_16x4_neon_i8mm", 16, 4),
    KAI_QSI4CX_DUP("kai_matmul_clamp_f16_qai8dxp1x8_qsi4cxp4x8_1x4_neon_dotprod", 4),
    KAI_QSI4CX_OUT_COLS("kai_matmul_clamp_f16_qai8dxp1x8_qsi4cxp4x8_1x4_neon_dotprod", 4),
    KAI_QSI4CX_PRE("kai_matmul_clamp_bf16_qai8dxp4x8_qsi4cxp8x8_8x8_neon_i8mm", 8, 8),
    KAI_QSI4CX_DUP("kai_matmul_clamp_bf16_qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod", 8),
    KAI_QSI4CX_OUT_COLS("kai_matmul_clamp_bf16_qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod", 8),
    KAI_QSI4CX_PLAIN_FLUSH("kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4_neon", 1),
    KAI_QSI4CX_PLAIN_FLUSH("kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4_neon", 5),

    // --- qsi4c32p ---
    KAI_QSI4C32_UNPACKED("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm", 8),
    KAI_QSI4C32_UNPACKED("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm", 12),
    KAI_QSI4C32_UNPACKED("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm", 16),
    KAI_QSI4C32_DUP("kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod"),
    KAI_QSI4C32_DUP("kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod"),
    KAI_QSI4C32_DUP("kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod"),
    KAI_QSI4C32_C32D("kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod"),
    KAI_QSI4C32_C32D("kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod"),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm", 5),
    KAI_QSI4C32_UNPACKED("kai_matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm", 16),
    KAI_QSI4C32_BF16_COLS("kai_matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm", 16, 4),
    KAI_QSI4C32_DUP("kai_matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod"),
    KAI_QSI4C32_BF16_COLS("kai_matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod", 1, 4),
    KAI_LONG_BLOCK("kai_matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm", 5),

    // --- qsi8d32p ---
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm", 5),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot", 1),
    KAI_LONG_BLOCK("kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot", 1),
    {"kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm", "LHS scale vectors precomputed for nb <= KAI_SCALE_VECTOR_BLOCKS = 256", D::kK,
     8192, 32, 17, 5, 0, 32, kR, 0},
    {"kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "LHS scale vectors precomputed for nb <= KAI_SCALE_VECTOR_BLOCKS = 256", D::kK,
     8192, 32, 9, 5, 0, 32, kR, 0},
};

constexpr size_t kHeavyMacs = size_t{1} << 20;

LimitCase make_case(const InternalLimit& l, size_t value) {
    LimitCase c{l.m, l.n, l.k, l.bl, l.data, ""};
    const char* tag = "";
    switch (l.dim) {
        case LimitDim::kM:
            c.m = value;
            tag = "m";
            break;
        case LimitDim::kN:
            c.n = value;
            tag = "n";
            break;
        case LimitDim::kK:
            c.k = value;
            tag = "k";
            break;
        case LimitDim::kBl:
            c.k = (l.k / l.bl) * value;  // the number of blocks is kept
            c.bl = value;
            tag = "bl";
            break;
    }
    c.label = std::string(tag) + std::to_string(value) + (l.data == LimitData::kFullScale ? "_full" : "");
    return c;
}

}  // namespace

const std::vector<InternalLimit>& internal_limits() {
    static const std::vector<InternalLimit> all(std::begin(kLimits), std::end(kLimits));
    return all;
}

std::vector<LimitCase> limit_cases(const char* name) {
    std::vector<LimitCase> out;
    const bool reduced = reduced_sweep();
    for (const InternalLimit& l : internal_limits()) {
        if (std::strcmp(l.name, name) != 0) continue;
        for (size_t v : {l.limit - l.step, l.limit, l.limit + l.step}) {
            LimitCase c = make_case(l, v);
            // Under the emulator a case of more than kHeavyMacs multiply-adds takes seconds (the reference
            // included): those run in the full sweep only.
            if (reduced && std::max<size_t>(c.m, 1) * c.n * c.k > kHeavyMacs) continue;
            out.push_back(c);
        }
        if (l.also != 0) out.push_back(make_case(l, l.also));
    }
    return out;
}

}  // namespace kai_test
