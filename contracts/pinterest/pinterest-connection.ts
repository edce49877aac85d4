import * as v from "valibot";
import { body, plainLine, plainText } from "../fields.ts";
import type { SchedulingSettings } from "./scheduling.ts";

/**
 * Pinterest connection calls (spec section 7, Pin-board connection). The
 * browser never sees Pinterest's tokens: `authToken` and `refreshToken` are
 * our own short-lived signed handles for one connected profile of the caller,
 * and every call resolves them to the tokens sealed in the database.
 */
const Handle = (field: string) => v.pipe(v.string(`${field} is required`), v.nonEmpty(`${field} is required`), v.maxLength(2000, `${field} is too long`));
const Username = v.pipe(v.string("username is required"), v.trim(), v.nonEmpty("username is required"), v.maxLength(100, "username is too long"));

export const StateCheckBody = body({
  stateCheck: v.pipe(v.string("stateCheck is required"), v.regex(/^[A-Za-z0-9_-]{16,128}$/, "stateCheck must be 16-128 letters, digits, - or _")),
  /** Where to come back to after Pinterest: a path of this site, e.g. /scheduling. */
  redirectUrl: v.pipe(v.string("redirectUrl is required"), v.regex(/^\/(?!\/)[^\s\\]{0,500}$/, "redirectUrl must be a path of this site, such as /scheduling")),
});
export interface StateCheckResponse {
  /** Pinterest's authorization page with our client id, scopes, state and callback. */
  authorizeUrl: string;
}

export const UsernameBody = body({ username: Username });
export const AccessTokenBody = body({ access_token: Handle("access_token") });
export const BoardSectionsBody = body({
  access_token: Handle("access_token"),
  boardId: v.pipe(v.string("boardId is required"), v.regex(/^[0-9A-Za-z_-]{1,64}$/, "boardId is not a board id")),
});
export const CreateBoardBody = body({
  access_token: Handle("access_token"),
  boardName: v.pipe(
    v.string("boardName is required"),
    plainLine,
    v.trim(),
    v.nonEmpty("boardName is required"),
    v.maxLength(180, "boardName must be at most 180 characters"),
  ),
  boardCategory: v.optional(v.pipe(v.string(), v.maxLength(100)), ""),
  boardDescription: v.optional(v.pipe(v.string(), plainText, v.maxLength(500, "boardDescription must be at most 500 characters")), ""),
});
export const RefreshHandleBody = body({ refresh_token: Handle("refresh_token") });

export interface AuthorizedPinterestProfile {
  username: string;
  isActive: boolean;
  /** ok, or reauth (reconnect needed), or blocked (Pinterest refuses the account). */
  status: "ok" | "reauth" | "blocked";
  profileImage: string | null;
}

export interface ActivateResponse {
  authToken: string;
  refreshToken: string;
  /** When authToken stops working (ms since the epoch); renew with refreshPinterestAccessToken. */
  expiresAt: number;
  schedulingSettings: SchedulingSettings;
  authorizedPinterestProfiles: AuthorizedPinterestProfile[];
}

export const REAUTHENTICATE_MESSAGE = "User needs to reauthenticate";
export const BLOCKED_MESSAGE = "Pinterest profile is blocked";
