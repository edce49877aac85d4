import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { useSandbox } from "../../support/sandbox.ts";

const sandbox = useSandbox();

const GOOGLE = "https://accounts.google.com";
const clientId = "1234567890-sandbox.apps.googleusercontent.com";
const redirectUri = "http://127.0.0.1:8787/auth/google/callback";

const discovery = async () => (await (await fetch(`${sandbox.url}/google/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
const jwks = () => createRemoteJWKSet(new URL(`${sandbox.url}/google/oauth2/v3/certs`));
const verify = (token: string, audience = clientId) => jwtVerify(token, jwks(), { issuer: GOOGLE, audience });

function authorizeUrl(params: Record<string, string | undefined>) {
  const query = new URLSearchParams(
    Object.entries({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: "id_token",
      scope: "openid email profile",
      nonce: "n-0S6_WzA2Mj",
      state: "af0ifjsldkj",
      ...params,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return `${sandbox.url}/google/o/oauth2/v2/auth?${query}`;
}

/** The hidden fields a consent page carries, as a form body to post back. */
function hiddenFields(html: string) {
  const fields: Record<string, string> = {};
  const mainForm = html.slice(html.lastIndexOf("<form"));
  for (const match of mainForm.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]] = match[2]
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
  }
  return fields;
}

const approve = (fields: Record<string, string>) =>
  fetch(`${sandbox.url}/google/o/oauth2/v2/auth/approve`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });

function fragmentOf(response: Response) {
  const location = response.headers.get("location") ?? "";
  expect(location.startsWith(`${redirectUri}#`)).toBe(true);
  return new URLSearchParams(location.slice(location.indexOf("#") + 1));
}

const mint = (body: Record<string, unknown>) =>
  fetch(`${sandbox.url}/__sandbox/google/id-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("Google OpenID Connect discovery and keys", () => {
  it("publishes a discovery document pointing at the sandbox", async () => {
    expect(await discovery()).toMatchObject({
      issuer: GOOGLE,
      authorization_endpoint: `${sandbox.url}/google/o/oauth2/v2/auth`,
      jwks_uri: `${sandbox.url}/google/oauth2/v3/certs`,
      response_types_supported: expect.arrayContaining(["id_token"]),
      id_token_signing_alg_values_supported: ["RS256"],
    });
  });

  it("publishes an RS256 signing key as a cacheable JWKS", async () => {
    const response = await fetch(`${sandbox.url}/google/oauth2/v3/certs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const { keys } = await response.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toEqual({ kty: "RSA", n: expect.any(String), e: "AQAB", alg: "RS256", use: "sig", kid: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(keys[0]).not.toHaveProperty("d");
  });
});

describe("sign-in popup (implicit flow, response_type=id_token)", () => {
  it("answers an accessible consent page that says it is the sandbox", async () => {
    const response = await fetch(authorizeUrl({ login_hint: "jane.doe@example.com" }));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Sign in with Google</title>");
    expect(html).toMatch(/local sandbox/i);
    for (const [id, label] of [
      ["email", "E-mail"],
      ["given_name", "First name"],
      ["family_name", "Last name"],
      ["email_verified", "E-mail verified"],
    ]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('value="jane.doe@example.com"');
    expect(html).toMatch(/id="email_verified"[^>]*checked/);
    expect(html).toMatch(/<button[^>]*>Continue<\/button>/);
    expect(html).toMatch(/<button[^>]*value="cancel"[^>]*>Cancel<\/button>/);
    expect(hiddenFields(html)).toMatchObject({ client_id: clientId, redirect_uri: redirectUri, nonce: "n-0S6_WzA2Mj", state: "af0ifjsldkj" });
  });

  it("prefills test.user@example.com without a login hint", async () => {
    expect(await (await fetch(authorizeUrl({}))).text()).toContain('value="test.user@example.com"');
  });

  it("mints an ID token from the form that verifies against the JWKS and carries the form's identity", async () => {
    const { jwks_uri: jwksUri } = await discovery();
    const html = await (await fetch(authorizeUrl({ state: "state with spaces&more" }))).text();
    const response = await approve({
      ...hiddenFields(html),
      email: "Jane.Doe@Example.com",
      given_name: "Jane",
      family_name: "Doe",
      email_verified: "true",
      action: "approve",
    });
    expect(response.status).toBe(302);
    const fragment = fragmentOf(response);
    expect(fragment.get("state")).toBe("state with spaces&more");
    const token = fragment.get("id_token") ?? "";
    const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(String(jwksUri))), { issuer: GOOGLE, audience: clientId });
    const { keys } = await (await fetch(String(jwksUri))).json();
    expect(protectedHeader).toEqual({ alg: "RS256", kid: keys[0].kid, typ: "JWT" });
    expect(payload).toMatchObject({
      iss: GOOGLE,
      azp: clientId,
      aud: clientId,
      sub: expect.stringMatching(/^\d{21}$/),
      email: "Jane.Doe@Example.com",
      email_verified: true,
      name: "Jane Doe",
      given_name: "Jane",
      family_name: "Doe",
      nonce: "n-0S6_WzA2Mj",
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(10);
    // The picture the claim names is served by the sandbox.
    const picture = await fetch(String(payload.picture));
    expect(picture.headers.get("content-type")).toContain("image/svg+xml");
    expect(await picture.text()).toContain(">JD<");
  });

  it("gives an account the same sub whatever the e-mail's case, and another account another sub", async () => {
    const html = await (await fetch(authorizeUrl({}))).text();
    const subOf = async (email: string) => {
      const token = fragmentOf(await approve({ ...hiddenFields(html), email, given_name: "A", email_verified: "true" })).get("id_token")!;
      return (await verify(token)).payload.sub;
    };
    expect(await subOf("Same@Example.com")).toBe(await subOf("same@example.com"));
    expect(await subOf("other@example.com")).not.toBe(await subOf("same@example.com"));
  });

  it("reports an unticked 'E-mail verified' box as email_verified: false and omits the state it was not given", async () => {
    const html = await (await fetch(authorizeUrl({ state: undefined }))).text();
    const response = await approve({ ...hiddenFields(html), email: "unverified@example.com", given_name: "Una", family_name: "" });
    const location = response.headers.get("location")!;
    expect(location).not.toContain("state=");
    const { payload } = await verify(fragmentOf(response).get("id_token")!);
    expect(payload.email_verified).toBe(false);
    expect(payload.name).toBe("Una");
    expect(payload).not.toHaveProperty("family_name");
  });

  it("includes only the claims the scopes ask for, as Google does", async () => {
    const html = await (await fetch(authorizeUrl({ scope: "openid email" }))).text();
    const response = await approve({ ...hiddenFields(html), email: "scoped@example.com", given_name: "Scoped", email_verified: "true" });
    const { payload } = await verify(fragmentOf(response).get("id_token")!);
    expect(payload.email).toBe("scoped@example.com");
    expect(payload).not.toHaveProperty("name");
    expect(payload).not.toHaveProperty("given_name");
  });

  it("redirects with error=access_denied on Cancel", async () => {
    const html = await (await fetch(authorizeUrl({}))).text();
    const response = await approve({ ...hiddenFields(html), email: "x@example.com", action: "cancel" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${redirectUri}#error=access_denied&state=af0ifjsldkj`);
  });

  it("re-shows the form with 400 for an invalid e-mail", async () => {
    const html = await (await fetch(authorizeUrl({}))).text();
    const response = await approve({ ...hiddenFields(html), email: "not-an-email", given_name: "N" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('role="alert"');
  });

  it("approves at once as the login hint with auto_approve=1", async () => {
    const response = await fetch(authorizeUrl({ login_hint: "pat.smith+pins@example.com", auto_approve: "1" }), { redirect: "manual" });
    expect(response.status).toBe(302);
    const fragment = fragmentOf(response);
    expect(fragment.get("state")).toBe("af0ifjsldkj");
    const { payload } = await verify(fragment.get("id_token")!);
    expect(payload).toMatchObject({
      email: "pat.smith+pins@example.com",
      email_verified: true,
      given_name: "Pat",
      family_name: "Smith",
      name: "Pat Smith",
      nonce: "n-0S6_WzA2Mj",
    });
  });

  it("offers identities used before as quick picks, most recent first", async () => {
    for (const email of ["one@example.com", "two@example.com", "one@example.com"]) {
      await fetch(authorizeUrl({ login_hint: email, auto_approve: "1" }), { redirect: "manual" });
    }
    const html = await (await fetch(authorizeUrl({}))).text();
    const picks = [...html.matchAll(/Continue as [^<]*\(([^)]+)\)/g)].map((match) => match[1]);
    expect(picks).toEqual(["one@example.com", "two@example.com"]);
  });

  it("answers Google's 400 error page for an invalid authorization request", async () => {
    for (const [params, message] of [
      [{ client_id: undefined }, "Missing required parameter: client_id"],
      [{ redirect_uri: undefined }, "Missing required parameter: redirect_uri"],
      [{ redirect_uri: "/relative/callback" }, "Invalid parameter value for redirect_uri"],
      [{ redirect_uri: "javascript:alert(1)" }, "Invalid parameter value for redirect_uri"],
      [{ response_type: "code" }, "Unsupported response_type: code"],
      [{ response_type: undefined }, "Missing required parameter: response_type"],
      [{ scope: "email profile" }, "openid scope"],
      [{ nonce: undefined }, "Missing required parameter: nonce"],
    ] as const) {
      const response = await fetch(authorizeUrl(params), { redirect: "manual" });
      expect(response.status, message).toBe(400);
      expect(response.headers.get("content-type")).toContain("text/html");
      const html = await response.text();
      expect(html).toContain("Error 400");
      expect(html).toContain(message);
    }
  });

  it("re-validates what the form posts", async () => {
    const response = await approve({
      client_id: clientId,
      redirect_uri: "ftp://x.test/cb",
      response_type: "id_token",
      scope: "openid",
      nonce: "n",
      email: "a@example.com",
      given_name: "A",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  it("records the requests and can be faulted like any stand-in", async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "google", path: "/oauth2/v3/certs", status: 503 }),
    });
    expect((await fetch(`${sandbox.url}/google/oauth2/v3/certs`)).status).toBe(503);
    expect((await fetch(`${sandbox.url}/google/oauth2/v3/certs`)).status).toBe(200);
    const recorded = await (await fetch(`${sandbox.url}/__sandbox/requests?service=google`)).json();
    expect(recorded.map((r: { path: string }) => r.path)).toEqual(["/oauth2/v3/certs", "/oauth2/v3/certs"]);
  });
});

describe("POST /__sandbox/google/id-token", () => {
  it("mints a verifiable token with Google's claims", async () => {
    const response = await mint({ email: "worker@example.com", aud: clientId, nonce: "abc", givenName: "Wor", familyName: "Ker" });
    expect(response.status).toBe(200);
    const { id_token: token, claims } = await response.json();
    const { payload } = await verify(token);
    expect(payload).toEqual(claims);
    expect(payload).toMatchObject({
      iss: GOOGLE,
      aud: clientId,
      azp: clientId,
      email: "worker@example.com",
      email_verified: true,
      given_name: "Wor",
      family_name: "Ker",
      name: "Wor Ker",
      nonce: "abc",
    });
  });

  it("mints tokens that fail verification: expired, wrong issuer, wrong audience, unknown key", async () => {
    const tokenFor = async (body: Record<string, unknown>) =>
      (await (await mint({ email: "x@example.com", aud: clientId, ...body })).json()).id_token as string;

    const expired = await tokenFor({ expiresInSeconds: -60 });
    await expect(verify(expired)).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });

    await expect(verify(await tokenFor({ issuer: "https://evil.example.com" }))).rejects.toMatchObject({
      code: "ERR_JWT_CLAIM_VALIDATION_FAILED",
      claim: "iss",
    });
    await expect(verify(await tokenFor({}), "another-client")).rejects.toMatchObject({ code: "ERR_JWT_CLAIM_VALIDATION_FAILED", claim: "aud" });

    const forged = await tokenFor({ signWithUnknownKey: true });
    const { keys } = await (await fetch(`${sandbox.url}/google/oauth2/v3/certs`)).json();
    expect(decodeProtectedHeader(forged).kid).not.toBe(keys[0].kid);
    await expect(verify(forged)).rejects.toMatchObject({ code: "ERR_JWKS_NO_MATCHING_KEY" });
  });

  it("answers 400 naming a missing email or aud", async () => {
    for (const [body, error] of [
      [{ aud: clientId }, "email is required"],
      [{ email: "x@example.com" }, "aud is required"],
      [{ email: "x@example.com", aud: clientId, emailVerified: "yes" }, "emailVerified must be a boolean"],
    ] as const) {
      const response = await mint(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error });
    }
  });
});

describe("reset", () => {
  it("forgets the quick-pick identities but keeps the signing key", async () => {
    const before = (await (await fetch(`${sandbox.url}/google/oauth2/v3/certs`)).json()).keys[0];
    const { id_token: token } = await (await mint({ email: "kept@example.com", aud: clientId })).json();
    await fetch(authorizeUrl({ login_hint: "remembered@example.com", auto_approve: "1" }), { redirect: "manual" });
    expect(await (await fetch(authorizeUrl({}))).text()).toContain("remembered@example.com");

    await fetch(`${sandbox.url}/__sandbox/reset`, { method: "POST" });

    expect(await (await fetch(authorizeUrl({}))).text()).not.toContain("remembered@example.com");
    expect((await (await fetch(`${sandbox.url}/google/oauth2/v3/certs`)).json()).keys[0]).toEqual(before);
    await expect(verify(token)).resolves.toBeTruthy();
  });
});
