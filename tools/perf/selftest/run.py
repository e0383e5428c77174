#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Self-test of tools/perf: the plugin's counts and the models on loops whose counts are known.

    python3 tools/perf/selftest/run.py

Builds loops.S and main.c statically, runs them under qemu with the plugin and checks, for each
call region, the class counts against the hand-computed ones below, then checks the loop finder
(the hot loop's address range) and the model (24 independent SMMLA a loop run at the modelled
SMMLA peak); then, on three kernels and their packers at small shapes, that the plugin's class
counts (from the encodings) equal those of every executed instruction classed by its mnemonic
and operands in llvm-objdump's disassembly. Under a minute; needs what tools/perf/kai_perf.py needs. Prints 'N passed, M failed'.
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import kai_perf  # noqa: E402

# Per iteration and once per call, by class, read off the comments of loops.S.
MIX_ITER = {"i8mmla": 3, "bfmmla": 1, "dot": 6, "simd": 3, "vld": 4, "vst": 3, "ld": 4, "st": 2, "other": 4, "branch": 3}
MIX_ONCE = {"ld": 1, "st": 1, "other": 1, "branch": 1}
PEAK_ITER = {"i8mmla": 24, "other": 1, "branch": 1}
PEAK_ONCE = {"branch": 1}


def expected(per_iter, once, iterations, calls):
    return {c: per_iter.get(c, 0) * iterations + once.get(c, 0) * calls for c in kai_perf.CLASSES}


def main():
    passed, failed = [], []

    def check(name, ok, detail=""):
        (passed if ok else failed).append(name)
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail and not ok else ""))

    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "selftest")
        kai_perf.sh([kai_perf.CC, "-O1", "-static", "-o", exe, os.path.join(HERE, "main.c"), os.path.join(HERE, "loops.S")])
        regions = kai_perf.profile(exe, [], ["selftest_mix", "selftest_peak"], os.path.join(d, "prof.json"))
        syms = {name: addr for addr, _, name in kai_perf.symbols(exe)}
        mix, peak = regions["selftest_mix"], regions["selftest_peak"]
        for name, g, want, calls in (("mix", mix, expected(MIX_ITER, MIX_ONCE, 15, 2), 2),
                                     ("peak", peak, expected(PEAK_ITER, PEAK_ONCE, 100, 1), 1)):
            check("%s calls" % name, g["calls"] == calls, "%d != %d" % (g["calls"], calls))
            check("%s classes" % name, g["classes"] == want, "%s != %s" % (g["classes"], want))
            check("%s total" % name, g["total"] == sum(want.values()), "%d" % g["total"])
            check("%s blocks add up" % name, sum(n * e for _, n, e in g["blocks"]) == g["total"])
        # The SME2 path (qemu's execution log, classes from the disassembly) on the same calls.
        if os.path.exists(kai_perf.SME_QEMU):
            traced = kai_perf.trace_profile(exe, [], ["selftest_mix", "selftest_peak"])
            for name, g in (("selftest_mix", mix), ("selftest_peak", peak)):
                t = traced[name]
                check("%s traced = plugin" % name, (t["calls"], t["total"], t["classes"]) == (g["calls"], g["total"], g["classes"]),
                      "%s != %s" % ((t["calls"], t["total"], t["classes"]), (g["calls"], g["total"], g["classes"])))
            check("peak traced MAC instructions", traced["selftest_peak"]["mac_insns"] == 2400, str(traced["selftest_peak"]["mac_insns"]))
        else:
            print("skip the SME2 trace checks: no %s" % kai_perf.SME_QEMU)
        mca = kai_perf.Mca()
        try:
            code = kai_perf.Code(exe)
            fm = kai_perf.Call(code, mix).figures(mca, kai_perf.CPUS)
            fp = kai_perf.Call(code, peak).figures(mca, kai_perf.CPUS)
        finally:
            mca.save()
        m0, p0 = syms["selftest_mix"], syms["selftest_peak"]
        check("mix hot loop range", fm.get("loop_range") == "0x%x:0x%x" % (m0 + 8, m0 + 8 + 31 * 4), fm.get("loop_range"))
        check("peak hot loop range", fp.get("loop_range") == "0x%x:0x%x" % (p0, p0 + 26 * 4), fp.get("loop_range"))
        check("peak kinds", fp["kinds"] == ["smmla"], str(fp["kinds"]))
        for cpu in kai_perf.CPUS:
            check("peak loop at the SMMLA peak on %s" % cpu, 97.0 <= fp["loop"][cpu] <= 100.5, "%.1f" % fp["loop"][cpu])
            check("peak call near the peak on %s" % cpu, 96.0 <= fp["call"][cpu] <= fp["loop"][cpu] + 0.5, "%.1f" % fp["call"][cpu])
            check("mix modelled on %s" % cpu, 0.0 < fm["call"][cpu] <= 100.0 and 0.0 < fm["loop"][cpu] <= 100.0,
                  "%s %s" % (fm["call"][cpu], fm["loop"][cpu]))
    # Real compiler output: a kernel and its packers at a small shape, every executed instruction's
    # class from its disassembly (kai_perf.mnemonic_class, which the SME2 path uses) against the
    # plugin's counts from the encodings, class by class: two independent classifiers agree.
    for kernel, shape in (("f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", [16, 64, 128]),
                          ("f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla", [16, 24, 40]),
                          ("f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod", [1, 64, 256, 32])):
        lst = kai_perf.kai_list.load()
        k = lst.entry("kai_matmul_clamp_" + kernel)
        lhs, rhs = kai_perf.choose_packers(lst, k)
        exe = kai_perf.build_driver(k, lhs, rhs)
        funcs = ["kai_run_" + e["name"][4:] for e in (k, lhs, rhs)]
        with tempfile.TemporaryDirectory() as d:
            regions = kai_perf.profile(exe, shape[:3] + [shape[3] if len(shape) > 3 else 32], funcs, os.path.join(d, "p.json"))
        code = kai_perf.Code(exe)
        for f in funcs:
            want = dict.fromkeys(kai_perf.CLASSES, 0)
            for addr, n, e in regions[f]["blocks"]:
                for i in range(n):
                    want[kai_perf.mnemonic_class(*code.insn(addr + 4 * i))] += e
            check("%s: classes by encoding = by mnemonic" % f, regions[f]["classes"] == want,
                  "%s != %s" % (regions[f]["classes"], want))
    print("%d passed, %d failed" % (len(passed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
