/*
 * The pin renderer's fills, part of the pixel module (build-pixels-wasm.sh
 * links it with pixels.c): the blending of fillBox and blendCoverage
 * (pixel-module.ts) for boxes and outlines that are not simply opaque words, on a copy
 * of the part of the pin they touch: `region` holds the canvas's rows ry0 to
 * ry1 - 1, columns rx0 to rx1 - 1, row after row (straight RGBA). Worked in
 * doubles with IEEE rounding, as the JavaScript it replaced computed them, and
 * stored as a Uint8ClampedArray stores (clamped, ties to even), so the pixels
 * are the ones that code made. This file is compiled without -ffast-math
 * for that reason (pixels.c has it).
 */
typedef unsigned char u8;
typedef unsigned int u32;
typedef int i32;

#define FILL_TABLE_SIZE 1024

static inline u8 clamped(double v) {
  if (!(v > 0.0)) return 0;
  if (v >= 255.0) return 255;
  return (u8)__builtin_rint(v);
}

static inline double min_d(double a, double b) { return a < b ? a : b; }
static inline double max_d(double a, double b) { return a > b ? a : b; }

/* How much of a pixel lies inside a rounded rectangle (0-1, anti-aliased edges). */
static double rounded_coverage(double px, double py, double w, double h, double radius) {
  if (radius <= 0) return 1;
  double r = min_d(radius, min_d(w / 2, h / 2));
  double cx = px < r ? r : px > w - r ? w - r : px;
  double cy = py < r ? r : py > h - r ? h - r : py;
  double dx = px - cx;
  double dy = py - cy;
  if (dx == 0 && dy == 0) return 1;
  double distance = __builtin_sqrt(dx * dx + dy * dy);
  return max_d(0, min_d(1, r - distance + 0.5));
}

static double ellipse_coverage(double px, double py, double w, double h) {
  double nx = (px - w / 2) / (w / 2);
  double ny = (py - h / 2) / (h / 2);
  double d = __builtin_sqrt(nx * nx + ny * ny);
  double edge = (1 - d) * min_d(w, h) * 0.5;
  return max_d(0, min_d(1, edge + 0.5));
}

/* The paint of box_blend: a colour, or a gradient's steps; and the box it fills. */
typedef struct {
  u8 *region;
  i32 rx0, ry0, rx1, ry1;
  double bx, by, w, h;
  const double *solid;  /* r, g, b, a; or 0 for a gradient */
  const float *steps;   /* gradient: FILL_TABLE_SIZE x (r, g, b, a) */
  const u32 *blend;     /* per colour (one, or FILL_TABLE_SIZE): r, g, b times alpha x 65536 plus a half, and 65536 - alpha x 65536 */
  double sin_a, cos_a, length, opacity;
} Fill;

static inline u32 *region_word(const Fill *f, i32 x, i32 y) { return (u32 *)(f->region + (((u32)(y - f->ry0) * (u32)(f->rx1 - f->rx0) + (u32)(x - f->rx0)) * 4u)); }

/* A box without a mask, opaque: whole words, a colour or the gradient's nearest step. */
static void fill_plain_opaque(const Fill *f, i32 x0, i32 y0, i32 x1, i32 y1, u32 word) {
  for (i32 y = y0; y < y1; y++) {
    u32 *o = region_word(f, x0, y);
    for (i32 x = x0; x < x1; x++) *o++ = word;
  }
}

/* A box without a mask, translucent: each pixel blended in 16-bit fixed point with its colour's (or gradient step's) blend entry. */
/* One row of fill_plain_translucent. The row loops here are functions of their own, called once a row: V8
 * optimises a WebAssembly function after its first calls, and a call in progress stays in the code it began in. */
__attribute__((noinline)) static void blend_row_translucent(const Fill *f, u32 *o, i32 count, double t, double step, int gradient) {
  const double last = FILL_TABLE_SIZE - 1;
  for (i32 i = 0; i < count; i++, o++, t += step) {
    u32 k = (gradient ? (t <= 0 ? 0u : t >= last ? (u32)last : (u32)(i32)t) : 0u) * 4u;
    u32 keep = f->blend[k + 3];
    if (keep == 65536u) continue;
    u32 word = *o;
    *o = 0xff000000u | (((((word >> 16) & 255u) * keep + f->blend[k + 2]) >> 16) << 16) | (((((word >> 8) & 255u) * keep + f->blend[k + 1]) >> 16) << 8) |
         (((word & 255u) * keep + f->blend[k]) >> 16);
  }
}

static void fill_plain_translucent(const Fill *f, i32 x0, i32 y0, i32 x1, i32 y1, double bx, double by, double w, double h, int gradient) {
  const double last = FILL_TABLE_SIZE - 1;
  double step = gradient ? (f->sin_a / f->length) * last : 0;
  for (i32 cy = y0; cy < y1; cy++) {
    double ty = (double)cy - by + 0.5;
    double t = gradient ? ((((double)x0 - bx + 0.5 - w / 2) * f->sin_a - (ty - h / 2) * f->cos_a) / f->length + 0.5) * last : 0;
    blend_row_translucent(f, region_word(f, x0, cy), x1 - x0, t, step, gradient);
  }
}

/* Pixels blended one by one with the mask's coverage, over x0..x1, y0..y1 of the box. */
static void fill_masked(const Fill *f, i32 x0, i32 y0, i32 x1, i32 y1, double radius, int ellipse, double corner_rows) {
  const double w = f->w, h = f->h;
  for (i32 cy = y0; cy < y1; cy++) {
    double ty = (double)cy - f->by + 0.5;
    int in_corner_rows = ty < corner_rows || ty > h - corner_rows;
    u8 *d = (u8 *)region_word(f, x0, cy);
    for (i32 cx = x0; cx < x1; cx++, d += 4) {
      double tx = (double)cx - f->bx + 0.5;
      double r, g, b, a;
      if (f->steps) {
        double t = max_d(0, min_d(1, ((tx - w / 2) * f->sin_a - (ty - h / 2) * f->cos_a) / f->length + 0.5));
        u32 k = (u32)__builtin_floor(t * (FILL_TABLE_SIZE - 1) + 0.5) * 4u;
        r = f->steps[k];
        g = f->steps[k + 1];
        b = f->steps[k + 2];
        a = f->steps[k + 3];
      } else {
        r = f->solid[0];
        g = f->solid[1];
        b = f->solid[2];
        a = f->solid[3];
      }
      a *= f->opacity;
      if (ellipse) a *= ellipse_coverage(tx, ty, w, h);
      else if (in_corner_rows && (tx < corner_rows || tx > w - corner_rows)) a *= rounded_coverage(tx, ty, w, h, radius);
      if (a <= 0) continue;
      double ia = 1 - a;
      d[0] = clamped(r * a + d[0] * ia);
      d[1] = clamped(g * a + d[1] * ia);
      d[2] = clamped(b * a + d[2] * ia);
      d[3] = 255;
    }
  }
}

static inline i32 max_i(i32 a, i32 b) { return a > b ? a : b; }
static inline i32 min_i(i32 a, i32 b) { return a < b ? a : b; }

/*
 * Fills the box (bx, by, w, h) with a colour or a linear gradient, with
 * opacity, rounded corners or an ellipse mask, where fillBox does not simply
 * write opaque words: region is the box clipped to the canvas (rx0..rx1,
 * ry0..ry1). A rounded box of one colour is blended pixel by pixel only in its
 * four corner squares; the band between them and the stretches between the
 * corners are plain fills.
 */
__attribute__((export_name("box_blend"))) void box_blend(u8 *region, i32 rx0, i32 ry0, i32 rx1, i32 ry1, i32 bx, i32 by, i32 w, i32 h, const double *solid, const float *steps,
                                                          const u32 *blend, double sin_a, double cos_a, double length, double opacity, double radius, int ellipse) {
  Fill f = {region, rx0, ry0, rx1, ry1, bx, by, w, h, solid, steps, blend, sin_a, cos_a, length, opacity};
  int masked = radius > 0 || ellipse;
  if (!masked) {
    fill_plain_translucent(&f, rx0, ry0, rx1, ry1, bx, by, w, h, steps != 0);
    return;
  }
  /* An ellipse has no corner rows: it is blended everywhere. */
  double corner_rows = ellipse ? 1e300 : __builtin_ceil(min_d(radius, min_d((double)w / 2, (double)h / 2))) + 1;
  if (solid && !ellipse && 2 * corner_rows < w && 2 * corner_rows < h) {
    i32 c = (i32)corner_rows;
    int opaque = opacity >= 1 && solid[3] >= 1;
    u32 word = 0xff000000u | ((u32)__builtin_floor(solid[2] + 0.5) << 16) | ((u32)__builtin_floor(solid[1] + 0.5) << 8) | (u32)__builtin_floor(solid[0] + 0.5);
    /* The band between the corner rows, then the stretches between the corners, top and bottom. */
    i32 plain[3][4] = {{bx, by + c, bx + w, by + h - c}, {bx + c, by, bx + w - c, by + c}, {bx + c, by + h - c, bx + w - c, by + h}};
    for (int i = 0; i < 3; i++) {
      i32 x0 = max_i(rx0, plain[i][0]), y0 = max_i(ry0, plain[i][1]), x1 = min_i(rx1, plain[i][2]), y1 = min_i(ry1, plain[i][3]);
      if (x1 <= x0 || y1 <= y0) continue;
      if (opaque) fill_plain_opaque(&f, x0, y0, x1, y1, word);
      else fill_plain_translucent(&f, x0, y0, x1, y1, plain[i][0], plain[i][1], plain[i][2] - plain[i][0], plain[i][3] - plain[i][1], 0);
    }
    i32 corners[4][4] = {{bx, by, bx + c, by + c}, {bx + w - c, by, bx + w, by + c}, {bx, by + h - c, bx + c, by + h}, {bx + w - c, by + h - c, bx + w, by + h}};
    for (int i = 0; i < 4; i++) {
      i32 x0 = max_i(rx0, corners[i][0]), y0 = max_i(ry0, corners[i][1]), x1 = min_i(rx1, corners[i][2]), y1 = min_i(ry1, corners[i][3]);
      fill_masked(&f, x0, y0, x1, y1, radius, 0, corner_rows);
    }
    return;
  }
  fill_masked(&f, rx0, ry0, rx1, ry1, radius, ellipse, corner_rows);
}

/* One row of coverage_blend. */
__attribute__((noinline)) static void coverage_row(const float *v, u8 *d, i32 count, double r, double g, double b, double alpha) {
  for (i32 i = 0; i < count; i++, v++, d += 4) {
    double a = (double)*v * alpha;
    if (a <= 0) continue;
    if (a >= 1) {
      d[0] = clamped(r);
      d[1] = clamped(g);
      d[2] = clamped(b);
    } else {
      double ia = 1 - a;
      d[0] = clamped(r * a + d[0] * ia);
      d[1] = clamped(g * a + d[1] * ia);
      d[2] = clamped(b * a + d[2] * ia);
    }
    d[3] = 255;
  }
}

/*
 * Lays a colour over the region through a coverage (0-1 floats, cover_w wide,
 * its top left at cover_x, cover_y in the canvas) times alpha.
 */
__attribute__((export_name("coverage_blend"))) void coverage_blend(const float *cover, i32 cover_w, i32 cover_x, i32 cover_y, u8 *region, i32 rx0, i32 ry0, i32 rx1, i32 ry1, double r, double g,
                                                                    double b, double alpha) {
  u32 rw = (u32)(rx1 - rx0);
  for (i32 y = ry0; y < ry1; y++)
    coverage_row(cover + (y - cover_y) * cover_w + (rx0 - cover_x), region + (u32)(y - ry0) * rw * 4u, rx1 - rx0, r, g, b, alpha);
}
