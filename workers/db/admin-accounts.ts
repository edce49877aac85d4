import { sqlLiteral } from "./seed.ts";

/**
 * Admin accounts made outside the API (issue 20, docs/decisions/051-admin-console.md): the SQL of
 * `npm run admin:grant -- EMAIL` (scripts/admin-grant.ts) and of the local seed's documented admin account.
 * Plain statements with numbered parameters, so workers tests run exactly these against D1 and the script
 * inlines them into a file for `wrangler d1 execute`.
 */

export interface SqlStatement {
  sql: string;
  params: (string | number | null)[];
}

/** Who the audit log names as the actor of the script: no account, this e-mail. */
export const ADMIN_GRANT_ACTOR = "admin:grant script";

/** The account the script is about to change: its id, role and block, to explain a refusal before writing. */
export function adminGrantLookup(email: string): SqlStatement {
  return { sql: "SELECT id, email, role, blocked_at FROM users WHERE email = ?1", params: [email.trim().toLowerCase()] };
}

/**
 * Makes the account with this e-mail an admin, with its audit entry, in one file (one transaction). Both
 * statements carry the same condition (a regular, unblocked account), the audit insert first: the entry is
 * written exactly when the role changes, and running it again for an admin changes and records nothing.
 */
export function adminGrantStatements(email: string, now: number, auditId: string = crypto.randomUUID()): SqlStatement[] {
  const address = email.trim().toLowerCase();
  return [
    {
      sql: `INSERT INTO admin_audit_log (id, admin_id, admin_email, action, target_kind, target_id, summary, before, after, created_at)
            SELECT ?1, NULL, ?2, 'user.role', 'user', id, 'Made ' || email || ' an admin with npm run admin:grant.', '{"role":"user"}', '{"role":"admin"}', ?3
            FROM users WHERE email = ?4 AND role = 'user' AND blocked_at IS NULL`,
      params: [auditId, ADMIN_GRANT_ACTOR, now, address],
    },
    {
      sql: `UPDATE users SET role = 'admin', updated_at = ?1 WHERE email = ?2 AND role = 'user' AND blocked_at IS NULL`,
      params: [now, address],
    },
  ];
}

/** Why the script will not (or need not) act on what the lookup found; null when it should go ahead. */
export function adminGrantRefusal(email: string, found: { role: string; blocked_at: number | null } | undefined): { message: string; failed: boolean } | null {
  if (!found) return { message: `There is no account with the e-mail ${email}. Sign up with it first, then run this again.`, failed: true };
  if (found.role === "admin") return { message: `${email} is already an admin: nothing changed.`, failed: false };
  if (found.blocked_at !== null) return { message: `${email} is blocked. Unblock it on /admin first, then run this again.`, failed: true };
  return null;
}

/** The statements as one SQL text, values inlined, for `wrangler d1 execute --file`. */
export function inlineStatements(statements: SqlStatement[]): string {
  return statements.map(({ sql, params }) => `${sql.replace(/\?(\d+)/g, (_, n: string) => sqlLiteral(params[Number(n) - 1]))};`).join("\n");
}

/**
 * The documented admin account of local development (README): only `prepareDatabase` (npm start, the e2e
 * stack, npm run db:seed without --remote) adds it; the production seed never does. Inserted once: a
 * developer's later changes to it stay.
 */
export const LOCAL_ADMIN = {
  id: "local-admin",
  email: "admin@pinboard.local",
  password: "Pinboard-Local-Admin-2026",
  handle: "local-admin",
  referralCode: "LOCALADM",
} as const;

export function localAdminStatements(passwordHash: string, now: number): SqlStatement[] {
  return [
    {
      sql: `INSERT INTO users (id, email, password_hash, first_name, last_name, handle, role, referral_code, is_email_verified, updated_at, created_at)
            VALUES (?1, ?2, ?3, 'Local', 'Admin', ?4, 'admin', ?5, 1, ?6, ?6)
            ON CONFLICT DO NOTHING`,
      params: [LOCAL_ADMIN.id, LOCAL_ADMIN.email, passwordHash, LOCAL_ADMIN.handle, LOCAL_ADMIN.referralCode, now],
    },
  ];
}
