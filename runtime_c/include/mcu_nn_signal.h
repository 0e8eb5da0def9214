/* mcu_nn: the TFLM signal library's audio front-end ops (micro_speech's preprocessor), bit-exact with
 * TFLM's signal/src routines. Conventions: mcu_nn.h. Tensors are 1-D unless said; int16 complex values
 * interleave real and imaginary parts. */
#ifndef MCU_NN_SIGNAL_H
#define MCU_NN_SIGNAL_H

#include "mcu_nn_types.h"

typedef struct {
    int32_t size;        /* input values: a whole number of windows */
    int32_t window_size;
    int32_t shift;       /* 0..31 */
} mcu_window_params;

/* SignalWindow: output[i] = saturate16((input[i] * window[i % window_size]) >> shift). */
void mcu_window_s16(const mcu_window_params *params, const int16_t *input, const int16_t *window, int16_t *output);

/* SignalFftAutoScale: output = input << s, s = the bits the largest magnitude leaves free (TFLM's
 * MaxAbs16, -32768 wrapping to itself), *scale_bits = s. */
void mcu_fft_auto_scale_s16(int32_t size, const int16_t *input, int16_t *output, int32_t *scale_bits);

/* SignalRfft: each row through kissfft v130's real FFT as TFLM builds it (FIXED_POINT=16 for int16, =32
 * for int32, float for float32) into fft_length / 2 + 1 complex bins ([rows, fft_length + 2] values).
 * fft_length is even and its half has no prime factor above 5; rows of input_length values (at most
 * fft_length) are zero-padded. factors: kissfft's kf_factor of fft_length / 2, (radix, remaining)
 * pairs; twiddles: [fft_length / 2] complex e^(-2 pi i k / half) (fixed point: floor(0.5 + SAMP_MAX x));
 * super_twiddles: [fft_length / 4] complex, the real split's. scratch: 2 * fft_length values. */
typedef struct {
    int32_t fft_length;
    int32_t input_length;
    int32_t rows;
    const int32_t *factors;
    const int16_t *twiddles;
    const int16_t *super_twiddles;
} mcu_rfft_s16_params;

typedef struct {
    int32_t fft_length;
    int32_t input_length;
    int32_t rows;
    const int32_t *factors;
    const int32_t *twiddles;
    const int32_t *super_twiddles;
} mcu_rfft_s32_params;

typedef struct {
    int32_t fft_length;
    int32_t input_length;
    int32_t rows;
    const int32_t *factors;
    const float *twiddles;
    const float *super_twiddles;
} mcu_rfft_f32_params;

void mcu_rfft_s16(const mcu_rfft_s16_params *params, const int16_t *input, int16_t *output, int16_t *scratch);
void mcu_rfft_s32(const mcu_rfft_s32_params *params, const int32_t *input, int32_t *output, int32_t *scratch);
void mcu_rfft_f32(const mcu_rfft_f32_params *params, const float *input, float *output, float *scratch);

typedef struct {
    int32_t start; /* bins [start, end) get their energy; the other outputs are 0 */
    int32_t end;
    int32_t size;  /* outputs */
} mcu_energy_params;

/* SignalEnergy: output[i] = re^2 + im^2 of complex bin i (int32 arithmetic, wrapping), as uint32. */
void mcu_energy_s16(const mcu_energy_params *params, const int16_t *input, uint32_t *output);

typedef struct {
    int32_t channels; /* num_channels: channel_* tables hold channels + 1 entries, the first a scratch */
    int32_t outputs;  /* at most channels: the sums of channels 1.. */
} mcu_filter_bank_params;

/* SignalFilterBank: per channel, the sum of spectrum bins times their weight (uint64), the next
 * channel starting from the same bins times the unweights. */
void mcu_filter_bank_u32(const mcu_filter_bank_params *params, const uint32_t *input, const int16_t *weights,
                         const int16_t *unweights, const int16_t *frequency_starts, const int16_t *weight_starts,
                         const int16_t *widths, uint64_t *output);

/* SignalFilterBankSquareRoot: output[i] = Sqrt64(input[i]) >> (*scale_bits & 31) (TFLM's rounded root). */
void mcu_filter_bank_sqrt_u64(int32_t channels, const uint64_t *input, const int32_t *scale_bits,
                              uint32_t *output);

typedef struct {
    int32_t channels;
    uint32_t smoothing;            /* even channels' weight of the new signal, Q(spectral_subtraction_bits) */
    uint32_t one_minus_smoothing;
    uint32_t alternate_smoothing;  /* odd channels' */
    uint32_t alternate_one_minus_smoothing;
    uint32_t min_signal_remaining;
    int32_t smoothing_bits;        /* 0..31 */
    int32_t spectral_subtraction_bits; /* 0..63 */
    int32_t clamping;              /* 1: an estimate above the signal is clamped in the state too */
} mcu_spectral_subtraction_params;

/* SignalFilterBankSpectralSubtraction: updates the running noise estimate (state: [channels] uint32,
 * zeros at boot), outputs the signal less it (never below min_signal_remaining of the signal) and a
 * copy of the estimate. */
void mcu_spectral_subtraction_u32(const mcu_spectral_subtraction_params *params, const uint32_t *input,
                                  uint32_t *output, uint32_t *noise_estimate, uint32_t *state);

typedef struct {
    int32_t channels;
    int32_t snr_shift; /* 0..63 */
} mcu_pcan_params;

/* SignalPCAN: output[i] = PcanShrink((input[i] * gain(noise_estimate[i])) >> snr_shift), the gain
 * from the int16 table (125 entries: WideDynamicFunction's segments). */
void mcu_pcan_u32(const mcu_pcan_params *params, const uint32_t *input, const uint32_t *noise_estimate,
                  const int16_t *gain_lut, uint32_t *output);

typedef struct {
    int32_t channels;
    int32_t correction_bits; /* 0..31 */
    uint32_t output_scale;
} mcu_filter_bank_log_params;

/* SignalFilterBankLog: output[i] = min(Log32(input[i] << correction_bits, output_scale), 32767), 0 where
 * the shifted value is below 2 (TFLM's fixed-point natural log). */
void mcu_filter_bank_log_u32(const mcu_filter_bank_log_params *params, const uint32_t *input, int16_t *output);

#endif /* MCU_NN_SIGNAL_H */
