import {
  AccessTokenBody,
  BoardSectionsBody,
  CreateBoardBody,
  RefreshHandleBody,
  StateCheckBody,
  UsernameBody,
  type StateCheckResponse,
} from "../../contracts/pinterest-connection.ts";
import { requireUser } from "../auth/middleware.ts";
import {
  activateProfile,
  allBoards,
  boardSections,
  completeOAuth,
  createBoard,
  failingProfiles,
  recordStateCheck,
  refreshHandle,
  removeProfile,
} from "../services/pinterest-connection.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/** Pinterest connection calls (spec section 7, Pin-board connection). */
export const pinterestApi = router();

pinterestApi.post("/pinterestAPI/recordPinterestStateCheck", requireUser, valid("json", StateCheckBody), async (c) => {
  const { stateCheck, redirectUrl } = c.req.valid("json");
  return c.json({ authorizeUrl: await recordStateCheck(c.env, c.var.auth.user, stateCheck, redirectUrl) } satisfies StateCheckResponse);
});

/**
 * Pinterest sends the browser here after consent. No session is needed: the
 * one-time state names the user. Goes back to the page that started it, with
 * `pinterestConnected=<username>` or `pinterestError=<message>`.
 */
pinterestApi.get("/pinterestAPI/oauthCallback", async (c) => {
  const outcome = await completeOAuth(c.env, { code: c.req.query("code"), state: c.req.query("state"), error: c.req.query("error") });
  const target = new URL(outcome.redirectUrl, c.env.APP_URL);
  if (outcome.username) target.searchParams.set("pinterestConnected", outcome.username);
  if (outcome.error) target.searchParams.set("pinterestError", outcome.error);
  return c.redirect(`${target.pathname}${target.search}`, 302);
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
