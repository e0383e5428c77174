// SPDX-License-Identifier: Apache-2.0
// kai_benchmark: times kai's kernels and packers. This first version lists the registry
// (--list); the timing suite is built on the same table.
#include <cstdio>
#include <cstring>
#include <string>

#include "test/common/cpu_features.h"

namespace {

struct Entry {
    const char* kind;
    const char* family;
    const char* name;
    uint32_t features;
};

#define KAI_REGISTRY_MATMUL(family, stem, features) {"matmul", #family, "kai_" #stem, features},
#define KAI_REGISTRY_LHS_PACKER(family, stem, features) {"lhs_packer", #family, "kai_" #stem, features},
#define KAI_REGISTRY_RHS_PACKER(family, stem, features) {"rhs_packer", #family, "kai_" #stem, features},
const Entry kEntries[] = {
#include "kai/kai_registry.inc"
    {nullptr, nullptr, nullptr, 0},
};

int list() {
    const uint32_t cpu = kai_test::cpu_features();
    std::printf("%-10s %-9s %-64s %-14s %s\n", "kind", "family", "name", "features", "this CPU");
    for (const Entry* e = kEntries; e->name != nullptr; ++e) {
        const std::string missing = kai_test::missing_features(e->features);
        std::printf("%-10s %-9s %-64s %-14s %s\n", e->kind, e->family, e->name,
                    kai_test::feature_names(e->features).c_str(),
                    missing.empty() ? "runs" : ("skipped: lacks " + missing).c_str());
    }
    std::printf("%zu entries; CPU features: %s\n", sizeof(kEntries) / sizeof(kEntries[0]) - 1,
                kai_test::feature_names(cpu).c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--list") == 0) return list();
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::printf("usage: kai_benchmark --list\n");
            return 0;
        }
        std::fprintf(stderr, "kai_benchmark: unknown option '%s' (try --help)\n", argv[i]);
        return 2;
    }
    return list();
}
