import { BEST_TIMES_MIN_PINS, type BestTimes } from "../../contracts/pinterest/analytics.ts";
import { defaultSchedulingSettings } from "../../contracts/pinterest/scheduling.ts";

/**
 * Best posting times (issue 41) from the profile's own figures: how much engagement (saves, pin clicks and outbound
 * clicks) the pins posted at each weekday and hour of the profile's zone earned over 90 days. Below
 * BEST_TIMES_MIN_PINS pins with figures the scheduling defaults stand, with a note saying so.
 */

/** Pins posted at one weekday (0 = Sunday) and hour (0-23, the profile's zone) and what they earned. */
export interface AudienceCell {
  weekday: number;
  hour: number;
  pins: number;
  impressions: number;
  engagements: number;
}

const HOUR_S = 3600;
const DAY_S = 86_400;
/** Hours in the first and the second window (as long as the defaults' windows). */
const WINDOW_ONE_HOURS = 3;
const WINDOW_TWO_HOURS = 2;

/** "9 am", "12 pm", "12 am" (midnight). */
export function hourLabel(hour: number): string {
  const h = ((hour % 24) + 24) % 24;
  return `${h % 12 === 0 ? 12 : h % 12} ${h < 12 ? "am" : "pm"}`;
}

/** Engagement per pin posted at an hour: the hour's score before smoothing (impressions break ties between hours without engagement). */
function perPin(cells: AudienceCell[]): number {
  const pins = cells.reduce((n, cell) => n + cell.pins, 0);
  if (pins === 0) return 0;
  const engagements = cells.reduce((n, cell) => n + cell.engagements, 0);
  const impressions = cells.reduce((n, cell) => n + cell.impressions, 0);
  return (engagements + impressions / 1000) / pins;
}

/** The start hour of the best block of `length` hours (wrapping past midnight), skipping hours in `taken`; null when no block scores. */
function bestBlock(scores: number[], length: number, taken: Set<number>): number | null {
  let best: number | null = null;
  let bestScore = 0;
  for (let start = 0; start < 24; start += 1) {
    const hours = Array.from({ length }, (_, i) => (start + i) % 24);
    if (hours.some((hour) => taken.has(hour))) continue;
    const score = hours.reduce((sum, hour) => sum + scores[hour], 0);
    if (score > bestScore) [best, bestScore] = [start, score];
  }
  return best;
}

export function bestTimes(input: { username: string; timeZone: string; cells: AudienceCell[] }): BestTimes {
  const defaults = defaultSchedulingSettings();
  const sample = input.cells.reduce((n, cell) => n + cell.pins, 0);
  const hourScores = Array.from({ length: 24 }, (_, hour) => perPin(input.cells.filter((cell) => cell.hour === hour)));
  const top = Math.max(...hourScores);
  const hours = hourScores.map((score, hour) => ({ hour, score: top > 0 ? Math.round((score / top) * 1000) / 1000 : 0 }));
  const weekdays = Array.from({ length: 7 }, (_, weekday) => {
    const scores = Array.from({ length: 24 }, (_, hour) => perPin(input.cells.filter((cell) => cell.weekday === weekday && cell.hour === hour)));
    const best = Math.max(...scores);
    const bestHour = best > 0 ? scores.indexOf(best) : Math.floor((defaults.windowOneTimes[0] / HOUR_S) % 24);
    return { weekday, bestHour, score: top > 0 ? Math.round((best / top) * 1000) / 1000 : 0 };
  });
  const base = { username: input.username, timeZone: input.timeZone, sample, minimumSample: BEST_TIMES_MIN_PINS, hours, weekdays };
  if (sample < BEST_TIMES_MIN_PINS || top === 0) {
    return {
      ...base,
      basedOn: "defaults",
      note: `These are the usual posting times: your own are worked out once ${BEST_TIMES_MIN_PINS} of your pins have figures from Pinterest (${sample} so far).`,
      windowOneTimes: defaults.windowOneTimes,
      windowTwoTimes: defaults.windowTwoTimes,
    };
  }
  // Each hour counts with its neighbours (a busy audience at 8 pm is likely still there at 9).
  const smoothed = hourScores.map((score, hour) => score + 0.5 * (hourScores[(hour + 23) % 24] + hourScores[(hour + 1) % 24]));
  const first = bestBlock(smoothed, WINDOW_ONE_HOURS, new Set()) as number;
  // The second window keeps an hour apart from the first.
  const taken = new Set(Array.from({ length: WINDOW_ONE_HOURS + 2 }, (_, i) => (first - 1 + i + 24) % 24));
  const second = bestBlock(smoothed, WINDOW_TWO_HOURS, taken);
  const window = (start: number, length: number): [number, number] => [start * HOUR_S, ((start + length) * HOUR_S) % DAY_S];
  return {
    ...base,
    basedOn: "audience",
    note: `Based on ${sample} of your pins over the last 90 days: your audience engages most with pins posted from ${hourLabel(first)} to ${hourLabel(first + WINDOW_ONE_HOURS)}.`,
    windowOneTimes: window(first, WINDOW_ONE_HOURS),
    windowTwoTimes: second === null ? null : window(second, WINDOW_TWO_HOURS),
  };
}
