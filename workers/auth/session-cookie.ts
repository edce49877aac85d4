import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Context } from "hono";

/** The browser's sign-in cookie, so server-rendered pages know the user. */
export const SESSION_COOKIE = "pb_session";
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export function setSessionCookie(c: Context, value: string) {
  setCookie(c, SESSION_COOKIE, value, {
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    path: "/",
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(c: Context) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
}

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

/** The cookie's value from a raw Cookie header (for Remix loaders). */
export function sessionCookieFrom(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

/**
 * The device cookie (decision 019): set on a successful sign-in, it marks this
 * browser as one the account's owner used before, so strangers' failed
 * sign-ins for the e-mail never lock it out. Signed, httpOnly, a year.
 */
export const DEVICE_COOKIE = "pb_device";
export const DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;

export function setDeviceCookie(c: Context, value: string) {
  setCookie(c, DEVICE_COOKIE, value, { httpOnly: true, secure: true, sameSite: "Lax", path: "/api/", maxAge: DEVICE_TTL_SECONDS });
}

export function readDeviceCookie(c: Context): string | undefined {
  return getCookie(c, DEVICE_COOKIE);
}
