# SPDX-FileCopyrightText: Copyright 2026 The kai authors
# SPDX-License-Identifier: Apache-2.0
"""kai-backed replacements for nn.Linear and quantize_(), in the style of torchao's API."""
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional

import torch
from torch import nn

from kai_torch import quant

__all__ = ["Int4DynamicConfig", "Bf16FastMathConfig", "GgufConfig", "KaiInt4Linear", "KaiBf16Linear",
           "KaiGgufLinear", "KaiUnsupportedLayer", "quantize_"]


class KaiUnsupportedLayer(ValueError):
    """A layer quantize_() cannot take; the message names it and says why."""


@dataclass
class Int4DynamicConfig:
    """int4 weights, int8 activations quantised per row at run time (torchao's
    Int8DynamicActivationInt4WeightConfig). group_size: None for channel-wise, else a multiple of
    32 dividing in_features."""
    group_size: Optional[int] = 32


@dataclass
class Bf16FastMathConfig:
    """f32 linear computed on bf16-rounded weights and activations (BFMMLA / BFDOT), f32 accumulation."""


@dataclass
class GgufConfig:
    """GGUF weights kept quantised: "Q4_0", "Q8_0", "Q4_K" or "Q6_K". tensors: {module name: uint8 GGUF
    blocks} to load (a GGUF file's tensors); a layer not in it has its float weight quantised first.
    types: {module name: type} for layers whose type is not `type` (a Q4_K_M model: type "Q4_K",
    with "Q6_K" for the layers the file has in Q6_K)."""
    type: str = "Q4_0"
    tensors: Dict[str, torch.Tensor] = field(default_factory=dict)
    types: Dict[str, str] = field(default_factory=dict)

    def type_of(self, name):
        return self.types.get(name, self.type)


def _ops():
    import kai_torch
    kai_torch.load()
    return torch.ops.kai


class KaiInt4Linear(nn.Module):
    """y = kai::dyn_quant_matmul_4bit(x, packed): any leading dimensions, f32 or bf16 in and out."""

    def __init__(self, in_features, out_features, block_size, packed):
        super().__init__()
        self.in_features, self.out_features, self.block_size = in_features, out_features, block_size
        self.register_buffer("packed_weight", packed)

    @classmethod
    def from_linear(cls, linear, group_size):
        k, n = linear.in_features, linear.out_features
        w, s = quant.int4_quantize(linear.weight, group_size)
        bias = None if linear.bias is None else linear.bias.detach().to(torch.float32).contiguous()
        bl = k if group_size is None else group_size
        packed = _ops().dyn_quant_pack_4bit_weight(w, s, bias, bl, k, n)
        return cls(k, n, bl, packed)

    def forward(self, x):
        lead = x.shape[:-1]
        y = torch.ops.kai.dyn_quant_matmul_4bit(x.reshape(-1, self.in_features), self.packed_weight,
                                                self.block_size, self.in_features, self.out_features)
        return y.reshape(*lead, self.out_features)

    def extra_repr(self):
        kind = "channel-wise" if self.block_size == self.in_features else f"group_size={self.block_size}"
        return f"in_features={self.in_features}, out_features={self.out_features}, int4 {kind}"


class KaiBf16Linear(nn.Module):
    """y = kai::linear_bf16(x, packed): the weight and bias packed once, bf16 fast math."""

    def __init__(self, in_features, out_features, packed):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.register_buffer("packed_weight", packed)

    @classmethod
    def from_linear(cls, linear):
        packed = _ops().pack_linear_bf16(linear.weight.detach(), None if linear.bias is None else linear.bias.detach())
        return cls(linear.in_features, linear.out_features, packed)

    def forward(self, x):
        return torch.ops.kai.linear_bf16(x, self.packed_weight)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bf16 fast math"


class KaiGgufLinear(nn.Module):
    """y = kai::linear_gguf(x, packed, type, n, k) + bias."""

    def __init__(self, in_features, out_features, type, packed, bias):
        super().__init__()
        self.in_features, self.out_features, self.type = in_features, out_features, type
        self.register_buffer("packed_weight", packed)
        self.register_buffer("bias", bias)

    @classmethod
    def from_linear(cls, linear, type, blocks=None):
        k, n = linear.in_features, linear.out_features
        if blocks is None:
            blocks = quant.quantize_gguf(linear.weight, type)
        packed = _ops().pack_gguf(blocks, type, n, k)
        bias = None if linear.bias is None else linear.bias.detach().to(torch.float32).clone()
        return cls(k, n, type, packed, bias)

    def forward(self, x):
        y = torch.ops.kai.linear_gguf(x, self.packed_weight, self.type, self.out_features, self.in_features)
        return y if self.bias is None else y + self.bias.to(y.dtype)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, GGUF {self.type}"


def _why_not(name, mod, config):
    """None when quantize_ can take the layer, else the reason."""
    w = mod.weight
    if w.device.type != "cpu":
        return f"its weight is on {w.device}; kai's ops run on the CPU"
    if w.dtype not in (torch.float32, torch.bfloat16):
        return f"its weight has dtype {w.dtype}; kai takes float32 or bfloat16"
    k = mod.in_features
    if isinstance(config, Int4DynamicConfig):
        gs = config.group_size
        if gs is not None and (gs <= 0 or gs % 32 or k % gs):
            return (f"in_features {k} is not a multiple of group_size {gs} (or group_size is not a positive "
                    "multiple of 32); use Int4DynamicConfig(group_size=None) for channel-wise")
    elif isinstance(config, GgufConfig):
        t = config.type_of(name)
        if t not in quant.GGUF_BLOCK_BYTES:
            return f'GGUF type "{t}" is not supported (Q4_0, Q8_0, Q4_K, Q6_K)'
        bl = quant.GGUF_BLOCK_LEN[t]
        if k % bl:
            return f"in_features {k} is not a multiple of {bl} ({t} blocks)"
    return None


def quantize_(model, config, filter_fn: Optional[Callable[[nn.Module, str], bool]] = None,
              skip_unsupported=False):
    """Swaps, in place, every nn.Linear of `model` (that filter_fn(module, name) accepts) for its kai
    module under `config`; returns the model. Raises KaiUnsupportedLayer naming the first layer it
    cannot take, before changing anything, unless skip_unsupported is set (then such layers stay)."""
    if not isinstance(config, (Int4DynamicConfig, Bf16FastMathConfig, GgufConfig)):
        raise TypeError(f"quantize_: config must be Int4DynamicConfig, Bf16FastMathConfig or GgufConfig, got "
                        f"{type(config).__name__}")
    chosen = []
    for name, mod in model.named_modules():
        if type(mod) is not nn.Linear or (filter_fn is not None and not filter_fn(mod, name)):
            continue
        why = _why_not(name, mod, config)
        if why is not None:
            if skip_unsupported:
                continue
            raise KaiUnsupportedLayer(f"quantize_: cannot take layer '{name}' ({mod}): {why}")
        chosen.append((name, mod))
    if isinstance(model, nn.Linear) and chosen and chosen[0][0] == "":
        raise KaiUnsupportedLayer("quantize_: model is itself an nn.Linear; wrap it (nn.Sequential) to swap it")
    for name, mod in chosen:
        if isinstance(config, Int4DynamicConfig):
            new = KaiInt4Linear.from_linear(mod, config.group_size)
        elif isinstance(config, Bf16FastMathConfig):
            new = KaiBf16Linear.from_linear(mod)
        else:
            new = KaiGgufLinear.from_linear(mod, config.type_of(name), config.tensors.get(name))
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, new)
    return model
