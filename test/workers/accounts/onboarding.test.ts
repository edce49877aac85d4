import { describe, expect, it } from "vitest";
import { MOVED_COLUMNS } from "../../../durable-objects/ledger/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { bearer, json, signUpUser, type TestUser } from "./accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName } from "../pinterest/scheduling-support.ts";
import { app, read, testEnv } from "../support.ts";

// Issue 13 section 4: each onboarding step is ticked on the server when the user does the thing,
// and users who did it before the features ticked it are ticked by migration 0012.

const post = (user: TestUser, path: string, body: unknown) => app(path, json(body, bearer(user.tokens)));

async function ticked(user: TestUser): Promise<string[]> {
  const { credentials } = await read(await app("/api/user", { headers: bearer(user.tokens) }));
  return (credentials.onboardingChecklist as { name: string; isChecked: boolean }[]).filter((step) => step.isChecked).map((step) => step.name);
}

const draftPost = {
  id: "p1",
  title: "Five cosy soups",
  description: "Soups for cold evenings.",
  url: "https://linenandlark.com/soups",
  allImages: ["https://linenandlark.com/images/soup.jpg"],
};

const template = {
  title: "My banner",
  background: "#fdf6ec",
  categories: [],
  layers: [{ type: "text", id: "title", name: "Title", content: "title", x: 80, y: 960, width: 840, height: 380 }],
};

describe("the onboarding checklist follows what the user does", () => {
  it("ticks generating, design settings and a template of one's own as each is done, and nothing else", async () => {
    const user = await signUpUser();
    expect(await ticked(user)).toEqual([]);

    const blogPost = `${testEnv.SANDBOX_URL}/blog-demo/posts/berry-smoothie-bowls`;
    expect((await post(user, "/highMemLimitApi/scraping/scrapeWebsite", { url: blogPost })).status).toBe(200);
    expect(await ticked(user)).toEqual(["generatePins"]);

    expect((await post(user, "/api/user/saveDesignSettings", { designSettings: { fontFamily: "Lobster" } })).status).toBe(200);
    expect(await ticked(user)).toEqual(["generatePins", "saveDesignSettings"]);

    expect((await post(user, "/api/templates/addNewTemplate", { template })).status).toBe(201);
    expect(await ticked(user)).toEqual(["generatePins", "saveDesignSettings", "createTemplate"]);
  });

  it("ticks generating when the grid is saved as a draft (the autosave after every generation)", async () => {
    const user = await signUpUser();
    expect((await post(user, "/api/user/drafts/createDraft", { posts: [draftPost], name: "Autosave", date: "22/11/2026, 09:15:00" })).status).toBe(201);
    expect(await ticked(user)).toEqual(["generatePins"]);
  });

  it("ticks connecting Pinterest, setting posting times and scheduling pins", async () => {
    const user = await signUpUser();
    const profile = await connectProfile(user, pinterestName("onboard"), { settings: null });
    expect(await ticked(user)).toEqual(["connectPinterest"]);

    const saved = await post(user, "/api/scheduling/saveSchedulingSettings", {
      newSettings: { numberOfPinsPerDay: 5 },
      pinterestProfileUsername: profile.username,
    });
    expect(saved.status).toBe(200);
    expect(await ticked(user)).toEqual(["connectPinterest", "setPostingSchedule"]);

    await grantCredits(user, 5);
    expect((await post(user, "/api/scheduling/schedulePin", { pins: [imagePin(profile)] })).status).toBe(201);
    expect(await ticked(user)).toEqual(["connectPinterest", "schedulePins", "setPostingSchedule"]);
  });

  it("does not tick scheduling when the schedule was refused", async () => {
    const user = await signUpUser();
    const profile = await connectProfile(user, pinterestName("refused"), { settings: null });
    // Free credits (10) cannot pay for 11 pins: all or nothing, nothing scheduled.
    const refused = await post(user, "/api/scheduling/schedulePin", { pins: Array.from({ length: 11 }, () => imagePin(profile)) });
    expect(refused.status).toBe(402);
    expect(await ticked(user)).toEqual(["connectPinterest"]);
  });

  it("keeps the invite step once the user ticked it (copying the invite link ticks it from /profile)", async () => {
    const user = await signUpUser();
    const answer = await post(user, "/api/user/setOnboardingChecklist", { onboardingChecklist: [{ name: "inviteFriend", isChecked: true }] });
    expect(answer.status).toBe(200);
    expect(await ticked(user)).toEqual(["inviteFriend"]);
  });
});

describe("migration 0012: users who did the steps before", () => {
  const backfill = () => {
    const migration = testEnv.TEST_MIGRATIONS.find((m) => m.name.startsWith("0012_"));
    if (!migration) throw new Error("migration 0012 is missing");
    return testEnv.DB.batch(migration.queries.map((query) => testEnv.DB.prepare(query)));
  };

  /**
   * Copies the user's rows of a table their ledger holds now (decision 084) into D1, where such rows were when
   * migration 0012 ran; answers the statement that takes the copy out again.
   */
  async function copyToD1(user: TestUser, table: "pin_history" | "drafts") {
    const columns = MOVED_COLUMNS[table];
    const rows = await ledgerOf(testEnv, user.userId)
      .prepare(`SELECT ${columns.join(", ")} FROM ${table} WHERE user_id = ?1`)
      .bind(user.userId)
      .raw<SqlStorageValue[]>();
    expect(rows.length, `${table} rows of the user`).toBeGreaterThan(0);
    const placeholders = columns.map((_, i) => `?${i + 1}`).join(", ");
    await testEnv.DB.batch(rows.map((row) => testEnv.DB.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${placeholders})`).bind(...row)));
    return testEnv.DB.prepare(`DELETE FROM ${table} WHERE user_id = ?1`).bind(user.userId);
  }

  async function setDone(user: TestUser, done: string[]) {
    await testEnv.DB.prepare("UPDATE users SET onboarding_done = ?1 WHERE id = ?2").bind(JSON.stringify(done), user.userId).run();
  }

  it("ticks what the user's data shows, keeps what was ticked, and ticks nothing for a user who did nothing", async () => {
    const busy = await signUpUser();
    const idle = await signUpUser();
    // Busy did everything through the features; forget the ticks, as before this change.
    const profile = await connectProfile(busy, pinterestName("backfill"), { settings: { numberOfPinsPerDay: 7 } });
    await grantCredits(busy, 5);
    expect((await post(busy, "/api/scheduling/schedulePin", { pins: [imagePin(profile)] })).status).toBe(201);
    expect((await post(busy, "/api/user/saveDesignSettings", { designSettings: { fontFamily: "Lobster" } })).status).toBe(200);
    expect((await post(busy, "/api/templates/addNewTemplate", { template })).status).toBe(201);
    expect((await post(busy, "/api/user/drafts/createDraft", { posts: [draftPost], name: "Soups", date: "22/11/2026, 09:15:00" })).status).toBe(201);
    await setDone(busy, ["inviteFriend"]);
    await setDone(idle, []);

    // The history and drafts as they were when the migration ran: in D1.
    const copies = [await copyToD1(busy, "pin_history"), await copyToD1(busy, "drafts")];
    try {
      await backfill();
    } finally {
      await testEnv.DB.batch(copies);
    }

    expect(await ticked(busy)).toEqual([
      "connectPinterest",
      "generatePins",
      "saveDesignSettings",
      "createTemplate",
      "schedulePins",
      "setPostingSchedule",
      "inviteFriend",
    ]);
    expect(await ticked(idle)).toEqual([]);
  });

  it("does not count the default posting times a profile gets when connected as set by the user", async () => {
    const user = await signUpUser();
    await connectProfile(user, pinterestName("defaults"), { settings: null });
    await setDone(user, []);
    await backfill();
    expect(await ticked(user)).toEqual(["connectPinterest"]);
  });
});
