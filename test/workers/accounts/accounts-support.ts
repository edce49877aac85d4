import type { AuthTokens } from "../../../contracts/accounts/auth.ts";
import { app, sandbox } from "../support.ts";

export interface SentEmail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  links: string[];
  /** Extra headers it was sent with (List-Unsubscribe ...). */
  headers: Record<string, string>;
}

let counter = 0;
/** A fresh, unique e-mail address for a test. */
export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const GOOD_PASSWORD = "Violet-Harbour-42!";

export function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** The session cookie a response set, as a Cookie header value. */
export function sessionCookie(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  const value = /pb_session=([^;]*)/.exec(header)?.[1];
  if (!value) throw new Error(`no session cookie in: ${header}`);
  return `pb_session=${value}`;
}

export function bearer(tokens: AuthTokens, extra: Record<string, string> = {}) {
  return { authorization: `Bearer ${tokens.idToken}`, ...extra };
}

export interface TestUser {
  email: string;
  password: string;
  tokens: AuthTokens;
  cookie: string;
  userId: string;
  handle: string;
}

/** Signs a new user up through the API and answers who they are. */
export async function signUpUser(fields: Partial<{ email: string; firstName: string; lastName: string; ip: string }> = {}): Promise<TestUser> {
  const email = fields.email ?? uniqueEmail();
  const response = await app(
    "/api/signup",
    json(
      { email, password: GOOD_PASSWORD, firstName: fields.firstName ?? "Maya", lastName: fields.lastName ?? "Lindqvist", leadSource: "Pinterest" },
      { "cf-connecting-ip": fields.ip ?? `198.51.100.${(counter % 250) + 1}` },
    ),
  );
  if (response.status !== 201) throw new Error(`signup answered ${response.status}: ${await response.text()}`);
  const tokens = (await response.json()) as AuthTokens;
  const cookie = sessionCookie(response);
  const me = (await (await app("/api/user", { headers: bearer(tokens) })).json()) as { credentials: { userId: string; handle: string } };
  return { email: email.toLowerCase(), password: GOOD_PASSWORD, tokens, cookie, userId: me.credentials.userId, handle: me.credentials.handle };
}

export async function outboxFor(email: string): Promise<SentEmail[]> {
  return sandbox<SentEmail[]>(`/outbox?to=${encodeURIComponent(email)}`);
}

/** The first link of the last e-mail sent to an address. */
export async function lastLinkTo(email: string, pathStart: string): Promise<URL> {
  const mails = await outboxFor(email);
  const link = mails.at(-1)?.links.find((l) => new URL(l).pathname.startsWith(pathStart));
  if (!link) throw new Error(`no ${pathStart} link e-mailed to ${email}: ${JSON.stringify(mails.map((m) => m.subject))}`);
  return new URL(link);
}

/** Verifies a user's address the way they would: with the link e-mailed to it at sign-up. */
export async function verifyEmailOf(user: Pick<TestUser, "email">): Promise<void> {
  const link = await lastLinkTo(user.email, "/verify-email");
  const response = await app("/api/user/verifyUserEmail", json({ uid: link.searchParams.get("uid"), token: link.searchParams.get("token") }));
  if (response.status !== 200) throw new Error(`verifying ${user.email} answered ${response.status}: ${await response.text()}`);
}

/** A new user whose address is verified. */
export async function signUpVerifiedUser(fields: Parameters<typeof signUpUser>[0] = {}): Promise<TestUser> {
  const user = await signUpUser(fields);
  await verifyEmailOf(user);
  return user;
}
