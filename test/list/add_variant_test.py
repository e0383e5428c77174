#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Proves what docs/adding_a_kernel.md says: a variant of an existing family is one list entry
(and, because this family's template states internal limits, the line that declares them).

In a scratch copy of the tree (the files git knows, with their working-tree contents), the test
adds one line to KAI_KERNELS of kai/kernels.bzl: a block-wise int4 (qsi4c32p) I8MM GEMM of a
12 x 4 tile under a name no entry has, with the parameters of a shape the family's template
already covers. The template's source says "Internal limit:" (a stack buffer), so the kernel's
limits are declared too, by the same macros as its siblings' in test/common/limits.cc
(tools/check_tree.py fails naming the kernel otherwise). Then, in the copy and with nothing else
edited, it

1. runs `python3 tools/gen_kernels.py` and `python3 tools/check_tree.py` (they must pass, and
   the kernel's .c/.h must have been written);
2. checks that the generated lists name the new kernel: the registry's X-macros
   (kai/kai_registry.inc), the benchmark entries, docs/kernels.md, the family document's variant
   table and kai/kai_select.h's table;
3. builds and runs the family's suite in the copy with Bazel (reduced sweep), filtered to the
   new kernel's tests, and checks that they ran (more than zero tests) and passed;
4. runs the benchmark in the copy on the new kernel at one small shape and checks that it was
   verified against the reference.

The copy's Bazel server is shut down at the end and the copy removed (KAI_KEEP_SCRATCH=1 keeps it).
Bazel's disk cache (~/.bazelrc) makes every unchanged action a cache hit, so the cost is the new
kernel, the family's registry and suite, kai_select's users and the benchmark's link.

Usage: python3 test/list/add_variant_test.py     (exit 0 when every step passes)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAME = "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4_neon_i8mm"
FAMILY = "qsi4c32p"
ENTRY = ('    {"name": "%s", "family": "%s", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", '
         '"features": ["i8mm"], "m_step": "12", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", '
         '"template": ["qsi4c32p_i8mm.c.in", "qsi4c32p.h.in"]},' % (NAME, FAMILY))


def step(msg):
    print("== %s" % msg, flush=True)


def run(cmd, cwd, check=True, **kw):
    print("$ %s" % " ".join(cmd), flush=True)
    r = subprocess.run(cmd, cwd=cwd, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    if check and r.returncode != 0:
        print(r.stdout[-6000:])
        raise SystemExit("FAIL: %s exited %d" % (cmd[0], r.returncode))
    return r


def scratch_copy(dest):
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, stdout=subprocess.PIPE).stdout
    for rel in files.decode().split("\0"):
        if not rel or not os.path.exists(os.path.join(ROOT, rel)):
            continue  # deleted in the working tree
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(dest, rel), follow_symlinks=False)


def add_entry(tree):
    path = os.path.join(tree, "kai", "kernels.bzl")
    lines = open(path).read().split("\n")
    end = lines.index("    # --- end %s ---" % FAMILY)
    lines.insert(end, ENTRY)
    open(path, "w").write("\n".join(lines))


# The new kernel's internal limits, declared as its siblings' are (test/common/limits.cc).
LIMITS = ('    KAI_QSI4C32_UNPACKED("%s", 12),' % NAME, '    KAI_LONG_BLOCK("%s", 5),' % NAME)


def add_limits(tree):
    path = os.path.join(tree, "test", "common", "limits.cc")
    lines = open(path).read().split("\n")
    anchor = next(i for i, l in enumerate(lines) if l.startswith("    KAI_QSI4C32_UNPACKED("))
    lines[anchor:anchor] = list(LIMITS)
    open(path, "w").write("\n".join(lines))


def expect(cond, msg):
    if not cond:
        raise SystemExit("FAIL: " + msg)
    print("ok: " + msg, flush=True)


def main():
    start = time.time()
    tree = tempfile.mkdtemp(prefix="kai-add-variant-")
    output_base = tempfile.mkdtemp(prefix="kai-add-variant-bazel-")
    bazel = ["bazel", "--output_base=" + output_base]
    try:
        step("scratch copy of the tree in %s, one entry added to kai/kernels.bzl, its limits declared" % tree)
        scratch_copy(tree)
        before = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout
        add_entry(tree)
        add_limits(tree)

        step("the generator and the tree checks")
        run([sys.executable, "tools/gen_kernels.py"], tree)
        run([sys.executable, "tools/gen_kernels.py", "--check"], tree)
        run([sys.executable, "tools/check_tree.py"], tree)
        kdir = os.path.join(tree, "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p")
        for ext in ("c", "h"):
            expect(os.path.exists(os.path.join(kdir, "%s.%s" % (NAME, ext))), "%s.%s generated" % (NAME, ext))

        step("the generated lists name it")
        stem = NAME[len("kai_"):]
        read = lambda rel: open(os.path.join(tree, rel)).read()  # noqa: E731
        expect("KAI_REGISTRY_MATMUL(%s, %s, " % (FAMILY, stem) in read("kai/kai_registry.inc"), "registry X-macro")
        expect('#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/%s.h"' % NAME in read("kai/kai_all_headers.inc"),
               "registry header include")
        expect("KAI_BENCH_ENTRY(matmul, %s, %s, " % (FAMILY, NAME) in read("benchmark/kai_benchmark_entries.inc"),
               "benchmark entry")
        expect("| `%s` | %s |" % (NAME, FAMILY) in read("docs/kernels.md"), "docs/kernels.md row")
        doc = read("docs/matmul_int4_blockwise.md")
        table = doc[doc.index("<!-- kai_list:variants %s" % FAMILY):doc.index("<!-- /kai_list:variants -->")]
        expect("| `%s` | 12 × 4 |" % NAME in table, "the family document's variant table")
        expect(re.search(r"X\(%s, \w+, %s, KAI_SEL_I8MM, 0, 0\)" % (FAMILY, stem), read("kai/kai_select.h")) is not None,
               "kai_select.h's table (last of its family: it has no rank)")
        after = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout
        expect(before == after, "the real tree is untouched")

        step("built and tested in the copy (reduced sweep, the new kernel's tests)")
        suite = "//test/tests:%s_test" % FAMILY
        flt = "*%s*" % NAME[len("kai_matmul_clamp_f32_"):]
        r = run(bazel + ["test", "--jobs=2", "--test_env=KAI_TEST_REDUCED=1", "--test_output=all",
                         "--test_arg=--gtest_filter=" + flt, "--test_arg=--gtest_brief=1", suite], tree, check=False)
        passed = re.findall(r"\[  PASSED  \] (\d+) test", r.stdout)
        if r.returncode != 0 or not passed:
            print(r.stdout[-6000:])
        expect(r.returncode == 0, "%s passes" % suite)
        expect(passed and int(passed[-1]) > 0, "%s tests of the new kernel ran and passed" % (passed[-1] if passed else 0))

        step("benchmarked in the copy (verified against the reference)")
        r = run(bazel + ["run", "--jobs=2", "//benchmark:kai_benchmark", "--", "--filter", NAME + "$", "--repetitions", "1",
                         "--min-time", "0", "--shape", "16x64x256"], tree, check=False)
        rows = [l for l in r.stdout.splitlines() if l.startswith(NAME + " ")]
        if r.returncode != 0 or not rows:
            print(r.stdout[-6000:])
        expect(r.returncode == 0 and rows and all(re.search(r"\bok\b", l) for l in rows),
               "kai_benchmark ran %d case(s) of it, every one verified" % len(rows))
    finally:
        subprocess.run(bazel + ["shutdown"], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if os.environ.get("KAI_KEEP_SCRATCH") != "1":
            subprocess.run(["chmod", "-R", "u+w", output_base], stderr=subprocess.DEVNULL)
            shutil.rmtree(output_base, ignore_errors=True)
            shutil.rmtree(tree, ignore_errors=True)
    print("add_variant_test: passed in %.0f s" % (time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
