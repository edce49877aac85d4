import { sql } from "drizzle-orm";
import { signToken, verifyToken } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { newsletterSubscribers } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { tokenSettings, type RequestMeta } from "../accounts/accounts.ts";
import { successPlanEmail } from "../accounts/emails.ts";
import { ServiceError } from "../core/errors.ts";
import { consumeRateLimits, RATE_LIMITS } from "../accounts/rate-limit.ts";
import { sendToTypedAddress } from "../accounts/typed-address-mail.ts";
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from "./unsubscribe-links.ts";

const UNSUBSCRIBE_TTL_SECONDS = 365 * 24 * 60 * 60;
export const SUCCESS_PLAN_PATH = "/success-plan.pdf";

/** E-mails the Success plan download link and subscribes the address (again, if it had left). */
export async function subscribeToNewsletter(env: Env, email: string, source: string, meta: RequestMeta) {
  await consumeRateLimits(env.DB, [[RATE_LIMITS.newsletterPerIp, meta.ip]]);
  const token = await signToken(tokenSettings(env), "unsubscribe", {}, email, UNSUBSCRIBE_TTL_SECONDS);
  const download = new URL(SUCCESS_PLAN_PATH, env.APP_URL).toString();
  const unsubscribe = { page: unsubscribePageUrl(env, token), oneClick: oneClickUnsubscribeUrl(env, token) };
  // The address was typed by a visitor (decision 080): through the gate first, so a refused signup records nothing.
  await sendToTypedAddress(env, { ip: meta.ip }, successPlanEmail(email, download, unsubscribe));
  const now = Date.now();
  await database(env.DB)
    .insert(newsletterSubscribers)
    .values({ email, source, subscribedAt: now })
    .onConflictDoUpdate({
      target: newsletterSubscribers.email,
      set: {
        unsubscribedAt: null,
        subscribedAt: sql`CASE WHEN ${newsletterSubscribers.unsubscribedAt} IS NULL THEN ${newsletterSubscribers.subscribedAt} ELSE ${now} END`,
      },
    });
}

export async function unsubscribeFromNewsletter(env: Env, token: string): Promise<string> {
  const claims = await verifyToken(tokenSettings(env), "unsubscribe", token, UNSUBSCRIBE_TTL_SECONDS);
  if (!claims) throw new ServiceError(400, "This unsubscribe link is invalid or has expired.", "token");
  await database(env.DB)
    .update(newsletterSubscribers)
    .set({ unsubscribedAt: Date.now() })
    .where(sql`${newsletterSubscribers.email} = ${claims.sub} AND ${newsletterSubscribers.unsubscribedAt} IS NULL`);
  return claims.sub;
}

export async function isSubscribed(env: Env, email: string): Promise<boolean> {
  const row = await database(env.DB).query.newsletterSubscribers.findFirst({
    where: sql`${newsletterSubscribers.email} = ${email} AND ${newsletterSubscribers.unsubscribedAt} IS NULL`,
  });
  return Boolean(row);
}
