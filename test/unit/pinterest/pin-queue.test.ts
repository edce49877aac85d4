import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { defaultSchedulingSettings, SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import {
  assignQueueSlots,
  duplicateKeyOf,
  freeSlotsAfter,
  DUPLICATE_WINDOW_MS,
  findDuplicate,
  keysetPage,
  linkKey,
  matchesSentPin,
  MAX_FAILURES,
  NoFreeSlot,
  pageReachesBefore,
  pinFailureOutcome,
  rateLimitHoldMs,
  RETRY_CAP_MS,
  retryDelayMs,
  type ListedPin,
  type SentPin,
} from "../../../workers/domain/pin-queue.ts";
import { nextFreeSlots } from "../../../workers/domain/scheduling.ts";

const HOUR = 3_600_000;
const middle = () => 0.5;

describe("the 48-hour duplicate rule", () => {
  it("compares links without tracking parameters, fragments, trailing slashes or host case", () => {
    expect(linkKey("https://Linen.Example/posts/napkins/?utm_source=pinterest&utm_medium=social#comments")).toBe("https://linen.example/posts/napkins");
    expect(linkKey("https://linen.example/shop?b=2&a=1")).toBe(linkKey("https://linen.example/shop?a=1&b=2"));
    expect(linkKey("https://linen.example/shop?id=1")).not.toBe(linkKey("https://linen.example/shop?id=2"));
    expect(linkKey("")).toBeNull();
    expect(linkKey(undefined)).toBeNull();
  });

  it("finds another pin of the same link on the same board less than 48 hours away, before or after", () => {
    const at = Date.UTC(2026, 4, 1, 18);
    const key = linkKey("https://linen.example/a");
    const others = [
      { id: "other-board", boardId: "2", linkKey: key, at: at + HOUR },
      { id: "other-link", boardId: "1", linkKey: linkKey("https://linen.example/b"), at },
      { id: "exactly-48h", boardId: "1", linkKey: key, at: at + DUPLICATE_WINDOW_MS },
      { id: "47h-before", boardId: "1", linkKey: key, at: at - 47 * HOUR },
    ];
    expect(findDuplicate({ id: "new", boardId: "1", linkKey: key, at }, others)?.id).toBe("47h-before");
    expect(findDuplicate({ id: "new", boardId: "1", linkKey: key, at }, others.slice(0, 3))).toBeNull();
    expect(findDuplicate({ id: "new", boardId: "1", linkKey: null, at }, others)).toBeNull();
    // A pin is not its own duplicate.
    expect(findDuplicate({ id: "47h-before", boardId: "1", linkKey: key, at: at - 47 * HOUR }, others.slice(3))).toBeNull();
  });
});

describe("Queue slots", () => {
  const settings = defaultSchedulingSettings();
  const now = Date.UTC(2026, 4, 1, 12);

  it("finds the same free slots as the scheduling domain, across daylight-saving changes, however long the queue", () => {
    for (const zone of ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Etc/GMT"]) {
      const zoned = v.parse(SchedulingSettings, { timezone: { label: zone, value: zone }, windowOneTimes: [3_600, 10_800], windowTwoTimes: [72_000, 82_800] });
      const from = Date.UTC(2026, 1, 20);
      const taken = new Set(nextFreeSlots(zoned, new Set(), from, 400).filter((_, i) => i % 3 !== 0));
      expect(freeSlotsAfter(zoned, taken, from, 300), zone).toEqual(nextFreeSlots(zoned, taken, from, 300));
      // Asked again (from the remembered days), the answer is the same.
      expect(freeSlotsAfter(zoned, taken, from + 3_600_000, 50), zone).toEqual(nextFreeSlots(zoned, taken, from + 3_600_000, 50));
    }
  });

  it("takes the next free slots in order, skipping taken ones", () => {
    const free = nextFreeSlots(settings, new Set(), now, 5);
    const taken = new Set([free[1], free[3]]);
    expect(assignQueueSlots(settings, now, taken, [{ duplicateKey: null }, { duplicateKey: null }, { duplicateKey: null }])).toEqual([
      free[0],
      free[2],
      free[4],
    ]);
  });

  it("places pins with the same board and link at least 48 hours apart, and others in the gaps", () => {
    const key = duplicateKeyOf("1", linkKey("https://linen.example/a"));
    const slots = assignQueueSlots(settings, now, new Set(), [{ duplicateKey: key }, { duplicateKey: key }, { duplicateKey: null }, { duplicateKey: key }]);
    expect(slots[1] - slots[0]).toBeGreaterThanOrEqual(DUPLICATE_WINDOW_MS);
    expect(slots[3] - slots[1]).toBeGreaterThanOrEqual(DUPLICATE_WINDOW_MS);
    // The pin without the rule takes the first slot after the first pin.
    expect(slots[2]).toBe(nextFreeSlots(settings, new Set([slots[0]]), now, 1)[0]);
  });

  it("keeps 48 hours from pins already in the queue with that link", () => {
    const key = duplicateKeyOf("1", linkKey("https://linen.example/a"))!;
    const existing = now + 30 * HOUR;
    const [slot] = assignQueueSlots(settings, now, new Set(), [{ duplicateKey: key }], new Map([[key, [existing]]]));
    expect(slot - existing).toBeGreaterThanOrEqual(DUPLICATE_WINDOW_MS);
  });

  it("fills many days quickly and says so when no slot is left", () => {
    const busy = v.parse(SchedulingSettings, { numberOfPinsPerDay: 100, postingIntervalInSeconds: 60 });
    const slots = assignQueueSlots(
      busy,
      now,
      new Set(),
      Array.from({ length: 1000 }, () => ({ duplicateKey: null })),
    );
    expect(new Set(slots).size).toBe(1000);
    expect(slots.every((slot, i) => i === 0 || slot > slots[i - 1])).toBe(true);
    const key = "1 https://linen.example/a";
    expect(() => assignQueueSlots(settings, now, new Set(), [{ duplicateKey: key }, { duplicateKey: key }], new Map(), 1)).toThrow(NoFreeSlot);
  });
});

describe("retries", () => {
  it("backs off exponentially from 2 s with ±20% jitter, capped at 10 minutes", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, null, middle))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(retryDelayMs(30, null, middle)).toBe(RETRY_CAP_MS);
    expect(retryDelayMs(1, null, () => 0)).toBe(1_600);
    expect(retryDelayMs(1, null, () => 1)).toBe(2_400);
  });

  it("never retries sooner than Pinterest asked", () => {
    expect(retryDelayMs(1, 30_000, middle)).toBe(30_000);
    expect(retryDelayMs(4, 1_000, middle)).toBe(16_000);
  });

  it("holds a rate-limited profile until Retry-After, else x-ratelimit-reset, else a backoff", () => {
    expect(rateLimitHoldMs(5_000, 60, 1, () => 0)).toBe(5_000);
    expect(rateLimitHoldMs(null, 7, 1, () => 0)).toBe(7_000);
    expect(rateLimitHoldMs(null, null, 3, () => 0)).toBe(retryDelayMs(3, null, () => 0));
    expect(rateLimitHoldMs(null, 3_600, 1, () => 0)).toBe(RETRY_CAP_MS);
  });

  it("reads a failed call: look before repeating after 5xx or no answer, hold on 429, fail on a refusal or too many failures", () => {
    const failure = (kind: string, status: number | null, message = "boom") => ({ kind, status, message, retryAfterMs: null });
    expect(pinFailureOutcome(failure("server", 503), 1, middle)).toEqual({
      action: "retry",
      check: true,
      counts: true,
      delayMs: 2_000,
      reason: "Pinterest answered 503: boom",
    });
    expect(pinFailureOutcome(failure("timeout", null, "Pinterest did not answer within 15000 ms"), 2, middle)).toMatchObject({
      action: "retry",
      check: true,
      delayMs: 4_000,
    });
    expect(pinFailureOutcome(failure("network", null), 1, middle)).toMatchObject({ action: "retry", check: true });
    expect(pinFailureOutcome({ ...failure("rate_limited", 429), retryAfterMs: 1_000 }, 1, () => 0)).toMatchObject({ action: "hold", delayMs: 1_000 });
    expect(pinFailureOutcome(failure("bad_request", 400, "Invalid parameters: 'link' must be an absolute http(s) URL."), 1)).toEqual({
      action: "fail",
      reason: "Pinterest refused the pin (400): Invalid parameters: 'link' must be an absolute http(s) URL.",
    });
    expect(pinFailureOutcome(failure("not_found", 404, "Board not found."), 1)).toMatchObject({
      action: "fail",
      reason: expect.stringContaining("Board not found."),
    });
    expect(pinFailureOutcome(failure("server", 502), MAX_FAILURES)).toMatchObject({
      action: "fail",
      mayExist: true,
      reason: expect.stringContaining(`gave up after ${MAX_FAILURES} attempts`),
    });
    expect(pinFailureOutcome(failure("bad_request", 400), MAX_FAILURES)).not.toHaveProperty("mayExist");
  });
});

describe("finding a pin whose answer was lost", () => {
  const since = Date.UTC(2026, 4, 1, 18);
  const sent: SentPin = {
    title: "Overnight oats",
    description: "Five ways",
    link: "https://oats.example/post",
    altText: "A jar of oats",
    mediaType: "image",
    imageUrl: "https://oats.example/pin.jpeg",
  };
  const listed = (fields: Partial<ListedPin> = {}): ListedPin => ({
    id: "p1",
    title: "Overnight oats",
    description: "Five ways",
    link: "https://oats.example/post",
    alt_text: "A jar of oats",
    created_at: new Date(since + 500).toISOString(),
    media: { media_type: "image", images: { "600x": { url: "https://i.pinimg.example/600x/ab.jpg" } } },
    ...fields,
  });

  it("recognises it by link, title and image, or by description and alt text when Pinterest shows its own image URL", () => {
    expect(
      matchesSentPin(listed({ description: "changed", media: { media_type: "image", images: { "600x": { url: sent.imageUrl } } } }), sent, since, new Set()),
    ).toBe(true);
    expect(matchesSentPin(listed(), sent, since, new Set())).toBe(true);
  });

  it("does not take another pin for it", () => {
    expect(matchesSentPin(listed({ title: "Overnight oats 2" }), sent, since, new Set())).toBe(false);
    expect(matchesSentPin(listed({ link: "https://oats.example/other" }), sent, since, new Set())).toBe(false);
    expect(matchesSentPin(listed({ alt_text: "Another" }), sent, since, new Set())).toBe(false);
    expect(matchesSentPin(listed({ media: { media_type: "video" } }), sent, since, new Set())).toBe(false);
    expect(matchesSentPin(listed({ created_at: new Date(since - 3_600_000).toISOString() }), sent, since, new Set())).toBe(false);
    // Already recorded for another of our pins.
    expect(matchesSentPin(listed(), sent, since, new Set(["p1"]))).toBe(false);
  });

  it("stops reading the board once a page reaches pins older than the attempt", () => {
    expect(pageReachesBefore([listed(), listed({ created_at: new Date(since - 3_600_000).toISOString() })], since)).toBe(true);
    expect(pageReachesBefore([listed()], since)).toBe(false);
    expect(pageReachesBefore([], since)).toBe(false);
  });
});

describe("paging the queue", () => {
  it("orders by scheduled time then id, and continues after the cursor in either direction", () => {
    expect(keysetPage("scheduledTimeUTCTimestamp-asc", null)).toEqual({ where: "1 = 1", params: [], orderBy: "scheduled_time ASC, id ASC" });
    expect(keysetPage("scheduledTimeUTCTimestamp-asc", { scheduledTime: 100, id: "b" })).toEqual({
      where: "(scheduled_time > ? OR (scheduled_time = ? AND id > ?))",
      params: [100, 100, "b"],
      orderBy: "scheduled_time ASC, id ASC",
    });
    expect(keysetPage("scheduledTimeUTCTimestamp-desc", { scheduledTime: 100, id: "b" })).toMatchObject({
      where: "(scheduled_time < ? OR (scheduled_time = ? AND id < ?))",
      orderBy: "scheduled_time DESC, id DESC",
    });
  });
});
