import { Hono, type Context } from "hono";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { providerState, type SandboxState } from "../state.ts";
import { escapeHtml, standalonePage } from "../html.ts";

/**
 * Stand-in for Google's OpenID Connect sign-in, the part a "Sign in with Google"
 * popup uses (https://developers.google.com/identity/openid-connect/openid-connect):
 *
 * - `GET  /.well-known/openid-configuration`: the discovery document;
 * - `GET  /oauth2/v3/certs`: the JWKS that verifies ID tokens;
 * - `GET  /o/oauth2/v2/auth`: the implicit-flow authorization endpoint
 *   (`response_type=id_token`), answering a consent page where any identity can be typed in;
 * - `POST /o/oauth2/v2/auth/approve`: what that page posts; redirects to
 *   `<redirect_uri>#id_token=<jwt>&state=<state>` (or `#error=access_denied` on Cancel);
 * - `GET  /a/:sub`: the profile picture named by the `picture` claim (an SVG with initials).
 *
 * ID tokens are RS256 JWTs with Google's claims, issued by "https://accounts.google.com" and signed
 * by a key pair generated once per process (it survives `/__sandbox/reset`, as Google's keys survive
 * our test runs). `googleControl` adds `POST /id-token` under /__sandbox/google to mint tokens directly.
 */
export function googleProvider(state: SandboxState): Hono {
  const app = new Hono();

  app.get("/.well-known/openid-configuration", (c) => {
    const base = baseUrl(c, "/.well-known/openid-configuration");
    return c.json({
      issuer: GOOGLE_ISSUER,
      authorization_endpoint: `${base}/o/oauth2/v2/auth`,
      jwks_uri: `${base}/oauth2/v3/certs`,
      // Only what the sandbox implements: the implicit flow answering an ID token in the fragment.
      response_types_supported: ["id_token"],
      response_modes_supported: ["fragment"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "profile"],
      claims_supported: ["aud", "azp", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "name", "nonce", "picture", "sub"],
    });
  });

  app.get("/oauth2/v3/certs", async (c) => {
    const keys = await signingKeys();
    c.header("cache-control", "public, max-age=3600");
    return c.json({ keys: [keys.publicJwk] });
  });

  app.get("/o/oauth2/v2/auth", async (c) => {
    const base = baseUrl(c, "/o/oauth2/v2/auth");
    const params = Object.fromEntries(new URL(c.req.url).searchParams);
    const problem = authorizeProblem(params);
    if (problem) return errorPage(c, problem);
    const hint = params.login_hint?.trim() ?? "";
    if (params.auto_approve === "1") {
      if (!isEmail(hint)) {
        return errorPage(c, { error: "invalid_request", message: "auto_approve=1 (a sandbox-only parameter) needs login_hint to be an e-mail address" });
      }
      const names = namesFromEmail(hint);
      return approve(c, state, base, params, { email: hint, givenName: names.givenName, familyName: names.familyName, emailVerified: true });
    }
    return consentPage(c, state, base, params, {});
  });

  app.post("/o/oauth2/v2/auth/approve", async (c) => {
    const base = baseUrl(c, "/o/oauth2/v2/auth/approve");
    const form = await c.req.parseBody();
    const fields = Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const params = Object.fromEntries(Object.entries(fields).filter(([name]) => !FORM_FIELDS.has(name)));
    const problem = authorizeProblem(params);
    if (problem) return errorPage(c, problem);
    if (fields.action === "cancel") return redirectWithFragment(c, params.redirect_uri, { error: "access_denied", state: params.state });
    const entered = {
      email: (fields.email ?? "").trim(),
      givenName: (fields.given_name ?? "").trim(),
      familyName: (fields.family_name ?? "").trim(),
      emailVerified: fields.email_verified !== undefined && fields.email_verified !== "false",
    };
    if (!isEmail(entered.email)) return consentPage(c, state, base, params, { ...entered, error: "Enter a valid e-mail address." }, 400);
    if (!entered.givenName) return consentPage(c, state, base, params, { ...entered, error: "Enter a first name." }, 400);
    return approve(c, state, base, params, entered);
  });

  app.get("/a/:sub", (c) => {
    const initials = (c.req.query("initials") ?? "?").slice(0, 2).toUpperCase();
    const hue = Number(BigInt(`0${c.req.param("sub").replace(/\D/g, "")}`) % 360n);
    c.header("cache-control", "public, max-age=86400");
    c.header("content-type", "image/svg+xml");
    return c.body(
      `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${escapeHtml(initials)}">` +
        `<circle cx="48" cy="48" r="48" fill="hsl(${hue} 45% 42%)"/>` +
        `<text x="48" y="60" font-family="Arial, sans-serif" font-size="36" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`,
    );
  });

  return app;
}

/**
 * Sandbox-only controls, mounted at /__sandbox/google:
 * `POST /id-token` {email, aud, emailVerified?, givenName?, familyName?, nonce?, expiresInSeconds?,
 * issuer?, signWithUnknownKey?} → {id_token, claims}, for tests that need a token without the popup.
 */
export function googleControl(_state: SandboxState): Hono {
  const control = new Hono();

  control.post("/id-token", async (c) => {
    let input: Record<string, unknown>;
    try {
      input = await c.req.json();
    } catch {
      return c.json({ error: "Body must be JSON" }, 400);
    }
    if (!input || typeof input !== "object" || Array.isArray(input)) return c.json({ error: "Body must be a JSON object" }, 400);
    const problem = mintProblem(input);
    if (problem) return c.json({ error: problem }, 400);
    const email = String(input.email).trim();
    const derived = namesFromEmail(email);
    const givenName = typeof input.givenName === "string" ? input.givenName : derived.givenName;
    const familyName = typeof input.familyName === "string" ? input.familyName : derived.familyName;
    const { token, claims } = await mintIdToken({
      base: baseUrl(c, "/id-token").replace(/\/__sandbox\/google$/, "/google"),
      clientId: String(input.aud),
      identity: { email, givenName, familyName, emailVerified: input.emailVerified === undefined ? true : Boolean(input.emailVerified) },
      nonce: typeof input.nonce === "string" ? input.nonce : undefined,
      expiresInSeconds: typeof input.expiresInSeconds === "number" ? input.expiresInSeconds : TOKEN_LIFETIME_SECONDS,
      issuer: typeof input.issuer === "string" ? input.issuer : GOOGLE_ISSUER,
      signWithUnknownKey: input.signWithUnknownKey === true,
    });
    return c.json({ id_token: token, claims });
  });

  return control;
}

export const GOOGLE_ISSUER = "https://accounts.google.com";
const TOKEN_LIFETIME_SECONDS = 3600;
const QUICK_PICKS = 5;
const DEFAULT_EMAIL = "test.user@example.com";
/** Names the consent form adds to the original query parameters it carries. */
const FORM_FIELDS = new Set(["email", "given_name", "family_name", "email_verified", "action"]);

export interface GoogleIdentity {
  email: string;
  givenName: string;
  familyName: string;
  emailVerified: boolean;
}

interface GoogleState {
  /** Identities signed in through the consent page, most recent first. */
  recent: GoogleIdentity[];
}

const googleState = (state: SandboxState) => providerState<GoogleState>(state, "google", () => ({ recent: [] }));

// ---- keys -------------------------------------------------------------------------------------

interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JWK & { kid: string };
}

let keysOfProcess: Promise<SigningKey> | undefined;
let unknownKeyOfProcess: Promise<SigningKey> | undefined;

/** The key pair published in the JWKS: generated once per process, kept across resets. */
function signingKeys() {
  keysOfProcess ??= createSigningKey();
  return keysOfProcess;
}

/** A key whose kid is not in the JWKS, for forged-token tests. */
function unknownKey() {
  unknownKeyOfProcess ??= createSigningKey();
  return unknownKeyOfProcess;
}

async function createSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const { kty, n, e } = await exportJWK(publicKey);
  // Google's kids are 40 hex characters; this one is the SHA-1 of the modulus.
  const kid = hex(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(n))).slice(0, 40);
  return { privateKey, publicJwk: { kty, n, e, alg: "RS256", use: "sig", kid } };
}

// ---- tokens -----------------------------------------------------------------------------------

interface MintOptions {
  base: string;
  clientId: string;
  identity: GoogleIdentity;
  nonce?: string;
  expiresInSeconds: number;
  issuer: string;
  signWithUnknownKey?: boolean;
  /** Which claim groups to include, as Google does per scope; both by default. */
  scopes?: { email: boolean; profile: boolean };
}

async function mintIdToken(options: MintOptions) {
  const { identity } = options;
  const key = options.signWithUnknownKey ? await unknownKey() : await signingKeys();
  const now = Math.floor(Date.now() / 1000);
  // An already-expired token looks like a stale real one: issued an hour before it expired.
  const exp = now + Math.trunc(options.expiresInSeconds);
  const iat = options.expiresInSeconds >= 0 ? now : exp - TOKEN_LIFETIME_SECONDS;
  const sub = await subjectFor(identity.email);
  const scopes = options.scopes ?? { email: true, profile: true };
  const name = [identity.givenName, identity.familyName].filter(Boolean).join(" ");
  const claims: Record<string, unknown> = { iss: options.issuer, azp: options.clientId, aud: options.clientId, sub };
  if (scopes.email) Object.assign(claims, { email: identity.email, email_verified: identity.emailVerified });
  if (options.nonce !== undefined) claims.nonce = options.nonce;
  if (scopes.profile) {
    const initials = [identity.givenName, identity.familyName].map((part) => part.charAt(0)).join("") || identity.email.charAt(0);
    Object.assign(claims, { name: name || identity.email, picture: `${options.base}/a/${sub}?initials=${encodeURIComponent(initials)}` });
    if (identity.givenName) claims.given_name = identity.givenName;
    if (identity.familyName) claims.family_name = identity.familyName;
  }
  Object.assign(claims, { iat, exp });
  const token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: key.publicJwk.kid, typ: "JWT" }).sign(key.privateKey);
  return { token, claims };
}

/** Google's `sub`: 21 digits, stable per account; here derived from the lowercased e-mail. */
export async function subjectFor(email: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase())));
  let value = 0n;
  for (const byte of digest.subarray(0, 16)) value = (value << 8n) | BigInt(byte);
  return `1${(value % 10n ** 20n).toString().padStart(20, "0")}`;
}

async function approve(c: Context, state: SandboxState, base: string, params: Record<string, string>, identity: GoogleIdentity) {
  const scopes = params.scope.split(/\s+/);
  const { token } = await mintIdToken({
    base,
    clientId: params.client_id,
    identity,
    nonce: params.nonce,
    expiresInSeconds: TOKEN_LIFETIME_SECONDS,
    issuer: GOOGLE_ISSUER,
    scopes: { email: scopes.includes("email"), profile: scopes.includes("profile") },
  });
  remember(state, identity);
  return redirectWithFragment(c, params.redirect_uri, { id_token: token, state: params.state });
}

function remember(state: SandboxState, identity: GoogleIdentity) {
  const google = googleState(state);
  const key = identity.email.toLowerCase();
  google.recent = [{ ...identity }, ...google.recent.filter((known) => known.email.toLowerCase() !== key)].slice(0, QUICK_PICKS);
}

function redirectWithFragment(c: Context, redirectUri: string, values: Record<string, string | undefined>) {
  const fragment = Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("&");
  c.header("cache-control", "no-store");
  return c.redirect(`${redirectUri}#${fragment}`, 302);
}

// ---- validation -------------------------------------------------------------------------------

interface AuthorizeProblem {
  error: "invalid_request" | "unsupported_response_type" | "invalid_scope";
  message: string;
}

/** What Google would refuse with "Error 400" for an authorization request, or null. */
function authorizeProblem(params: Record<string, string>): AuthorizeProblem | null {
  const missing = (name: string): AuthorizeProblem => ({ error: "invalid_request", message: `Missing required parameter: ${name}` });
  if (!params.client_id) return missing("client_id");
  if (!params.redirect_uri) return missing("redirect_uri");
  let redirect: URL | null = null;
  try {
    redirect = new URL(params.redirect_uri);
  } catch {
    redirect = null;
  }
  if (!redirect || !/^https?:$/.test(redirect.protocol) || !/^https?:\/\//i.test(params.redirect_uri)) {
    return { error: "invalid_request", message: `Invalid parameter value for redirect_uri: must be an absolute http(s) URL: ${params.redirect_uri}` };
  }
  if (params.redirect_uri.includes("#")) {
    return { error: "invalid_request", message: `Invalid parameter value for redirect_uri: Fragment not allowed: ${params.redirect_uri}` };
  }
  if (!params.response_type) return missing("response_type");
  if (params.response_type !== "id_token") {
    return {
      error: "unsupported_response_type",
      message: `Unsupported response_type: ${params.response_type} (the sandbox implements response_type=id_token)`,
    };
  }
  if (params.response_mode && params.response_mode !== "fragment") {
    return { error: "invalid_request", message: `Invalid parameter value for response_mode: ${params.response_mode} (the sandbox answers in the fragment)` };
  }
  if (!params.scope) return missing("scope");
  if (!params.scope.split(/\s+/).includes("openid")) {
    return { error: "invalid_scope", message: "Some requested scopes were invalid: response_type=id_token needs the openid scope" };
  }
  // OpenID Connect requires a nonce with the implicit flow, and Google enforces it.
  if (!params.nonce) return missing("nonce");
  return null;
}

function mintProblem(input: Record<string, unknown>): string | null {
  if (typeof input.email !== "string" || !input.email.trim()) return "email is required";
  if (typeof input.aud !== "string" || !input.aud) return "aud is required";
  if (input.emailVerified !== undefined && typeof input.emailVerified !== "boolean") return "emailVerified must be a boolean";
  for (const field of ["givenName", "familyName", "nonce", "issuer"]) {
    if (input[field] !== undefined && typeof input[field] !== "string") return `${field} must be a string`;
  }
  if (input.expiresInSeconds !== undefined && (typeof input.expiresInSeconds !== "number" || !Number.isFinite(input.expiresInSeconds))) {
    return "expiresInSeconds must be a number";
  }
  if (input.signWithUnknownKey !== undefined && typeof input.signWithUnknownKey !== "boolean") return "signWithUnknownKey must be a boolean";
  return null;
}

function isEmail(value: string) {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** "jane.doe+pins@x.test" → Jane / Doe; "ann@x.test" → Ann / "". */
export function namesFromEmail(email: string) {
  const local = email.split("@")[0].split("+")[0];
  const parts = local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1));
  return { givenName: parts[0] ?? "User", familyName: parts.slice(1).join(" ") };
}

// ---- pages ------------------------------------------------------------------------------------

function errorPage(c: Context, problem: AuthorizeProblem) {
  c.header("cache-control", "no-store");
  return c.html(
    page(
      `Error 400: ${problem.error}`,
      `<h1>Access blocked: authorization error</h1>
      <p class="error" role="alert"><strong>Error 400: ${escapeHtml(problem.error)}</strong></p>
      <p>${escapeHtml(problem.message)}</p>
      <p class="note">This is the local sandbox standing in for Google sign-in; Google answers such a request with this error too.</p>`,
    ),
    400,
  );
}

interface ConsentValues extends Partial<GoogleIdentity> {
  error?: string;
}

function consentPage(c: Context, state: SandboxState, base: string, params: Record<string, string>, values: ConsentValues, status: 200 | 400 = 200) {
  const action = `${base}/o/oauth2/v2/auth/approve`;
  const hidden = Object.entries(params)
    .filter(([name]) => !FORM_FIELDS.has(name) && name !== "auto_approve")
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n        ");
  const email = values.email ?? (params.login_hint?.trim() || DEFAULT_EMAIL);
  const derived = namesFromEmail(email);
  const givenName = values.givenName ?? derived.givenName;
  const familyName = values.familyName ?? derived.familyName;
  const verified = values.emailVerified ?? true;
  let destination = params.redirect_uri;
  try {
    destination = new URL(params.redirect_uri).origin;
  } catch {
    // validated before; keep the raw value
  }
  const recent = googleState(state).recent;
  const quickPicks = recent.length
    ? `<section aria-labelledby="recent-heading">
      <h2 id="recent-heading">Used before in this sandbox</h2>
      <ul class="picks">
        ${recent
          .map(
            (identity) => `<li><form method="post" action="${escapeHtml(action)}">
          ${hidden}
          <input type="hidden" name="email" value="${escapeHtml(identity.email)}">
          <input type="hidden" name="given_name" value="${escapeHtml(identity.givenName)}">
          <input type="hidden" name="family_name" value="${escapeHtml(identity.familyName)}">
          ${identity.emailVerified ? '<input type="hidden" name="email_verified" value="true">' : ""}
          <button type="submit">Continue as ${escapeHtml([identity.givenName, identity.familyName].filter(Boolean).join(" "))} (${escapeHtml(identity.email)})${identity.emailVerified ? "" : " - e-mail not verified"}</button>
        </form></li>`,
          )
          .join("\n        ")}
      </ul>
    </section>`
    : "";
  c.header("cache-control", "no-store");
  return c.html(
    page(
      "Sign in with Google",
      `<h1>Sign in with Google</h1>
      <p class="note"><strong>Local sandbox:</strong> this page stands in for Google's sign-in. No Google account is used;
      type any identity and the sandbox signs an ID token for it.</p>
      <p>to continue to <strong>${escapeHtml(destination)}</strong> (client <code>${escapeHtml(params.client_id)}</code>)</p>
      ${quickPicks}
      <form method="post" action="${escapeHtml(action)}" aria-labelledby="form-heading">
        <h2 id="form-heading">${recent.length ? "Or use another identity" : "Choose an identity"}</h2>
        ${values.error ? `<p class="error" role="alert" id="form-error">${escapeHtml(values.error)}</p>` : ""}
        ${hidden}
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(email)}"${values.error ? ' aria-describedby="form-error"' : ""}>
        <label for="given_name">First name</label>
        <input id="given_name" name="given_name" type="text" required autocomplete="given-name" value="${escapeHtml(givenName)}">
        <label for="family_name">Last name</label>
        <input id="family_name" name="family_name" type="text" autocomplete="family-name" value="${escapeHtml(familyName)}">
        <div class="check">
          <input id="email_verified" name="email_verified" type="checkbox" value="true"${verified ? " checked" : ""}>
          <label for="email_verified">E-mail verified</label>
        </div>
        <div class="actions">
          <!-- Continue comes first: pressing Enter in a field submits with the first button. -->
          <button type="submit" name="action" value="approve">Continue</button>
          <button type="submit" name="action" value="cancel" formnovalidate class="secondary">Cancel</button>
        </div>
      </form>`,
    ),
    status,
  );
}

const PAGE_CSS = `
      body { font-family: system-ui, sans-serif; background: #f0f4f9; color: #1f1f1f; margin: 0; }
      main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 1.5rem; padding: 2rem; }
      h1 { font-size: 1.6rem; font-weight: 400; margin-top: 0; }
      h2 { font-size: 1rem; }
      label { display: block; margin-top: 0.75rem; font-weight: 600; }
      input[type="email"], input[type="text"] { width: 100%; box-sizing: border-box; padding: 0.6rem; border: 1px solid #747775; border-radius: 0.25rem; font: inherit; }
      .check { display: flex; gap: 0.5rem; align-items: center; margin-top: 0.75rem; }
      .check label { margin: 0; font-weight: 400; }
      .actions { display: flex; gap: 0.75rem; justify-content: flex-end; margin-top: 1.5rem; }
      button { font: inherit; padding: 0.55rem 1.4rem; border-radius: 1.25rem; border: 1px solid #0b57d0; background: #0b57d0; color: #fff; cursor: pointer; }
      button.secondary, .picks button { background: #fff; color: #0b57d0; }
      .picks { list-style: none; padding: 0; }
      .picks li { margin: 0.4rem 0; }
      .picks button { width: 100%; text-align: left; border-radius: 0.5rem; border-color: #c4c7c5; }
      button:focus-visible, input:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
      .note { background: #fff8e1; border: 1px solid #f0c36d; padding: 0.6rem 0.8rem; border-radius: 0.5rem; }
      .error { color: #b3261e; }
`;

function page(title: string, body: string) {
  return standalonePage(title, PAGE_CSS, body);
}

// ---- helpers ----------------------------------------------------------------------------------

/** The origin and mount prefix this stand-in is served under, e.g. "http://127.0.0.1:8788/google". */
function baseUrl(c: Context, routePath: string) {
  const url = new URL(c.req.url);
  const path = url.pathname.endsWith(routePath) ? url.pathname.slice(0, url.pathname.length - routePath.length) : "";
  return `${url.origin}${path}`;
}

function hex(buffer: ArrayBuffer) {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
