import { runDurableObjectAlarm } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { database } from "../../../workers/db/client.ts";
import { pinterestProfiles } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { schedulerFor } from "../../../workers/services/pinterest/scheduler-index.ts";
import { bearer, json, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv, cookiesSetBy } from "../support.ts";

/** Helpers for the scheduling tests: connected sandbox profiles, credits, the queue and what the stand-in received. */

let counter = 0;
/** A Pinterest username unique to this run (the sandbox keeps accounts between test files). */
export const pinterestName = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter += 1)}`.slice(0, 30);

export interface SandboxBoard {
  id: string;
  name: string;
  privacy: string;
  sections: { id: string; name: string }[];
}

export interface SandboxPin {
  id: string;
  username: string;
  board_id: string;
  board_section_id: string | null;
  title: string | null;
  description: string | null;
  link: string | null;
  alt_text: string | null;
  media: { source_type: string; url?: string; media_id?: string };
  created_at: string;
}

export interface ConnectedProfile {
  username: string;
  /** The pinterest_profiles row id: the name of its ProfileScheduler. */
  profileId: string;
  boards: SandboxBoard[];
}

/**
 * A posting window (GMT seconds of the day) that opens two hours from now and
 * lasts three: Queue pins of a test then never fall due while it runs.
 */
export function farWindow(now = Date.now()): [number, number] {
  const secondOfDay = Math.floor((now % 86_400_000) / 1000);
  const start = Math.floor(((secondOfDay + 7_200) % 86_400) / 60) * 60;
  return [start, (start + 10_800) % 86_400];
}

/**
 * Connects a sandbox Pinterest account the way a browser does (state check,
 * auto-approved consent, callback) and gives it scheduling settings whose
 * slots are hours away (`settings: null` keeps the defaults).
 */
export async function connectProfile(user: TestUser, username: string, options: { settings?: Record<string, unknown> | null } = {}): Promise<ConnectedProfile> {
  const stateCheck = `state-${crypto.randomUUID()}`;
  const started = await app("/api/pinterestAPI/recordPinterestStateCheck", json({ stateCheck, redirectUrl: "/scheduling" }, bearer(user.tokens)));
  if (started.status !== 200) throw new Error(`state check answered ${started.status}`);
  const { authorizeUrl } = await read(started);
  const consent = await fetch(`${authorizeUrl}&auto_approve=1&username=${username}`, { redirect: "manual" });
  const back = new URL(consent.headers.get("location")!);
  const callback = await app(`${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie: cookiesSetBy(started) } });
  if (!callback.headers.get("location")?.includes("pinterestConnected=")) throw new Error(`connecting ${username} failed: ${callback.headers.get("location")}`);
  const row = await database(testEnv.DB).query.pinterestProfiles.findFirst({
    where: and(eq(pinterestProfiles.userId, user.userId), eq(pinterestProfiles.username, username)),
  });
  const settings = options.settings === undefined ? { windowOneTimes: farWindow(), windowTwoTimes: null } : options.settings;
  if (settings) {
    const saved = await app("/api/scheduling/saveSchedulingSettings", json({ newSettings: settings, pinterestProfileUsername: username }, bearer(user.tokens)));
    if (saved.status !== 200) throw new Error(`saving settings of ${username} answered ${saved.status}: ${await saved.text()}`);
  }
  const accounts = await sandbox<{ username: string; boards: SandboxBoard[] }[]>("/pinterest/accounts");
  const boards = accounts.find((account) => account.username === username)?.boards ?? [];
  return { username, profileId: row!.id, boards };
}

/** Gives a test user credits for this month (a grant row in the ledger, as a plan's grant would be). */
export async function grantCredits(user: TestUser, amount: number) {
  await ledgerOf(testEnv, user.userId)
    .prepare(`INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES (?1, ?2, ?3, 'grant', 'test grant', ?4, ?5)`)
    .bind(crypto.randomUUID(), user.userId, amount, `test-grant:${crypto.randomUUID()}`, Date.now())
    .run();
}

export async function remainingCredits(user: TestUser): Promise<number> {
  return (await read(await app("/api/user/credits", { headers: bearer(user.tokens) }))).remaining;
}

export function post(user: TestUser, path: string, body: unknown) {
  return app(path, json(body, bearer(user.tokens)));
}

export function get(user: TestUser, path: string) {
  return app(path, { headers: bearer(user.tokens) });
}

/** A pin to schedule on a profile's first board. */
export function imagePin(profile: ConnectedProfile, fields: Record<string, unknown> = {}) {
  const n = (counter += 1);
  return {
    title: `Linen napkins, fold ${n}`,
    description: `Three ways to fold linen napkins for a dinner table (${n}).`,
    altText: `Folded linen napkins on an oak table (${n})`,
    url: `https://linen.example/posts/napkins-${n}`,
    imageURL: `https://linen.example/media/napkins-${n}.jpeg`,
    boardId: profile.boards[0].id,
    boardName: profile.boards[0].name,
    pinterestProfileUsername: profile.username,
    type: "Queue",
    ...fields,
  };
}

export async function sandboxPins(username: string): Promise<SandboxPin[]> {
  return sandbox<SandboxPin[]>(`/pinterest/pins?username=${encodeURIComponent(username)}`);
}

export function schedulerOf(profile: ConnectedProfile) {
  return schedulerFor(testEnv, profile.profileId);
}

/** Runs the profile's alarm now if one is set (alarms also fire on their own). */
export async function runAlarm(profile: ConnectedProfile) {
  return runDurableObjectAlarm(schedulerOf(profile));
}
