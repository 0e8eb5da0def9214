/*
 * Included first by every float kernel: each product and each sum rounded on its own, as TFLM's
 * reference build computes them, whatever flags the application's build passes (GNU C dialects, the
 * Arduino cores' included, contract a * b + c into a fused multiply-add by default, which rounds once).
 */
#ifndef MCU_FP_EXACT_H
#define MCU_FP_EXACT_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#endif /* MCU_FP_EXACT_H */
