import type { AdminUserDetail, AdminUserRow, AdminUserSearch, AuditLogPage } from "../../../contracts/admin/admin-users.ts";
import { apiJson } from "../../lib/api-client.ts";

/** The calls of the admin page's users and audit log sections (issue 20); the server checks the admin role on each. */
export const searchUsers = (q: string, page: number) => apiJson<AdminUserSearch>(`/api/admin/users?${new URLSearchParams({ q, page: String(page) })}`);
export const getUserDetail = (userId: string) => apiJson<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(userId)}`);
export const grantUserCredits = (userId: string, grant: { amount: number; reason: string; reference: string }) =>
  apiJson<{ granted: boolean; remaining: number }>(`/api/admin/users/${encodeURIComponent(userId)}/credits`, { json: grant });
export const changeUserRole = (userId: string, role: "user" | "admin") =>
  apiJson<{ changed: boolean; user: AdminUserRow }>(`/api/admin/users/${encodeURIComponent(userId)}/role`, { json: { role } });
export const setUserBlocked = (userId: string, blocked: boolean) =>
  apiJson<{ changed: boolean; user: AdminUserRow }>(`/api/admin/users/${encodeURIComponent(userId)}/${blocked ? "block" : "unblock"}`, { json: {} });
/** Every audit log read starts with this: an admin action refreshes them all. */
export const AUDIT_LOG_KEY = ["admin", "auditLog"];
/** The cache key of an audit log's newest page, for one kind of target or one target (an account's history too). */
export const auditLogKey = (filter: { targetKind?: string; targetId?: string }) => [...AUDIT_LOG_KEY, filter.targetKind ?? null, filter.targetId ?? null];
export function getAuditLog(filter: { targetKind?: string; targetId?: string; before?: number }) {
  const query = new URLSearchParams();
  if (filter.targetKind) query.set("targetKind", filter.targetKind);
  if (filter.targetId) query.set("targetId", filter.targetId);
  if (filter.before !== undefined) query.set("before", String(filter.before));
  return apiJson<AuditLogPage>(`/api/admin/auditLog?${query}`);
}

/** A moment in the reader's own time zone (the browser's), e.g. "Thu, 26 Nov 2026, 09:40". */
export function localTime(at: number | string): string {
  const ms = typeof at === "number" ? at : Date.parse(at);
  return new Intl.DateTimeFormat("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(ms));
}

/** A key of an audit entry's before/after record in words: "openSignIns" as "Open sign ins". */
const KEY_WORDS: Record<string, string> = { remaining: "Credits left", openSignIns: "Open sign-ins", amount: "Credits granted", blockedAt: "Blocked since" };
export function keyInWords(key: string): string {
  if (KEY_WORDS[key]) return KEY_WORDS[key];
  const words = key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A recorded value in words: yes/no, times in the reader's zone, lists joined. */
export function valueInWords(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))) return localTime(value);
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(valueInWords).join(", ");
  return Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${keyInWords(key)}: ${valueInWords(item)}`)
    .join("; ");
}
