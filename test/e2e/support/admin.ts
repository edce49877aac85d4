import type { Page } from "playwright-core";
import { inject } from "vitest";

/**
 * Runs one SQL statement on the stack's D1 through the app's local-only control (/api/dev/d1/execute): the same
 * database connection as the app's, so it never meets the app's writes as a locked file. Answers the rows changed.
 */
export async function runSql(sql: string): Promise<number> {
  const response = await fetch(`${inject("appUrl")}/api/dev/d1/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql }),
  });
  if (!response.ok) throw new Error(`SQL on the stack's D1 answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { changes: number }).changes;
}

/** Makes a user an admin in the stack's local D1 (there is no page for that). */
export async function promoteToAdmin(email: string) {
  const changed = await runSql(`UPDATE users SET role = 'admin' WHERE email = '${email.replaceAll("'", "''")}'`);
  if (changed !== 1) throw new Error(`no user ${email} to make an admin`);
}

/** A call to our API from the page, with the page's stored id token. */
// biome-ignore lint/suspicious/noExplicitAny: the API's JSON answer, loosely typed for assertions.
export function callApi(page: Page, path: string, body: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("FBIdToken")}` },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    { path, body },
  );
}

/** Puts the page's signed-in user on a paid plan the way an agency's client gets one: an admin's redeem code (`email` is made an admin to create it). */
export async function redeemStarterCode(page: Page, email: string) {
  await promoteToAdmin(email);
  const created = await callApi(page, "/api/admin/redeemCodes", { planId: "starter-monthly", count: 1, months: 1 });
  if (created.status !== 201) throw new Error(`creating a redeem code answered ${created.status}`);
  const redeemed = await callApi(page, "/api/subscriptions/redeemPurchaseCode", { redemptionCode: created.body.codes[0] });
  if (redeemed.status !== 200) throw new Error(`redeeming the code answered ${redeemed.status}`);
}

/** Spends `times` image credits of the page's signed-in user through the API, the way another tab would. */
export async function spendPinCredits(page: Page, times: number) {
  for (let i = 0; i < times; i += 1) {
    const { status } = await callApi(page, "/api/user/incrementUsedPinCredits", { category: "image" });
    if (status !== 200) throw new Error(`spending a credit answered ${status}`);
  }
}
