// SPDX-License-Identifier: Apache-2.0
// Known loops for tools/perf/selftest/run.py. Each instruction's class (the plugin's classes) is
// in its comment; run.py holds the same counts, written by hand, and compares.
    .arch armv8.6-a+bf16+i8mm+dotprod
    .text

// selftest_mix(x0 = iterations >= 1, x1 = a 64-byte buffer): one instruction or more of every
// class in a loop that also calls a leaf function (the call tree is counted).
    .global selftest_mix
    .type selftest_mix, %function
selftest_mix:
    stp x29, x30, [sp, #-16]!          // st (once)
    mov x29, sp                        // other (once)
1:  smmla v0.4s, v1.16b, v2.16b        // i8mmla
    ummla v3.4s, v1.16b, v2.16b        // i8mmla
    usmmla v4.4s, v1.16b, v2.16b       // i8mmla
    bfmmla v5.4s, v1.8h, v2.8h         // bfmmla
    sdot v6.4s, v1.16b, v2.16b         // dot
    udot v7.4s, v1.16b, v2.4b[1]       // dot (by element)
    usdot v8.4s, v1.16b, v2.16b        // dot
    sudot v9.4s, v1.16b, v2.4b[0]      // dot (by element)
    bfdot v10.4s, v1.8h, v2.8h         // dot
    bfdot v11.4s, v1.8h, v2.2h[1]      // dot (by element)
    bfmlalb v12.4s, v1.8h, v2.8h       // simd (a BF16 widening MLA, not a DOT)
    fmla v13.4s, v1.4s, v2.4s          // simd
    add v14.4s, v1.4s, v2.4s           // simd
    ldr q16, [x1]                      // vld
    ld1 {v17.16b}, [x1]                // vld
    ldp q18, q19, [x1]                 // vld
    ld1r {v20.4s}, [x1]                // vld
    str q16, [x1, #16]                 // vst
    st1 {v17.16b}, [x1]                // vst
    stp d18, d19, [x1]                 // vst
    ldr x2, [x1]                       // ld
    ldp x3, x4, [x1]                   // ld
    ldrb w5, [x1, #1]                  // ld
    prfm pldl1keep, [x1]               // ld
    str x2, [x1, #8]                   // st
    strb w5, [x1, #2]                  // st
    add x6, x6, #1                     // other
    eor x7, x7, x6                     // other
    bl selftest_leaf                   // branch
    subs x0, x0, #1                    // other
    b.ne 1b                            // branch
    ldp x29, x30, [sp], #16            // ld (once)
    ret                                // branch (once)
    .size selftest_mix, .-selftest_mix

    .type selftest_leaf, %function
selftest_leaf:
    add x8, x8, #1                     // other
    ret                                // branch
    .size selftest_leaf, .-selftest_leaf

// selftest_peak(x0 = iterations >= 1): 24 independent SMMLA per iteration, nothing else but the
// loop counter: the model must put it at the SMMLA peak.
    .global selftest_peak
    .type selftest_peak, %function
selftest_peak:
2:
    .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23
    smmla v\r\().4s, v28.16b, v29.16b  // i8mmla
    .endr
    subs x0, x0, #1                    // other
    b.ne 2b                            // branch
    ret                                // branch (once)
    .size selftest_peak, .-selftest_peak
