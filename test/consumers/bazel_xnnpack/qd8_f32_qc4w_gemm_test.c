// SPDX-License-Identifier: Apache-2.0
// Runs the consumer's GEMM through both kernels and checks every output against an f32 reference
// computed here from the unquantised activations and the dequantised weights.
//
// Tolerance: the LHS packer quantises each row of x to int8 with step s_m = (max(x_m, 0) -
// min(x_m, 0)) / 255, so each activation is off by at most one step (half a step of rounding plus
// the zero point's own rounding); the weights are exact. Hence |dst - ref| <= scale_n * s_m *
// sum_k |q_nk| plus float rounding (bounded by 1e-5 of sum_k |x_mk * w_nk|). A wrong layout,
// scale or channel is off by far more than that.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>

#include "qd8_f32_qc4w_gemm.h"

static unsigned rng = 12345u;
static float uniform(float lo, float hi) {
    rng = rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng >> 8) / 16777216.0f;
}

static int run(enum qc4w_kernel kernel, size_t m, size_t n, size_t k) {
    const size_t row_bytes = (k + 1) / 2;
    float* x = malloc(m * k * sizeof(float));
    int* q = malloc(n * k * sizeof(int));
    uint8_t* w = calloc(n * row_bytes, 1);
    float* scale = malloc(n * sizeof(float));
    float* bias = malloc(n * sizeof(float));
    float* dst = malloc(m * n * sizeof(float));
    int bad = 0;
    for (size_t i = 0; i < m * k; ++i) x[i] = uniform(-2.0f, 1.5f);
    for (size_t j = 0; j < n; ++j) {
        scale[j] = uniform(0.01f, 0.1f);
        bias[j] = uniform(-1.0f, 1.0f);
        for (size_t kk = 0; kk < k; ++kk) {
            int v = (int)uniform(-8.0f, 8.0f);
            v = v < -8 ? -8 : v > 7 ? 7 : v;
            q[j * k + kk] = v;
            w[j * row_bytes + kk / 2] |= (uint8_t)((v + 8) << (kk % 2 ? 4 : 0));
        }
    }
    if (qd8_f32_qc4w_gemm(kernel, m, n, k, x, w, scale, bias, dst) != 0) {
        printf("out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < m; ++i) {
        double lo = 0, hi = 0;
        for (size_t kk = 0; kk < k; ++kk) {
            lo = fmin(lo, x[i * k + kk]);
            hi = fmax(hi, x[i * k + kk]);
        }
        const double step = (hi - lo) / 255.0;
        for (size_t j = 0; j < n; ++j) {
            double ref = bias[j], abs_sum = 0, q_sum = 0;
            for (size_t kk = 0; kk < k; ++kk) {
                const double wv = (double)q[j * k + kk] * scale[j];
                ref += x[i * k + kk] * wv;
                abs_sum += fabs(x[i * k + kk] * wv);
                q_sum += abs(q[j * k + kk]);
            }
            const double tol = scale[j] * step * q_sum + 1e-5 * (abs_sum + fabs(bias[j]));
            const double got = dst[i * n + j];
            if (!(fabs(got - ref) <= tol)) {
                if (bad < 5) printf("  %zux%zux%zu: dst[%zu][%zu] = %.6f, reference %.6f (tolerance %.6f)\n", m, n, k, i, j, got, ref, tol);
                ++bad;
            }
        }
    }
    free(x); free(q); free(w); free(scale); free(bias); free(dst);
    return bad;
}

int main(void) {
    static const size_t shapes[][3] = {{1, 1, 1}, {1, 19, 72}, {5, 19, 72}, {8, 8, 32}, {13, 33, 257}, {9, 64, 4096}};
    const unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    const int has[2] = {(hwcap2 >> 13) & 1, (hwcap >> 20) & 1};  // FEAT_I8MM, FEAT_DotProd
    const char* feature[2] = {"FEAT_I8MM", "FEAT_DotProd"};
    int failures = 0, ran = 0;
    for (int kernel = 0; kernel < 2; ++kernel) {
        if (!has[kernel]) {
            printf("%s: skipped, the CPU lacks %s\n", qd8_f32_qc4w_kernel_name((enum qc4w_kernel)kernel), feature[kernel]);
            continue;
        }
        int bad = 0;
        for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); ++s)
            bad += run((enum qc4w_kernel)kernel, shapes[s][0], shapes[s][1], shapes[s][2]);
        printf("%s: %s\n", qd8_f32_qc4w_kernel_name((enum qc4w_kernel)kernel), bad ? "FAILED" : "ok");
        failures += bad;
        ++ran;
    }
    if (ran == 0) {
        printf("no kernel ran: the CPU lacks FEAT_I8MM and FEAT_DotProd\n");
        return 1;
    }
    return failures ? 1 : 0;
}
