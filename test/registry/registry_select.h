// SPDX-License-Identifier: Apache-2.0
// Keeping one family's entries of kai/kai_registry.inc without naming every other family.
//
// kai/kai_registry.inc calls KAI_REGISTRY_<KIND>(family, stem, features) for every kernel and
// packer of kai/kernels.bzl. A registry marks each family it keeps with a flag defined as KAI_KEEP,
//     #define KAI_CX_ENTRY_qsi4cxp_KEEP KAI_KEEP
// and writes its X-macro through KAI_KEEP_IF, which expands to its entry when the flag pasted from
// the family is defined as KAI_KEEP and to nothing otherwise (an undefined flag is just a name):
//     #define KAI_REGISTRY_MATMUL(family, stem, features) KAI_KEEP_IF(KAI_CX_ENTRY_##family##_KEEP,
//                                                                 KAI_CX_ENTRY_##family(stem, features))
// A family added to kernels.bzl therefore needs no edit in the registries that do not keep it.
#pragma once

#define KAI_KEEP ~, 1

#define KAI_SELECT_SECOND_(a, b, ...) b
#define KAI_SELECT_SECOND(...) KAI_SELECT_SECOND_(__VA_ARGS__)
// 1 when the (expanded) flag is KAI_KEEP's "~, 1", else 0.
#define KAI_SELECT_IS_KEEP(...) KAI_SELECT_SECOND(__VA_ARGS__, 0, ~)
#define KAI_SELECT_CAT_(a, b) a##b
#define KAI_SELECT_CAT(a, b) KAI_SELECT_CAT_(a, b)
#define KAI_SELECT_WHEN_0(...)
#define KAI_SELECT_WHEN_1(...) __VA_ARGS__

#define KAI_KEEP_IF(flag, ...) KAI_SELECT_CAT(KAI_SELECT_WHEN_, KAI_SELECT_IS_KEEP(flag))(__VA_ARGS__)
