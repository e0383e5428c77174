// SPDX-License-Identifier: Apache-2.0
#include "test/reference/qsi8d32p_ref.h"

#include <cmath>
#include <cstring>

#include "test/reference/reference_common.h"

namespace kai_ref {

Qsi8d32 quantize_qsi8d32(size_t m, size_t k, size_t bl, const float* lhs, size_t lhs_stride, Q8Rounding rounding) {
    Qsi8d32 r;
    r.m = m;
    r.k = k;
    r.bl = bl;
    const size_t nb = k / bl;
    r.q.assign(m * k, 0);
    r.scales.assign(m * nb, 0);
    for (size_t i = 0; i < m; ++i) {
        const float* row = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride);
        for (size_t b = 0; b < nb; ++b) {
            const float* x = row + b * bl;
            float amax = 0.0f;
            for (size_t j = 0; j < bl; ++j) amax = std::max(amax, std::fabs(x[j]));
            const float scale = amax / 127.0f;
            const float rep = scale != 0.0f ? 1.0f / scale : 0.0f;
            r.scales[i * nb + b] = f16_from_f32(scale);
            for (size_t j = 0; j < bl; ++j) {
                const float y = x[j] * rep;  // rounded to f32 (built with -ffp-contract=off)
                const float q = rounding == Q8Rounding::kTiesAway ? std::round(y) : std::nearbyint(y);
                r.q[i * k + b * bl + j] = static_cast<int8_t>(static_cast<int32_t>(q));
            }
        }
    }
    return r;
}

size_t qsi8d32p_packed_size(size_t m, size_t k, size_t bl, size_t mr) {
    return (m + mr - 1) / mr * mr * (k / bl) * (bl + 2);
}

std::vector<uint8_t> pack_qsi8d32p(const Qsi8d32& q, size_t mr, size_t kbl, uint8_t fill, std::vector<uint8_t>* mask) {
    const size_t k = q.k, bl = q.bl, nb = k / bl;
    const size_t stride = mr * nb * (bl + 2);
    std::vector<uint8_t> out(qsi8d32p_packed_size(q.m, k, bl, mr), fill);
    if (mask) mask->assign(out.size(), 0);
    for (size_t i = 0; i < q.m; ++i) {
        const size_t r = i % mr;
        for (size_t b = 0; b < nb; ++b) {
            const size_t base = (i / mr) * stride + b * mr * (bl + 2);
            const uint16_t s = q.scales[i * nb + b];
            out[base + 2 * r] = static_cast<uint8_t>(s & 0xFF);
            out[base + 2 * r + 1] = static_cast<uint8_t>(s >> 8);
            if (mask) (*mask)[base + 2 * r] = (*mask)[base + 2 * r + 1] = 1;
            for (size_t kk = 0; kk < bl; ++kk) {
                const size_t off = base + 2 * mr + (kk / kbl) * mr * kbl + r * kbl + kk % kbl;
                out[off] = static_cast<uint8_t>(q.q[i * k + b * bl + kk]);
                if (mask) (*mask)[off] = 1;
            }
        }
    }
    return out;
}

size_t q4_0_row_bytes(size_t k, size_t bl) { return k / bl * (bl / 2 + 2); }

int q4_0_weight(const uint8_t* rows, size_t k, size_t bl, size_t j, size_t kk) {
    const size_t b = kk / bl, e = kk % bl;
    const uint8_t* blk = rows + j * q4_0_row_bytes(k, bl) + b * (bl / 2 + 2);
    const uint8_t byte = blk[2 + e % (bl / 2)];
    const int u = e < bl / 2 ? (byte & 0xF) : (byte >> 4);
    return u - 8;
}

uint16_t q4_0_scale(const uint8_t* rows, size_t k, size_t bl, size_t j, size_t b) {
    const uint8_t* blk = rows + j * q4_0_row_bytes(k, bl) + b * (bl / 2 + 2);
    return static_cast<uint16_t>(blk[0] | (blk[1] << 8));
}

std::vector<uint8_t> q4_0_rows_scales_via_sixteenths(const uint8_t* rows, size_t n, size_t k, size_t bl) {
    const size_t row_bytes = q4_0_row_bytes(k, bl), blk = bl / 2 + 2;
    std::vector<uint8_t> out(rows, rows + n * row_bytes);
    for (size_t j = 0; j < n; ++j) {
        for (size_t b = 0; b < k / bl; ++b) {
            uint8_t* p = &out[j * row_bytes + b * blk];
            const uint16_t d16 = f16_from_f32(f32_from_f16(static_cast<uint16_t>(p[0] | (p[1] << 8))) * 0.0625f);
            const float back = f32_from_f16(d16) * 16.0f;
            const uint16_t h = std::isnan(back) ? d16 : f16_from_f32(back);
            p[0] = static_cast<uint8_t>(h & 0xFF);
            p[1] = static_cast<uint8_t>(h >> 8);
        }
    }
    return out;
}

size_t qsi4c32pscalef16_packed_size(size_t n, size_t k, size_t bl, size_t nr) {
    return (n + nr - 1) / nr * nr * (k / bl) * (bl / 2 + 2);
}

std::vector<uint8_t> pack_qsi4c32pscalef16(size_t n, size_t k, size_t bl, size_t nr, size_t kr, const uint8_t* rows) {
    const size_t nb = k / bl, seg = kr / 2, row_bytes = q4_0_row_bytes(k, bl);
    const size_t stride = nr * nb * (bl / 2 + 2);
    std::vector<uint8_t> out(qsi4c32pscalef16_packed_size(n, k, bl, nr), 0);
    for (size_t nb0 = 0; nb0 * nr < n; ++nb0) {
        for (size_t i = 0; i < nr; ++i) {
            const size_t ch = std::min(nb0 * nr + i, n - 1);
            for (size_t b = 0; b < nb; ++b) {
                const uint8_t* blk = rows + ch * row_bytes + b * (bl / 2 + 2);
                const size_t base = nb0 * stride + b * nr * (bl / 2 + 2);
                out[base + 2 * i] = blk[0];
                out[base + 2 * i + 1] = blk[1];
                for (size_t j = 0; j < bl / 2; ++j) {
                    out[base + 2 * nr + (j / seg) * nr * seg + i * seg + j % seg] = static_cast<uint8_t>(blk[2 + j] ^ 0x88);
                }
            }
        }
    }
    return out;
}

std::vector<float> matmul_qsi8d32p_qsi4c32p(const Qsi8d32& lhs, size_t n, const uint8_t* rows, float clamp_min,
                                            float clamp_max) {
    const size_t m = lhs.m, k = lhs.k, bl = lhs.bl, nb = k / bl;
    // Decode the weights and scales once.
    std::vector<int8_t> w(n * k);
    std::vector<float> d(n * nb);
    for (size_t j = 0; j < n; ++j) {
        for (size_t kk = 0; kk < k; ++kk) w[j * k + kk] = static_cast<int8_t>(q4_0_weight(rows, k, bl, j, kk));
        for (size_t b = 0; b < nb; ++b) d[j * nb + b] = f32_from_f16(q4_0_scale(rows, k, bl, j, b));
    }
    std::vector<float> dst(m * n);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (size_t b = 0; b < nb; ++b) {
                const int8_t* q = &lhs.q[i * k + b * bl];
                const int8_t* wb = &w[j * k + b * bl];
                int64_t sum = 0;
                for (size_t e = 0; e < bl; ++e) sum += q[e] * wb[e];
                // SCVTF with 4 fraction bits of 16 * I: f32(16 * I) / 16, exact below 2^24.
                const float f = static_cast<float>(16 * sum) / 16.0f;
                // Both f16 values widen exactly and their product is exact in f32.
                const float s = d[j * nb + b] * f32_from_f16(lhs.scales[i * nb + b]);
                acc = std::fmaf(f, s, acc);  // fused: one rounding per block
            }
            // FMAX then FMIN: NaN propagates, and min > max gives max.
            float y = (std::isnan(acc) || acc >= clamp_min) ? acc : clamp_min;
            y = (std::isnan(y) || y <= clamp_max) ? y : clamp_max;
            dst[i * n + j] = y;
        }
    }
    return dst;
}

void quantize_row_q4_0(const float* x, size_t k, size_t bl, uint8_t* out) {
    const size_t nb = k / bl;
    for (size_t b = 0; b < nb; ++b) {
        const float* v = x + b * bl;
        float amax = 0.0f, max = 0.0f;
        for (size_t j = 0; j < bl; ++j) {
            if (amax < std::fabs(v[j])) {
                amax = std::fabs(v[j]);
                max = v[j];
            }
        }
        const float d = max / -8.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        uint8_t* blk = out + b * (bl / 2 + 2);
        const uint16_t h = f16_from_f32(d);
        blk[0] = static_cast<uint8_t>(h & 0xFF);
        blk[1] = static_cast<uint8_t>(h >> 8);
        for (size_t j = 0; j < bl / 2; ++j) {
            const float x0 = v[j] * id;
            const float x1 = v[j + bl / 2] * id;
            const int u0 = std::min(15, static_cast<int>(static_cast<int8_t>(x0 + 8.5f)));
            const int u1 = std::min(15, static_cast<int>(static_cast<int8_t>(x1 + 8.5f)));
            blk[2 + j] = static_cast<uint8_t>(u0 | (u1 << 4));
        }
    }
}

}  // namespace kai_ref
