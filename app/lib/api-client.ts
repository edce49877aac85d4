/**
 * The browser's API client (spec sections 4, 7 and 8). The id token is sent as a
 * Bearer header; on 403 it is refreshed once and the call retried; a refresh
 * answered by 401 or 403 means a full logout. Every response's x-app-version is
 * compared with the client's version to tell the user when the app was updated.
 */

import { version } from "../../package.json";

/** package.json's version, put in the bundle at build time (only this field of the file is). */
export const CLIENT_VERSION: string = version;
export const ID_TOKEN_KEY = "FBIdToken";
export const REFRESH_TOKEN_KEY = "FBRefreshToken";

/** Fired on window when the server's version differs from ours. */
export const APP_UPDATED_EVENT = "pinboard:app-updated";
/** Fired on window after a full logout (tokens cleared), so UI state can reset. */
export const LOGGED_OUT_EVENT = "pinboard:logged-out";

export class ApiError extends Error {
  readonly status: number;
  readonly field?: string;
  constructor(status: number, message: string, field?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.field = field;
  }
}

export interface Tokens {
  idToken: string;
  refreshToken: string;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function storedTokens(): Tokens | null {
  const store = storage();
  const idToken = store?.getItem(ID_TOKEN_KEY);
  const refreshToken = store?.getItem(REFRESH_TOKEN_KEY);
  return idToken && refreshToken ? { idToken, refreshToken } : null;
}

export function storeTokens(tokens: Tokens) {
  storage()?.setItem(ID_TOKEN_KEY, tokens.idToken);
  storage()?.setItem(REFRESH_TOKEN_KEY, tokens.refreshToken);
}

export function clearTokens() {
  storage()?.removeItem(ID_TOKEN_KEY);
  storage()?.removeItem(REFRESH_TOKEN_KEY);
}

function noticeVersion(response: Response) {
  const serverVersion = response.headers.get("x-app-version");
  if (serverVersion && serverVersion !== CLIENT_VERSION && typeof window !== "undefined") {
    window.dispatchEvent(new CustomEvent(APP_UPDATED_EVENT, { detail: { serverVersion } }));
  }
}

let refreshing: Promise<boolean> | null = null;

/** Exchanges the stored refresh token for a new pair (one refresh at a time). False means: logged out. */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const tokens = storedTokens();
    if (!tokens) return false;
    const response = await fetch("/api/auth/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "refresh_token", refresh_token: tokens.refreshToken }),
    });
    noticeVersion(response);
    if (response.ok) {
      storeTokens((await response.json()) as Tokens);
      return true;
    }
    if (response.status === 401 || response.status === 403) await fullLogout();
    return false;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Clears every stored token and ends the server session (cookie). */
export async function fullLogout() {
  const tokens = storedTokens();
  clearTokens();
  await fetch("/api/logout", {
    method: "POST",
    headers: { "content-type": "application/json", ...(tokens ? { authorization: `Bearer ${tokens.idToken}` } : {}) },
    body: JSON.stringify(tokens ? { refreshToken: tokens.refreshToken } : {}),
  }).catch(() => undefined);
  if (typeof window !== "undefined") window.dispatchEvent(new Event(LOGGED_OUT_EVENT));
}

/** fetch for our API: bearer header, one refresh-and-retry on 403, version notice. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  let sentIdToken: string | null = null;
  const send = () => {
    const headers = new Headers(init.headers);
    const tokens = storedTokens();
    sentIdToken = tokens?.idToken ?? null;
    if (tokens && !headers.has("authorization")) headers.set("authorization", `Bearer ${tokens.idToken}`);
    if (init.body && typeof init.body === "string" && !headers.has("content-type")) headers.set("content-type", "application/json");
    return fetch(path, { ...init, headers, credentials: "same-origin" });
  };
  let response = await send();
  noticeVersion(response);
  const stored = storedTokens();
  if (response.status === 403 && stored) {
    // Refreshed meanwhile (this tab or another) since the call was sent: retry with the new token
    // rather than spend the new refresh token on a second refresh.
    if (stored.idToken !== sentIdToken || (await refreshTokens())) {
      response = await send();
      noticeVersion(response);
    }
  }
  return response;
}

/** apiFetch that answers the JSON body, or throws ApiError with the server's message and field. */
export async function apiJson<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const response = await apiFetch(path, json === undefined ? rest : { method: "POST", ...rest, body: JSON.stringify(json) });
  const body = (await response.json().catch(() => null)) as (T & { error?: string; field?: string }) | null;
  if (!response.ok) {
    throw new ApiError(response.status, body?.error ?? `The request failed (${response.status}). Please try again.`, body?.field);
  }
  return body as T;
}

/** The server's text for a failed call, or null when it gave none. */
export function serverMessage(error: unknown): string | null {
  return error instanceof ApiError && error.message ? error.message : null;
}
