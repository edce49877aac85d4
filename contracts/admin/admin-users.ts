import * as v from "valibot";
import { IdempotencyReference, plainLine, plainText } from "../fields.ts";

/**
 * The admin console's users section and audit log (issue 20, docs/decisions/051-admin-console.md):
 * requests and answers of /api/admin/users* and /api/admin/auditLog.
 */

export const ADMINS_ONLY = "Only admins can do this.";
export const USERS_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 25;
/** The most credits one grant may give: a typo of an extra zero or two is refused, not granted. */
export const MAX_ADMIN_GRANT = 10_000;

export const LAST_ADMIN = "This is the only admin account: make another account admin first.";
export const CANNOT_BLOCK_SELF = "You cannot block your own account.";
export const CANNOT_BLOCK_ADMIN = "Make this account a regular user before blocking it.";
export const NO_SUCH_USER = "There is no account with this id.";
export const REFERENCE_REUSED = "This grant was already made with other details. Please open the grant form again.";

const PageNumber = v.optional(
  v.pipe(v.string("page must be a number"), v.regex(/^\d{1,5}$/, "page must be a whole number"), v.transform(Number), v.minValue(1, "page must be at least 1")),
);

export const UserSearchQuery = v.object({
  q: v.optional(v.pipe(v.string("q must be text"), plainLine, v.trim(), v.maxLength(200, "q is too long"))),
  page: PageNumber,
});

export const AdminUserParam = v.object({
  userId: v.pipe(v.string("userId is required"), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "userId is not an account id")),
});

export const GrantCreditsBody = v.object({
  amount: v.pipe(
    v.number("amount must be a number"),
    v.integer("amount must be a whole number of credits"),
    v.minValue(1, "amount must be at least 1"),
    v.maxValue(MAX_ADMIN_GRANT, `amount must be at most ${MAX_ADMIN_GRANT}`),
  ),
  reason: v.pipe(v.string("reason is required"), plainText, v.trim(), v.nonEmpty("reason is required"), v.maxLength(300, "reason is too long")),
  /** One per grant form: a double click or a retry grants once. */
  reference: IdempotencyReference,
});

export const ChangeRoleBody = v.object({
  role: v.picklist(["user", "admin"], "role must be user or admin"),
});

export const AuditLogQuery = v.object({
  targetKind: v.optional(v.pipe(v.string("targetKind must be text"), v.regex(/^[a-z][a-z-]{0,39}$/, "targetKind is not a kind of target"))),
  targetId: v.optional(v.pipe(v.string("targetId must be text"), v.trim(), v.minLength(1, "targetId is empty"), v.maxLength(200, "targetId is too long"))),
  /** Older than this entry's time (ms since 1970), for the next page. */
  before: v.optional(v.pipe(v.string("before must be a number"), v.regex(/^\d{1,15}(\.\d+)?$/, "before must be a time in milliseconds"), v.transform(Number))),
});

export interface AdminUserRow {
  id: string;
  email: string;
  handle: string;
  name: string;
  role: "user" | "admin";
  planId: string;
  planName: string;
  planStatus: string;
  blocked: boolean;
  createdAt: string;
}

export interface AdminUserSearch {
  users: AdminUserRow[];
  page: number;
  hasMore: boolean;
}

export interface AdminUserDetail {
  user: AdminUserRow & { blockedAt: string | null; isEmailVerified: boolean };
  credits: { remaining: number; creditsPerMonth: number; usedPinCredits: number; periodEnd: string };
  ledger: { id: string; amount: number; reason: string; category: string; createdAt: string }[];
  pinterestProfiles: { username: string; isActive: boolean; status: string }[];
  shops: { shopType: string; shopName: string; status: string }[];
  pins: { id: string; action: string; title: string; pinterestProfile: string | null; createdAt: string }[];
  signIns: { createdAt: string; lastUsedAt: string; ended: boolean; userAgent: string | null }[];
}

export interface AuditEntry {
  id: string;
  adminEmail: string;
  action: string;
  targetKind: string;
  targetId: string;
  summary: string;
  before: unknown;
  after: unknown;
  /** ms since 1970: the page shows it in the reader's time zone. */
  createdAt: number;
}

export interface AuditLogPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next (older) page; null when this is the last. */
  nextBefore: number | null;
}
