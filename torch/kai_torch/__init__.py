# SPDX-FileCopyrightText: Copyright 2026 The kai authors
# SPDX-License-Identifier: Apache-2.0
"""kai's AArch64 kernels in PyTorch (docs/pytorch.md).

    import kai_torch
    kai_torch.load()                                   # registers torch.ops.kai.*
    kai_torch.quantize_(model, kai_torch.Int4DynamicConfig(group_size=32))

load() finds libkai_torch_ops.so: the path given, else $KAI_TORCH_LIB, else beside this package.
quantize_() swaps the model's nn.Linear modules in place for kai-backed modules (configs:
Int4DynamicConfig, Bf16FastMathConfig, GgufConfig) and raises KaiUnsupportedLayer naming the first
layer it cannot take (unless skip_unsupported=True, which leaves such layers as they are).
"""
import os

import torch

from kai_torch.modules import (  # noqa: F401  (the public API)
    Bf16FastMathConfig,
    GgufConfig,
    Int4DynamicConfig,
    KaiBf16Linear,
    KaiGgufLinear,
    KaiInt4Linear,
    KaiUnsupportedLayer,
    quantize_,
)
from kai_torch.quant import (  # noqa: F401
    dequantize_gguf,
    int4_dequantize,
    int4_quantize,
    quantize_gguf,
)

_LIB_NAME = "libkai_torch_ops.so"
_loaded = None


def library_path(path=None):
    """The library load() would load: `path`, $KAI_TORCH_LIB, or the one beside this package."""
    if path:
        return os.path.abspath(path)
    env = os.environ.get("KAI_TORCH_LIB")
    if env:
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, _LIB_NAME)


def load(path=None):
    """Loads the kai operator library once (torch.ops.load_library) and returns its path."""
    global _loaded
    if _loaded is not None:
        return _loaded
    lib = library_path(path)
    if not os.path.exists(lib):
        raise FileNotFoundError(
            f"kai_torch: {lib} not found; build it with torch/build.sh (or set KAI_TORCH_LIB)")
    torch.ops.load_library(lib)
    _loaded = lib
    return lib


def kernels_used(op, m, block_size=0, in_features=0):
    """The kai kernel an op runs for an m-row input on this CPU (e.g. for logs)."""
    load()
    return torch.ops.kai.kernels_used(op, m, block_size, in_features)
