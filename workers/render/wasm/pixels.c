/*
 * The pin renderer's pixel work that JavaScript is too slow for, compiled to
 * WebAssembly (scripts/build-jpeg-wasm.sh). Freestanding: no libc.
 *
 * 1. A baseline JPEG (JFIF) encoder (WebAssembly SIMD: colour conversion, DCT
 *    and quantisation four lanes at a time). Input: RGBA pixels; output: a JPEG with
 *    4:2:0 chroma subsampling and the standard quantisation and Huffman tables
 *    of ITU-T T.81 Annex K, scaled by quality like libjpeg.
 *    jpeg_input(width, height) -> where the caller writes RGBA;
 *    jpeg_encode(width, height, quality) -> byte length; jpeg_output() -> bytes.
 * 2. Picture resampling (box filter down, tent up; a pixel's four channels as
 *    one SIMD vector) of a region of an RGBA
 *    picture: scratch_alloc / scratch_reset for buffers, rgba_resize.
 * 3. Soft shadows: alpha_box_blur blurs an alpha plane with three box passes
 *    (close to a Gaussian), for text shadows.
 * 4. Filled outlines (text and shapes, vector.ts): shape_coverage gives each
 *    pixel of a box the exact area a set of lines encloses (nonzero), by
 *    signed-area accumulation as font-rs does.
 * 5. Baseline JPEG decoding (jpeg_decode, at the end of this file), so that an
 *    isolate's first picture does not wait for photon's first call.
 */

#include <wasm_simd128.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;

extern unsigned char __heap_base;

/* ------------------------------------------------------------ memory */

static u32 heap_end(void) { return (u32)__builtin_wasm_memory_size(0) * 65536u; }

static void ensure(u32 end) {
  u32 have = heap_end();
  if (end > have) __builtin_wasm_memory_grow(0, (end - have + 65535u) / 65536u);
}

static u8 *input_buffer;
static u8 *output_buffer;
static u32 output_capacity;

__attribute__((export_name("jpeg_input"))) u8 *jpeg_input(u32 width, u32 height) {
  u32 base = ((u32)&__heap_base + 15u) & ~15u;
  u32 input_size = width * height * 4u;
  /* A JPEG of this encoder is never larger than the raw pixels plus headers. */
  output_capacity = width * height * 3u + 4096u;
  ensure(base + input_size + output_capacity);
  input_buffer = (u8 *)base;
  output_buffer = (u8 *)(base + input_size);
  return input_buffer;
}

__attribute__((export_name("jpeg_output"))) u8 *jpeg_output(void) { return output_buffer; }

/* Scratch buffers for resampling live above the JPEG buffers; reset after each use. */
static u32 scratch_top;

__attribute__((export_name("scratch_reset"))) void scratch_reset(void) { scratch_top = 0; }

__attribute__((export_name("scratch_alloc"))) u8 *scratch_alloc(u32 size) {
  u32 base = ((u32)&__heap_base + 15u) & ~15u;
  u32 floor = output_buffer ? (u32)output_buffer + output_capacity : base;
  if (scratch_top < floor) scratch_top = floor;
  u32 at = (scratch_top + 15u) & ~15u;
  ensure(at + size);
  scratch_top = at + size;
  return (u8 *)at;
}

/* ------------------------------------------------------------ resampling */

/* Four bytes (one RGBA pixel, or four samples of a plane) widened to four 32-bit lanes. */
static inline v128_t pixel4(const u8 *p) {
  return wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(p)));
}

/* Weights of one axis: for output i, count[i] taps from start[i], at offset[i] in values. */
static float floorf_(float x) { int i = (int)x; return (float)(x < (float)i ? i - 1 : i); }
static float ceilf_(float x) { int i = (int)x; return (float)(x > (float)i ? i + 1 : i); }

static u32 axis_weights(float start, float span, u32 out_size, u32 limit, i32 *starts, i32 *counts, i32 *offsets, float *values) {
  float scale = span / (float)out_size;
  float radius = scale > 1.0f ? scale : 1.0f;
  u32 n = 0;
  for (u32 i = 0; i < out_size; i++) {
    float center = start + ((float)i + 0.5f) * scale;
    /* Only the samples the filter gives weight: |s + 0.5 - center| < radius. */
    i32 lo = (i32)ceilf_(center - radius - 0.5f);
    i32 hi = (i32)floorf_(center + radius - 0.5f);
    if ((float)lo + 0.5f - center <= -radius) lo++;
    if ((float)hi + 0.5f - center >= radius) hi--;
    if (lo < 0) lo = 0;
    if (hi > (i32)limit - 1) hi = (i32)limit - 1;
    u32 first = n;
    float sum = 0;
    for (i32 s = lo; s <= hi; s++) {
      float d = ((float)s + 0.5f - center) / radius;
      float w = 1.0f - (d < 0 ? -d : d);
      if (w < 0) w = 0;
      values[n++] = w;
      sum += w;
    }
    if (sum <= 0) {
      n = first;
      i32 nearest = (i32)center;
      if (nearest < 0) nearest = 0;
      if (nearest > (i32)limit - 1) nearest = (i32)limit - 1;
      lo = nearest;
      values[n++] = 1.0f;
      sum = 1.0f;
    }
    for (u32 k = first; k < n; k++) values[k] /= sum;
    starts[i] = lo;
    counts[i] = (i32)(n - first);
    offsets[i] = (i32)first;
  }
  return n;
}

/*
 * An opaque picture enlarged both ways (the usual photo in a pin's box):
 * the same bilinear taps as the float path below, with the weights rounded to
 * 1/256 and the arithmetic in 16- and 32-bit integer lanes, so each source
 * row is filtered once and two output pixels share a vector. Within one level
 * of the float path, at about a third of its work.
 */
/* The loops below that run once per row are functions of their own, called once a row: V8 moves a function to
 * optimised code after its first calls, but a WebAssembly call in progress stays in the code it started in. */

/* The enlargement's horizontal pass over one source row: each output column's two taps, weighted, added (u16, x256). */
__attribute__((noinline)) static void filter_row(const u8 *row, const u32 *column, const v128_t *weights, u32 dw, u16 *out) {
  for (u32 x = 0; x < dw; x++) {
    /* The tap pixel and its right neighbour (8 bytes), weighted, the halves added. */
    v128_t px = wasm_u16x8_extend_low_u8x16(wasm_v128_load64_zero(row + column[x] * 4u));
    v128_t weighted = wasm_i16x8_mul(px, weights[x]);
    v128_t sum = wasm_i16x8_add(weighted, wasm_i64x2_shuffle(weighted, weighted, 1, 0));
    wasm_v128_store64_lane(out + x * 4u, sum, 0);
  }
}

/* The enlargement's vertical pass for one output row: the two filtered rows, weighted (256 - v1, v1). */
__attribute__((noinline)) static void blend_rows(const u16 *first, const u16 *second, u32 v1, u8 *out_row, u32 dw) {
  u32 pairs = (dw + 1u) / 2u;
  const v128_t top = wasm_i16x8_splat((short)(256u - v1));
  const v128_t bottom = wasm_i16x8_splat((short)v1);
  const v128_t round = wasm_i32x4_splat(32768);
  for (u32 pair = 0; pair < pairs; pair++) {
    v128_t a = wasm_v128_load(first + pair * 8u);
    v128_t b = wasm_v128_load(second + pair * 8u);
    v128_t low = wasm_i32x4_add(wasm_i32x4_add(wasm_u32x4_extmul_low_u16x8(a, top), wasm_u32x4_extmul_low_u16x8(b, bottom)), round);
    v128_t high = wasm_i32x4_add(wasm_i32x4_add(wasm_u32x4_extmul_high_u16x8(a, top), wasm_u32x4_extmul_high_u16x8(b, bottom)), round);
    v128_t words = wasm_u16x8_narrow_i32x4(wasm_u32x4_shr(low, 16), wasm_u32x4_shr(high, 16));
    v128_t bytes = wasm_u8x16_narrow_i16x8(words, words);
    if (pair * 2u + 1u < dw) wasm_v128_store64_lane(out_row + pair * 8u, bytes, 0);
    else wasm_v128_store32_lane(out_row + pair * 8u, bytes, 0);
  }
}

/* The resize in progress (resize_begin, then resize_rows): its taps and buffers, kept between calls. */
static struct {
  const u8 *src;
  u32 sw, rows, dw, dh, band_rows_max;
  i32 rows_start;
  int opaque, enlarge;
  i32 *xs, *ys;
  float *xv, *yv;
  /* The enlargement (enlarge_setup): per output column its first source column and the taps' weights; two filtered source rows. */
  u32 *column;
  v128_t *weights;
  u16 *filtered[2];
  i32 held[2];
  /* The float path: a band of horizontal-pass rows. */
  float *horizontal;
} rz;

static void enlarge_setup(void) {
  u32 dw = rz.dw, pairs = (dw + 1u) / 2u;
  const i32 *xs = rz.xs;
  const float *xv = rz.xv;
  /* Per output column: its first source column, and the two taps' weights as one vector (w0 x4, w1 x4). */
  rz.column = (u32 *)scratch_alloc(dw * 4u);
  rz.weights = (v128_t *)scratch_alloc(dw * 16u);
  for (u32 x = 0; x < dw; x++) {
    u32 w1 = xs[dw + x] > 1 ? (u32)(xv[xs[2 * dw + x] + 1] * 256.0f + 0.5f) : 0u;
    if (w1 > 256u) w1 = 256u;
    u32 w0 = 256u - w1;
    rz.column[x] = (u32)xs[x];
    rz.weights[x] = wasm_i16x8_make((short)w0, (short)w0, (short)w0, (short)w0, (short)w1, (short)w1, (short)w1, (short)w1);
  }
  /* Two filtered source rows (u16 per channel, x256), for the two taps of the output row; padded to whole pairs. */
  rz.filtered[0] = (u16 *)scratch_alloc(pairs * 16u);
  rz.filtered[1] = (u16 *)scratch_alloc(pairs * 16u);
  rz.held[0] = rz.held[1] = -1;
}

/* The enlargement's output rows y0..y1 (row y at dst + (y - y0) * dw * 4). */
static void enlarge_rows(u32 y0, u32 y1, u8 *dst) {
  u32 dw = rz.dw, dh = rz.dh;
  const i32 *ys = rz.ys;
  const float *yv = rz.yv;
  for (u32 y = y0; y < y1; y++) {
    i32 first = ys[y];
    i32 second = ys[dh + y] > 1 ? first + 1 : first;
    u32 v1 = ys[dh + y] > 1 ? (u32)(yv[ys[2 * dh + y] + 1] * 256.0f + 0.5f) : 0u;
    if (v1 > 256u) v1 = 256u;
    i32 want[2] = {first, second};
    /* One tap (the picture's first or last row): both halves read the same filtered row. */
    int taps = second == first ? 1 : 2;
    for (int k = 0; k < taps; k++) {
      if (rz.held[k] == want[k]) continue;
      /* Reuse the other buffer when it already holds this row (the window moves down one row). */
      if (rz.held[1 - k] == want[k]) {
        u16 *swap = rz.filtered[k];
        rz.filtered[k] = rz.filtered[1 - k];
        rz.filtered[1 - k] = swap;
        i32 h = rz.held[k];
        rz.held[k] = rz.held[1 - k];
        rz.held[1 - k] = h;
        continue;
      }
      filter_row(rz.src + ((u32)rz.rows_start + (u32)want[k]) * rz.sw * 4u, rz.column, rz.weights, dw, rz.filtered[k]);
      rz.held[k] = want[k];
    }
    blend_rows(rz.filtered[0], rz.filtered[taps - 1], v1, dst + (y - y0) * dw * 4u, dw);
  }
}

/* rgba_resize's horizontal pass over one source row, into floats (each pixel's four channels one vector; with
 * `opaque` alpha is set to 255 afterwards). */
__attribute__((noinline)) static void resize_row_across(const u8 *row, const i32 *xs, const float *xv, u32 dw, int opaque, float *o) {
  const v128_t one_alpha = wasm_f32x4_make(0.0f, 0.0f, 0.0f, 1.0f);
  const v128_t rgb_mask = wasm_i32x4_make(-1, -1, -1, 0);
  for (u32 x = 0; x < dw; x++, o += 4) {
    const u8 *p = row + (u32)xs[x] * 4u;
    const float *w = xv + xs[2 * dw + x];
    i32 count = xs[dw + x];
    v128_t sum = wasm_f32x4_splat(0.0f);
    if (opaque) {
      for (i32 k = 0; k < count; k++, p += 4) {
        v128_t px = wasm_f32x4_convert_u32x4(pixel4(p));
        sum = wasm_f32x4_add(sum, wasm_f32x4_mul(px, wasm_f32x4_splat(w[k])));
      }
    } else {
      for (i32 k = 0; k < count; k++, p += 4) {
        /* Colours weighted by alpha (premultiplied), alpha by the weight alone. */
        v128_t px = wasm_f32x4_convert_u32x4(pixel4(p));
        v128_t weight = wasm_f32x4_splat((float)p[3] * w[k]);
        v128_t straight = wasm_v128_or(wasm_v128_and(px, rgb_mask), one_alpha);
        sum = wasm_f32x4_add(sum, wasm_f32x4_mul(straight, weight));
      }
    }
    wasm_v128_store(o, sum);
  }
}

/* rgba_resize's vertical pass for one output row: `count` rows of the horizontal pass from `base`, weighted by w. */
__attribute__((noinline)) static void resize_row_down(const float *base, const float *w, i32 count, u32 stride, int opaque, u8 *out_row) {
  const v128_t rgb_mask = wasm_i32x4_make(-1, -1, -1, 0);
  const v128_t zero = wasm_f32x4_splat(0.0f);
  const v128_t top = wasm_f32x4_splat(255.0f);
  const v128_t half = wasm_f32x4_splat(0.5f);
  for (u32 x = 0; x < stride; x += 4) {
    const float *p = base + x;
    v128_t sum = wasm_f32x4_splat(0.0f);
    for (i32 k = 0; k < count; k++, p += stride) sum = wasm_f32x4_add(sum, wasm_f32x4_mul(wasm_v128_load(p), wasm_f32x4_splat(w[k])));
    if (opaque) {
      sum = wasm_f32x4_replace_lane(sum, 3, 255.0f);
    } else {
      float aa = wasm_f32x4_extract_lane(sum, 3);
      /* The colour sums are alpha-weighted: divide by the alpha to get straight colour. */
      if (aa > 0) sum = wasm_v128_or(wasm_v128_and(wasm_f32x4_mul(sum, wasm_f32x4_splat(1.0f / aa)), rgb_mask), wasm_v128_andnot(sum, rgb_mask));
    }
    v128_t clamped = wasm_f32x4_add(wasm_f32x4_min(wasm_f32x4_max(sum, zero), top), half);
    v128_t ints = wasm_i32x4_trunc_sat_f32x4(clamped);
    v128_t bytes = wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(ints, ints), wasm_i16x8_narrow_i32x4(ints, ints));
    wasm_v128_store32_lane(out_row + x, bytes, 0);
  }
}

/* Output rows are made in bands of the float path, so its horizontal pass buffer stays small (memory per render). */
#define RESIZE_BAND 64u

/*
 * Starts resampling the region (rx, ry, rw, rh) of an RGBA picture to
 * dw x dh: the taps of both axes and the buffers, in scratch memory. With
 * `opaque` the alpha channel is ignored (set to 255); otherwise colours are
 * averaged premultiplied so transparent edges do not darken. resize_rows then
 * makes any rows of the result, in any number of calls, without allocating:
 * a caller can take the result a band at a time, with no buffer for the whole.
 */
__attribute__((export_name("resize_begin"))) void resize_begin(const u8 *src, u32 sw, u32 sh, float rx, float ry, float rw, float rh, u32 dw, u32 dh, int opaque) {
  i32 rows_start = (i32)floorf_(ry);
  i32 rows_end = (i32)ceilf_(ry + rh);
  if (rows_start < 0) rows_start = 0;
  if (rows_end > (i32)sh) rows_end = (i32)sh;
  u32 rows = (u32)(rows_end - rows_start);
  float sx = rw / (float)dw > 1.0f ? rw / (float)dw : 1.0f;
  float sy = rh / (float)dh > 1.0f ? rh / (float)dh : 1.0f;
  u32 max_x_taps = (u32)(2.0f * sx + 3.0f);
  u32 max_y_taps = (u32)(2.0f * sy + 3.0f);
  rz.src = src;
  rz.sw = sw;
  rz.rows_start = rows_start;
  rz.rows = rows;
  rz.dw = dw;
  rz.dh = dh;
  rz.opaque = opaque;
  rz.xs = (i32 *)scratch_alloc(dw * 12u);
  rz.xv = (float *)scratch_alloc(dw * max_x_taps * 4u);
  rz.ys = (i32 *)scratch_alloc(dh * 12u);
  rz.yv = (float *)scratch_alloc(dh * max_y_taps * 4u);
  axis_weights(rx, rw, dw, sw, rz.xs, rz.xs + dw, rz.xs + 2 * dw, rz.xv);
  axis_weights(ry - (float)rows_start, rh, dh, rows, rz.ys, rz.ys + dh, rz.ys + 2 * dh, rz.yv);
  rz.enlarge = opaque && sx <= 1.0f && sy <= 1.0f && rw <= (float)dw && rh <= (float)dh;
  if (rz.enlarge) {
    enlarge_setup();
    return;
  }
  u32 band_rows_max = (u32)(RESIZE_BAND * sy + 2.0f * sy + 4.0f);
  if (band_rows_max > rows) band_rows_max = rows;
  rz.band_rows_max = band_rows_max;
  rz.horizontal = (float *)scratch_alloc(dw * band_rows_max * 16u);
}

/* Rows y0..y1 of the resize that resize_begin started, row y at dst + (y - y0) * dw * 4. Each row is the same
 * whichever calls make it. */
__attribute__((export_name("resize_rows"))) void resize_rows(u32 y0, u32 y1, u8 *dst) {
  if (y1 > rz.dh) y1 = rz.dh;
  if (rz.enlarge) {
    enlarge_rows(y0, y1, dst);
    return;
  }
  u32 dh = rz.dh, stride = rz.dw * 4u;
  const i32 *ys = rz.ys;
  for (u32 b0 = y0; b0 < y1; b0 += RESIZE_BAND) {
    u32 b1 = b0 + RESIZE_BAND < y1 ? b0 + RESIZE_BAND : y1;
    u32 first_row = (u32)ys[b0];
    u32 last_row = (u32)(ys[b1 - 1] + ys[dh + b1 - 1]);
    if (last_row > rz.rows) last_row = rz.rows;
    for (u32 r = first_row; r < last_row; r++)
      resize_row_across(rz.src + ((u32)rz.rows_start + r) * rz.sw * 4u, rz.xs, rz.xv, rz.dw, rz.opaque, rz.horizontal + (r - first_row) * stride);
    for (u32 y = b0; y < b1; y++)
      resize_row_down(rz.horizontal + ((u32)ys[y] - first_row) * stride, rz.yv + ys[2 * dh + y], ys[dh + y], stride, rz.opaque, dst + (y - y0) * stride);
  }
}

/* The whole resize into dst (dw x dh): resize_begin, then every row. */
__attribute__((export_name("rgba_resize"))) void rgba_resize(const u8 *src, u32 sw, u32 sh, float rx, float ry, float rw, float rh, u8 *dst, u32 dw, u32 dh, int opaque) {
  resize_begin(src, sw, sh, rx, ry, rw, rh, dw, dh, opaque);
  resize_rows(0, dh, dst);
}

/* ------------------------------------------------------------ shadows */

/* One box pass of `radius` along rows (step 1) or columns (step width), from src to dst. */
static void box_pass(const u8 *src, u8 *dst, u32 lines, u32 length, u32 line_step, u32 step, u32 radius) {
  u32 window = radius * 2u + 1u;
  for (u32 line = 0; line < lines; line++) {
    const u8 *in = src + line * line_step;
    u8 *o = dst + line * line_step;
    u32 sum = 0;
    /* The window starts centred on the first sample, with zeros beyond the edges. */
    for (u32 i = 0; i <= radius && i < length; i++) sum += in[i * step];
    for (u32 i = 0; i < length; i++) {
      o[i * step] = (u8)((sum + window / 2u) / window);
      u32 add = i + radius + 1u;
      if (add < length) sum += in[add * step];
      if (i >= radius) sum -= in[(i - radius) * step];
    }
  }
}

/* Blurs a width x height alpha plane in place with three box passes each way (about a Gaussian of the given radius). */
__attribute__((export_name("alpha_box_blur"))) void alpha_box_blur(u8 *alpha, u32 width, u32 height, u32 radius) {
  if (radius == 0 || width == 0 || height == 0) return;
  u8 *tmp = scratch_alloc(width * height);
  for (int pass = 0; pass < 3; pass++) {
    box_pass(alpha, tmp, height, width, width, 1u, radius);
    box_pass(tmp, alpha, width, height, 1u, width, radius);
  }
}

/* ------------------------------------------------------------ outlines */

static float floor_f(float x) { return __builtin_floorf(x); }
static float ceil_f(float x) { return __builtin_ceilf(x); }

/* Deposits one line's signed area into the accumulation rows (stride floats each). */
static void deposit_line(float *acc, u32 stride, u32 height, float ax, float ay, float bx, float by) {
  if (ay == by) return;
  float dir = 1.0f;
  float p0x = ax, p0y = ay, p1x = bx, p1y = by;
  if (ay > by) {
    dir = -1.0f;
    p0x = bx; p0y = by; p1x = ax; p1y = ay;
  }
  float dxdy = (p1x - p0x) / (p1y - p0y);
  float x = p0x;
  i32 y_start = (i32)floor_f(p0y);
  if (y_start < 0) {
    x -= p0y * dxdy;
    y_start = 0;
  }
  i32 y_end = (i32)ceil_f(p1y);
  if (y_end > (i32)height) y_end = (i32)height;
  for (i32 y = y_start; y < y_end; y++) {
    float *line = acc + (u32)y * stride;
    float top = (float)y > p0y ? (float)y : p0y;
    float bottom = (float)(y + 1) < p1y ? (float)(y + 1) : p1y;
    float dy = bottom - top;
    float xnext = x + dxdy * dy;
    float d = dy * dir;
    float xa = x < xnext ? x : xnext;
    float xb = x < xnext ? xnext : x;
    float xa_floor = floor_f(xa);
    i32 xai = xa_floor < 0 ? 0 : (i32)xa_floor;
    i32 xb_ceil = (i32)ceil_f(xb);
    if (xb_ceil <= xai + 1) {
      float xmf = 0.5f * (x + xnext) - (float)xai;
      line[xai] += d - d * xmf;
      line[xai + 1] += d * xmf;
    } else {
      float s = 1.0f / (xb - xa);
      float xaf = xa - xa_floor;
      float a0 = 0.5f * s * (1.0f - xaf) * (1.0f - xaf);
      float xbf = xb - (float)xb_ceil + 1.0f;
      float am = 0.5f * s * xbf * xbf;
      line[xai] += d * a0;
      if (xb_ceil == xai + 2) {
        line[xai + 1] += d * (1.0f - a0 - am);
      } else {
        float a1 = s * (1.5f - xaf);
        line[xai + 1] += d * (a1 - a0);
        for (i32 xi = xai + 2; xi < xb_ceil - 1; xi++) line[xi] += d * s;
        float a2 = a1 + (float)(xb_ceil - xai - 3) * s;
        line[xb_ceil - 1] += d * (1.0f - a2 - am);
      }
      line[xb_ceil] += d * am;
    }
    x = xnext;
  }
}

/*
 * Coverage (0-1) of each pixel of a width x height box whose top left is at
 * (ox, oy), by the closed outline `lines` (x0, y0, x1, y1 each, `count`
 * floats in all); written to `out` (width x height floats). Uses scratch.
 */
__attribute__((export_name("shape_coverage"))) void shape_coverage(const float *lines, u32 count, float ox, float oy, u32 width, u32 height, float *out) {
  u32 stride = width + 2u;
  float *acc = (float *)scratch_alloc(stride * height * 4u);
  for (u32 i = 0; i < stride * height; i++) acc[i] = 0.0f;
  for (u32 k = 0; k + 3 < count; k += 4) deposit_line(acc, stride, height, lines[k] - ox, lines[k + 1] - oy, lines[k + 2] - ox, lines[k + 3] - oy);
  for (u32 row = 0; row < height; row++) {
    const float *from = acc + row * stride;
    float *to = out + row * width;
    float sum = 0.0f;
    for (u32 col = 0; col < width; col++) {
      sum += from[col];
      float a = sum < 0 ? -sum : sum;
      to[col] = a > 1.0f ? 1.0f : a;
    }
  }
}

/* ------------------------------------------------------------ tables */

static const u8 ZIGZAG[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

static const u8 BASE_LUMA_Q[64] = {
    16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
    14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
    18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};

static const u8 BASE_CHROMA_Q[64] = {
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99,
    99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};

static const u8 DC_LUMA_BITS[17] = {0, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0};
static const u8 DC_LUMA_VALS[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
static const u8 DC_CHROMA_BITS[17] = {0, 0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0};
static const u8 DC_CHROMA_VALS[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
static const u8 AC_LUMA_BITS[17] = {0, 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d};
static const u8 AC_LUMA_VALS[162] = {
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14,
    0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09,
    0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a,
    0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65,
    0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
    0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
    0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca,
    0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea,
    0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa};
static const u8 AC_CHROMA_BITS[17] = {0, 0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77};
static const u8 AC_CHROMA_VALS[162] = {
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32,
    0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16,
    0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39,
    0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64,
    0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86,
    0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
    0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8,
    0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9,
    0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa};

/* Huffman codes per symbol: code and length. */
typedef struct {
  u16 code[256];
  u8 size[256];
} Huffman;

static Huffman dc_luma, ac_luma, dc_chroma, ac_chroma;

static void build_huffman(Huffman *h, const u8 *bits, const u8 *vals) {
  u32 code = 0, k = 0;
  for (u32 length = 1; length <= 16; length++) {
    for (u32 i = 0; i < bits[length]; i++) {
      h->code[vals[k]] = (u16)code;
      h->size[vals[k]] = (u8)length;
      code++;
      k++;
    }
    code <<= 1;
  }
}

/* Quantisation tables in natural order, and the float divisors folding in the AAN scale factors. */
static u8 q_luma[64], q_chroma[64];
/* Transposed (column-major), as the SIMD DCT leaves its output. */
static float div_luma[64], div_chroma[64];

static void build_quant(int quality) {
  static const float AAN[8] = {1.0f, 1.387039845f, 1.306562965f, 1.175875602f, 1.0f, 0.785694958f, 0.541196100f, 0.275899379f};
  if (quality < 1) quality = 1;
  if (quality > 100) quality = 100;
  int scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
  for (int i = 0; i < 64; i++) {
    int l = (BASE_LUMA_Q[i] * scale + 50) / 100;
    int c = (BASE_CHROMA_Q[i] * scale + 50) / 100;
    q_luma[i] = (u8)(l < 1 ? 1 : l > 255 ? 255 : l);
    q_chroma[i] = (u8)(c < 1 ? 1 : c > 255 ? 255 : c);
  }
  for (int row = 0; row < 8; row++) {
    for (int col = 0; col < 8; col++) {
      int i = row * 8 + col;
      div_luma[col * 8 + row] = 1.0f / (q_luma[i] * AAN[row] * AAN[col] * 8.0f);
      div_chroma[col * 8 + row] = 1.0f / (q_chroma[i] * AAN[row] * AAN[col] * 8.0f);
    }
  }
}

/* ------------------------------------------------------------ output */

static u8 *out;
static u64 bit_buffer;
static int bit_count;

static void put_byte(u8 b) { *out++ = b; }
static void put_word(u16 w) {
  put_byte((u8)(w >> 8));
  put_byte((u8)w);
}

/* Writes whole bytes once 32 bits are waiting (with byte stuffing after 0xFF). */
static inline void put_bits(u32 code, int size) {
  bit_buffer = (bit_buffer << size) | (code & ((1u << size) - 1u));
  bit_count += size;
  if (bit_count >= 32) {
    u32 word = (u32)(bit_buffer >> (bit_count - 32));
    bit_count -= 32;
    u32 inverse = ~word;
    if (((inverse - 0x01010101u) & ~inverse & 0x80808080u) == 0) {
      /* No 0xFF byte among the four: write them as they are. */
      out[0] = (u8)(word >> 24);
      out[1] = (u8)(word >> 16);
      out[2] = (u8)(word >> 8);
      out[3] = (u8)word;
      out += 4;
    } else {
      for (int shift = 24; shift >= 0; shift -= 8) {
        u8 b = (u8)(word >> shift);
        *out++ = b;
        if (b == 0xff) *out++ = 0;
      }
    }
  }
}

static void flush_bits(void) {
  while (bit_count >= 8) {
    u8 b = (u8)(bit_buffer >> (bit_count - 8));
    *out++ = b;
    if (b == 0xff) *out++ = 0;
    bit_count -= 8;
  }
  if (bit_count > 0) {
    /* Pad the last byte with ones. */
    u8 b = (u8)((bit_buffer << (8 - bit_count)) | ((1u << (8 - bit_count)) - 1u));
    *out++ = b;
    if (b == 0xff) *out++ = 0;
  }
  bit_buffer = 0;
  bit_count = 0;
}

static void write_headers(u32 width, u32 height) {
  /* SOI, JFIF APP0 */
  put_word(0xffd8);
  put_word(0xffe0);
  put_word(16);
  put_byte('J'); put_byte('F'); put_byte('I'); put_byte('F'); put_byte(0);
  put_byte(1); put_byte(1); put_byte(0);
  put_word(1); put_word(1);
  put_byte(0); put_byte(0);
  /* DQT: both tables, zigzag order */
  put_word(0xffdb);
  put_word(2 + 2 * 65);
  put_byte(0);
  for (int i = 0; i < 64; i++) put_byte(q_luma[ZIGZAG[i]]);
  put_byte(1);
  for (int i = 0; i < 64; i++) put_byte(q_chroma[ZIGZAG[i]]);
  /* SOF0: 8-bit, 3 components, Y 2x2, Cb and Cr 1x1 */
  put_word(0xffc0);
  put_word(17);
  put_byte(8);
  put_word((u16)height);
  put_word((u16)width);
  put_byte(3);
  put_byte(1); put_byte(0x22); put_byte(0);
  put_byte(2); put_byte(0x11); put_byte(1);
  put_byte(3); put_byte(0x11); put_byte(1);
  /* DHT: the four standard tables */
  const u8 *bits[4] = {DC_LUMA_BITS, AC_LUMA_BITS, DC_CHROMA_BITS, AC_CHROMA_BITS};
  const u8 *vals[4] = {DC_LUMA_VALS, AC_LUMA_VALS, DC_CHROMA_VALS, AC_CHROMA_VALS};
  const u8 ids[4] = {0x00, 0x10, 0x01, 0x11};
  put_word(0xffc4);
  u32 length = 2;
  for (int t = 0; t < 4; t++) {
    u32 n = 0;
    for (int i = 1; i <= 16; i++) n += bits[t][i];
    length += 1 + 16 + n;
  }
  put_word((u16)length);
  for (int t = 0; t < 4; t++) {
    u32 n = 0;
    put_byte(ids[t]);
    for (int i = 1; i <= 16; i++) {
      put_byte(bits[t][i]);
      n += bits[t][i];
    }
    for (u32 i = 0; i < n; i++) put_byte(vals[t][i]);
  }
  /* SOS */
  put_word(0xffda);
  put_word(12);
  put_byte(3);
  put_byte(1); put_byte(0x00);
  put_byte(2); put_byte(0x11);
  put_byte(3); put_byte(0x11);
  put_byte(0); put_byte(63); put_byte(0);
}

/* ------------------------------------------------------------ DCT and entropy coding */

/*
 * Forward DCT (Arai, Agui and Nakajima) of one 8x8 block held as 16 vectors
 * (row r, columns 0-3 in v[2r], 4-7 in v[2r+1]): the column pass runs on four
 * columns at once; the block is transposed and the same pass does the rows.
 * The output is left transposed (column-major); build_quant's divisors and
 * ZIGZAG_T match. Scaled as build_quant expects.
 */
static inline void fdct_pass(v128_t *p0, v128_t *p1, v128_t *p2, v128_t *p3, v128_t *p4, v128_t *p5, v128_t *p6, v128_t *p7) {
  const v128_t c707 = wasm_f32x4_splat(0.707106781f);
  const v128_t c382 = wasm_f32x4_splat(0.382683433f);
  const v128_t c541 = wasm_f32x4_splat(0.541196100f);
  const v128_t c1306 = wasm_f32x4_splat(1.306562965f);
  v128_t t0 = wasm_f32x4_add(*p0, *p7), t7 = wasm_f32x4_sub(*p0, *p7);
  v128_t t1 = wasm_f32x4_add(*p1, *p6), t6 = wasm_f32x4_sub(*p1, *p6);
  v128_t t2 = wasm_f32x4_add(*p2, *p5), t5 = wasm_f32x4_sub(*p2, *p5);
  v128_t t3 = wasm_f32x4_add(*p3, *p4), t4 = wasm_f32x4_sub(*p3, *p4);
  v128_t t10 = wasm_f32x4_add(t0, t3), t13 = wasm_f32x4_sub(t0, t3);
  v128_t t11 = wasm_f32x4_add(t1, t2), t12 = wasm_f32x4_sub(t1, t2);
  *p0 = wasm_f32x4_add(t10, t11);
  *p4 = wasm_f32x4_sub(t10, t11);
  v128_t z1 = wasm_f32x4_mul(wasm_f32x4_add(t12, t13), c707);
  *p2 = wasm_f32x4_add(t13, z1);
  *p6 = wasm_f32x4_sub(t13, z1);
  t10 = wasm_f32x4_add(t4, t5);
  t11 = wasm_f32x4_add(t5, t6);
  t12 = wasm_f32x4_add(t6, t7);
  v128_t z5 = wasm_f32x4_mul(wasm_f32x4_sub(t10, t12), c382);
  v128_t z2 = wasm_f32x4_add(wasm_f32x4_mul(c541, t10), z5);
  v128_t z4 = wasm_f32x4_add(wasm_f32x4_mul(c1306, t12), z5);
  v128_t z3 = wasm_f32x4_mul(t11, c707);
  v128_t z11 = wasm_f32x4_add(t7, z3), z13 = wasm_f32x4_sub(t7, z3);
  *p5 = wasm_f32x4_add(z13, z2);
  *p3 = wasm_f32x4_sub(z13, z2);
  *p1 = wasm_f32x4_add(z11, z4);
  *p7 = wasm_f32x4_sub(z11, z4);
}

static inline void transpose4(v128_t *a, v128_t *b, v128_t *c, v128_t *d) {
  v128_t t0 = wasm_i32x4_shuffle(*a, *b, 0, 4, 1, 5);
  v128_t t1 = wasm_i32x4_shuffle(*a, *b, 2, 6, 3, 7);
  v128_t t2 = wasm_i32x4_shuffle(*c, *d, 0, 4, 1, 5);
  v128_t t3 = wasm_i32x4_shuffle(*c, *d, 2, 6, 3, 7);
  *a = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  *b = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  *c = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  *d = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

static void fdct(float *d) {
  v128_t v[16];
  for (int i = 0; i < 16; i++) v[i] = wasm_v128_load(d + i * 4);
  /* Columns 0-3 and 4-7. */
  fdct_pass(&v[0], &v[2], &v[4], &v[6], &v[8], &v[10], &v[12], &v[14]);
  fdct_pass(&v[1], &v[3], &v[5], &v[7], &v[9], &v[11], &v[13], &v[15]);
  /* Transpose: quadrants (rows 0-3 | 4-7) x (columns 0-3 | 4-7). */
  transpose4(&v[0], &v[2], &v[4], &v[6]);
  transpose4(&v[9], &v[11], &v[13], &v[15]);
  transpose4(&v[1], &v[3], &v[5], &v[7]);
  transpose4(&v[8], &v[10], &v[12], &v[14]);
  for (int i = 0; i < 4; i++) {
    v128_t t = v[2 * i + 1];
    v[2 * i + 1] = v[2 * i + 8];
    v[2 * i + 8] = t;
  }
  fdct_pass(&v[0], &v[2], &v[4], &v[6], &v[8], &v[10], &v[12], &v[14]);
  fdct_pass(&v[1], &v[3], &v[5], &v[7], &v[9], &v[11], &v[13], &v[15]);
  for (int i = 0; i < 16; i++) wasm_v128_store(d + i * 4, v[i]);
}

/* ZIGZAG in the transposed (column-major) order the DCT leaves. */
static u8 ZIGZAG_T[64];

static int category(int v) {
  if (v < 0) v = -v;
  return v == 0 ? 0 : 32 - __builtin_clz((u32)v);
}

/* Transforms, quantises and entropy-codes one 8x8 block; answers its DC value for the next block's prediction. */
static int encode_block(float *block, const float *divisors, const Huffman *dc, const Huffman *ac, int previous_dc) {
  fdct(block);
  int natural[64];
  const v128_t half = wasm_f32x4_splat(0.5f);
  const v128_t sign = wasm_i32x4_splat((int)0x80000000);
  for (int i = 0; i < 64; i += 4) {
    v128_t v = wasm_f32x4_mul(wasm_v128_load(block + i), wasm_v128_load(divisors + i));
    /* Round half away from zero: add 0.5 with the value's sign, then truncate. */
    v = wasm_f32x4_add(v, wasm_v128_or(half, wasm_v128_and(v, sign)));
    wasm_v128_store(natural + i, wasm_i32x4_trunc_sat_f32x4(v));
  }
  int q[64];
  for (int i = 0; i < 64; i++) q[i] = natural[ZIGZAG_T[i]];
  int diff = q[0] - previous_dc;
  int size = category(diff);
  put_bits(dc->code[size], dc->size[size]);
  if (size) put_bits((u32)(diff < 0 ? diff - 1 : diff), size);
  int last = 63;
  while (last > 0 && q[last] == 0) last--;
  int run = 0;
  for (int i = 1; i <= last; i++) {
    if (q[i] == 0) {
      run++;
      continue;
    }
    while (run >= 16) {
      put_bits(ac->code[0xf0], ac->size[0xf0]);
      run -= 16;
    }
    int s = category(q[i]);
    int symbol = (run << 4) | s;
    put_bits(ac->code[symbol], ac->size[symbol]);
    put_bits((u32)(q[i] < 0 ? q[i] - 1 : q[i]), s);
    run = 0;
  }
  if (last < 63) put_bits(ac->code[0x00], ac->size[0x00]);
  return q[0];
}

/* Four RGBA pixels' red, green and blue as float vectors. */
static inline void load_rgb4(const u8 *p, v128_t *r, v128_t *g, v128_t *b) {
  v128_t px = wasm_v128_load(p);
  const v128_t mask = wasm_i32x4_splat(0xff);
  *r = wasm_f32x4_convert_i32x4(wasm_v128_and(px, mask));
  *g = wasm_f32x4_convert_i32x4(wasm_v128_and(wasm_u32x4_shr(px, 8), mask));
  *b = wasm_f32x4_convert_i32x4(wasm_v128_and(wasm_u32x4_shr(px, 16), mask));
}

static inline v128_t luma4(v128_t r, v128_t g, v128_t b) {
  v128_t y = wasm_f32x4_mul(r, wasm_f32x4_splat(0.299f));
  y = wasm_f32x4_add(y, wasm_f32x4_mul(g, wasm_f32x4_splat(0.587f)));
  y = wasm_f32x4_add(y, wasm_f32x4_mul(b, wasm_f32x4_splat(0.114f)));
  return wasm_f32x4_sub(y, wasm_f32x4_splat(128.0f));
}

/* Sums of horizontal pairs of two vectors' lanes: (a0+a1, a2+a3, b0+b1, b2+b3). */
static inline v128_t pair_sums(v128_t a, v128_t b) {
  return wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 2, 4, 6), wasm_i32x4_shuffle(a, b, 1, 3, 5, 7));
}

/* Colour conversion of a whole 16x16 MCU inside the picture, four pixels at a time. */
static void mcu_colours(const u8 *origin, u32 width, float y[4][64], float *cb, float *cr) {
  const v128_t quarter = wasm_f32x4_splat(0.25f);
  for (u32 py = 0; py < 16; py += 2) {
    const u8 *row0 = origin + py * width * 4;
    const u8 *row1 = row0 + width * 4;
    for (u32 px = 0; px < 16; px += 8) {
      v128_t r00, g00, b00, r01, g01, b01, r10, g10, b10, r11, g11, b11;
      load_rgb4(row0 + px * 4, &r00, &g00, &b00);
      load_rgb4(row0 + px * 4 + 16, &r01, &g01, &b01);
      load_rgb4(row1 + px * 4, &r10, &g10, &b10);
      load_rgb4(row1 + px * 4 + 16, &r11, &g11, &b11);
      float *block0 = y[(py >> 3) * 2 + (px >> 3)];
      u32 at0 = (py & 7) * 8;
      wasm_v128_store(block0 + at0, luma4(r00, g00, b00));
      wasm_v128_store(block0 + at0 + 4, luma4(r01, g01, b01));
      wasm_v128_store(block0 + at0 + 8, luma4(r10, g10, b10));
      wasm_v128_store(block0 + at0 + 12, luma4(r11, g11, b11));
      v128_t rs = wasm_f32x4_mul(pair_sums(wasm_f32x4_add(r00, r10), wasm_f32x4_add(r01, r11)), quarter);
      v128_t gs = wasm_f32x4_mul(pair_sums(wasm_f32x4_add(g00, g10), wasm_f32x4_add(g01, g11)), quarter);
      v128_t bs = wasm_f32x4_mul(pair_sums(wasm_f32x4_add(b00, b10), wasm_f32x4_add(b01, b11)), quarter);
      v128_t vcb = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(rs, wasm_f32x4_splat(-0.168736f)), wasm_f32x4_mul(gs, wasm_f32x4_splat(-0.331264f))), wasm_f32x4_mul(bs, wasm_f32x4_splat(0.5f)));
      v128_t vcr = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(rs, wasm_f32x4_splat(0.5f)), wasm_f32x4_mul(gs, wasm_f32x4_splat(-0.418688f))), wasm_f32x4_mul(bs, wasm_f32x4_splat(-0.081312f)));
      u32 c = (py >> 1) * 8 + (px >> 1);
      wasm_v128_store(cb + c, vcb);
      wasm_v128_store(cr + c, vcr);
    }
  }
}

static int tables_ready;

/* One row of 16x16 MCUs. A function of its own, called once a row, so that V8 moves it to optimised code after
 * the first rows (a WebAssembly call in progress stays in the code it started in). dcs: the three DC predictions. */
__attribute__((noinline)) static void encode_mcu_row(u32 my, u32 width, u32 height, int *dcs) {
  int dc_y = dcs[0], dc_cb = dcs[1], dc_cr = dcs[2];
  float y[4][64] __attribute__((aligned(16))), cb[64] __attribute__((aligned(16))), cr[64] __attribute__((aligned(16)));
  for (u32 mx = 0; mx < width; mx += 16) {
    if (my + 16 <= height && mx + 16 <= width) {
      mcu_colours(input_buffer + (my * width + mx) * 4, width, y, cb, cr);
      for (int k = 0; k < 4; k++) dc_y = encode_block(y[k], div_luma, &dc_luma, &ac_luma, dc_y);
      dc_cb = encode_block(cb, div_chroma, &dc_chroma, &ac_chroma, dc_cb);
      dc_cr = encode_block(cr, div_chroma, &dc_chroma, &ac_chroma, dc_cr);
      continue;
    }
    /* Colour conversion of one 16x16 MCU (edges repeat the last row and column), chroma averaged over 2x2. */
    for (int i = 0; i < 64; i++) cb[i] = cr[i] = 0;
    for (u32 py = 0; py < 16; py++) {
      u32 sy = my + py < height ? my + py : height - 1;
      const u8 *row = input_buffer + sy * width * 4;
      for (u32 px = 0; px < 16; px++) {
        u32 sx = mx + px < width ? mx + px : width - 1;
        const u8 *p = row + sx * 4;
        float r = p[0], g = p[1], b = p[2];
        y[(py >> 3) * 2 + (px >> 3)][(py & 7) * 8 + (px & 7)] = 0.299f * r + 0.587f * g + 0.114f * b - 128.0f;
        int c = (py >> 1) * 8 + (px >> 1);
        cb[c] += -0.168736f * r - 0.331264f * g + 0.5f * b;
        cr[c] += 0.5f * r - 0.418688f * g - 0.081312f * b;
      }
    }
    for (int i = 0; i < 64; i++) {
      cb[i] *= 0.25f;
      cr[i] *= 0.25f;
    }
    for (int k = 0; k < 4; k++) dc_y = encode_block(y[k], div_luma, &dc_luma, &ac_luma, dc_y);
    dc_cb = encode_block(cb, div_chroma, &dc_chroma, &ac_chroma, dc_cb);
    dc_cr = encode_block(cr, div_chroma, &dc_chroma, &ac_chroma, dc_cr);
  }
  dcs[0] = dc_y;
  dcs[1] = dc_cb;
  dcs[2] = dc_cr;
}

__attribute__((export_name("jpeg_encode"))) u32 jpeg_encode(u32 width, u32 height, int quality) {
  if (!tables_ready) {
    build_huffman(&dc_luma, DC_LUMA_BITS, DC_LUMA_VALS);
    build_huffman(&ac_luma, AC_LUMA_BITS, AC_LUMA_VALS);
    build_huffman(&dc_chroma, DC_CHROMA_BITS, DC_CHROMA_VALS);
    build_huffman(&ac_chroma, AC_CHROMA_BITS, AC_CHROMA_VALS);
    for (int i = 0; i < 64; i++) ZIGZAG_T[i] = (u8)((ZIGZAG[i] & 7) * 8 + (ZIGZAG[i] >> 3));
    tables_ready = 1;
  }
  build_quant(quality);
  out = output_buffer;
  bit_buffer = 0;
  bit_count = 0;
  write_headers(width, height);

  int dcs[3] = {0, 0, 0};
  for (u32 my = 0; my < height; my += 16) encode_mcu_row(my, width, height, dcs);
  flush_bits();
  put_word(0xffd9);
  return (u32)(out - output_buffer);
}

/* ------------------------------------------------------------ JPEG decoding */

/*
 * 5. A baseline JPEG decoder (sequential Huffman, 8-bit, one or three
 *    components, any sampling up to 2x2, restart intervals), so that a
 *    picture is decoded by this small module rather than by photon, whose
 *    first call in a fresh isolate costs more than the decoding itself.
 *    The integer IDCT, the "fancy" (triangle) chroma upsampling and the
 *    fixed-point colour conversion are those of stb_image and libjpeg, which
 *    photon's decoder (the jpeg-decoder crate) follows too. Anything else
 *    (progressive, arithmetic, 12-bit, CMYK, an Adobe RGB transform, a damaged
 *    or cut-short file) answers 0 and the caller uses photon as before.
 *    jpeg_decode(bytes, length) -> RGBA pixels in scratch memory, or 0;
 *    jpeg_decoded_width() / jpeg_decoded_height().
 */

#define FAST_BITS 9

typedef struct {
  u8 fast[1 << FAST_BITS];
  u16 code[256];
  u8 values[256];
  u8 size[257];
  u32 maxcode[18];
  int delta[17];
  int ready;
} DHuffman;

typedef struct {
  int id, h, v, tq;
  int hd, ha;
  int dc_pred;
  u32 bw, bh;   /* blocks across and down, padded to whole MCUs */
  u32 w, h2;    /* the component's own width and height in samples */
  u8 *plane;    /* bw * 8 wide, bh * 8 high */
} DComponent;

static DHuffman dhuff_dc[4], dhuff_ac[4];
static u16 dquant[4][64]; /* in zigzag order */
static DComponent dcomp[3];
static int dcomp_count;
static u32 dwidth, dheight, restart_interval;
static int hmax, vmax, adobe_transform;
static const u8 *dsrc, *dend;
static u32 code_buffer;
static int code_bits, dmarker, dnomore, doverrun;

static int build_dhuffman(DHuffman *h, const u8 *counts) {
  int k = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < counts[i]; j++) {
      if (k >= 256) return 0;
      h->size[k++] = (u8)(i + 1);
    }
  h->size[k] = 0;
  u32 code = 0;
  k = 0;
  for (int j = 1; j <= 16; j++) {
    h->delta[j] = k - (int)code;
    if (h->size[k] == j) {
      while (h->size[k] == j) h->code[k++] = (u16)code++;
      if (code - 1 >= (1u << j)) return 0;
    }
    h->maxcode[j] = code << (16 - j);
    code <<= 1;
  }
  h->maxcode[17] = 0xffffffffu;
  for (int i = 0; i < (1 << FAST_BITS); i++) h->fast[i] = 255;
  for (int i = 0; i < k; i++) {
    int s = h->size[i];
    if (s <= FAST_BITS) {
      int c = h->code[i] << (FAST_BITS - s);
      int m = 1 << (FAST_BITS - s);
      for (int j = 0; j < m; j++) h->fast[c + j] = (u8)i;
    }
  }
  h->ready = 1;
  return 1;
}

static void fill_bits(void) {
  do {
    u32 b = 0;
    if (!dnomore && dsrc >= dend) doverrun = 1; /* the file ends inside the scan: cut short */
    if (!dnomore && dsrc < dend) {
      b = *dsrc++;
      if (b == 0xff) {
        u32 c = dsrc < dend ? *dsrc++ : 0xd9;
        while (c == 0xff && dsrc < dend) c = *dsrc++;
        if (c != 0) {
          dmarker = (int)c;
          dnomore = 1;
          return;
        }
      }
    }
    code_buffer |= b << (24 - code_bits);
    code_bits += 8;
  } while (code_bits <= 24);
}

static int decode_symbol(const DHuffman *h) {
  if (code_bits < 16) fill_bits();
  int k = h->fast[code_buffer >> (32 - FAST_BITS)];
  if (k < 255) {
    int s = h->size[k];
    if (s > code_bits) return -1;
    code_buffer <<= s;
    code_bits -= s;
    return h->values[k];
  }
  u32 temp = code_buffer >> 16;
  for (k = FAST_BITS + 1;; k++)
    if (temp < h->maxcode[k]) break;
  if (k == 17 || k > code_bits) return -1;
  int c = (int)((code_buffer >> (32 - k)) & ((1u << k) - 1)) + h->delta[k];
  if (c < 0 || c > 255) return -1;
  code_bits -= k;
  code_buffer <<= k;
  return h->values[c];
}

static int receive_extend(int n) {
  if (n == 0) return 0;
  if (code_bits < n) fill_bits();
  int v = (int)(code_buffer >> (32 - n));
  code_buffer <<= n;
  code_bits -= n;
  return v < (1 << (n - 1)) ? v - (1 << n) + 1 : v;
}

#define F2F(x) ((int)((x) * 4096 + 0.5))
#define FSH(x) ((x) * 4096)
#define IDCT_1D(s0, s1, s2, s3, s4, s5, s6, s7)                   \
  int t0, t1, t2, t3, p1, p2, p3, p4, p5, x0, x1, x2, x3;         \
  p2 = s2;                                                        \
  p3 = s6;                                                        \
  p1 = (p2 + p3) * F2F(0.5411961f);                               \
  t2 = p1 + p3 * F2F(-1.847759065f);                              \
  t3 = p1 + p2 * F2F(0.765366865f);                               \
  p2 = s0;                                                        \
  p3 = s4;                                                        \
  t0 = FSH(p2 + p3);                                              \
  t1 = FSH(p2 - p3);                                              \
  x0 = t0 + t3;                                                   \
  x3 = t0 - t3;                                                   \
  x1 = t1 + t2;                                                   \
  x2 = t1 - t2;                                                   \
  t0 = s7;                                                        \
  t1 = s5;                                                        \
  t2 = s3;                                                        \
  t3 = s1;                                                        \
  p3 = t0 + t2;                                                   \
  p4 = t1 + t3;                                                   \
  p1 = t0 + t3;                                                   \
  p2 = t1 + t2;                                                   \
  p5 = (p3 + p4) * F2F(1.175875602f);                             \
  t0 = t0 * F2F(0.298631336f);                                    \
  t1 = t1 * F2F(2.053119869f);                                    \
  t2 = t2 * F2F(3.072711026f);                                    \
  t3 = t3 * F2F(1.501321110f);                                    \
  p1 = p5 + p1 * F2F(-0.899976223f);                              \
  p2 = p5 + p2 * F2F(-2.562915447f);                              \
  p3 = p3 * F2F(-1.961570560f);                                   \
  p4 = p4 * F2F(-0.390180644f);                                   \
  t3 += p1 + p4;                                                  \
  t2 += p2 + p3;                                                  \
  t1 += p2 + p4;                                                  \
  t0 += p1 + p3;

static inline u8 clamp_u8(int x) { return (u8)(x < 0 ? 0 : x > 255 ? 255 : x); }

/* IDCT_1D on four columns (or rows) at once: the same 32-bit integer arithmetic, lane by lane. */
#define VC(x) wasm_i32x4_splat(x)
#define VADD wasm_i32x4_add
#define VSUB wasm_i32x4_sub
#define VMUL(a, c) wasm_i32x4_mul((a), VC(F2F(c)))
#define IDCT_1D_V(s0, s1, s2, s3, s4, s5, s6, s7)                                  \
  v128_t t0, t1, t2, t3, p1, p2, p3, p4, p5, x0, x1, x2, x3;                        \
  p2 = s2;                                                                        \
  p3 = s6;                                                                        \
  p1 = VMUL(VADD(p2, p3), 0.5411961f);                                            \
  t2 = VADD(p1, VMUL(p3, -1.847759065f));                                         \
  t3 = VADD(p1, VMUL(p2, 0.765366865f));                                          \
  p2 = s0;                                                                        \
  p3 = s4;                                                                        \
  t0 = wasm_i32x4_shl(VADD(p2, p3), 12);                                          \
  t1 = wasm_i32x4_shl(VSUB(p2, p3), 12);                                          \
  x0 = VADD(t0, t3);                                                              \
  x3 = VSUB(t0, t3);                                                              \
  x1 = VADD(t1, t2);                                                              \
  x2 = VSUB(t1, t2);                                                              \
  t0 = s7;                                                                        \
  t1 = s5;                                                                        \
  t2 = s3;                                                                        \
  t3 = s1;                                                                        \
  p3 = VADD(t0, t2);                                                              \
  p4 = VADD(t1, t3);                                                              \
  p1 = VADD(t0, t3);                                                              \
  p2 = VADD(t1, t2);                                                              \
  p5 = VMUL(VADD(p3, p4), 1.175875602f);                                          \
  t0 = VMUL(t0, 0.298631336f);                                                    \
  t1 = VMUL(t1, 2.053119869f);                                                    \
  t2 = VMUL(t2, 3.072711026f);                                                    \
  t3 = VMUL(t3, 1.501321110f);                                                    \
  p1 = VADD(p5, VMUL(p1, -0.899976223f));                                         \
  p2 = VADD(p5, VMUL(p2, -2.562915447f));                                         \
  p3 = VMUL(p3, -1.961570560f);                                                   \
  p4 = VMUL(p4, -0.390180644f);                                                   \
  t3 = VADD(t3, VADD(p1, p4));                                                    \
  t2 = VADD(t2, VADD(p2, p3));                                                    \
  t1 = VADD(t1, VADD(p2, p4));                                                    \
  t0 = VADD(t0, VADD(p1, p3));

/* Columns then rows, four lanes at a time, with the scalar IDCT's arithmetic (the same pixels, bit for bit:
 * a column with no AC gives 4 * DC through the full formula too). */
static void idct_half_columns(const v128_t *rows, v128_t *out) {
  IDCT_1D_V(rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7])
  v128_t bias = VC(512);
  x0 = VADD(x0, bias);
  x1 = VADD(x1, bias);
  x2 = VADD(x2, bias);
  x3 = VADD(x3, bias);
  out[0] = wasm_i32x4_shr(VADD(x0, t3), 10);
  out[7] = wasm_i32x4_shr(VSUB(x0, t3), 10);
  out[1] = wasm_i32x4_shr(VADD(x1, t2), 10);
  out[6] = wasm_i32x4_shr(VSUB(x1, t2), 10);
  out[2] = wasm_i32x4_shr(VADD(x2, t1), 10);
  out[5] = wasm_i32x4_shr(VSUB(x2, t1), 10);
  out[3] = wasm_i32x4_shr(VADD(x3, t0), 10);
  out[4] = wasm_i32x4_shr(VSUB(x3, t0), 10);
}

/* Four rows: s[k] holds those rows' column k; writes the rows' 8 pixels each, clamped to 0..255. */
static void idct_four_rows(v128_t *s, u8 *out, u32 stride) {
  IDCT_1D_V(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
  v128_t bias = VC(65536 + (128 << 17));
  x0 = VADD(x0, bias);
  x1 = VADD(x1, bias);
  x2 = VADD(x2, bias);
  x3 = VADD(x3, bias);
  v128_t o0 = wasm_i32x4_shr(VADD(x0, t3), 17), o7 = wasm_i32x4_shr(VSUB(x0, t3), 17);
  v128_t o1 = wasm_i32x4_shr(VADD(x1, t2), 17), o6 = wasm_i32x4_shr(VSUB(x1, t2), 17);
  v128_t o2 = wasm_i32x4_shr(VADD(x2, t1), 17), o5 = wasm_i32x4_shr(VSUB(x2, t1), 17);
  v128_t o3 = wasm_i32x4_shr(VADD(x3, t0), 17), o4 = wasm_i32x4_shr(VSUB(x3, t0), 17);
  transpose4(&o0, &o1, &o2, &o3);
  transpose4(&o4, &o5, &o6, &o7);
  /* Each value is within 16 bits (a 32-bit sum shifted by 17), so the signed narrowing keeps it and the
   * unsigned one clamps it to 0..255 as clamp_u8 does. */
  v128_t r01 = wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(o0, o4), wasm_i16x8_narrow_i32x4(o1, o5));
  v128_t r23 = wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(o2, o6), wasm_i16x8_narrow_i32x4(o3, o7));
  wasm_v128_store64_lane(out, r01, 0);
  wasm_v128_store64_lane(out + stride, r01, 1);
  wasm_v128_store64_lane(out + stride * 2, r23, 0);
  wasm_v128_store64_lane(out + stride * 3, r23, 1);
}

static void idct_block(u8 *out, u32 stride, const short *data) {
  v128_t lo[8], hi[8];
  for (int k = 0; k < 8; k++) {
    v128_t row = wasm_v128_load(data + k * 8);
    lo[k] = wasm_i32x4_extend_low_i16x8(row);
    hi[k] = wasm_i32x4_extend_high_i16x8(row);
  }
  v128_t a[8], b[8];
  idct_half_columns(lo, a); /* a[r]: row r, columns 0-3 */
  idct_half_columns(hi, b); /* b[r]: row r, columns 4-7 */
  /* Rows 0-3: column k of those rows, by transposing the 4x4 quarters. */
  v128_t s[8];
  s[0] = a[0], s[1] = a[1], s[2] = a[2], s[3] = a[3];
  s[4] = b[0], s[5] = b[1], s[6] = b[2], s[7] = b[3];
  transpose4(&s[0], &s[1], &s[2], &s[3]);
  transpose4(&s[4], &s[5], &s[6], &s[7]);
  idct_four_rows(s, out, stride);
  s[0] = a[4], s[1] = a[5], s[2] = a[6], s[3] = a[7];
  s[4] = b[4], s[5] = b[5], s[6] = b[6], s[7] = b[7];
  transpose4(&s[0], &s[1], &s[2], &s[3]);
  transpose4(&s[4], &s[5], &s[6], &s[7]);
  idct_four_rows(s, out + stride * 4, stride);
}

/* A block with no AC coefficient: every pixel is what the full IDCT gives for its DC alone. */
static void idct_dc_block(u8 *out, u32 stride, int dc) {
  u8 value = clamp_u8((dc * 4 * 4096 + 65536 + (128 << 17)) >> 17);
  u64 word = (u64)value * 0x0101010101010101ull;
  for (int i = 0; i < 8; i++, out += stride) *(u64 *)out = word;
}

/* 1: a block decoded into data; 2: the same, and it has no AC coefficient; 0: damaged. */
static int decode_block(DComponent *c, short *data) {
  for (int i = 0; i < 64; i++) data[i] = 0;
  int any_ac = 0;
  const DHuffman *hdc = &dhuff_dc[c->hd], *hac = &dhuff_ac[c->ha];
  const u16 *q = dquant[c->tq];
  if (!hdc->ready || !hac->ready) return 0;
  int t = decode_symbol(hdc);
  if (t < 0 || t > 15) return 0;
  int dc = c->dc_pred + receive_extend(t);
  c->dc_pred = dc;
  data[0] = (short)(dc * q[0]);
  int k = 1;
  do {
    int rs = decode_symbol(hac);
    if (rs < 0) return 0;
    int r = rs >> 4, s = rs & 15;
    if (s == 0) {
      if (rs != 0xf0) break;
      k += 16;
    } else {
      k += r;
      if (k > 63) return 0;
      data[ZIGZAG[k]] = (short)(receive_extend(s) * q[k]);
      any_ac = 1;
      k++;
    }
  } while (k < 64);
  return any_ac ? 1 : 2;
}

static void idct_into(u8 *out, u32 stride, const short *data, int kind) {
  if (kind == 2) idct_dc_block(out, stride, data[0]);
  else idct_block(out, stride, data);
}

static u32 read16(const u8 *p) { return ((u32)p[0] << 8) | p[1]; }

static void reset_entropy(void) {
  code_buffer = 0;
  code_bits = 0;
  dnomore = 0;
  dmarker = 0;
  for (int i = 0; i < dcomp_count; i++) dcomp[i].dc_pred = 0;
}

/* After a restart interval: skip to past the RSTn marker. */
static int restart(void) {
  if (!dmarker) {
    /* The marker was not reached by the bit reader yet: find it. */
    while (dsrc + 1 < dend && !(dsrc[0] == 0xff && dsrc[1] >= 0xd0 && dsrc[1] <= 0xd7)) dsrc++;
    if (dsrc + 1 >= dend) return 0;
    dsrc += 2;
  } else if (dmarker < 0xd0 || dmarker > 0xd7) {
    return 0;
  }
  reset_entropy();
  return 1;
}

static int decode_scan(DComponent **scan, int count) {
  reset_entropy();
  u32 mcus_left = restart_interval ? restart_interval : 0x7fffffff;
  if (count == 1) {
    DComponent *c = scan[0];
    u32 bx = (c->w + 7) >> 3, by = (c->h2 + 7) >> 3;
    short data[64] __attribute__((aligned(16)));
    for (u32 j = 0; j < by; j++)
      for (u32 i = 0; i < bx; i++) {
        int kind = decode_block(c, data);
        if (!kind || doverrun) return 0; /* damaged, or the file ended: no use decoding the rest from zero bits */
        idct_into(c->plane + (j * 8) * (c->bw * 8) + i * 8, c->bw * 8, data, kind);
        if (--mcus_left == 0) {
          if (!(j == by - 1 && i == bx - 1) && !restart()) return 0;
          mcus_left = restart_interval;
        }
      }
    return 1;
  }
  u32 mcux = (dwidth + hmax * 8 - 1) / (hmax * 8), mcuy = (dheight + vmax * 8 - 1) / (vmax * 8);
  short data[64] __attribute__((aligned(16)));
  for (u32 my = 0; my < mcuy; my++)
    for (u32 mx = 0; mx < mcux; mx++) {
      for (int k = 0; k < count; k++) {
        DComponent *c = scan[k];
        for (int y = 0; y < c->v; y++)
          for (int x = 0; x < c->h; x++) {
            int kind = decode_block(c, data);
            if (!kind || doverrun) return 0;
            u32 bx = mx * c->h + x, by = my * c->v + y;
            idct_into(c->plane + (by * 8) * (c->bw * 8) + bx * 8, c->bw * 8, data, kind);
          }
      }
      if (--mcus_left == 0) {
        if (!(my == mcuy - 1 && mx == mcux - 1) && !restart()) return 0;
        mcus_left = restart_interval;
      }
    }
  return 1;
}

/* One output row of a component, upsampled to the picture's width (libjpeg's fancy upsampling for 2x). */
static const u8 *component_row(DComponent *c, u32 y, u8 *buffer) {
  u32 stride = c->bw * 8;
  if (c->h == hmax && c->v == vmax) return c->plane + y * stride;
  int hs = hmax / c->h, vs = vmax / c->v;
  u32 w = c->w;
  if (vs == 2) {
    u32 near = y >> 1;
    int far = (y & 1) ? (int)near + 1 : (int)near - 1;
    if (far < 0) far = 0;
    if ((u32)far >= c->h2) far = (int)c->h2 - 1;
    if (near >= c->h2) near = c->h2 - 1;
    const u8 *n = c->plane + near * stride, *f = c->plane + (u32)far * stride;
    if (hs == 2) {
      if (w == 1) {
        buffer[0] = buffer[1] = (u8)((3 * n[0] + f[0] + 2) >> 2);
        return buffer;
      }
      int t1 = 3 * n[0] + f[0], t0;
      buffer[0] = (u8)((t1 + 2) >> 2);
      for (u32 i = 1; i < w; i++) {
        t0 = t1;
        t1 = 3 * n[i] + f[i];
        buffer[i * 2 - 1] = (u8)((3 * t0 + t1 + 8) >> 4);
        buffer[i * 2] = (u8)((3 * t1 + t0 + 8) >> 4);
      }
      buffer[w * 2 - 1] = (u8)((t1 + 2) >> 2);
      return buffer;
    }
    if (hs == 1) {
      for (u32 i = 0; i < w; i++) buffer[i] = (u8)((3 * n[i] + f[i] + 2) >> 2);
      return buffer;
    }
  }
  if (vs == 1 && hs == 2) {
    const u8 *in = c->plane + y * stride;
    if (w == 1) {
      buffer[0] = buffer[1] = in[0];
      return buffer;
    }
    buffer[0] = in[0];
    buffer[1] = (u8)((in[0] * 3 + in[1] + 2) >> 2);
    u32 i;
    for (i = 1; i < w - 1; i++) {
      int n = 3 * in[i] + 2;
      buffer[i * 2] = (u8)((n + in[i - 1]) >> 2);
      buffer[i * 2 + 1] = (u8)((n + in[i + 1]) >> 2);
    }
    buffer[i * 2] = (u8)((in[w - 1] * 3 + in[w - 2] + 2) >> 2);
    buffer[i * 2 + 1] = in[w - 1];
    return buffer;
  }
  /* Other ratios: the nearest sample. */
  const u8 *in = c->plane + (y / vs) * stride;
  for (u32 i = 0; i < dwidth; i++) buffer[i] = in[i / hs];
  return buffer;
}

#define FIXED(x) (((int)((x) * 4096.0f + 0.5f)) << 8)

static u32 decoded_w, decoded_h;

__attribute__((export_name("jpeg_decoded_width"))) u32 jpeg_decoded_width(void) { return decoded_w; }
__attribute__((export_name("jpeg_decoded_height"))) u32 jpeg_decoded_height(void) { return decoded_h; }

/* One output row: RGBA from the component planes. A function of its own, called once a row, so that V8 moves
 * it to optimised code after the first rows (a WebAssembly call in progress stays in the code it started in). */
__attribute__((noinline)) static void decoded_row(u8 *out, u32 y, u8 *rows) {
  u8 *o = out + y * dwidth * 4;
  if (dcomp_count == 1) {
    const u8 *l = dcomp[0].plane + y * dcomp[0].bw * 8;
    for (u32 x = 0; x < dwidth; x++, o += 4) {
      o[0] = o[1] = o[2] = l[x];
      o[3] = 255;
    }
    return;
  }
  const u8 *ly = component_row(&dcomp[0], y, rows);
  const u8 *lcb = component_row(&dcomp[1], y, rows + dwidth + 4);
  const u8 *lcr = component_row(&dcomp[2], y, rows + dwidth * 2 + 8);
  u32 x = 0;
  /* Four pixels at a time, with the arithmetic of the scalar loop below. */
  const v128_t half = VC(1 << 19), centre = VC(128), zero = VC(0), top = VC(255), alpha = VC((int)0xff000000u);
  const v128_t kr = VC(FIXED(1.40200f)), kgr = VC(-FIXED(0.71414f)), kgb = VC(-FIXED(0.34414f)), kb = VC(FIXED(1.77200f));
  const v128_t high = VC((int)0xffff0000u);
  for (; x + 4 <= dwidth; x += 4, o += 16) {
    v128_t yf = VADD(wasm_i32x4_shl(pixel4(ly + x), 20), half);
    v128_t cr = VSUB(pixel4(lcr + x), centre), cb = VSUB(pixel4(lcb + x), centre);
    v128_t r = VADD(yf, wasm_i32x4_mul(cr, kr));
    v128_t g = VADD(VADD(yf, wasm_i32x4_mul(cr, kgr)), wasm_v128_and(wasm_i32x4_mul(cb, kgb), high));
    v128_t b = VADD(yf, wasm_i32x4_mul(cb, kb));
    r = wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_shr(r, 20), zero), top);
    g = wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_shr(g, 20), zero), top);
    b = wasm_i32x4_min(wasm_i32x4_max(wasm_i32x4_shr(b, 20), zero), top);
    wasm_v128_store(o, wasm_v128_or(wasm_v128_or(r, wasm_i32x4_shl(g, 8)), wasm_v128_or(wasm_i32x4_shl(b, 16), alpha)));
  }
  for (; x < dwidth; x++, o += 4) {
    int yf = (ly[x] << 20) + (1 << 19);
    int cr = lcr[x] - 128, cb = lcb[x] - 128;
    int r = yf + cr * FIXED(1.40200f);
    int g = yf + cr * -FIXED(0.71414f) + (int)((u32)(cb * -FIXED(0.34414f)) & 0xffff0000u);
    int b = yf + cb * FIXED(1.77200f);
    o[0] = clamp_u8(r >> 20);
    o[1] = clamp_u8(g >> 20);
    o[2] = clamp_u8(b >> 20);
    o[3] = 255;
  }
}

/* Why jpeg_decode answered 0: a kind of JPEG this decoder leaves to photon, or a damaged (cut short, inconsistent) file,
 * which photon is not given: it decodes a cut-short file leniently, gap filled, and one that declares millions of
 * pixels in a few kilobytes took it seconds (decision 078). */
#define JPEG_UNSUPPORTED 1
#define JPEG_DAMAGED 2
static int decode_refusal;

__attribute__((export_name("jpeg_decode_refusal"))) int jpeg_decode_refusal(void) { return decode_refusal; }

#define DAMAGED() do { decode_refusal = JPEG_DAMAGED; return 0; } while (0)
#define UNSUPPORTED() do { decode_refusal = JPEG_UNSUPPORTED; return 0; } while (0)

__attribute__((export_name("jpeg_decode"))) u8 *jpeg_decode(const u8 *bytes, u32 length) {
  decoded_w = decoded_h = 0;
  decode_refusal = 0;
  if (length < 4 || bytes[0] != 0xff || bytes[1] != 0xd8) DAMAGED();
  const u8 *p = bytes + 2, *end = bytes + length;
  for (int i = 0; i < 4; i++) dhuff_dc[i].ready = dhuff_ac[i].ready = 0;
  dcomp_count = 0;
  restart_interval = 0;
  adobe_transform = -1;
  int frame_seen = 0, scans = 0;
  for (;;) {
    while (p < end && *p != 0xff) p++; /* stray bytes between segments */
    while (p < end && *p == 0xff) p++;
    if (p >= end) DAMAGED();
    u8 marker = *p++;
    if (marker == 0xd9) break;
    if (marker == 0x00 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (p + 2 > end) DAMAGED();
    u32 len = read16(p);
    if (len < 2 || p + len > end) DAMAGED();
    const u8 *seg = p + 2, *seg_end = p + len;
    if (marker == 0xdb) { /* DQT */
      while (seg < seg_end) {
        int pq = seg[0] >> 4, tq = seg[0] & 15;
        if (tq > 3 || seg + 65 > seg_end) DAMAGED();
        if (pq != 0) UNSUPPORTED(); /* 16-bit tables */
        for (int i = 0; i < 64; i++) dquant[tq][i] = seg[1 + i];
        seg += 65;
      }
    } else if (marker == 0xc4) { /* DHT */
      while (seg < seg_end) {
        int tc = seg[0] >> 4, th = seg[0] & 15;
        if (tc > 1 || th > 3 || seg + 17 > seg_end) DAMAGED();
        int total = 0;
        for (int i = 0; i < 16; i++) total += seg[1 + i];
        if (total > 256 || seg + 17 + total > seg_end) DAMAGED();
        DHuffman *h = tc ? &dhuff_ac[th] : &dhuff_dc[th];
        if (!build_dhuffman(h, seg + 1)) DAMAGED();
        for (int i = 0; i < total; i++) h->values[i] = seg[17 + i];
        seg += 17 + total;
      }
    } else if (marker == 0xdd) { /* DRI */
      if (len < 4) DAMAGED();
      restart_interval = read16(seg);
    } else if (marker == 0xee) { /* APP14 Adobe: its colour transform */
      if (len >= 14 && seg[0] == 'A' && seg[1] == 'd' && seg[2] == 'o' && seg[3] == 'b' && seg[4] == 'e') adobe_transform = seg[11];
    } else if (marker == 0xc0 || marker == 0xc1) { /* SOF0/1: baseline or extended sequential, Huffman */
      if (frame_seen || len < 8) DAMAGED();
      if (seg[0] != 8) UNSUPPORTED(); /* 12-bit */
      dheight = read16(seg + 1);
      dwidth = read16(seg + 3);
      dcomp_count = seg[5];
      if (dwidth == 0 || dheight == 0 || dcomp_count == 0 || len < 8 + 3u * dcomp_count) DAMAGED();
      if (dcomp_count != 1 && dcomp_count != 3) UNSUPPORTED(); /* CMYK */
      /* The caller refuses bigger pictures before decoding (MAX_PICTURE_PIXELS); this keeps the module safe by itself. */
      if ((u64)dwidth * dheight > 16000000ull) UNSUPPORTED();
      /* Every 8x8 block takes at least two bits (its DC and the end of its block): a file with fewer bytes than
       * that is cut short, however many pixels it declares, and is refused before its planes are allocated. */
      if ((u64)((dwidth + 7) / 8) * ((dheight + 7) / 8) * 2 > (u64)(end - p) * 8) DAMAGED();
      hmax = vmax = 1;
      for (int i = 0; i < dcomp_count; i++) {
        DComponent *c = &dcomp[i];
        c->id = seg[6 + i * 3];
        c->h = seg[7 + i * 3] >> 4;
        c->v = seg[7 + i * 3] & 15;
        c->tq = seg[8 + i * 3];
        if (c->h < 1 || c->h > 4 || c->v < 1 || c->v > 4 || c->tq > 3) DAMAGED();
        if (c->h > 2 || c->v > 2) UNSUPPORTED();
        if (c->h > hmax) hmax = c->h;
        if (c->v > vmax) vmax = c->v;
      }
      u32 mcux = (dwidth + hmax * 8 - 1) / (hmax * 8), mcuy = (dheight + vmax * 8 - 1) / (vmax * 8);
      for (int i = 0; i < dcomp_count; i++) {
        DComponent *c = &dcomp[i];
        if (hmax % c->h || vmax % c->v) UNSUPPORTED();
        c->bw = mcux * c->h;
        c->bh = mcuy * c->v;
        c->w = (dwidth * c->h + hmax - 1) / hmax;
        c->h2 = (dheight * c->v + vmax - 1) / vmax;
        c->plane = scratch_alloc(c->bw * 8 * c->bh * 8);
        for (u32 j = 0, n = c->bw * 8 * c->bh * 8; j < n; j++) c->plane[j] = 0;
      }
      frame_seen = 1;
    } else if (marker >= 0xc2 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
      UNSUPPORTED(); /* progressive, lossless, arithmetic coding: photon decodes those */
    } else if (marker == 0xda) { /* SOS */
      if (!frame_seen || len < 6) DAMAGED();
      int ns = seg[0];
      if (ns < 1 || ns > dcomp_count || len < 6 + 2u * ns) DAMAGED();
      DComponent *scan[3];
      for (int i = 0; i < ns; i++) {
        int id = seg[1 + i * 2], tables = seg[2 + i * 2];
        scan[i] = 0;
        for (int k = 0; k < dcomp_count; k++)
          if (dcomp[k].id == id) scan[i] = &dcomp[k];
        if (!scan[i]) DAMAGED();
        scan[i]->hd = tables >> 4;
        scan[i]->ha = tables & 15;
        if (scan[i]->hd > 3 || scan[i]->ha > 3) DAMAGED();
      }
      dsrc = seg_end;
      dend = end;
      doverrun = 0;
      if (!decode_scan(scan, ns) || doverrun) DAMAGED();
      scans++;
      /* Carry on from the marker that ended the entropy-coded data. */
      p = dsrc;
      if (dmarker) p -= 2;
      if (p < seg_end) p = seg_end;
      continue;
    }
    p += len;
  }
  if (!frame_seen || scans == 0) DAMAGED();
  if (dcomp_count == 3 && adobe_transform == 0) UNSUPPORTED(); /* RGB as stored: leave to photon */

  u8 *out = scratch_alloc(dwidth * dheight * 4);
  u8 *rows = scratch_alloc(dwidth * 3 + 16);
  for (u32 y = 0; y < dheight; y++) decoded_row(out, y, rows);
  decoded_w = dwidth;
  decoded_h = dheight;
  return out;
}
