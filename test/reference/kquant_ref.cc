// SPDX-License-Identifier: Apache-2.0
#include "test/reference/kquant_ref.h"

#include <cmath>
#include <cstring>
#include <random>

#include "test/reference/reference_common.h"

namespace kai_ref {

size_t kquant_block_bytes(Kquant f) {
    return f == Kquant::q4k ? kQ4KBlock : kQ6KBlock;
}

static uint16_t rd16(const uint8_t* p) {
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

void q4k_scale_min(const uint8_t* s, int j, int* sc, int* mn) {
    if (j < 4) {
        *sc = s[j] & 63;
        *mn = s[j + 4] & 63;
    } else {
        *sc = (s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4);
        *mn = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
    }
}

void kquant_weight(Kquant f, const uint8_t* block, size_t i, int* q, int* sc, int* mn) {
    if (f == Kquant::q4k) {
        // qs at 16: chunk c = i / 64 holds bytes 32c..32c+31; values 64c+l (low) and 64c+32+l (high).
        const size_t c = i / 64, l = i % 64;
        const uint8_t byte = block[16 + 32 * c + (l % 32)];
        *q = l < 32 ? (byte & 0xF) : (byte >> 4);
        q4k_scale_min(block + 4, static_cast<int>(i / 32), sc, mn);
        return;
    }
    // Q6_K: half h = i / 128 uses ql[64h..], qh[32h..]; within it, quarter t = (i % 128) / 32, l = i % 32.
    const size_t h = i / 128, t = (i % 128) / 32, l = i % 32;
    const uint8_t* ql = block + 64 * h;
    const uint8_t* qh = block + 128 + 32 * h;
    const int low = (t & 1) ? ql[l + 32] : ql[l];
    const int lo4 = t < 2 ? (low & 0xF) : (low >> 4);
    const int hi2 = (qh[l] >> (2 * t)) & 3;
    *q = (lo4 | (hi2 << 4)) - 32;
    *sc = static_cast<int8_t>(block[192 + i / 16]);
    *mn = 0;
}

static void block_scales(Kquant f, const uint8_t* block, float* d, float* dmin) {
    if (f == Kquant::q4k) {
        *d = f32_from_f16(rd16(block));
        *dmin = f32_from_f16(rd16(block + 2));
    } else {
        *d = f32_from_f16(rd16(block + 208));
        *dmin = 0.0f;
    }
}

void kquant_dequant_row(Kquant f, const uint8_t* row, size_t k, float* out) {
    const size_t bb = kquant_block_bytes(f);
    for (size_t b = 0; b < k / kQK; ++b) {
        const uint8_t* block = row + b * bb;
        float d, dmin;
        block_scales(f, block, &d, &dmin);
        for (size_t i = 0; i < kQK; ++i) {
            int q, sc, mn;
            kquant_weight(f, block, i, &q, &sc, &mn);
            // ggml: d1 = d * sc, m1 = dmin * m, y = d1 * q - m1 (Q4_K); y = d * sc * q (Q6_K).
            if (f == Kquant::q4k) {
                const float d1 = d * static_cast<float>(sc);
                const float m1 = dmin * static_cast<float>(mn);
                out[b * kQK + i] = d1 * static_cast<float>(q) - m1;
            } else {
                out[b * kQK + i] = d * static_cast<float>(sc) * static_cast<float>(q);
            }
        }
    }
}

std::vector<uint8_t> kquant_random_rows(Kquant f, size_t n, size_t k, size_t stride, float scale, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> mag(0.5f, 1.5f);
    std::vector<uint8_t> v(n * stride);
    for (auto& x : v) x = static_cast<uint8_t>(byte(rng));
    const size_t bb = kquant_block_bytes(f);
    for (size_t r = 0; r < n; ++r) {
        for (size_t b = 0; b < k / kQK; ++b) {
            uint8_t* block = v.data() + r * stride + b * bb;
            const uint16_t d = f16_from_f32(scale * mag(rng));
            const uint16_t dmin = f16_from_f32(scale * mag(rng));
            const size_t at = f == Kquant::q4k ? 0 : 208;
            block[at] = static_cast<uint8_t>(d & 0xFF);
            block[at + 1] = static_cast<uint8_t>(d >> 8);
            if (f == Kquant::q4k) {
                block[2] = static_cast<uint8_t>(dmin & 0xFF);
                block[3] = static_cast<uint8_t>(dmin >> 8);
            }
        }
    }
    return v;
}

float kquant_quant_block(const float* x, int8_t* q, int16_t* sums) {
    float amax = 0.0f;
    for (size_t i = 0; i < kQK; ++i) amax = std::fmax(amax, std::fabs(x[i]));
    const float inv = amax == 0.0f ? 0.0f : 127.0f / amax;
    for (size_t j = 0; j < 8; ++j) {
        int s = 0;
        for (size_t i = 32 * j; i < 32 * j + 32; ++i) {
            long v = std::lrint(x[i] * inv);  // ties to even (default rounding mode)
            v = v > 127 ? 127 : (v < -127 ? -127 : v);
            q[i] = static_cast<int8_t>(v);
            s += static_cast<int>(v);
        }
        sums[j] = static_cast<int16_t>(s);
    }
    return amax / 127.0f;
}

size_t kquant_lhs_packed_size(size_t m, size_t k, size_t mr) {
    return (m + mr - 1) / mr * mr * (k / kQK) * kKquantLhsRow;
}

void kquant_pack_lhs(size_t m, size_t k, size_t mr, size_t kr, size_t m_idx_start, const float* lhs,
                     size_t lhs_stride, uint8_t* dst) {
    const size_t nb = k / kQK;
    int8_t q[kQK];
    int16_t sums[8];
    for (size_t r = 0; r < m; ++r) {
        const size_t row = m_idx_start % mr + r;
        const size_t lane = row % mr;
        const float* x = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(lhs) + r * lhs_stride);
        for (size_t b = 0; b < nb; ++b) {
            uint8_t* blk = dst + (row / mr) * nb * mr * kKquantLhsRow + b * mr * kKquantLhsRow;
            const float scale = kquant_quant_block(x + b * kQK, q, sums);
            std::memcpy(blk + 4 * lane, &scale, 4);
            for (size_t j = 0; j < 8; ++j) std::memcpy(blk + 4 * mr + 2 * (j * mr + lane), &sums[j], 2);
            for (size_t i = 0; i < kQK; ++i) {
                const size_t g = i / kr;
                blk[20 * mr + (g * mr + lane) * kr + i % kr] = static_cast<uint8_t>(q[i]);
            }
        }
    }
}

static void put16(uint8_t* p, int v) {
    const int16_t s = static_cast<int16_t>(v);
    std::memcpy(p, &s, 2);
}

std::vector<uint8_t> kquant_pack_rhs(Kquant f, size_t n, size_t k, const uint8_t* rhs, size_t rhs_stride,
                                     const float* bias) {
    const size_t nb = k / kQK;
    const size_t sb = f == Kquant::q4k ? 672 : 1168;
    const size_t group = nb * sb + 16;
    std::vector<uint8_t> out((n + 3) / 4 * group, 0);
    const size_t bb = kquant_block_bytes(f);
    for (size_t col = 0; col < n; ++col) {
        const size_t c = col % 4;
        uint8_t* g = out.data() + (col / 4) * group;
        for (size_t b = 0; b < nb; ++b) {
            const uint8_t* block = rhs + col * rhs_stride + b * bb;
            uint8_t* o = g + b * sb;
            float d, dmin;
            block_scales(f, block, &d, &dmin);
            std::memcpy(o + 4 * c, &d, 4);
            if (f == Kquant::q4k) {
                std::memcpy(o + 16 + 4 * c, &dmin, 4);
                for (int j = 0; j < 8; ++j) {
                    int sc, mn;
                    q4k_scale_min(block + 4, j, &sc, &mn);
                    put16(o + 32 + 2 * (4 * j + c), sc);
                    put16(o + 96 + 2 * (4 * j + c), mn);
                }
                // Chunk h, step s, pair p: bytes 8s..8s+7 of the chunk's 32 qs bytes, column 2p then 2p+1.
                for (size_t h = 0; h < 4; ++h)
                    for (size_t s = 0; s < 4; ++s)
                        for (size_t e = 0; e < 8; ++e)
                            o[160 + 128 * h + 32 * s + 16 * (c / 2) + 8 * (c % 2) + e] = block[16 + 32 * h + 8 * s + e];
            } else {
                for (size_t j = 0; j < 16; ++j) put16(o + 16 + 2 * (4 * j + c), static_cast<int8_t>(block[192 + j]));
                for (size_t i = 0; i < kQK; ++i) {
                    int q, sc, mn;
                    kquant_weight(f, block, i, &q, &sc, &mn);
                    const size_t step = i / 8;
                    o[144 + 32 * step + 16 * (c / 2) + 8 * (c % 2) + i % 8] = static_cast<uint8_t>(static_cast<int8_t>(q));
                }
            }
        }
        const float bv = bias != nullptr ? bias[col] : 0.0f;
        std::memcpy(g + nb * sb + 4 * c, &bv, 4);
    }
    return out;
}

// The exact integer sums of one GGUF block against 256 int8 activations q: I = sum_j sc_j * sum q w
// and M = sum_j m_j * sum q (0 for Q6_K), over the format's sub-blocks (32 values for Q4_K, 16 for Q6_K).
static void block_int_sums(Kquant f, const uint8_t* block, const int8_t* q, int64_t* isum, int64_t* msum) {
    const size_t sub = f == Kquant::q4k ? 32 : 16;
    *isum = 0;
    *msum = 0;
    for (size_t j = 0; j < kQK / sub; ++j) {
        int64_t dot = 0, qsum = 0;
        int sc = 0, mn = 0;
        for (size_t e = j * sub; e < j * sub + sub; ++e) {
            int w;
            kquant_weight(f, block, e, &w, &sc, &mn);
            dot += static_cast<int64_t>(q[e]) * w;
            qsum += q[e];
        }
        *isum += sc * dot;
        *msum += mn * qsum;
    }
}

std::vector<float> kquant_matmul(Kquant f, size_t m, size_t n, size_t k, const float* lhs, size_t lhs_stride,
                                 const uint8_t* rhs, size_t rhs_stride, const float* bias, float clamp_min,
                                 float clamp_max) {
    const size_t nb = k / kQK;
    const size_t bb = kquant_block_bytes(f);
    std::vector<float> dst(m * n);
    std::vector<int8_t> q(k);
    std::vector<int16_t> sums(nb * 8);
    std::vector<float> sa(nb);
    for (size_t i = 0; i < m; ++i) {
        const float* x = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride);
        for (size_t b = 0; b < nb; ++b) sa[b] = kquant_quant_block(x + b * kQK, q.data() + b * kQK, sums.data() + 8 * b);
        for (size_t col = 0; col < n; ++col) {
            float acc = 0.0f;
            for (size_t b = 0; b < nb; ++b) {
                const uint8_t* block = rhs + col * rhs_stride + b * bb;
                int64_t isum, msum;
                block_int_sums(f, block, q.data() + b * kQK, &isum, &msum);
                float d, dmin;
                block_scales(f, block, &d, &dmin);
                float t = static_cast<float>(static_cast<int32_t>(isum)) * d;
                if (f == Kquant::q4k) t = std::fma(-static_cast<float>(static_cast<int32_t>(msum)), dmin, t);
                acc = std::fma(t, sa[b], acc);
            }
            float y = acc + (bias != nullptr ? bias[col] : 0.0f);
            y = std::fmax(y, clamp_min);
            y = std::fmin(y, clamp_max);
            dst[i * n + col] = y;
        }
    }
    return dst;
}

std::vector<double> kquant_matmul_exact(Kquant f, size_t m, size_t n, size_t k, const float* lhs,
                                        const uint8_t* rhs, size_t rhs_stride, const float* bias) {
    std::vector<double> dst(m * n);
    std::vector<float> w(k);
    for (size_t col = 0; col < n; ++col) {
        kquant_dequant_row(f, rhs + col * rhs_stride, k, w.data());
        for (size_t i = 0; i < m; ++i) {
            double acc = bias != nullptr ? bias[col] : 0.0;
            for (size_t e = 0; e < k; ++e) acc += static_cast<double>(lhs[i * k + e]) * w[e];
            dst[i * n + col] = acc;
        }
    }
    return dst;
}

std::vector<double> kquant_matmul_q8k(Kquant f, size_t m, size_t n, size_t k, const float* lhs,
                                      const uint8_t* rhs, size_t rhs_stride, const float* bias) {
    const size_t nb = k / kQK;
    const size_t bb = kquant_block_bytes(f);
    std::vector<double> dst(m * n);
    std::vector<int8_t> q(k);
    std::vector<float> q8d(nb);
    for (size_t i = 0; i < m; ++i) {
        const float* x = lhs + i * k;
        for (size_t b = 0; b < nb; ++b) {
            float amax = 0.0f, max = 0.0f;
            for (size_t e = 0; e < kQK; ++e) {
                const float v = x[b * kQK + e];
                if (std::fabs(v) > amax) {
                    amax = std::fabs(v);
                    max = v;
                }
            }
            if (amax == 0.0f) {
                q8d[b] = 0.0f;
                for (size_t e = 0; e < kQK; ++e) q[b * kQK + e] = 0;
                continue;
            }
            const float iscale = -127.0f / max;
            for (size_t e = 0; e < kQK; ++e) {
                const float v = iscale * x[b * kQK + e];
                // ggml's nearest_int (the 1.5 * 2^23 trick) rounds to nearest, ties to even, as lrint.
                long r = std::lrint(v);
                q[b * kQK + e] = static_cast<int8_t>(r > 127 ? 127 : r);
            }
            q8d[b] = 1.0f / iscale;
        }
        for (size_t col = 0; col < n; ++col) {
            float sumf = 0.0f;
            for (size_t b = 0; b < nb; ++b) {
                const uint8_t* block = rhs + col * rhs_stride + b * bb;
                float d, dmin;
                block_scales(f, block, &d, &dmin);
                int64_t isum, msum;
                block_int_sums(f, block, q.data() + b * kQK, &isum, &msum);
                sumf += d * q8d[b] * static_cast<float>(isum) - dmin * q8d[b] * static_cast<float>(msum);
            }
            dst[i * n + col] = static_cast<double>(sumf) + (bias != nullptr ? bias[col] : 0.0);
        }
    }
    return dst;
}

}  // namespace kai_ref
