import { SignJWT, UnsecuredJWT } from "jose";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { SIGNUP_CHECK_EMAIL } from "../../../contracts/accounts/auth.ts";
import { database } from "../../../workers/db/client.ts";
import { authSessions, users } from "../../../workers/db/schema.ts";
import { verifyPassword } from "../../../workers/auth/password-hash.ts";
import { sha256Hex } from "../../../workers/auth/tokens.ts";
import { REFRESH_GRACE_MS } from "../../../workers/services/accounts/accounts.ts";
import { bearer, GOOD_PASSWORD, json, lastLinkTo, outboxFor, sessionCookie, signUpUser, uniqueEmail } from "./accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

const db = database(testEnv.DB);
const ISSUER = "http://app.test";
const secret = new TextEncoder().encode(testEnv.AUTH_SECRET);

beforeEach(async () => {
  await sandbox("/reset?service=email", { method: "POST" }); // only our stand-ins: other files run alongside
});

async function errorOf(response: Response) {
  return (await read(response)) as { error: string; field?: string };
}

describe("POST /api/signup", () => {
  it("creates the account, answers tokens, sets a secure session cookie and sends the verification e-mail", async () => {
    const email = uniqueEmail("Signup");
    const response = await app(
      "/api/signup",
      json(
        { email: `  ${email} `, password: GOOD_PASSWORD, firstName: "Ana", lastName: "Sousa", leadSource: "Other", leadSourceOther: "A podcast" },
        { "cf-connecting-ip": "203.0.113.7" },
      ),
    );
    expect(response.status).toBe(201);
    const tokens = await read(response);
    expect(tokens).toEqual({ idToken: expect.any(String), refreshToken: expect.any(String) });
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/pb_session=[A-Za-z0-9_-]{40,}/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const user = await db.query.users.findFirst({ where: eq(users.email, email.toLowerCase()) });
    expect(user).toMatchObject({
      firstName: "Ana",
      lastName: "Sousa",
      signupIp: "203.0.113.7",
      leadSource: "Other",
      leadSourceOther: "A podcast",
      isEmailVerified: false,
      role: "user",
    });
    expect(user!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword(GOOD_PASSWORD, user!.passwordHash!)).toBe(true);

    const [mail] = await outboxFor(email.toLowerCase());
    expect(mail.subject).toBe("Verify your e-mail address");
    const link = new URL(mail.links[0]);
    expect(link.pathname).toBe("/verify-email");
    expect(link.searchParams.get("uid")).toBe(user!.id);
    expect(link.searchParams.get("token")).toBeTruthy();
  });

  it("does not tell whether an e-mail has an account: no session, the words a new account is shown, and the owner is e-mailed instead", async () => {
    const existing = await signUpUser({ firstName: "Oona" });
    const before = (await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>())!.n;
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await app(
        "/api/signup",
        json({ email: existing.email.toUpperCase(), password: `${GOOD_PASSWORD}${attempt}`, firstName: "A", lastName: "B" }),
      );
      answers.push({ status: response.status, body: await response.text(), cookie: response.headers.get("set-cookie") });
    }
    for (const answer of answers) expect(answer).toEqual({ status: 202, body: JSON.stringify({ message: SIGNUP_CHECK_EMAIL }), cookie: null });
    expect(SIGNUP_CHECK_EMAIL).toBe("Please check your email to verify your account.");
    expect((await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>())!.n).toBe(before);
    // The owner hears of it, a few times an hour at most; their password still works.
    const told = (await outboxFor(existing.email)).filter((mail) => mail.subject === "You already have a Pinboard Studio account");
    expect(told).toHaveLength(3);
    expect(told[0]!.text).toContain("Hi Oona,");
    expect(told[0]!.links.map((link) => new URL(link).pathname)).toEqual(["/login", "/forgot-password"]);
    expect((await app("/api/login", json({ email: existing.email, password: GOOD_PASSWORD }))).status).toBe(200);
  });

  it("answers malformed bodies with 400 naming the field, and creates nothing", async () => {
    const before = (await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>())!.n;
    const cases: [unknown, string, string][] = [
      [{}, "email", "email is required"],
      [{ email: "not-an-email", password: GOOD_PASSWORD, firstName: "A", lastName: "B" }, "email", "Please enter a valid email address."],
      [{ email: uniqueEmail(), password: "short", firstName: "A", lastName: "B" }, "password", "Password must be at least 8 characters."],
      [{ email: uniqueEmail(), password: "x".repeat(129), firstName: "A", lastName: "B" }, "password", "Password must be at most 128 characters."],
      [
        { email: uniqueEmail(), password: "password123", firstName: "A", lastName: "B" },
        "password",
        "This password is too common. Please choose a less guessable one.",
      ],
      [{ email: uniqueEmail(), password: GOOD_PASSWORD, firstName: "", lastName: "B" }, "firstName", "firstName is required"],
      [
        { email: uniqueEmail(), password: GOOD_PASSWORD, firstName: "A", lastName: "B", leadSource: "Carrier pigeon" },
        "leadSource",
        "leadSource must be one of the listed choices",
      ],
      [{ email: 42, password: GOOD_PASSWORD }, "email", "email is required"],
    ];
    for (const [body, field, message] of cases) {
      const response = await app("/api/signup", json(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response)).toEqual({ error: message, field });
    }
    const notJson = await app("/api/signup", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(await errorOf(notJson)).toEqual({ error: "The request body must be valid JSON." });
    expect((await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>())!.n).toBe(before);
  });
});

describe("POST /api/login", () => {
  it("signs in with the e-mail in any case and answers a fresh pair of tokens", async () => {
    const user = await signUpUser();
    const response = await app("/api/login", json({ email: user.email.toUpperCase(), password: user.password }));
    expect(response.status).toBe(200);
    const tokens = await read(response);
    expect(tokens).toEqual({ idToken: expect.any(String), refreshToken: expect.any(String) });
    expect(tokens.refreshToken).not.toBe(user.tokens.refreshToken);
    sessionCookie(response);
    const me = await app("/api/user", { headers: bearer(tokens) });
    expect((await read(me)).credentials.email).toBe(user.email);
  });

  it("answers a wrong password and an unknown e-mail alike, with 401", async () => {
    const user = await signUpUser();
    const wrong = await app("/api/login", json({ email: user.email, password: "Not-The-Password-1" }));
    const unknown = await app("/api/login", json({ email: uniqueEmail("nobody"), password: "Not-The-Password-1" }));
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toEqual({ error: "Wrong e-mail or password." });
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("answers malformed bodies with 400 naming the field", async () => {
    for (const [body, field] of [
      [{ password: "x" }, "email"],
      [{ email: "a@b.co" }, "password"],
      [{ email: "nope", password: "x" }, "email"],
    ] as const) {
      const response = await app("/api/login", json(body));
      expect(response.status).toBe(400);
      expect((await errorOf(response)).field).toBe(field);
    }
  });

  const login = (email: string, password: string, ip: string, cookie?: string) =>
    app("/api/login", json({ email, password }, { "cf-connecting-ip": ip, ...(cookie ? { cookie } : {}) }));
  /** The device cookie a successful sign-in set. */
  const deviceCookieOf = (response: Response) => /pb_device=[^;]+/.exec(response.headers.getSetCookie().join("\n"))![0];

  it("holds back new devices after 10 failures from anywhere, but the owner's known device still signs in", async () => {
    const user = await signUpUser();
    const device = deviceCookieOf(await login(user.email, user.password, "192.0.2.200"));
    for (let i = 0; i < 10; i++) expect((await login(user.email, "Wrong-password-9", `192.0.2.${i + 1}`)).status).toBe(401);

    // A browser that never signed in to the account waits, even with the right password...
    const limited = await login(user.email, user.password, "192.0.2.99");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await errorOf(limited)).error).toMatch(
      /^There were too many failed sign-ins for this account from new devices\. Please try again in \d+ minutes?, or reset your password to sign in now\.$/,
    );
    // ...the owner's own browser gets in, from any address.
    const owner = await login(user.email, user.password, "203.0.113.7", device);
    expect(owner.status).toBe(200);
    // A device cookie of one account is a stranger's browser to another.
    const other = await signUpUser();
    for (let i = 0; i < 10; i++) await login(other.email, "Wrong-password-9", `192.0.2.${i + 21}`);
    expect((await login(other.email, other.password, "203.0.113.8", device)).status).toBe(429);
  });

  it("lets the owner sign in at once after resetting the password, whatever strangers keep trying", async () => {
    const user = await signUpUser();
    for (let i = 0; i < 10; i++) await login(user.email, "Wrong-password-9", `192.0.2.${i + 41}`);
    expect((await login(user.email, user.password, "198.51.100.77")).status).toBe(429);
    await app("/api/user/forgotPassword", json({ email: user.email }));
    const link = await lastLinkTo(user.email, "/reset-password");
    const reset = await app("/api/user/resetPassword", json({ token: link.searchParams.get("token"), password: "Amber-Lantern-77!" }));
    expect(reset.status).toBe(200);
    const device = deviceCookieOf(reset);
    for (let i = 0; i < 5; i++) await login(user.email, "Wrong-password-9", `192.0.2.${i + 61}`);
    expect((await login(user.email, "Amber-Lantern-77!", "198.51.100.77", device)).status).toBe(200);
  });

  it("slows one address guessing one account's password after 5 failures, and one address guessing many after 50 tries", async () => {
    const user = await signUpUser();
    for (let i = 0; i < 5; i++) expect((await login(user.email, `Wrong-password-${i}`, "192.0.2.150")).status).toBe(401);
    expect((await login(user.email, user.password, "192.0.2.150")).status).toBe(429);
    // The owner elsewhere is not held back by one address's failures.
    expect((await login(user.email, user.password, "192.0.2.151")).status).toBe(200);

    const responses = [];
    for (let i = 0; i < 51; i++) responses.push((await login(uniqueEmail("guess"), "Wrong-password-9", "192.0.2.152")).status);
    expect(responses.slice(0, 50).every((status) => status === 401)).toBe(true);
    expect(responses[50]).toBe(429);
  });

  it("limits a known device's own failures, so a stolen device cookie cannot guess on", async () => {
    const user = await signUpUser();
    const device = deviceCookieOf(await login(user.email, user.password, "192.0.2.160"));
    for (let i = 0; i < 10; i++) expect((await login(user.email, `Wrong-password-${i}`, `192.0.2.${170 + i}`, device)).status).toBe(401);
    expect((await login(user.email, user.password, "192.0.2.199", device)).status).toBe(429);
  });
});

describe("id tokens", () => {
  async function callWith(idToken: string) {
    return app("/api/user", { headers: { authorization: `Bearer ${idToken}` } });
  }

  it("refuses forged, unsigned, expired, over-long and wrong-audience tokens with 403", async () => {
    const user = await signUpUser();
    const { sid } = JSON.parse(atob(user.tokens.idToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    const now = Math.floor(Date.now() / 1000);
    const sign = (key: Uint8Array, claims: { aud?: string; iat?: number; exp?: number; alg?: string } = {}) =>
      new SignJWT({ sid })
        .setProtectedHeader({ alg: claims.alg ?? "HS256" })
        .setIssuer(ISSUER)
        .setAudience(claims.aud ?? "pinboard:api")
        .setSubject(user.userId)
        .setIssuedAt(claims.iat ?? now)
        .setExpirationTime(claims.exp ?? now + 600)
        .sign(key);

    // The control: a token we make the same way with the real secret is accepted.
    expect((await callWith(await sign(secret))).status).toBe(200);

    const forged = await sign(new TextEncoder().encode("an-attacker-secret-0123456789-0123456789"));
    const unsigned = new UnsecuredJWT({ sid })
      .setIssuer(ISSUER)
      .setAudience("pinboard:api")
      .setSubject(user.userId)
      .setIssuedAt()
      .setExpirationTime("10m")
      .encode();
    const otherAlgorithm = await sign(secret, { alg: "HS512" });
    const expired = await sign(secret, { iat: now - 7200, exp: now - 3600 });
    const tooLong = await sign(secret, { iat: now, exp: now + 24 * 3600 });
    const verifyLinkToken = await sign(secret, { aud: "pinboard:verify-email" });
    for (const token of [forged, unsigned, otherAlgorithm, expired, tooLong, verifyLinkToken, "not-a-jwt"]) {
      const response = await callWith(token);
      expect(response.status, token).toBe(403);
      expect(await errorOf(response)).toEqual({ error: "Your sign-in has expired. Please log in again." });
    }
  });

  it("answers 401 without any credentials", async () => {
    const response = await app("/api/user");
    expect(response.status).toBe(401);
  });
});

describe("POST /api/auth/token (refresh)", () => {
  const refresh = (refreshToken: string) => app("/api/auth/token", json({ grant_type: "refresh_token", refresh_token: refreshToken }));

  it("rotates the refresh token on every use", async () => {
    const user = await signUpUser();
    const first = await refresh(user.tokens.refreshToken);
    expect(first.status).toBe(200);
    const pair = await read(first);
    expect(pair.refreshToken).not.toBe(user.tokens.refreshToken);
    expect((await app("/api/user", { headers: bearer(pair) })).status).toBe(200);
    const second = await refresh(pair.refreshToken);
    expect(second.status).toBe(200);
  });

  /** As if the token had been used `ms` ago. */
  async function usedAgo(refreshToken: string, ms: number) {
    await testEnv.DB.prepare("UPDATE refresh_tokens SET used_at = ?1 WHERE token_hash = ?2")
      .bind(Date.now() - ms, await sha256Hex(refreshToken))
      .run();
  }

  it("revokes the whole family when a used refresh token is presented again after the grace", async () => {
    const user = await signUpUser();
    const next = await read(await refresh(user.tokens.refreshToken));
    await usedAgo(user.tokens.refreshToken, REFRESH_GRACE_MS + 1_000);

    const replay = await refresh(user.tokens.refreshToken);
    expect(replay.status).toBe(401);
    // Everything of that sign-in stops working: the newer refresh token, its id token and the cookie.
    expect((await refresh(next.refreshToken)).status).toBe(401);
    expect((await app("/api/user", { headers: bearer(next) })).status).toBe(403);
    expect((await app("/api/user", { headers: { cookie: user.cookie } })).status).toBe(401);
  });

  it("answers ten simultaneous refreshes with one token (two tabs) with the same successor, and the successor works", async () => {
    const user = await signUpUser();
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(user.tokens.refreshToken)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const pairs = await Promise.all(answers.map((answer) => read(answer)));
    expect(new Set(pairs.map((pair) => pair.refreshToken)).size).toBe(1);
    for (const pair of pairs) expect((await app("/api/user", { headers: bearer(pair) })).status).toBe(200);
    // Within the grace the old token still answers the same successor; the successor rotates on.
    expect((await read(await refresh(user.tokens.refreshToken))).refreshToken).toBe(pairs[0].refreshToken);
    expect((await refresh(pairs[0].refreshToken)).status).toBe(200);
    // Nothing readable is kept: the successor is stored sealed.
    const row = await testEnv.DB.prepare("SELECT successor_sealed FROM refresh_tokens WHERE token_hash = ?1")
      .bind(await sha256Hex(user.tokens.refreshToken))
      .first<{ successor_sealed: string }>();
    expect(row!.successor_sealed).toMatch(/^v1\./);
    expect(row!.successor_sealed).not.toContain(pairs[0].refreshToken);
  });

  it("leaves the user's other sign-ins alone", async () => {
    const user = await signUpUser();
    const other = await read(await app("/api/login", json({ email: user.email, password: user.password })));
    await refresh(user.tokens.refreshToken);
    await usedAgo(user.tokens.refreshToken, REFRESH_GRACE_MS + 1_000);
    await refresh(user.tokens.refreshToken);
    expect((await app("/api/user", { headers: bearer(other) })).status).toBe(200);
  });

  it("keeps the browser's session cookie when it presents it, and issues one when it has none", async () => {
    const user = await signUpUser();
    const withCookie = await app("/api/auth/token", json({ grant_type: "refresh_token", refresh_token: user.tokens.refreshToken }, { cookie: user.cookie }));
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get("set-cookie")).toBeNull();
    expect((await app("/api/user", { headers: { cookie: user.cookie } })).status).toBe(200);
    const next = await read(withCookie);

    const without = await refresh(next.refreshToken);
    expect(without.status).toBe(200);
    const fresh = sessionCookie(without);
    expect(fresh).not.toBe(user.cookie);
    expect((await app("/api/user", { headers: { cookie: fresh } })).status).toBe(200);
  });

  it("refuses unknown tokens with 401 and bad bodies with 400", async () => {
    expect((await refresh("made-up-token")).status).toBe(401);
    const badGrant = await app("/api/auth/token", json({ grant_type: "password", refresh_token: "x" }));
    expect(badGrant.status).toBe(400);
    expect((await errorOf(badGrant)).field).toBe("grant_type");
  });
});

describe("session cookie", () => {
  it("authenticates reads, and writes only from our own origin", async () => {
    const user = await signUpUser();
    expect((await app("/api/user", { headers: { cookie: user.cookie } })).status).toBe(200);
    const update = { updates: { firstName: "Cookie" } };
    const crossSite = await app("/api/user", json(update, { cookie: user.cookie, origin: "https://evil.example" }));
    expect(crossSite.status).toBe(403);
    const noOrigin = await app("/api/user", json(update, { cookie: user.cookie }));
    expect(noOrigin.status).toBe(403);
    const sameSite = await app("/api/user", json(update, { cookie: user.cookie, origin: "http://app.test" }));
    expect(sameSite.status).toBe(200);
    expect((await read(sameSite)).credentials.firstName).toBe("Cookie");
  });
});

describe("POST /api/logout", () => {
  it("revokes the refresh token, the id token's session and the cookie, and clears the cookie", async () => {
    const user = await signUpUser();
    const response = await app("/api/logout", json({ refreshToken: user.tokens.refreshToken }, bearer(user.tokens)));
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toMatch(/pb_session=;.*Max-Age=0/i);
    expect((await app("/api/user", { headers: bearer(user.tokens) })).status).toBe(403);
    expect((await app("/api/user", { headers: { cookie: user.cookie } })).status).toBe(401);
    expect((await app("/api/auth/token", json({ grant_type: "refresh_token", refresh_token: user.tokens.refreshToken }))).status).toBe(401);
    const session = await db.query.authSessions.findFirst({ where: eq(authSessions.userId, user.userId) });
    expect(session?.revokeReason).toBe("logout");
  });
});
