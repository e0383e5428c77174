#!/usr/bin/env python3
"""Checks that the CMake build (CMakeLists.txt, cmake/) builds the same things from kai's list as
the Bazel build (kai/build_defs.bzl), so that the two can never drift apart. Both read the files
tools/gen_kernels.py writes from kai/kernels.bzl (cmake/KaiList.cmake and kai/kai_march.bzl, the
registries' kai/kai_registry.inc and kai/kai_all_headers.inc; `gen_kernels.py --check` keeps them
equal to the list); this checks what the two builds make of them:

  * the CTest tests are exactly Bazel's test targets (`bazel query 'tests(//...)'`), by label;
  * the CMake build's registries include the committed lists (kai_registry.inc, kai_all_headers.inc
    of the source tree), not copies of their own;
  * every kernel and packer is compiled with the same -march as Bazel compiles it, and with every
    -std/-O/-W flag of Bazel's command line (compile_commands.json against `bazel aquery`).

Usage: tools/check_cmake.py BUILD_DIR   (a CMake build configured with -DKAI_BUILD_TESTS=ON and
-DCMAKE_EXPORT_COMPILE_COMMANDS=ON). Runs bazel from the repository root.
"""
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    return subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    errors = []

    # 1. Tests: CTest names are Bazel labels without the leading //.
    ctest = run(["ctest", "--test-dir", build, "-N"])
    ctest_names = set(re.findall(r"^\s*Test\s+#\d+: (\S+)$", ctest, re.M))
    bazel_names = {l[2:] for l in run(["bazel", "query", "tests(//...)"]).split() if l.startswith("//")}
    for name in sorted(bazel_names - ctest_names):
        errors.append("Bazel test //%s has no CTest test (cmake/KaiTests.cmake)" % name)
    for name in sorted(ctest_names - bazel_names):
        errors.append("CTest test %s is not a Bazel test target" % name)
    print("tests: %d CTest, %d Bazel" % (len(ctest_names), len(bazel_names)))

    # 2. Generated lists: nothing of the kind in the build directory (the committed ones are used).
    for inc in ("kai_registry.inc", "kai_all_headers.inc"):
        for dirpath, _, files in os.walk(build):
            if inc in files:
                errors.append("%s: the CMake build made its own %s" % (os.path.join(dirpath, inc), inc))
    print("generated lists: the committed kai_registry.inc, kai_all_headers.inc")

    # 3. Kernel flags.
    with open(os.path.join(build, "compile_commands.json")) as f:
        cmake_cmds = {}
        for entry in json.load(f):
            if "kai_objects" in entry.get("output", entry["command"]):
                rel = os.path.relpath(entry["file"], ROOT)
                cmake_cmds[rel] = shlex.split(entry["command"])
    aq = json.loads(run(["bazel", "aquery", "--output=jsonproto",
                         'mnemonic("CppCompile", deps(//kai:all))']) or "{}")
    bazel_cmds = {}
    for action in aq.get("actions", []):
        args = action["arguments"]
        srcs = [a for a in args if a.startswith("kai/") and a.endswith(".c")]
        if len(srcs) == 1:
            bazel_cmds[srcs[0]] = args
    if not bazel_cmds:
        errors.append("bazel aquery returned no kernel compile actions")
    for src, bargs in sorted(bazel_cmds.items()):
        cargs = cmake_cmds.get(src)
        if cargs is None:
            errors.append("%s: compiled by Bazel, not by CMake" % src)
            continue
        bm = [a for a in bargs if a.startswith("-march=")]
        cm = [a for a in cargs if a.startswith("-march=")]
        if not cm or bm[-1:] != cm[-1:]:
            errors.append("%s: Bazel %s, CMake %s" % (src, bm[-1:], cm[-1:]))
        # -Wno-builtin-macro-redefined goes with the toolchain's reproducible __DATE__ (Bazel only).
        missing = [a for a in bargs if re.match(r"^-(std=|O\d|W)", a) and a not in cargs
                   and a != "-Wno-builtin-macro-redefined"]
        if missing:
            errors.append("%s: CMake lacks Bazel's %s" % (src, " ".join(missing)))
    for src in sorted(set(cmake_cmds) - set(bazel_cmds)):
        errors.append("%s: compiled by CMake, not by Bazel" % src)
    print("kernel flags: compared %d sources" % len(bazel_cmds))

    for e in errors:
        print("FAIL: " + e)
    if errors:
        sys.exit(1)
    print("check_cmake: CMake and Bazel agree")


if __name__ == "__main__":
    main()
