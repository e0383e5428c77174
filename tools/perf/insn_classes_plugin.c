// SPDX-License-Identifier: Apache-2.0
// A QEMU TCG plugin (plugin API version 1, qemu-aarch64 7.2) that counts the instructions an
// AArch64 guest executes inside the calls of given functions, by class, and records every
// translation block those calls executed with its execution count. tools/perf/kai_perf.py builds
// it with the host compiler on first use and reads its JSON report.
//
// Arguments (comma-separated after the .so path, as QEMU passes them):
//   out=FILE            where the JSON report goes (required)
//   call=ADDR:LABEL     a region: from the first instruction at ADDR (a link-time address of a
//                       non-PIE guest) until the matching return; callees are included. Up to 8.
//
// How a call is followed: QEMU ends a translation block at every branch, so each block ends with
// at most one call or return. A region opens when a block starting at its address executes while
// the region is closed; from then on its depth goes up after a block ending in BL/BLR and down
// after one ending in RET, and the region closes when the depth is back at zero. Every block
// executed while the region is open counts whole (blocks start at the entry and end at the return).
//
// Classes come from the instruction encodings (Arm Architecture Reference Manual, A64 encoding
// index), not from a disassembler:
//   bfmmla  BFMMLA (Advanced SIMD, SVE)           i8mmla  SMMLA, UMMLA, USMMLA (Advanced SIMD, SVE)
//   dot     SDOT, UDOT, USDOT, SUDOT, BFDOT (vector and by element, Advanced SIMD and SVE)
//   vld/vst loads/stores of SIMD&FP or SVE registers      ld/st  general-purpose loads/stores
//           (prefetches and atomics count as ld)
//   simd    every other SIMD, FP, SVE or SME instruction
//   branch  branches, exception generation, system instructions and hints
//   other   scalar integer data processing
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- The part of QEMU's plugin API (version 1) this plugin uses, declared from its documentation.
typedef uint64_t qemu_plugin_id_t;
typedef struct {
    const char* target_name;
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void* userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb* tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void* userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb* tb);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb, size_t idx);
const void* qemu_plugin_insn_data(const struct qemu_plugin_insn* insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn* insn);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

// ---- Classification.
enum { C_BFMMLA, C_I8MMLA, C_DOT, C_VLD, C_VST, C_SIMD, C_LD, C_ST, C_BRANCH, C_OTHER, N_CLASSES };
static const char* const class_names[N_CLASSES] = {"bfmmla", "i8mmla", "dot", "vld", "vst",
                                                   "simd",   "ld",     "st",  "branch", "other"};

static bool is(uint32_t insn, uint32_t mask, uint32_t value) {
    return (insn & mask) == value;
}

// Advanced SIMD MMLA and DOT forms.
static int neon_matmul_class(uint32_t insn) {
    // Three registers, extension (0 Q U 01110 size 0 Rm 1 opcode 1 Rn Rd).
    if (is(insn, 0x9F208400u, 0x0E008400u)) {
        const uint32_t opcode = (insn >> 11) & 0xFu, size = (insn >> 22) & 3u;
        if (opcode == 0x2u || opcode == 0x3u) return C_DOT;          // SDOT/UDOT, USDOT
        if (opcode == 0x4u || opcode == 0x5u) return C_I8MMLA;       // SMMLA/UMMLA, USMMLA
        if (opcode == 0xDu && size == 1u) return C_BFMMLA;           // BFMMLA
        if (opcode == 0xFu && size == 1u) return C_DOT;              // BFDOT (size 3: BFMLAL)
        return -1;
    }
    // Vector x indexed element (0 Q U 01111 size L M Rm opcode H 0 Rn Rd).
    if (is(insn, 0x9F000400u, 0x0F000000u)) {
        const uint32_t opcode = (insn >> 12) & 0xFu, size = (insn >> 22) & 3u, u = (insn >> 29) & 1u;
        if (opcode == 0xEu && size == 2u) return C_DOT;                // SDOT/UDOT (element)
        if (opcode == 0xFu && u == 0u && size != 3u) return C_DOT;     // SUDOT, BFDOT, USDOT (element)
        return -1;
    }
    return -1;
}

static int sve_matmul_class(uint32_t insn) {
    if (is(insn, 0xFF20F800u, 0x44000000u)) return C_DOT;    // SDOT/UDOT (vectors)
    if (is(insn, 0xFFA0F800u, 0x44A00000u)) return C_DOT;    // SDOT/UDOT (indexed)
    if (is(insn, 0xFFE0FC00u, 0x44807800u)) return C_DOT;    // USDOT (vectors)
    if (is(insn, 0xFFE0F800u, 0x44A01800u)) return C_DOT;    // USDOT/SUDOT (indexed)
    if (is(insn, 0xFFE0FC00u, 0x64608000u)) return C_DOT;    // BFDOT (vectors)
    if (is(insn, 0xFFE0FC00u, 0x64604000u)) return C_DOT;    // BFDOT (indexed)
    if (is(insn, 0xFFE0FC00u, 0x6460E400u)) return C_BFMMLA; // BFMMLA
    if (is(insn, 0xFF20FC00u, 0x45009800u)) return C_I8MMLA; // SMMLA, USMMLA, UMMLA
    return -1;
}

static int load_store_class(uint32_t insn) {
    const bool simd = ((insn >> 26) & 1u) != 0;
    const uint32_t op = (insn >> 27) & 7u;  // bits 29:27
    bool load;
    if (op == 3u && ((insn >> 24) & 1u) == 0) {
        load = true;                           // load register (literal), PRFM (literal)
    } else if (op == 7u && !simd && ((insn >> 24) & 1u) == 0 && ((insn >> 21) & 1u) && ((insn >> 10) & 3u) == 0) {
        load = true;                           // atomic memory operations
    } else if (op == 7u && !simd) {
        load = ((insn >> 22) & 3u) != 0;       // opc 00 stores; 01 loads; 1x signed loads, PRFM
    } else if (op == 3u && !simd) {
        load = ((insn >> 22) & 3u) != 0;       // LDAPR/STLR (unscaled immediate)
    } else {
        load = ((insn >> 22) & 1u) != 0;       // the L bit: pairs, exclusives, structures, SIMD&FP
    }
    if (simd) return load ? C_VLD : C_VST;
    return load ? C_LD : C_ST;
}

static int sve_memory(uint32_t insn) {
    // SVE memory encodings: bits 31:29 = 100 (32-bit gathers, contiguous loads of the first
    // group), 101 (contiguous loads), 110 (64-bit gathers) load; 111 stores, except PRF forms.
    const uint32_t top = insn >> 29;
    if (top == 4u || top == 5u || top == 6u) return C_VLD;
    if (top == 7u) return C_VST;
    return -1;
}

static int classify(uint32_t insn) {
    const uint32_t op0 = (insn >> 25) & 0xFu;
    if ((op0 & 0xEu) == 0x8u) return C_OTHER;               // 100x: data processing, immediate
    if ((op0 & 0xEu) == 0xAu) return C_BRANCH;              // 101x: branches, exceptions, system
    if ((op0 & 0x5u) == 0x4u) return load_store_class(insn); // x1x0: loads and stores
    if ((op0 & 0x7u) == 0x5u) return C_OTHER;               // x101: data processing, register
    if ((op0 & 0x7u) == 0x7u) {                             // x111: SIMD and FP data processing
        const int c = neon_matmul_class(insn);
        return c >= 0 ? c : C_SIMD;
    }
    if (op0 == 0x2u) {                                      // 0010: SVE
        int c = sve_memory(insn);
        if (c >= 0) return c;
        c = sve_matmul_class(insn);
        return c >= 0 ? c : C_SIMD;
    }
    return C_SIMD;                                          // SME (op0 0000, bit 31 set) and the rest
}

enum { END_PLAIN, END_CALL, END_RETURN };

static int block_end(uint32_t insn) {
    if ((insn >> 26) == 0x25u) return END_CALL;             // BL
    if ((insn >> 25) == 0x6Bu) {                            // branch to register
        const uint32_t opc = (insn >> 21) & 0xFu;
        if (opc == 1u || opc == 9u) return END_CALL;        // BLR, BLRAA/BLRAB
        if (opc == 2u) return END_RETURN;                   // RET, RETAA/RETAB
    }
    return END_PLAIN;
}

// ---- Regions and blocks.
#define MAX_REGIONS 8

typedef struct {
    uint64_t addr;
    char label[128];
    uint64_t depth, calls, counts[N_CLASSES];
} region_t;

typedef struct block {
    uint64_t vaddr;
    uint32_t n_insns;
    int end;
    uint32_t counts[N_CLASSES];
    uint64_t execs[MAX_REGIONS];
    struct block* next;
} block_t;

static region_t regions[MAX_REGIONS];
static int n_regions;
static block_t* blocks;
static char out_path[4096];

static void on_block(unsigned int vcpu, void* userdata) {
    block_t* b = userdata;
    (void)vcpu;
    for (int r = 0; r < n_regions; ++r) {
        region_t* g = &regions[r];
        if (g->depth == 0) {
            if (b->vaddr != g->addr) continue;
            g->depth = 1;
            g->calls++;
        }
        for (int c = 0; c < N_CLASSES; ++c) g->counts[c] += b->counts[c];
        b->execs[r]++;
        if (b->end == END_CALL) {
            g->depth++;
        } else if (b->end == END_RETURN) {
            g->depth--;
        }
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    block_t* b = calloc(1, sizeof(*b));
    (void)id;
    if (b == NULL) abort();
    b->vaddr = qemu_plugin_tb_vaddr(tb);
    b->n_insns = (uint32_t)qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < b->n_insns; ++i) {
        const struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        uint32_t word = 0;
        memcpy(&word, qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn) < 4 ? qemu_plugin_insn_size(insn) : 4);
        b->counts[classify(word)]++;
        if (i + 1 == b->n_insns) b->end = block_end(word);
    }
    b->next = blocks;
    blocks = b;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void write_report(qemu_plugin_id_t id, void* userdata) {
    FILE* f = fopen(out_path, "w");
    (void)id;
    (void)userdata;
    if (f == NULL) {
        fprintf(stderr, "insn_classes_plugin: cannot write %s\n", out_path);
        return;
    }
    fprintf(f, "{\"regions\": [");
    for (int r = 0; r < n_regions; ++r) {
        const region_t* g = &regions[r];
        uint64_t total = 0;
        for (int c = 0; c < N_CLASSES; ++c) total += g->counts[c];
        fprintf(f, "%s\n {\"label\": \"%s\", \"addr\": %" PRIu64 ", \"calls\": %" PRIu64 ", \"total\": %" PRIu64
                ", \"classes\": {", r ? "," : "", g->label, g->addr, g->calls, total);
        for (int c = 0; c < N_CLASSES; ++c) fprintf(f, "%s\"%s\": %" PRIu64, c ? ", " : "", class_names[c], g->counts[c]);
        // A block translated more than once (QEMU flushes and retranslates) appears once per
        // translation; the reader adds up entries with the same address and length.
        fprintf(f, "},\n  \"blocks\": [");
        bool first = true;
        for (const block_t* b = blocks; b != NULL; b = b->next) {
            if (b->execs[r] == 0) continue;
            fprintf(f, "%s[%" PRIu64 ", %u, %" PRIu64 "]", first ? "" : ", ", b->vaddr, b->n_insns, b->execs[r]);
            first = false;
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n]}\n");
    fclose(f);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info,
                                                               int argc, char** argv) {
    (void)info;
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        if (strncmp(a, "out=", 4) == 0) {
            snprintf(out_path, sizeof(out_path), "%s", a + 4);
        } else if (strncmp(a, "call=", 5) == 0 && n_regions < MAX_REGIONS) {
            region_t* g = &regions[n_regions++];
            char* end = NULL;
            g->addr = strtoull(a + 5, &end, 0);
            snprintf(g->label, sizeof(g->label), "%s", (end != NULL && *end == ':') ? end + 1 : "call");
        } else {
            fprintf(stderr, "insn_classes_plugin: unknown argument %s\n", a);
            return -1;
        }
    }
    if (out_path[0] == '\0') {
        fprintf(stderr, "insn_classes_plugin: out=FILE is required\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, write_report, NULL);
    return 0;
}
