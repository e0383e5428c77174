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
"""
import torch

__all__ = ["int4_quantize", "int4_dequantize", "quantize_gguf", "dequantize_gguf"]

QK = 32
GGUF_BLOCK_BYTES = {"Q4_0": 2 + QK // 2, "Q8_0": 2 + QK}


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


def quantize_gguf(weight, type="Q4_0"):
    """weight (N x K float, K a multiple of 32) -> uint8 [N, K / 32 * block bytes] GGUF blocks."""
    w = weight.detach().to(torch.float32)
    n, k = w.shape
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
        raise ValueError(f'quantize_gguf: type must be "Q4_0" or "Q8_0", got "{type}"')
    head = d.view(torch.uint8).reshape(n, k // QK, 2)
    return torch.cat([head, body], dim=2).reshape(n, -1).contiguous()


def dequantize_gguf(blocks, type, n, k):
    """The f32 weights (N x K) that GGUF blocks stand for."""
    b = blocks.reshape(n, k // QK, GGUF_BLOCK_BYTES[type])
    d = b[:, :, :2].contiguous().view(torch.float16).to(torch.float32)
    if type == "Q4_0":
        body = b[:, :, 2:].to(torch.int32)
        q = torch.cat([body & 15, body >> 4], dim=2) - 8
    else:
        q = b[:, :, 2:].contiguous().view(torch.int8).to(torch.int32)
    return (q.to(torch.float32) * d).reshape(n, k)
