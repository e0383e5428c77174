"""Bazel macros that build kai's kernels from the list in kai/kernels.bzl.

Each kernel or packer becomes one cc_library compiled with exactly the -march extension its
features need; everything else in the tree stays baseline Armv8-A.
"""

load("//kai:kernels.bzl", "KAI_KERNELS", "KAI_KLEIDIAI_ASM")

# kai/ukernels/matmul is a Bazel package of its own, so that KleidiAI's label
# @KleidiAI//kai/ukernels/matmul resolves when kai is bound as the repository KleidiAI. Its files
# therefore belong to it: kai_matmul_package() exports them, and //kai names them by labels of
# that package (_file_label). Everything else below kai/ (kai_common.h, ukernels/pack/) is //kai's.
KAI_MATMUL_PACKAGE = "kai/ukernels/matmul"

# Strict C99: framework authors compile vendored kernels with warnings like these.
KAI_KERNEL_COPTS = [
    "-std=c99",
    "-O2",  # kernels are always optimised (tests under qemu, too); -c opt adds -DNDEBUG
    "-Wall",
    "-Wextra",
    "-Wpedantic",
    "-Wshadow",
    "-Wconversion",
    "-Wsign-conversion",
    "-Wdouble-promotion",
    "-Werror",
    # x18 is the platform register on Windows and Apple platforms: never allocate it, as their
    # compilers do not, so that the ABI trampoline of the tests (test/common/abi_trampoline.S)
    # can check that kai code leaves it alone.
    "-ffixed-x18",
]

def kai_march(features):
    """Returns the -march flag for a list of CPU features (dotprod, i8mm, bf16, fp16, sme, sme2)."""
    if "sme2" in features:
        return "-march=armv9-a+sme2"
    if "sme" in features:
        return "-march=armv9-a+sme"
    if not features:
        return "-march=armv8-a"
    if "i8mm" in features or "bf16" in features:
        return "-march=armv8.6-a+" + "+".join(sorted(features))
    return "-march=armv8.2-a+" + "+".join(sorted(features))

def _in_matmul_package(path):
    return path.startswith(KAI_MATMUL_PACKAGE + "/")

def _file_label(path):
    """The label, as //kai names it, of a file given by its path from the repository root."""
    if _in_matmul_package(path):
        return "//%s:%s" % (KAI_MATMUL_PACKAGE, path[len(KAI_MATMUL_PACKAGE) + 1:])
    return path[len("kai/"):]

def _interface_headers(d):
    """The family interface headers of directory d (a path from the repository root)."""
    if _in_matmul_package(d):
        return ["//%s:%s_interface" % (KAI_MATMUL_PACKAGE, d.split("/")[-1])]
    return native.glob([d[len("kai/"):] + "/*_interface.h"])

def kai_kernel_libraries():
    """Declares one cc_library per entry of KAI_KERNELS, named after it, plus aggregates.

    Targets: //kai:<name> for each entry, //kai:family_<family> for each family, //kai:all.
    Must be called from kai/BUILD.bazel (the sources live below kai/). A kernel of
    KAI_KLEIDIAI_ASM also assembles its (empty) <name>_asm.S, as KleidiAI's builds do (a packer's
    lies at KleidiAI's path, kai/ukernels/matmul/pack/, beside the forwarding files, which kai's
    own targets do not compile).
    """
    families = {}
    for e in KAI_KERNELS:
        stem = e["dir"] + "/" + e["name"]
        asm = [_file_label(stem + "_asm.S")] if e["name"] in KAI_KLEIDIAI_ASM and e["kind"] == "matmul" else []
        native.cc_library(
            name = e["name"],
            srcs = [_file_label(stem + ".c")] + asm,
            hdrs = [_file_label(stem + ".h")] + _interface_headers(e["dir"]),
            copts = KAI_KERNEL_COPTS + [kai_march(e["features"])],
            deps = [":kai_common"],
            visibility = ["//visibility:public"],
        )
        families.setdefault(e["family"], []).append(":" + e["name"])
    for family, members in families.items():
        native.cc_library(
            name = "family_" + family,
            deps = members,
            visibility = ["//visibility:public"],
        )
    native.cc_library(
        name = "all",
        deps = [":" + e["name"] for e in KAI_KERNELS],
        visibility = ["//visibility:public"],
    )

def kai_matmul_package():
    """Declares the package kai/ukernels/matmul; its BUILD.bazel calls this and nothing else.

    Exports the files below it to //kai, which builds them (kai_kernel_libraries), declares
    <family dir>_interface (the family interface headers) and KleidiAI's target :matmul: every
    kernel and packer of kai (//kai:all) plus the forwarding headers of pack/ (KleidiAI's paths
    of kai's packers, see tools/gen_compat_paths.py). The forwarding .c files are not compiled:
    //kai builds the packers from kai/ukernels/pack/.
    """
    native.exports_files(native.glob(["**/*.c", "**/*.h", "**/*.S"]))
    dirs = {}
    for e in KAI_KERNELS:
        if _in_matmul_package(e["dir"]):
            dirs[e["dir"][len(KAI_MATMUL_PACKAGE) + 1:]] = True
    for d in dirs:
        native.filegroup(
            name = d.split("/")[-1] + "_interface",
            srcs = native.glob([d + "/*_interface.h"]),
            visibility = ["//kai:__pkg__"],
        )
    native.cc_library(
        name = "matmul",
        hdrs = ["pack/%s.h" % e["name"] for e in KAI_KERNELS if e["kind"] != "matmul"],
        deps = ["//kai:all"],
        visibility = ["//visibility:public"],
    )

def _registry_inc_impl(ctx):
    lines = [
        "// Generated by //kai:build_defs.bzl from kai/kernels.bzl. Do not edit.",
        "// X-macros: KAI_REGISTRY_<KIND>(family, stem, features), where stem is the name without",
        "// the leading kai_ and features is a KAI_FEATURE_* mask from test/common/cpu_features.h.",
        "#ifndef KAI_REGISTRY_MATMUL",
        "#define KAI_REGISTRY_MATMUL(family, stem, features)",
        "#endif",
        "#ifndef KAI_REGISTRY_LHS_PACKER",
        "#define KAI_REGISTRY_LHS_PACKER(family, stem, features)",
        "#endif",
        "#ifndef KAI_REGISTRY_RHS_PACKER",
        "#define KAI_REGISTRY_RHS_PACKER(family, stem, features)",
        "#endif",
    ]
    for e in KAI_KERNELS:
        feats = " | ".join(["KAI_FEATURE_" + f.upper() for f in e["features"]]) or "0"
        lines.append("KAI_REGISTRY_%s(%s, %s, (%s))" % (e["kind"].upper(), e["family"], e["name"][len("kai_"):], feats))
    lines += [
        "#undef KAI_REGISTRY_MATMUL",
        "#undef KAI_REGISTRY_LHS_PACKER",
        "#undef KAI_REGISTRY_RHS_PACKER",
        "",
    ]
    ctx.actions.write(ctx.outputs.out, "\n".join(lines))

kai_registry_inc = rule(
    implementation = _registry_inc_impl,
    attrs = {"out": attr.output(mandatory = True)},
    doc = "Writes the X-macro list of every kernel and packer, for the test and benchmark registries.",
)

def _headers_inc_impl(ctx):
    lines = ["// Generated by //kai:build_defs.bzl from kai/kernels.bzl. Do not edit."]
    for e in KAI_KERNELS:
        lines.append("#include \"%s/%s.h\"" % (e["dir"], e["name"]))
    lines.append("")
    ctx.actions.write(ctx.outputs.out, "\n".join(lines))

kai_headers_inc = rule(
    implementation = _headers_inc_impl,
    attrs = {"out": attr.output(mandatory = True)},
    doc = "Writes an #include line for every kernel and packer header.",
)
