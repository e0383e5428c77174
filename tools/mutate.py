#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kai's mutation check: are the tests strong enough to see a realistic one-line bug?

Each mutant of tools/mutants.json changes one line of a kernel or packer source (or of a
tools/templates/*.c.in template, then re-renders it with tools/gen_kernels.py) the way real bugs
look: a bound off by one, a clamp with its order or one side changed, the wrong rounding mode, a
dropped bias or tail, a wrong stride, a wrong offset divisor, a wrong zero point or scale. For each
mutant the script builds only its family's test target, runs the test binary under the emulator
(tools/toolchain/qemu_run.sh) with KAI_TEST_REDUCED=1 and the mutant's gtest filter, and expects it
to FAIL ("killed"). A mutant that passes ("SURVIVED") is a test gap, unless the table records why
it is equivalent (then it is not built or run, only reported).

The table (tools/mutants.json) is a list of objects:
  id          unique name, <family>-<what>
  family      a family of kai/kernels.bzl (--family selects by it)
  file        the source that is mutated (a kernel or packer .c, or a template .c.in)
  find        an exact fragment of one line of that file; it must occur exactly once, else the
              script fails (the table cannot go stale silently)
  occurrence  optional: the fragment occurs several times; mutate the n-th (1-based), which must exist
  replace     what the fragment becomes
  kind        bounds | clamp | rounding | bias | tail | stride | offset | zero_point | scale |
              buffer (a stack buffer's fit test off by its per-block extra bytes) | flush (a narrow
              accumulator flushed too late) | threshold (an internal limit off by one step); the last
              three are killed by the limit cases of test/common/limits.cc
  test        the Bazel test target (default: the family's suite in KAI_FAMILIES)
  filter      gtest filter (default: every test but the death tests, which are slow under qemu)
  equivalent  optional: why the mutant cannot change any result (it is then listed, not run)
  config      optional: a .bazelrc configuration to build and run the mutant with ("asan": a stack
              buffer overflowed by a few bytes corrupts nothing the results show; CI's ASan stage runs
              the same reduced sweeps, limit cases included, and reports it)

Every exit path restores the mutated file (try/finally, and SIGTERM/SIGINT are turned into an
exception); templates are restored and re-rendered. The script refuses to run when a file it
would mutate (or, for a template, anything under kai/) has uncommitted changes.

Usage (from the repository root):
  python3 tools/mutate.py --check               every fragment found once, every family covered (CI)
  python3 tools/mutate.py --list                the table, one line per mutant
  python3 tools/mutate.py --dry-run [--family F] what would be run, without building
  python3 tools/mutate.py [--family F ...] [--id ID ...] [--jobs 1]
Exit status: 0 when every non-equivalent mutant is killed; 1 otherwise (or on any error).
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tools", "mutants.json")
QEMU_RUN = os.path.join(ROOT, "tools", "toolchain", "qemu_run.sh")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kai_list  # noqa: E402

# The suite of each family (its "suite" in KAI_FAMILIES of kai/kernels.bzl), and the suites that
# run under the SME2 emulator (the families with "sme2": "1").
_LIST = kai_list.load(ROOT)
FAMILY_TESTS = {f["family"]: f["suite"] for f in _LIST.families}


def _build_sme2_tests():
    """The test targets of test/tests/BUILD.bazel that declare env KAI_NEEDS_SME2 (suites outside KAI_FAMILIES'
    "suite" column, such as a family's separate SME2 suite), which qemu_run.sh runs under the SME2 emulator."""
    text = open(os.path.join(ROOT, "test", "tests", "BUILD.bazel")).read()
    return {"//test/tests:" + m.group(1) for m in re.finditer(r'cc_test\(\s*name = "([^"]+)"(.*?)\n\)', text, re.S)
            if '"KAI_NEEDS_SME2": "1"' in m.group(2)}


SME2_TESTS = set(_LIST.sme2_suites()) | _build_sme2_tests()
DEFAULT_FILTER = "-*Death*:*Precondition*:*BadParameters*"
KINDS = {"bounds", "clamp", "rounding", "bias", "tail", "stride", "offset", "zero_point", "scale", "buffer", "flush",
         "threshold"}
KEYS = {"id", "family", "file", "find", "occurrence", "replace", "kind", "test", "filter", "equivalent", "config"}
# Bazel configurations a mutant may be built and run with ("config"), and the environment their tests need
# (.bazelrc's test:<config> lines, which a binary run outside `bazel test` does not get).
CONFIGS = {"asan": {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1", "UBSAN_OPTIONS": "print_stacktrace=1"}}
TEST_TIMEOUT = 900
# Restoring a file after its mutant makes Bazel rebuild the original; the disk cache makes that a hit.
DISK_CACHE = os.path.join(os.path.expanduser("~"), ".cache", "kai-mutate")


class Interrupted(Exception):
    pass


def _on_signal(signum, frame):
    raise Interrupted("signal %d" % signum)


def kernel_families():
    return sorted({e["family"] for e in _LIST.entries})


def load_table():
    with open(TABLE) as f:
        table = json.load(f)
    errors = []
    ids = set()
    for m in table:
        where = m.get("id", "?")
        before = len(errors)
        for key in ("id", "family", "file", "find", "replace", "kind"):
            if key not in m:
                errors.append("%s: no %r" % (where, key))
        for key in m:
            if key not in KEYS:
                errors.append("%s: unknown key %r" % (where, key))
        if len(errors) > before:
            continue
        if m["id"] in ids:
            errors.append("%s: duplicate id" % where)
        ids.add(m["id"])
        if m["kind"] not in KINDS:
            errors.append("%s: kind %r not one of %s" % (where, m["kind"], sorted(KINDS)))
        if "config" in m and m["config"] not in CONFIGS:
            errors.append("%s: config %r not one of %s" % (where, m["config"], sorted(CONFIGS)))
        if m["family"] not in FAMILY_TESTS:
            errors.append("%s: family %r is not a family of KAI_FAMILIES" % (where, m["family"]))
        if m["find"] == m["replace"]:
            errors.append("%s: replace equals find" % where)
        if "\n" in m["find"] or "\n" in m["replace"]:
            errors.append("%s: a mutant changes one line (no newline in find/replace)" % where)
        path = os.path.join(ROOT, m["file"])
        if not os.path.isfile(path):
            errors.append("%s: %s does not exist" % (where, m["file"]))
            continue
        count = open(path).read().count(m["find"])
        nth = m.get("occurrence")
        if nth is None and count != 1:
            errors.append("%s: fragment %r occurs %d times in %s (must be exactly once, or give occurrence)"
                          % (where, m["find"], count, m["file"]))
        elif nth is not None and not 1 <= nth <= count:
            errors.append("%s: occurrence %d of fragment %r asked, %s has %d"
                          % (where, nth, m["find"], m["file"], count))
    return table, errors


def test_of(m):
    return m.get("test", FAMILY_TESTS[m["family"]])


def is_template(m):
    return m["file"].startswith("tools/templates/")


def dirty(paths):
    out = subprocess.run(["git", "status", "--porcelain", "--"] + paths, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return out.strip()


def regenerate():
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_kernels.py")], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)


def kernel_filter(m):
    """gtest filter of the tests named after the mutated kernel (the suites name parameterized
    tests by the kernel's name without kai_matmul_clamp_<dst>_), or None for packers/templates."""
    base = os.path.basename(m["file"])
    mt = re.match(r"kai_matmul_clamp_[a-z0-9]+_(.+)\.c$", base)
    return "*%s*" % mt.group(1) if mt else None


def binary_of(target):
    pkg, name = target[2:].split(":")
    return os.path.join(ROOT, "bazel-bin", pkg, name)


def mutate_text(text, m):
    """text with occurrence m["occurrence"] (default: the only one) of m["find"] replaced."""
    at = -1
    for _ in range(m.get("occurrence", 1)):
        at = text.index(m["find"], at + 1)
    return text[:at] + m["replace"] + text[at + len(m["find"]):]


def run_mutant(m, verbose):
    """Returns (status, seconds, detail): status killed | SURVIVED | ERROR."""
    path = os.path.join(ROOT, m["file"])
    target = test_of(m)
    start = time.time()
    original = open(path).read()
    mutated = mutate_text(original, m)
    detail = ""
    try:
        with open(path, "w") as f:
            f.write(mutated)
        if is_template(m):
            regenerate()
        config = ["--config=" + m["config"]] if "config" in m else []
        build = subprocess.run(["bazel", "build", "--jobs=2", "--disk_cache=" + DISK_CACHE] + config + [target], cwd=ROOT,
                               capture_output=True, text=True)
        if build.returncode != 0:
            tail = "\n".join((build.stderr or "").splitlines()[-15:])
            return "ERROR", time.time() - start, "the mutant does not build:\n" + tail
        env = dict(os.environ)
        env["KAI_TEST_REDUCED"] = "1"
        env.update(CONFIGS.get(m.get("config"), {}))
        if target in SME2_TESTS:
            env["KAI_NEEDS_SME2"] = "1"
        # First the tests named after the mutated kernel (fast), then, if they all pass, the
        # mutant's (or the default) filter over the whole suite before it is called a survivor.
        filters = [m["filter"]] if "filter" in m else [f for f in (kernel_filter(m), DEFAULT_FILTER) if f]
        failed = False
        for flt in filters:
            cmd = [QEMU_RUN, binary_of(target), "--gtest_filter=" + flt, "--gtest_brief=1", "--gtest_fail_fast"]
            try:
                run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                                     timeout=TEST_TIMEOUT)
            except subprocess.TimeoutExpired:
                failed, detail = True, "timeout (%d s)" % TEST_TIMEOUT
                break
            if run.returncode != 0:
                lines = [l for l in (run.stdout + run.stderr).splitlines() if "FAILED" in l or "Failure" in l]
                if not lines:  # a crash or a failed assertion: its last words say which
                    lines = [l for l in (run.stdout + run.stderr).splitlines() if l.strip() and "qemu:" not in l][-1:]
                failed, detail = True, "; ".join(lines[:2])
                break
            if "[  PASSED  ] 0 tests" in run.stdout and flt == filters[-1] and "filter" in m:
                return "ERROR", time.time() - start, "the filter selects no test"
        return ("killed" if failed else "SURVIVED"), time.time() - start, detail
    finally:
        with open(path, "w") as f:
            f.write(original)
        if is_template(m):
            regenerate()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", action="append", help="only this family (repeatable)")
    ap.add_argument("--id", action="append", help="only this mutant (repeatable)")
    ap.add_argument("--list", action="store_true", help="print the table and exit")
    ap.add_argument("--dry-run", action="store_true", help="say what would run, build nothing")
    ap.add_argument("--check", action="store_true",
                    help="verify the table (fragments found once, every family covered) and exit")
    ap.add_argument("--jobs", type=int, default=1,
                    help="mutants at once; only 1 (mutants share the source tree)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.jobs != 1:
        ap.error("--jobs: mutants share one source tree and one Bazel output tree; only 1 is supported")

    table, errors = load_table()
    missing = [f for f in kernel_families() if f not in {m["family"] for m in table}]
    for f in missing:
        errors.append("family %s of kai/kernels.bzl has no mutant" % f)
    errors += _LIST.check()
    if errors:
        for e in errors:
            print("mutate.py: " + e, file=sys.stderr)
        return 1
    if args.check:
        print("mutate.py --check: %d mutants, %d families, every fragment found once"
              % (len(table), len({m["family"] for m in table})))
        return 0

    selected = [m for m in table
                if (not args.family or m["family"] in args.family) and (not args.id or m["id"] in args.id)]
    if args.family:
        for f in args.family:
            if f not in {m["family"] for m in table}:
                print("mutate.py: no mutant of family %s" % f, file=sys.stderr)
                return 1
    if args.list or args.dry_run:
        for m in selected:
            what = "equivalent: " + m["equivalent"] if "equivalent" in m else \
                "%s --gtest_filter=%s" % (test_of(m), m.get("filter", DEFAULT_FILTER))
            print("%-40s %-10s %s\n    %r\n -> %r\n    [%s]" % (m["id"], m["kind"], m["file"], m["find"],
                                                                m["replace"], what))
        return 0

    paths = sorted({m["file"] for m in selected if "equivalent" not in m})
    if any(p.startswith("tools/templates/") for p in paths):
        paths.append("kai")
    d = dirty(paths)
    if d:
        print("mutate.py: uncommitted changes in files it would mutate; commit or stash first:\n" + d,
              file=sys.stderr)
        return 1

    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    counts = {}
    bad = 0
    t0 = time.time()
    try:
        for m in selected:
            c = counts.setdefault(m["family"], {"applied": 0, "killed": 0, "equivalent": 0, "survived": 0, "error": 0})
            if "equivalent" in m:
                c["equivalent"] += 1
                print("%-40s equivalent   -      (%s)" % (m["id"], m["equivalent"]), flush=True)
                continue
            status, secs, detail = run_mutant(m, args.verbose)
            c["applied"] += 1
            c[{"killed": "killed", "SURVIVED": "survived", "ERROR": "error"}[status]] += 1
            if status != "killed":
                bad += 1
            note = (" " + detail) if (detail and (status != "killed" or args.verbose)) else ""
            print("%-40s %-8s %6.0f s  %s%s" % (m["id"], status, secs, m["kind"], note), flush=True)
    except Interrupted as e:
        print("mutate.py: interrupted (%s); the source is restored" % e, file=sys.stderr)
        return 1
    finally:
        left = dirty(paths)
        if left:
            print("mutate.py: WARNING: the tree is not clean after restoring:\n" + left, file=sys.stderr)
    print("")
    print("%-14s %8s %7s %11s %9s %6s" % ("family", "applied", "killed", "equivalent", "survived", "error"))
    tot = {"applied": 0, "killed": 0, "equivalent": 0, "survived": 0, "error": 0}
    for fam in sorted(counts):
        c = counts[fam]
        for k in tot:
            tot[k] += c[k]
        print("%-14s %8d %7d %11d %9d %6d" % (fam, c["applied"], c["killed"], c["equivalent"], c["survived"], c["error"]))
    print("%-14s %8d %7d %11d %9d %6d" % ("total", tot["applied"], tot["killed"], tot["equivalent"], tot["survived"], tot["error"]))
    print("%.0f s" % (time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
