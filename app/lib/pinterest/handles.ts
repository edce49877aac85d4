/**
 * The Pinterest handles the browser holds (spec section 3, client-side
 * storage): session storage keeps the access token with `expires_at` and the
 * refresh token with `refresh_token_expires_in` and `refresh_token_expires_at`.
 * They are our own short-lived handles for one connected profile, never
 * Pinterest's tokens (docs/decisions/011). Each entry names the user and the
 * profile it belongs to, so a handle left in the tab by someone else (or for
 * another profile) is never sent.
 */

export const ACCESS_TOKEN_KEY = "pinterestAccessToken";
export const REFRESH_TOKEN_KEY = "pinterestRefreshToken";

/** A handle is renewed this long before it expires, so a call never starts with a dying one. */
export const EXPIRY_MARGIN_MS = 60_000;

export type HandleStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export interface StoredAccessToken {
  userId: string;
  username: string;
  access_token: string;
  /** ms since the epoch. */
  expires_at: number;
}

export interface StoredRefreshToken {
  userId: string;
  username: string;
  refresh_token: string;
  /** Seconds the refresh token had left when it was stored. */
  refresh_token_expires_in: number;
  /** ms since the epoch. */
  refresh_token_expires_at: number;
}

/** What activatePinterestProfile and refreshPinterestAccessToken answer. */
export interface IssuedHandles {
  authToken: string;
  refreshToken: string;
  expiresAt: number;
}

/** The `exp` claim (seconds) of a JWT, read without checking it (the server checks). Null when unreadable. */
export function jwtExpiry(token: string): number | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const base64 = payload
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(payload.length / 4) * 4, "=");
    const claims = JSON.parse(atob(base64)) as { exp?: unknown };
    return typeof claims.exp === "number" && Number.isFinite(claims.exp) ? claims.exp : null;
  } catch {
    return null;
  }
}

function read<T>(store: HandleStore | null, key: string): T | null {
  const raw = store?.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Stores freshly issued handles of `username` for `userId`. */
export function saveHandles(store: HandleStore | null, owner: { userId: string; username: string }, issued: IssuedHandles, now: number) {
  if (!store) return;
  const access: StoredAccessToken = { ...owner, access_token: issued.authToken, expires_at: issued.expiresAt };
  // The refresh handle's lifetime is in its own claims; without one, assume it dies with the access handle.
  const refreshExpiresAt = (jwtExpiry(issued.refreshToken) ?? issued.expiresAt / 1000) * 1000;
  const refresh: StoredRefreshToken = {
    ...owner,
    refresh_token: issued.refreshToken,
    refresh_token_expires_in: Math.max(0, Math.round((refreshExpiresAt - now) / 1000)),
    refresh_token_expires_at: refreshExpiresAt,
  };
  try {
    store.setItem(ACCESS_TOKEN_KEY, JSON.stringify(access));
    store.setItem(REFRESH_TOKEN_KEY, JSON.stringify(refresh));
  } catch {
    // A full or disabled storage only costs a refresh later.
  }
}

export function clearHandles(store: HandleStore | null) {
  store?.removeItem(ACCESS_TOKEN_KEY);
  store?.removeItem(REFRESH_TOKEN_KEY);
}

function belongs(entry: { userId?: unknown; username?: unknown } | null, owner: { userId: string; username: string }): boolean {
  return entry !== null && entry.userId === owner.userId && entry.username === owner.username;
}

/** The stored access handle of this user's profile if it still has more than the margin to live. */
export function usableAccessToken(store: HandleStore | null, owner: { userId: string; username: string }, now: number): string | null {
  const entry = read<StoredAccessToken>(store, ACCESS_TOKEN_KEY);
  if (!belongs(entry, owner) || typeof entry!.access_token !== "string") return null;
  return entry!.expires_at - EXPIRY_MARGIN_MS > now ? entry!.access_token : null;
}

/** The stored refresh handle of this user's profile if it has not expired. */
export function usableRefreshToken(store: HandleStore | null, owner: { userId: string; username: string }, now: number): string | null {
  const entry = read<StoredRefreshToken>(store, REFRESH_TOKEN_KEY);
  if (!belongs(entry, owner) || typeof entry!.refresh_token !== "string") return null;
  return entry!.refresh_token_expires_at > now ? entry!.refresh_token : null;
}

/** The browser's session storage, or null where there is none (server rendering, privacy modes). */
export function browserHandleStore(): HandleStore | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
