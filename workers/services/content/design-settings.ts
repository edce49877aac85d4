import { and, asc, eq, ne } from "drizzle-orm";
import * as v from "valibot";
import { DesignSettings, defaultDesignSettings } from "../../../contracts/content/design-settings.ts";
import {
  DEFAULT_DESIGN_PROFILE_NAME,
  MAX_DESIGN_PROFILES,
  type DesignProfileSummary,
  type DesignSettingsProfileResponse,
  type DesignSettingsProfilesResponse,
  type SaveDesignSettingsResponse,
} from "../../../contracts/content/library.ts";
import { database } from "../../db/client.ts";
import { designSettingsProfiles } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { tickOnboardingStep } from "../accounts/onboarding.ts";

/**
 * Design-settings profiles (spec section 7): named sets of generator
 * settings. A user always has exactly one active profile; opening or saving
 * a profile makes it the active one. Profile names are unique per user,
 * whatever their case.
 */

type ProfileRow = typeof designSettingsProfiles.$inferSelect;

const NOT_FOUND = "Design settings profile not found";

const nameKey = (name: string) => name.trim().toLowerCase();

/**
 * The stored settings read through the current schema: fields added since
 * take their defaults, and a field that no longer validates falls back to its
 * default instead of losing the whole profile.
 */
export function settingsOf(stored: unknown): DesignSettings {
  const whole = v.safeParse(DesignSettings, stored);
  if (whole.success) return whole.output;
  const record = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const kept: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(DesignSettings.entries)) {
    const field = v.safeParse(schema, record[key]);
    if (field.success) kept[key] = field.output;
  }
  return v.parse(DesignSettings, kept);
}

function summaryOf(row: ProfileRow): DesignProfileSummary {
  return { profileId: row.id, name: row.name, isActive: row.isActive, updatedAt: new Date(row.updatedAt).toISOString() };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (/UNIQUE constraint failed/i.test(e.message ?? "")) return true;
  }
  return false;
}

function duplicateName(name: string) {
  return new ServiceError(409, `You already have a design profile named "${name}". Please choose another name.`, "newProfileName");
}

async function profileRows(env: Env, userId: string): Promise<ProfileRow[]> {
  return database(env.DB).select().from(designSettingsProfiles).where(eq(designSettingsProfiles.userId, userId)).orderBy(asc(designSettingsProfiles.nameKey));
}

function newDefaultProfile(userId: string, now: number) {
  return {
    id: crypto.randomUUID(),
    userId,
    name: DEFAULT_DESIGN_PROFILE_NAME,
    nameKey: nameKey(DEFAULT_DESIGN_PROFILE_NAME),
    settings: defaultDesignSettings(),
    isActive: true,
    updatedAt: now,
  };
}

/** The user's profiles; a user without any gets "Default" with the default settings. */
async function profilesWithDefault(env: Env, userId: string): Promise<ProfileRow[]> {
  const rows = await profileRows(env, userId);
  if (rows.length > 0) return rows;
  // Two first requests at once both try: the unique name lets one win.
  await database(env.DB).insert(designSettingsProfiles).values(newDefaultProfile(userId, Date.now())).onConflictDoNothing();
  return profileRows(env, userId);
}

/** The active profile, or (should none be marked) the most recently updated. */
function activeOf(rows: ProfileRow[]): ProfileRow {
  return rows.find((row) => row.isActive) ?? [...rows].sort((a, b) => b.updatedAt - a.updatedAt)[0];
}

/** Makes one profile the user's only active one (in one batch: never zero, never two). */
async function activate(env: Env, userId: string, profileId: string) {
  const db = database(env.DB);
  const mine = eq(designSettingsProfiles.userId, userId);
  await db.batch([
    db
      .update(designSettingsProfiles)
      .set({ isActive: false })
      .where(and(mine, ne(designSettingsProfiles.id, profileId))),
    db
      .update(designSettingsProfiles)
      .set({ isActive: true })
      .where(and(mine, eq(designSettingsProfiles.id, profileId))),
  ]);
}

function withActive(rows: ProfileRow[], active: ProfileRow): DesignSettingsProfilesResponse {
  return {
    designSettingsProfiles: rows.map((row) => ({ ...summaryOf(row), isActive: row.id === active.id })),
    activeDesignSettings: { profileId: active.id, name: active.name, settings: settingsOf(active.settings) },
  };
}

/** GET /api/user/getDesignSettingsProfiles/{id}: `id` (or "active") is opened and becomes the active profile. */
export async function openDesignProfile(env: Env, user: User, id: string): Promise<DesignSettingsProfilesResponse> {
  const rows = await profilesWithDefault(env, user.id);
  const target = id === "active" ? activeOf(rows) : rows.find((row) => row.id === id);
  if (!target) throw new ServiceError(404, NOT_FOUND);
  if (!target.isActive || rows.some((row) => row.isActive && row.id !== target.id)) await activate(env, user.id, target.id);
  return withActive(rows, target);
}

/** GET /api/user/getDesignSettingsProfile/{name}: one profile by name (any case), without changing which is active. */
export async function designProfileByName(env: Env, user: User, name: string): Promise<DesignSettingsProfileResponse> {
  const rows = await profilesWithDefault(env, user.id);
  const row = rows.find((r) => r.nameKey === nameKey(name));
  if (!row) throw new ServiceError(404, `You have no design profile named "${name.trim()}".`);
  return {
    designProfiles: rows.map(summaryOf),
    designSettingsProfile: { ...summaryOf(row), settings: settingsOf(row.settings) },
  };
}

/**
 * POST /api/user/saveDesignSettings. With newProfileName: a new profile
 * ("save as"); with profileId: that profile; with neither: the active one.
 * The saved profile becomes the active one.
 */
export async function saveDesignSettings(
  env: Env,
  user: User,
  input: { designSettings: DesignSettings; profileId?: string; newProfileName?: string },
): Promise<SaveDesignSettingsResponse> {
  const db = database(env.DB);
  const mine = eq(designSettingsProfiles.userId, user.id);
  const now = Date.now();
  const newName = input.newProfileName?.trim();
  let saved: { id: string; name: string };

  if (newName) {
    saved = { id: crypto.randomUUID(), name: newName };
    // The limit and the unique name are checked by the insert itself, so parallel saves never pass them;
    // the others stop being active only if the new one was written.
    let inserted: D1Result<{ id: string }>;
    try {
      [inserted] = await env.DB.batch<{ id: string }>([
        env.DB.prepare(
          `INSERT INTO design_settings_profiles (id, user_id, name, name_key, settings, is_active, updated_at)
           SELECT ?1, ?2, ?3, ?4, ?5, 1, ?6 WHERE (SELECT count(*) FROM design_settings_profiles WHERE user_id = ?2) < ?7
           RETURNING id`,
        ).bind(saved.id, user.id, newName, nameKey(newName), JSON.stringify(input.designSettings), now, MAX_DESIGN_PROFILES),
        env.DB.prepare(
          `UPDATE design_settings_profiles SET is_active = 0
           WHERE user_id = ?1 AND id != ?2 AND EXISTS (SELECT 1 FROM design_settings_profiles WHERE id = ?2)`,
        ).bind(user.id, saved.id),
      ]);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName(newName);
      throw error;
    }
    if (inserted.results.length === 0) {
      throw new ServiceError(409, `You can keep up to ${MAX_DESIGN_PROFILES} design profiles. Please delete one before saving a new one.`, "newProfileName");
    }
  } else {
    const rows = input.profileId ? await profileRows(env, user.id) : await profilesWithDefault(env, user.id);
    const target = input.profileId ? rows.find((row) => row.id === input.profileId) : activeOf(rows);
    if (!target) throw new ServiceError(404, NOT_FOUND, "profileId");
    saved = { id: target.id, name: target.name };
    await db.batch([
      db
        .update(designSettingsProfiles)
        .set({ isActive: false })
        .where(and(mine, ne(designSettingsProfiles.id, target.id))),
      db
        .update(designSettingsProfiles)
        .set({ settings: input.designSettings, isActive: true, updatedAt: now })
        .where(and(mine, eq(designSettingsProfiles.id, target.id))),
    ]);
  }
  await tickOnboardingStep(env.DB, user, "saveDesignSettings");
  const rows = await profileRows(env, user.id);
  return { newProfileName: saved.name, profileId: saved.id, designSettingsProfiles: rows.map(summaryOf) };
}

/** POST /api/user/renameDesignProfile */
export async function renameDesignProfile(
  env: Env,
  user: User,
  profileId: string,
  newName: string,
): Promise<{ designSettingsProfiles: DesignProfileSummary[] }> {
  const rows = await profileRows(env, user.id);
  const target = rows.find((row) => row.id === profileId);
  if (!target) throw new ServiceError(404, NOT_FOUND, "profileId");
  const name = newName.trim();
  if (rows.some((row) => row.id !== profileId && row.nameKey === nameKey(name))) throw duplicateName(name);
  try {
    await database(env.DB)
      .update(designSettingsProfiles)
      .set({ name, nameKey: nameKey(name), updatedAt: Date.now() })
      .where(and(eq(designSettingsProfiles.userId, user.id), eq(designSettingsProfiles.id, profileId)));
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(name);
    throw error;
  }
  return { designSettingsProfiles: (await profileRows(env, user.id)).map(summaryOf) };
}

/**
 * DELETE /api/user/deleteDesignProfile/{id}. Deleting the active profile
 * activates the most recently updated of the others; deleting the last one
 * leaves a fresh "Default".
 */
export async function deleteDesignProfile(env: Env, user: User, profileId: string): Promise<DesignSettingsProfilesResponse> {
  const db = database(env.DB);
  const rows = await profileRows(env, user.id);
  const target = rows.find((row) => row.id === profileId);
  if (!target) throw new ServiceError(404, NOT_FOUND);
  const mine = eq(designSettingsProfiles.userId, user.id);
  const remove = db.delete(designSettingsProfiles).where(and(mine, eq(designSettingsProfiles.id, profileId)));
  const others = rows.filter((row) => row.id !== profileId);
  const stillActive = others.find((row) => row.isActive);
  if (others.length === 0) {
    await db.batch([remove, db.insert(designSettingsProfiles).values(newDefaultProfile(user.id, Date.now()))]);
  } else if (!stillActive) {
    const next = [...others].sort((a, b) => b.updatedAt - a.updatedAt)[0];
    await db.batch([
      remove,
      db
        .update(designSettingsProfiles)
        .set({ isActive: true })
        .where(and(mine, eq(designSettingsProfiles.id, next.id))),
    ]);
  } else {
    await remove;
  }
  const left = await profileRows(env, user.id);
  return withActive(left, activeOf(left));
}

/**
 * "Use as AI keywords" (the keyword research tool): the active profile, which
 * /generate opens, gets these keywords as its AI keywords, one phrase per line
 * (spec section 5); its other settings stay as they are.
 */
export async function useAsAiKeywords(env: Env, user: User, keywords: string[]): Promise<{ profileName: string; aiKeywords: string }> {
  const { activeDesignSettings } = await openDesignProfile(env, user, "active");
  if (!activeDesignSettings) throw new ServiceError(404, NOT_FOUND);
  const aiKeywords = keywords.join("\n");
  const designSettings = v.parse(DesignSettings, { ...activeDesignSettings.settings, aiKeywords });
  const saved = await saveDesignSettings(env, user, { designSettings, profileId: activeDesignSettings.profileId });
  return { profileName: saved.newProfileName, aiKeywords };
}
