import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_DESIGN_PROFILES, MAX_DRAFTS } from "../../../contracts/content/library.ts";
import { database } from "../../../workers/db/client.ts";
import { designSettingsProfiles, drafts, templateFavorites, templates } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

// Issue 12, point 5: counters and limits hold when one user's requests arrive all at once.

const db = database(testEnv.DB);
const post = (user: TestUser, path: string, body: unknown) => app(path, json(body, bearer(user.tokens)));

describe("check-then-act under concurrency", () => {
  it("keeps a template's favourite count equal to its favourites through 20 parallel toggles", async () => {
    const user = await signUpUser({ firstName: "Fay" });
    const [template] = await db
      .select({ id: templates.id, favoriteCount: templates.favoriteCount })
      .from(templates)
      .where(eq(templates.isStandard, true))
      .limit(1);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(user, "/api/user/templates/toggleTemplateFavorite", { templateId: template.id })),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const answers = await Promise.all(responses.map((response) => read(response)));
    // Toggles alternate exactly: ten turned it on, ten off.
    expect(answers.filter((answer) => answer.isFavorite)).toHaveLength(10);
    const mine = await db
      .select()
      .from(templateFavorites)
      .where(and(eq(templateFavorites.userId, user.userId), eq(templateFavorites.templateId, template.id)));
    expect(mine).toHaveLength(0);
    const rows = await db.select().from(templateFavorites).where(eq(templateFavorites.templateId, template.id));
    const [after] = await db.select({ favoriteCount: templates.favoriteCount }).from(templates).where(eq(templates.id, template.id));
    expect(after.favoriteCount).toBe(rows.length);

    // 21 toggles leave it on, counted once.
    await Promise.all(Array.from({ length: 21 }, () => post(user, "/api/user/templates/toggleTemplateFavorite", { templateId: template.id })));
    const [on] = await db.select({ favoriteCount: templates.favoriteCount }).from(templates).where(eq(templates.id, template.id));
    expect(on.favoriteCount).toBe(rows.length + 1);
  });

  it(`never keeps more than ${MAX_DRAFTS} drafts, however many are saved at once`, async () => {
    const user = await signUpUser({ firstName: "Dirk" });
    const ledger = ledgerOf(testEnv, user.userId);
    await ledger.batch(
      Array.from({ length: MAX_DRAFTS - 10 }, (_, i) =>
        ledger
          .prepare(`INSERT INTO drafts (id, user_id, name, date, posts, post_count, updated_at) VALUES (?1, ?2, ?3, '1/1/2026', '[]', 0, ?4)`)
          .bind(`race-${user.userId.slice(0, 8)}-${i}`, user.userId, `Old draft ${i}`, Date.now()),
      ),
    );
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(user, "/api/user/drafts/createDraft", { name: `Race ${i}`, date: "24/11/2026", posts: [] })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    const refused = await read(responses[statuses.indexOf(409)]);
    expect(refused.error).toBe(`You can keep up to ${MAX_DRAFTS} drafts. Please delete some drafts before saving a new one.`);
    expect(await ledger.db.$count(drafts, eq(drafts.userId, user.userId))).toBe(MAX_DRAFTS);
  });

  it(`never keeps more than ${MAX_DESIGN_PROFILES} design profiles, and exactly one is active`, async () => {
    const user = await signUpUser({ firstName: "Dee" });
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => post(user, "/api/user/saveDesignSettings", { designSettings: {}, newProfileName: `Profile ${i}` })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_DESIGN_PROFILES);
    expect(statuses.filter((status) => status === 409)).toHaveLength(60 - MAX_DESIGN_PROFILES);
    const rows = await db.select().from(designSettingsProfiles).where(eq(designSettingsProfiles.userId, user.userId));
    expect(rows).toHaveLength(MAX_DESIGN_PROFILES);
    expect(rows.filter((row) => row.isActive)).toHaveLength(1);
  });
});
