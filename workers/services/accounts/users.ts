import { and, desc, eq, ne, notInArray } from "drizzle-orm";
import type { PublicUser, UserCredentials } from "../../../contracts/accounts/user.ts";
import type { WordPressKeySummary } from "../../../contracts/shops/wordpress.ts";
import { sha256Hex } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { handleRedirects, users, videoJobs } from "../../db/schema.ts";
import { applyOnboardingChanges, onboardingChecklist } from "../../domain/onboarding.ts";
import { archivePrefix } from "../../../contracts/pinterest/history-archives.ts";
import type { Env } from "../../env.ts";
import { ledgerOf } from "../../ledger/client.ts";
import { mediaUrl, userMediaPrefix } from "../../media/store.ts";
import type { User } from "./accounts.ts";
import { usedCreditsThisMonth } from "../billing/credits.ts";
import { ServiceError } from "../core/errors.ts";
import { authorizedProfiles } from "../pinterest/pinterest-connection.ts";
import { authorizedShops } from "../shops/shops.ts";
import { wordpressKeyOf } from "../shops/wordpress-keys.ts";

/** The user credentials of spec section 3 (GET /api/user). */
export function credentialsOf(
  env: Pick<Env, "APP_URL">,
  user: User,
  usedPinCredits = 0,
  authorizedPinterestProfiles: UserCredentials["authorizedPinterestProfiles"] = [],
  shops: UserCredentials["authorizedShops"] = [],
  wordpressKey: WordPressKeySummary | null = null,
): UserCredentials {
  return {
    userId: user.id,
    role: user.role,
    imageUrl: user.imageKey ? mediaUrl(env.APP_URL, user.imageKey) : null,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    handle: user.handle,
    createdAt: new Date(user.createdAt).toISOString(),
    referralCode: user.referralCode,
    planId: user.planId,
    planStatus: user.planStatus,
    cancelSubscriptionDate: user.cancelSubscriptionDate ? new Date(user.cancelSubscriptionDate).toISOString() : null,
    usedFreeTrial: user.usedFreeTrial,
    isEmailVerified: user.isEmailVerified,
    cookiesConsent: user.cookiesConsent ?? null,
    usedPinCredits,
    authorizedPinterestProfiles,
    authorizedShops: shops,
    // Payment sessions arrive with their feature.
    stripeCheckoutSessionID: null,
    // The key's first characters ("pbwp_abcd…", decision 054): never the key or its hash.
    wordpressAccessKey: wordpressKey?.shown ?? null,
    onboardingChecklist: onboardingChecklist(user.onboardingDone, user.isEmailVerified),
  };
}

/** The credentials with usedPinCredits read from the credit ledger. */
export async function currentCredentials(env: Env, user: User): Promise<UserCredentials> {
  const [used, profiles, shops, wordpressKey] = await Promise.all([
    usedCreditsThisMonth(env, user.id),
    authorizedProfiles(env, user.id),
    authorizedShops(env, user.id),
    wordpressKeyOf(env, user.id),
  ]);
  return credentialsOf(env, user, used, profiles, shops, wordpressKey);
}

export async function updateProfile(env: Env, user: User, updates: { firstName?: string; lastName?: string; handle?: string }): Promise<User> {
  const db = database(env.DB);
  if (updates.handle && updates.handle !== user.handle) {
    const taken = await db.query.users.findFirst({ where: and(eq(users.handle, updates.handle), ne(users.id, user.id)), columns: { id: true } });
    if (taken) throw new ServiceError(409, "This handle is already taken.", "updates.handle");
  }
  if (Object.keys(updates).length === 0) return user;
  try {
    const now = Date.now();
    const update = db
      .update(users)
      .set({ ...updates, updatedAt: now })
      .where(eq(users.id, user.id))
      .returning();
    if (!updates.handle || updates.handle === user.handle) return (await update)[0];
    // The old handle's public address leads to the new one (issue 40 point 9); the newest few are kept.
    const [[updated]] = await db.batch([
      update,
      db
        .insert(handleRedirects)
        .values({ oldHandle: user.handle, userId: user.id, createdAt: now })
        .onConflictDoUpdate({ target: handleRedirects.oldHandle, set: { userId: user.id, createdAt: now } }),
      db
        .delete(handleRedirects)
        .where(
          and(
            eq(handleRedirects.userId, user.id),
            notInArray(
              handleRedirects.oldHandle,
              db
                .select({ oldHandle: handleRedirects.oldHandle })
                .from(handleRedirects)
                .where(eq(handleRedirects.userId, user.id))
                .orderBy(desc(handleRedirects.createdAt))
                .limit(HANDLE_REDIRECTS_KEPT),
            ),
          ),
        ),
    ]);
    return updated;
  } catch (error) {
    if (/UNIQUE constraint failed: users\.handle/.test(String(error))) throw new ServiceError(409, "This handle is already taken.", "updates.handle");
    throw error;
  }
}

/** Old handles kept per user, each leading to the handle now. */
export const HANDLE_REDIRECTS_KEPT = 5;

/** The user a handle names: theirs now, or (when nobody has it now) one they had before. */
export async function userByHandle(env: Env, handle: string): Promise<typeof users.$inferSelect | null> {
  const db = database(env.DB);
  const wanted = handle.toLowerCase();
  const current = await db.query.users.findFirst({ where: eq(users.handle, wanted) });
  if (current) return current;
  const [moved] = await db
    .select({ user: users })
    .from(handleRedirects)
    .innerJoin(users, eq(users.id, handleRedirects.userId))
    .where(eq(handleRedirects.oldHandle, wanted))
    .limit(1);
  return moved?.user ?? null;
}

/** A user's public profile by handle; for an old handle, the profile under the handle now (the page moves there). */
export async function publicProfile(env: Env, handle: string): Promise<PublicUser | null> {
  const user = await userByHandle(env, handle);
  if (!user) return null;
  return {
    handle: user.handle,
    firstName: user.firstName,
    lastName: user.lastName,
    imageUrl: user.imageKey ? await publicPictureUrl(env, user.handle, user.imageKey) : null,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/**
 * A public profile's picture address: by handle, never by the media key (which
 * holds the user's id); `v` changes with the picture so it may be cached for good.
 */
async function publicPictureUrl(env: Pick<Env, "APP_URL">, handle: string, imageKey: string): Promise<string> {
  return new URL(`/api/user/${encodeURIComponent(handle)}/picture?v=${(await sha256Hex(imageKey)).slice(0, 12)}`, env.APP_URL).toString();
}

/** The media key of a public profile's picture (null: no such user or no picture). */
export async function publicPictureKey(env: Env, handle: string): Promise<string | null> {
  const user = await database(env.DB).query.users.findFirst({ where: eq(users.handle, handle.toLowerCase()), columns: { imageKey: true } });
  return user?.imageKey ?? null;
}

export async function setOnboardingChecklist(env: Env, user: User, changes: { name: string; isChecked: boolean }[]): Promise<User> {
  const [updated] = await database(env.DB)
    .update(users)
    .set({ onboardingDone: applyOnboardingChanges(user.onboardingDone, changes), updatedAt: Date.now() })
    .where(eq(users.id, user.id))
    .returning();
  return updated;
}

export async function setCookiesConsent(env: Env, user: User, consent: boolean) {
  await database(env.DB).update(users).set({ cookiesConsent: consent, updatedAt: Date.now() }).where(eq(users.id, user.id));
}

// ---------------------------------------------------------------- account deletion

/**
 * Deletes everything a user owns: their media and history archives in R2 first (safe to repeat), their ledger object,
 * then their rows in one batch (sessions, tokens and other owned rows go with
 * the user row through ON DELETE CASCADE). A failure part-way leaves the
 * account in place, so trying again finishes the job.
 */
export async function deleteAccount(env: Env, user: User) {
  // Their media, and their pin history archives (decision 084).
  for (const prefix of [userMediaPrefix(user.id), archivePrefix(user.id)]) {
    let cursor: string | undefined;
    do {
      const listing = await env.MEDIA.list({ prefix, cursor, limit: 1000 });
      if (listing.objects.length > 0) await env.MEDIA.delete(listing.objects.map((object) => object.key));
      cursor = listing.truncated ? listing.cursor : undefined;
    } while (cursor);
  }
  // The per-pin records (decision 084), then the rows of D1.
  await ledgerOf(env, user.id).destroy();
  const db = database(env.DB);
  await db.batch([db.delete(videoJobs).where(eq(videoJobs.userId, user.id)), db.delete(users).where(eq(users.id, user.id))]);
}
