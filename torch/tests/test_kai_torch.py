# SPDX-FileCopyrightText: Copyright 2026 The kai authors
# SPDX-License-Identifier: Apache-2.0
"""kai's PyTorch ops against PyTorch itself, in one process (importing torch under qemu is slow).

    torch/run_tests.sh                     # builds the extension, then runs this file
    KAI_TORCH_TEST_PERTURB=<op>[,<op>] ... # perturbs those ops' outputs: their tests must then fail

The oracles are PyTorch's float ops on the operands the formats define, written here from the
formats (docs/pytorch.md), not from the code under test:
  * dyn_quant_matmul_4bit: weights dequantised from the nibbles and scales; activations quantised per
    row as documented for kai_lhs_quant_pack_qai8dxp_f32 (asymmetric int8, f32 arithmetic, data ties
    away from zero, zero point ties to even), then F.linear in f64. The kernel's integer dot products
    are exact; what is left is f32 rounding of the block sums, scales and bias: the bound is
    (K / bl + 3) * 2^-23 * (sum_k |xq_k w_k| + |b|), plus the bf16 output rounding (2^-8 |y|) for
    bf16 inputs.
  * linear_bf16: F.linear in f64 on bf16-rounded x and W; products of bf16 values are exact in f32,
    the K-term f32 accumulation errs by at most K * 2^-24 * sum_k |x_k w_k| (+ the bias add).
  * linear_gguf Q4_0: activations quantised per block of 32 as documented for
    kai_lhs_quant_pack_qsi8d32p_f32 (f16 scale amax / 127, q = round_away(x * (1 / scale))), weights
    from the Q4_0 blocks, F.linear in f64; bound (K / 32 + 3) * 2^-23 * sum |xq w|.
  * linear_gguf Q8_0: the weights folded to per-channel int8 as documented, activations as for
    dyn_quant, the same bound as channel-wise int4.
  * linear_gguf Q4_K / Q6_K: activations quantised per block of 256 as documented for
    kai_lhs_quant_pack_qsi8d256p_f32_neon (ggml's Q8_K: f32 scale amax / 127, q = round(x * (127 / amax)),
    ties to even), weights dequantised here from the GGUF bytes (ggml's block_q4_K / block_q6_K),
    F.linear in f64. The sub-block sums are exact integers; f32 rounds I * d, the min term, the scaling
    by the LHS scale and the sum over K / 256 super-blocks: bound (K / 256 + 4) * 2^-23 * sum_k |xq_k| *
    (|d sc_j q_k| + |dmin m_j|) (Q4_K; Q6_K: |d sc_j (q_k - 32)|).
"""
import copy
import math
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import kai_torch  # noqa: E402

kai_torch.load()
PERTURB = set(filter(None, os.environ.get("KAI_TORCH_TEST_PERTURB", "").split(",")))
EPS32 = 2.0 ** -24


def op(name):
    """torch.ops.kai.<name>; with KAI_TORCH_TEST_PERTURB=<name>[,<name>...], its output is nudged at one
    element by 1e-3 of its largest magnitude, or the low bit of every 61st packed byte from byte 17 on
    flipped (past any 16-byte header; one byte alone can land in padding or a zero bias) (to show that
    the tests catch a wrong result)."""
    f = getattr(torch.ops.kai, name)
    if name not in PERTURB:
        return f

    def perturbed(*a):
        y = f(*a).clone()
        flat = y.view(-1)
        i = flat.numel() // 2
        if y.is_floating_point():
            flat[i] += 1e-3 * (flat.abs().max() + 1)
        else:  # packed bytes: flip the low bit of every 61st
            flat[17::61] ^= 1
        return y
    return perturbed


# ---- reference quantisers, from the formats -----------------------------------------------------------

def round_away(v):
    r = torch.round(v)  # ties to even
    t = torch.trunc(v)
    tie = (v - t).abs() == 0.5
    return torch.where(tie, t + torch.sign(v), r)


def qai8dx_rows(x):
    """Per-row asymmetric int8 as kai_lhs_quant_pack_qai8dxp_f32 documents; returns the dequantised rows (f64)."""
    x = x.to(torch.float32)
    zero = torch.zeros((), dtype=torch.float32)
    rmin = torch.minimum(x.amin(dim=1), zero)
    rmax = torch.maximum(x.amax(dim=1), zero)
    scale = torch.where(rmax == rmin, torch.ones_like(rmax), torch.tensor(255.0) / (rmax - rmin))
    recip = torch.tensor(1.0) / scale
    dmin, dmax = rmin * scale, rmax * scale
    zp = torch.where((torch.tensor(-128.0) + dmin) + (torch.tensor(127.0) + dmax) > 0, -128.0 - dmin, 127.0 - dmax)
    zp = torch.round(torch.clamp(zp, -128, 127))  # ties to even
    q = torch.clamp(round_away(x * scale[:, None]) + zp[:, None], -128, 127)
    return (q.double() - zp.double()[:, None]) * recip.double()[:, None]


def q8_blocks(x):
    """Per-block (32) symmetric int8 as kai_lhs_quant_pack_qsi8d32p_f32 documents; dequantised rows (f64)."""
    m, k = x.shape
    b = x.to(torch.float32).reshape(m, k // 32, 32)
    scale = b.abs().amax(dim=2, keepdim=True) / torch.tensor(127.0)
    rep = torch.where(scale != 0, torch.tensor(1.0) / scale, torch.zeros_like(scale))
    q = round_away(b * rep)
    d16 = scale.to(torch.float16).double()
    return (q.double() * d16).reshape(m, k)


def int4_weights(packed, scales, k):
    """Dequantised int4 weights (f64): value = nibble - 8 (even k low nibble), times its scale."""
    p = packed.to(torch.int64)
    n = p.shape[0]
    q = torch.stack([p & 15, p >> 4], dim=2).reshape(n, -1)[:, :k] - 8
    s = scales.double().reshape(n, -1)
    bl = k // s.shape[1]
    return (q.double().reshape(n, k // bl, bl) * s[:, :, None]).reshape(n, k)


def gguf_weights(blocks, type, n, k):
    b = blocks.reshape(n, k // 32, -1)
    d = b[:, :, :2].contiguous().view(torch.float16).double()
    body = b[:, :, 2:]
    if type == "Q4_0":
        q = torch.cat([body.to(torch.int64) & 15, body.to(torch.int64) >> 4], dim=2) - 8
    else:
        q = body.contiguous().view(torch.int8).to(torch.int64)
    return (q.double() * d).reshape(n, k)


def q8k_rows(x):
    """Per-block (256) symmetric int8 as kai_lhs_quant_pack_qsi8d256p_f32_neon documents (f32 arithmetic);
    dequantised rows (f64)."""
    m, k = x.shape
    b = x.to(torch.float32).reshape(m, k // 256, 256)
    amax = b.abs().amax(dim=2, keepdim=True)
    nz = amax != 0
    inv = torch.where(nz, torch.tensor(127.0) / torch.where(nz, amax, torch.ones_like(amax)), torch.zeros_like(amax))
    q = torch.round(b * inv)  # ties to even
    scale = amax / torch.tensor(127.0)
    return (q.double() * scale.double()).reshape(m, k)


def kquant_weights(blocks, type, n, k):
    """(weights, magnitudes) in f64 from GGUF K-quant bytes, written from ggml's block layouts: the
    magnitude of a Q4_K weight is |d sc q| + |dmin m| (the two terms the kernel scales separately)."""
    nb = k // 256
    byt = blocks.reshape(n * nb, -1)
    raw = byt.to(torch.int64)

    def f16(at):  # little-endian f16 at byte `at`
        return byt[:, at:at + 2].contiguous().view(torch.float16).double()
    w = torch.empty(n * nb, 256, dtype=torch.float64)
    mag = torch.empty_like(w)
    if type == "Q4_K":
        d, dmin, sc_bytes = f16(0), f16(2), raw[:, 4:16]
        for j in range(8):  # ggml's get_scale_min_k4
            if j < 4:
                sc, mn = sc_bytes[:, j] & 63, sc_bytes[:, j + 4] & 63
            else:
                sc = (sc_bytes[:, j + 4] & 15) | ((sc_bytes[:, j - 4] >> 6) << 4)
                mn = (sc_bytes[:, j + 4] >> 4) | ((sc_bytes[:, j] >> 6) << 4)
            chunk = raw[:, 16 + 32 * (j // 2):16 + 32 * (j // 2) + 32]  # 64 weights per 32 bytes
            q = (chunk & 15) if j % 2 == 0 else (chunk >> 4)
            a = d * sc[:, None].double() * q.double()
            c = dmin * mn[:, None].double()
            w[:, 32 * j:32 * j + 32] = a - c
            mag[:, 32 * j:32 * j + 32] = a.abs() + c.abs()
    else:
        d = f16(208)
        for e in range(256):
            h, p = divmod(e, 128)
            g, l = divmod(p, 32)
            byte = raw[:, 64 * h + l + 32 * (g & 1)]
            lo = (byte & 15) if g < 2 else (byte >> 4)
            hi = (raw[:, 128 + 32 * h + l] >> (2 * g)) & 3
            sc = raw[:, 192 + e // 16]
            sc = torch.where(sc > 127, sc - 256, sc)
            w[:, e] = d[:, 0] * sc.double() * ((lo | (hi << 4)) - 32).double()
        mag = w.abs()
    return w.reshape(n, k), mag.reshape(n, k)


def random_kquant_blocks(type, n, k, g):
    """Random GGUF bytes (every scale, min and quant bit pattern) with sane f16 d (and dmin)."""
    nb = k // 256
    b = torch.randint(0, 256, (n * nb, 144 if type == "Q4_K" else 210), generator=g, dtype=torch.int32).to(torch.uint8)
    d = ((torch.rand(n * nb, 2, generator=g) + 0.1) * 1e-2 * torch.sign(torch.randn(n * nb, 2, generator=g)))
    d = d.to(torch.float16).view(torch.uint8)
    if type == "Q4_K":
        b[:, 0:4] = d.reshape(n * nb, 4)
    else:
        b[:, 208:210] = d[:, 0:2]
    return b.reshape(n, nb * b.shape[1])


def fold_q8_0(w64):
    """Q8_0 weights folded to one scale per row (f32 arithmetic): s = max|w| / 127, q = round_away(w / s)."""
    w = w64.to(torch.float32)
    s = w.abs().amax(dim=1, keepdim=True) / torch.tensor(127.0)
    q = torch.where(s != 0, torch.clamp(round_away(w / s), -127, 127), torch.zeros_like(w))
    return q.double() * s.double()


def check_within(tc, y, ref, bound, what):
    err = (y.double() - ref).abs()
    bad = err > bound
    if bool(bad.any()):
        i = int(torch.nonzero(bad.reshape(-1))[0])
        tc.fail(f"{what}: |y - ref| = {err.reshape(-1)[i].item():.3g} > bound {bound.reshape(-1)[i].item():.3g} "
                f"at flat index {i} (max err {err.max().item():.3g})")


# ---- the ops ---------------------------------------------------------------------------------------------

class DynQuant4bit(unittest.TestCase):
    N = 40  # not a multiple of the kernels' n_step

    def run_case(self, k, bl, m, dtype, bias=True, seed=0):
        g = torch.Generator().manual_seed(seed)
        n = self.N
        w = torch.randn(n, k, generator=g)
        b = torch.randn(n, generator=g) if bias else None
        x = torch.randn(m, k, generator=g).to(dtype)
        wq, s = kai_torch.int4_quantize(w, None if bl == k else bl)
        packed = op("dyn_quant_pack_4bit_weight")(wq, s, b, bl, k, n)
        y = op("dyn_quant_matmul_4bit")(x, packed, bl, k, n)
        self.assertEqual(y.dtype, dtype)
        self.assertEqual(tuple(y.shape), (m, n))
        xq = qai8dx_rows(x.float())
        wd = int4_weights(wq, s, k)
        b64 = torch.zeros(n, dtype=torch.float64) if b is None else b.double()
        ref = F.linear(xq, wd, b64)
        nblocks = k // bl
        bound = (nblocks + 3) * 2 * EPS32 * (xq.abs() @ wd.abs().T + b64.abs()) + 1e-30
        if dtype == torch.bfloat16:
            bound = bound + 2.0 ** -8 * ref.abs()
        check_within(self, y, ref, bound, f"dyn_quant_matmul_4bit k={k} bl={bl} m={m} {dtype}")

    def test_channelwise_and_groupwise(self):
        for dtype in (torch.float32, torch.bfloat16):
            for bl in (512, 32, 64, 128, 256):
                for m in (1, 5, 16):
                    with self.subTest(dtype=dtype, bl=bl, m=m):
                        self.run_case(512, bl, m, dtype, bias=(m != 5), seed=bl + m)

    def test_channelwise_odd_k(self):
        self.run_case(77, 77, 3, torch.float32)

    def test_packed_size_is_pytorchs(self):
        # PyTorch's kai_pack_rhs_int4_size, channel-wise, from the layout (docs/matmul_int4_channelwise.md):
        # per block of nr = 8 columns nr * (roundup(K, 32) / 2 + 4 (sum) + 4 (scale) + 4 (bias)) bytes.
        n, k = 40, 512
        wq, s = kai_torch.int4_quantize(torch.randn(n, k), None)
        p = torch.ops.kai.dyn_quant_pack_4bit_weight(wq, s, None, k, k, n)
        self.assertEqual(p.numel(), 40 // 8 * 8 * (512 // 2 + 12))
        self.assertEqual(p.dtype, torch.uint8)


COMPAT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "test", "data", "compat")


def compat_sections(name):
    """The byte sections of a vector recorded from KleidiAI v1.30.0 (test/data/compat): '[name] bytes type shape'
    then hex lines."""
    out, cur = {}, None
    with open(os.path.join(COMPAT, name)) as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                cur = line[1:line.index("]")]
                out[cur] = bytearray()
            elif cur is not None and line and not line.startswith("#"):
                out[cur] += bytes.fromhex(line)
    return out


class PackedBytes(unittest.TestCase):
    """dyn_quant_pack_4bit_weight's bytes against KleidiAI's own packers' output at PyTorch's (8, 16, 2),
    for the weights and scales in aten's argument convention (rows of ceil(K / 2) bytes)."""

    def check(self, name, n, k, bl, scale_dtype):
        sec = compat_sections(name)
        w = torch.frombuffer(sec["rhs"], dtype=torch.uint8).reshape(n, (k + 1) // 2)
        s = torch.frombuffer(sec["scale"], dtype=scale_dtype)
        want = torch.frombuffer(sec["rhs_packed"], dtype=torch.uint8)
        got = op("dyn_quant_pack_4bit_weight")(w, s, None, bl, k, n)
        self.assertEqual(got.numel(), want.numel())
        if not torch.equal(got, want):
            self.fail(f"{name}: bytes differ from KleidiAI's, first at {int(torch.nonzero(got != want)[0])}")

    def test_channelwise_matches_kleidiai(self):
        self.check("kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0__n13_k45_nr8_kr16_sr2_zp8.txt", 13, 45, 45, torch.float32)

    def test_groupwise_matches_kleidiai(self):
        self.check("kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0__n13_k96_bl32_nr8_kr16_sr2.txt", 13, 96, 32, torch.bfloat16)


class Bf16Linear(unittest.TestCase):
    def run_case(self, shape, n, wdtype, xdtype, bias):
        g = torch.Generator().manual_seed(n + shape[-1])
        k = shape[-1]
        w = torch.randn(n, k, generator=g).to(wdtype)
        b = torch.randn(n, generator=g) if bias else None
        x = torch.randn(*shape, generator=g).to(xdtype)
        packed = op("pack_linear_bf16")(w, b)
        y = op("linear_bf16")(x, packed)
        self.assertEqual(y.dtype, xdtype)
        self.assertEqual(tuple(y.shape), tuple(shape[:-1]) + (n,))
        xb = x.to(torch.bfloat16).double()
        wb = w.to(torch.bfloat16).double()
        b64 = torch.zeros(n, dtype=torch.float64) if b is None else b.double()
        ref = F.linear(xb, wb, b64)
        bound = (k + 2) * EPS32 * (xb.abs() @ wb.abs().T + b64.abs()) + 1e-30
        if xdtype == torch.bfloat16:
            bound = bound + 2.0 ** -8 * ref.abs()
        check_within(self, y, ref, bound, f"linear_bf16 {shape} n={n} {wdtype} {xdtype}")

    def test_shapes_and_dtypes(self):
        for shape in ((1, 96), (13, 96), (2, 3, 33), (9, 1)):
            for n in (1, 25):
                for wdtype in (torch.float32, torch.bfloat16):
                    for xdtype in (torch.float32, torch.bfloat16):
                        with self.subTest(shape=shape, n=n, w=wdtype, x=xdtype):
                            self.run_case(shape, n, wdtype, xdtype, bias=(n == 25))


class GgufLinear(unittest.TestCase):
    def run_case(self, type, shape, n):
        g = torch.Generator().manual_seed(n * 7 + shape[0])
        k = shape[-1]
        w = torch.randn(n, k, generator=g)
        x = torch.randn(*shape, generator=g)
        blocks = kai_torch.quantize_gguf(w, type)
        packed = op("pack_gguf")(blocks, type, n, k)
        y = op("linear_gguf")(x, packed, type, n, k)
        self.assertEqual(tuple(y.shape), tuple(shape[:-1]) + (n,))
        x2 = x.reshape(-1, k)
        wd = gguf_weights(blocks, type, n, k)
        if type == "Q4_0":
            xq, wk, nblocks = q8_blocks(x2), wd, k // 32
        else:
            xq, wk, nblocks = qai8dx_rows(x2), fold_q8_0(wd), 1
        ref = F.linear(xq, wk).reshape(y.shape)
        bound = ((nblocks + 3) * 2 * EPS32 * (xq.abs() @ wk.abs().T)).reshape(y.shape) + 1e-30
        check_within(self, y, ref, bound, f"linear_gguf {type} {shape} n={n}")

    def test_q4_0(self):
        for shape in ((1, 256), (7, 256), (2, 5, 64)):
            for n in (1, 37):
                with self.subTest(shape=shape, n=n):
                    self.run_case("Q4_0", shape, n)

    def test_q8_0(self):
        for shape in ((1, 256), (7, 256), (2, 5, 64)):
            for n in (1, 37):
                with self.subTest(shape=shape, n=n):
                    self.run_case("Q8_0", shape, n)

    def run_kquant(self, type, shape, n, blocks=None, dtype=torch.float32):
        g = torch.Generator().manual_seed(n * 11 + shape[0])
        k = shape[-1]
        if blocks is None:
            blocks = kai_torch.quantize_gguf(torch.randn(n, k, generator=g), type)
        x = torch.randn(*shape, generator=g)
        if x.numel() > k:
            x.view(-1, k)[1] = 0.0  # an all-zero row: scale 0
        x = x.to(dtype)
        packed = op("pack_gguf")(blocks, type, n, k)
        y = op("linear_gguf")(x, packed, type, n, k)
        self.assertEqual(tuple(y.shape), tuple(shape[:-1]) + (n,))
        self.assertEqual(y.dtype, dtype)
        xq = q8k_rows(x.reshape(-1, k).float())
        wd, mag = kquant_weights(blocks, type, n, k)
        ref = F.linear(xq, wd).reshape(y.shape)
        bound = ((k // 256 + 4) * 2 * EPS32 * (xq.abs() @ mag.T)).reshape(y.shape) + 1e-30
        if dtype == torch.bfloat16:
            bound = bound + 2.0 ** -8 * ref.abs()
        check_within(self, y, ref, bound, f"linear_gguf {type} {shape} n={n} {dtype}")

    def test_q4_k_and_q6_k(self):
        # m = 1 runs the GEMV, m > 1 the GEMM (kernels_used names them); n = 37 leaves a partial tile.
        for type in ("Q4_K", "Q6_K"):
            for shape, n in (((1, 512), 37), ((7, 256), 37), ((2, 3, 256), 8), ((1, 256), 1)):
                with self.subTest(type=type, shape=shape, n=n):
                    self.run_kquant(type, shape, n)
            with self.subTest(type=type, dtype="bf16"):
                self.run_kquant(type, (3, 256), 5, dtype=torch.bfloat16)
            with self.subTest(type=type, blocks="random bytes"):
                g = torch.Generator().manual_seed(5)
                self.run_kquant(type, (5, 512), 9, blocks=random_kquant_blocks(type, 9, 512, g))
                self.run_kquant(type, (1, 512), 9, blocks=random_kquant_blocks(type, 9, 512, g))

    def test_kquant_quantizers(self):
        # kai_torch's quantisers against the test's own dequantisation: close to the float weights.
        g = torch.Generator().manual_seed(9)
        w = torch.randn(6, 512, generator=g)
        for type, tol in (("Q4_K", 0.12), ("Q6_K", 0.03)):
            blocks = kai_torch.quantize_gguf(w, type)
            self.assertEqual(tuple(blocks.shape), (6, 2 * (144 if type == "Q4_K" else 210)))
            wd, _ = kquant_weights(blocks, type, 6, 512)
            self.assertTrue(torch.equal(wd.float(), kai_torch.dequantize_gguf(blocks, type, 6, 512)))
            e = rel_err(wd, w)
            self.assertLess(e, tol, type)
            self.assertGreater(e, 0.0, type)

    def test_quantizer_matches_ggml_rules(self):
        # Hand-checked blocks: Q4_0 of [-8 .. 7.5 step 0.5, ...]: the largest magnitude is -8, d = 1.
        w = torch.cat([torch.arange(-16, 16, dtype=torch.float32) * 0.5]).reshape(1, 32)
        b = kai_torch.quantize_gguf(w, "Q4_0")
        self.assertEqual(b.shape, (1, 18))
        self.assertEqual(b[0, :2].view(torch.float16).item(), 1.0)
        self.assertEqual(b[0, 2].item(), 0 | (8 << 4))  # q[0] = trunc(-8 + 8.5) = 0, q[16] = trunc(0 + 8.5) = 8


class Threads(unittest.TestCase):
    def test_thread_counts_agree_bitwise(self):
        k, n, m = 256, 52, 9
        g = torch.Generator().manual_seed(3)
        x = torch.randn(m, k, generator=g)
        w = torch.randn(n, k, generator=g)
        wq, s = kai_torch.int4_quantize(w, 64)
        p4 = torch.ops.kai.dyn_quant_pack_4bit_weight(wq, s, None, 64, k, n)
        pb = torch.ops.kai.pack_linear_bf16(w, None)
        pg = torch.ops.kai.pack_gguf(kai_torch.quantize_gguf(w, "Q4_0"), "Q4_0", n, k)
        pk = torch.ops.kai.pack_gguf(kai_torch.quantize_gguf(w, "Q4_K"), "Q4_K", n, k)
        saved = torch.get_num_threads()
        outs = []
        try:
            for t in (1, 2, 3):
                torch.set_num_threads(t)
                outs.append((torch.ops.kai.dyn_quant_matmul_4bit(x, p4, 64, k, n), torch.ops.kai.linear_bf16(x, pb),
                             torch.ops.kai.linear_gguf(x, pg, "Q4_0", n, k),
                             torch.ops.kai.linear_gguf(x, pk, "Q4_K", n, k)))
        finally:
            torch.set_num_threads(saved)
        for o in outs[1:]:
            for a, b in zip(outs[0], o):
                self.assertTrue(torch.equal(a, b))


class Errors(unittest.TestCase):
    """Every bad argument raises RuntimeError naming it (never a crash)."""

    def expect(self, fn, *words):
        with self.assertRaises(RuntimeError) as cm:
            fn()
        msg = str(cm.exception)
        for w in words:
            self.assertIn(w, msg)

    def test_dyn_quant(self):
        k, n = 64, 16
        wq, s = kai_torch.int4_quantize(torch.randn(n, k), 32)
        wc, sc = kai_torch.int4_quantize(torch.randn(n, k), None)
        pk, mm = torch.ops.kai.dyn_quant_pack_4bit_weight, torch.ops.kai.dyn_quant_matmul_4bit
        p = pk(wq, s, None, 32, k, n)
        x = torch.randn(3, k)
        self.expect(lambda: pk(wq.float(), s, None, 32, k, n), "weights", "Byte")
        self.expect(lambda: pk(wq[:, :5], s, None, 32, k, n), "weights", "ceil(in_features / 2)")
        self.expect(lambda: pk(wq, s.float(), None, 32, k, n), "scales_zeros", "BFloat16")
        self.expect(lambda: pk(wc, sc.bfloat16(), None, k, k, n), "scales_zeros", "Float")
        self.expect(lambda: pk(wq, s[:3], None, 32, k, n), "scales_zeros", "hold")
        self.expect(lambda: pk(wq, s, torch.randn(n + 1), 32, k, n), "bias")
        self.expect(lambda: pk(wq, s, torch.randn(n).double(), 32, k, n), "bias", "Float")
        self.expect(lambda: pk(wq, s, None, 48, k, n), "block_size")
        self.expect(lambda: pk(wq, s, None, 0, k, n), "block_size")
        self.expect(lambda: pk(wq, s, None, 128, k, n), "block_size")
        self.expect(lambda: pk(wq, s, None, 32, k, 0), "out_features")
        self.expect(lambda: pk(wq, s, None, 32, 0, n), "in_features")
        self.expect(lambda: pk(wq.to_sparse(), s, None, 32, k, n), "SparseCPU")  # the dispatcher's own error
        self.expect(lambda: mm(x.double(), p, 32, k, n), "input", "float32 or bfloat16")
        self.expect(lambda: mm(x[:, :10], p, 32, k, n), "input", "in_features")
        self.expect(lambda: mm(x.reshape(1, 3, k), p, 32, k, n), "input", "2-D")
        self.expect(lambda: mm(x, p.float(), 32, k, n), "packed_weights", "Byte")
        self.expect(lambda: mm(x, p[:-1], 32, k, n), "packed_weights", "bytes")
        self.expect(lambda: mm(x, p.reshape(2, -1).t(), 32, k, n), "packed_weights", "contiguous")
        self.expect(lambda: mm(x, p, 32, k, n - 8), "packed_weights", "bytes")
        self.expect(lambda: mm(x, p, 40, k, n), "block_size")

    def test_bf16(self):
        pk, lin = torch.ops.kai.pack_linear_bf16, torch.ops.kai.linear_bf16
        w = torch.randn(8, 16)
        p = pk(w, None)
        self.expect(lambda: pk(w.double(), None), "weight", "float32 or bfloat16")
        self.expect(lambda: pk(w[0], None), "weight", "2-D")
        self.expect(lambda: pk(w[:, :0], None), "weight", "empty")
        self.expect(lambda: pk(w, torch.randn(9)), "bias", "shape")
        self.expect(lambda: pk(w, torch.randn(8).int()), "bias", "dtype")
        self.expect(lambda: lin(torch.randn(2, 16).double(), p), "input", "float32 or bfloat16")
        self.expect(lambda: lin(torch.randn(2, 17), p), "in_features")
        self.expect(lambda: lin(torch.randn(2, 16), p.float()), "packed", "Byte")
        self.expect(lambda: lin(torch.randn(2, 16), p.reshape(-1)), "packed", "2-D")
        self.expect(lambda: lin(torch.randn(2, 16), p.t()), "packed")
        self.expect(lambda: lin(torch.randn(2, 16).to_sparse(), p), "SparseCPU")
        self.expect(lambda: lin(torch.randn(2, 16).to_mkldnn() if torch.backends.mkldnn.is_available()
                                else torch.randn(2, 16).to_sparse_csr(), p), "linear_bf16")

    def test_gguf(self):
        pk, lin = torch.ops.kai.pack_gguf, torch.ops.kai.linear_gguf
        n, k = 8, 64
        blocks = kai_torch.quantize_gguf(torch.randn(n, k), "Q4_0")
        p = pk(blocks, "Q4_0", n, k)
        x = torch.randn(2, k)
        self.expect(lambda: pk(blocks, "Q5_K", n, k), "type", "Q5_K")
        self.expect(lambda: pk(blocks.float(), "Q4_0", n, k), "blocks", "Byte")
        self.expect(lambda: pk(blocks[:, :5], "Q4_0", n, k), "blocks", "bytes")
        self.expect(lambda: pk(blocks, "Q4_0", n, 48), "k", "multiple of 32")
        self.expect(lambda: pk(blocks, "Q4_0", 0, k), "n")
        self.expect(lambda: lin(x, p, "Q8_0", n, k), "packed", "Q8_0")
        self.expect(lambda: lin(x, p, "Q4_0", n + 1, k), "packed", "does not hold")
        self.expect(lambda: lin(x[:, :32], p, "Q4_0", n, k), "input", "in_features")
        self.expect(lambda: lin(x.half(), p, "Q4_0", n, k), "input", "float32 or bfloat16")
        self.expect(lambda: lin(x, p[:10], "Q4_0", n, k), "packed")
        self.expect(lambda: lin(x, torch.zeros(100, dtype=torch.uint8), "Q4_0", n, k), "packed", "pack_gguf")

    def test_gguf_kquants(self):
        pk, lin = torch.ops.kai.pack_gguf, torch.ops.kai.linear_gguf
        n, k = 6, 512
        b4 = kai_torch.quantize_gguf(torch.randn(n, k), "Q4_K")
        b6 = kai_torch.quantize_gguf(torch.randn(n, k), "Q6_K")
        p4, p6 = pk(b4, "Q4_K", n, k), pk(b6, "Q6_K", n, k)
        x = torch.randn(2, k)
        for t, b, p, size in (("Q4_K", b4, p4, "144"), ("Q6_K", b6, p6, "210")):
            with self.subTest(type=t):
                self.expect(lambda: pk(b, t, n, 256), "blocks", size)
                self.expect(lambda: pk(b[:, :-1], t, n, k), "blocks", size)
                self.expect(lambda: pk(b.view(torch.int8), t, n, k), "blocks", "Byte")
                self.expect(lambda: pk(b, t, n, 384), "k", "multiple of 256")
                self.expect(lambda: pk(b, t, n, 0), "k", "multiple of 256")
                self.expect(lambda: pk(b, t, 0, k), "n", "positive")
                self.expect(lambda: lin(x, p, t, n, 288), "k", "multiple of 256")
                self.expect(lambda: lin(x, p, t, n + 4, k), "packed", "does not hold")
                self.expect(lambda: lin(x[:, :256], p, t, n, k), "input", "in_features")
                self.expect(lambda: lin(x.double(), p, t, n, k), "input", "float32 or bfloat16")
                self.expect(lambda: lin(x, p.float(), t, n, k), "packed", "Byte")
                self.expect(lambda: lin(x, p.reshape(2, -1).t(), t, n, k), "packed", "contiguous")
                self.expect(lambda: lin(x, p[:8], t, n, k), "packed")
        self.expect(lambda: lin(x, p4, "Q6_K", n, k), "packed", "Q6_K")
        self.expect(lambda: lin(x, p6, "Q4_K", n, k), "packed", "Q4_K")
        self.expect(lambda: lin(x, pk(kai_torch.quantize_gguf(torch.randn(n, k), "Q4_0"), "Q4_0", n, k), "Q4_K", n, k),
                    "packed", "Q4_K")
        # The Meta kernels give the real ops' shapes (torch.compile / torch.export trace with them).
        meta = pk(b4.to("meta"), "Q4_K", n, k)
        self.assertEqual(meta.shape, p4.shape)
        self.assertEqual(pk(b6.to("meta"), "Q6_K", n, k).shape, p6.shape)
        self.assertEqual(lin(torch.empty(3, 2, k, device="meta"), p4.to("meta"), "Q4_K", n, k).shape, (3, 2, n))
        self.expect(lambda: pk(b4.to("meta"), "Q4_K", n, 100), "k", "multiple of 256")

    def test_kernels_used(self):
        self.expect(lambda: torch.ops.kai.kernels_used("nope", 1, 0, 0), "op")
        self.assertTrue(kai_torch.kernels_used("linear_bf16", 4).startswith("kai_matmul_clamp_f32_bf16p"))


# ---- models ---------------------------------------------------------------------------------------------

def mlp():
    torch.manual_seed(1)
    return torch.nn.Sequential(torch.nn.Linear(128, 256), torch.nn.GELU(), torch.nn.Linear(256, 64)).eval()


def encoder():
    torch.manual_seed(2)
    # batch_first=False: PyTorch's fused encoder fast path (batch_first=True in eval) reads linear1.weight
    # directly and bypasses the modules (docs/pytorch.md, "Limits").
    layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.0)
    return torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).eval()


def rel_err(y, ref):
    return ((y.double() - ref.double()).norm() / ref.double().norm()).item()


# Relative L2 error of the quantised model's output against the float model, per config: the
# documented bounds (docs/pytorch.md, "Numerics"): bf16 fast math 1 %, int4 (group 32) and Q4_0 15 %,
# int4 channel-wise 20 %, Q8_0 2 %.
CONFIGS = [
    ("bf16", kai_torch.Bf16FastMathConfig(), 0.01),
    ("int4 g32", kai_torch.Int4DynamicConfig(group_size=32), 0.15),
    ("int4 channel-wise", kai_torch.Int4DynamicConfig(group_size=None), 0.20),
    ("Q4_0", kai_torch.GgufConfig("Q4_0"), 0.15),
    ("Q8_0", kai_torch.GgufConfig("Q8_0"), 0.02),
]


class Models(unittest.TestCase):
    def test_mlp_and_encoder_eager(self):
        for make, x in ((mlp, torch.randn(6, 128)), (encoder, torch.randn(5, 3, 64))):
            ref_model = make()
            with torch.no_grad():
                ref = ref_model(x)
            for name, cfg, bound in CONFIGS:
                with self.subTest(model=make.__name__, config=name):
                    model = kai_torch.quantize_(make(), cfg)
                    kinds = {type(m).__name__ for m in model.modules()}
                    self.assertTrue(kinds & {"KaiInt4Linear", "KaiBf16Linear", "KaiGgufLinear"})
                    self.assertNotIn("Linear", kinds)
                    with torch.no_grad():
                        y = model(x)
                    e = rel_err(y, ref)
                    print(f"  {make.__name__:8s} {name:18s} relative error {e:.4f} (bound {bound})")
                    self.assertLess(e, bound)

    def test_compile_and_export(self):
        x = torch.randn(4, 128)
        for name, cfg, _ in CONFIGS:
            with self.subTest(config=name):
                torch._dynamo.reset()  # a fresh model per config: start from an empty compile cache
                model = kai_torch.quantize_(mlp(), cfg)
                with torch.no_grad():
                    eager = model(x)
                    # The sysroot has no C++ compiler for Inductor's generated code: aot_eager traces the
                    # model through Dynamo and AOTAutograd with the ops' Meta kernels and runs the graph.
                    compiled = torch.compile(model, backend="aot_eager", fullgraph=True)(x)
                self.assertTrue(torch.equal(eager, compiled))
                ep = torch.export.export(model, (x,))
                targets = {str(n.target) for n in ep.graph.nodes if n.op == "call_function"}
                self.assertTrue(any(t.startswith("kai.") for t in targets), targets)
                with torch.no_grad():
                    self.assertTrue(torch.equal(ep.module()(x), eager))

    def test_unsupported_layers(self):
        model = torch.nn.Sequential(torch.nn.Linear(64, 8), torch.nn.ReLU(), torch.nn.Linear(8, 4))
        with self.assertRaises(kai_torch.KaiUnsupportedLayer) as cm:
            kai_torch.quantize_(model, kai_torch.Int4DynamicConfig(group_size=32))
        self.assertIn("'2'", str(cm.exception))
        self.assertIs(type(model[0]), torch.nn.Linear)  # nothing was changed
        kai_torch.quantize_(model, kai_torch.Int4DynamicConfig(group_size=32), skip_unsupported=True)
        self.assertIs(type(model[0]), kai_torch.KaiInt4Linear)
        self.assertIs(type(model[2]), torch.nn.Linear)
        with self.assertRaises(kai_torch.KaiUnsupportedLayer):
            kai_torch.quantize_(torch.nn.Sequential(torch.nn.Linear(40, 8)), kai_torch.GgufConfig("Q4_0"))
        with self.assertRaises(kai_torch.KaiUnsupportedLayer) as cm:
            kai_torch.quantize_(torch.nn.Sequential(torch.nn.Linear(256, 8), torch.nn.Linear(8, 4)),
                                kai_torch.GgufConfig("Q4_K"))
        self.assertIn("multiple of 256", str(cm.exception))
        with self.assertRaises(kai_torch.KaiUnsupportedLayer):
            kai_torch.quantize_(torch.nn.Sequential(torch.nn.Linear(256, 8)), kai_torch.GgufConfig("Q5_K"))
        with self.assertRaises(kai_torch.KaiUnsupportedLayer):
            kai_torch.quantize_(torch.nn.Sequential(torch.nn.Linear(64, 8).double()), kai_torch.Bf16FastMathConfig())
        with self.assertRaises(TypeError):
            kai_torch.quantize_(model, "int4")

    def test_q4_k_m_model(self):
        # A Q4_K_M-style model: Q4_K layers and one Q6_K layer (GgufConfig.types), from GGUF bytes and
        # from float weights, against the float model; relative bound 10 % (measured 0.067).
        torch.manual_seed(4)
        model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(), torch.nn.Linear(512, 256)).eval()
        x = torch.randn(5, 256)
        with torch.no_grad():
            ref = model(x)
        cfg = kai_torch.GgufConfig("Q4_K", types={"2": "Q6_K"})
        tensors = {"0": kai_torch.quantize_gguf(model[0].weight, "Q4_K"),
                   "2": kai_torch.quantize_gguf(model[2].weight, "Q6_K")}
        q = kai_torch.quantize_(copy.deepcopy(model), cfg)
        loaded = kai_torch.quantize_(copy.deepcopy(model), kai_torch.GgufConfig("Q4_K", tensors, {"2": "Q6_K"}))
        self.assertEqual((q[0].type, q[2].type), ("Q4_K", "Q6_K"))
        with torch.no_grad():
            y = q(x)
            self.assertTrue(torch.equal(y, loaded(x)))
            self.assertTrue(torch.equal(q(x[:1]), loaded(x[:1])))  # the GEMV path
        e = rel_err(y, ref)
        print(f"  Q4_K_M mlp relative error {e:.4f} (bound 0.10)")
        self.assertLess(e, 0.10)

    def test_gguf_tensors_load_without_dequantizing(self):
        model = mlp()
        tensors = {name: kai_torch.quantize_gguf(m.weight, "Q4_0") for name, m in model.named_modules()
                   if isinstance(m, torch.nn.Linear)}
        ref = kai_torch.quantize_(mlp(), kai_torch.GgufConfig("Q4_0"))
        got = kai_torch.quantize_(model, kai_torch.GgufConfig("Q4_0", tensors))
        x = torch.randn(3, 128)
        with torch.no_grad():
            self.assertTrue(torch.equal(ref(x), got(x)))


if __name__ == "__main__":
    t0 = time.time()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; int4 kernels: "
          f"{kai_torch.kernels_used('dyn_quant_matmul_4bit', 1, 32, 256)} / "
          f"{kai_torch.kernels_used('dyn_quant_matmul_4bit', 8, 32, 256)}; bf16: "
          f"{kai_torch.kernels_used('linear_bf16', 1)} / {kai_torch.kernels_used('linear_bf16', 8)}; Q4_0: "
          f"{kai_torch.kernels_used('linear_gguf_q4_0', 8)}; Q8_0: {kai_torch.kernels_used('linear_gguf_q8_0', 8)}; "
          f"Q4_K: {kai_torch.kernels_used('linear_gguf_q4_k', 1)} / {kai_torch.kernels_used('linear_gguf_q4_k', 8)}; "
          f"Q6_K: {kai_torch.kernels_used('linear_gguf_q6_k', 1)} / {kai_torch.kernels_used('linear_gguf_q6_k', 8)}")
    if PERTURB:
        print(f"PERTURBING the output of torch.ops.kai.{sorted(PERTURB)}: their tests must fail")
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    # A test with failing subtests counts once.
    failed = len({getattr(t, "test_case", t).id() for t, _ in result.failures + result.errors})
    print(f"{result.testsRun - failed} passed, {failed} failed  ({time.time() - t0:.0f} s)")
    sys.exit(0 if result.wasSuccessful() else 1)
