#include "mcu_nn_fp_exact.h"

#include <math.h>

#include "mcu_nn_support.h"

/*
 * TFLite_Detection_PostProcess as TFLM's detection_postprocess.cc computes it (mcugen/ops/
 * detection_postprocess.py states each step). The scratch is cut into: decoded boxes (4 floats a box),
 * a score column, kept scores, kept anchors, their order, merge space and the selection (a word a box
 * each), then the running list (regular NMS: anchors x classes, scores, their next copies, positions
 * and merge space) or each anchor's best class (fast NMS), then a byte a box of candidate flags.
 */

typedef struct {
    float *decoded, *column, *keep_scores, *list_values, *next_values; /* the last two: regular NMS only */
    int32_t *keep, *order, *merge, *selected, *list;
    uint8_t *active;
} work;

/* The next `words` words of the scratch. */
static void *carve(uint8_t **at, int32_t words)
{
    void *start = *at;
    *at += 4 * words;
    return start;
}

/* Whether key a goes before key b: decreasing score, ties (and NaNs, last) by position. */
static int32_t before(const float *v, int32_t a, int32_t b)
{
    const float x = v[a], y = v[b];
    if (x != x || y != y) {
        return y != y && (x == x || a < b);
    }
    return x > y || (x == y && a < b);
}

/* TFLM's stable merge sort of positions by decreasing score (insertion sort below 20). */
static void sort_positions(const float *v, int32_t *p, int32_t *space, int32_t n)
{
    if (n < 20) {
        for (int32_t i = 1; i < n; ++i) {
            const int32_t key = p[i];
            int32_t j = i;
            for (; j > 0 && before(v, key, p[j - 1]); --j) {
                p[j] = p[j - 1];
            }
            p[j] = key;
        }
        return;
    }
    const int32_t half = n / 2;
    sort_positions(v, p, space, half);
    sort_positions(v, p + half, space, n - half);
    int32_t left = 0, right = half;
    for (int32_t i = 0; i < n; ++i) {
        space[i] = (left >= half || (right < n && before(v, p[right], p[left]))) ? p[right++] : p[left++];
    }
    for (int32_t i = 0; i < n; ++i) {
        p[i] = space[i];
    }
}

static float iou(const float *boxes, int32_t i, int32_t j)
{
    const float *a = boxes + 4 * i, *b = boxes + 4 * j;
    const float area_a = (a[2] - a[0]) * (a[3] - a[1]), area_b = (b[2] - b[0]) * (b[3] - b[1]);
    if (area_a <= 0 || area_b <= 0) {
        return 0.0f;
    }
    const float ymin = a[0] < b[0] ? b[0] : a[0], xmin = a[1] < b[1] ? b[1] : a[1];
    const float ymax = b[2] < a[2] ? b[2] : a[2], xmax = b[3] < a[3] ? b[3] : a[3];
    const float dy = ymax - ymin, dx = xmax - xmin;
    const float inter = (dy < 0.0f ? 0.0f : dy) * (dx < 0.0f ? 0.0f : dx);
    return inter / (area_a + area_b - inter);
}

/* TFLM's NonMaxSuppressionSingleClassHelper on w->column: the selected anchors, best first. */
static int32_t suppress(const mcu_detection_params *p, const work *w, int32_t most)
{
    int32_t kept = 0;
    for (int32_t i = 0; i < p->boxes; ++i) {
        if (w->column[i] >= p->score_threshold) {
            w->keep_scores[kept] = w->column[i];
            w->keep[kept] = i;
            w->order[kept] = kept;
            ++kept;
        }
    }
    sort_positions(w->keep_scores, w->order, w->merge, kept);
    const int32_t limit = kept < most ? kept : most;
    int32_t selected = 0, candidates = kept;
    for (int32_t i = 0; i < kept; ++i) {
        w->active[i] = 1;
    }
    for (int32_t i = 0; i < kept && candidates > 0 && selected < limit; ++i) {
        if (!w->active[i]) {
            continue;
        }
        const int32_t anchor = w->keep[w->order[i]];
        w->selected[selected++] = anchor;
        w->active[i] = 0;
        --candidates;
        for (int32_t j = i + 1; j < kept; ++j) {
            if (w->active[j] && iou(w->decoded, anchor, w->keep[w->order[j]]) > p->iou_threshold) {
                w->active[j] = 0;
                --candidates;
            }
        }
    }
    return selected;
}

static void emit(const work *w, int32_t row, int32_t anchor, int32_t cls, float score, float *boxes, float *classes,
                 float *scores)
{
    for (int32_t k = 0; k < 4; ++k) {
        boxes[4 * row + k] = w->decoded[4 * anchor + k];
    }
    classes[row] = (float)cls;
    scores[row] = score;
}

/* Fast NMS: each anchor's best class (ties to the lower class, NaNs last), suppressed as one class. */
static int32_t fast(const mcu_detection_params *p, const work *w, const float *scores, float *boxes, float *classes,
                    float *out_scores)
{
    const int32_t offset = p->classes_with_background - p->num_classes;
    for (int32_t a = 0; a < p->boxes; ++a) {
        const float *row = scores + a * p->classes_with_background + offset;
        int32_t best = 0;
        for (int32_t q = 1; q < p->num_classes; ++q) {
            best = before(row, q, best) ? q : best;
        }
        w->list[a] = best;
        w->column[a] = row[best];
    }
    const int32_t selected = suppress(p, w, p->max_detections);
    for (int32_t s = 0; s < selected; ++s) {
        const int32_t a = w->selected[s];
        emit(w, s, a, w->list[a], w->column[a], boxes, classes, out_scores);
    }
    return selected;
}

/* Regular NMS: each class on its own, the running list kept to the max_detections best. */
static int32_t regular(const mcu_detection_params *p, const work *w, const float *scores, float *boxes,
                       float *classes, float *out_scores)
{
    const int32_t room = p->boxes + p->max_detections, offset = p->classes_with_background - p->num_classes;
    int32_t *entries = w->list, *next = entries + room, *positions = next + room, *space = positions + room;
    float *values = w->list_values, *next_values = w->next_values;
    int32_t size = 0;
    for (int32_t c = 0; c < p->num_classes; ++c) {
        for (int32_t a = 0; a < p->boxes; ++a) {
            w->column[a] = scores[a * p->classes_with_background + c + offset];
        }
        const int32_t selected = suppress(p, w, p->detections_per_class);
        int32_t n = size;
        for (int32_t s = 0; s < selected; ++s, ++n) {
            entries[n] = w->selected[s] * p->classes_with_background + c + offset;
            values[n] = w->column[w->selected[s]];
        }
        for (int32_t i = 0; i < n; ++i) {
            positions[i] = i;
        }
        sort_positions(values, positions, space, n);
        size = n < p->max_detections ? n : p->max_detections;
        for (int32_t i = 0; i < size; ++i) {
            next[i] = entries[positions[i]];
            next_values[i] = values[positions[i]];
        }
        for (int32_t i = 0; i < size; ++i) {
            entries[i] = next[i];
            values[i] = next_values[i];
        }
    }
    for (int32_t i = 0; i < size; ++i) {
        const int32_t anchor = entries[i] / p->classes_with_background;
        emit(w, i, anchor, entries[i] - anchor * p->classes_with_background - offset, values[i], boxes, classes,
             out_scores);
    }
    return size;
}

void mcu_detection_postprocess_f32(const mcu_detection_params *p, const float *encodings, const float *scores,
                                   const float *anchors, float *boxes, float *classes, float *out_scores,
                                   float *count, void *scratch)
{
    const int32_t n = p->boxes, room = n + p->max_detections;
    uint8_t *at = scratch;
    work w;
    w.decoded = carve(&at, 4 * n);
    w.column = carve(&at, n);
    w.keep_scores = carve(&at, n);
    w.keep = carve(&at, n);
    w.order = carve(&at, n);
    w.merge = carve(&at, n);
    w.selected = carve(&at, n);
    w.list = carve(&at, p->regular ? 4 * room : n);
    w.list_values = p->regular ? carve(&at, room) : NULL;
    w.next_values = p->regular ? carve(&at, room) : NULL;
    w.active = at;
    float *const outputs[4] = {boxes, classes, out_scores, count};
    for (int32_t k = 0; k < 4; ++k) {
        for (int32_t i = 0; i < p->output_sizes[k]; ++i) {
            outputs[k][i] = 0.0f;
        }
    }
    int32_t valid = 1;
    for (int32_t i = 0; i < n; ++i) {
        const float *e = encodings + i * p->encoding_size, *a = anchors + 4 * i;
        const float y = (float)((double)e[0] / (double)p->scales.y * (double)a[2] + (double)a[0]);
        const float x = (float)((double)e[1] / (double)p->scales.x * (double)a[3] + (double)a[1]);
        const float h = (float)(0.5 * exp((double)e[2] / (double)p->scales.h) * (double)a[2]);
        const float wd = (float)(0.5 * exp((double)e[3] / (double)p->scales.w) * (double)a[3]);
        float *box = w.decoded + 4 * i;
        box[0] = y - h;
        box[1] = x - wd;
        box[2] = y + h;
        box[3] = x + wd;
        valid &= !(box[0] >= box[2] || box[1] >= box[3]);
    }
    if (!valid) { /* TFLM's NMS fails on a box of no height or width: no detections */
        return;
    }
    *count = (float)(p->regular ? regular(p, &w, scores, boxes, classes, out_scores)
                                : fast(p, &w, scores, boxes, classes, out_scores));
}
