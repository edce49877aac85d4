import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { database } from "../../../workers/db/client.ts";
import { users } from "../../../workers/db/schema.ts";
import { bearer, json, sessionCookie, signUpUser, uniqueEmail } from "./accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

const db = database(testEnv.DB);

beforeEach(async () => {
  await sandbox("/reset?service=google&service=email", { method: "POST" }); // only our stand-ins: other files run alongside
});

/** An ID token from the sandbox's Google, for our client id unless told otherwise. */
async function googleToken(fields: {
  email: string;
  aud?: string;
  emailVerified?: boolean;
  expiresInSeconds?: number;
  issuer?: string;
  signWithUnknownKey?: boolean;
  givenName?: string;
  familyName?: string;
}) {
  const { id_token } = await sandbox<{ id_token: string }>("/google/id-token", {
    method: "POST",
    json: { aud: testEnv.GOOGLE_CLIENT_ID, ...fields },
  });
  return id_token;
}

describe("POST /api/signInWithGoogle", () => {
  it("creates a verified account on first sign-in (201), then signs the same person in (200)", async () => {
    const email = uniqueEmail("google");
    const first = await app(
      "/api/signInWithGoogle",
      json({ idToken: await googleToken({ email, givenName: "Grace", familyName: "Hopper" }) }, { "cf-connecting-ip": "203.0.113.50" }),
    );
    expect(first.status).toBe(201);
    const tokens = await read(first);
    sessionCookie(first);
    const { credentials } = await read(await app("/api/user", { headers: bearer(tokens) }));
    expect(credentials).toMatchObject({ email, firstName: "Grace", lastName: "Hopper", isEmailVerified: true });
    expect(credentials.onboardingChecklist[0].isChecked).toBe(true);

    const again = await app("/api/signInWithGoogle", json({ idToken: await googleToken({ email }) }));
    expect(again.status).toBe(200);
    expect((await read(await app("/api/user", { headers: bearer(await read(again)) }))).credentials.userId).toBe(credentials.userId);
  });

  it("links Google to an existing e-mail account and marks the e-mail verified", async () => {
    const user = await signUpUser();
    const response = await app("/api/signInWithGoogle", json({ idToken: await googleToken({ email: user.email }) }));
    expect(response.status).toBe(200);
    const row = await db.query.users.findFirst({ where: eq(users.id, user.userId) });
    expect(row?.googleSub).toMatch(/^\d{21}$/);
    expect(row?.isEmailVerified).toBe(true);
  });

  it("refuses tokens that are expired, for another app, from another issuer, forged, or without a verified e-mail", async () => {
    const email = uniqueEmail("refused");
    const cases = {
      expired: await googleToken({ email, expiresInSeconds: -60 }),
      otherAudience: await googleToken({ email, aud: "someone-else.apps.googleusercontent.com" }),
      otherIssuer: await googleToken({ email, issuer: "https://evil.example" }),
      unknownKey: await googleToken({ email, signWithUnknownKey: true }),
      garbage: "not.a.token",
    };
    for (const [name, idToken] of Object.entries(cases)) {
      const response = await app("/api/signInWithGoogle", json({ idToken }));
      expect(response.status, name).toBe(401);
      expect(await read(response)).toEqual({ error: "Google sign-in failed. Please try again." });
    }
    const unverified = await app("/api/signInWithGoogle", json({ idToken: await googleToken({ email, emailVerified: false }) }));
    expect(unverified.status).toBe(401);
    expect((await read(unverified)).error).toMatch(/^Your Google account's e-mail address is not verified/);
    expect(await db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined();
    const missing = await app("/api/signInWithGoogle", json({}));
    expect(missing.status).toBe(400);
    expect(await read(missing)).toEqual({ error: "idToken is required", field: "idToken" });
  });
});
