import { and, eq, lt } from "drizzle-orm";
import * as v from "valibot";
import { beforeAll, describe, expect, it } from "vitest";
import { RewriteTextBody } from "../../../contracts/content/ai.ts";
import { creditLedger, pinHistory } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { KEY_IN_PROGRESS_MESSAGE, KEY_REUSED_MESSAGE, requestHash } from "../../../workers/services/core/idempotency.ts";
import { PIN_DELETED_SINCE_MESSAGE } from "../../../workers/services/pinterest/scheduling.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  connectProfile,
  get,
  grantCredits,
  imagePin,
  pinterestName,
  post,
  runAlarm,
  sandboxPins,
  type ConnectedProfile,
} from "../pinterest/scheduling-support.ts";
import { app, eventually, read, sandbox, testEnv } from "../support.ts";

// Issue 12, points 1 and 2: an idempotency key names one request (a replay answers the first
// result without new work or charge; the same key with another body is refused), and the server
// decides and charges what every full-size pin costs.

const REWRITE = "/api/openAI/rewriteText";
const REWRITE_UNIQUE = "/highMemLimitApi/openAI/rewriteTextNoDuplicates";
const ALT_TEXT = "/api/openAI/getAltTextFromImage";
const RENDER = "/highMemLimitApi/scraping/renderTemplateImage";
const SCHEDULE = "/api/scheduling/schedulePin";

async function spends(user: TestUser) {
  return ledgerOf(testEnv, user.userId)
    .db.select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, user.userId), lt(creditLedger.amount, 0)));
}

async function spent(user: TestUser): Promise<number> {
  return -(await spends(user)).reduce((sum, row) => sum + row.amount, 0);
}

async function openAiRequestsMentioning(marker: string): Promise<number> {
  const requests = await sandbox<{ body: unknown }[]>("/requests?service=openai");
  return requests.filter((request) => JSON.stringify(request.body).includes(marker)).length;
}

/** A small design: a coloured background and the title (quick to render). */
const design = {
  title: "Plain title card",
  background: "#f4efe6",
  layers: [
    {
      type: "SVG",
      id: "band",
      name: "Band",
      shape: "rect",
      x: 60,
      y: 500,
      width: 880,
      height: 500,
      fill: "pin",
      borderRadius: 24,
      rotation: 0,
      opacity: 1,
      hidden: false,
      strokeWidth: 0,
    },
    {
      type: "text",
      id: "title",
      name: "Title",
      content: "title",
      x: 100,
      y: 540,
      width: 800,
      height: 420,
      rotation: 0,
      opacity: 1,
      hidden: false,
      style: { fontSize: "auto", align: "center", color: "auto" },
    },
  ],
  categories: [],
};

function renderBody(title: string, extra: Record<string, unknown> = {}) {
  return { post: { template: design, title, url: "https://linen.example/napkins" }, ...extra };
}

describe("idempotency keys name one request", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser({ firstName: "Ida" });
    await grantCredits(user, 100);
  });

  it.each([
    ["rewriteText", REWRITE, { numResults: 10 }, 5],
    ["rewriteTextNoDuplicates", REWRITE_UNIQUE, { numResults: 4 }, 2],
  ])("%s: a reused reference with a new prompt is refused (409) and charged nothing; a replay answers the first texts", async (_name, path, extra, cost) => {
    const reference = `reuse-ref-${crypto.randomUUID().slice(0, 8)}`;
    const before = await spent(user);
    const marker = `Copper kettle ${crypto.randomUUID().slice(0, 8)}`;
    const first = await post(user, path, { prompt: `${marker} 0`, ...extra, reference });
    expect(first.status).toBe(200);
    const firstBody = await read(first);
    for (let i = 1; i < 15; i += 1) {
      const reused = await post(user, path, { prompt: `${marker} ${i}`, ...extra, reference });
      expect(reused.status).toBe(409);
      expect(await read(reused)).toEqual({ error: KEY_REUSED_MESSAGE, field: "reference" });
    }
    expect(await spent(user)).toBe(before + cost);

    // The same body again: the first answer, with no new AI request and no new charge.
    const asked = await openAiRequestsMentioning(`${marker} 0`);
    const replay = await post(user, path, { ...extra, prompt: `${marker} 0`, reference });
    expect(replay.status).toBe(200);
    expect(await read(replay)).toEqual(firstBody);
    expect(await openAiRequestsMentioning(`${marker} 0`)).toBe(asked);
    expect(await spent(user)).toBe(before + cost);
  });

  it("getAltTextFromImage: a reused reference for another image is refused, a replay answers the first alt text", async () => {
    const reference = `alt-ref-${crypto.randomUUID().slice(0, 8)}`;
    const before = await spent(user);
    const first = await post(user, ALT_TEXT, { imageURL: "https://x.example.com/wreath-1.jpg", reference });
    expect(first.status).toBe(200);
    const reused = await post(user, ALT_TEXT, { imageURL: "https://x.example.com/wreath-2.jpg", reference });
    expect(reused.status).toBe(409);
    const replay = await post(user, ALT_TEXT, { imageURL: "https://x.example.com/wreath-1.jpg", reference });
    expect(await read(replay)).toEqual(await read(first));
    expect(await spent(user)).toBe(before + 2);
  });

  it("accepts the key in an Idempotency-Key header, and refuses a header that disagrees with the body", async () => {
    const key = `header-key-${crypto.randomUUID().slice(0, 8)}`;
    const before = await spent(user);
    const send = (body: unknown, header: string) =>
      app(REWRITE, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": header, authorization: `Bearer ${user.tokens.idToken}` },
        body: JSON.stringify(body),
      });
    const first = await send({ prompt: "Linen napkins for spring" }, key);
    expect(first.status).toBe(200);
    expect((await send({ prompt: "Linen napkins for autumn" }, key)).status).toBe(409);
    expect(await read(await send({ prompt: "Linen napkins for spring" }, key))).toEqual(await read(first));
    const disagreeing = await send({ prompt: "Linen napkins for spring", reference: `other-key-${crypto.randomUUID().slice(0, 8)}` }, key);
    expect(disagreeing.status).toBe(400);
    expect((await read(disagreeing)).field).toBe("reference");
    expect(await spent(user)).toBe(before + 0.5);
  });

  it("scopes keys to the user and the operation", async () => {
    const other = await signUpUser({ firstName: "Otto" });
    await grantCredits(other, 10);
    const reference = `shared-key-${crypto.randomUUID().slice(0, 8)}`;
    expect((await post(user, REWRITE, { prompt: "Oak table styling", reference })).status).toBe(200);
    // Another user, and another operation, may use the same key for another body.
    expect((await post(other, REWRITE, { prompt: "Brass candle holders", reference })).status).toBe(200);
    expect((await post(user, ALT_TEXT, { imageURL: "https://x.example.com/oak.jpg", reference })).status).toBe(200);
    expect(await spent(other)).toBe(0.5);
  });

  it("refuses a replay while the first request is still running, and lets a retry continue a request that died", async () => {
    const reference = `running-key-${crypto.randomUUID().slice(0, 8)}`;
    const body = { prompt: "Woven baskets for a small hallway" };
    const claim = (updatedAt: number) =>
      ledgerOf(testEnv, user.userId)
        .prepare(
          `INSERT INTO idempotency_keys (user_id, operation, key, request_hash, id, status, response, created_at, updated_at)
         VALUES (?1, 'rewriteText', ?2, ?3, ?4, 'pending', NULL, ?5, ?5)
         ON CONFLICT (user_id, operation, key) DO UPDATE SET updated_at = excluded.updated_at`,
        )
        .bind(user.userId, reference, requestHashOf, claimId, updatedAt)
        .run();
    // The server remembers the validated body (defaults filled in).
    const requestHashOf = await requestHash(v.parse(RewriteTextBody, body));
    const claimId = crypto.randomUUID();
    await claim(Date.now());
    const before = await spent(user);
    const running = await post(user, REWRITE, { ...body, reference });
    expect(running.status).toBe(409);
    expect(await read(running)).toEqual({ error: KEY_IN_PROGRESS_MESSAGE, field: "reference" });
    // Two minutes without news: the first request died; the retry does the work, charged under the claim once.
    await claim(Date.now() - 3 * 60_000);
    expect((await post(user, REWRITE, { ...body, reference })).status).toBe(200);
    expect(await spent(user)).toBe(before + 0.5);
    expect((await spends(user)).some((row) => row.reference === `rewriteText:${claimId}`)).toBe(true);
  });

  it("forgets a key after 30 days: it then names a new request", async () => {
    const reference = `old-key-${crypto.randomUUID().slice(0, 8)}`;
    expect((await post(user, REWRITE, { prompt: "Rattan chairs", reference })).status).toBe(200);
    await ledgerOf(testEnv, user.userId)
      .prepare(`UPDATE idempotency_keys SET created_at = ?1 WHERE user_id = ?2 AND key = ?3`)
      .bind(Date.now() - 31 * 86_400_000, user.userId, reference)
      .run();
    const before = await spent(user);
    expect((await post(user, REWRITE, { prompt: "Rattan stools", reference })).status).toBe(200);
    expect(await spent(user)).toBe(before + 0.5);
  });

  it("lets a refused request's key be used again for the corrected request", async () => {
    const poor = await signUpUser({ firstName: "Penny" });
    await ledgerOf(testEnv, poor.userId)
      .db.insert(creditLedger)
      .values({
        id: crypto.randomUUID(),
        userId: poor.userId,
        amount: -10,
        category: "image",
        reason: "test: spend the month",
        reference: `spend-${poor.userId}`,
      });
    const reference = `poor-key-${crypto.randomUUID().slice(0, 8)}`;
    const refused = await post(poor, REWRITE, { prompt: "Velvet cushions", numResults: 2, reference });
    expect(refused.status).toBe(402);
    await grantCredits(poor, 50);
    expect((await post(poor, REWRITE, { prompt: "Velvet cushions in green", numResults: 2, reference })).status).toBe(200);
  });
});

describe("schedulePin references", () => {
  let user: TestUser;
  let profile: ConnectedProfile;
  beforeAll(async () => {
    user = await signUpUser({ firstName: "Rhea" });
    await grantCredits(user, 50);
    profile = await connectProfile(user, pinterestName("idem"));
  });

  it("never schedules a second pin for one reference: after a delete, new content is refused and a replay brings nothing back", async () => {
    const reference = `pin-ref-${crypto.randomUUID().slice(0, 8)}`;
    const before = await spent(user);
    const pin = imagePin(profile, { reference });
    const first = await post(user, SCHEDULE, pin);
    expect(first.status).toBe(201);
    const { scheduledPin, creditsCharged } = await read(first);
    expect(creditsCharged).toBe(1);

    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: scheduledPin.id })).status).toBe(200);
    const other = await post(user, SCHEDULE, imagePin(profile, { reference }));
    expect(other.status).toBe(409);
    expect(await read(other)).toEqual({ error: KEY_REUSED_MESSAGE, field: "reference" });

    const replay = await post(user, SCHEDULE, pin);
    expect(replay.status).toBe(201);
    expect(await read(replay)).toMatchObject({ creditsCharged: 0, scheduledPin: { id: scheduledPin.id, title: pin.title } });
    const queue = await read(await get(user, `/api/scheduling/getScheduledPins/${profile.username}?status=all`));
    expect(queue.scheduledPins.map((p: { id: string }) => p.id)).not.toContain(scheduledPin.id);
    expect(await spent(user)).toBe(before + 1);
  });

  it("posts a pin once for one credit even when its reference is replayed after it was posted and deleted", async () => {
    const reference = `posted-ref-${crypto.randomUUID().slice(0, 8)}`;
    const before = await spent(user);
    const pin = imagePin(profile, { reference, type: "SpecificDate", scheduledTime: Date.now() + 1_500 });
    const first = await read(await post(user, SCHEDULE, pin));
    await eventually(async () => {
      await runAlarm(profile);
      return (await sandboxPins(profile.username)).some((p) => p.title === pin.title) ? true : undefined;
    });
    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: first.scheduledPin.id })).status).toBe(200);
    expect((await post(user, SCHEDULE, imagePin(profile, { reference, type: "SpecificDate", scheduledTime: Date.now() + 60_000 }))).status).toBe(409);
    expect((await read(await post(user, SCHEDULE, pin))).creditsCharged).toBe(0);
    await runAlarm(profile);
    expect((await sandboxPins(profile.username)).filter((p) => p.title === pin.title)).toHaveLength(1);
    expect(await spent(user)).toBe(before + 1);
  });

  it("answers 409 for a bulk batch whose pin reuses a reference with other content, scheduling none of it", async () => {
    const reference = `batch-ref-${crypto.randomUUID().slice(0, 8)}`;
    expect((await post(user, SCHEDULE, imagePin(profile, { reference }))).status).toBe(201);
    const before = await spent(user);
    const batch = await post(user, SCHEDULE, { pins: [imagePin(profile), imagePin(profile, { reference })] });
    expect(batch.status).toBe(409);
    expect((await read(batch)).field).toBe("pins.1.reference");
    expect(await spent(user)).toBe(before);
  });

  it("never brings back a deleted pin when a request cut short after its charge is sent again", async () => {
    const reference = `cut-ref-${crypto.randomUUID().slice(0, 8)}`;
    const pin = imagePin(profile, { reference });
    const first = await read(await post(user, SCHEDULE, pin));
    // As if the first request had died after charging, before recording its answer.
    await ledgerOf(testEnv, user.userId)
      .prepare(`UPDATE idempotency_keys SET status = 'pending', response = NULL WHERE user_id = ?1 AND key = ?2`)
      .bind(user.userId, reference)
      .run();
    expect((await post(user, "/api/scheduling/deleteScheduledPin", { pinId: first.scheduledPin.id })).status).toBe(200);
    const before = await spent(user);
    const again = await post(user, SCHEDULE, pin);
    expect(again.status).toBe(409);
    expect(await read(again)).toEqual({ error: PIN_DELETED_SINCE_MESSAGE, field: "reference" });
    const queue = await read(await get(user, `/api/scheduling/getScheduledPins/${profile.username}?status=all`));
    expect(queue.scheduledPins.map((p: { id: string }) => p.id)).not.toContain(first.scheduledPin.id);
    expect(await spent(user)).toBe(before);
  });
});

describe("the server decides what credits cost", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser({ firstName: "Cato" });
  });

  it.each([
    ["/api/user/incrementUsedPinCredits", { creditAmount: 0, category: "image" }, "creditAmount"],
    ["/api/user/incrementUsedPinCredits", { creditAmount: 0.5, category: "image" }, "creditAmount"],
    ["/api/user/incrementUsedPinCredits", { creditAmount: 1, category: "video" }, "creditAmount"],
    ["/api/scraping/addPinHistoryAndAdjustCredits", { pinDetails: { title: "x" }, numCreditsToConsume: 0, category: "image" }, "numCreditsToConsume"],
    ["/api/scraping/addPinHistoryAndAdjustCredits", { pinDetails: { title: "x" }, numCreditsToConsume: 1, category: "aiImage" }, "numCreditsToConsume"],
  ])("%s refuses an amount that is not what the category costs: %j", async (path, body, field) => {
    const before = await spent(user);
    const response = await post(user, path, body);
    expect(response.status).toBe(400);
    expect((await read(response)).field).toBe(field);
    expect(await spent(user)).toBe(before);
  });

  it("charges the category's cost when no amount is sent", async () => {
    const before = await spent(user);
    const response = await post(user, "/api/user/incrementUsedPinCredits", { category: "aiAltText" });
    expect(await read(response)).toMatchObject({ charged: true, creditsCharged: 2 });
    expect(await spent(user)).toBe(before + 2);
  });
});

describe("full-size pins are paid for once", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signUpUser({ firstName: "Dora" });
  });

  it("charges a download one image credit with its history row, once per reference", async () => {
    const before = await spent(user);
    const body = renderBody("Linen napkins, three ways", { reference: `download-${crypto.randomUUID().slice(0, 8)}` });
    const first = await post(user, RENDER, body);
    expect(first.status).toBe(200);
    const rendered = await read(first);
    expect(rendered).toMatchObject({ purpose: "download", creditsCharged: 1 });
    expect((await app(new URL(rendered.url).pathname)).status).toBe(200);
    const again = await read(await post(user, RENDER, body));
    expect(again).toEqual(rendered);
    expect(await spent(user)).toBe(before + 1);
    const history = await ledgerOf(testEnv, user.userId).db.select().from(pinHistory).where(eq(pinHistory.userId, user.userId));
    expect(history.filter((row) => row.imageUrl === rendered.url)).toMatchObject([
      { action: "downloaded", category: "image", credits: 1, url: "https://linen.example/napkins" },
    ]);
    // Without a key every render is a new download.
    await post(user, RENDER, renderBody("Linen napkins, three ways"));
    expect(await spent(user)).toBe(before + 2);
  });

  it("renders nothing for a user with no credits left (402), and stores nothing", async () => {
    const broke = await signUpUser({ firstName: "Nell" });
    await ledgerOf(testEnv, broke.userId)
      .db.insert(creditLedger)
      .values({
        id: crypto.randomUUID(),
        userId: broke.userId,
        amount: -10,
        category: "image",
        reason: "test: spend the month",
        reference: `spend-${broke.userId}`,
      });
    for (let i = 0; i < 5; i += 1) {
      const response = await post(broke, RENDER, renderBody(`Free pin ${i}`));
      expect(response.status).toBe(402);
    }
    const objects = await testEnv.MEDIA.list({ prefix: `users/${broke.userId}/` });
    expect(objects.objects).toHaveLength(0);
  });

  it("keeps a pin rendered for scheduling unserved until a schedule pays for it, then charges it once", async () => {
    await grantCredits(user, 10);
    const profile = await connectProfile(user, pinterestName("render"));
    const before = await spent(user);
    const rendered = await read(await post(user, RENDER, renderBody("Brass candle holders", { purpose: "schedule" })));
    expect(rendered).toMatchObject({ purpose: "schedule", creditsCharged: 0 });
    const path = new URL(rendered.url).pathname;
    expect((await app(path)).status).toBe(404);
    expect(await spent(user)).toBe(before);

    // Another user cannot schedule (and so unlock) it.
    const stranger = await signUpUser({ firstName: "Sven" });
    await grantCredits(stranger, 5);
    const strangerProfile = await connectProfile(stranger, pinterestName("stranger"));
    const stolen = await post(stranger, SCHEDULE, imagePin(strangerProfile, { imageURL: rendered.url }));
    expect(stolen.status).toBe(400);
    expect((await read(stolen)).field).toBe("imageURL");
    expect((await app(path)).status).toBe(404);

    const scheduled = await post(user, SCHEDULE, imagePin(profile, { imageURL: rendered.url }));
    expect(scheduled.status).toBe(201);
    expect((await read(scheduled)).creditsCharged).toBe(1);
    expect((await app(path)).status).toBe(200);
    expect(await spent(user)).toBe(before + 1);
  });

  it("keeps the render locked when the schedule that would pay for it is refused", async () => {
    const poor = await signUpUser({ firstName: "Poppy" });
    const profile = await connectProfile(poor, pinterestName("poor"));
    const rendered = await read(await post(poor, RENDER, renderBody("Velvet cushions", { purpose: "schedule" })));
    await ledgerOf(testEnv, poor.userId)
      .db.insert(creditLedger)
      .values({
        id: crypto.randomUUID(),
        userId: poor.userId,
        amount: -10,
        category: "image",
        reason: "test: spend the month",
        reference: `spend-${poor.userId}`,
      });
    const refused = await post(poor, SCHEDULE, imagePin(profile, { imageURL: rendered.url }));
    expect(refused.status).toBe(402);
    expect((await app(new URL(rendered.url).pathname)).status).toBe(404);
  });
});
