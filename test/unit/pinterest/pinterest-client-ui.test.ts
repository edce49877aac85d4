import { describe, expect, it } from "vitest";
import type { Post } from "../../../contracts/content/post.ts";
import { MAX_PINS_PER_SCHEDULE, type PinScheduleFailure, type ScheduledPin, type ScheduleResponse } from "../../../contracts/pinterest/scheduling-api.ts";
import { defaultSchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { ApiError } from "../../../app/lib/api-client.ts";
import {
  BULK_PROGRESS_CAP,
  creepProgress,
  fitText,
  pinBodyOf,
  pinRefusalText,
  renderedFloor,
  scheduleSummary,
  schedulePosts,
  whenTheyPost,
  sameLinkSpread,
  spreadOverBoards,
  type ScheduleFlags,
  type ScheduleTarget,
} from "../../../app/lib/pinterest/bulk-schedule.ts";
import { addMonths, collectUntil, countsByDay, monthRange, monthWeeks, pinsOnDay } from "../../../app/lib/pinterest/calendar.ts";
import {
  newStateCheck,
  oauthOutcome,
  PinterestConnection,
  ReauthorizationNeeded,
  reauthorizePrompt,
  withoutOauthOutcome,
  type ConnectionDeps,
} from "../../../app/lib/pinterest/connection.ts";
import {
  ACCESS_TOKEN_KEY,
  jwtExpiry,
  REFRESH_TOKEN_KEY,
  saveHandles,
  usableAccessToken,
  usableRefreshToken,
  type HandleStore,
} from "../../../app/lib/pinterest/handles.ts";
import { mergePins, queueCursor, queuePages, swapWithNeighbour } from "../../../app/lib/pinterest/queue.ts";
import { nextPinHistoryCursor, RETRY_503_MESSAGE, scheduleFailureMessage, schedulePins } from "../../../app/lib/pinterest/scheduling-api.ts";
import { clockOf, dailyTimes, dateTimeFieldValue, instantOfDateTimeField, secondsOfClock, timeZoneOptions } from "../../../app/lib/pinterest/times.ts";

class MemoryStore implements HandleStore {
  readonly map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

/** A JWT-shaped handle with an `exp` claim (the browser never checks the signature). */
function handle(name: string, expSeconds: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256" })}.${part({ sub: "user-1", exp: expSeconds, name })}.sig`;
}

const NOW = Date.UTC(2026, 4, 5, 12, 0, 0);
const USER = "user-1";

describe("Pinterest handles in session storage", () => {
  it("stores the access handle with expires_at and the refresh handle with its lifetime from the token", () => {
    const store = new MemoryStore();
    const refreshExp = NOW / 1000 + 30 * 86_400;
    saveHandles(store, { userId: USER, username: "anna" }, { authToken: "access-1", refreshToken: handle("r", refreshExp), expiresAt: NOW + 3_600_000 }, NOW);
    expect(JSON.parse(store.getItem(ACCESS_TOKEN_KEY)!)).toMatchObject({
      access_token: "access-1",
      expires_at: NOW + 3_600_000,
      username: "anna",
      userId: USER,
    });
    expect(JSON.parse(store.getItem(REFRESH_TOKEN_KEY)!)).toMatchObject({ refresh_token_expires_in: 30 * 86_400, refresh_token_expires_at: refreshExp * 1000 });
    expect(jwtExpiry("not a token")).toBeNull();
  });

  it("never hands out a handle of another user or profile, nor one about to expire", () => {
    const store = new MemoryStore();
    saveHandles(
      store,
      { userId: USER, username: "anna" },
      { authToken: "access-1", refreshToken: handle("r", NOW / 1000 + 100), expiresAt: NOW + 3_600_000 },
      NOW,
    );
    expect(usableAccessToken(store, { userId: USER, username: "anna" }, NOW)).toBe("access-1");
    expect(usableAccessToken(store, { userId: "someone-else", username: "anna" }, NOW)).toBeNull();
    expect(usableAccessToken(store, { userId: USER, username: "bert" }, NOW)).toBeNull();
    expect(usableAccessToken(store, { userId: USER, username: "anna" }, NOW + 3_600_000 - 30_000), "inside the renewal margin").toBeNull();
    expect(usableRefreshToken(store, { userId: USER, username: "anna" }, NOW + 99_000)).not.toBeNull();
    expect(usableRefreshToken(store, { userId: USER, username: "anna" }, NOW + 101_000)).toBeNull();
    store.setItem(ACCESS_TOKEN_KEY, "{broken");
    expect(usableAccessToken(store, { userId: USER, username: "anna" }, NOW)).toBeNull();
  });
});

interface Call {
  path: string;
  body: Record<string, unknown>;
}

/** A fake API: `answer` decides each call's outcome. */
function fakeApi(answer: (call: Call, calls: Call[]) => unknown) {
  const calls: Call[] = [];
  const store = new MemoryStore();
  let clock = NOW;
  const deps: ConnectionDeps = {
    store,
    now: () => clock,
    async post<T>(path: string, body: unknown): Promise<T> {
      const call = { path: path.replace("/api/pinterestAPI/", ""), body: body as Record<string, unknown> };
      calls.push(call);
      const result = answer(call, calls);
      if (result instanceof Error) throw result;
      return result as T;
    },
  };
  return { calls, store, deps, tick: (ms: number) => (clock += ms) };
}

const issued = (n: number) => ({ authToken: `access-${n}`, refreshToken: handle(`refresh-${n}`, NOW / 1000 + 86_400), expiresAt: NOW + 3_600_000 });
const activation = (n: number) => ({ ...issued(n), schedulingSettings: defaultSchedulingSettings(), authorizedPinterestProfiles: [] });
const unauthorized = (message = "The Pinterest access token has expired.") => new ApiError(401, message);

describe("pin-board calls: refresh on 401 and retry, then the re-authorisation prompt", () => {
  it("activates first when the tab holds no handle, then reuses the stored one", async () => {
    const api = fakeApi((call) => (call.path === "activatePinterestProfile" ? activation(1) : { items: [{ id: "b1", name: "Recipes" }] }));
    const connection = new PinterestConnection(USER, api.deps);
    expect(await connection.boards("anna")).toEqual([{ id: "b1", name: "Recipes" }]);
    await connection.boards("anna");
    expect(api.calls.map((c) => c.path)).toEqual(["activatePinterestProfile", "getAllUserPinterestBoards", "getAllUserPinterestBoards"]);
    expect(api.calls[1].body).toEqual({ access_token: "access-1" });
  });

  it("on 401 refreshes the handle with the stored refresh handle and retries once", async () => {
    const api = fakeApi((call) => {
      if (call.path === "activatePinterestProfile") return activation(1);
      if (call.path === "refreshPinterestAccessToken") return issued(2);
      return call.body.access_token === "access-1" ? unauthorized() : { items: [{ id: "s1", name: "Breakfast" }] };
    });
    const connection = new PinterestConnection(USER, api.deps);
    await connection.activate("anna");
    expect(await connection.sections("anna", "b1")).toEqual([{ id: "s1", name: "Breakfast" }]);
    expect(api.calls.map((c) => c.path)).toEqual(["activatePinterestProfile", "getBoardSections", "refreshPinterestAccessToken", "getBoardSections"]);
    expect(api.calls[2].body.refresh_token).toBe(issued(1).refreshToken);
    expect(api.calls[3].body).toEqual({ access_token: "access-2", boardId: "b1" });
    expect(usableAccessToken(api.store, { userId: USER, username: "anna" }, NOW)).toBe("access-2");
  });

  it("asks the user to reauthorize when the refresh is refused with 401", async () => {
    const api = fakeApi((call) => {
      if (call.path === "activatePinterestProfile") return activation(1);
      return unauthorized("User needs to reauthenticate");
    });
    const connection = new PinterestConnection(USER, api.deps);
    await connection.activate("anna");
    const failure = await connection.boards("anna").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ReauthorizationNeeded);
    expect((failure as Error).message).toBe("We were unable to connect to your Pinterest profile anna. Would you like to reauthorize it now?");
    expect(reauthorizePrompt("anna")).toMatch(/^We were unable to connect to your Pinterest profile .+ Would you like to reauthorize it now\?$/);
  });

  it("asks the user too when the retried call is refused again", async () => {
    const api = fakeApi((call) =>
      call.path === "activatePinterestProfile" ? activation(1) : call.path === "refreshPinterestAccessToken" ? issued(2) : unauthorized(),
    );
    const connection = new PinterestConnection(USER, api.deps);
    await expect(connection.createBoard("anna", { boardName: "New" })).rejects.toBeInstanceOf(ReauthorizationNeeded);
  });

  it("shows activation's own 401 and 423 messages rather than the prompt", async () => {
    const api = fakeApi((call) =>
      call.body.username === "blocked" ? new ApiError(423, "Pinterest profile is blocked") : unauthorized("User needs to reauthenticate"),
    );
    const connection = new PinterestConnection(USER, api.deps);
    await expect(connection.activate("anna")).rejects.toMatchObject({ status: 401, message: "User needs to reauthenticate" });
    await expect(connection.activate("blocked")).rejects.toMatchObject({ status: 423, message: "Pinterest profile is blocked" });
  });

  it("does not retry other failures, and refreshes once for calls made at the same time", async () => {
    let refreshes = 0;
    const api = fakeApi((call) => {
      if (call.path === "activatePinterestProfile") return activation(1);
      if (call.path === "refreshPinterestAccessToken") {
        refreshes += 1;
        return issued(2);
      }
      if (call.body.boardId === "bad") return new ApiError(502, "Pinterest did not answer");
      return call.body.access_token === "access-1" ? unauthorized() : { items: [] };
    });
    const connection = new PinterestConnection(USER, api.deps);
    await connection.activate("anna");
    await Promise.all([connection.boards("anna"), connection.sections("anna", "b1"), connection.sections("anna", "b2")]);
    expect(refreshes).toBe(1);
    await expect(connection.sections("anna", "bad")).rejects.toMatchObject({ status: 502 });
  });

  it("makes a URL-safe state and reads and removes the OAuth outcome from the address", () => {
    const state = newStateCheck();
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newStateCheck()).not.toBe(state);
    expect(oauthOutcome("?pinterestConnected=anna&tab=queue")).toEqual({ connected: "anna", error: null });
    expect(oauthOutcome("?pinterestError=access_denied")).toEqual({ connected: null, error: "access_denied" });
    expect(withoutOauthOutcome("?pinterestConnected=anna&tab=queue")).toBe("?tab=queue");
    expect(withoutOauthOutcome("?pinterestError=x")).toBe("");
  });
});

describe("schedule times in the profile's time zone", () => {
  it("converts clock times and shows the day's posting times of the settings", () => {
    expect(clockOf(72_000)).toBe("20:00");
    expect(secondsOfClock("20:15")).toBe(72_900);
    expect(secondsOfClock("24:00")).toBe(86_400);
    expect(secondsOfClock("25:00")).toBeNull();
    expect(secondsOfClock("7 pm")).toBeNull();
    const times = dailyTimes(defaultSchedulingSettings());
    expect(times).toHaveLength(20);
    expect(times[0]).toBe("02:00");
    expect(times).toContain("20:00");
    // Fewer fit when the interval is long: two 1-hour windows, one pin an hour.
    expect(dailyTimes({ numberOfPinsPerDay: 20, windowOneTimes: [72_000, 75_600], windowTwoTimes: [7_200, 10_800], postingIntervalInSeconds: 3_600 })).toEqual([
      "02:00",
      "20:00",
    ]);
  });

  it("reads a date-time field as a wall time of the zone, across daylight-saving changes", () => {
    expect(instantOfDateTimeField("2026-07-01T20:15", "Europe/London")).toBe(Date.UTC(2026, 6, 1, 19, 15));
    expect(instantOfDateTimeField("2026-01-10T20:15:30", "Europe/London")).toBe(Date.UTC(2026, 0, 10, 20, 15, 30));
    // 02:30 does not exist in New York on 8 March 2026: it moves forward by the gap, as the engine's slots do.
    expect(instantOfDateTimeField("2026-03-08T02:30", "America/New_York")).toBe(Date.UTC(2026, 2, 8, 7, 30));
    expect(instantOfDateTimeField("2026-06-31T10:00", "Etc/GMT")).toBeNull();
    expect(instantOfDateTimeField("tomorrow", "Etc/GMT")).toBeNull();
    const ms = Date.UTC(2026, 9, 25, 0, 30, 5); // 25 October is London's fall-back day: 00:30Z is the first 01:30 (BST)
    expect(dateTimeFieldValue(ms, "Europe/London")).toBe("2026-10-25T01:30:05");
    expect(instantOfDateTimeField(dateTimeFieldValue(ms, "Europe/London"), "Europe/London")).toBe(ms);
    expect(dateTimeFieldValue(Date.UTC(2026, 4, 5, 23, 0), "Asia/Kathmandu")).toBe("2026-05-06T04:45:00");
  });

  it("offers GMT first, then the browser's zones, keeping the saved one", () => {
    const zones = timeZoneOptions("Mars/Olympus_Mons", () => ["Europe/London", "America/New_York", "Etc/GMT"]);
    expect(zones.map((zone) => zone.value)).toEqual(["Etc/GMT", "America/New_York", "Europe/London", "Mars/Olympus_Mons"]);
    expect(zones[0].label).toBe("GMT");
    expect(zones[1].label).toBe("America/New York");
  });
});

function pin(id: string, at: number, status: ScheduledPin["status"] = "scheduled", postedAt: string | null = null): ScheduledPin {
  return {
    id,
    type: "Queue",
    scheduledTime: new Date(at).toISOString(),
    scheduledTimeUTCTimestamp: at,
    status,
    error: null,
    attempts: 0,
    nextAttemptAt: null,
    pinterestPinId: null,
    pinterestUrl: null,
    postedAt,
    repeatingPinId: null,
    createdAt: new Date(NOW).toISOString(),
    title: id,
    description: "",
    altText: "",
    url: "",
    imageURL: "",
    mediaURL: "",
    mediaType: "image",
    videoURL: "",
    videoThumbnail: "",
    media_id: null,
    boardId: "b1",
    sectionId: null,
    boardName: "Recipes",
    pinterestProfileUsername: "anna",
    allowDuplicate: false,
  };
}

describe("the calendar", () => {
  it("lays a month out in full weeks from Monday", () => {
    const weeks = monthWeeks({ year: 2026, monthIndex: 4 }); // May 2026 starts on a Friday
    expect(weeks).toHaveLength(5);
    expect(weeks[0].map((d) => d.key)).toEqual(["2026-04-27", "2026-04-28", "2026-04-29", "2026-04-30", "2026-05-01", "2026-05-02", "2026-05-03"]);
    expect(weeks[0].filter((d) => d.inMonth)).toHaveLength(3);
    expect(weeks.flat().filter((d) => d.inMonth)).toHaveLength(31);
    expect(monthWeeks({ year: 2027, monthIndex: 1 })).toHaveLength(4); // February 2027: Monday 1st to Sunday 28th
    expect(addMonths({ year: 2026, monthIndex: 11 }, 1)).toEqual({ year: 2027, monthIndex: 0 });
    expect(monthRange({ year: 2026, monthIndex: 6 }, "Europe/London")).toEqual({ start: Date.UTC(2026, 5, 30, 23), end: Date.UTC(2026, 6, 31, 23) });
  });

  it("counts scheduled, posted and failed pins on the local day of the profile's zone", () => {
    const pins = [
      pin("a", Date.UTC(2026, 4, 5, 22, 30)), // 6 May in Berlin (UTC+2)
      pin("b", Date.UTC(2026, 4, 5, 10), "posted", new Date(Date.UTC(2026, 4, 5, 10, 1)).toISOString()),
      pin("c", Date.UTC(2026, 4, 5, 11), "failed"),
      pin("c", Date.UTC(2026, 4, 5, 11), "failed"),
    ];
    const counts = countsByDay(pins, "Europe/Berlin");
    expect(counts.get("2026-05-05")).toEqual({ scheduled: 0, posted: 1, failed: 1 });
    expect(counts.get("2026-05-06")).toEqual({ scheduled: 1, posted: 0, failed: 0 });
    expect(countsByDay(pins, "Etc/GMT").get("2026-05-05")).toEqual({ scheduled: 1, posted: 1, failed: 1 });
    expect(pinsOnDay(pins, "2026-05-05", "Etc/GMT").map((p) => p.id)).toEqual(["b", "c", "a"]);
  });

  it("reads pages until the month is covered, and says when it stopped early", async () => {
    const all = Array.from({ length: 120 }, (_, i) => pin(`p${i}`, NOW + i * 3_600_000));
    const requested: (string | null)[] = [];
    const pages = queuePages(async (cursor) => {
      requested.push(cursor);
      const start = cursor ? all.findIndex((p) => p.id === cursor) + 1 : 0;
      return { scheduledPins: all.slice(start, start + 50), totalCount: all.length };
    });
    const covered = await collectUntil(pages, (p) => p.scheduledTimeUTCTimestamp, NOW + 60 * 3_600_000, "asc", 10);
    expect(covered.complete).toBe(true);
    expect(requested).toEqual([null, "p49"]);
    const capped = await collectUntil(pages, (p) => p.scheduledTimeUTCTimestamp, NOW + 1000 * 3_600_000, "asc", 2);
    expect(capped).toMatchObject({ complete: false });
    expect(capped.items).toHaveLength(100);
    const whole = await collectUntil(pages, (p) => p.scheduledTimeUTCTimestamp, NOW + 1000 * 3_600_000, "asc", 10);
    expect(whole.items).toHaveLength(120);
    expect(whole.complete).toBe(true);
  });
});

describe("the queue list", () => {
  it("moving a pin swaps its time with the next waiting pin, skipping pins that are posting or done", () => {
    const list = [pin("a", 1_000), pin("b", 2_000, "posting"), pin("c", 3_000, "paused"), pin("d", 4_000, "failed")];
    expect(swapWithNeighbour(list, "a", 1)).toEqual([
      { id: "a", scheduledTime: 3_000 },
      { id: "c", scheduledTime: 1_000 },
    ]);
    expect(swapWithNeighbour(list, "a", -1)).toBeNull();
    expect(swapWithNeighbour(list, "c", 1)).toBeNull();
    expect(swapWithNeighbour(list, "b", 1), "a pin being posted stays").toBeNull();
  });

  it("pages by the last pin id while pins remain, and replaces pins read twice", () => {
    expect(queueCursor(50, [pin("x", 1)], 120)).toBe("x");
    expect(queueCursor(120, [pin("y", 1)], 120)).toBeNull();
    expect(mergePins([pin("a", 1), pin("b", 2)], [pin("b", 5), pin("c", 3)]).map((p) => [p.id, p.scheduledTimeUTCTimestamp])).toEqual([
      ["a", 1],
      ["b", 5],
      ["c", 3],
    ]);
  });

  it("asks for another page of pin history only while the count loaded is a multiple of 30", () => {
    const entry = (i: number) => ({ id: `h${i}`, createdAtUTCTimestamp: 1_000 - i }) as Parameters<typeof nextPinHistoryCursor>[1][number];
    const full = Array.from({ length: 30 }, (_, i) => entry(i));
    expect(nextPinHistoryCursor(30, full)).toEqual({ startAtDate: 971, lastId: "h29" });
    expect(nextPinHistoryCursor(59, full.slice(0, 29))).toBeNull();
    expect(nextPinHistoryCursor(30, [])).toBeNull();
  });
});

function post(id: string, overrides: Partial<Post> = {}): Post {
  return {
    id,
    templateType: "t1",
    colorIndex: 1,
    color: { r: 81, g: 195, b: 166, a: 1 },
    title: `Title ${id}`,
    date: "",
    description: "A description",
    altText: "Alt",
    allImages: [],
    selectedImages: [],
    url: "https://blog.example/post",
    URLText: "",
    brandName: "",
    logoImage: "",
    price: "",
    listItems: [],
    quote: "",
    video: "",
    comparison: [],
    fontFamily: "Carter One",
    fontUrl: "",
    fontColor: "",
    useUpperCaseFont: true,
    fixLowContrastText: true,
    textDesignOverrides: {},
    imageDesignOverrides: {},
    fileName: "",
    selectedBoards: [],
    isLocked: false,
    isScheduling: false,
    isScheduled: false,
    isDownloading: false,
    isDownloaded: false,
    isPinning: false,
    isPinned: false,
    error: "",
    ...overrides,
  };
}

const TARGET: ScheduleTarget = {
  pinterestProfileUsername: "anna",
  boardId: "b1",
  boardName: "Recipes",
  sectionId: null,
  when: { type: "SpecificDate", at: NOW + 60_000 },
  allowDuplicate: true,
  timeZone: "Etc/GMT",
};

function flagLog() {
  const flags = new Map<string, ScheduleFlags>();
  const floors: number[] = [];
  return {
    flags,
    floors,
    setFlags(ids: ReadonlySet<string>, change: ScheduleFlags) {
      for (const id of ids) flags.set(id, { ...flags.get(id), ...change });
    },
    onFloor: (floor: number) => floors.push(floor),
  };
}

const response = (n: number, failedPins: ScheduleResponse["failedPins"] = []): ScheduleResponse => ({
  scheduledPins: [],
  repeatingPins: [],
  failedPins,
  creditsCharged: n,
});

describe("bulk scheduling from the generator", () => {
  it("builds schedulePin bodies within Pinterest's limits, with a stable reference", () => {
    const long = post("p1", { title: "word ".repeat(40).trim(), url: "not a link" });
    const body = pinBodyOf(long, "https://app.example/media/p1.jpeg", TARGET);
    expect([...body.title!].length).toBeLessThanOrEqual(100);
    expect(body.title!.endsWith("word")).toBe(true);
    expect(body).toMatchObject({
      url: "",
      imageURL: "https://app.example/media/p1.jpeg",
      type: "SpecificDate",
      scheduledTime: NOW + 60_000,
      boardId: "b1",
      allowDuplicate: true,
      pinterestProfileUsername: "anna",
    });
    expect(body.reference).toMatch(/^[A-Za-z0-9:_.-]{8,120}$/);
    expect(pinBodyOf(long, "https://app.example/media/p1.jpeg", TARGET).reference).toBe(body.reference);
    expect(pinBodyOf(long, "https://app.example/media/p1.jpeg", { ...TARGET, boardId: "b2" }).reference).not.toBe(body.reference);
    expect(pinBodyOf(post("q"), "https://x.example/i.jpeg", { ...TARGET, when: { type: "Queue" } })).toMatchObject({ type: "Queue", scheduledTime: null });
    expect(fitText("😀".repeat(120), 100)).toHaveLength(200); // 100 code points, 2 UTF-16 units each
  });

  it("flags each post: scheduling, then scheduled; the bar never passes 90 before the server answers", async () => {
    const log = flagLog();
    const sent: unknown[][] = [];
    const result = await schedulePosts([post("a"), post("b"), post("c")], TARGET, {
      render: async (p) => `https://app.example/media/${p.id}.jpeg`,
      schedule: async (pins) => {
        sent.push(pins);
        expect([...log.flags.values()].every((f) => f.isScheduling === true && f.isScheduled === false)).toBe(true);
        return response(3);
      },
      setFlags: log.setFlags,
      onFloor: log.onFloor,
    });
    expect(result).toEqual({ total: 3, scheduled: 3, creditsCharged: 3, failed: [], times: [] });
    expect(sent).toHaveLength(1);
    expect((sent[0] as { imageURL: string }[]).map((p) => p.imageURL)).toEqual(["a", "b", "c"].map((id) => `https://app.example/media/${id}.jpeg`));
    expect([...log.flags.values()]).toEqual(Array(3).fill({ isScheduling: false, isScheduled: true, error: "" }));
    expect(Math.max(...log.floors)).toBeLessThanOrEqual(BULK_PROGRESS_CAP);
    let bar = 0;
    for (let i = 0; i < 500; i++) bar = creepProgress(bar, renderedFloor(1, 3));
    expect(bar).toBeGreaterThan(85);
    expect(bar).toBeLessThanOrEqual(BULK_PROGRESS_CAP);
    expect(creepProgress(10, 40)).toBe(40);
  });

  it("splits more pins than one request holds into requests of 1,000, the bar rising with each answer; a refused request marks its own pins alone", async () => {
    expect(MAX_PINS_PER_SCHEDULE).toBe(1000);
    const log = flagLog();
    const posts = Array.from({ length: 2500 }, (_, i) => post(`p${i}`));
    const sent: { imageURL: string }[][] = [];
    const floorsAtCall: number[] = [];
    const result = await schedulePosts(posts, TARGET, {
      render: async (p) => `https://app.example/media/${p.id}.jpeg`,
      schedule: async (pins) => {
        sent.push(pins as { imageURL: string }[]);
        floorsAtCall.push(log.floors[log.floors.length - 1]);
        if (sent.length === 2) throw new ApiError(400, "pins must hold at most 1,000 pins per request");
        return response(pins.length);
      },
      setFlags: log.setFlags,
      onFloor: log.onFloor,
      concurrency: 8,
    });
    // Three requests, in the grid's order, none above the limit.
    expect(sent.map((pins) => pins.length)).toEqual([1000, 1000, 500]);
    expect(sent.flat().map((p) => p.imageURL)).toEqual(posts.map((p) => `https://app.example/media/${p.id}.jpeg`));
    // The bar moves on after each answer and never passes 90.
    const afterEach = [...floorsAtCall.slice(1), log.floors[log.floors.length - 1]];
    expect(afterEach[0]).toBeGreaterThan(floorsAtCall[0]);
    expect(afterEach[1]).toBeGreaterThan(afterEach[0]);
    expect(afterEach[2]).toBe(BULK_PROGRESS_CAP);
    // The second request's pins failed; the others were scheduled.
    expect(result.scheduled).toBe(1500);
    expect(result.failed).toHaveLength(1000);
    expect(log.flags.get("p999")).toEqual({ isScheduling: false, isScheduled: true, error: "" });
    expect(log.flags.get("p1000")).toMatchObject({ isScheduled: false, error: "400 - pins must hold at most 1,000 pins per request" });
    expect(log.flags.get("p2000")).toEqual({ isScheduling: false, isScheduled: true, error: "" });
    expect(scheduleSummary(result, TARGET).title).toBe("1500 of 2500 pins scheduled to Recipes");
  });

  it("a failed render or call sets the error text and both flags false, the others carry on", async () => {
    const log = flagLog();
    const result = await schedulePosts([post("a"), post("broken"), post("c")], TARGET, {
      render: async (p) => {
        if (p.id === "broken") throw new Error("The template could not be drawn");
        return `https://app.example/media/${p.id}.jpeg`;
      },
      schedule: async () => {
        throw new ApiError(409, "The same link is not posted to the same board twice within 48 hours");
      },
      setFlags: log.setFlags,
      onFloor: log.onFloor,
    });
    expect(result.scheduled).toBe(0);
    expect(log.flags.get("broken")).toEqual({ isScheduling: false, isScheduled: false, error: "Unable to render the pin: The template could not be drawn" });
    expect(log.flags.get("a")).toEqual({
      isScheduling: false,
      isScheduled: false,
      error: "409 - The same link is not posted to the same board twice within 48 hours",
    });
    // The render was that pin's own problem; the call's failure is told once, in the summary.
    expect(scheduleSummary(result, TARGET)).toEqual({
      title: "None of the 3 pins could be scheduled",
      description: "409 - The same link is not posted to the same board twice within 48 hours",
      kind: "error",
    });
  });

  it("a pin the server refuses on its own says why on its card alone, in plain words and the profile's time zone; the others are scheduled", async () => {
    const log = flagLog();
    const target: ScheduleTarget = { ...TARGET, boardName: "Recipes to Try", allowDuplicate: false, timeZone: "America/New_York" };
    const otherAt = Date.UTC(2026, 10, 24, 19, 5);
    const duplicate: PinScheduleFailure = {
      index: 1,
      reference: "post:b",
      status: 409,
      reason: "duplicate",
      error:
        '"Title b" links to https://blog.example/post, which is scheduled to board "Recipes to Try" at 2026-11-24T19:05:00Z ("Lemon chicken"). … or set allowDuplicate to post it anyway.',
      field: "pins.1.scheduledTime",
      conflict: { title: "Lemon chicken", state: "scheduled", at: new Date(otherAt).toISOString(), atUTCTimestamp: otherAt, boardName: "Recipes to Try" },
    };
    const result = await schedulePosts([post("a"), post("b"), post("c"), post("d"), post("e")], target, {
      render: async (p) => `https://app.example/media/${p.id}.jpeg`,
      schedule: async () => response(4, [duplicate]),
      setFlags: log.setFlags,
      onFloor: log.onFloor,
    });
    expect(result).toMatchObject({ total: 5, scheduled: 4, creditsCharged: 4 });
    expect(result.failed).toEqual([{ postId: "b", cause: "pin", reason: "duplicate", error: expect.any(String) }]);
    const text = log.flags.get("b")?.error ?? "";
    expect(text).toBe(
      'Not scheduled: the same link is already scheduled to Recipes to Try for Tue, 24 Nov 2026, 14:05 America/New York ("Lemon chicken"). A link is posted to a board at most once in 48 hours.',
    );
    expect(text).not.toMatch(/allowDuplicate|scheduledTime|\d{4}-\d{2}-\d{2}T|409/);
    for (const id of ["a", "c", "d", "e"]) expect(log.flags.get(id)).toEqual({ isScheduling: false, isScheduled: true, error: "" });
    expect(scheduleSummary(result, target)).toEqual({
      title: "4 of 5 pins scheduled to Recipes to Try",
      description: "1 pin could not be scheduled. Its card says why.",
      kind: "error",
    });

    // A posted twin, and a time that passed on the way: said in the zone too.
    expect(pinRefusalText({ ...duplicate, conflict: { ...duplicate.conflict!, state: "posted" } }, { ...target, timeZone: "Etc/GMT" })).toBe(
      'Not scheduled: the same link was posted to Recipes to Try on Tue, 24 Nov 2026, 19:05 GMT ("Lemon chicken"). A link is posted to a board at most once in 48 hours.',
    );
    expect(pinRefusalText({ reason: "past" }, { ...target, when: { type: "SpecificDate", at: otherAt }, timeZone: "Europe/Paris" })).toBe(
      "Not scheduled: the chosen time, Tue, 24 Nov 2026, 20:05 Europe/Paris, had passed by the time the pin was sent. Schedule it again for a later time.",
    );
    // Posting it anyway is a request of its own: a new reference.
    expect(pinBodyOf(post("b"), "https://app.example/media/b.jpeg", { ...target, allowDuplicate: true }).reference).not.toBe(
      pinBodyOf(post("b"), "https://app.example/media/b.jpeg", target).reference,
    );
  });

  it("says how many pins post today and when the last one does, in the profile's zone, and why the 48-hour rule spread them (issue 40 point 1)", async () => {
    // Wed 2 Dec 2026, 10:00 in Paris (09:00 UTC); 20 pins of 4 posts on one board, at 20 a day.
    const now = Date.UTC(2026, 11, 2, 9, 0);
    const hour = 3600_000;
    const times = Array.from({ length: 20 }, (_, i) => ({
      postId: `p${i}`,
      url: `https://blog.example/post-${i % 4}`,
      // The first of each post today; the others wait 48 hours each.
      at: now + hour + Math.floor(i / 4) * 48 * hour + (i % 4) * 600_000,
    }));
    const paris: ScheduleTarget = { ...TARGET, boardName: "Living room", when: { type: "Queue" }, allowDuplicate: false, timeZone: "Europe/Paris" };
    expect(whenTheyPost(times, paris, now)).toBe(
      "4 today, the last on Thu 10 Dec at 11:30 (Europe/Paris time), because pins of one post wait 48 hours per board.",
    );
    // Through the whole bulk schedule: the server's answer gives each pin's time.
    const scheduledPin = (index: number) => ({ ...times[index], scheduledTimeUTCTimestamp: times[index].at }) as unknown as ScheduledPin;
    const result = await schedulePosts(
      times.map((time) => post(time.postId, { url: time.url })),
      paris,
      {
        render: async (p) => `https://app.example/media/${p.id}.jpeg`,
        schedule: async (pins) => ({ ...response(pins.length), scheduledPins: pins.map((_, index) => scheduledPin(index)) }),
        setFlags: () => {},
        onFloor: () => {},
      },
    );
    expect(result.times.map((time) => time.postId)).toEqual(times.map((time) => time.postId));
    expect(scheduleSummary(result, paris, now)).toEqual({
      title: "20 pins scheduled to Living room",
      description: "4 today, the last on Thu 10 Dec at 11:30 (Europe/Paris time), because pins of one post wait 48 hours per board.",
      kind: "success",
    });
    // All today; none today; one pin; another zone.
    expect(whenTheyPost(times.slice(0, 4), paris, now)).toBe("All post today, the last at 11:30 (Europe/Paris time).");
    expect(whenTheyPost(times.slice(4, 8), paris, now)).toBe("The first on Fri 4 Dec at 11:00, the last on Fri 4 Dec at 11:30 (Europe/Paris time).");
    expect(whenTheyPost([times[5]], { ...paris, timeZone: "America/New_York" }, now)).toBe("It posts on Fri 4 Dec at 05:10 (America/New York time).");
    expect(whenTheyPost([times[0]], paris, now)).toBe("It posts today at 11:00 (Europe/Paris time).");
    // Posted anyway (duplicates allowed): nothing was held back by the rule.
    expect(whenTheyPost(times, { ...paris, allowDuplicate: true }, now)).toBe("4 today, the last on Thu 10 Dec at 11:30 (Europe/Paris time).");
    expect(whenTheyPost([], paris, now)).toBeNull();
  });

  it("schedulePin: a 503 is tried once more, and a second 503 reads 'Please try again - Error 503'", async () => {
    let calls = 0;
    const flaky = async <T>() => {
      calls += 1;
      if (calls === 1) throw new ApiError(503, "busy");
      return response(1) as T;
    };
    expect(await schedulePins([], flaky)).toEqual(response(1));
    expect(calls).toBe(2);
    calls = 0;
    const down = async <T>(): Promise<T> => {
      calls += 1;
      throw new ApiError(503, "busy");
    };
    const failure = await schedulePins([], down).catch((error: unknown) => error);
    expect(calls).toBe(2);
    expect(scheduleFailureMessage(failure)).toBe(RETRY_503_MESSAGE);
    expect(RETRY_503_MESSAGE).toBe("Please try again - Error 503");
    expect(scheduleFailureMessage(new ApiError(400, "pins.0.title must be at most 100 characters"))).toBe("400 - pins.0.title must be at most 100 characters");
  });
});

describe("spreading pins of one link over boards (issue 40 point 1)", () => {
  it("says how long pins of one link take on one board and on more", () => {
    const links = ["a", "a", "a", "a", "a", "b", "b", ""];
    expect(sameLinkSpread(links, 1)).toEqual({ pins: 5, days: 8 });
    expect(sameLinkSpread(links, 2)).toEqual({ pins: 5, days: 4 });
    expect(sameLinkSpread(links, 5)).toEqual({ pins: 5, days: 0 });
    expect(sameLinkSpread(["a", "b"], 1)).toEqual({ pins: 1, days: 0 });
    expect(sameLinkSpread([], 1)).toEqual({ pins: 0, days: 0 });
  });

  it("sends the n-th pin of a link to the n-th board, keeping the grid's order", () => {
    const posts = ["a1", "a2", "b1", "a3", "b2", "c1"].map((id) => ({ id, url: id[0] }));
    expect(spreadOverBoards(posts, 2).map((board) => board.map((post) => post.id))).toEqual([
      ["a1", "b1", "a3", "c1"],
      ["a2", "b2"],
    ]);
    expect(spreadOverBoards(posts, 1).map((board) => board.map((post) => post.id))).toEqual([["a1", "a2", "b1", "a3", "b2", "c1"]]);
  });
});
