// SPDX-License-Identifier: Apache-2.0
// Driver for docs/performance.md: packs a 1024 x 1024 int4 matrix with both qsi4c32p RHS packers
// (kxn first, then nxk; bl from argv[1]) so that perf/iprof.py can count each call's instructions.
#include <stdlib.h>
#include <string.h>
#include "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0.h"
#include "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
int main(int argc, char** argv) {
  size_t n = 1024, k = 1024, bl = argc > 1 ? (size_t)atoi(argv[1]) : 32, nb = k / bl;
  uint8_t* w = malloc(n * k / 2); for (size_t i = 0; i < n * k / 2; ++i) w[i] = (uint8_t)(i * 2654435761u >> 13);
  uint16_t* s = malloc(n * nb * 2); for (size_t i = 0; i < n * nb; ++i) s[i] = 0x3c00 + (uint16_t)(i & 63);
  float* bias = calloc(n, 4);
  void* out = malloc(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0(n, k, 4, 16, 2, bl, kai_dt_bf16));
  struct kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params p = {1, 8, kai_dt_bf16};
  kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0(1, n, k, 4, 16, 2, bl, w, n / 2, bias, s, nb * 2, out, 0, &p);
  struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params q = {1, 8, kai_dt_bf16};
  kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, n, k, 4, 16, 2, bl, w, k / 2, bias, s, nb * 2, out, 0, &q);
  return 0;
}
