/*
 * SVG path data flattened to lines, part of the pixel module (build-pixels-wasm.sh links it with pixels.c):
 * the outlines satori writes for text (vector.ts, parseSatoriSvg). The same steps as vector.ts's flattenPath,
 * which a fresh isolate otherwise runs in V8's interpreter on every glyph of its first pin:
 * the same tokens (its regular expression, character by character), the same numbers (parseFloat's,
 * where they can be had exactly: see read_number), the same curve steps and the same lines, so the
 * coverage and the pixels do not change. Worked in doubles with IEEE rounding, as JavaScript computes,
 * and stored as a Float32Array stores; compiled without -ffast-math for that reason.
 *
 * path_flatten(d, length, dx, dy, tolerance) -> floats written at path_lines() (x0, y0, x1, y1 per line),
 * with their bounds at path_bounds() (minX, minY, maxX, maxY); or PATH_MALFORMED where flattenPath
 * answers false; or PATH_NOT_HERE for what this does not flatten (arcs, whose sines and cosines would
 * have to be V8's own, and numbers beyond read_number's exact range): flattenPath then does the path.
 */
typedef unsigned char u8;
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;

u8 *scratch_alloc(u32 size);

#define PATH_MALFORMED (-1)
#define PATH_NOT_HERE (-2)
#define MAX_SEGMENTS 128.0

typedef struct {
  float *lines;
  u32 length;
  u32 capacity;
  double min_x, min_y, max_x, max_y;
  int failed;
} Sink;

static Sink sink;
static double bounds[4];

__attribute__((export_name("path_lines"))) float *path_lines(void) { return sink.lines; }
__attribute__((export_name("path_bounds"))) double *path_bounds(void) { return bounds; }

static void bound(double x, double y) {
  if (x < sink.min_x) sink.min_x = x;
  if (x > sink.max_x) sink.max_x = x;
  if (y < sink.min_y) sink.min_y = y;
  if (y > sink.max_y) sink.max_y = y;
}

/* LineSink.line without a matrix. */
static void sink_line(double x0, double y0, double x1, double y1) {
  if (y0 == y1) {
    bound(x0, y0);
    bound(x1, y1);
    return;
  }
  if (sink.length + 4 > sink.capacity) {
    u32 capacity = sink.capacity * 2u;
    float *grown = (float *)scratch_alloc(capacity * 4u);
    for (u32 i = 0; i < sink.length; i++) grown[i] = sink.lines[i];
    sink.lines = grown;
    sink.capacity = capacity;
  }
  sink.lines[sink.length++] = (float)x0;
  sink.lines[sink.length++] = (float)y0;
  sink.lines[sink.length++] = (float)x1;
  sink.lines[sink.length++] = (float)y1;
  bound(x0, y0);
  bound(x1, y1);
}

/* Math.max / Math.min of two numbers (NaN wins, as in JavaScript). */
static double js_max(double a, double b) { return a != a || b != b ? __builtin_nan("") : a > b ? a : b; }
static double js_min(double a, double b) { return a != a || b != b ? __builtin_nan("") : a < b ? a : b; }
static double js_abs(double a) { return a < 0 ? -a : a == 0 ? 0 : a; }

/* Math.hypot of two numbers, as V8 computes it: normalised by the larger, Kahan-summed. */
static double js_hypot(double a, double b) {
  double values[2] = {js_abs(a), js_abs(b)};
  double max = 0;
  int nan = 0;
  for (int i = 0; i < 2; i++) {
    if (values[i] != values[i]) nan = 1;
    else if (max < values[i]) max = values[i];
  }
  if (max == __builtin_inf()) return __builtin_inf();
  if (nan) return __builtin_nan("");
  if (max == 0) return 0;
  double sum = 0, compensation = 0;
  for (int i = 0; i < 2; i++) {
    double n = values[i] / max;
    double summand = n * n - compensation;
    double preliminary = sum + summand;
    compensation = (preliminary - sum) - summand;
    sum = preliminary;
  }
  return __builtin_sqrt(sum) * max;
}

/* ------------------------------------------------------------ tokens */

typedef struct {
  const u8 *d;
  u32 n;
  u32 at;
} Tokens;

/* A token: a command letter (its code), TOKEN_NUMBER (the value in *value), TOKEN_END, or TOKEN_INEXACT. */
#define TOKEN_NUMBER 1
#define TOKEN_END 0
#define TOKEN_INEXACT 2

static int is_digit(u8 c) { return c >= '0' && c <= '9'; }

static int is_command(u8 c) {
  switch (c | 32) {
    case 'm': case 'l': case 'h': case 'v': case 'c': case 's': case 'q': case 't': case 'a': case 'z': return 1;
    default: return 0;
  }
}

static const double POWERS_OF_TEN[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                         1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/*
 * The number the pattern [-+]?(?:\d*\.\d+|\d+\.?\d*)(?:[eE][-+]?\d+)? matches at `at`, if it matches there:
 * its end in *end. Its value is parseFloat's when the digits make an integer below 2^53 and the decimal
 * exponent is within 22 either way: both are then exact doubles and one IEEE division or multiplication
 * rounds their quotient or product correctly, as parseFloat rounds. Otherwise TOKEN_INEXACT.
 */
static int read_number(const Tokens *t, u32 at, u32 *end, double *value) {
  const u8 *d = t->d;
  u32 n = t->n, p = at;
  int negative = 0;
  if (p < n && (d[p] == '-' || d[p] == '+')) negative = d[p++] == '-';
  u32 integer_start = p;
  while (p < n && is_digit(d[p])) p++;
  u32 integer_end = p;
  u32 fraction_start = p, fraction_end = p;
  if (p < n && d[p] == '.' && p + 1 < n && is_digit(d[p + 1])) {
    fraction_start = ++p;
    while (p < n && is_digit(d[p])) p++;
    fraction_end = p;
  } else if (integer_end > integer_start) {
    if (p < n && d[p] == '.') p++; /* "12." */
  } else {
    return TOKEN_END; /* no number here */
  }
  i32 exponent = 0;
  if (p < n && (d[p] == 'e' || d[p] == 'E')) {
    u32 q = p + 1;
    int exponent_negative = 0;
    if (q < n && (d[q] == '-' || d[q] == '+')) exponent_negative = d[q++] == '-';
    if (q < n && is_digit(d[q])) {
      while (q < n && is_digit(d[q])) {
        if (exponent < 100000) exponent = exponent * 10 + (d[q] - '0');
        q++;
      }
      if (exponent_negative) exponent = -exponent;
      p = q;
    }
  }
  *end = p;
  u64 mantissa = 0;
  const u64 limit = 1ull << 53;
  for (u32 i = integer_start; i < integer_end; i++) {
    mantissa = mantissa * 10u + (u64)(d[i] - '0');
    if (mantissa >= limit) return TOKEN_INEXACT;
  }
  for (u32 i = fraction_start; i < fraction_end; i++) {
    mantissa = mantissa * 10u + (u64)(d[i] - '0');
    if (mantissa >= limit) return TOKEN_INEXACT;
    exponent--;
  }
  double magnitude;
  if (mantissa == 0) magnitude = 0;
  else if (exponent < -22 || exponent > 22) return TOKEN_INEXACT;
  else if (exponent < 0) magnitude = (double)mantissa / POWERS_OF_TEN[-exponent];
  else magnitude = (double)mantissa * POWERS_OF_TEN[exponent];
  *value = negative ? -magnitude : magnitude;
  return TOKEN_NUMBER;
}

/* The next token, as String.prototype.match with the pattern's g flag finds it: what matches nowhere is skipped. */
static int next_token(Tokens *t, double *value) {
  while (t->at < t->n) {
    u8 c = t->d[t->at];
    if (is_command(c)) {
      t->at++;
      return c;
    }
    u32 end;
    int kind = read_number(t, t->at, &end, value);
    if (kind != TOKEN_END) {
      t->at = end;
      return kind;
    }
    t->at++;
  }
  return TOKEN_END;
}

/* ------------------------------------------------------------ flattening */

typedef struct {
  Tokens tokens;
  /* The token read ahead (flattenPath looks at tokens[i] before taking it). */
  int ahead;
  double ahead_value;
  double x, y, start_x, start_y, cx, cy, dx, dy, tolerance;
} Path;

static void advance(Path *p) { p->ahead = next_token(&p->tokens, &p->ahead_value); }

/* num(): the next token as a number; 0 when it is not one (flattenPath throws, and answers false). */
static int take_number(Path *p, double *out) {
  if (p->ahead != TOKEN_NUMBER) return 0;
  *out = p->ahead_value;
  advance(p);
  return 1;
}

static void line_to(Path *p, double nx, double ny) {
  sink_line(p->x + p->dx, p->y + p->dy, nx + p->dx, ny + p->dy);
  p->x = nx;
  p->y = ny;
}

static double segments_for(const Path *p, double deviation) {
  return js_max(1, js_min(MAX_SEGMENTS, __builtin_ceil(__builtin_sqrt(deviation / p->tolerance))));
}

static void quad_to(Path *p, double x1, double y1, double x2, double y2) {
  double dev_x = p->x - 2 * x1 + x2;
  double dev_y = p->y - 2 * y1 + y2;
  double n = segments_for(p, js_hypot(dev_x, dev_y) / 4);
  double x0 = p->x, y0 = p->y;
  for (double k = 1; k <= n; k++) {
    double t = k / n;
    double mt = 1 - t;
    line_to(p, mt * mt * x0 + 2 * mt * t * x1 + t * t * x2, mt * mt * y0 + 2 * mt * t * y1 + t * t * y2);
  }
  p->cx = x1;
  p->cy = y1;
}

static void cubic_to(Path *p, double x1, double y1, double x2, double y2, double x3, double y3) {
  double dev = js_max(js_hypot(p->x - 2 * x1 + x2, p->y - 2 * y1 + y2), js_hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3));
  double n = segments_for(p, (dev * 3) / 4);
  double x0 = p->x, y0 = p->y;
  for (double k = 1; k <= n; k++) {
    double t = k / n;
    double mt = 1 - t;
    double a = mt * mt * mt;
    double b = 3 * mt * mt * t;
    double c = 3 * mt * t * t;
    double e = t * t * t;
    line_to(p, a * x0 + b * x1 + c * x2 + e * x3, a * y0 + b * y1 + c * y2 + e * y3);
  }
  p->cx = x2;
  p->cy = y2;
}

static void close_path(Path *p) {
  if (p->x != p->start_x || p->y != p->start_y) line_to(p, p->start_x, p->start_y);
  p->x = p->start_x;
  p->y = p->start_y;
}

__attribute__((export_name("path_flatten"))) i32 path_flatten(const u8 *d, u32 length, double dx, double dy, double tolerance) {
  sink.capacity = 1024;
  sink.lines = (float *)scratch_alloc(sink.capacity * 4u);
  sink.length = 0;
  sink.min_x = sink.min_y = __builtin_inf();
  sink.max_x = sink.max_y = -__builtin_inf();
  Path path = {.tokens = {d, length, 0}, .dx = dx, .dy = dy, .tolerance = tolerance};
  Path *p = &path;
  advance(p);
  int command = 0;
  /* The last curve's kind, for S and T: 'Q', 'C' or none. */
  int last_curve = 0;
  while (p->ahead != TOKEN_END) {
    if (p->ahead == TOKEN_INEXACT) return PATH_NOT_HERE;
    if (p->ahead != TOKEN_NUMBER) {
      command = p->ahead;
      advance(p);
      if (command == 'Z' || command == 'z') {
        close_path(p);
        last_curve = 0;
        continue;
      }
    } else if (!command || command == 'Z' || command == 'z') {
      return PATH_MALFORMED;
    }
    int relative = command >= 'a';
    double ox = relative ? p->x : 0;
    double oy = relative ? p->y : 0;
    double v[6];
    switch (command | 32) {
      case 'm':
        if (p->x != p->start_x || p->y != p->start_y) close_path(p);
        if (!take_number(p, &v[0])) goto malformed;
        p->x = v[0] + ox;
        if (!take_number(p, &v[1])) goto malformed;
        p->y = v[1] + oy;
        p->start_x = p->x;
        p->start_y = p->y;
        command = relative ? 'l' : 'L';
        last_curve = 0;
        break;
      case 'l':
        if (!take_number(p, &v[0]) || !take_number(p, &v[1])) goto malformed;
        line_to(p, v[0] + ox, v[1] + oy);
        last_curve = 0;
        break;
      case 'h':
        if (!take_number(p, &v[0])) goto malformed;
        line_to(p, v[0] + ox, p->y);
        last_curve = 0;
        break;
      case 'v':
        if (!take_number(p, &v[0])) goto malformed;
        line_to(p, p->x, v[0] + oy);
        last_curve = 0;
        break;
      case 'q':
        for (int i = 0; i < 4; i++)
          if (!take_number(p, &v[i])) goto malformed;
        quad_to(p, v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy);
        last_curve = 'Q';
        break;
      case 't': {
        double x1 = last_curve == 'Q' ? 2 * p->x - p->cx : p->x;
        double y1 = last_curve == 'Q' ? 2 * p->y - p->cy : p->y;
        if (!take_number(p, &v[0]) || !take_number(p, &v[1])) goto malformed;
        quad_to(p, x1, y1, v[0] + ox, v[1] + oy);
        last_curve = 'Q';
        break;
      }
      case 'c':
        for (int i = 0; i < 6; i++)
          if (!take_number(p, &v[i])) goto malformed;
        cubic_to(p, v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy, v[4] + ox, v[5] + oy);
        last_curve = 'C';
        break;
      case 's': {
        double x1 = last_curve == 'C' ? 2 * p->x - p->cx : p->x;
        double y1 = last_curve == 'C' ? 2 * p->y - p->cy : p->y;
        for (int i = 0; i < 4; i++)
          if (!take_number(p, &v[i])) goto malformed;
        cubic_to(p, x1, y1, v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy);
        last_curve = 'C';
        break;
      }
      default:
        /* An arc: flattenPath draws it. */
        return PATH_NOT_HERE;
    }
    continue;
  malformed:
    /* A number that could not be read exactly may be what was missing: flattenPath decides then. */
    return p->ahead == TOKEN_INEXACT ? PATH_NOT_HERE : PATH_MALFORMED;
  }
  if (p->x != p->start_x || p->y != p->start_y) close_path(p);
  bounds[0] = sink.min_x;
  bounds[1] = sink.min_y;
  bounds[2] = sink.max_x;
  bounds[3] = sink.max_y;
  return (i32)sink.length;
}
