#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks test/dropin/engine_names.py on a made-up engine whose answers are known: a header and a source path
kai has, ones it lacks, a glob that matches kai files and one that matches none, an identifier of kai, one it
lacks and one the engine defines itself; in --engine mode, only the engine's KleidiAI paths are read.

Usage: python3 test/dropin/engine_names_test.py   (exit 1 with the first difference)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "engine_names.py")

GLUE = '''#include "kai/ukernels/matmul/pack/kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon.h"
#include "kai/ukernels/matmul/kai_matmul_not_in_kai.h"
struct kai_engine_table { int x; };
void use(void) { kai_run_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(0); kai_run_not_in_kai(); }
'''
CMAKE = '''set(SRCS ${KLEIDIAI_SRC_DIR}/kai/ukernels/matmul/pack/kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon.c
         ${KLEIDIAI_SRC_DIR}/kai/ukernels/matmul/pack/kai_lhs_pack_not_in_kai_sme.c)
file(GLOB K "${KLEIDIAI_SRC_DIR}/kai/ukernels/matmul/matmul_clamp_f32_f32_f32p/*neon_mla.c"
            "${KLEIDIAI_SRC_DIR}/kai/ukernels/matmul/matmul_clamp_nothing/*.c")
'''


def run(args):
    p = subprocess.run([sys.executable, TOOL] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def expect(out, line):
    if line not in out.splitlines():
        sys.exit("engine_names_test: expected the line %r in:\n%s" % (line, out))


def main():
    with tempfile.TemporaryDirectory() as root:
        glue = os.path.join(root, "src/plugins/intel_cpu/src/nodes/executors/kleidiai")
        os.makedirs(glue)
        with open(os.path.join(glue, "glue.cpp"), "w") as f:
            f.write(GLUE)
        with open(os.path.join(glue, "CMakeLists.txt"), "w") as f:
            f.write(CMAKE)
        # Outside the engine's KleidiAI paths: --engine must not read it.
        with open(os.path.join(root, "other.c"), "w") as f:
            f.write("void f(void) { kai_elsewhere(); }\n")
        rc, out = run([root])
        expect(out, "  ok      kai/ukernels/matmul/pack/kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon.h")
        expect(out, "  MISSING kai/ukernels/matmul/kai_matmul_not_in_kai.h")
        expect(out, "  ok      kai/ukernels/matmul/pack/kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon.c")
        expect(out, "  MISSING kai/ukernels/matmul/pack/kai_lhs_pack_not_in_kai_sme.c")
        expect(out, "  ok      kai/ukernels/matmul/matmul_clamp_f32_f32_f32p/*neon_mla.c")
        expect(out, "  MISSING kai/ukernels/matmul/matmul_clamp_nothing/*.c")
        expect(out, "  ok      kai_run_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon")
        expect(out, "  MISSING kai_run_not_in_kai")
        expect(out, "  own     kai_engine_table")
        expect(out, "  MISSING kai_elsewhere")
        if rc != 1:
            sys.exit("engine_names_test: exit status %d with missing names, expected 1" % rc)
        rc, out = run(["--engine", "openvino", root])
        if "kai_elsewhere" in out:
            sys.exit("engine_names_test: --engine read a file outside the engine's KleidiAI paths:\n" + out)
        expect(out, "  absent  src/plugins/intel_cpu/CMakeLists.txt")
        if not any(l.startswith("openvino ") and "1 missing" in l for l in out.splitlines()):
            sys.exit("engine_names_test: no per-engine summary line:\n" + out)
        os.remove(os.path.join(glue, "glue.cpp"))
        with open(os.path.join(glue, "CMakeLists.txt"), "w") as f:
            f.write("set(S ${K}/kai/ukernels/matmul/pack/kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon.c)\n")
        rc, out = run([glue])
        if rc != 0:
            sys.exit("engine_names_test: exit status %d when every name is in kai:\n%s" % (rc, out))
    print("engine_names_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
