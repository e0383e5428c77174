# SPDX-FileCopyrightText: Copyright 2026 The kai authors
# SPDX-License-Identifier: Apache-2.0
"""Weight quantisers in plain PyTorch, producing the inputs of kai's packing ops.

int4 (for kai::dyn_quant_pack_4bit_weight, the convention of PyTorch's _dyn_quant_* tests):
symmetric per output channel (group_size None) or per group of group_size along K;
scale = max|w| / 7 (at least f32 eps), stored f32 channel-wise and bf16 group-wise (the value
quantised with is the stored one); q = clamp(round(w / scale), -8, 7); stored as the unsigned nibble
q + 8, two per byte, even k in the low nibble; rows of ceil(K / 2) bytes.

GGUF (for kai::pack_gguf), ggml's formats: blocks of 32 along K, each an f16 scale d then the values.
Q4_0: d = m / -8 with m the value of largest magnitude, q = min(15, trunc(w / d + 8.5)), byte j
holds q[j] (low nibble) and q[j + 16] (high nibble); value = d * (q - 8). Q8_0: d = max|w| / 127,
q = round(w / d) (ties away from zero); value = d * q.

GGUF K-quants, blocks of 256 (ggml's block_q4_K and block_q6_K; docs/matmul_gguf_kquants.md):
Q4_K, 144 bytes: f16 d, f16 dmin, 12 bytes packing eight 6-bit scales sc_j and mins m_j (bytes 0-3:
sc_0..3 and the top 2 bits of sc_4..7; bytes 4-7: m_0..3 and the top 2 bits of m_4..7; bytes 8-11: the
low 4 bits of sc_4..7 and of m_4..7), 128 bytes of nibbles (per 64 weights, 32 bytes: low nibbles the
first 32, high nibbles the next 32); value = d * sc_j * q - dmin * m_j for sub-block j of 32. Q6_K,
210 bytes: ql[128] (low 4 bits), qh[64] (high 2 bits), int8 scales[16] (one per 16 weights), f16 d;
value = d * sc_j * (q - 32). The quantisers here are simple (min/max per sub-block, round to nearest),
not ggml's iterative search: any bytes of these formats are valid input to kai::pack_gguf.
"""
import torch

__all__ = ["int4_quantize", "int4_dequantize", "quantize_gguf", "dequantize_gguf"]

QK = 32
QK_K = 256
GGUF_BLOCK_BYTES = {"Q4_0": 2 + QK // 2, "Q8_0": 2 + QK, "Q4_K": 144, "Q6_K": 210}
GGUF_BLOCK_LEN = {"Q4_0": QK, "Q8_0": QK, "Q4_K": QK_K, "Q6_K": QK_K}


def _round_away(x):
    return torch.sign(x) * torch.floor(torch.abs(x) + 0.5)


def int4_quantize(weight, group_size=None):
    """weight (N x K float) -> (uint8 N x ceil(K/2), scales f32 [N] or bf16 [N, K/group_size])."""
    w = weight.detach().to(torch.float32)
    n, k = w.shape
    if group_size is not None and int(group_size) == k:
        group_size = None  # block_size == in_features is channel-wise (f32 scales), as PyTorch decides
    gs = k if group_size is None else int(group_size)
    if k % gs != 0:
        raise ValueError(f"int4_quantize: in_features {k} is not a multiple of group_size {gs}")
    g = w.reshape(n, k // gs, gs)
    scale = (g.abs().amax(dim=2) / 7.0).clamp(min=torch.finfo(torch.float32).eps)
    if group_size is None:
        scale_used = scale  # f32, [N, 1]
    else:
        scale_used = scale.to(torch.bfloat16).to(torch.float32)
    q = torch.clamp(torch.round(g / scale_used.unsqueeze(2)), -8, 7).reshape(n, k).to(torch.int32) + 8
    if k % 2:
        q = torch.cat([q, torch.full((n, 1), 8, dtype=torch.int32)], dim=1)
    packed = (q[:, 0::2] | (q[:, 1::2] << 4)).to(torch.uint8).contiguous()
    if group_size is None:
        return packed, scale_used.reshape(n).contiguous()
    return packed, scale_used.to(torch.bfloat16).contiguous()


def int4_dequantize(packed, scales, k):
    """The float weights (N x K, f32) that int4_quantize's output stands for."""
    p = packed.to(torch.int32)
    n = p.shape[0]
    q = torch.stack([p & 15, p >> 4], dim=2).reshape(n, -1)[:, :k] - 8
    s = scales.to(torch.float32).reshape(n, -1)
    gs = k // s.shape[1]
    return (q.reshape(n, k // gs, gs).to(torch.float32) * s.unsqueeze(2)).reshape(n, k)


def _f16(v):
    """(f16 tensor, its value in f32)."""
    h = v.to(torch.float16)
    return h, h.to(torch.float32)


def _inv(v):
    return torch.where(v != 0, 1.0 / v, torch.zeros_like(v))


def _quantize_q4_k(b):
    """b: [N, S, 256] f32 -> uint8 [N, S, 144]."""
    n, s = b.shape[:2]
    sub = b.reshape(n, s, 8, 32)
    lo = sub.amin(dim=3).clamp(max=0.0)  # value = scale * q - min, q in 0..15: min = -lo >= 0
    scale = (sub.amax(dim=3) - lo) / 15.0
    mins = -lo
    dh, d = _f16(scale.amax(dim=2, keepdim=True) / 63.0)
    mh, dmin = _f16(mins.amax(dim=2, keepdim=True) / 63.0)
    sc = torch.clamp(torch.round(scale * _inv(d)), 0, 63).to(torch.int32)
    mn = torch.clamp(torch.round(mins * _inv(dmin)), 0, 63).to(torch.int32)
    step = (d * sc.to(torch.float32)).unsqueeze(3)
    q = torch.clamp(torch.round((sub + (dmin * mn.to(torch.float32)).unsqueeze(3)) * _inv(step)), 0, 15)
    q = q.to(torch.int32).reshape(n, s, 4, 2, 32)
    qs = (q[:, :, :, 0] | (q[:, :, :, 1] << 4)).reshape(n, s, 128)
    scales = torch.cat([sc[..., :4] | ((sc[..., 4:] >> 4) << 6), mn[..., :4] | ((mn[..., 4:] >> 4) << 6),
                        (sc[..., 4:] & 15) | ((mn[..., 4:] & 15) << 4)], dim=2)
    head = torch.cat([dh.view(torch.uint8).reshape(n, s, 2), mh.view(torch.uint8).reshape(n, s, 2)], dim=2)
    return torch.cat([head, scales.to(torch.uint8), qs.to(torch.uint8)], dim=2)


def _quantize_q6_k(b):
    """b: [N, S, 256] f32 -> uint8 [N, S, 210]."""
    n, s = b.shape[:2]
    sub = b.reshape(n, s, 16, 16)
    scale = sub.abs().amax(dim=3) / 31.0
    dh, d = _f16(scale.amax(dim=2, keepdim=True) / 127.0)
    sc = torch.clamp(torch.round(scale * _inv(d)), -128, 127)
    step = (d * sc).unsqueeze(3)
    q = (torch.clamp(torch.round(sub * _inv(step)), -32, 31) + 32).to(torch.int32)
    # Per half h of 128 weights: index 32g + l (g = 0..3, l = 0..31) -> ql[64h + l + 32 (g & 1)] (low
    # nibble for g < 2, high for g >= 2), qh[32h + l] bits 2g, 2g + 1.
    q = q.reshape(n, s, 2, 4, 32)
    lo, hi = q & 15, q >> 4
    ql = torch.cat([lo[:, :, :, 0] | (lo[:, :, :, 2] << 4), lo[:, :, :, 1] | (lo[:, :, :, 3] << 4)], dim=3)
    qh = hi[:, :, :, 0] | (hi[:, :, :, 1] << 2) | (hi[:, :, :, 2] << 4) | (hi[:, :, :, 3] << 6)
    return torch.cat([ql.reshape(n, s, 128).to(torch.uint8), qh.reshape(n, s, 64).to(torch.uint8),
                      sc.to(torch.int8).view(torch.uint8), dh.view(torch.uint8).reshape(n, s, 2)], dim=2)


def quantize_gguf(weight, type="Q4_0"):
    """weight (N x K float, K a multiple of the block: 32, or 256 for the K-quants) -> uint8
    [N, K / block * block bytes] GGUF blocks."""
    w = weight.detach().to(torch.float32)
    n, k = w.shape
    if type in ("Q4_K", "Q6_K"):
        if k % QK_K:
            raise ValueError(f"quantize_gguf: in_features {k} is not a multiple of 256 ({type} super-blocks)")
        b = w.reshape(n, k // QK_K, QK_K)
        out = _quantize_q4_k(b) if type == "Q4_K" else _quantize_q6_k(b)
        return out.reshape(n, -1).contiguous()
    if k % QK:
        raise ValueError(f"quantize_gguf: in_features {k} is not a multiple of 32")
    b = w.reshape(n, k // QK, QK)
    if type == "Q4_0":
        idx = b.abs().argmax(dim=2, keepdim=True)
        mx = torch.gather(b, 2, idx)
        d = (mx / -8.0).to(torch.float16)
        dq = d.to(torch.float32)
        inv = torch.where(dq != 0, 1.0 / dq, torch.zeros_like(dq))
        q = torch.clamp(torch.trunc(b * inv + 8.5), 0, 15).to(torch.int32)
        body = (q[:, :, :16] | (q[:, :, 16:] << 4)).to(torch.uint8)
    elif type == "Q8_0":
        d = (b.abs().amax(dim=2, keepdim=True) / 127.0).to(torch.float16)
        dq = d.to(torch.float32)
        inv = torch.where(dq != 0, 1.0 / dq, torch.zeros_like(dq))
        body = torch.clamp(_round_away(b * inv), -127, 127).to(torch.int8).view(torch.uint8)
    else:
        raise ValueError(f'quantize_gguf: type must be "Q4_0", "Q8_0", "Q4_K" or "Q6_K", got "{type}"')
    head = d.view(torch.uint8).reshape(n, k // QK, 2)
    return torch.cat([head, body], dim=2).reshape(n, -1).contiguous()


def dequantize_gguf(blocks, type, n, k):
    """The f32 weights (N x K) that GGUF blocks stand for."""
    if type in ("Q4_K", "Q6_K"):
        return _dequantize_kquant(blocks.reshape(n, k // QK_K, GGUF_BLOCK_BYTES[type]), type).reshape(n, k)
    b = blocks.reshape(n, k // QK, GGUF_BLOCK_BYTES[type])
    d = b[:, :, :2].contiguous().view(torch.float16).to(torch.float32)
    if type == "Q4_0":
        body = b[:, :, 2:].to(torch.int32)
        q = torch.cat([body & 15, body >> 4], dim=2) - 8
    else:
        q = b[:, :, 2:].contiguous().view(torch.int8).to(torch.int32)
    return (q.to(torch.float32) * d).reshape(n, k)


def _dequantize_kquant(b, type):
    n, s = b.shape[:2]
    if type == "Q4_K":
        d = b[:, :, 0:2].contiguous().view(torch.float16).to(torch.float32)
        dmin = b[:, :, 2:4].contiguous().view(torch.float16).to(torch.float32)
        x = b[:, :, 4:16].to(torch.int32)
        sc = torch.cat([x[..., 0:4] & 63, (x[..., 8:12] & 15) | ((x[..., 0:4] >> 6) << 4)], dim=2)
        mn = torch.cat([x[..., 4:8] & 63, (x[..., 8:12] >> 4) | ((x[..., 4:8] >> 6) << 4)], dim=2)
        qs = b[:, :, 16:].to(torch.int32).reshape(n, s, 4, 32)
        q = torch.stack([qs & 15, qs >> 4], dim=3).reshape(n, s, 8, 32).to(torch.float32)
        return (d.unsqueeze(3) * sc.unsqueeze(3).to(torch.float32) * q
                - dmin.unsqueeze(3) * mn.unsqueeze(3).to(torch.float32)).reshape(n, s, QK_K)
    ql = b[:, :, 0:128].to(torch.int32).reshape(n, s, 2, 2, 32)
    qh = b[:, :, 128:192].to(torch.int32).reshape(n, s, 2, 1, 32)
    sc = b[:, :, 192:208].contiguous().view(torch.int8).to(torch.float32)
    d = b[:, :, 208:210].contiguous().view(torch.float16).to(torch.float32)
    lo = torch.cat([ql & 15, ql >> 4], dim=3)  # groups 0, 1 (low nibbles), 2, 3 (high)
    hi = torch.cat([(qh >> (2 * g)) & 3 for g in range(4)], dim=3)
    q = ((lo | (hi << 4)) - 32).reshape(n, s, 16, 16).to(torch.float32)
    return (d.unsqueeze(3) * sc.unsqueeze(3) * q).reshape(n, s, QK_K)
