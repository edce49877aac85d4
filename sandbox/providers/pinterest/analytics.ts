import type { Context, Hono } from "hono";
import { pictureLabel, TEMPLATE_FAMILY_KEYWORD } from "../../../workers/render/picture-label.ts";
import { seededRandom, stableSeed } from "../../../workers/domain/random.ts";
import type { SandboxState } from "../../state.ts";
import { invalid } from "./http.ts";
import { pinterestState, type AccountRecord, type PinRecord, type TokenRecord } from "./state.ts";

type Env = { Variables: { account: AccountRecord; token: TokenRecord } };

/**
 * Pinterest's analytics (issue 41): `GET /v5/pins/analytics` (up to 100 pins, daily figures) and
 * `GET /v5/user_account/analytics` (the account's daily totals). The figures are deterministic and plausible, seeded
 * per account:
 * - each pin's impressions start high on the day it was made and decay over the days after (a half-life of about
 *   9 days), scaled by the account's size;
 * - the account's audience is most active around two hours of the (UTC) day, so a pin made near them gets up to
 *   three times the impressions of one made at a quiet hour;
 * - saves, pin clicks and outbound clicks are rates of the impressions that differ by template family, read from
 *   the picture Pinterest copied (a `Pinboard-Template-Family` text field in the PNG or JPEG); a pin without one gets
 *   neutral rates;
 * - a day's figures are READY once the (UTC) day is over; today's are PROCESSING, without figures.
 * `POST /__sandbox/pinterest/analytics/age-pins {username, days}` makes an account's pins that many days older (as if
 * "today" had moved on), so a test sees weeks of figures at once.
 */

const DAY_MS = 86_400_000;
/** How far back start_date may go, and how long a report may be (Pinterest's limits). */
const MAX_DAYS = 90;

interface Rates {
  /** Impressions relative to a neutral pin. */
  reach: number;
  save: number;
  pinClick: number;
  outboundClick: number;
}

const NEUTRAL: Rates = { reach: 1, save: 0.025, pinClick: 0.018, outboundClick: 0.008 };
/** Per template family: lists and quotes are saved, products and splits clicked through. */
export const FAMILY_RATES: Record<string, Rates> = {
  "full-bleed": { reach: 1.1, save: 0.03, pinClick: 0.02, outboundClick: 0.006 },
  split: { reach: 1, save: 0.024, pinClick: 0.022, outboundClick: 0.013 },
  collage: { reach: 1.05, save: 0.034, pinClick: 0.017, outboundClick: 0.005 },
  "text-only": { reach: 0.7, save: 0.014, pinClick: 0.012, outboundClick: 0.009 },
  list: { reach: 1.2, save: 0.042, pinClick: 0.024, outboundClick: 0.014 },
  product: { reach: 0.9, save: 0.02, pinClick: 0.026, outboundClick: 0.021 },
  quote: { reach: 1.15, save: 0.046, pinClick: 0.01, outboundClick: 0.003 },
  "before-after": { reach: 1.05, save: 0.038, pinClick: 0.02, outboundClick: 0.008 },
  video: { reach: 1.25, save: 0.022, pinClick: 0.015, outboundClick: 0.006 },
};

export interface DayFigures {
  date: string;
  ready: boolean;
  IMPRESSION: number;
  SAVE: number;
  PIN_CLICK: number;
  OUTBOUND_CLICK: number;
}

/** The account's two busy hours (UTC) and its size: the same for an account in every run. */
export function audienceOf(username: string): { busyHours: [number, number]; reach: number } {
  const random = seededRandom(stableSeed(`audience:${username}`));
  const first = Math.floor(random() * 24);
  const second = (first + 9 + Math.floor(random() * 6)) % 24;
  return { busyHours: [first, second], reach: 60 + Math.floor(random() * 80) };
}

/** How much more a pin made at this UTC hour is seen: 1 at a quiet hour, up to 3 at a busy one. */
function hourFactor(hour: number, busyHours: [number, number]): number {
  const distance = Math.min(...busyHours.map((busy) => Math.min(Math.abs(hour - busy), 24 - Math.abs(hour - busy))));
  return 1 + 2 * Math.exp(-(distance * distance) / 4);
}

/** The template family written in the pin's picture, or null (no picture copied, or none written). */
export function familyOf(pin: PinRecord): string | null {
  const data = pin.media.data;
  if (!data) return null;
  const family = pictureLabel(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), TEMPLATE_FAMILY_KEYWORD);
  return family && family in FAMILY_RATES ? family : null;
}

/** When the pin was made, as its figures count it (its creation time moved back by the days it was aged). */
function madeAt(pin: PinRecord): number {
  return Date.parse(pin.createdAt) - (pin.ageDays ?? 0) * DAY_MS;
}

/** The pin's figures on one UTC day (YYYY-MM-DD). Zero before the pin was made; not ready for today or later. */
export function pinDay(pin: PinRecord, date: string, now = Date.now()): DayFigures {
  const day = Date.parse(`${date}T00:00:00Z`);
  const made = madeAt(pin);
  const ready = day + DAY_MS <= now;
  const zero = { date, ready, IMPRESSION: 0, SAVE: 0, PIN_CLICK: 0, OUTBOUND_CLICK: 0 };
  if (!ready || day + DAY_MS <= made) return zero;
  const audience = audienceOf(pin.username);
  const rates = FAMILY_RATES[familyOf(pin) ?? ""] ?? NEUTRAL;
  const age = Math.floor((day - Math.floor(made / DAY_MS) * DAY_MS) / DAY_MS);
  const random = seededRandom(stableSeed(`figures:${pin.id}:${date}`));
  const noise = () => 0.8 + 0.4 * random();
  const impressions = Math.round(audience.reach * rates.reach * hourFactor(new Date(made).getUTCHours(), audience.busyHours) * 0.93 ** age * noise());
  const count = (rate: number) => Math.round(impressions * rate * noise());
  return { date, ready, IMPRESSION: impressions, SAVE: count(rates.save), PIN_CLICK: count(rates.pinClick), OUTBOUND_CLICK: count(rates.outboundClick) };
}

/** The UTC days from start to end, both included. */
export function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= Date.parse(`${end}T00:00:00Z`); at += DAY_MS) days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const PIN_METRICS = ["IMPRESSION", "SAVE", "PIN_CLICK", "OUTBOUND_CLICK", "SAVE_RATE"] as const;
const ACCOUNT_METRICS = [
  "ENGAGEMENT",
  "ENGAGEMENT_RATE",
  "IMPRESSION",
  "OUTBOUND_CLICK",
  "OUTBOUND_CLICK_RATE",
  "PIN_CLICK",
  "PIN_CLICK_RATE",
  "SAVE",
  "SAVE_RATE",
] as const;

/** start_date and end_date checked as Pinterest checks them, or a 400 answer. */
function dateRange(c: Context, now: number): { start: string; end: string } | Response {
  const start = c.req.query("start_date");
  const end = c.req.query("end_date");
  if (!start || !end) return invalid(c, "'start_date' and 'end_date' are required (YYYY-MM-DD).");
  if (!DATE.test(start) || !DATE.test(end) || Number.isNaN(Date.parse(start)) || Number.isNaN(Date.parse(end))) {
    return invalid(c, "'start_date' and 'end_date' must be dates as YYYY-MM-DD.");
  }
  const today = Date.parse(new Date(now).toISOString().slice(0, 10));
  if (Date.parse(start) < today - MAX_DAYS * DAY_MS) return invalid(c, `'start_date' cannot be more than ${MAX_DAYS} days back from today.`);
  if (Date.parse(end) < Date.parse(start)) return invalid(c, "'end_date' must not be before 'start_date'.");
  if (Date.parse(end) > Date.parse(start) + MAX_DAYS * DAY_MS) return invalid(c, `'end_date' cannot be more than ${MAX_DAYS} days past 'start_date'.`);
  if (Date.parse(end) > today) return invalid(c, "'end_date' cannot be after today.");
  return { start, end };
}

/** A comma-separated (or repeated) list parameter. */
function listParameter(c: Context, name: string): string[] {
  return (c.req.queries(name) ?? []).flatMap((value) => value.split(",")).filter(Boolean);
}

function metricsOf(day: DayFigures, wanted: readonly string[]) {
  const engagement = day.SAVE + day.PIN_CLICK + day.OUTBOUND_CLICK;
  const rate = (n: number) => (day.IMPRESSION > 0 ? Math.round((n / day.IMPRESSION) * 10_000) / 10_000 : 0);
  const all: Record<string, number> = {
    IMPRESSION: day.IMPRESSION,
    SAVE: day.SAVE,
    PIN_CLICK: day.PIN_CLICK,
    OUTBOUND_CLICK: day.OUTBOUND_CLICK,
    ENGAGEMENT: engagement,
    ENGAGEMENT_RATE: rate(engagement),
    SAVE_RATE: rate(day.SAVE),
    PIN_CLICK_RATE: rate(day.PIN_CLICK),
    OUTBOUND_CLICK_RATE: rate(day.OUTBOUND_CLICK),
  };
  return Object.fromEntries(wanted.map((metric) => [metric, all[metric]]));
}

/** Daily metrics and their sum over the ready days, as Pinterest reports them. */
function report(days: DayFigures[], wanted: readonly string[]) {
  const ready = days.filter((day) => day.ready);
  const sum: DayFigures = { date: "", ready: true, IMPRESSION: 0, SAVE: 0, PIN_CLICK: 0, OUTBOUND_CLICK: 0 };
  for (const day of ready) for (const metric of ["IMPRESSION", "SAVE", "PIN_CLICK", "OUTBOUND_CLICK"] as const) sum[metric] += day[metric];
  return {
    daily_metrics: days.map((day) =>
      day.ready ? { date: day.date, data_status: "READY", metrics: metricsOf(day, wanted) } : { date: day.date, data_status: "PROCESSING" },
    ),
    summary_metrics: metricsOf(sum, wanted),
  };
}

const ENUMS: Record<string, readonly string[]> = {
  app_types: ["ALL", "MOBILE", "TABLET", "WEB"],
  from_claimed_content: ["OTHER", "CLAIMED", "BOTH"],
  pin_format: ["ALL", "ORGANIC_IMAGE", "ORGANIC_PRODUCT", "ORGANIC_VIDEO", "ADS_STANDARD", "ADS_PRODUCT", "ADS_VIDEO", "ADS_IDEA"],
  content_type: ["ALL", "PAID", "ORGANIC"],
  source: ["ALL", "YOUR_PINS", "OTHER_PINS"],
  split_field: ["NO_SPLIT", "APP_TYPE", "OWNED_CONTENT", "SOURCE", "PIN_FORMAT"],
};

/** An optional enumerated parameter: its value (default ALL-like), or a 400 answer; values other than the default are not implemented. */
function onlyDefault(c: Context, name: string, fallback: string): Response | null {
  const value = c.req.query(name);
  if (value === undefined) return null;
  if (!ENUMS[name].includes(value)) return invalid(c, `'${name}' must be one of ${ENUMS[name].join(", ")}.`);
  if (value !== fallback) return invalid(c, `'${name}' ${value} is not implemented by the sandbox (only ${fallback}).`);
  return null;
}

export function addAnalyticsRoutes(app: Hono<Env>, state: SandboxState, requireScopes: (c: Context<Env>, scopes: string[]) => Response | null) {
  app.get("/pins/analytics", (c) => {
    const denied = requireScopes(c, ["boards:read", "pins:read"]);
    if (denied) return denied;
    const now = Date.now();
    const ids = listParameter(c, "pin_ids");
    if (ids.length === 0) return invalid(c, "'pin_ids' is required.");
    if (ids.length > 100) return invalid(c, "'pin_ids' holds at most 100 pins.");
    if (ids.some((id) => !/^\d+$/.test(id))) return invalid(c, "'pin_ids' must be pin ids (digits).");
    const range = dateRange(c, now);
    if (range instanceof Response) return range;
    const metrics = listParameter(c, "metric_types");
    if (metrics.length === 0) return invalid(c, "'metric_types' is required.");
    const unknown = metrics.find((metric) => !(PIN_METRICS as readonly string[]).includes(metric));
    if (unknown) return invalid(c, `'metric_types' ${unknown} is not one the sandbox reports (${PIN_METRICS.join(", ")}).`);
    const appType = c.req.query("app_types") ?? "ALL";
    const notDefault = onlyDefault(c, "app_types", "ALL");
    if (notDefault) return notDefault;
    if (c.req.query("ad_account_id") !== undefined) return invalid(c, "'ad_account_id' is not implemented by the sandbox.");
    const account = c.var.account;
    const pins = new Map(
      pinterestState(state)
        .pins.filter((pin) => pin.username === account.username)
        .map((pin) => [pin.id, pin]),
    );
    const missing = ids.find((id) => !pins.has(id));
    if (missing) return c.json({ code: 50, message: "Pin not found." }, 404);
    const days = daysBetween(range.start, range.end);
    const answer: Record<string, Record<string, unknown>> = {};
    for (const id of new Set(ids)) {
      const pin = pins.get(id) as PinRecord;
      answer[id] = {
        [appType]: report(
          days.map((date) => pinDay(pin, date, now)),
          metrics,
        ),
      };
    }
    return c.json(answer);
  });

  app.get("/user_account/analytics", (c) => {
    const denied = requireScopes(c, ["user_accounts:read"]);
    if (denied) return denied;
    const now = Date.now();
    const range = dateRange(c, now);
    if (range instanceof Response) return range;
    const metrics = listParameter(c, "metric_types");
    const unknown = metrics.find((metric) => !(ACCOUNT_METRICS as readonly string[]).includes(metric));
    if (unknown) return invalid(c, `'metric_types' ${unknown} is not one the sandbox reports (${ACCOUNT_METRICS.join(", ")}).`);
    for (const [name, fallback] of [
      ["from_claimed_content", "BOTH"],
      ["pin_format", "ALL"],
      ["app_types", "ALL"],
      ["content_type", "ALL"],
      ["source", "ALL"],
      ["split_field", "NO_SPLIT"],
    ] as const) {
      const notDefault = onlyDefault(c, name, fallback);
      if (notDefault) return notDefault;
    }
    if (c.req.query("ad_account_id") !== undefined) return invalid(c, "'ad_account_id' is not implemented by the sandbox.");
    const username = c.var.account.username;
    const pins = pinterestState(state).pins.filter((pin) => pin.username === username);
    const days = daysBetween(range.start, range.end).map((date) => {
      const total: DayFigures = { ...pinDayOfAccount(username, date, now) };
      for (const pin of pins) {
        const figures = pinDay(pin, date, now);
        for (const metric of ["IMPRESSION", "SAVE", "PIN_CLICK", "OUTBOUND_CLICK"] as const) total[metric] += figures[metric];
      }
      return total;
    });
    return c.json({ all: report(days, metrics.length > 0 ? metrics : ACCOUNT_METRICS) });
  });
}

/** What the account's older pins (made before this product, or by hand) add each day. */
function pinDayOfAccount(username: string, date: string, now: number): DayFigures {
  const ready = Date.parse(`${date}T00:00:00Z`) + DAY_MS <= now;
  const random = seededRandom(stableSeed(`account:${username}:${date}`));
  const impressions = ready ? Math.round(audienceOf(username).reach * (3 + 2 * random())) : 0;
  const count = (rate: number) => Math.round(impressions * rate * (0.8 + 0.4 * random()));
  return { date, ready, IMPRESSION: impressions, SAVE: count(NEUTRAL.save), PIN_CLICK: count(NEUTRAL.pinClick), OUTBOUND_CLICK: count(NEUTRAL.outboundClick) };
}
