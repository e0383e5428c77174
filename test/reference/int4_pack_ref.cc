// SPDX-License-Identifier: Apache-2.0
#include "test/reference/int4_pack_ref.h"

#include <cstring>

#include "test/reference/reference_common.h"

namespace kai_ref {

namespace {

uint8_t nibble_of(uint8_t byte, size_t high) {
    return static_cast<uint8_t>((byte >> (4 * high)) & 0xF);
}

void put_f32(uint8_t* p, float v) {
    std::memcpy(p, &v, 4);
}

uint16_t get_u16(const uint8_t* p) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

size_t c32_block_stride(size_t k, size_t nr, size_t bl) {
    return nr * ((k / bl) * (bl / 2 + 2) + 8);
}

// The block-wise layouts share everything but the nibble placement (`place`: the byte offset of
// element kk of block b's data for lane j, and the nibble) and the row-sum schedule (`group`:
// K values per rounding). u(kk) is the unsigned nibble of element kk of the lane.
template <typename U, typename Place>
void pack_c32_lane(uint8_t* block, size_t lane, size_t nr, size_t k, size_t bl, size_t group, U u, Place place,
                   const uint8_t* scale_row, float bias) {
    const size_t nb = k / bl;
    const size_t qblock = nr * (bl / 2 + 2);
    float sum = 0.0f;
    for (size_t b = 0; b < nb; ++b) {
        uint8_t* q = block + b * qblock;
        const uint16_t raw = get_u16(scale_row + 2 * b);
        std::memcpy(q + nr * bl / 2 + 2 * lane, &raw, 2);
        const float d = f32_from_bf16(raw);
        int32_t g = 0;
        for (size_t kk = 0; kk < bl; ++kk) {
            const uint8_t v = u(b * bl + kk);
            size_t high = 0;
            const size_t off = place(kk, lane, &high);
            q[off] = static_cast<uint8_t>(q[off] | (((v ^ 8) & 0xF) << (4 * high)));
            g += static_cast<int32_t>(v) - 8;
            if ((kk + 1) % group == 0) {
                sum = sum + static_cast<float>(g) * d;  // exact product, one rounding
                g = 0;
            }
        }
    }
    uint8_t* tail = block + nb * qblock;
    put_f32(tail + 4 * lane, sum);
    put_f32(tail + 4 * nr + 4 * lane, bias);
}

}  // namespace

std::vector<uint8_t> pack_qsi4c32p_nxk_chunk_sums(size_t n, size_t k, size_t nr, size_t kbl, size_t bl,
                                                  const uint8_t* rhs, size_t rhs_stride, const float* bias,
                                                  const uint8_t* scale, size_t scale_stride) {
    const size_t stride = c32_block_stride(k, nr, bl);
    std::vector<uint8_t> out((n + nr - 1) / nr * stride, 0);
    // docs/formats.md, "qsi4c32p RHS": element kk of a block: c = kk / 32, p = kk % 32, high nibble if p >= 16.
    auto place = [&](size_t kk, size_t j, size_t* high) {
        const size_t c = kk / 32, p = kk % 32, pp = p % 16;
        *high = p >= 16;
        return c * 16 * nr + (pp / kbl) * nr * kbl + j * kbl + pp % kbl;
    };
    for (size_t j = 0; j < (n + nr - 1) / nr * nr; ++j) {
        const size_t ch = j < n ? j : n - 1;
        auto u = [&](size_t kk) { return nibble_of(rhs[ch * rhs_stride + kk / 2], kk % 2); };
        pack_c32_lane(out.data() + j / nr * stride, j % nr, nr, k, bl, 32, u, place, scale + ch * scale_stride,
                      bias ? bias[ch] : 0.0f);
    }
    return out;
}

namespace {
// docs/formats.md, "qsi4c32ps1s0nrx4 RHS": element kk of a block: chunk c = kk / 32, group g = (kk % 32) / 4, byte (kk % 4) / 2.
size_t place_s1s0(size_t kk, size_t j, size_t nr, size_t* high) {
    *high = kk % 2;
    return (kk / 32) * 16 * nr + ((kk % 32) / 4) * 2 * nr + j * 2 + (kk % 4) / 2;
}
}  // namespace

std::vector<uint8_t> pack_qsi4c32ps1s0_nxk(size_t n, size_t k, size_t nr, size_t bl, const uint8_t* rhs,
                                           size_t rhs_stride, const float* bias, const uint8_t* scale,
                                           size_t scale_stride) {
    const size_t stride = c32_block_stride(k, nr, bl);
    std::vector<uint8_t> out((n + nr - 1) / nr * stride, 0);
    auto place = [&](size_t kk, size_t j, size_t* high) { return place_s1s0(kk, j, nr, high); };
    for (size_t j = 0; j < (n + nr - 1) / nr * nr; ++j) {
        const size_t ch = j < n ? j : n - 1;
        auto u = [&](size_t kk) { return nibble_of(rhs[ch * rhs_stride + kk / 2], kk % 2); };
        pack_c32_lane(out.data() + j / nr * stride, j % nr, nr, k, bl, 32, u, place, scale + ch * scale_stride,
                      bias ? bias[ch] : 0.0f);
    }
    return out;
}

std::vector<uint8_t> pack_qsi4c32ps1s0_kxn(size_t n, size_t k, size_t nr, size_t bl, const uint8_t* rhs,
                                           size_t rhs_stride, const float* bias, const uint8_t* scale,
                                           size_t scale_stride) {
    const size_t stride = c32_block_stride(k, nr, bl);
    std::vector<uint8_t> out((n + nr - 1) / nr * stride, 0);
    const size_t limit = (k - 1) * rhs_stride + (n + 1) / 2;
    auto place = [&](size_t kk, size_t j, size_t* high) { return place_s1s0(kk, j, nr, high); };
    for (size_t col = 0; col < (n + nr - 1) / nr * nr; ++col) {
        const size_t n0 = col / nr * nr, j = col % nr, q = j / 16, t = j % 16;
        const size_t f = n0 + 16 * q < n - 1 ? n0 + 16 * q : n - 1;
        const size_t byte = f / 2 + t / 2;
        const size_t ch = col < n ? col : n - 1;
        auto u = [&](size_t kk) {
            const size_t at = kk * rhs_stride + byte;
            return at < limit ? nibble_of(rhs[at], t % 2) : uint8_t{0};
        };
        pack_c32_lane(out.data() + n0 / nr * stride, j, nr, k, bl, 4, u, place, scale + ch * scale_stride,
                      bias ? bias[ch] : 0.0f);
    }
    return out;
}

std::vector<uint8_t> pack_qsi4cxps1s0(size_t n, size_t k, size_t nr, size_t kr, const uint8_t* rhs, const float* bias,
                                      const float* scale, int rhs_zero_point) {
    const size_t kp = (k + 31) / 32 * 32;
    const size_t stride = nr * (kp / 2 + 12);
    const size_t row_bytes = (k + 1) / 2;
    std::vector<uint8_t> out((n + nr - 1) / nr * stride, 0);
    for (size_t ch = 0; ch < n; ++ch) {
        uint8_t* block = out.data() + ch / nr * stride;
        const size_t j = ch % nr;
        int32_t sum = 0;
        for (size_t kk = 0; kk < kp; ++kk) {
            int w = 0;  // K padding
            if (kk < k) {
                const int u = nibble_of(rhs[ch * row_bytes + kk / 2], kk % 2);
                w = rhs_zero_point == 8 ? u - 8 : (u ^ 8) - 8;  // signed nibble: sign-extend
            }
            sum += w;
            const size_t g = kk / kr, within = kk % kr;
            uint8_t& byte = block[g * nr * (kr / 2) + j * (kr / 2) + within / 2];
            byte = static_cast<uint8_t>(byte | ((static_cast<unsigned>(w) & 0xF) << (4 * (within % 2))));
        }
        uint8_t* tail = block + nr * kp / 2;
        std::memcpy(tail + 4 * j, &sum, 4);
        put_f32(tail + 4 * nr + 4 * j, scale[ch]);
        put_f32(tail + 8 * nr + 4 * j, bias ? bias[ch] : 0.0f);
    }
    return out;
}

namespace {
// Element kk (0 <= kk < bl) of block b of row j of Q4_0-style rows: unsigned nibble.
uint8_t q4_0_nibble(const uint8_t* rows, size_t k, size_t bl, size_t j, size_t b, size_t kk) {
    const uint8_t* blk = rows + j * q4_0_row_bytes(k, bl) + b * (bl / 2 + 2) + 2;
    return kk < bl / 2 ? nibble_of(blk[kk], 0) : nibble_of(blk[kk - bl / 2], 1);
}
}  // namespace

std::vector<uint8_t> pack_qsi4c32ps1s0scalef16(size_t n, size_t k, size_t bl, size_t nr, const uint8_t* rows) {
    const size_t nb = k / bl;
    const size_t stride = nr * nb * (bl / 2 + 2);
    std::vector<uint8_t> out((n + nr - 1) / nr * stride, 0);
    for (size_t ch = 0; ch < n; ++ch) {
        uint8_t* block = out.data() + ch / nr * stride;
        const size_t i = ch % nr;
        for (size_t b = 0; b < nb; ++b) {
            for (size_t kk = 0; kk < bl; ++kk) {
                // Unit g = kk / 4 of 2 bytes; byte (kk % 4) / 2, nibble kk % 2; unsigned.
                uint8_t& byte = block[((b * bl / 4 + kk / 4) * nr + i) * 2 + (kk % 4) / 2];
                byte = static_cast<uint8_t>(byte | (q4_0_nibble(rows, k, bl, ch, b, kk) << (4 * (kk % 2))));
            }
            const uint16_t d = q4_0_scale(rows, k, bl, ch, b);
            std::memcpy(block + nr * nb * bl / 2 + (b * nr + i) * 2, &d, 2);
        }
    }
    return out;
}

std::vector<uint8_t> pack_qsi4c32ps4s0sf16(size_t n, size_t k, size_t bl, size_t nr, const uint8_t* rows) {
    const size_t nb = k / bl;
    const size_t stride = nr * nb * (bl / 2 + 2);
    std::vector<uint8_t> out((n + nr - 1) / nr * stride, 0);
    for (size_t ch = 0; ch < n; ++ch) {
        uint8_t* block = out.data() + ch / nr * stride;
        const size_t i = ch % nr;
        for (size_t b = 0; b < nb; ++b) {
            for (size_t kk = 0; kk < bl; ++kk) {
                // Packet p = kk / 8 of 4 bytes; byte kk % 4, high nibble for kk % 8 >= 4; signed.
                const size_t p = kk / 8, t = kk % 4, high = (kk % 8) / 4;
                uint8_t& byte = block[((b * bl / 8 + p) * nr + i) * 4 + t];
                const unsigned v = q4_0_nibble(rows, k, bl, ch, b, kk) ^ 8u;
                byte = static_cast<uint8_t>(byte | (v << (4 * high)));
            }
            const uint16_t d = f16_from_f32(f32_from_f16(q4_0_scale(rows, k, bl, ch, b)) * 0.0625f);
            std::memcpy(block + nr * nb * bl / 2 + (b * nr + i) * 2, &d, 2);
        }
    }
    return out;
}

std::vector<uint8_t> pack_qsi8d32p_scales_last(const Qsi8d32& q, size_t mr, uint8_t fill, std::vector<uint8_t>* mask) {
    const size_t nb = q.k / q.bl;
    const size_t stride = mr * nb * (q.bl + 2);
    std::vector<uint8_t> out((q.m + mr - 1) / mr * stride, fill);
    if (mask) mask->assign(out.size(), 0);
    auto put = [&](size_t at, uint8_t v) {
        out[at] = v;
        if (mask) (*mask)[at] = 1;
    };
    for (size_t i = 0; i < q.m; ++i) {
        const size_t base = i / mr * stride, r = i % mr;
        for (size_t kk = 0; kk < q.k; ++kk) {
            put(base + (kk / 4) * mr * 4 + r * 4 + kk % 4, static_cast<uint8_t>(q.q[i * q.k + kk]));
        }
        for (size_t b = 0; b < nb; ++b) {
            const uint16_t s = q.scales[i * nb + b];
            put(base + mr * q.k + (b * mr + r) * 2, static_cast<uint8_t>(s & 0xFF));
            put(base + mr * q.k + (b * mr + r) * 2 + 1, static_cast<uint8_t>(s >> 8));
        }
    }
    return out;
}

}  // namespace kai_ref
