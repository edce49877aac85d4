import { NEWSLETTER_SUBSCRIBER_KEY, writeStored } from "../components/shell/browser-storage.ts";
import { apiJson } from "./api-client.ts";

/** What the newsletter offer says once sent (spec section 2). */
export const SUCCESS_PLAN_SENT = "Please check your email for the download link.";

/** Subscribes to the newsletter (the e-mail carries the Success plan link) and remembers it in this browser. */
export async function subscribeToSuccessPlan(body: { email: string; source: "popup" | "email-signup" | "profile" }) {
  await apiJson<{ message: string }>("/api/user/newsletterSignup", { json: body });
  writeStored("local", NEWSLETTER_SUBSCRIBER_KEY, "true");
}
