import type { Context } from "hono";
import { createHash } from "node:crypto";
import { ERRORS, pinterestError } from "./http.ts";
import { expireAccessTokens, revokeTokens, type PinterestState } from "./state.ts";

/**
 * A seeded fault rate on creating pins (`POST /v5/pins`): "fail 20% of
 * create-pin calls with a random one of these kinds". Whether a call fails,
 * and how, is a hash of the seed, the pin's title (else its link) and how many
 * times the account sent that pin before: the same pins meet the same faults in
 * every run, whatever order the calls arrive in.
 *
 * Kinds (before: nothing is created; after: the pin exists, the answer is lost):
 * - `server_error` (before): 500, 502 or 503;
 * - `rate_limited` (before): 429 code 8 with Retry-After and x-ratelimit-reset;
 * - `token_expired` (before): the account's access tokens expire now, 401 code 2;
 * - `token_revoked` (before): every token of the account stops working, 401 code 2;
 * - `lost_answer` (after): the connection breaks before any answer;
 * - `error_after_create` (after): 502 or 504, as a gateway that gave up on a slow backend;
 * - `late_answer` (after): the answer is held back `delayMs` (longer than the client waits).
 */
export const FAULT_KINDS = ["server_error", "rate_limited", "token_expired", "token_revoked", "lost_answer", "error_after_create", "late_answer"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The kinds used when a plan names none (late_answer is left out: each one holds a call for delayMs). */
export const DEFAULT_FAULT_KINDS: FaultKind[] = ["server_error", "rate_limited", "token_expired", "token_revoked", "lost_answer", "error_after_create"];

export interface FaultPlan {
  /** Share of create-pin calls that fail, 0 to 1. */
  rate: number;
  seed: string;
  /** Each kind with its weight (a kind twice as heavy is picked twice as often). */
  kinds: Partial<Record<FaultKind, number>>;
  /** How long a late answer is held back. */
  delayMs: number;
  /** Create-pin calls seen per pin (by account and title), for the call's place in the sequence. */
  calls: Map<string, number>;
  /** Faults injected so far, by kind. */
  injected: Partial<Record<FaultKind, number>>;
  /** Create-pin calls this plan was asked about. */
  seen: number;
}

/** The plan of one account, else the plan for every account ("*"). */
export function planFor(pinterest: PinterestState, username: string): FaultPlan | null {
  return pinterest.faultPlans.get(username) ?? pinterest.faultPlans.get("*") ?? null;
}

/** A plan from a control call's body, or the problem with it. */
export function parseFaultPlan(input: Record<string, unknown>): FaultPlan | string {
  const rate = input.rate;
  if (typeof rate !== "number" || !Number.isFinite(rate) || rate < 0 || rate > 1) return "rate must be a number from 0 to 1";
  const seed = input.seed ?? "0";
  if ((typeof seed !== "string" && typeof seed !== "number") || String(seed).length > 200) return "seed must be a string or a number";
  let kinds: Partial<Record<FaultKind, number>> = Object.fromEntries(DEFAULT_FAULT_KINDS.map((kind) => [kind, 1]));
  if (input.kinds !== undefined) {
    const given = Array.isArray(input.kinds) ? Object.fromEntries(input.kinds.map((kind) => [kind, 1])) : input.kinds;
    if (!given || typeof given !== "object") return "kinds must be a list of fault kinds or an object of kind: weight";
    kinds = {};
    for (const [kind, weight] of Object.entries(given as Record<string, unknown>)) {
      if (!(FAULT_KINDS as readonly string[]).includes(kind)) return `unknown fault kind ${JSON.stringify(kind)}: use ${FAULT_KINDS.join(", ")}`;
      if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0) return `the weight of ${kind} must be a number, 0 or more`;
      if (weight > 0) kinds[kind as FaultKind] = weight;
    }
    if (Object.keys(kinds).length === 0 && rate > 0) return "kinds must name at least one fault kind";
  }
  const delayMs = input.delayMs ?? 20_000;
  if (typeof delayMs !== "number" || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > 600_000) return "delayMs must be an integer from 0 to 600000";
  return { rate, seed: String(seed), kinds, delayMs, calls: new Map(), injected: {}, seen: 0 };
}

export function planView(scope: string, plan: FaultPlan) {
  return {
    username: scope === "*" ? null : scope,
    rate: plan.rate,
    seed: plan.seed,
    kinds: plan.kinds,
    delayMs: plan.delayMs,
    seen: plan.seen,
    injected: plan.injected,
  };
}

/** Two numbers in [0, 1) from a seed text. */
function uniforms(text: string): [number, number] {
  const digest = createHash("sha256").update(text).digest();
  return [digest.readUInt32BE(0) / 2 ** 32, digest.readUInt32BE(4) / 2 ** 32];
}

/** A fault a create-pin call meets; `detail` (0 to 1) picks its status or its reset time. */
export interface ChosenFault {
  kind: FaultKind;
  detail: number;
}

/** The fault this create-pin call meets, if any (counted as injected). */
export function chooseFault(plan: FaultPlan, username: string, pin: { title?: unknown; link?: unknown }): ChosenFault | null {
  const identity = typeof pin.title === "string" && pin.title ? `t:${pin.title}` : `l:${typeof pin.link === "string" ? pin.link : ""}`;
  const key = `${username}\u0000${identity}`;
  const call = (plan.calls.get(key) ?? 0) + 1;
  plan.calls.set(key, call);
  plan.seen += 1;
  // The account is left out of the hash: a test whose usernames change from run to run meets the same faults.
  const [hit, pick] = uniforms(`${plan.seed}\u0000${identity}\u0000${call}`);
  const [detail] = uniforms(`${plan.seed}\u0000${identity}\u0000${call}\u0000detail`);
  if (hit >= plan.rate) return null;
  const weights = Object.entries(plan.kinds) as [FaultKind, number][];
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  if (total <= 0) return null;
  let point = pick * total;
  let kind = weights[weights.length - 1][0];
  for (const [candidate, weight] of weights) {
    if (point < weight) {
      kind = candidate;
      break;
    }
    point -= weight;
  }
  plan.injected[kind] = (plan.injected[kind] ?? 0) + 1;
  return { kind, detail };
}

/** Whether the kind lets the pin be created first. */
export function createsFirst({ kind }: ChosenFault): boolean {
  return kind === "lost_answer" || kind === "error_after_create" || kind === "late_answer";
}

/** The answer of a fault that comes before the pin is created (and the token change it makes). */
export function faultBeforeCreate(c: Context, pinterest: PinterestState, username: string, { kind, detail }: ChosenFault): Response {
  switch (kind) {
    case "server_error": {
      const status = ([500, 502, 503] as const)[Math.floor(detail * 3)];
      return c.json({ code: status, message: `Fault injected by the sandbox (${status})` }, status);
    }
    case "rate_limited": {
      const reset = String(1 + Math.floor(detail * 2));
      c.header("retry-after", reset);
      c.header("x-ratelimit-reset", reset);
      c.header("x-ratelimit-remaining", "0");
      return pinterestError(c, ERRORS.rateLimited);
    }
    case "token_expired":
      expireAccessTokens(pinterest, username, Date.now() - 1);
      return pinterestError(c, ERRORS.authenticationFailed);
    case "token_revoked":
      revokeTokens(pinterest, username);
      return pinterestError(c, ERRORS.authenticationFailed);
    default:
      throw new Error(`${kind} is not a fault that comes before creating`);
  }
}
