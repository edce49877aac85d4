import { describe, expect, it } from "vitest";
import { pruneGrowingTables } from "../../../workers/services/core/table-retention.ts";
import { signUpUser } from "../accounts/accounts-support.ts";
import { testEnv } from "../support.ts";

// Issue 38, decision 084: the D1 tables that grow per request keep only what still serves.
const DAY = 86_400_000;

describe("tables that grow per request are pruned by the cron", () => {
  it("forgets expired sign-in round trips, old delivery ids and ended sign-ins, and keeps what is still live", async () => {
    const user = await signUpUser({ firstName: "Elin" });
    const now = Date.now();
    const tag = crypto.randomUUID().slice(0, 8);
    await testEnv.DB.batch([
      testEnv.DB.prepare(`INSERT INTO pinterest_oauth_states (state_hash, user_id, redirect_url, expires_at) VALUES (?1, ?2, '/scheduling', ?3)`).bind(
        `old-${tag}`,
        user.userId,
        now - 2 * DAY,
      ),
      testEnv.DB.prepare(`INSERT INTO pinterest_oauth_states (state_hash, user_id, redirect_url, expires_at) VALUES (?1, ?2, '/scheduling', ?3)`).bind(
        `new-${tag}`,
        user.userId,
        now + 600_000,
      ),
      testEnv.DB.prepare(`INSERT INTO webhook_events (provider, event_id, type, created_at) VALUES ('stripe', ?1, 'invoice.paid', ?2)`).bind(
        `evt_old_${tag}`,
        now - 91 * DAY,
      ),
      testEnv.DB.prepare(`INSERT INTO webhook_events (provider, event_id, type, created_at) VALUES ('stripe', ?1, 'invoice.paid', ?2)`).bind(
        `evt_new_${tag}`,
        now - 89 * DAY,
      ),
      testEnv.DB.prepare(`INSERT INTO auth_sessions (id, user_id, cookie_hash, last_used_at, expires_at, revoked_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`).bind(
        `ended-${tag}`,
        user.userId,
        `cookie-ended-${tag}`,
        now - 40 * DAY,
        now + DAY,
        now - 31 * DAY,
      ),
      testEnv.DB.prepare(`INSERT INTO refresh_tokens (token_hash, session_id) VALUES (?1, ?2)`).bind(`token-${tag}`, `ended-${tag}`),
    ]);
    const deleted = await pruneGrowingTables(testEnv, now);
    expect(deleted.pinterest_oauth_states).toBeGreaterThanOrEqual(1);
    const left = await testEnv.DB.batch<{ n: number }>([
      testEnv.DB.prepare(`SELECT count(*) AS n FROM pinterest_oauth_states WHERE state_hash IN (?1, ?2)`).bind(`old-${tag}`, `new-${tag}`),
      testEnv.DB.prepare(`SELECT count(*) AS n FROM pinterest_oauth_states WHERE state_hash = ?1`).bind(`new-${tag}`),
      testEnv.DB.prepare(`SELECT count(*) AS n FROM webhook_events WHERE event_id IN (?1, ?2)`).bind(`evt_old_${tag}`, `evt_new_${tag}`),
      testEnv.DB.prepare(`SELECT count(*) AS n FROM webhook_events WHERE event_id = ?1`).bind(`evt_new_${tag}`),
      testEnv.DB.prepare(`SELECT count(*) AS n FROM auth_sessions WHERE id = ?1`).bind(`ended-${tag}`),
      testEnv.DB.prepare(`SELECT count(*) AS n FROM refresh_tokens WHERE token_hash = ?1`).bind(`token-${tag}`),
      testEnv.DB.prepare(`SELECT count(*) AS n FROM auth_sessions WHERE user_id = ?1 AND revoked_at IS NULL`).bind(user.userId),
    ]);
    expect(left.map((result) => result.results[0].n)).toEqual([1, 1, 1, 1, 0, 0, 1]);
  });
});
