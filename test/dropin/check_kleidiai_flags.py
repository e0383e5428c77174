#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright 2026 The kai authors
# SPDX-License-Identifier: Apache-2.0
"""KleidiAI's flag contract: every kai file with a KleidiAI v1.30.0 namesake compiles with the flags
KleidiAI's own CMakeLists.txt gives that file, as engines that swap kai in for KleidiAI compile it,
and with kai's own flags; with GCC 12 and clang-19, to objects (no linking).

The flags are recorded in test/dropin/kleidiai_flags.tsv (one row per file: kai path, KleidiAI
path, KleidiAI's source group, the group's COMPILE_OPTIONS, and the lines of KleidiAI's
CMakeLists.txt they come from); its header records the flags KleidiAI gives every file of the
target (C standard, warnings, definitions). `--record CMAKELISTS` rewrites the table from a
KleidiAI v1.30.0 CMakeLists.txt (the GNU-style branch, `if(NOT MSVC)`; KLEIDIAI_INTERNAL_EXTRA_ARCH
unset, as in a default configure).

Usage:
    python3 test/dropin/check_kleidiai_flags.py [-j N]            compile; exit 1 on any failure
    python3 test/dropin/check_kleidiai_flags.py --record PATH/TO/kleidiai/CMakeLists.txt
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gen_kernels  # noqa: E402
import kai_list  # noqa: E402

TABLE = os.path.join(ROOT, "test", "dropin", "kleidiai_flags.tsv")
COMPILERS = {"gcc": ["aarch64-linux-gnu-gcc"], "clang": ["clang-19", "--target=aarch64-linux-gnu"]}


# --- recording --------------------------------------------------------------------------------

def _lists(lines):
    """KLEIDIAI_FILES_* variables: name -> list of (entry, 1-based line); an entry is a path or ${VAR}."""
    lists, cur = {}, None
    for n, line in enumerate(lines, 1):
        s = line.split("#")[0].strip()
        m = re.match(r"set\((KLEIDIAI_FILES_\w+)\s*$", s)
        if m and cur is None:
            cur = lists.setdefault(m.group(1), [])
            continue
        if cur is not None:
            if s.startswith(")"):
                cur = None
            elif s:
                cur.append((s, n))
    return lists


def _expand(lists, var, seen=()):
    out = []
    for entry, n in lists.get(var, []):
        m = re.match(r"\$\{(\w+)\}$", entry)
        if m:
            if m.group(1) not in seen:
                out += _expand(lists, m.group(1), seen + (var,))
        else:
            out.append((entry, n))
    return out


def _flag_list(lines, name):
    """The quoted flags of `set(NAME ...)` in the GNU branch (the last definition) and its line."""
    found = None
    for n, line in enumerate(lines, 1):
        if re.match(r"\s*set\(%s\s*$" % name, line):
            flags = []
            for m in range(n, len(lines)):
                s = lines[m].strip()
                if s.startswith(")"):
                    break
                flags += re.findall(r'"([^"]+)"', s)
            found = (flags, n)
    return found


def record(cmakelists):
    lines = open(cmakelists).read().split("\n")
    lists = _lists(lines)
    start = next(n for n, l in enumerate(lines) if l.strip() == "if(NOT MSVC)" and n > 500)
    per_file = {}
    for n in range(start, len(lines)):
        s = lines[n].strip()
        if s.startswith("else()"):
            break
        m = re.match(r"set_source_files_properties\(\$\{(\w+)\}\s+PROPERTIES COMPILE_OPTIONS\s+(.*)\)$", s)
        if not m:
            continue
        opts = m.group(2).strip().strip('"').replace("${KLEIDIAI_INTERNAL_EXTRA_ARCH}", "")
        for path, entry_line in _expand(lists, m.group(1)):
            per_file[path] = (m.group(1), opts.split(";"), n + 1, entry_line)
    base = _flag_list(lines, "KLEIDIAI_WARNING_FLAGS_BASE")
    cflags = _flag_list(lines, "KLEIDIAI_WARNING_FLAGS_C")
    std = next(n for n, l in enumerate(lines, 1) if "set(CMAKE_C_STANDARD 99)" in l)
    ped = next(n for n, l in enumerate(lines, 1) if "-Wpedantic" in l)
    ours = {}
    for p in _kai_files():  # every kai file of that name: KleidiAI's path (a forwarding file) and kai's own
        ours.setdefault(os.path.basename(p), []).append(p)
    rows = []
    for path in sorted(per_file):
        group, opts, opt_line, entry_line = per_file[path]
        for mine in ours.get(os.path.basename(path), []):
            rows.append("\t".join([mine, path, group, " ".join(opts), "CMakeLists.txt:%d" % opt_line,
                                   "CMakeLists.txt:%d" % entry_line]))
    with open(TABLE, "w") as f:
        f.write("# KleidiAI v1.30.0's per-file compile flags (its CMakeLists.txt, GNU branch `if(NOT MSVC)`), for every\n")
        f.write("# kai file with a namesake there. Written by test/dropin/check_kleidiai_flags.py --record; read by it.\n")
        f.write("# Every file of KleidiAI's target also gets (C files: all; .S files: all but -std):\n")
        f.write("# common-c\t-std=c99\tCMakeLists.txt:%d (CMAKE_C_STANDARD 99, CMAKE_C_EXTENSIONS OFF)\n" % std)
        f.write("# common\t-Wpedantic\tCMakeLists.txt:%d\n" % ped)
        f.write("# common\t%s\tCMakeLists.txt:%d (KLEIDIAI_WARNING_FLAGS_BASE)\n" % (" ".join(base[0]), base[1]))
        f.write("# common-c\t%s\tCMakeLists.txt:%d (KLEIDIAI_WARNING_FLAGS_C)\n" % (" ".join(cflags[0]), cflags[1]))
        f.write("# common\t-DKLEIDIAI_ERROR_TRAP=0 -DKLEIDIAI_HAS_BUILTIN_ASSUME0=0 -DKLEIDIAI_HAS_BUILTIN_TRAP=0 "
                "-DKLEIDIAI_HAS_BUILTIN_UNREACHABLE=1\ttarget_compile_definitions (GCC and clang's check results)\n")
        f.write("# kai file\tKleidiAI file\tKleidiAI source group\tCOMPILE_OPTIONS\tflags from\tfile listed at\n")
        f.write("\n".join(rows) + "\n")
    print("check_kleidiai_flags: recorded %d files in %s" % (len(rows), os.path.relpath(TABLE, ROOT)))
    return 0


# --- checking ---------------------------------------------------------------------------------

def _kai_files():
    out = subprocess.run(["git", "ls-files", "kai"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    gen = gen_kernels.compat_files(kai_list.load())
    files = set(p for p in out if p.endswith((".c", ".S"))) | set(p for p in gen if p.endswith((".c", ".S")))
    return sorted(files)


def load_table():
    common, common_c, rows = [], [], []
    for line in open(TABLE):
        line = line.rstrip("\n")
        if line.startswith("# common"):
            kind, flags, _ = line[2:].split("\t", 2)
            (common_c if kind == "common-c" else common).extend(shlex.split(flags))
        elif line and not line.startswith("#"):
            rows.append(line.split("\t"))
    return common, common_c, rows


def _kai_copts():
    text = open(os.path.join(ROOT, "kai", "build_defs.bzl")).read()
    block = re.search(r"KAI_KERNEL_COPTS = \[(.*?)\n\]", text, re.S).group(1)
    return re.findall(r'^\s*"([^"]+)"', block, re.M)


def _features_of(path, lst):
    """The kernels.bzl features of the entry a kai file belongs to (by its name)."""
    stem = os.path.basename(path)[:-2]
    stem = stem[:-4] if stem.endswith("_asm") else stem
    e = next((e for e in lst.entries if e["name"] == stem), None)
    return e["features"] if e else []


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--record", metavar="CMAKELISTS")
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args(argv)
    if args.record:
        return record(args.record)
    common, common_c, rows = load_table()
    lst = kai_list.load()
    kai_copts = _kai_copts()
    jobs = []
    for kai_path, _, group, opts, _, _ in rows:
        is_c = kai_path.endswith(".c")
        theirs = (common_c if is_c else []) + common + shlex.split(opts)
        ours = (kai_copts if is_c else []) + [kai_list.march(_features_of(kai_path, lst))]
        for comp in COMPILERS:
            jobs.append((comp, "kleidiai", kai_path, theirs))
            jobs.append((comp, "kai", kai_path, ours))
    tmp = tempfile.mkdtemp(prefix="kai_kflags_")

    def compile_one(i_job):
        i, (comp, which, path, flags) = i_job
        obj = os.path.join(tmp, "%d.o" % i)
        cmd = COMPILERS[comp] + flags + ["-O2", "-I" + ROOT, "-c", os.path.join(ROOT, path), "-o", obj]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if os.path.exists(obj):
            os.unlink(obj)
        return comp, which, path, flags, p.returncode, p.stderr

    failures = 0
    warned = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as ex:
        for comp, which, path, flags, rc, err in ex.map(compile_one, enumerate(jobs)):
            if rc:
                failures += 1
                print("FAIL %s, %s's flags (%s): %s\n%s" % (comp, which, " ".join(flags), path, err.strip()))
            elif "warning:" in err:
                warned += 1
                print("warning %s, %s's flags: %s\n%s" % (comp, which, path, err.strip()))
    os.rmdir(tmp)
    print("check_kleidiai_flags: %d files with a KleidiAI namesake, %d compiles (gcc, clang-19; KleidiAI's flags and "
          "kai's), %d failed, %d with warnings" % (len(rows), len(jobs), failures, warned))
    return 1 if failures or warned else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
