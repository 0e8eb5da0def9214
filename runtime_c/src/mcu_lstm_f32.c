#include "mcu_nn_fp_exact.h"

#include "mcu_nn_support.h"

static float dot(const float *w, const float *x, int32_t n)
{
    float total = 0.0f;
    for (int32_t k = 0; k < n; ++k) {
        total += x[k] * w[k];
    }
    return total;
}

static float clamp(float x)
{
    const mcu_float_activation none = {-3.40282347e+38f, 3.40282347e+38f};
    return mcu_clamp_f32(x, none);
}

/* One gate of one unit: TFLM's two float FCs (the recurrent one adds 0.0f for its missing bias), added. */
static float gate(const mcu_lstm_f32_params *lstm, const mcu_lstm_f32_gate *g, int32_t unit, const float *x,
                  const float *h)
{
    const float in = clamp(dot(g->input_weights + unit * lstm->input_size, x, lstm->input_size) + g->bias[unit]);
    const float rec = clamp(dot(g->recurrent_weights + unit * lstm->state_size, h, lstm->state_size) + 0.0f);
    return in + rec;
}

/*
 * As mcu_lstm_s8, each unit is finished in one go (every step of TFLM's is elementwise per unit but the
 * recurrent FCs, which read the hidden state as it was before the step): its new hidden value goes to
 * the step's output row, copied into the hidden state once every unit has read the old one.
 */
void mcu_lstm_f32(const mcu_lstm_f32_params *lstm, const float *input, float *hidden_state, float *cell_state,
                  float *output)
{
    const int32_t units = lstm->state_size, size = lstm->input_size;
    const float clip = lstm->cell_clip;
    for (int32_t t = 0; t < lstm->time_steps; ++t) {
        for (int32_t b = 0; b < lstm->batches; ++b) {
            const int32_t row = lstm->time_major ? t * lstm->batches + b : b * lstm->time_steps + t;
            const float *x = input + row * size;
            float *h = hidden_state + b * units, *c = cell_state + b * units, *out = output + row * units;
            for (int32_t u = 0; u < units; ++u) {
                const float f = mcu_logistic_f32(gate(lstm, &lstm->forget_gate, u, x, h));
                const float i = mcu_logistic_f32(gate(lstm, &lstm->input_gate, u, x, h));
                const float g = mcu_tanhf(gate(lstm, &lstm->cell_gate, u, x, h));
                float cell = clamp(f * c[u]) + clamp(i * g);
                if (clip > 0.0f) {
                    cell = cell < clip ? cell : clip;   /* std::min(clip, c) */
                    cell = cell < -clip ? -clip : cell; /* std::max(that, -clip) */
                }
                c[u] = cell;
                out[u] = clamp(mcu_tanhf(cell) * mcu_logistic_f32(gate(lstm, &lstm->output_gate, u, x, h)));
            }
            for (int32_t u = 0; u < units; ++u) {
                h[u] = out[u];
            }
        }
    }
}
