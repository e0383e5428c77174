#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Measures the rows of a targets file (tools/perf/targets/*.json) and says whether every bound holds.

    python3 tools/perf/kai_targets.py [--tag TAG] tools/perf/targets/int4cx.json [...]

A targets file is a JSON list of rows. Each row names what it measures and the shape [M, N, K(, BL)]:
  "variants": "FAMILY:GLOB"   every NEON kernel of the family whose name, less kai_matmul_clamp_<dst>_,
                              matches GLOB (FAMILY is a key of FAMILIES in tools/perf_report.py); the
                              row holds when at least one of them meets all its bounds
  "case": NAME, "run": "kai_run_<kernel>"   one kernel under a name of its own
  "packer": "kai_run_<packer>"              one packer alone; "consumer" names the kernel whose
                              mr/nr, kr and sr it is called with (default: its first NEON consumer)
  "lhs" / "rhs": "kai_run_<packer>"         (kernel rows) the packers to run (default: the first that
                              kai/kernels.bzl's KAI_PACKER_FEEDS lists)
and its bounds: "max_ipm" (instructions per MAC of the kernel call), "min_peak" / "min_call_peak"
(hot loop / whole call as a fraction of the modelled MMLA/DOT peak, one per CPU model),
"max_lhs_ipe" / "max_rhs_ipw" (the packers' instructions per element / weight), and optionally
"cpus" (the llvm-mca models the peak bounds are for; default Neoverse N2, V1, V2). Other keys
("tag", "note", "ref_*": the reference library's figures on the same tools) are carried, not checked.
Percent figures are compared with their bounds in whole percents, as they are printed (the model's
rounding); instruction ratios as measured.
It prints one line per measured kernel or packer, then one line per row that falls short and a
verdict; the exit status is 0 when every row holds.
"""
import fnmatch
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import kai_list  # noqa: E402
import kai_perf  # noqa: E402

_memo = {}


def measure(kernel, shape, lhs=None, rhs=None, cpus=kai_perf.CPUS):
    """kai_perf.measure, each (kernel, shape, packers, models) once per process."""
    key = (kernel, tuple(shape), lhs, rhs, tuple(cpus))
    if key not in _memo:
        _memo[key] = kai_perf.measure(kernel, shape, lhs, rhs, cpus=cpus)
    return _memo[key]


def _packer_name(run_name):
    return "kai_" + run_name[len("kai_run_"):] if run_name and run_name.startswith("kai_run_") else run_name


def expand(row, family_dirs):
    """(label, kernel name) of every kernel a row measures."""
    if "run" in row:
        return [(row.get("case", row["run"]), "kai_" + row["run"][len("kai_run_"):])]
    fam, glob = row["variants"].split(":", 1)
    d = family_dirs[fam]
    out = []
    for e in kai_list.load().kernels():
        if not e["dir"].endswith(d) or "_neon" not in e["name"]:
            continue
        stem = e["name"][len("kai_matmul_clamp_"):].split("_", 1)[1]
        if fnmatch.fnmatchcase(stem, glob):
            out.append(("%s:%s" % (fam, stem), e["name"]))
    return sorted(out)


def check(path, family_dirs, log=None, tag=None):
    """Measures every row of targets file `path` (with `tag`, only the rows carrying it); returns
    (report text, number of misses)."""
    rows = [r for r in json.load(open(path)) if tag is None or r.get("tag") == tag]
    lines, misses = [], []
    measured = []  # (label, shape, ipm, peak, call, extras)
    for row in rows:
        try:
            shape = row["shape"]
            cpus = row.get("cpus", kai_perf.CPUS)
            failures_by_variant = []
            if "packer" in row:
                r = kai_perf.measure_packer(row["packer"], shape, row.get("tile"), row.get("consumer"))
                unit = "lhs %.2f/el" % r["per"] if r["unit"] == "element" else "rhs %.2f/w" % r["per"]
                measured.append(("pack:" + row["packer"], shape, None, None, None, " " + unit, cpus))
                bound = row.get("max_lhs_ipe", row.get("max_rhs_ipw"))
                fails = [] if bound is None or r["per"] <= bound else ["%s %s > %.2f" % (row["packer"], unit, bound)]
                failures_by_variant.append(fails)
                label = "pack:" + row["packer"]
            else:
                variants = expand(row, family_dirs)
                label = row.get("case") or row["variants"]
                if not variants:
                    misses.append("no kernel matches %s" % label)
                    continue
                for vlabel, kernel in variants:
                    if log:
                        log("  %s %s" % (vlabel, "x".join(map(str, shape))))
                    r = measure(kernel, shape, _packer_name(row.get("lhs")), _packer_name(row.get("rhs")), cpus)
                    extras = ""
                    fails = []
                    if "max_ipm" in row and r["ipm"] > row["max_ipm"]:
                        fails.append("%s ipm %.4f > %.4f" % (vlabel, r["ipm"], row["max_ipm"]))
                    for key, what, fig in (("min_peak", "peak", r.get("loop")), ("min_call_peak", "call peak", r.get("call"))):
                        for cpu, b in zip(cpus, row.get(key, [])):
                            v = (fig or {}).get(cpu, 0.0)
                            if round(v) < round(100.0 * b):  # whole percents, as printed
                                fails.append("%s %s %s %.0f%% < %.0f%%" % (vlabel, cpu, what, v, 100.0 * b))
                    if "max_lhs_ipe" in row:
                        extras += " lhs %.2f/el" % r["lhs_ipe"]
                        if r["lhs_ipe"] > row["max_lhs_ipe"]:
                            fails.append("%s lhs %.2f/el > %.2f" % (vlabel, r["lhs_ipe"], row["max_lhs_ipe"]))
                    if "max_rhs_ipw" in row:
                        extras += " rhs %.2f/w" % r["rhs_ipw"]
                        if r["rhs_ipw"] > row["max_rhs_ipw"]:
                            fails.append("%s rhs %.2f/w > %.2f" % (vlabel, r["rhs_ipw"], row["max_rhs_ipw"]))
                    measured.append((vlabel, shape, r["ipm"], r.get("loop") if "min_peak" in row else None, r.get("call"), extras, cpus))
                    failures_by_variant.append(fails)
            if failures_by_variant and all(failures_by_variant):
                misses.append("no variant of %s meets its bounds: %s" % (label, "; ".join(f for fs in failures_by_variant for f in fs)))
        except RuntimeError as e:  # a row that cannot be built or run is a miss, not the end of the report
            misses.append("%s %s could not be measured: %s" % (
                row.get("case") or row.get("variants") or row.get("packer"), row["shape"], str(e).splitlines()[0]))
    width = max([len(kai_perf.fmt3(p, c)) for _, _, _, p, _, _, c in measured if p] + [1])
    for label, shape, ipm, peak, call, extras, cpus in measured:
        lines.append("%-52s %-18s ipm %-7s %%peak %-*s call %s%s" % (
            label, "x".join(map(str, shape)), "%.4f" % ipm if ipm is not None else "-", width,
            kai_perf.fmt3(peak, cpus) if peak else "-", kai_perf.fmt3(call, cpus) if call else "-", extras))
    for m in misses:
        lines.append("miss: " + m)
    if misses:
        lines.append("FALLS SHORT: %d miss(es); first: %s" % (len(misses), misses[0]))
    else:
        lines.append("all %d cases within bounds" % len(measured))
    return "\n".join(lines), len(misses)


def family_dirs():
    """Targets' family prefixes and the kernel directory each names (tools/perf_report.py's FAMILIES)."""
    import perf_report
    return {k: v["dir"] for k, v in perf_report.FAMILIES.items()}


def main():
    args, tag = sys.argv[1:], None
    if len(args) >= 2 and args[0] == "--tag":
        tag, args = args[1], args[2:]
    if not args:
        print(__doc__)
        return 2
    total = 0
    for path in args:
        text, misses = check(path, family_dirs(), log=lambda s: print(s, file=sys.stderr, flush=True), tag=tag)
        print("### %s\n%s" % (os.path.basename(path), text))
        total += misses
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
