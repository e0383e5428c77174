#!/usr/bin/env python3
# SPDX-FileCopyrightText: Copyright 2026 The kai authors
# SPDX-License-Identifier: Apache-2.0
"""Makes SME/SME2 sources build with any AArch64 compiler and assembler (docs/style.md, "SME code").

GCC 12 rejects -march=...+sme and binutils 2.40 knows no SME2 mnemonic, so the streaming bodies of
kai's SME kernels and packers are kept assembled by hand: every instruction that a plain
`-march=armv8-a` GNU assembler (binutils 2.40) or llvm-mc-19 without extensions does not accept is
written as `.inst 0x<word>` with its mnemonic beside it, the word being what llvm-mc-19 encodes
for that mnemonic when the tool runs:

    ".inst 0xc1308000\\n"  // fmla za.s[w8, 0, vgx4], {z16.s-z19.s}, z0.s[0]

(in a `.S` file: `.inst 0xc1308000  // fmla ...`). A comment the line had is kept after the
mnemonic (`// <mnemonic>  // <comment>`). The tool also rewrites, in a `.c` file:
  - the guard `#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SME[2])` (and its #error) to
    `#if !defined(__aarch64__)`: the file then compiles with any AArch64 -march;
  - `#if defined(__clang__)` / `#pragma clang diagnostic ignored "-Woverlength-strings"` to the
    GCC spelling both compilers take (GCC's -Wpedantic also warns on strings over 4095 bytes);
  - `uint64_t v; __asm__ volatile("rdsvl %0, #N" : "=r"(v));` to a register variable in x0, so the
    RDSVL needs no operand substitution and can be encoded;
  - the "za" / "zt0" clobbers, which GCC does not know (the functions never hold anything in ZA:
    the asm enters and leaves streaming mode and ZA itself).
An instruction to encode must not use an operand substitution (%0, %[name]): the house style
passes arguments through a struct whose address is in a fixed register.

The tool is idempotent: it first reads the encoded lines back to their mnemonics, then encodes.

Usage:
    python3 tools/sme_encode.py [FILES...]     rewrite the files (none: every SME/SVE file of
                                               kai/kernels.bzl and the SME test probes)
    python3 tools/sme_encode.py --check [FILES...]
        checks that every file is what the tool writes, that every `.inst` word is the encoding
        of its mnemonic, and that llvm-mc disassembles the word to an instruction that encodes
        back to the same word (printed with -v). Exit 1 on any difference.
"""

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

LLVM_MC = os.environ.get("KAI_LLVM_MC", "llvm-mc-19")
# Every extension kai's SME/SVE code may use: the encoder's target.
MATTR = "+sme2,+sme-i16i64,+sme-f64f64,+sve2,+bf16,+i8mm,+dotprod,+fullfp16,+sme-f16f16,+lse"

# The SME test probes (test/tests), encoded the same way as the kernels.
EXTRA_FILES = ("test/tests/sme2_probe.S", "test/tests/sme_abi_probe.S")

C_STRING = re.compile(r'^(\s*)"((?:[^"\\]|\\.)*)"(\s*(?://.*)?)$')
C_INST = re.compile(r'^(\s*)"\.inst 0x([0-9a-f]{8})(\\n)?"\s*// (.*)$')
S_INST = re.compile(r"^(\s+)\.inst 0x([0-9a-f]{8})\s*// (.*)$")
S_INSN = re.compile(r"^(\s+)([a-z][^/]*?)(\s*//.*)?$")
LABEL = re.compile(r"^\s*\w+:\s*$")
SUBST = re.compile(r"%(\[\w+\]|[wxqdsbh]?\d)")

GUARD = re.compile(
    r'#if !defined\(__aarch64__\)((?: \|\| !defined\(__ARM_FEATURE_SME2?\))+)\n#error "(\w+) needs AArch64 with FEAT_SME2?"\n'
)
PRAGMA = re.compile(r'#if defined\(__(?:clang|GNUC)__\)\n#pragma (?:clang|GCC) diagnostic ignored "-Woverlength-strings"\n')
# The old comment above that pragma (SME was clang-only then).
PRAGMA_NOTE = "clang (the only compiler that builds SME) accepts it."
RDSVL = re.compile(r'(\s*)uint64_t (\w+);\n\s*__asm__ volatile\("rdsvl %0, #(\d+)" : "=r"\(\2\)\);\n')
D_CLOBBER = re.compile(r'"z15"(?!, "d8")')
ZA_CLOBBER = re.compile(r'"(?:za|zt0)", ')


class EncodeError(Exception):
    pass


def _gnu_as():
    if shutil.which("aarch64-linux-gnu-as"):
        return "aarch64-linux-gnu-as"
    if platform.machine() == "aarch64" and shutil.which("as"):
        return "as"
    raise EncodeError("no AArch64 GNU assembler (aarch64-linux-gnu-as): run tools/setup.sh")


def _run(cmd, text):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run(cmd + [path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    return p


def _error_lines(cmd, lines):
    """1-based numbers of the lines an assembler rejects."""
    p = _run(cmd, "".join(l + "\n" for l in lines))
    bad = set()
    for m in re.finditer(r"\.s:(\d+):(?:\d+:)? *(?:error|Error)", p.stderr):
        bad.add(int(m.group(1)))
    return bad


def _needs_encoding(blocks):
    """For each block (a list of instruction or label texts), the indices a plain Armv8-A
    assembler rejects (GNU as 2.40 or llvm-mc-19 without extensions)."""
    lines, where = [], []
    for b, block in enumerate(blocks):
        for i, text in enumerate(block):
            lines.append(SUBST.sub(lambda m: "x0" if m.group(1)[0] != "w" else "w0", text))
            where.append((b, i))
        lines.append("")
        where.append(None)
    if not lines:
        return set()
    bad = _error_lines([_gnu_as(), "-march=armv8-a", "-o", os.devnull], lines)
    bad |= _error_lines([LLVM_MC, "-triple=aarch64", "-filetype=null"], lines)
    return {where[n - 1] for n in bad if where[n - 1] is not None}


def _encode(mnemonics):
    """llvm-mc-19's encoding (a 32-bit word) of each instruction."""
    if not mnemonics:
        return []
    p = _run([LLVM_MC, "-triple=aarch64", "-mattr=" + MATTR, "-show-encoding"], "".join(m + "\n" for m in mnemonics))
    if p.returncode != 0:
        raise EncodeError("llvm-mc-19 cannot encode:\n" + p.stderr)
    words = []
    for line in p.stdout.splitlines():
        if "fixup" in line:
            raise EncodeError("an encoded instruction refers to a label: " + line.strip())
        m = re.search(r"encoding: \[(0x[0-9a-f]{2}),(0x[0-9a-f]{2}),(0x[0-9a-f]{2}),(0x[0-9a-f]{2})\]", line)
        if m:
            b = [int(x, 16) for x in m.groups()]
            words.append(b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24)
    if len(words) != len(mnemonics):
        raise EncodeError("llvm-mc-19 gave %d encodings for %d instructions" % (len(words), len(mnemonics)))
    return words


def _disassemble(words):
    """llvm-mc-19's disassembly of each word (text), in order."""
    if not words:
        return []
    text = "".join("0x%02x 0x%02x 0x%02x 0x%02x\n" % (w & 255, w >> 8 & 255, w >> 16 & 255, w >> 24) for w in words)
    p = _run([LLVM_MC, "-triple=aarch64", "-mattr=" + MATTR, "--disassemble"], text)
    out = [l.strip() for l in p.stdout.splitlines() if l.strip() and not l.strip().startswith(".")]
    if p.returncode != 0 or len(out) != len(words):
        raise EncodeError("llvm-mc-19 cannot disassemble every word:\n" + p.stderr)
    return [re.sub(r"\s+", " ", o) for o in out]


def _split_comment(comment):
    """`<mnemonic>  // <comment>` -> (mnemonic, comment or '')."""
    if "  // " in comment:
        mnem, rest = comment.split("  // ", 1)
        return mnem.strip(), rest
    return comment.strip(), ""


def decode(text, is_asm):
    """The file with every encoded line read back to its mnemonic; and the (word, mnemonic) pairs."""
    out, pairs = [], []
    for line in text.split("\n"):
        m = (S_INST if is_asm else C_INST).match(line)
        if m:
            if is_asm:
                indent, word, comment = m.group(1), m.group(2), m.group(3)
                mnem, rest = _split_comment(comment)
                line = indent + mnem + ("  // " + rest if rest else "")
            else:
                indent, word, nl, comment = m.groups()
                mnem, rest = _split_comment(comment)
                line = '%s"%s%s"%s' % (indent, mnem, nl or "", "  // " + rest if rest else "")
            pairs.append((int(word, 16), mnem))
        out.append(line)
    return "\n".join(out), pairs


MACRO_DEF = re.compile(r"^#define (KAI_\w+)(?:\(([\w, ]*)\))?[ \t]*\\\n((?:.*\\\n)*.*\n)", re.M)
MACRO_USE = re.compile(r"^(\s*)((?:KAI_\w+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*)+)(//.*)?$")
# SVE's condition-code aliases of B.cond (GNU as 2.40 takes them only with +sve): the base names.
SVE_CONDS = {"none": "eq", "any": "ne", "nlast": "hs", "last": "lo", "first": "mi", "nfrst": "pl",
             "pmore": "hi", "plast": "ls", "tcont": "ge", "tstop": "lt"}
TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|#\s*(\w+)|(\w+)\s*(\()?|(\S)')


def _split_args(text):
    """The top-level comma-separated arguments of a macro call (text after its '(') and the rest."""
    args, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if c == '"':
            m = re.match(r'"(?:[^"\\]|\\.)*"', text[i:])
            cur += m.group(0)
            i += len(m.group(0))
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                args.append(cur.strip())
                return [a for a in args if a or len(args) > 1], text[i + 1:]
            depth -= 1
        elif c == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    raise EncodeError("unbalanced macro call: " + text[:60])


def _eval(text, env, defs, depth=0):
    """The string a sequence of string literals, parameters (env: name -> argument text) and calls of
    the file's string macros makes (C's concatenation of adjacent literals)."""
    if depth > 20:
        raise EncodeError("macros nested too deep")
    out, rest = "", text
    while rest.strip():
        m = TOKEN.search(rest)
        if not m:
            break
        rest = rest[m.end():]
        if m.group(1) is not None:
            out += m.group(1)
        elif m.group(2) is not None:
            if m.group(2) not in env:
                raise EncodeError("#%s: not a parameter" % m.group(2))
            out += env[m.group(2)]
        elif m.group(3) is not None:
            name = m.group(3)
            if name in env and not m.group(4):
                out += _eval(env[name], {}, defs, depth + 1)
            elif name in defs:
                params, body = defs[name][0], defs[name][1]
                args = []
                if m.group(4):
                    args, rest = _split_args(rest)
                    args = [env.get(a, a) for a in args]  # arguments are substituted before the call
                if params is None and not m.group(4):
                    out += _eval(body, {}, defs, depth + 1)
                    continue
                if len(args) != len(params or []):
                    raise EncodeError("%s: %d arguments for %d parameters" % (name, len(args), len(params or [])))
                out += _eval(body, dict(zip(params, args)), defs, depth + 1)
            else:
                raise EncodeError("`%s` is neither a string, a parameter nor a string macro of the file" % name)
        else:
            raise EncodeError("unexpected `%s` in a string macro" % m.group(5))
    return out


def _expand_macros(text):
    """Expands, inside assembly statements, the string-template macros of the file (#define KAI_X or
    KAI_X(...) whose body is string literals, parameters and other such macros): a macro-built
    instruction cannot be encoded. Definitions no longer used go; a used macro's comment moves to the
    first place it was used."""
    defs = {}
    for m in MACRO_DEF.finditer(text):
        body = m.group(3).replace("\\\n", " ")
        if '"' not in body:
            continue
        params = None if m.group(2) is None else [p.strip() for p in m.group(2).split(",") if p.strip()]
        lines_before = text[:m.start()].split("\n")[:-1]
        comment = []
        while lines_before and lines_before[-1].startswith("//"):
            comment.insert(0, lines_before.pop()[2:].strip())
        defs[m.group(1)] = (params, body, m, comment)
    if not defs:
        return text
    out, used, in_asm = [], [], False
    for line in text.split("\n"):
        st = line.strip()
        if st.startswith("__asm__"):
            in_asm = True
        m = MACRO_USE.match(line) if in_asm else None
        names = re.findall(r"(KAI_\w+)", m.group(2)) if m else []
        if not m or not names or any(n not in defs for n in names):
            out.append(line)
            if in_asm and (st.endswith(");") or st.startswith(":")):
                in_asm = False
            continue
        indent = m.group(1)
        s = _eval(m.group(2), {}, defs)
        for n in names:
            if n not in used:
                out.extend(indent + "// " + c for c in defs[n][3])
                used.append(n)
        pieces = [p for p in s.split("\\n") if p.strip()]
        for i, p in enumerate(pieces):
            tail = "  " + m.group(3).strip() if (i == 0 and m.group(3)) else ""
            out.append('%s"%s\\n"%s' % (indent, p.strip(), tail))
    text = "\n".join(out)
    # A definition goes once no line of the file names it any more (other macros included).
    changed = True
    while changed:
        changed = False
        for name, (_, _, m, comment) in defs.items():
            block = "".join("//" + (" " + c if c else "") + "\n" for c in comment) + m.group(0)
            here = block if block in text else m.group(0)
            if here in text and not re.search(r"\b%s\b" % name, text.replace(here, "", 1)):
                text = text.replace(here, "", 1)
                changed = True
    return re.sub(r"\n\n\n+", "\n\n", text)


def _c_rewrites(text):
    text = _expand_macros(text)
    text = GUARD.sub(lambda m: '#if !defined(__aarch64__)\n#error "%s needs AArch64"\n' % m.group(2), text)
    # Clang for the MSVC targets defines __clang__ but not __GNUC__, and takes the GCC spelling too.
    text = PRAGMA.sub('#if defined(__GNUC__) || defined(__clang__)\n#pragma GCC diagnostic ignored "-Woverlength-strings"\n', text)
    text = text.replace(PRAGMA_NOTE, "GCC and clang accept it.")
    # SMSTART/SMSTOP zero every vector register, and the code uses z8-z15: d8-d15 (callee-saved) must be
    # clobbered by name. GCC derives them from "z8".."z15"; clang without +sve on the command line (the
    # flags kai now builds SME files with) does not, and left d8-d15 unsaved.
    text = D_CLOBBER.sub(r'"z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"', text)
    text = RDSVL.sub(
        lambda m: '%sregister uint64_t %s __asm__("x0");\n%s__asm__ volatile(\n%s    "rdsvl x0, #%s\\n"\n%s    : "=r"(%s));\n'
        % (m.group(1), m.group(2), m.group(1).lstrip("\n"), m.group(1).lstrip("\n"), m.group(3),
           m.group(1).lstrip("\n"), m.group(2)),
        text,
    )
    return ZA_CLOBBER.sub("", text)


def _c_blocks(lines, path):
    """The instruction lines of each inline-assembly statement: lists of (line index, text, newline,
    trailing comment)."""
    blocks, cur = [], None
    for i, line in enumerate(lines):
        s = line.strip()
        if cur is None:
            if s.startswith("__asm__"):
                m = re.match(r'__asm__(?:\s+volatile)?\s*\(\s*"((?:[^"\\]|\\.)*)"(.*)$', s)
                if m:  # a one-line statement: checked, never rewritten
                    blocks.append([(i, m.group(1).replace("\\n", "").strip(), None, None)])
                    continue
                cur = []
            continue
        if not s or s.startswith("//"):
            continue
        if s.startswith(":") or s.startswith(")"):
            blocks.append(cur)
            cur = None
            continue
        m = C_STRING.match(line)
        if not m:
            raise EncodeError("%s:%d: an assembly line the tool cannot read (one quoted instruction per line)" % (path, i + 1))
        body = m.group(2)
        nl = body.endswith("\\n")
        insn = body[:-2] if nl else body
        if "\\" in insn or ";" in insn:
            raise EncodeError("%s:%d: one instruction per string, no escapes" % (path, i + 1))
        comment = m.group(3).strip()
        comment = comment[2:].strip() if comment.startswith("//") else ""
        insn = insn.strip()
        c = re.match(r"b\.(\w+)\s+(.*)$", insn)
        if c and c.group(1) in SVE_CONDS:  # same encoding, a name every assembler knows
            comment = insn + ("  // " + comment if comment else "") if not comment.startswith(insn) else comment
            insn = "b.%s %s" % (SVE_CONDS[c.group(1)], c.group(2))
            lines[i] = '%s"%s%s"  // %s' % (m.group(1), insn, "\\n" if nl else "", comment)
        cur.append((i, insn, nl, comment))
    return [b for b in blocks if b]


def _s_blocks(lines):
    block = []
    for i, line in enumerate(lines):
        m = S_INSN.match(line)
        if m and not line.strip().startswith("."):
            comment = (m.group(3) or "").strip()
            block.append((i, m.group(2).strip(), None, comment[2:].strip() if comment else ""))
        elif LABEL.match(line):
            block.append((i, line.strip(), None, None))
    return [block]


def transform(text, path):
    """What the tool writes for a file (the text of a .c or .S file)."""
    is_asm = path.endswith(".S")
    text, _ = decode(text, is_asm)
    if not is_asm:
        text = _c_rewrites(text)
    lines = text.split("\n")
    blocks = _s_blocks(lines) if is_asm else _c_blocks(lines, path)
    need = _needs_encoding([[t for (_, t, _, _) in b] for b in blocks])
    todo = []
    for b, block in enumerate(blocks):
        for i, (idx, insn, nl, comment) in enumerate(block):
            if (b, i) not in need:
                continue
            if comment is None and nl is None and not is_asm:
                raise EncodeError("%s:%d: `%s` needs encoding: write it on its own line of a multi-line __asm__" % (path, idx + 1, insn))
            if SUBST.search(insn):
                raise EncodeError("%s:%d: `%s` needs encoding but uses an operand substitution" % (path, idx + 1, insn))
            todo.append((idx, insn, nl, comment))
    words = _encode([t for (_, t, _, _) in todo])
    for (idx, insn, nl, comment), w in zip(todo, words):
        indent = re.match(r"\s*", lines[idx]).group(0)
        tail = insn + ("  // " + comment if comment else "")
        if is_asm:
            lines[idx] = "%s.inst 0x%08x  // %s" % (indent, w, tail)
        else:
            lines[idx] = '%s".inst 0x%08x%s"  // %s' % (indent, w, "\\n" if nl else "", tail)
    return "\n".join(lines)


def check_words(pairs):
    """Problems with (word, mnemonic) pairs: the mnemonic must encode to the word, and the word's
    disassembly must encode back to it. Returns (problems, disassembly)."""
    problems = []
    words = [w for w, _ in pairs]
    enc = _encode([m for _, m in pairs])
    dis = _disassemble(words)
    back = _encode(dis)
    for (w, mnem), e, d, b in zip(pairs, enc, dis, back):
        if e != w:
            problems.append("0x%08x is recorded for `%s`, which encodes to 0x%08x" % (w, mnem, e))
        if b != w:
            problems.append("0x%08x disassembles to `%s`, which encodes to 0x%08x" % (w, d, b))
    return problems, dis


def default_files():
    import kai_list

    lst = kai_list.load()
    files = []
    for e in lst.kernels() + lst.packers():
        if any(f in ("sme", "sme2") for f in e.get("features", [])):
            files.append(os.path.join(e["dir"], e["name"] + ".c"))
    return files + [f for f in EXTRA_FILES if os.path.exists(os.path.join(ROOT, f))]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="verify instead of rewriting")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each word's disassembly")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args(argv)
    files = args.files or default_files()
    failed = 0
    total = 0
    for f in files:
        path = f if os.path.isabs(f) or os.path.exists(f) else os.path.join(ROOT, f)
        with open(path) as fh:
            text = fh.read()
        try:
            new = transform(text, path)
            if args.check:
                _, pairs = decode(text, path.endswith(".S"))
                problems, dis = check_words(pairs)
                total += len(pairs)
                if new != text:
                    problems.append("not what tools/sme_encode.py writes: run python3 tools/sme_encode.py %s" % f)
                if args.verbose:
                    for (w, mnem), d in zip(pairs, dis):
                        print("%s: 0x%08x  %-60s %s" % (f, w, mnem, d))
                for p in problems:
                    print("%s: %s" % (f, p), file=sys.stderr)
                failed += bool(problems)
            elif new != text:
                with open(path, "w") as fh:
                    fh.write(new)
                print("sme_encode: rewrote %s" % f)
        except EncodeError as e:
            print("sme_encode: %s" % e, file=sys.stderr)
            failed += 1
    if args.check:
        print("sme_encode: %d files, %d encoded words checked, %d files with problems" % (len(files), total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
