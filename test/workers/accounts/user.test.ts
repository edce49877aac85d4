import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { database } from "../../../workers/db/client.ts";
import { authSessions, newsletterSubscribers, users } from "../../../workers/db/schema.ts";
import { bearer, json, lastLinkTo, outboxFor, signUpUser, uniqueEmail } from "./accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

const db = database(testEnv.DB);

beforeEach(async () => {
  await sandbox("/reset?service=email", { method: "POST" }); // only our stand-ins: other files run alongside
});

const PNG_1x1 = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);

function imageForm(bytes: Uint8Array<ArrayBuffer>, name = "me.png", type = "image/png") {
  const form = new FormData();
  form.append("image", new File([bytes], name, { type }));
  return form;
}

describe("GET /api/user", () => {
  it("answers the caller's own credentials with the spec's fields", async () => {
    const user = await signUpUser({ firstName: "Noor", lastName: "Haddad" });
    const { credentials } = await read(await app("/api/user", { headers: bearer(user.tokens) }));
    expect(credentials).toMatchObject({
      userId: user.userId,
      role: "user",
      email: user.email,
      firstName: "Noor",
      lastName: "Haddad",
      handle: expect.stringMatching(/^noorhaddad\d*$/),
      referralCode: expect.stringMatching(/^[A-Z2-9]{8}$/),
      planStatus: "Inactive",
      isEmailVerified: false,
      cookiesConsent: null,
      usedPinCredits: 0,
      authorizedPinterestProfiles: [],
      imageUrl: null,
    });
    expect(credentials.onboardingChecklist).toHaveLength(8);
    expect(credentials.onboardingChecklist[0]).toEqual({ name: "verifyEmail", label: "Verify your e-mail address", link: "/verify-email", isChecked: false });
    expect(credentials).not.toHaveProperty("passwordHash");
  });
});

describe("POST /api/user {updates}", () => {
  it("changes only the caller's own allowed fields", async () => {
    const alice = await signUpUser({ firstName: "Alice" });
    const bob = await signUpUser({ firstName: "Bob" });
    const handle = `alice_${Date.now().toString(36)}`;
    const response = await app("/api/user", json({ updates: { firstName: "Alicia", handle: handle.toUpperCase() } }, bearer(alice.tokens)));
    expect(response.status).toBe(200);
    expect((await read(response)).credentials).toMatchObject({ firstName: "Alicia", handle });
    // Bob is untouched.
    expect((await read(await app("/api/user", { headers: bearer(bob.tokens) }))).credentials.firstName).toBe("Bob");
  });

  it("refuses fields a user may not change, such as role, with 400 naming the field", async () => {
    const user = await signUpUser();
    for (const [updates, field, message] of [
      [{ role: "admin" }, "updates.role", "role cannot be changed"],
      [{ email: "x@y.co" }, "updates.email", "email cannot be changed"],
      [{ handle: "a" }, "updates.handle", "handle must be 3-30 letters, digits, dots or underscores"],
      [{ handle: "credits" }, "updates.handle", "This handle is reserved; please choose another."],
      ["admin", "updates", "updates must be an object"],
    ] as const) {
      const response = await app("/api/user", json({ updates }, bearer(user.tokens)));
      expect(response.status).toBe(400);
      expect(await read(response)).toEqual({ error: message, field });
    }
    const row = await db.query.users.findFirst({ where: eq(users.id, user.userId) });
    expect(row?.role).toBe("user");
  });

  it("refuses half of a surrogate pair in a name with 400 naming the field, instead of storing U+FFFD", async () => {
    const user = await signUpUser({ firstName: "Wren" });
    // JSON.stringify writes a lone surrogate as the escape "\ud83d", which JSON.parse turns back into one.
    for (const [updates, field] of [
      [{ firstName: "Wren\ud83d" }, "updates.firstName"],
      [{ lastName: "\udc00Hale" }, "updates.lastName"],
    ] as const) {
      const response = await app("/api/user", json({ updates }, bearer(user.tokens)));
      expect(response.status).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
    // A whole emoji (a proper pair) is fine.
    expect((await app("/api/user", json({ updates: { firstName: "Wren \ud83d\ude00" } }, bearer(user.tokens)))).status).toBe(200);
    const row = await db.query.users.findFirst({ where: eq(users.id, user.userId) });
    expect(row?.firstName).toBe("Wren \u{1F600}");
    expect(row?.lastName).not.toContain("\uFFFD");

    const email = `lone-${crypto.randomUUID()}@example.com`;
    const signup = await app(
      "/api/signup",
      json(
        { email, password: "Correct-Horse-Battery-42", firstName: "Ada\ud800", lastName: "Byron", leadSource: "Pinterest" },
        { "cf-connecting-ip": "198.51.100.201" },
      ),
    );
    expect(signup.status).toBe(400);
    expect(await read(signup)).toMatchObject({ field: "firstName" });
    expect(await db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined();
  });

  it("refuses a handle someone else has", async () => {
    const alice = await signUpUser();
    const bob = await signUpUser();
    const response = await app("/api/user", json({ updates: { handle: alice.handle } }, bearer(bob.tokens)));
    expect(response.status).toBe(409);
    expect(await read(response)).toEqual({ error: "This handle is already taken.", field: "updates.handle" });
  });
});

describe("GET /api/user/{handle}", () => {
  it("shows public fields only, to anyone", async () => {
    const user = await signUpUser({ firstName: "Public", lastName: "Person" });
    const response = await app(`/api/user/${user.handle}`);
    expect(response.status).toBe(200);
    const { user: profile } = await read(response);
    expect(Object.keys(profile).sort()).toEqual(["createdAt", "firstName", "handle", "imageUrl", "lastName"]);
    expect(profile).toMatchObject({ handle: user.handle, firstName: "Public" });
    expect((await app("/api/user/nobody-has-this-handle")).status).toBe(404);
  });

  it("never shows the user's internal id, picture included, and serves the picture by handle", async () => {
    const user = await signUpUser({ firstName: "Ines" });
    expect((await app("/api/user/image", { method: "POST", headers: bearer(user.tokens), body: imageForm(PNG_1x1) })).status).toBe(200);
    const response = await app(`/api/user/${user.handle}`);
    const text = await response.text();
    expect(text).not.toContain(user.userId);
    const { imageUrl } = JSON.parse(text).user;
    expect(new URL(imageUrl).pathname).toBe(`/api/user/${user.handle}/picture`);
    const served = await app(`${new URL(imageUrl).pathname}${new URL(imageUrl).search}`);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG_1x1);
    expect((await app("/api/user/nobody-has-this-handle/picture")).status).toBe(404);
  });
});

describe("POST /api/user/image", () => {
  it("stores an image in R2 and sets it as the profile image", async () => {
    const user = await signUpUser();
    const response = await app("/api/user/image", { method: "POST", headers: bearer(user.tokens), body: imageForm(PNG_1x1) });
    expect(response.status).toBe(200);
    const { imageUrl } = await read(response);
    const served = await app(new URL(imageUrl).pathname);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG_1x1);
    expect((await read(await app("/api/user", { headers: bearer(user.tokens) }))).credentials.imageUrl).toBe(imageUrl);
  });

  it("refuses files that are not images, images that are too large, and a missing file", async () => {
    const user = await signUpUser();
    const text = new TextEncoder().encode("<svg onload=alert(1)>");
    const notImage = await app("/api/user/image", { method: "POST", headers: bearer(user.tokens), body: imageForm(text, "x.png") });
    expect(notImage.status).toBe(415);
    expect(await read(notImage)).toEqual({ error: "Please upload a JPEG, PNG, GIF or WebP image.", field: "image" });
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(PNG_1x1);
    const tooLarge = await app("/api/user/image", { method: "POST", headers: bearer(user.tokens), body: imageForm(huge) });
    expect(tooLarge.status).toBe(413);
    const missing = await app("/api/user/image", { method: "POST", headers: bearer(user.tokens), body: new FormData() });
    expect(missing.status).toBe(400);
    expect(await read(missing)).toEqual({ error: "Please choose an image to upload.", field: "image" });
    expect((await testEnv.MEDIA.list({ prefix: `users/${user.userId}/` })).objects).toHaveLength(0);
  });
});

describe("e-mail verification", () => {
  it("verifies from the e-mailed link and ticks the onboarding step", async () => {
    const user = await signUpUser();
    const link = await lastLinkTo(user.email, "/verify-email");
    const response = await app("/api/user/verifyUserEmail", json({ uid: link.searchParams.get("uid"), token: link.searchParams.get("token") }));
    expect(response.status).toBe(200);
    expect(await read(response)).toEqual({ message: "Email verified" });
    const { credentials } = await read(await app("/api/user", { headers: bearer(user.tokens) }));
    expect(credentials.isEmailVerified).toBe(true);
    expect(credentials.onboardingChecklist[0].isChecked).toBe(true);
  });

  it("never verifies from a bare uid, another user's token or a tampered token", async () => {
    const alice = await signUpUser();
    const bob = await signUpUser();
    const aliceLink = await lastLinkTo(alice.email, "/verify-email");
    const bare = await app("/api/user/verifyUserEmail", json({ uid: bob.userId }));
    expect(bare.status).toBe(400);
    expect(await read(bare)).toEqual({ error: "token is required", field: "token" });
    const crossed = await app("/api/user/verifyUserEmail", json({ uid: bob.userId, token: aliceLink.searchParams.get("token") }));
    expect(crossed.status).toBe(400);
    const token = aliceLink.searchParams.get("token")!;
    const tampered = await app("/api/user/verifyUserEmail", json({ uid: alice.userId, token: token.slice(0, -3) + (token.endsWith("a") ? "bcd" : "abc") }));
    expect(tampered.status).toBe(400);
    expect(await read(tampered)).toEqual({ error: "This verification link is invalid or has expired.", field: "token" });
    for (const id of [alice.userId, bob.userId]) {
      expect((await db.query.users.findFirst({ where: eq(users.id, id) }))?.isEmailVerified).toBe(false);
    }
  });

  it("sends the link again on request, and says so when the e-mail provider fails", async () => {
    const user = await signUpUser();
    const sent = await app("/api/user/sendEmailVerificationLink", { method: "POST", headers: bearer(user.tokens) });
    expect(sent.status).toBe(200);
    expect(await read(sent)).toEqual({ message: "Email verification link sent" });
    expect(await outboxFor(user.email)).toHaveLength(2);

    await sandbox("/faults", { method: "POST", json: { service: "email", method: "POST", path: "/emails", status: 503 } });
    const failed = await app("/api/user/sendEmailVerificationLink", { method: "POST", headers: bearer(user.tokens) });
    expect(failed.status).toBe(502);
    expect(await read(failed)).toEqual({ error: "Unable to send email verification link" });
  });

  it("limits how often the link is sent: past the limit, 429 and nothing sent", async () => {
    const user = await signUpUser();
    for (let i = 0; i < 5; i++) {
      expect((await app("/api/user/sendEmailVerificationLink", { method: "POST", headers: bearer(user.tokens) })).status).toBe(200);
    }
    const limited = await app("/api/user/sendEmailVerificationLink", { method: "POST", headers: bearer(user.tokens) });
    expect(limited.status).toBe(429);
    expect(await outboxFor(user.email)).toHaveLength(6); // the sign-up e-mail and five resends
  });
});

describe("password reset", () => {
  it("answers the same for known and unknown e-mails, and only e-mails the account holder", async () => {
    const user = await signUpUser();
    const unknown = uniqueEmail("ghost");
    for (const email of [user.email, unknown]) {
      const response = await app("/api/user/forgotPassword", json({ email }));
      expect(response.status).toBe(200);
      expect(await read(response)).toEqual({ message: "Password reset requested for this email." });
    }
    expect((await outboxFor(user.email)).map((m) => m.subject)).toContain("Reset your password");
    expect(await outboxFor(unknown)).toEqual([]);
  });

  it("sets a new password from the link once, signs every session out, and the new password works", async () => {
    const user = await signUpUser();
    await app("/api/user/forgotPassword", json({ email: user.email }));
    const token = (await lastLinkTo(user.email, "/reset-password")).searchParams.get("token")!;

    const weak = await app("/api/user/resetPassword", json({ token, password: "password123" }));
    expect(weak.status).toBe(400);
    expect((await read(weak)).field).toBe("password");

    const reset = await app("/api/user/resetPassword", json({ token, password: "Brand-New-Secret-77" }));
    expect(reset.status).toBe(200);
    expect((await app("/api/user/resetPassword", json({ token, password: "Another-Secret-88" }))).status).toBe(400);

    expect((await app("/api/user", { headers: bearer(user.tokens) })).status).toBe(403);
    const sessions = await db.query.authSessions.findMany({ where: eq(authSessions.userId, user.userId) });
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);
    expect((await app("/api/login", json({ email: user.email, password: user.password }))).status).toBe(401);
    expect((await app("/api/login", json({ email: user.email, password: "Brand-New-Secret-77" }))).status).toBe(200);
  });

  it("limits reset requests per e-mail: past the limit, 429 and nothing sent", async () => {
    const user = await signUpUser();
    for (let i = 0; i < 3; i++) expect((await app("/api/user/forgotPassword", json({ email: user.email }))).status).toBe(200);
    const limited = await app("/api/user/forgotPassword", json({ email: user.email }));
    expect(limited.status).toBe(429);
    expect((await outboxFor(user.email)).filter((m) => m.subject === "Reset your password")).toHaveLength(3);
  });
});

describe("onboarding, cookie consent and newsletter", () => {
  it("ticks and unticks onboarding steps, ignoring unknown ones", async () => {
    const user = await signUpUser();
    const response = await app(
      "/api/user/setOnboardingChecklist",
      json(
        {
          onboardingChecklist: [
            { name: "generatePins", isChecked: true },
            { name: "madeUp", isChecked: true },
          ],
        },
        bearer(user.tokens),
      ),
    );
    expect(response.status).toBe(200);
    const { onboardingChecklist } = await read(response);
    expect(onboardingChecklist.filter((s: { isChecked: boolean }) => s.isChecked).map((s: { name: string }) => s.name)).toEqual(["generatePins"]);
    const bad = await app("/api/user/setOnboardingChecklist", json({ onboardingChecklist: [{ name: "generatePins" }] }, bearer(user.tokens)));
    expect(bad.status).toBe(400);
    expect(await read(bad)).toEqual({ error: "isChecked is required", field: "onboardingChecklist.0.isChecked" });
  });

  it("stores the cookie consent choice", async () => {
    const user = await signUpUser();
    expect((await app("/api/user/cookiesConsent", json({ cookiesConsent: false }, bearer(user.tokens)))).status).toBe(200);
    expect((await read(await app("/api/user", { headers: bearer(user.tokens) }))).credentials.cookiesConsent).toBe(false);
    const bad = await app("/api/user/cookiesConsent", json({ cookiesConsent: "yes" }, bearer(user.tokens)));
    expect(bad.status).toBe(400);
    expect((await read(bad)).field).toBe("cookiesConsent");
  });

  it("subscribes to the newsletter and e-mails the Success plan link; the unsubscribe link works", async () => {
    const email = uniqueEmail("reader");
    const response = await app("/api/user/newsletterSignup", json({ email }));
    expect(response.status).toBe(200);
    const [mail] = await outboxFor(email);
    expect(mail.subject).toBe("Your Pinterest Success Plan");
    expect(mail.links).toContain("http://app.test/success-plan.pdf");
    const unsubscribe = new URL(mail.links.find((l) => l.includes("/unsubscribe"))!);
    const done = await app("/api/user/unsubscribe", json({ token: unsubscribe.searchParams.get("token") }));
    expect(done.status).toBe(200);
    const row = await db.query.newsletterSubscribers.findFirst({ where: eq(newsletterSubscribers.email, email) });
    expect(row?.unsubscribedAt).not.toBeNull();

    // Subscribed again, the e-mail's one-click header (RFC 8058, decision 097) unsubscribes without a page.
    expect((await app("/api/user/newsletterSignup", json({ email }))).status).toBe(200);
    expect((await db.query.newsletterSubscribers.findFirst({ where: eq(newsletterSubscribers.email, email) }))?.unsubscribedAt).toBeNull();
    const second = (await outboxFor(email)).at(-1)!;
    expect(second.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const oneClick = new URL(second.headers["List-Unsubscribe"].slice(1, -1));
    expect(oneClick.pathname).toBe("/api/user/unsubscribe/oneClick");
    const clicked = await app(oneClick.pathname + oneClick.search, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(await read(clicked)).toEqual({ message: `${email} has been unsubscribed.`, kind: "newsletter" });
    expect((await db.query.newsletterSubscribers.findFirst({ where: eq(newsletterSubscribers.email, email) }))?.unsubscribedAt).not.toBeNull();
    const forged = await app("/api/user/unsubscribe/oneClick?token=not-a-token", { method: "POST" });
    expect(forged.status).toBe(400);
    expect(await read(forged)).toMatchObject({ field: "token" });

    const bad = await app("/api/user/newsletterSignup", json({ email: "nope" }));
    expect(bad.status).toBe(400);
    expect(await read(bad)).toEqual({ error: "Please enter a valid email address", field: "email" });
  });
});

describe("DELETE /api/user/deleteUserAccount", () => {
  it("deletes the user's rows and media, and their tokens stop working; other users are untouched", async () => {
    const doomed = await signUpUser();
    const other = await signUpUser();
    await app("/api/user/image", { method: "POST", headers: bearer(doomed.tokens), body: imageForm(PNG_1x1) });
    await app("/api/user/image", { method: "POST", headers: bearer(other.tokens), body: imageForm(PNG_1x1) });

    const response = await app("/api/user/deleteUserAccount", { method: "DELETE", headers: bearer(doomed.tokens) });
    expect(response.status).toBe(200);
    expect(await db.query.users.findFirst({ where: eq(users.id, doomed.userId) })).toBeUndefined();
    expect(await db.query.authSessions.findMany({ where: eq(authSessions.userId, doomed.userId) })).toEqual([]);
    expect((await testEnv.MEDIA.list({ prefix: `users/${doomed.userId}/` })).objects).toHaveLength(0);
    expect((await app("/api/user", { headers: bearer(doomed.tokens) })).status).toBe(403);

    expect((await testEnv.MEDIA.list({ prefix: `users/${other.userId}/` })).objects).toHaveLength(1);
    expect((await app("/api/user", { headers: bearer(other.tokens) })).status).toBe(200);
  });
});
