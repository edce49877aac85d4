import type { Env } from "../../env.ts";
import { unsubscribeFromWeeklySummary } from "../pinterest/analytics.ts";
import { unsubscribeFromNewsletter } from "./newsletter.ts";
import { unsubscribeFromTrendAlerts } from "./trend-alerts.ts";

/** Which mail an unsubscribe link stopped. */
export type UnsubscribedFrom = "newsletter" | "trendAlerts" | "weeklySummary";

/**
 * Applies the unsubscribe link of any marketing e-mail (the newsletter's, a trend alert digest's, the weekly
 * summary's): the signed token says which. Answers what stopped and the words /unsubscribe shows; a token of
 * none of them is a 400 naming `token`.
 */
export async function unsubscribeByToken(env: Env, token: string): Promise<{ message: string; kind: UnsubscribedFrom }> {
  const fromTrendAlerts = await unsubscribeFromTrendAlerts(env, token);
  if (fromTrendAlerts !== null) return { message: `${fromTrendAlerts} will no longer receive trend alert e-mails.`, kind: "trendAlerts" };
  const fromWeeklySummary = await unsubscribeFromWeeklySummary(env, token);
  if (fromWeeklySummary !== null) return { message: `${fromWeeklySummary} will no longer receive the weekly summary.`, kind: "weeklySummary" };
  const email = await unsubscribeFromNewsletter(env, token);
  return { message: `${email} has been unsubscribed.`, kind: "newsletter" };
}
