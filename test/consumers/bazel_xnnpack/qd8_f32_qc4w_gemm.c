// SPDX-License-Identifier: Apache-2.0
// Includes KleidiAI's headers by KleidiAI's paths from the repository root, as XNNPACK does.
#include "qd8_f32_qc4w_gemm.h"

#include <float.h>
#include <stdlib.h>

#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp_qsi4cxp_interface.h"
#include "kai/ukernels/matmul/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/matmul/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"

#define UKERNEL(name)                                                                            \
    {                                                                                            \
        kai_get_m_step_##name, kai_get_n_step_##name, kai_get_mr_##name, kai_get_nr_##name,      \
            kai_get_kr_##name, kai_get_sr_##name, kai_get_lhs_packed_offset_##name,              \
            kai_get_rhs_packed_offset_##name, kai_get_dst_offset_##name, kai_get_dst_size_##name, \
            kai_run_##name                                                                       \
    }

static const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel ukernels[] = {
    UKERNEL(matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm),
    UKERNEL(matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod),
};

const char* qd8_f32_qc4w_kernel_name(enum qc4w_kernel kernel) {
    return kernel == QC4W_I8MM_8X8 ? "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm"
                                   : "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod";
}

int qd8_f32_qc4w_gemm(enum qc4w_kernel kernel, size_t m, size_t n, size_t k, const float* x, const uint8_t* w,
                      const float* scale, const float* bias, float* dst) {
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* uk = &ukernels[kernel];
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    void* lhs_packed = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    void* rhs_packed = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kr, sr));
    if (lhs_packed == NULL || rhs_packed == NULL) {
        free(lhs_packed);
        free(rhs_packed);
        return -1;
    }
    const struct kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
    kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, n, k, nr, kr, sr, w, bias, scale, rhs_packed, 0, &params);
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, x, k * sizeof(float), lhs_packed);
    uk->run_matmul(m, n, k, lhs_packed, rhs_packed, dst, n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    free(lhs_packed);
    free(rhs_packed);
    return 0;
}
