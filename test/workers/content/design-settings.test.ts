import { beforeAll, describe, expect, it } from "vitest";
import { defaultDesignSettings } from "../../../contracts/content/design-settings.ts";
import { MAX_DESIGN_PROFILES } from "../../../contracts/content/library.ts";
import { database } from "../../../workers/db/client.ts";
import { designSettingsProfiles } from "../../../workers/db/schema.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

const get = (user: TestUser, path: string) => app(path, { headers: bearer(user.tokens) });
const post = (user: TestUser, path: string, body: unknown) => app(path, json(body, bearer(user.tokens)));
const del = (user: TestUser, path: string) => app(path, { method: "DELETE", headers: bearer(user.tokens) });

interface Summary {
  profileId: string;
  name: string;
  isActive: boolean;
  updatedAt: string;
}

async function openActive(user: TestUser) {
  const response = await get(user, "/api/user/getDesignSettingsProfiles/active");
  expect(response.status).toBe(200);
  return read(response);
}

async function saveAs(user: TestUser, name: string, designSettings: Record<string, unknown> = {}) {
  const response = await post(user, "/api/user/saveDesignSettings", { designSettings, newProfileName: name });
  expect(response.status).toBe(200);
  return read(response);
}

const active = (profiles: Summary[]) => profiles.filter((p) => p.isActive);

describe("design settings profiles", () => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await signUpUser({ firstName: "Alice" });
    bob = await signUpUser({ firstName: "Bob" });
  });

  it("gives a new user a Default profile with the default settings (spec section 9)", async () => {
    const body = await openActive(alice);
    expect(body.designSettingsProfiles).toHaveLength(1);
    expect(body.designSettingsProfiles[0]).toMatchObject({ name: "Default", isActive: true });
    expect(body.activeDesignSettings.name).toBe("Default");
    expect(body.activeDesignSettings.profileId).toBe(body.designSettingsProfiles[0].profileId);
    expect(body.activeDesignSettings.settings).toEqual(defaultDesignSettings());
    expect(body.activeDesignSettings.settings).toMatchObject({
      fontFamily: "Carter One",
      useUpperCaseFont: true,
      aiLanguage: "English",
      aiTone: "Neutral",
      selectedColorIndex: 1,
    });
    expect(body.activeDesignSettings.settings.designColors[1]).toEqual({ r: 81, g: 195, b: 166, a: 1 });

    // Asking again does not create a second Default.
    expect((await openActive(alice)).designSettingsProfiles).toHaveLength(1);
  });

  it("saves the active profile when neither profileId nor newProfileName is given, filling defaults", async () => {
    const user = await signUpUser();
    const response = await post(user, "/api/user/saveDesignSettings", { designSettings: { fontFamily: "Lobster", aiTone: "Playful" } });
    expect(response.status).toBe(200);
    const saved = await read(response);
    expect(saved.newProfileName).toBe("Default");
    const body = await openActive(user);
    expect(body.activeDesignSettings.profileId).toBe(saved.profileId);
    expect(body.activeDesignSettings.settings).toMatchObject({ fontFamily: "Lobster", aiTone: "Playful", aiLanguage: "English", useUpperCaseFont: true });
  });

  it("creates a profile with newProfileName, makes it active, and opening another by id activates that one", async () => {
    const user = await signUpUser();
    const first = await openActive(user);
    const defaultId = first.activeDesignSettings.profileId;
    const created = await saveAs(user, "Autumn recipes", { aiKeywords: "pumpkin soup\nroast squash", useAllColors: true });
    expect(created.newProfileName).toBe("Autumn recipes");
    expect(created.designSettingsProfiles).toHaveLength(2);
    expect(active(created.designSettingsProfiles).map((p: Summary) => p.name)).toEqual(["Autumn recipes"]);

    const reopened = await openActive(user);
    expect(reopened.activeDesignSettings).toMatchObject({ profileId: created.profileId, name: "Autumn recipes" });
    expect(reopened.activeDesignSettings.settings).toMatchObject({ aiKeywords: "pumpkin soup\nroast squash", useAllColors: true });

    const opened = await get(user, `/api/user/getDesignSettingsProfiles/${defaultId}`);
    expect(opened.status).toBe(200);
    const body = await read(opened);
    expect(body.activeDesignSettings.profileId).toBe(defaultId);
    expect(active(body.designSettingsProfiles).map((p: Summary) => p.profileId)).toEqual([defaultId]);
    expect((await openActive(user)).activeDesignSettings.profileId).toBe(defaultId);

    // Saving with a profileId updates that profile and makes it active again.
    const updated = await post(user, "/api/user/saveDesignSettings", { designSettings: { aiLanguage: "German" }, profileId: created.profileId });
    expect(updated.status).toBe(200);
    expect(await read(updated)).toMatchObject({ newProfileName: "Autumn recipes", profileId: created.profileId });
    const now = await openActive(user);
    expect(now.activeDesignSettings.profileId).toBe(created.profileId);
    expect(now.activeDesignSettings.settings.aiLanguage).toBe("German");
  });

  it("reads one profile by name, in any case, without changing the active one", async () => {
    const user = await signUpUser();
    await saveAs(user, "Shop Sale", { fontFamily: "Anton" });
    await saveAs(user, "Blog");
    const response = await get(user, `/api/user/getDesignSettingsProfile/${encodeURIComponent("shop sale")}`);
    expect(response.status).toBe(200);
    const body = await read(response);
    expect(body.designSettingsProfile).toMatchObject({ name: "Shop Sale", isActive: false });
    expect(body.designSettingsProfile.settings.fontFamily).toBe("Anton");
    expect(body.designProfiles.map((p: Summary) => p.name).sort()).toEqual(["Blog", "Shop Sale"]);
    expect((await openActive(user)).activeDesignSettings.name).toBe("Blog");

    const missing = await get(user, "/api/user/getDesignSettingsProfile/Nothing%20here");
    expect(missing.status).toBe(404);
    expect((await read(missing)).error).toMatch(/no design profile named "Nothing here"/);
  });

  it("refuses a duplicate profile name, whatever its case, with 409", async () => {
    const user = await signUpUser();
    await saveAs(user, "Evergreen");
    const duplicate = await post(user, "/api/user/saveDesignSettings", { designSettings: {}, newProfileName: "  EVERGREEN " });
    expect(duplicate.status).toBe(409);
    expect(await read(duplicate)).toEqual({
      error: 'You already have a design profile named "EVERGREEN". Please choose another name.',
      field: "newProfileName",
    });
    const other = await saveAs(user, "Seasonal");
    const rename = await post(user, "/api/user/renameDesignProfile", { profileId: other.profileId, newProfileName: "evergreen" });
    expect(rename.status).toBe(409);
    const names = (await openActive(user)).designSettingsProfiles.map((p: Summary) => p.name).sort();
    // (Saving a new profile first means the user never needed a Default.)
    expect(names).toEqual(["Evergreen", "Seasonal"]);
  });

  it("answers 400 naming the field for bad settings and bad names", async () => {
    const badLanguage = await post(alice, "/api/user/saveDesignSettings", { designSettings: { aiLanguage: "Klingon" } });
    expect(badLanguage.status).toBe(400);
    expect(await read(badLanguage)).toEqual({ error: "aiLanguage is not a supported language", field: "designSettings.aiLanguage" });

    const badColor = await post(alice, "/api/user/saveDesignSettings", { designSettings: { designColors: [{ r: 300, g: 0, b: 0 }] } });
    expect(badColor.status).toBe(400);
    expect((await read(badColor)).field).toBe("designSettings.designColors.0.r");

    const badFontColor = await post(alice, "/api/user/saveDesignSettings", { designSettings: { fontColor: "red" } });
    expect((await read(badFontColor)).field).toBe("designSettings.fontColor");

    const missing = await post(alice, "/api/user/saveDesignSettings", { newProfileName: "No settings" });
    expect(missing.status).toBe(400);
    expect(await read(missing)).toMatchObject({ error: "designSettings is required" });

    const longName = await post(alice, "/api/user/saveDesignSettings", { designSettings: {}, newProfileName: "x".repeat(61) });
    expect(longName.status).toBe(400);
    expect((await read(longName)).field).toBe("newProfileName");

    const emptyRename = await post(alice, "/api/user/renameDesignProfile", { profileId: "whatever", newProfileName: "   " });
    expect(emptyRename.status).toBe(400);
    expect(await read(emptyRename)).toEqual({ error: "newProfileName is required", field: "newProfileName" });

    // Nothing was saved by the refused calls.
    expect((await openActive(alice)).activeDesignSettings.settings.aiLanguage).toBe("English");
  });

  it("renames a profile", async () => {
    const user = await signUpUser();
    const created = await saveAs(user, "Old name");
    const response = await post(user, "/api/user/renameDesignProfile", { profileId: created.profileId, newProfileName: "New name" });
    expect(response.status).toBe(200);
    const body = await read(response);
    expect(body.designSettingsProfiles.find((p: Summary) => p.profileId === created.profileId).name).toBe("New name");
    // Changing only the case of its own name is allowed.
    const recase = await post(user, "/api/user/renameDesignProfile", { profileId: created.profileId, newProfileName: "NEW NAME" });
    expect(recase.status).toBe(200);
  });

  it("deleting the active profile activates the most recently updated other one; deleting the last recreates Default", async () => {
    const user = await signUpUser();
    const defaultId = (await openActive(user)).activeDesignSettings.profileId;
    const older = await saveAs(user, "Older");
    const newer = await saveAs(user, "Newer");
    // Touch Older so it is the most recently updated of the others, then make Newer active again.
    await post(user, "/api/user/saveDesignSettings", { designSettings: { aiTone: "Witty" }, profileId: older.profileId });
    await get(user, `/api/user/getDesignSettingsProfiles/${newer.profileId}`);

    const afterDelete = await del(user, `/api/user/deleteDesignProfile/${newer.profileId}`);
    expect(afterDelete.status).toBe(200);
    const body = await read(afterDelete);
    expect(body.activeDesignSettings).toMatchObject({ profileId: older.profileId, name: "Older" });
    expect(body.activeDesignSettings.settings.aiTone).toBe("Witty");
    expect(body.designSettingsProfiles.map((p: Summary) => p.name).sort()).toEqual(["Default", "Older"]);

    // Deleting a profile that is not active leaves the active one alone.
    const second = await read(await del(user, `/api/user/deleteDesignProfile/${defaultId}`));
    expect(second.activeDesignSettings.profileId).toBe(older.profileId);

    const last = await read(await del(user, `/api/user/deleteDesignProfile/${older.profileId}`));
    expect(last.designSettingsProfiles).toHaveLength(1);
    expect(last.activeDesignSettings.name).toBe("Default");
    expect(last.activeDesignSettings.profileId).not.toBe(defaultId);
    expect(last.activeDesignSettings.settings).toEqual(defaultDesignSettings());
  });

  it("caps the number of profiles per user", async () => {
    const user = await signUpUser();
    const now = Date.now();
    const db = database(testEnv.DB);
    const [first, ...rest] = Array.from({ length: MAX_DESIGN_PROFILES }, (_, i) =>
      db.insert(designSettingsProfiles).values({
        id: `cap-${user.userId}-${i}`,
        userId: user.userId,
        name: `Profile ${i}`,
        nameKey: `profile ${i}`,
        settings: {},
        isActive: i === 0,
        updatedAt: now + i,
      }),
    );
    await db.batch([first, ...rest]);
    const response = await post(user, "/api/user/saveDesignSettings", { designSettings: {}, newProfileName: "One too many" });
    expect(response.status).toBe(409);
    expect((await read(response)).error).toBe(`You can keep up to ${MAX_DESIGN_PROFILES} design profiles. Please delete one before saving a new one.`);
    expect((await openActive(user)).designSettingsProfiles).toHaveLength(MAX_DESIGN_PROFILES);
  });

  it("refuses another user's profile ids with 404 and changes nothing", async () => {
    const alicesProfile = await saveAs(alice, "Alice private", { aiKeywords: "secret" });
    const before = await openActive(alice);

    expect((await get(bob, `/api/user/getDesignSettingsProfiles/${alicesProfile.profileId}`)).status).toBe(404);
    expect((await get(bob, "/api/user/getDesignSettingsProfile/Alice%20private")).status).toBe(404);
    expect((await post(bob, "/api/user/saveDesignSettings", { designSettings: { aiKeywords: "mine now" }, profileId: alicesProfile.profileId })).status).toBe(
      404,
    );
    expect((await post(bob, "/api/user/renameDesignProfile", { profileId: alicesProfile.profileId, newProfileName: "Taken" })).status).toBe(404);
    expect((await del(bob, `/api/user/deleteDesignProfile/${alicesProfile.profileId}`)).status).toBe(404);

    const after = await openActive(alice);
    expect(after).toEqual(before);
    expect(after.activeDesignSettings.settings.aiKeywords).toBe("secret");
    // Bob's own profiles are untouched too: he only has his Default.
    expect((await openActive(bob)).designSettingsProfiles.map((p: Summary) => p.name)).toEqual(["Default"]);
  });

  it("needs a signed-in user", async () => {
    expect((await app("/api/user/getDesignSettingsProfiles/active")).status).toBe(401);
    expect((await app("/api/user/saveDesignSettings", json({ designSettings: {} }))).status).toBe(401);
  });
});
