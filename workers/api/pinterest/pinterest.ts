import {
  AccessTokenBody,
  BoardSectionsBody,
  CreateBoardBody,
  RefreshHandleBody,
  StateCheckBody,
  UsernameBody,
  type StateCheckResponse,
} from "../../../contracts/pinterest/pinterest-connection.ts";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sameSitePath } from "../../../contracts/paths.ts";
import { requireUser } from "../../auth/middleware.ts";
import {
  activateProfile,
  allBoards,
  boardSections,
  completeOAuth,
  createBoard,
  failingProfiles,
  oauthBindingCookieName,
  recordStateCheck,
  refreshHandle,
  removeProfile,
} from "../../services/pinterest/pinterest-connection.ts";
import { UploadVideoToPinterestBody, type UploadVideoToPinterestResponse } from "../../../contracts/pinterest/pinterest-media.ts";
import { uploadVideoToPinterest } from "../../services/pinterest/pinterest-media.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Pinterest connection calls (spec section 7, Pin-board connection). */
export const pinterestApi = router();

pinterestApi.post("/pinterestAPI/recordPinterestStateCheck", requireUser, valid("json", StateCheckBody), async (c) => {
  const { stateCheck, redirectUrl } = c.req.valid("json");
  const { authorizeUrl, binding } = await recordStateCheck(c.env, c.var.auth.user, stateCheck, redirectUrl);
  // Only this browser may finish the connection: the callback must bring this cookie back.
  setCookie(c, await oauthBindingCookieName(stateCheck), binding, { httpOnly: true, secure: true, sameSite: "Lax", path: CALLBACK_PATH, maxAge: 10 * 60 });
  return c.json({ authorizeUrl } satisfies StateCheckResponse);
});

const CALLBACK_PATH = "/api/pinterestAPI/oauthCallback";

/**
 * Pinterest sends the browser here after consent. The one-time state names
 * the user and must come back with the cookie of the browser that started it.
 * Goes back to the page that started it (a path of this site), with
 * `pinterestConnected=<username>` or `pinterestError=<message>`.
 */
pinterestApi.get("/pinterestAPI/oauthCallback", async (c) => {
  const state = c.req.query("state");
  const outcome = await completeOAuth(c.env, { code: c.req.query("code"), state, error: c.req.query("error") }, async (stateCheck) =>
    getCookie(c, await oauthBindingCookieName(stateCheck)),
  );
  if (state) deleteCookie(c, await oauthBindingCookieName(state), { path: CALLBACK_PATH, secure: true, httpOnly: true, sameSite: "Lax" });
  const target = new URL(outcome.redirectUrl, c.env.APP_URL);
  if (outcome.username) target.searchParams.set("pinterestConnected", outcome.username);
  if (outcome.error) target.searchParams.set("pinterestError", outcome.error);
  // outcome.redirectUrl is a normalised path of this site; the guard stays here too.
  const location = sameSitePath(`${target.pathname}${target.search}`, c.env.APP_URL) ?? "/scheduling";
  return c.redirect(location, 302);
});

pinterestApi.post("/pinterestAPI/activatePinterestProfile", requireUser, valid("json", UsernameBody), async (c) => {
  return c.json(await activateProfile(c.env, c.var.auth.user, c.req.valid("json").username));
});

pinterestApi.post("/pinterestAPI/removeAuthorizedPinterestProfile", requireUser, valid("json", UsernameBody), async (c) => {
  return c.json({ authorizedPinterestProfiles: await removeProfile(c.env, c.var.auth.user, c.req.valid("json").username) });
});

pinterestApi.get("/pinterestAPI/failingPinterestProfiles", requireUser, async (c) => {
  return c.json({ failingPinterestProfiles: await failingProfiles(c.env, c.var.auth.user.id) });
});

pinterestApi.post("/pinterestAPI/refreshPinterestAccessToken", requireUser, valid("json", RefreshHandleBody), async (c) => {
  return c.json(await refreshHandle(c.env, c.var.auth.user, c.req.valid("json").refresh_token));
});

pinterestApi.post("/pinterestAPI/getAllUserPinterestBoards", requireUser, valid("json", AccessTokenBody), async (c) => {
  return c.json({ items: await allBoards(c.env, c.var.auth.user, c.req.valid("json").access_token) });
});

pinterestApi.post("/pinterestAPI/getBoardSections", requireUser, valid("json", BoardSectionsBody), async (c) => {
  const { access_token, boardId } = c.req.valid("json");
  return c.json({ items: await boardSections(c.env, c.var.auth.user, access_token, boardId) });
});

pinterestApi.post("/pinterestAPI/createPinterestBoard", requireUser, valid("json", CreateBoardBody), async (c) => {
  const { access_token, ...board } = c.req.valid("json");
  return c.json({ board: await createBoard(c.env, c.var.auth.user, access_token, board) }, 201);
});

/** /videoApi/pinterestAPI/uploadVideoToPinterest: one of the caller's videos to Pinterest's media upload, answered once processed. */
export const pinterestVideo = router();

pinterestVideo.post("/pinterestAPI/uploadVideoToPinterest", requireUser, valid("json", UploadVideoToPinterestBody), async (c) => {
  return c.json((await uploadVideoToPinterest(c.env, c.var.auth.user, c.req.valid("json"))) satisfies UploadVideoToPinterestResponse);
});
